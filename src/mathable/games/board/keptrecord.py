"""The record of a kept game (issue 37): a game kept at a real table, as a game record
(:mod:`mathable.engine.records`) that replays in the web and the terminal.

A record is a seed, a setup (the racks dealt and the bag in draw order) and the actions.
The keeper knows every token placed and, at the end, every token left on a rack; it never
knows the racks' other tokens nor the tokens given back in an exchange (ruling R1). The
record **reconstructs** them: values consistent with the set's count of each value, so
the replay places exactly the tokens the table placed, ends with exactly the tokens the
table counted left, and scores as the keeper did. The racks it shows along the way may
hold other tokens than the table's did (those never seen).

Exact replay with exchanges needs no change to the engine. With a setup, the game's
generator (seeded by the record's seed) is used by exchanges only (C8: the bag shaken
after the tokens given back go in; O5's ``shake`` is never written here), and a shuffle's
permutation depends on the bag's length alone, never on its values. So the deal is worked
out on tokens without values first -- the tokens are followed through draws, placements,
exchanges and shuffles exactly as the engine moves them -- and each token takes its value
from where it ends: on the board (the value placed), on a rack at the end (the value
counted left), else (still in the bag, or on a rack of an unfinished game) a value the set
still has. The record is then replayed by the engine and compared with the keeper (board,
scores, the end): the table's end is the rules' own (C11) or, in Junior, a stop the
players agreed (J4, written ``stop`` then ``accept``); a kept game whose turns the engine
cannot replay -- the table ended where the rules do not, or went on where they end -- is
refused with the reason.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from mathable.engine import records
from mathable.engine.actions import Accept, EndGame, EndTurn
from mathable.engine.errors import MathableError
from mathable.engine.metadata import HouseRules
from mathable.engine.protocol import Game
from mathable.engine.rng import Rng
from mathable.i18n import lazy

from .game import BoardGame, game_type_of
from .keeper import KeptGame, KeptTurn

KEPT_SEED = 0
"""The seed of every kept game's record: with a setup, it seeds the exchanges' shuffles
only, and the deal is worked out for it."""


class KeptRecordError(MathableError):
    """A kept game the engine cannot replay as the table kept it (the reason says why)."""


@dataclass
class _Deal:
    """Tokens without values followed through a kept game (see the module's docstring):
    token ``i`` of the set is ``i``; ``values`` fills as tokens are placed or counted."""

    racks: list[list[int]]
    bag: list[int]
    """In the engine's order: the last is drawn first."""
    values: dict[int, int] = field(default_factory=dict)
    given: dict[int, list[int]] = field(default_factory=dict)
    """Per exchange (by the kept turn's index), the tokens given back, in order."""


def _deal(kept: KeptGame, seed: int) -> tuple[_Deal, list[list[int]], list[int]]:
    """Follow every token of ``kept`` (see the module's docstring); returns the deal at
    the end, and the racks and bag dealt at the start."""
    variant, count = kept.variant, len(kept.players)
    pool = list(range(sum(variant.tokens.values())))
    racks: list[list[int]] = [[] for _ in range(count)]
    for offset in range(count):  # C10: racks filled from the starting player on
        seat = (kept.first + offset) % count
        while len(racks[seat]) < variant.rack_size and pool:
            racks[seat].append(pool.pop())
    start_racks = [list(r) for r in racks]
    start_bag = list(reversed(pool))
    deal = _Deal(racks, pool)
    rng = Rng(seed)
    for index, turn in enumerate(kept.turns):
        rack = deal.racks[turn.seat]
        if turn.kind == "exchange":
            given = [rack.pop() for _ in range(turn.exchanged)]
            drawn = [deal.bag.pop() for _ in given]  # as the engine does (C8)
            rack.extend(drawn)
            deal.bag.extend(given)
            rng.shuffle(deal.bag)
            deal.given[index] = given
        else:
            for placed in turn.placements:
                if not rack:
                    raise KeptRecordError(
                        lazy(
                            "turn {number}: more tokens placed than the rack held",
                            number=index + 1,
                        )
                    )
                token = rack.pop()
                deal.values[token] = placed.value
                if placed.extra and deal.bag:
                    rack.append(deal.bag.pop())  # C7: the extra token drawn
            while len(rack) < variant.rack_size and deal.bag:
                rack.append(deal.bag.pop())
    for seat, values in enumerate(kept.left or ()):
        for token, value in zip(deal.racks[seat], values, strict=True):
            deal.values[token] = value
    return deal, start_racks, start_bag


def _valued(kept: KeptGame, deal: _Deal, tokens: list[int]) -> dict[int, int]:
    """Every token's value: as placed or counted, else one the set still has (any would
    do: the counts are what the replay needs; shuffled by a fixed seed, so the racks
    shown look like racks, not rows of 1s)."""
    still = Counter(kept.variant.tokens)
    still.subtract(Counter(deal.values.values()))
    spare = Rng(KEPT_SEED).shuffled(sorted(still.elements()))
    values = dict(deal.values)
    for token in tokens:
        if token not in values:
            values[token] = spare.pop(0)
    return values


def kept_record(kept: KeptGame, seed: int = KEPT_SEED) -> dict[str, Any]:
    """The record of ``kept`` (JSON-ready, the format of :mod:`mathable.engine.records`),
    checked by replaying it; raises KeptRecordError saying why the engine cannot replay
    the game as kept (see the module's docstring)."""
    deal, start_racks, start_bag = _deal(kept, seed)
    every = [t for r in start_racks for t in r] + start_bag
    values = _valued(kept, deal, every)
    setup = {
        "racks": [[values[t] for t in rack] for rack in start_racks],
        "bag": [values[t] for t in start_bag],
        "to_move": kept.first,
    }
    kind = game_type_of(kept.variant)
    house = HouseRules(table_referee=kept.referee)
    game = kind.create(list(kept.players), seed=seed, house_rules=house, setup=setup)
    assert isinstance(game, BoardGame)  # a board variant's game type makes one
    for number, turn in enumerate(kept.turns, start=1):
        given = [values[t] for t in deal.given.get(number - 1, ())]
        try:
            _answer_questions(game)
            _replay_turn(game, turn, given)
        except MathableError as exc:
            raise KeptRecordError(
                lazy(
                    "turn {number} ({turn}) does not replay by the rules: {error}",
                    number=number,
                    turn=turn.notation,
                    error=exc.text,
                )
            ) from None
    if kept.is_over:
        _answer_questions(game)
        if not game.is_over and "stop" in game.view(game.to_move).available:
            game.apply(EndGame())  # J4: the table agreed to stop where the rules allow it
            _answer_questions(game)
    _check_same(kept, game)
    return records.to_record(game)


def _replay_turn(game: Game, turn: KeptTurn, given: list[int]) -> None:
    """One kept turn applied to the engine's game (``given``: an exchange's tokens given
    back), and ``end`` when the rules leave the turn open (C8: a player may stop
    placing; the engine ends a turn itself when nothing more fits)."""
    if turn.kind == "exchange":
        game.apply(game.parse_action("exchange " + ",".join(map(str, given))))
        return
    if not turn.placements:
        game.apply(game.parse_action("pass"))
        return
    turns = len(game.summaries())
    for placed in turn.placements:
        extra = "+" if placed.extra else ""
        game.apply(game.parse_action(f"{placed.cell}={placed.value}{extra}"))
    if len(game.summaries()) == turns:
        game.apply(EndTurn())


def _answer_questions(game: Game) -> None:
    """A turn left open for a challenge (C12, the table referee) that the table did not
    challenge is accepted before the next turn or the end."""
    while not game.is_over and "accept" in game.view(game.to_move).available:
        game.apply(Accept())


def _check_same(kept: KeptGame, game: BoardGame) -> None:
    """The replay must be the kept game: the board, the scores, and the end."""
    if kept.is_over and not game.is_over:
        raise KeptRecordError(
            lazy(
                "the table ended the game where the rules do not (C11): the record "
                "cannot replay its end"
            )
        )
    if game.board.placed() != kept.table.board.placed() or list(game.scores) != list(kept.scores):
        raise KeptRecordError(
            lazy(
                "the replay scores {replayed}, the keeper {kept}",
                replayed=str(list(game.scores)),
                kept=str(list(kept.scores)),
            )
        )


__all__ = ["KEPT_SEED", "KeptRecordError", "kept_record"]
