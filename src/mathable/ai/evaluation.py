"""Judging a board turn beyond its points: what the rack keeps, what the board opens.

The strong player ranks the exact search's candidate turns by equity: points with the
bonus, plus the value of the tokens kept (the leave), minus a share of the opponent's
expected best reply on the board the turn leaves behind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Final

from mathable.games.board.board import Board
from mathable.games.board.variants import Variant, get_variant
from mathable.games.board.view import BoardView

from .base import board_from_view
from .search import CollectorPaused, TurnPlan, search_turns, started_with

LeaveJudge = Callable[[tuple[int, ...], int], float]
"""What a leave is worth, given the bag's size (hand-written or learned: ``leaves.py``)."""

THREAT_WEIGHT: Final = 0.7
"""How much of the opponent's expected best reply a move is charged with."""


def leave_value(leave: Sequence[int], bag_size: int, rack_size: int) -> float:
    """What the tokens kept on the rack are worth for the turns to come.

    Small numbers fit many equations (every product, sum and difference of small
    numbers), big ones few; duplicates narrow the choice; a 0 scores nothing. Once the
    bag is empty, tokens kept are likely to be deducted at the end (C11).
    """
    if bag_size == 0:
        return -0.6 * sum(leave)
    value = 0.0
    counts: dict[int, int] = {}
    for token in leave:
        counts[token] = counts.get(token, 0) + 1
    for token, count in counts.items():
        if token == 0:
            each = -4.0
        elif token <= 10:
            each = 2.0
        elif token <= 20:
            each = 0.0
        else:
            each = -0.08 * token
        value += each * count - 2.5 * (count - 1)
    if rack_size < 7:  # Junior's racks of 5 count every token a little more
        value *= 1.3
    return value


def expected_best_reply(
    variant: Variant,
    board: Board,
    unseen: Mapping[int, int],
    chances: Mapping[int, float] | None = None,
) -> float:
    """The expected points of the opponent's best single placement: values that score
    most first, each weighted by the chance the opponent holds one (by default, 7
    tokens drawn from the unseen ones; ``chances`` gives it per value, as the expert's
    inference does: :func:`~.inference.holding_chances`) and no better one."""
    total = sum(unseen.values())
    if not total:
        return 0.0
    scored = []
    for value, count in unseen.items():
        if not count:
            continue
        cells = board.cells_accepting(value)
        if cells:
            best = max(variant.placement_points(board, c, value) for c in cells)
            if best:
                scored.append((best, value))
    scored.sort(reverse=True)
    expected, none_better = 0.0, 1.0
    for points, value in scored:
        if chances is None:
            holds = 1.0 - (1.0 - unseen[value] / total) ** 7
        else:
            holds = chances.get(value, 0.0)
        expected += none_better * holds * points
        none_better *= 1.0 - holds
    return expected


def exchange_plans(
    rack: Sequence[int], bag_size: int, judge: LeaveJudge, top: int = 2
) -> list[tuple[float, TurnPlan]]:
    """The exchanges (C8b) worth trying at a turn's start, as plans that place nothing
    and keep some tokens: for each number of tokens given (at least one, no more than
    the bag holds), the tokens kept that ``judge`` values most; of those, the ``top``
    best by that value, with it, best first. The tokens given are the rack's others."""
    best: dict[int, tuple[float, tuple[int, ...]]] = {}
    ordered = sorted(rack)
    for kept_count in range(max(0, len(ordered) - bag_size), len(ordered)):
        for kept in set(combinations(ordered, kept_count)):
            value = judge(kept, bag_size)
            if kept_count not in best or (value, kept) > best[kept_count]:
                best[kept_count] = (value, kept)
    chosen = sorted(best.values(), reverse=True)[:top]
    return [(value, TurnPlan((), 0, 0, kept)) for value, kept in chosen]


def rank_plans(
    view: BoardView,
    *,
    threat: bool = True,
    top: int = 8,
    board: Board | None = None,
    node_limit: int = 200_000,
    leaves: LeaveJudge | None = None,
    chances: Mapping[int, float] | None = None,
) -> list[tuple[float, TurnPlan]]:
    """The candidate ways to finish the turn, best equity first:
    points + bonus + leave value - the opponent's expected best reply. ``board`` holds
    the view's tokens when the caller keeps one (else it is built from the view);
    ``node_limit`` bounds the turn search; ``leaves`` values a leave with the bag's
    size (by default :func:`leave_value`); ``chances`` are the opponent's chances of
    holding each value (by default from the unseen tokens alone)."""
    if board is None:
        variant, board = board_from_view(view)
    else:
        variant = get_variant(view.variant)
    with CollectorPaused():  # the scores and plans make no cycle (issue 35)
        strict = bool(view.house_rules.get("strict", False))
        plans = search_turns(
            variant,
            board,
            view.rack,
            started_with=started_with(view),
            strict=strict,
            node_limit=node_limit,
        )
        # At the start of a turn, not placing is a pass or an exchange, judged apart.
        starting = not view.turn_placements
        options = ([p for p in plans if p.placements] or plans) if starting else plans
        rack_size = variant.rack_size
        judge = leaves
        kept_values: dict[tuple[int, ...], float] = {}  # many plans keep the same tokens
        scored = []
        for plan in options:
            kept = kept_values.get(plan.leave)
            if kept is None:
                if judge is None:
                    kept = leave_value(plan.leave, view.bag_size, rack_size)
                else:
                    kept = judge(plan.leave, view.bag_size)
                kept_values[plan.leave] = kept
            scored.append((plan.total + kept, plan))
        _best_first(scored)
        if threat and variant.partial_turns:
            shortlist = scored[:top]
            unseen = dict(view.unseen)
            rescored = []
            for equity, plan in shortlist:
                for cell, value in plan.placements:
                    board.place(cell, value)
                reply = expected_best_reply(variant, board, unseen, chances)
                for _ in plan.placements:
                    board.unplace()
                rescored.append((equity - THREAT_WEIGHT * reply, plan))
            _best_first(rescored)
            scored = rescored + scored[top:]
        return scored


def _best_first(scored: list[tuple[float, TurnPlan]]) -> None:
    """Sort ``scored`` by equity, highest first, and among equals the turn of fewer
    placements first: two stable sorts on plain keys, where one sort on a pair made a
    tuple per turn for the collector to count (issue 35)."""
    scored.sort(key=_placed_count)
    scored.sort(key=_equity, reverse=True)


def _placed_count(entry: tuple[float, TurnPlan]) -> int:
    return len(entry[1].placements)


def _equity(entry: tuple[float, TurnPlan]) -> float:
    return entry[0]
