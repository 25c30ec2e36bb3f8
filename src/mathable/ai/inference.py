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


def infer_opponent(
    view: BoardView, variant: Variant, board: Board, fits_weight: float = FITS_WEIGHT
) -> RackPrior | None:
    """The prior on the opponent's rack at a two-player board game's turn, from its last
    turn (None: nothing to infer: more players, no turn yet, the bag empty, where the
    rack is known, or a turn cut short by a challenge). ``board`` holds the view's
    tokens; it is not changed. ``fits_weight``: the prior's weight of a kept value that
    fits somewhere (:data:`FITS_WEIGHT`)."""
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
    return RackPrior(kept, fits, fits_weight)


def deal(
    pool: Sequence[int], size: int, prior: RackPrior | None, rng: random.Random
) -> tuple[list[int], list[int]]:
    """A sampled opponent rack of ``size`` tokens from the unseen ``pool``, and the rest
    (the bag, in drawing order): uniform without a prior; with one, its kept tokens
    drawn by their weights (values that fit nowhere first) and the others uniformly."""
    drawn = rng.sample(pool, len(pool))
    if prior is None or not prior.kept:
        return drawn[:size], drawn[size:]
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
