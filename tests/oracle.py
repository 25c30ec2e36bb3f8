"""The naive full-scan placement generator: the oracle the incremental tables must match.

It recomputes every equation from scratch for every empty cell and every value, with no
shared code beyond the board's squares, so a bug in the incremental tables shows up as a
disagreement (rulings C3-C6).
"""

from __future__ import annotations

from collections.abc import Iterable

from mathable.games.board.board import EMPTY, Board

_DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))
_SYMBOLS = {"+": 1, "-": 2, "x": 4, "/": 8}


def makes(a: int, b: int, v: int, op: int) -> bool:
    if op == 1:
        return a + b == v
    if op == 2:
        return abs(a - b) == v
    if op == 4:
        return a * b == v
    return (b != 0 and a == v * b) or (a != 0 and b == v * a)


def naive_equations(board: Board, cell: int, value: int) -> int:
    """Equations ``value`` would complete on ``cell``, counted from scratch."""
    size = board.grid.size
    if board.values[cell] != EMPTY:
        return 0
    row, col = divmod(cell, size)
    square = board.rules.layout.squares[cell]
    ops = int(board.rules.ops)  # a plain int: the IntFlag's own & is slow Python
    allowed = [op for op in (1, 2, 4, 8) if ops & op]
    if square.restriction is not None:
        allowed = [op for op in allowed if op == int(square.restriction)]
    count = 0
    for dr, dc in _DIRECTIONS:
        r1, c1, r2, c2 = row + dr, col + dc, row + 2 * dr, col + 2 * dc
        if not (0 <= r2 < size and 0 <= c2 < size):
            continue
        a, b = board.values[r1 * size + c1], board.values[r2 * size + c2]
        if a == EMPTY or b == EMPTY:
            continue
        if any(makes(a, b, value, op) for op in allowed):
            count += 1
    return count


def naive_placements(board: Board, rack: Iterable[int]) -> dict[tuple[int, int], int]:
    """Every legal (cell, value) for the rack with its points, by full scan."""
    out: dict[tuple[int, int], int] = {}
    values = sorted(set(rack))
    for cell in range(len(board.values)):
        if board.values[cell] != EMPTY:
            continue
        multiplier = board.rules.layout.squares[cell].multiplier
        for value in values:
            n = naive_equations(board, cell, value)
            if n:
                out[(cell, value)] = value * n * multiplier
    return out
