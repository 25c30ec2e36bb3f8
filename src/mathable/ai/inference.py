"""What the opponent's rack holds, inferred from its last turn (issue 16), as Macondo
infers a Scrabble opponent's rack from the tiles it kept.

A turn of placements goes on while the player can place (C8: the engine ends the turn
once nothing on the rack fits, and a player who could still place seldom stops early:
the strong computer players stopped early on fewer than 1 in 100 tokens kept in
self-play), and the strong player exchanges or passes only when nothing fits (the
expert also exchanges by choice, keeping tokens that may fit: against it, or a person,
the prior after an exchange is less sure). So the tokens the opponent kept at the end of its
last turn almost never fit anywhere on the board it left, which is the board the
player now finds. The opponent's rack is those kept tokens, drawn from the unseen
values that fit nowhere now (a value that fits weighs :data:`FITS_WEIGHT`: people do
stop early), plus the tokens it drew since, blindly from the unseen ones.

The simulation samples the opponent's rack so (:func:`deal`); the opponent then holds
fewer of the values the open squares want, and more of those a new square may want.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mathable.games.board.board import EMPTY, Board
from mathable.games.board.variants import Variant
from mathable.games.board.view import BoardView

FITS_WEIGHT = 0.1
"""How likely a kept token is to be a value that fits somewhere, against one that does
not (the chance that a player stopped a turn it could have gone on with). Computers stop
far less often: over 200 games of the master against the expert (2026-11-30) 40 of
6,406 tokens kept after a turn of placements fit somewhere, while 59% of the unseen
tokens did, a weight of ~0.004 (``expert:fits_weight=``)."""


@dataclass(frozen=True)
class RackPrior:
    """The opponent's rack as the player believes it: ``kept`` of its tokens come from
    its last turn and are values in ``fits`` only with weight ``fits_weight``; the
    others were drawn blindly."""

    kept: int
    fits: frozenset[int]
    fits_weight: float = FITS_WEIGHT
    weights: Mapping[int, float] | None = None
    """From the opponent's turns before its last (``history``, :func:`history_weights`):
    each unseen value's weight as a kept token, replacing ``fits`` and ``fits_weight``."""


BLOCKED_WEIGHT = 0.35
"""The weight of a value that fit somewhere at the start of the opponent's last turn and
nowhere at its end, against one that fit nowhere at either (the turn took every cell it
fit: a player seldom keeps such a token). Measured in the strong player's self-play
(2026-11-30, 40 games from seed 100): 51 of 1,841 such unseen tokens were kept, against
477 of 6,268 that fit nowhere at either, a ratio of ~0.36."""


def infer_opponent(
    view: BoardView,
    variant: Variant,
    board: Board,
    fits_weight: float = FITS_WEIGHT,
    history: bool = False,
) -> RackPrior | None:
    """The prior on the opponent's rack at a two-player board game's turn, from its last
    turn (None: nothing to infer: more players, no turn yet, the bag empty, where the
    rack is known, or a turn cut short by a challenge). ``board`` holds the view's
    tokens; it is not changed. ``fits_weight``: the prior's weight of a kept value that
    fits somewhere (:data:`FITS_WEIGHT`). With ``history`` the turns before the last
    weigh each value too (:func:`history_weights`)."""
    if len(view.players) != 2 or view.seat is None or not view.turns or not view.bag_size:
        return None
    last = view.turns[-1]
    opponent = 1 - view.seat
    if last.seat != opponent or last.challenged:
        return None
    held = view.rack_sizes[opponent]
    if last.kind == "place":
        extras = sum(1 for token in last.placements if token.extra)
        kept = variant.rack_size + extras - len(last.placements)
    elif last.kind == "exchange":
        kept = held - last.exchanged
    else:
        kept = held
    kept = max(0, min(kept, held))
    if not kept:
        return None
    if view.turn_placements:  # the board the opponent left: without this turn's tokens
        mine = {token.cell for token in view.turn_placements}
        initial = {c: v for c, v in enumerate(view.board) if v != EMPTY and c not in mine}
        board = variant.new_board(initial)
    fits = frozenset(v for v, n in view.unseen.items() if n and variant.legal_cells(board, v))
    weights = history_weights(view, variant, opponent, fits, fits_weight) if history else None
    return RackPrior(kept, fits, fits_weight, weights)


def history_weights(
    view: BoardView, variant: Variant, opponent: int, fits: frozenset[int], fits_weight: float
) -> dict[int, float] | None:
    """Each unseen value's weight as a token the opponent kept at the end of its last
    turn (a turn of placements), from its turns before (None: its last turn placed
    nothing). A kept token was drawn at one of the opponent's earlier draws and has fit
    nowhere at every one of its turns since, before or after it, or it would have been
    placed: a value's weight is the sum, over the draws since which it has fit nowhere
    at those turns, of the chance that a given token was drawn then (the tokens drawn
    over the bag then). So a value that has fit nowhere for long, as a large product
    can, is likelier kept than one that fit nowhere only now (in the strong player's
    self-play the kept share rose from 8% of the tokens that fit nowhere for one turn to
    47% for eight or more). A value that fits now weighs ``fits_weight`` times the last
    draw's chance, one that fit only before the last turn :data:`BLOCKED_WEIGHT` times
    its own (an exchange, a pass or a challenged turn ends the walk back: what it kept
    then, it kept by choice or was handed back)."""
    turns = view.turns
    if not turns or turns[-1].kind != "place" or turns[-1].seat != opponent:
        return None
    # The chance that a given token came with the draw after each turn, walking back
    # from the bag as this turn began; and the opponent's first rack's.
    bag = view.bag_size + sum(1 for token in view.turn_placements if token.extra)
    draw_chance = [0.0] * len(turns)
    for i in range(len(turns) - 1, -1, -1):
        record = turns[i]
        if record.kind == "place":
            drawn = len(record.placements) - sum(1 for token in record.placements if token.extra)
            draw_chance[i] = drawn / (bag + drawn) if bag + drawn else 0.0
            bag += len(record.placements)
        elif record.kind == "exchange":
            draw_chance[i] = record.exchanged / (bag or 1)
    first_rack = variant.rack_size / (bag + len(view.players) * variant.rack_size)
    theirs = [i for i, record in enumerate(turns) if record.seat == opponent]

    def draw_before(k: int) -> float:
        """The chance of the draw that came just before the opponent's ``k``-th turn."""
        return draw_chance[theirs[k - 1]] if k else first_rack

    # The board after the last turn, rebuilt so that its turns can be taken back.
    placed = {token.cell for record in turns for token in record.placements}
    placed |= {token.cell for token in view.turn_placements}
    board = variant.new_board(
        {c: v for c, v in enumerate(view.board) if v != EMPTY and c not in placed}
    )
    for record in turns:
        for token in record.placements:
            board.place(token.cell, token.value)
    last = len(theirs) - 1
    weights = {
        v: fits_weight * draw_before(last) if v in fits else 0.0
        for v, n in view.unseen.items()
        if n
    }
    walking = set(weights) - fits
    blocked: set[int] = set()
    standing = len(turns)  # the turns on the board: turns[:standing]
    for k in range(last, -1, -1):
        while standing > theirs[k] + 1:  # back to the board the opponent's turn left
            standing -= 1
            for _ in turns[standing].placements:
                board.unplace()
        if k != last:
            walking -= {v for v in walking if variant.legal_cells(board, v)}
        standing -= 1
        for _ in turns[standing].placements:  # back to the board it found
            board.unplace()
        before = {v for v in walking if variant.legal_cells(board, v)}
        if k == last:
            blocked = before
        else:
            walking -= before
        for v in walking:
            weights[v] += draw_before(k)
        previous = turns[theirs[k - 1]] if k else None
        if not walking or previous is None or previous.kind != "place" or previous.challenged:
            break
    for v in blocked:
        weights[v] *= BLOCKED_WEIGHT
    return weights if any(weights.values()) else None


def deal(
    pool: Sequence[int], size: int, prior: RackPrior | None, rng: random.Random
) -> tuple[list[int], list[int]]:
    """A sampled opponent rack of ``size`` tokens from the unseen ``pool``, and the rest
    (the bag, in drawing order): uniform without a prior; with one, its kept tokens
    drawn by their weights (values that fit nowhere first) and the others uniformly."""
    drawn = rng.sample(pool, len(pool))
    if prior is None or not prior.kept:
        return drawn[:size], drawn[size:]
    if prior.weights is not None:
        return _weighted_deal(drawn, size, prior.kept, prior.weights, rng)
    fits = prior.fits
    nowhere = [v for v in drawn if v not in fits]
    somewhere = [v for v in drawn if v in fits]
    rack: list[int] = []
    for _ in range(min(prior.kept, size, len(drawn))):
        weight_somewhere = prior.fits_weight * len(somewhere)
        total = len(nowhere) + weight_somewhere
        if nowhere and rng.random() * total < len(nowhere):
            rack.append(nowhere.pop())
        elif somewhere:
            rack.append(somewhere.pop())
        else:
            rack.append(nowhere.pop())
    rest = nowhere + somewhere
    rng.shuffle(rest)
    missing = size - len(rack)
    return rack + rest[:missing], rest[missing:]


def _weighted_deal(
    drawn: list[int], size: int, kept: int, weights: Mapping[int, float], rng: random.Random
) -> tuple[list[int], list[int]]:
    """:func:`deal` with a weight per value: ``kept`` tokens drawn without replacement
    by their weights (Efraimidis and Spirakis' keys: the largest ``u ** (1 / w)``), the
    rest of the rack and the bag from the others in their shuffled order."""
    keys = []
    for index, value in enumerate(drawn):
        weight = weights.get(value, 0.0)
        key = rng.random() ** (1.0 / weight) if weight > 0 else -1.0
        keys.append((key, index))
    keys.sort(reverse=True)
    chosen = {index for _, index in keys[: min(kept, size)]}
    rack = [drawn[index] for index in sorted(chosen)]
    rest = [value for index, value in enumerate(drawn) if index not in chosen]
    missing = size - len(rack)
    return rack + rest[:missing], rest[missing:]


def holding_chances(
    prior: RackPrior | None, unseen: Mapping[int, int], rack_size: int
) -> dict[int, float]:
    """The chance that the opponent holds at least one token of each unseen value: its
    kept tokens drawn by the prior's weights, the others blindly (both as draws with
    replacement, as the strong player's threat estimate counts them)."""
    total = sum(unseen.values())
    if not total:
        return {}
    kept = prior.kept if prior is not None else 0
    if prior is not None and prior.weights is not None:
        weighted = {v: n * prior.weights.get(v, 0.0) for v, n in unseen.items()}
    else:
        weighted = {
            v: n * (prior.fits_weight if prior is not None and v in prior.fits else 1.0)
            for v, n in unseen.items()
        }
    weight = sum(weighted.values()) or 1.0
    drawn = max(0, rack_size - kept)
    return {
        v: 1.0 - (1.0 - weighted[v] / weight) ** kept * (1.0 - n / total) ** drawn
        for v, n in unseen.items()
        if n
    }
