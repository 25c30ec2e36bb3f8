"""Mathable Quattro, the card game (seed ``004_…``, rulings Q1-Q5), on the same design as
the board games: a game is its seed, its options and a log of actions; the state is
derived by replaying them; only views leave the engine.

Four piles lie in a 2x2 square, A B on top and C D below; only their top cards count.
A card goes on pile P when it is the result of + - x / of P's top and the top of a pile
next to P (sideways or up-down; diagonally too under DIAGO). Notation: ``A=32`` plays a
32 on pile A; ``draw``, ``penalty``, ``exchange 12``, ``diago`` and ``pass``.

>>> game = QuattroGame(["Louis", "Zoé"], setup=QuattroSetup(
...     hands=((32, 25, 1, 1, 1, 1, 1), (2, 2, 2, 2, 2, 2, 2)),
...     piles=(20, 12, 7, 2), reserve=(5, 6, 8, 9)))
>>> sorted(game.format_action(p) for p in game.legal_placements())
['A=32', 'B=32']
>>> game.apply("A=32"); game.legal_placements().count()
2
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mathable.engine.actions import (
    ACTION_KINDS,
    Abort,
    Action,
    Diago,
    Draw,
    Exchange,
    Leave,
    Pass,
    Penalty,
    Place,
    Shake,
    action_kind,
)
from mathable.engine.arithmetic import ALL_OPS, pair_results
from mathable.engine.errors import IllegalMove
from mathable.engine.explain import Explanation, equation
from mathable.engine.notation import format_action, format_turn
from mathable.engine.protocol import (
    Game,
    GameType,
    HouseRules,
    Target,
    TargetNames,
    TurnSummary,
    Words,
    joined,
    seat_names,
)
from mathable.engine.rng import Rng
from mathable.engine.tokens import CLASSIC_TOKENS, as_list
from mathable.engine.validation import check_new_game
from mathable.i18n import current as current_language
from mathable.i18n import lazy, lazy_plural

from .setup import read_deal
from .view import PILES, PilesView, QuattroTurn

__all__ = [
    "PILES",
    "PILE_NAMES",
    "QUATTRO",
    "PilesView",
    "QuattroGame",
    "QuattroSetup",
    "QuattroTurn",
    "pile_accepts",
]

HAND_SIZE = 7
DIAGO_COUNTS = 2
"""The rules version from which a play DIAGO would open counts (Q5): no pass offered
where one exists (issue 31)."""
RESERVE_OF_PILES = 2
"""The rules version from which a new reserve is built from the four piles only, the
trash staying out of play (Q5, issue 31)."""
SIDE_BY_SIDE: dict[int, tuple[int, ...]] = {0: (1, 2), 1: (0, 3), 2: (0, 3), 3: (1, 2)}
DIAGONAL: dict[int, int] = {0: 3, 1: 2, 2: 1, 3: 0}


def pile_accepts(tops: Sequence[int], pile: int, diagonals: bool) -> frozenset[int]:
    """Q2/Q4: the card values pile ``pile`` takes, given the four top cards: results of
    + - x / of its top and the top of a pile beside it (or diagonal, under DIAGO)."""
    near = SIDE_BY_SIDE[pile]
    others = (*near, DIAGONAL[pile]) if diagonals else near
    out: set[int] = set()
    for other in others:
        out |= pair_results(tops[pile], tops[other], ALL_OPS)
    return frozenset(out)


@dataclass(frozen=True)
class QuattroSetup:
    """A chosen deal instead of a shuffled one (for tests and worked examples):
    hands, the four starting pile cards (A B C D) and the reserve in draw order."""

    hands: tuple[tuple[int, ...], ...]
    piles: tuple[int, int, int, int]
    reserve: tuple[int, ...]
    to_move: int = 0


PILE_NAMES = TargetNames(tuple(PILES))
"""The notation's names of the piles: a card on pile A is ``A=32``."""


class _QState:
    """The mutable state; only :class:`QuattroGame` drives it."""

    def __init__(
        self, n: int, seed: int, rounds: int, setup: QuattroSetup | None, version: int
    ) -> None:
        self.n = n
        self.version = version
        """The rules version played (older records replay by the rules they were played by)."""
        self.rounds = rounds
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.piles: list[list[int]] = [[], [], [], []]
        self.trash: list[int] = []
        self.wins = [0] * n
        self.round = 1
        self.round_winners: list[tuple[int, ...]] = []
        self.blocked: list[tuple[int, int, tuple[int, ...], int]] = []
        """Q5, blocked rounds: (index of the turn that blocked it, round, winners, their
        cards in hand)."""
        self.diago_used: set[int] = set()
        self.diago_now = False
        self.phase = "play"
        self.drawn: int | None = None
        self.played: list[tuple[int, int]] = []
        self.drawn_to: tuple[int, int] | None = None
        self.turns: list[QuattroTurn] = []
        self.idle = 0
        self.over = False
        self.end_reason: Words = ""
        self.out = [False] * n
        """Local ruling L1: the seats that left the match (turn order skips them)."""
        self.rng = Rng(seed)
        """The seeded generator: it shuffles the reserve once, then only a shake (O5)."""
        if setup is not None:
            if len(setup.hands) != n:
                raise ValueError(
                    lazy(
                        "the setup has {count} hands for {players} players",
                        count=len(setup.hands),
                        players=n,
                    )
                )
            self.hands = [sorted(h) for h in setup.hands]
            self.piles = [[c] for c in setup.piles]
            self.reserve = list(reversed(setup.reserve))
            self.to_move = setup.to_move
        else:
            self.reserve = self.rng.shuffled(as_list(CLASSIC_TOKENS))
            self.to_move = 0  # the dealer is the last seat; the seat on its left starts
            self._deal(0)
            for pile in self.piles:
                pile.append(self.reserve.pop())

    # -- cards ---------------------------------------------------------------------

    def _draw(self) -> int | None:
        """The reserve's top card, rebuilding the reserve when it has run out (Q5)."""
        if not self.reserve:
            self._rebuild_reserve()
        return self.reserve.pop() if self.reserve else None

    def can_draw(self) -> bool:
        """Whether a card can be drawn: the reserve holds one, or one can be rebuilt."""
        trash = self.trash if self.version < RESERVE_OF_PILES else []
        return bool(self.reserve or trash or any(len(p) > 1 for p in self.piles))

    def _rebuild_reserve(self) -> None:
        """Q5: every pile but its top card is turned face down without shuffling (seed
        004: "sans les brasser"), the piles A to D one on the other, each drawn from its
        bottom card; the trash stays out of play ("avec ces 4 paquets, une nouvelle
        réserve"). Before rules version :data:`RESERVE_OF_PILES` the trash went under
        them, in the order it was discarded."""
        cards = [c for pile in self.piles for c in pile[:-1]]
        if self.version < RESERVE_OF_PILES:
            cards += self.trash
            self.trash = []
        self.piles = [pile[-1:] for pile in self.piles]
        self.reserve = list(reversed(cards))

    def in_play(self) -> list[int]:
        """The seats still in the match (L1)."""
        return [s for s in range(self.n) if not self.out[s]]

    def _after(self, seat: int) -> int:
        """The next seat still in after ``seat`` in turn order (``seat`` if none other)."""
        return next(s for k in range(1, self.n + 1) if not self.out[s := (seat + k) % self.n])

    def _deal(self, first: int) -> None:
        for _ in range(HAND_SIZE):
            for k in range(self.n):
                seat = (first + k) % self.n
                card = None if self.out[seat] else self._draw()  # L1: none for a leaver
                if card is not None:
                    self.hands[seat].append(card)
        for hand in self.hands:
            hand.sort()

    # -- equations -------------------------------------------------------------------

    @property
    def diagonals(self) -> bool:
        """Q4: diagonals count this turn (DIAGO announced, or used by everyone still in)."""
        return self.diago_now or self.diago_by_all()

    def diago_by_all(self) -> bool:
        """Q4: every seat still in the match (L1) has used DIAGO this round."""
        return all(s in self.diago_used for s in self.in_play())

    def explain(self, pile: int, value: int) -> Explanation:
        """Explain ``value`` on ``pile`` now (issue 18): one equation per pile beside it
        whose top card makes the value with this pile's top (Q2, Q4); Quattro scores
        rounds, not points, so ``points`` is 0. A drawn card goes on any pile (Q3)."""
        if not 0 <= pile < 4:
            reason = lazy("there is no pile {pile}: piles are A, B, C and D", pile=pile)
            return Explanation(str(pile), value, False, (), 1, 0, str(reason), "Q1")
        name = PILES[pile]
        if self.over:
            return Explanation(name, value, False, (), 1, 0, str(lazy("the match is over")), "Q5")
        if self.phase == "drawn":
            if value == self.drawn:
                return Explanation(name, value, True, (), 1, 0, "", "")
            reason = lazy("put the card you drew, the {value}, on a pile", value=self.drawn)
            return Explanation(name, value, False, (), 1, 0, str(reason), "Q3")
        if self.phase == "after":
            reason = lazy("the drawn card is placed: exchange one card or take a penalty card")
            return Explanation(name, value, False, (), 1, 0, str(reason), "Q3")
        tops = [p[-1] for p in self.piles]
        found = []
        for other in self.neighbours(pile):
            first, second = sorted((pile, other))
            made = equation(
                value, (PILES[first], tops[first]), (PILES[second], tops[second]), ALL_OPS
            )
            if made is not None:
                found.append(made)
        if found:
            return Explanation(name, value, True, tuple(found), 1, 0, "", "")
        shown = ", ".join(f"{PILES[o]}={tops[o]}" for o in self.neighbours(pile))
        reason = lazy(
            "{value} on pile {pile} ({top}) is not a result of + - x / of {top} "
            "and an adjacent top ({tops})",
            value=value,
            pile=name,
            top=tops[pile],
            tops=shown,
        )
        return Explanation(name, value, False, (), 1, 0, str(reason), "Q2")

    def neighbours(self, pile: int) -> tuple[int, ...]:
        near = SIDE_BY_SIDE[pile]
        return (*near, DIAGONAL[pile]) if self.diagonals else near

    def accepts(self, pile: int) -> frozenset[int]:
        """The card values pile ``pile`` takes now (Q2)."""
        return pile_accepts([p[-1] for p in self.piles], pile, self.diagonals)

    def plays(self) -> list[Place]:
        """Every equation play of the hand, by pile then value."""
        if self.over or self.phase != "play":
            return []
        hand = set(self.hands[self.to_move])
        return [Place(p, v) for p in range(4) for v in sorted(hand & self.accepts(p))]

    def may_diago(self) -> bool:
        """Q4: whether the player to move may announce DIAGO now."""
        seat = self.to_move
        return (
            self.phase == "play"
            and not self.played
            and seat not in self.diago_used
            and not self.diago_by_all()
        )

    def plays_after_diago(self) -> bool:
        """Q5: whether the player to move could play once DIAGO is announced (a play on a
        diagonal counts: a player who has one may not pass). Always False before rules
        version :data:`DIAGO_COUNTS`."""
        if self.version < DIAGO_COUNTS or self.over or not self.may_diago():
            return False
        tops = [p[-1] for p in self.piles]
        hand = set(self.hands[self.to_move])
        return any(hand & pile_accepts(tops, p, True) for p in range(4))

    # -- actions ---------------------------------------------------------------------

    def step(self, action: Action) -> None:
        if self.over:
            raise IllegalMove(lazy("the match is over"), rule="Q5")
        if isinstance(action, Leave):
            self._leave(action.seat)
        elif isinstance(action, Abort):
            self.over = True
        elif isinstance(action, Shake):
            self._shake(action)
        elif isinstance(action, Place):
            self._place(action)
        elif isinstance(action, Diago):
            self._diago()
        elif isinstance(action, Draw):
            self._draw_for_pile()
        elif isinstance(action, Exchange):
            self._exchange(action)
        elif isinstance(action, Penalty):
            self._penalty()
        elif isinstance(action, Pass):
            self._pass()
        else:
            raise IllegalMove(
                lazy("{game} has no action {action}", game=QUATTRO.title_text, action=repr(action))
            )

    def _shake(self, action: Shake) -> None:
        """Ruling O5: shake the reserve after an undo (the cards a turn taken back drew
        are back in it), with the seeded generator's next output mixed with the shake's
        entropy. Not a turn: nothing else changes (a reserve rebuilt later is still
        turned over unshuffled, Q5)."""
        self.rng = Rng(self.rng.next64() ^ action.entropy)
        self.rng.shuffle(self.reserve)

    def _place(self, action: Place) -> None:
        pile, value = action.cell, action.value
        if not 0 <= pile < 4:
            raise IllegalMove(
                lazy("there is no pile {pile}: piles are A, B, C and D", pile=pile), rule="Q1"
            )
        name = f"pile {PILES[pile]}"
        if action.extra:
            raise IllegalMove(lazy("Quattro has no extra cards"), rule="Q2", where=name)
        if self.phase == "drawn":
            if value != self.drawn:
                raise IllegalMove(
                    lazy("put the card you drew, the {value}, on a pile", value=self.drawn),
                    rule="Q3",
                    where=name,
                )
            self.piles[pile].append(value)
            self.drawn, self.drawn_to, self.phase = None, (pile, value), "after"
            return
        if self.phase == "after":
            raise IllegalMove(
                lazy("the drawn card is placed: exchange one card or take a penalty card"),
                rule="Q3",
                where=name,
            )
        hand = self.hands[self.to_move]
        if value not in hand:
            raise IllegalMove(
                lazy("there is no {value} in your hand", value=value), rule="Q2", where=name
            )
        if value not in self.accepts(pile):
            top = self.piles[pile][-1]
            tops = ", ".join(f"{PILES[o]}={self.piles[o][-1]}" for o in self.neighbours(pile))
            raise IllegalMove(
                lazy(
                    "{value} on pile {pile} ({top}) is not a result of + - x / of {top} "
                    "and an adjacent top ({tops})",
                    value=value,
                    pile=PILES[pile],
                    top=top,
                    tops=tops,
                ),
                rule="Q2",
                where=name,
            )
        hand.remove(value)
        self.piles[pile].append(value)
        self.played.append((pile, value))
        if not hand:
            self._win_round()
        elif not self.plays():  # Q2: the player plays while able, then the turn passes
            self._next_turn("play")

    def _diago(self) -> None:
        seat = self.to_move
        if self.phase != "play" or self.played:
            raise IllegalMove(lazy("DIAGO is announced at the start of the turn"), rule="Q4")
        if self.diago_by_all():
            raise IllegalMove(
                lazy("every player has used DIAGO: diagonals count for all"), rule="Q4"
            )
        if seat in self.diago_used:
            raise IllegalMove(lazy("you have used your DIAGO this round"), rule="Q4")
        self.diago_used.add(seat)
        self.diago_now = True

    def _draw_for_pile(self) -> None:
        if self.phase != "play" or self.played:
            raise IllegalMove(lazy("you draw only when you cannot play at the start of the turn"))
        if self.plays():
            first = self.plays()[0]
            raise IllegalMove(
                lazy(
                    "you can play (for example {play}): draw only when you cannot",
                    play=format_action(first, PILE_NAMES),
                ),
                rule="Q3",
            )
        card = self._draw()
        if card is None:
            raise IllegalMove(lazy("there is no card left to draw: pass"), rule="Q3")
        self.drawn, self.phase = card, "drawn"

    def _exchange(self, action: Exchange) -> None:
        if self.phase != "after":
            raise IllegalMove(
                lazy("you exchange only after a stuck turn's drawn card is placed"), rule="Q3"
            )
        if len(action.values) != 1:
            raise IllegalMove(lazy("exchange exactly one card (discard one, draw two)"), rule="Q3")
        hand = self.hands[self.to_move]
        value = action.values[0]
        if value not in hand:
            raise IllegalMove(
                lazy("there is no {value} in your hand to exchange", value=value), rule="Q3"
            )
        hand.remove(value)
        self.trash.append(value)
        self._take(2)
        self._next_turn("stuck", exchanged=True)

    def _penalty(self) -> None:
        if self.phase != "after":
            raise IllegalMove(
                lazy("a penalty card is drawn only at the end of a stuck turn"), rule="Q3"
            )
        self._take(1)
        self._next_turn("stuck")

    def _take(self, count: int) -> None:
        hand = self.hands[self.to_move]
        for _ in range(count):
            card = self._draw()
            if card is not None:
                hand.append(card)
        hand.sort()

    def _pass(self) -> None:
        if self.phase != "play" or self.played or self.plays():
            raise IllegalMove(lazy("you pass only when you can neither play nor draw"), rule="Q3")
        if self.plays_after_diago():
            raise IllegalMove(
                lazy("you can play once you announce DIAGO: announce it rather than pass"),
                rule="Q5",
            )
        if self.can_draw():
            raise IllegalMove(lazy("you cannot play: draw a card and put it on a pile"), rule="Q3")
        self._next_turn("pass")

    # -- turns and rounds ------------------------------------------------------------

    def _record(self, kind: str, *, exchanged: bool = False, won: bool = False) -> None:
        self.turns.append(
            QuattroTurn(
                self.to_move,
                kind,
                tuple(self.played),
                self.diago_now,
                self.drawn_to,
                exchanged,
                won,
            )
        )

    def _leave(self, seat: int) -> None:
        """Local ruling L1: the seat leaves the match. Its rounds won are frozen and its
        hand leaves face down (with a card it had drawn: never dealt, drawn nor trashed
        again); on its turn the turn ends at once (the cards it played stay) and the next
        seat still in plays. Fewer than two seats in: the match is over."""
        self.out[seat] = True
        mine = seat == self.to_move
        if mine and self.drawn is not None:
            self.hands[seat].append(self.drawn)
            self.hands[seat].sort()
            self.drawn = None
        if mine and (self.played or self.drawn_to is not None):
            self._record("left")
        if len(self.in_play()) < 2:
            self.over = True
        elif mine:
            self._start_turn(self._after(seat))

    def _next_turn(self, kind: str, *, exchanged: bool = False) -> None:
        self._record(kind, exchanged=exchanged)
        self.idle = self.idle + 1 if kind == "pass" else 0
        self._start_turn(self._after(self.to_move))
        if self.idle >= len(self.in_play()):  # Q5: nobody can play nor draw: blocked
            fewest = min(len(self.hands[s]) for s in self.in_play())
            winners = tuple(s for s in self.in_play() if len(self.hands[s]) == fewest)
            self.blocked.append((len(self.turns) - 1, self.round, winners, fewest))
            self._end_round(winners)

    def _start_turn(self, seat: int) -> None:
        self.to_move = seat
        self.played, self.drawn_to, self.diago_now, self.phase = [], None, False, "play"

    def _win_round(self) -> None:
        seat = self.to_move
        self._record("play", won=True)
        self._end_round((seat,))

    def _end_round(self, winners: tuple[int, ...]) -> None:
        """Q5: the round's winner(s) score a round; then the next round is dealt by the
        winner, the player on its left starting, or the match ends."""
        for seat in winners:
            self.wins[seat] += 1
        self.round_winners.append(winners)
        self.idle = 0
        if self.round >= self.rounds:
            self.over = True
            self.end_reason = (
                lazy_plural("{count} round played", "{count} rounds played", self.rounds)
                if self.rounds > 1
                else lazy("a player has played every card")
            )
            self._start_turn(self.to_move)
            return
        for seat in self.in_play():  # L1: a leaver's hand stays out of the game
            self.trash.extend(self.hands[seat])
            self.hands[seat].clear()
        self.round += 1
        self.diago_used.clear()
        first = self._after(winners[0])
        self._deal(first)
        self._start_turn(first)


def _create(
    players: Sequence[str] | int,
    *,
    seed: int | None = None,
    house_rules: HouseRules | None = None,
    options: Mapping[str, Any] | None = None,
    setup: Mapping[str, Any] | None = None,
    version: int | None = None,
) -> QuattroGame:
    options = check_new_game(
        QUATTRO, players, seed_value=seed, house_rules=house_rules, options=options
    )
    rounds = options.get("rounds", 1)
    seats = len(seat_names(players))
    deal = None if setup is None else setup_from_dict(setup, seats)
    return QuattroGame(
        players, seed=seed, rounds=rounds, house_rules=house_rules, setup=deal, version=version
    )


def setup_from_dict(data: Mapping[str, Any], players: int) -> QuattroSetup:
    """A chosen deal from a record's ``setup`` for ``players`` seats: hands, piles,
    reserve and to_move, checked in full (see :mod:`.setup`); raises FieldError."""
    return QuattroSetup(*read_deal(data, players))


QUATTRO = GameType(
    name="quattro",
    title_text="Mathable Quattro",
    summary_text=lazy(
        "the card game: play a card on one of four piles when it is the result of two "
        "adjacent top cards; first to empty the hand wins the round"
    ),
    version=2,  # 2: Q5, a play after DIAGO counts; the new reserve holds the piles only
    min_players=2,
    max_players=4,
    rack_size=HAND_SIZE,
    piece="card",
    surface="piles",
    columns=2,
    targets=tuple(Target(name, "pile", name) for name in PILES),
    actions=frozenset({"place", "exchange", "pass", "draw", "penalty", "diago"}),
    exchange_exactly=1,
    rounds=True,
    score_unit="rounds",
    rules_text=(
        # TRANSLATORS: the title of a rules page: a game's name, then its rule numbers
        lazy("{game}, the card game  (rules {rules})", game="Mathable Quattro", rules="Q1-Q5"),
        lazy(
            "Four piles lie in a square, A B on top and C D below; only the top cards count. "
            "Play a card on a pile when it is the result of + - x / of that pile's top and "
            "the top of a pile beside it (sideways or up-down) [Q2]. Go on while you can; "
            "then the turn passes."
        ),
        lazy(
            "Stuck at the start of your turn: draw a card and put it on any pile, then "
            "discard one card and draw two, or draw one penalty card [Q3]."
        ),
        lazy(
            "DIAGO: once per round, at the start of your turn, diagonals count too for that "
            "turn; once everyone has used it, diagonals count for all [Q4]."
        ),
        lazy(
            "The first to empty the hand wins the round; the match winner wins the most "
            "rounds [Q5]."
        ),
        lazy(
            "When the reserve runs out, the cards of the four piles, all but each top card, "
            "are turned face down without shuffling into a new reserve; discarded cards "
            "stay out. As a safeguard, a round in which nobody can play (even with DIAGO), "
            "draw or rebuild the reserve is blocked: whoever holds the fewest "
            "cards wins it [Q5]."
        ),
        lazy(
            "Leaving: a player who resigns (or runs out of time online) leaves the match; "
            "their rounds won are frozen and play goes on while two players remain. Those "
            "who leave rank below those who stay [O3]."
        ),
    ),
    create=_create,
)
"""Quattro's metadata and capabilities."""


class QuattroGame(Game):
    """A match of Mathable Quattro: players, seed, number of rounds and the log."""

    _taken_back: Words = lazy("a card played")

    def __init__(
        self,
        players: Sequence[str] | int = 2,
        *,
        seed: int | None = None,
        rounds: int = 1,
        house_rules: HouseRules | None = None,
        setup: QuattroSetup | None = None,
        version: int | None = None,
    ) -> None:
        """``version``: the rules version to play by (a record's ``variant_version``;
        Quattro's own by default)."""
        self.game_type = QUATTRO
        self.players: tuple[str, ...] = seat_names(players)
        if not 2 <= len(self.players) <= 4:
            raise ValueError(
                lazy(
                    "{game} is for {low} to {high} players, not {count}",
                    game=QUATTRO.title_text,
                    low=2,
                    high=4,
                    count=len(self.players),
                )
            )
        if not 1 <= rounds <= 99:
            raise ValueError(lazy("play 1 to 99 rounds, not {rounds}", rounds=rounds))
        self.seed: int = secrets.randbits(63) if seed is None else seed
        self.rounds = rounds
        self.house_rules = house_rules or HouseRules()
        self.setup = setup
        if version is not None and not 1 <= version <= QUATTRO.version:
            raise ValueError(
                lazy(
                    "{game} has rules versions 1 to {current}, not {version}",
                    game=QUATTRO.title_text,
                    current=QUATTRO.version,
                    version=version,
                )
            )
        self._rules_version = version
        self._log: list[Action] = []
        self._state = self._new_state()

    def _new_state(self) -> _QState:
        return _QState(len(self.players), self.seed, self.rounds, self.setup, self.rules_version)

    # -- playing -----------------------------------------------------------------

    def apply(self, action: Action | str) -> None:
        """Play ``action`` (or its notation); IllegalMove leaves the game unchanged."""
        action = self._parsed(action)
        if isinstance(action, Leave | Abort):
            self._check_meta(action)
        elif isinstance(action, Shake):
            self._check_shake(action)
        self._state.step(action)  # every check comes before any change
        self._log.append(action)

    def _reset(self) -> None:
        self._state = self._new_state()

    def explain(self, action: Place) -> Explanation:
        """Explain playing ``action.value`` on pile ``action.cell`` now (issue 18; the
        card need not be in the hand; nothing changes)."""
        return self._state.explain(action.cell, action.value)

    def explain_turns(self) -> tuple[tuple[Explanation, ...], ...]:
        """Per finished turn, its equation plays explained as the piles stood then: the
        log replayed on a shadow match, kept from one call to the next while the log
        only grows (views ask after every action)."""
        state, lang = self._state, current_language()
        kept = self.__dict__.get("_explained")
        if kept is None or kept[0] is not state or kept[1] != lang:
            done: list[tuple[Explanation, ...]] = []
            pending: list[Explanation] = []
            kept = (state, lang, self.fresh(), done, pending)
            self.__dict__["_explained"] = kept
        shadow, done, pending = kept[2], kept[3], kept[4]
        for action in self._log[len(shadow._log) :]:
            if isinstance(action, Place) and shadow._state.phase == "play":
                pending.append(shadow.explain(action))
            shadow.apply(action)
            while len(done) < len(shadow._state.turns):
                done.append(tuple(pending))
                pending.clear()
        return tuple(done)

    def fresh(self) -> QuattroGame:
        """The same game before any action."""
        return QuattroGame(
            self.players,
            seed=self.seed,
            rounds=self.rounds,
            house_rules=self.house_rules,
            setup=self.setup,
            version=self._rules_version,
        )

    @property
    def cell_names(self) -> TargetNames:
        """Piles are named A, B, C and D."""
        return PILE_NAMES

    def record_fields(self) -> dict[str, Any]:
        """The number of rounds, and an explicit deal when the game has one."""
        fields: dict[str, Any] = {"rounds": self.rounds}
        if self.setup is not None:
            fields["setup"] = {
                "hands": [list(h) for h in self.setup.hands],
                "piles": list(self.setup.piles),
                "reserve": list(self.setup.reserve),
                "to_move": self.setup.to_move,
            }
        return fields

    # -- legal moves -----------------------------------------------------------------

    def legal_placements(self) -> QuattroPlays:
        """The cards the player to move may play on a pile now."""
        return QuattroPlays(self._state)

    def legal_actions(self) -> list[Action]:
        """Every action that would be accepted now."""
        state = self._state
        if state.over:
            return []
        if state.phase == "drawn":
            assert state.drawn is not None
            return [Place(p, state.drawn) for p in range(4)]
        if state.phase == "after":
            hand = sorted(set(state.hands[state.to_move]))
            return [*(Exchange((v,)) for v in hand), Penalty()]
        actions: list[Action] = list(state.plays())
        if state.played:
            return actions
        if state.may_diago():
            actions.append(Diago())
        if not state.plays():
            if state.can_draw():
                actions.append(Draw())
            elif not state.plays_after_diago():  # Q5: a play after DIAGO counts
                actions.append(Pass())
        return actions

    # -- state -----------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        return self._state.to_move

    @property
    def scores(self) -> tuple[int, ...]:
        """Rounds won by each seat (Q5)."""
        return tuple(self._state.wins)

    @property
    def is_over(self) -> bool:
        return self._state.over

    @property
    def end_text(self) -> Words:
        """Why the match ended: the rounds played, an emptied hand, or a blocked last
        round and who won it with the fewest cards (Q5); a lazy text."""
        state = self._state
        meta = self._meta_end_reason()
        if meta:
            return meta
        if state.over and state.blocked and state.blocked[-1][1] == state.round:
            text = self._blocked_text(state.blocked[-1])
            if self.rounds == 1:
                return text
            return lazy_plural(
                "{blocked}; {count} round played",
                "{blocked}; {count} rounds played",
                self.rounds,
                blocked=text,
            )
        return state.end_reason

    def _blocked_text(self, blocked: tuple[int, int, tuple[int, ...], int]) -> Words:
        """Q5: a blocked round in words, e.g. "round 2 blocked: nobody could play, draw or
        rebuild the reserve; Ann won it with the fewest cards (3)"."""
        _, round_number, winners, cards = blocked
        names = [self.players[s] for s in winners]
        if len(names) == 1:
            return lazy(
                "round {round} blocked: nobody could play, draw or rebuild the reserve; "
                "{name} won it with the fewest cards ({count})",
                round=round_number,
                name=names[0],
                count=cards,
            )
        # TRANSLATORS: names listed, as in "Ann, Bob and Cy"
        who = lazy("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])
        return lazy(
            "round {round} blocked: nobody could play, draw or rebuild the reserve; "
            "{names} share it with the fewest cards ({count})",
            round=round_number,
            names=who,
            count=cards,
        )

    @property
    def bag_size(self) -> int:
        """Cards in the reserve."""
        return len(self._state.reserve)

    @property
    def round(self) -> int:
        return self._state.round

    @property
    def phase(self) -> str:
        """ "play", "drawn" (a stuck player's drawn card awaits its pile) or "after"
        (exchange one card or take a penalty card)."""
        return self._state.phase

    @property
    def drawn(self) -> int | None:
        """The card a stuck player has drawn and not yet put on a pile (hidden from others)."""
        return self._state.drawn

    @property
    def tops(self) -> tuple[int, int, int, int]:
        """The top cards of piles A, B, C, D."""
        a, b, c, d = (p[-1] for p in self._state.piles)
        return (a, b, c, d)

    @property
    def pile_sizes(self) -> tuple[int, ...]:
        return tuple(len(p) for p in self._state.piles)

    @property
    def diagonals(self) -> bool:
        return self._state.diagonals

    @property
    def diago_used(self) -> tuple[int, ...]:
        return tuple(sorted(self._state.diago_used))

    @property
    def turns(self) -> tuple[QuattroTurn, ...]:
        return tuple(self._state.turns)

    @property
    def turn_plays(self) -> tuple[tuple[int, int], ...]:
        return tuple(self._state.played)

    @property
    def round_winners(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self._state.round_winners)

    def rack(self, seat: int) -> tuple[int, ...]:
        """A seat's hand, sorted. Hidden information: show it only to that seat."""
        return tuple(self._state.hands[seat])

    def bag_order(self) -> tuple[int, ...]:
        """The reserve in draw order. Hidden from every player."""
        return tuple(reversed(self._state.reserve))

    def census(self) -> Counter[int]:
        """Every card wherever it is: reserve, hands, piles, trash and a drawn card."""
        state = self._state
        counts = Counter(state.reserve)
        for cards in [*state.hands, *state.piles, state.trash]:
            counts.update(cards)
        if state.drawn is not None:
            counts[state.drawn] += 1
        return counts

    def snapshot(self) -> tuple[object, ...]:
        """The whole state, hidden parts included, as comparable data."""
        s = self._state
        return (
            tuple(map(tuple, s.hands)),
            tuple(map(tuple, s.piles)),
            tuple(s.reserve),
            tuple(s.trash),
            tuple(s.wins),
            s.round,
            s.to_move,
            s.phase,
            s.drawn,
            tuple(s.played),
            tuple(sorted(s.diago_used)),
            s.diago_now,
            tuple(s.turns),
            s.idle,
            s.over,
            tuple(s.blocked),
            tuple(s.out),
            s.rng.state,
        )

    def unseen(self, seat: int | None) -> dict[int, int]:
        """The player card (C13) for cards: the deck minus what ``seat`` sees: the cards
        the piles hold, its own hand and a card it has drawn (Q3), or every hand once the
        match is over (they are shown)."""
        state = self._state
        counts = Counter(CLASSIC_TOKENS)
        for pile in state.piles:
            counts.subtract(pile)
        if state.over:
            for hand in state.hands:
                counts.subtract(hand)
        elif seat is not None:
            counts.subtract(state.hands[seat])
            if seat == state.to_move and state.drawn is not None:
                counts[state.drawn] -= 1
        return {v: max(counts[v], 0) for v in sorted(CLASSIC_TOKENS)}

    def view(self, seat: int | None, *, explained: bool = True) -> PilesView:
        """What ``seat`` may know (None: a spectator)."""
        if seat is not None and not 0 <= seat < len(self.players):
            raise ValueError(lazy("seat {seat} is not in this game", seat=seat))
        n = len(self.players)
        drawn = self.drawn if seat == self.to_move else None
        rack = self.rack(seat) if seat is not None else ()
        status: list[Words] = []
        if self.rounds > 1:
            status.append(lazy("round {round} of {rounds}", round=self.round, rounds=self.rounds))
        if self.diagonals:
            status.append(lazy("DIAGO: diagonals count"))
        if drawn is not None:
            status.append(lazy("put the {value} you drew on a pile", value=drawn))
        elif seat == self.to_move and self.phase == "after":
            status.append(lazy("exchange one card or take a penalty card"))
        return PilesView(
            variant=QUATTRO.name,
            seat=seat,
            players=self.players,
            rack=rack,
            rack_sizes=tuple(len(self.rack(s)) for s in range(n)),
            scores=self.scores,
            bag_size=self.bag_size,
            to_move=self.to_move,
            unseen=self.unseen(seat),
            house_rules=self.house_rules.to_dict(),
            over=self.is_over,
            end_reason_text=self.end_text,
            open_racks=tuple(self.rack(s) for s in range(n)) if self.is_over else (),
            surface=self.tops,
            playable=(drawn,) if drawn is not None else rack,
            available=self.available(seat),
            summaries=self.explained_summaries() if explained else self.summaries(),
            status_text=joined(status),
            left=self.left,
            pile_sizes=self.pile_sizes,
            trash_size=len(self._state.trash),
            phase=self.phase,
            drawn=drawn,
            turn_plays=self.turn_plays,
            diagonals=self.diagonals,
            diago_used=self.diago_used,
            round=self.round,
            rounds=self.rounds,
            turns=self.turns,
        )

    def available(self, seat: int | None) -> tuple[str, ...]:
        """The action keywords ``seat`` may use now."""
        if seat is None or seat != self.to_move or self._state.out[seat]:
            return ()
        kinds = {action_kind(a) for a in self.legal_actions()}
        return tuple(k for k in ACTION_KINDS if k in kinds)

    def summaries(self) -> tuple[TurnSummary, ...]:
        """Every finished turn in words: the cards played, or the stuck turn's draw; the
        turn that blocked a round says so (Q5)."""
        out = []
        blocked = {b[0]: self._blocked_text(b) for b in self._state.blocked}
        for index, turn in enumerate(self._state.turns):
            plays = format_turn([Place(p, v) for p, v in turn.plays], PILE_NAMES)
            if turn.drawn_to is not None:
                pile, value = turn.drawn_to
                rest = "exchange" if turn.exchanged else "penalty" if turn.kind != "left" else ""
                text = f"draw {format_action(Place(pile, value), PILE_NAMES)} {rest}".strip()
            else:
                text = plays or turn.kind
            notes: list[Words] = []
            if turn.diago:
                notes.append("DIAGO")  # the word announced, as the rulebook prints it
            if turn.won_round:
                notes.append(lazy("won the round"))
            if index in blocked:
                notes.append(blocked[index])
            stuck = turn.drawn_to is not None  # no card fitted: one was drawn (Q3)
            out.append(TurnSummary(turn.seat, text, 0, tuple(notes), no_fit=stuck))
        return tuple(out)


class QuattroPlays:
    """The equation plays open to the player to move (``in``, ``count()``, iteration)."""

    def __init__(self, state: _QState) -> None:
        self._state = state

    def __iter__(self) -> Iterator[Place]:
        return iter(self._state.plays())

    def count(self) -> int:
        return len(self._state.plays())

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return bool(self._state.plays())

    def __contains__(self, place: object) -> bool:
        return place in self._state.plays()
