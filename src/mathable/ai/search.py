"""Exact whole-turn search for the board games (rulings C6, C8, C9, J2, K2).

A turn is a sequence of placements, each scored on the board as it stands when the token
is placed, so the order matters: 12 then 16 may score more than 16 then 12. The search
walks every order depth-first on the make/unmake board, but a position reached again
(the same tokens on the same cells: the transposition table, keyed on the placed set,
which also fixes the rack) with no more points than before is not searched again, since
everything that can follow is the same. Every reached position is a place the turn may
stop, so the search yields the best way to reach each one: the best whole turn, and
the candidates that a leave evaluation chooses among.

>>> from mathable.games.board.variants import CLASSIC
>>> board = CLASSIC.new_board()
>>> best = best_turn(CLASSIC, board, (12, 16, 8), started_with=7)
>>> best.points, [board.grid.name(c) + "=" + str(v) for c, v in best.placements]
(36, ['H6=8', 'I8=12', 'J8=16'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mathable.games.board.board import Board
from mathable.games.board.variants import Variant
from mathable.games.board.view import BoardView


@dataclass(frozen=True)
class TurnPlan:
    """A way to play a turn: placements in order, their points, the bonus, the leave."""

    placements: tuple[tuple[int, int], ...]
    points: int
    bonus: int
    leave: tuple[int, ...]

    @property
    def total(self) -> int:
        """Points including the bonus."""
        return self.points + self.bonus


def search_turns(
    variant: Variant,
    board: Board,
    rack: Sequence[int],
    *,
    started_with: int,
    strict: bool = False,
    node_limit: int = 200_000,
) -> dict[frozenset[tuple[int, int]], TurnPlan]:
    """Every position the turn can reach from ``board`` with ``rack``, each with its
    best-scoring order. ``started_with`` is the rack size at the start of the turn (for
    the bonus, C9/J2). The board is restored before returning.

    With ``node_limit`` positions searched the answer is exact; past it the search
    stops widening (big racks of small numbers on a crowded board), keeping what it has.
    """
    best: dict[frozenset[tuple[int, int]], int] = {}
    plans: dict[frozenset[tuple[int, int]], TurnPlan] = {}
    path: list[tuple[int, int]] = []
    must_place_all = not variant.partial_turns  # K2
    nodes = 0

    def record(key: frozenset[tuple[int, int]], points: int, left: list[int]) -> None:
        if must_place_all and left and _can_place(variant, board, left, strict):
            return  # K2: the turn goes on while tiles can be placed
        bonus = variant.turn_bonus(started_with, len(left)) if path else 0
        plans[key] = TurnPlan(tuple(path), points, bonus, tuple(sorted(left)))

    def dfs(key: frozenset[tuple[int, int]], points: int, left: list[int]) -> None:
        nonlocal nodes
        nodes += 1
        record(key, points, left)
        if nodes > node_limit:
            return
        for value in sorted(set(left)):
            cells = variant.legal_cells(board, value, strict)
            for cell in sorted(cells):
                gain = variant.placement_points(board, cell, value)
                child = key | {(cell, value)}
                total = points + gain
                if best.get(child, -1) >= total:
                    continue
                best[child] = total
                board.place(cell, value)
                left.remove(value)
                path.append((cell, value))
                dfs(child, total, left)
                path.pop()
                left.append(value)
                board.unplace()

    dfs(frozenset(), 0, list(rack))
    return plans


def _can_place(variant: Variant, board: Board, values: Sequence[int], strict: bool) -> bool:
    return any(variant.legal_cells(board, v, strict) for v in set(values))


def best_turn(
    variant: Variant,
    board: Board,
    rack: Sequence[int],
    *,
    started_with: int,
    strict: bool = False,
) -> TurnPlan:
    """The highest-scoring whole turn (bonus included); ties go to the fewest tokens
    used, then to the first in cell order."""
    plans = search_turns(variant, board, rack, started_with=started_with, strict=strict)
    return max(plans.values(), key=turn_rank)


def turn_rank(plan: TurnPlan) -> tuple[int, int, tuple[int, ...]]:
    """How whole turns are ranked, highest best: points with the bonus, then the fewest
    tokens used, then the first in cell order. The best turn, the hints and the
    analysis all rank by this one key, so they agree."""
    return (plan.total, -len(plan.placements), tuple(-c * 1000 - v for c, v in plan.placements))


def ranked_turns(
    variant: Variant,
    board: Board,
    rack: Sequence[int],
    *,
    started_with: int,
    strict: bool = False,
) -> list[TurnPlan]:
    """Every way to play the turn that places at least one token, best first
    (:func:`turn_rank`): the first is :func:`best_turn` whenever that one places."""
    plans = search_turns(variant, board, rack, started_with=started_with, strict=strict)
    return sorted((p for p in plans.values() if p.placements), key=turn_rank, reverse=True)


def started_with(view: BoardView) -> int:
    """The size of the rack at the start of the turn in ``view`` (for the bonus, C9):
    the rack now, plus the tokens placed this turn, minus the extra tokens drawn."""
    extras = sum(1 for p in view.turn_placements if p.extra)
    return len(view.rack) + len(view.turn_placements) - extras
