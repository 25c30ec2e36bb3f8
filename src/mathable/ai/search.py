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

import gc
import random
from collections.abc import Sequence
from types import TracebackType
from typing import Final, final

from mathable.games.board.board import Board
from mathable.games.board.variants import Variant
from mathable.games.board.view import BoardView


@final
class TurnPlan:
    """A way to play a turn: placements in order, their points, the bonus, the leave.

    A value (compared and hashed by its four fields, never changed: they are ``Final``)
    written out rather than a frozen dataclass, whose ``__init__`` runs interpreted in
    the compiled build: a search makes a plan per position reached (issue 35).

    >>> TurnPlan(((1, 2),), 2, 0, (3,)) == TurnPlan(((1, 2),), 2, 0, (3,))
    True
    >>> TurnPlan((), 0, 0, (1, 63))
    TurnPlan(placements=(), points=0, bonus=0, leave=(1, 63))
    """

    def __init__(
        self,
        placements: tuple[tuple[int, int], ...],
        points: int,
        bonus: int,
        leave: tuple[int, ...],
    ) -> None:
        self.placements: Final = placements
        self.points: Final = points
        self.bonus: Final = bonus
        self.leave: Final = leave

    def _fields(self) -> tuple[tuple[tuple[int, int], ...], int, int, tuple[int, ...]]:
        return (self.placements, self.points, self.bonus, self.leave)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TurnPlan):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"TurnPlan(placements={self.placements!r}, points={self.points!r}, "
            f"bonus={self.bonus!r}, leave={self.leave!r})"
        )

    @property
    def total(self) -> int:
        """Points including the bonus."""
        return self.points + self.bonus


class CollectorPaused:
    """``with CollectorPaused():`` runs a search with Python's cyclic garbage collector
    paused, and restarts it after unless it was off already.

    A search makes tens of thousands of small tuples and plans that form no cycle and
    mostly die when it returns; the collector, started every 700 new containers, walked
    them again and again: ~12% of the strong player's time in a native profile; paused,
    strong self-play plays ~11% more games a second (issue 35). Reference counting still
    frees everything; what the collector would have looked at, it looks at once
    restarted. With searches on several threads, the one that found it running restarts
    it when it ends, whatever the others do: it is never left off for longer."""

    __slots__ = ("_restart",)

    def __init__(self) -> None:
        self._restart = False

    def __enter__(self) -> None:
        self._restart = gc.isenabled()
        gc.disable()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._restart:
            gc.enable()


_ZOBRIST_SOURCE = random.Random(16)
_ZOBRIST: Final = [_ZOBRIST_SOURCE.getrandbits(60) for _ in range(26 * 26 * 128)]
"""A random number per (cell, value < 128) on boards up to 26 x 26 (fixed seed)."""


def search_turns(
    variant: Variant,
    board: Board,
    rack: Sequence[int],
    *,
    started_with: int,
    strict: bool = False,
    node_limit: int = 200_000,
) -> list[TurnPlan]:
    """Every position the turn can reach from ``board`` with ``rack``, each with its
    best-scoring order. ``started_with`` is the rack size at the start of the turn (for
    the bonus, C9/J2). The board is restored before returning.

    With ``node_limit`` positions searched the answer is exact; past it the search
    stops widening (big racks of small numbers on a crowded board), keeping what it has.
    """
    with CollectorPaused():
        search = _TurnSearch(variant, board, started_with, strict, node_limit)
        search.dfs(0, 0, sorted(rack))
        plans = []
        for path, points, left in search.plans.values():
            bonus = variant.turn_bonus(started_with, len(left)) if path else 0
            plans.append(TurnPlan(path, points, bonus, left))
    return plans


class _TurnSearch:
    """The depth-first walk of :func:`search_turns` (a class rather than a closure: the
    compiled build calls its methods natively).

    A position is keyed by the set of tokens placed so far, hashed as Zobrist does for
    chess positions: the XOR of a random 60-bit number per (cell, value), so a child's
    key is one XOR of small ints, not a set built at every node. Two different sets
    share a key with odds of about n^2 / 2^61 for n positions (below 1e-9 for the
    largest searches): exact in practice, and the search stays checked against brute
    force in the tests.
    """

    def __init__(
        self, variant: Variant, board: Board, started_with: int, strict: bool, node_limit: int
    ) -> None:
        self.variant = variant
        self.board = board
        self.started_with = started_with
        self.strict = strict
        self.node_limit = node_limit
        self.must_place_all = not variant.partial_turns  # K2
        self.nodes = 0
        self.best: dict[int, int] = {}
        self.plans: dict[int, tuple[tuple[tuple[int, int], ...], int, tuple[int, ...]]] = {}
        """Per position reached, its best way there: the placements, their points and
        the tokens left (made into plans at the end: a position is often reached again
        by a better order, and most are never chosen)."""
        self.path: list[tuple[int, int]] = []

    def record(self, key: int, points: int, left: list[int]) -> None:
        """Keep the position reached as a way to end the turn (``left`` is sorted)."""
        variant = self.variant
        if self.must_place_all and left and _can_place(variant, self.board, left, self.strict):
            return  # K2: the turn goes on while tiles can be placed
        self.plans[key] = (tuple(self.path), points, tuple(left))

    def dfs(self, key: int, points: int, left: list[int]) -> None:
        """Search every continuation of the position ``key`` worth ``points`` with the
        sorted tokens ``left``."""
        self.nodes += 1
        self.record(key, points, left)
        if self.nodes > self.node_limit:
            return
        variant = self.variant
        board = self.board
        best = self.best
        path = self.path
        strict = self.strict
        zobrist = _ZOBRIST
        previous = -1
        for index in range(len(left)):
            value = left[index]
            if value == previous:
                continue
            previous = value
            for cell in variant.legal_cells(board, value, strict):
                total = points + variant.placement_points(board, cell, value)
                child = key ^ zobrist[(cell << 7) | value]
                if best.get(child, -1) >= total:
                    continue
                best[child] = total
                board.place(cell, value)
                del left[index]
                path.append((cell, value))
                self.dfs(child, total, left)
                path.pop()
                left.insert(index, value)
                board.unplace()


def best_placement(
    variant: Variant, board: Board, rack: Sequence[int], strict: bool = False
) -> tuple[int, int] | None:
    """The highest-scoring single placement from ``rack`` as ``(cell, value)``; ties go
    to the higher value, then to the lower cell. None if no token fits. The greedy
    player's choice, here with the search so that it runs compiled (issue 35)."""
    best_points, best_value, best_cell = -1, -1, -1
    for value in sorted(set(rack)):
        for cell in variant.legal_cells(board, value, strict):
            points = variant.placement_points(board, cell, value)
            if points > best_points or (  # (points, value, -cell) compared, without tuples
                points == best_points
                and (value > best_value or (value == best_value and cell < best_cell))
            ):
                best_points, best_value, best_cell = points, value, cell
    return None if best_cell < 0 else (best_cell, best_value)


def _can_place(variant: Variant, board: Board, values: Sequence[int], strict: bool) -> bool:
    return any(variant.legal_cells(board, v, strict) for v in set(values))


def best_turn(
    variant: Variant,
    board: Board,
    rack: Sequence[int],
    *,
    started_with: int,
    strict: bool = False,
    node_limit: int = 200_000,
) -> TurnPlan:
    """The highest-scoring whole turn (bonus included); ties go to the fewest tokens
    used, then to the first in cell order."""
    plans = search_turns(
        variant, board, rack, started_with=started_with, strict=strict, node_limit=node_limit
    )
    return max(plans, key=turn_rank)


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
    return sorted((p for p in plans if p.placements), key=turn_rank, reverse=True)


def started_with(view: BoardView) -> int:
    """The size of the rack at the start of the turn in ``view`` (for the bonus, C9):
    the rack now, plus the tokens placed this turn, minus the extra tokens drawn."""
    extras = sum(1 for p in view.turn_placements if p.extra)
    return len(view.rack) + len(view.turn_placements) - extras
