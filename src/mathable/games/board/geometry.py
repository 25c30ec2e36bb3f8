"""Cells, their names and the line geometry of square boards, built once per size.

A cell is an ``int`` index ``row * size + column`` (row 0 is the top row, column 0 the
left column). Names are a column letter then a 1-based row number, as in chess: on the
14x14 board the centre cells are G7, H7, G8 and H8 (ruling C1).

>>> grid = Grid.of(14)
>>> grid.name(grid.parse("G7"))
'G7'
>>> grid.parse("n14") == 14 * 14 - 1
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from mathable.engine.errors import NotationError
from mathable.i18n import lazy

Cell = int
"""A square of the board, ``row * size + column``."""

COLUMN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_CELL_RE = re.compile(r"^([A-Za-z])(\d{1,2})$")

ORTHOGONAL: tuple[tuple[int, int], ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIAGONAL: tuple[tuple[int, int], ...] = ((-1, -1), (-1, 1), (1, -1), (1, 1))


@dataclass(frozen=True)
class Grid:
    """Precomputed geometry of a ``size`` x ``size`` board.

    ``pairs[x]`` lists, for each of the four directions d in which both exist, the
    cells ``(x+d, x+2d)`` whose tokens make an equation for ``x`` (ruling C3).
    ``dependents[y]`` lists the cells whose equations change when ``y`` fills: the
    cells one or two steps away in line (at most 8); ``partners[y]`` the same cells,
    each with the other cell of its pair through ``y`` (a filled ``y`` completes that
    pair only if the partner is filled too).
    """

    size: int
    pairs: tuple[tuple[tuple[Cell, Cell], ...], ...] = field(repr=False)
    dependents: tuple[tuple[Cell, ...], ...] = field(repr=False)
    partners: tuple[tuple[tuple[Cell, Cell], ...], ...] = field(repr=False)

    @staticmethod
    @cache
    def of(size: int) -> Grid:
        """The grid of a square board of side ``size`` (cached)."""
        if not 1 <= size <= len(COLUMN_LETTERS):
            raise ValueError(f"board size must be 1..{len(COLUMN_LETTERS)}, not {size}")
        pairs: list[tuple[tuple[Cell, Cell], ...]] = []
        dependents: list[list[Cell]] = [[] for _ in range(size * size)]
        partners: list[list[tuple[Cell, Cell]]] = [[] for _ in range(size * size)]
        for row in range(size):
            for col in range(size):
                here = row * size + col
                cell_pairs = []
                for dr, dc in ORTHOGONAL:
                    r1, c1, r2, c2 = row + dr, col + dc, row + 2 * dr, col + 2 * dc
                    if 0 <= r2 < size and 0 <= c2 < size:
                        near, far = r1 * size + c1, r2 * size + c2
                        cell_pairs.append((near, far))
                        dependents[near].append(here)
                        dependents[far].append(here)
                        partners[near].append((here, far))
                        partners[far].append((here, near))
                pairs.append(tuple(cell_pairs))
        return Grid(
            size,
            tuple(pairs),
            tuple(tuple(d) for d in dependents),
            tuple(tuple(p) for p in partners),
        )

    @property
    def cells(self) -> range:
        """Every cell of the board, row by row from the top."""
        return range(self.size * self.size)

    def name(self, cell: Cell) -> str:
        """The cell's name, e.g. ``'I8'``."""
        row, col = divmod(cell, self.size)
        return f"{COLUMN_LETTERS[col]}{row + 1}"

    def parse(self, text: str) -> Cell:
        """The cell named ``text`` (case-insensitive); raises NotationError."""
        match = _CELL_RE.match(text.strip())
        if not match:
            raise NotationError(lazy("{text} is not a cell name like G7", text=repr(text)))
        col = COLUMN_LETTERS.index(match.group(1).upper())
        row = int(match.group(2)) - 1
        if col >= self.size or not 0 <= row < self.size:
            last = f"{COLUMN_LETTERS[self.size - 1]}{self.size}"
            raise NotationError(
                lazy("{text} is off the board (A1 to {last})", text=repr(text), last=last)
            )
        return row * self.size + col

    def row_col(self, cell: Cell) -> tuple[int, int]:
        """``(row, column)``, both from 0."""
        return divmod(cell, self.size)
