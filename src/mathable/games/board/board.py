"""The board during play: tokens on squares plus incrementally kept legal-move tables.

For every empty cell the board keeps the values a token may take there and how many
equations each completes (rulings C3-C5), and for every value the cells that accept it.
A placement changes the tables of at most 8 cells (those one or two steps away in line),
so only those are recomputed: the Scrabble cross-set idea (Macondo) applied to
equations. ``place``/``unplace`` make and unmake moves for search.

>>> from mathable.games.board.layouts import classic_layout
>>> board = Board(RuleTables.for_board(classic_layout()))
>>> i8 = board.grid.parse("I8")
>>> board.equations(i8, 12), board.points(i8, 12)
(1, 12)
>>> board.place(i8, 12)
12
>>> sorted(board.grid.name(c) for c in board.cells_accepting(16))
['J8']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from mathable.engine.arithmetic import ALL_OPS, Op, pair_results
from mathable.engine.tokens import CLASSIC_TOKENS

from .geometry import Cell, Grid
from .layouts import Layout

EMPTY = -1
"""The value of an empty cell in ``Board.values``."""


@dataclass(frozen=True, eq=False)
class RuleTables:
    """What never changes during a game on one board: geometry and per-cell operations.

    ``cell_ops[x]`` are the operations whose equations count on ``x``: the variant's
    operations, narrowed to the square's own on a restriction square (ruling C5).
    ``values`` are the token values that exist; only those are tracked.
    """

    layout: Layout
    ops: Op
    values: frozenset[int]
    cell_ops: tuple[Op, ...] = field(repr=False)
    multipliers: tuple[int, ...] = field(repr=False)
    _results: dict[tuple[int, int, Op], tuple[int, ...]] = field(default_factory=dict, repr=False)

    @staticmethod
    @cache
    def for_board(
        layout: Layout, ops: Op = ALL_OPS, values: frozenset[int] | None = None
    ) -> RuleTables:
        """The tables of ``layout`` with ``ops`` allowed and ``values`` tracked."""
        if values is None:
            values = frozenset(CLASSIC_TOKENS)
        cell_ops = tuple(
            ops if sq.restriction is None else (ops & sq.restriction) for sq in layout.squares
        )
        multipliers = tuple(sq.multiplier for sq in layout.squares)
        return RuleTables(layout, ops, values, cell_ops, multipliers)

    def results(self, a: int, b: int, ops: Op) -> tuple[int, ...]:
        """The tracked values that ``ops`` make from ``a`` and ``b`` (memoised)."""
        key = (a, b, ops)
        found = self._results.get(key)
        if found is None:
            found = tuple(sorted(v for v in pair_results(a, b, ops) if v in self.values))
            self._results[key] = found
        return found


class Board:
    """Tokens on a board and, per empty cell, the values accepted and their equations."""

    __slots__ = ("_history", "accepts", "by_value", "grid", "rules", "values")

    def __init__(self, rules: RuleTables, initial: Mapping[Cell, int] | None = None) -> None:
        self.rules = rules
        self.grid: Grid = rules.layout.grid
        n = self.grid.size * self.grid.size
        self.values: list[int] = [EMPTY] * n
        if initial is None:
            initial = {c: sq.start for c, sq in enumerate(rules.layout.squares) if sq.start}
        for cell, value in initial.items():
            self.values[cell] = value
        self.accepts: list[dict[int, int]] = [{} for _ in range(n)]
        self.by_value: dict[int, dict[Cell, int]] = {v: {} for v in rules.values}
        self._history: list[Cell] = []
        for cell in range(n):
            self._refresh(cell)

    # -- queries -------------------------------------------------------------------

    def is_empty(self, cell: Cell) -> bool:
        """Whether no token lies on ``cell``."""
        return self.values[cell] == EMPTY

    def equations(self, cell: Cell, value: int) -> int:
        """How many equations a token ``value`` on ``cell`` completes (C4, C5); 0 if none."""
        return self.accepts[cell].get(value, 0)

    def points(self, cell: Cell, value: int) -> int:
        """Points of placing ``value`` on ``cell`` now (C6): value x equations x award."""
        return value * self.accepts[cell].get(value, 0) * self.rules.multipliers[cell]

    def cells_accepting(self, value: int) -> Mapping[Cell, int]:
        """The empty cells where ``value`` is legal, with their equation counts."""
        return self.by_value.get(value, {})

    def has_placement(self, values: Iterable[int]) -> bool:
        """Whether any of ``values`` has a legal cell."""
        by_value = self.by_value
        return any(by_value.get(v) for v in values)

    def placed(self) -> dict[Cell, int]:
        """Every token on the board, by cell (printed ones included)."""
        return {c: v for c, v in enumerate(self.values) if v != EMPTY}

    @property
    def history(self) -> list[Cell]:
        """Cells filled by ``place``, oldest first (for ``unplace``)."""
        return self._history

    # -- make / unmake ---------------------------------------------------------------

    def place(self, cell: Cell, value: int) -> int:
        """Put ``value`` on the empty ``cell``; returns its points (0 if it completes no
        equation: legality is the caller's business, so the table-referee house rule can
        accept a mistake provisionally)."""
        if self.values[cell] != EMPTY:
            raise ValueError(f"{self.grid.name(cell)} is not empty")
        points = self.points(cell, value)
        self.values[cell] = value
        self._history.append(cell)
        self._refresh(cell)
        for dependent in self.grid.dependents[cell]:
            if self.values[dependent] == EMPTY:
                self._refresh(dependent)
        return points

    def unplace(self) -> tuple[Cell, int]:
        """Take back the last token placed; returns its cell and value."""
        cell = self._history.pop()
        value = self.values[cell]
        self.values[cell] = EMPTY
        self._refresh(cell)
        for dependent in self.grid.dependents[cell]:
            if self.values[dependent] == EMPTY:
                self._refresh(dependent)
        return cell, value

    def copy(self) -> Board:
        """An independent board in the same state."""
        other = Board.__new__(Board)
        other.rules = self.rules
        other.grid = self.grid
        other.values = list(self.values)
        other.accepts = [dict(a) for a in self.accepts]
        other.by_value = {v: dict(cells) for v, cells in self.by_value.items()}
        other._history = list(self._history)
        return other

    def _refresh(self, cell: Cell) -> None:
        by_value = self.by_value
        for value in self.accepts[cell]:
            del by_value[value][cell]
        table: dict[int, int] = {}
        values = self.values
        if values[cell] == EMPTY:
            ops = self.rules.cell_ops[cell]
            if ops:
                results = self.rules.results
                for near, far in self.grid.pairs[cell]:
                    a = values[near]
                    if a == EMPTY:
                        continue
                    b = values[far]
                    if b == EMPTY:
                        continue
                    for v in results(a, b, ops):
                        table[v] = table.get(v, 0) + 1
                for v, n in table.items():
                    by_value[v][cell] = n
        self.accepts[cell] = table
