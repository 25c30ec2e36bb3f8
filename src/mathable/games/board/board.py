"""The board during play: tokens on squares plus incrementally kept legal-move tables.

For every empty cell the board keeps the values a token may take there as a bit mask
(one bit per token value, rulings C3-C5), and for every value the cells that accept it
as a bit set over the cells; a value that completes two or more equations on a cell is
marked so, and only then are its equations counted. A placement changes the tables of
at most 8 cells (those one or two steps away in line), so only those are recomputed:
the Scrabble cross-set idea (Macondo's cross-sets are bit masks too) applied to
equations. ``place``/``unplace`` make and unmake moves for search. Masks rather than
dictionaries made a refresh about three times cheaper (issue 16: the refresh was ~40%
of every computer player's thinking). The masks and the cell sets are kept in mypyc's
native vectors of 64-bit integers (``librt.vecs``): compiled, a flip changes a number in
place, where a Python list made a new integer object at every flip and freed the old
(issue 35: strong self-play +20%); in pure Python they behave as lists.

>>> from mathable.games.board.layouts import classic_layout
>>> board = Board(RuleTables.for_board(classic_layout()))
>>> i8 = board.grid.parse("I8")
>>> board.equations(i8, 12), board.points(i8, 12)
(1, 12)
>>> board.place(i8, 12)
12
>>> [board.grid.name(c) for c in board.cells_accepting(16)]
['J8']
>>> board.cells_of[16] == 1 << board.grid.parse("J8")
True
>>> board.cells_accepting(200), board.cells_accepting(-1), board.points(i8, 200)
([], [], 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Final

from librt.vecs import vec
from mypy_extensions import i64

from mathable.engine.arithmetic import ALL_OPS, Op, pair_values
from mathable.engine.tokens import CLASSIC_TOKENS

from .geometry import Cell, Grid
from .layouts import Layout

EMPTY: Final = -1
"""The value of an empty cell in ``Board.values``."""


@dataclass(frozen=True, eq=False)
class RuleTables:
    """What never changes during a game on one board: geometry and per-cell operations.

    ``cell_ops[x]`` are the operations whose equations count on ``x``: the variant's
    operations, narrowed to the square's own on a restriction square (ruling C5).
    ``values`` are the token values that exist; only those are tracked, value
    ``values_in_order[i]`` as bit ``i`` of a mask.
    """

    layout: Layout
    ops: Op
    values: frozenset[int]
    cell_ops: tuple[Op, ...] = field(repr=False)
    multipliers: tuple[int, ...] = field(repr=False)
    values_in_order: tuple[int, ...] = field(repr=False)
    bit_of: dict[int, int] = field(repr=False)
    op_codes: tuple[int, ...] = field(repr=False)
    """``cell_ops`` as plain ints, the operations part of :meth:`result_mask`'s key."""
    index_by_value: tuple[int, ...] = field(repr=False)
    """Per value below ``2 ** _VALUE_BITS``, its bit's index in a mask (-1: not
    tracked): :attr:`bit_of` read by index, in the turn search's inner loop."""
    words: int = field(repr=False)
    """How many words of :data:`_WORD_BITS` cells a set of cells takes (see
    :attr:`Board.cells_by_bit`)."""
    _masks: list[int] = field(
        default_factory=lambda: [-1] * (1 << (_OP_BITS + 2 * _VALUE_BITS)), repr=False
    )
    """:meth:`result_mask`'s memo, a flat table indexed by its key (-1: not made yet): a
    list read by index where a dictionary was hashed (the turn search's innermost
    lookup, issue 35)."""

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
        in_order = tuple(sorted(values))
        bit_of = {v: 1 << i for i, v in enumerate(in_order)}
        if in_order and (in_order[0] < 0 or in_order[-1] >= 1 << _VALUE_BITS):
            raise ValueError(f"token values must lie in 0..{(1 << _VALUE_BITS) - 1}")
        if len(in_order) > _MASK_BITS:  # a mask is a native 64-bit integer (Board.masks)
            raise ValueError(f"at most {_MASK_BITS} token values may be tracked")
        codes = tuple(int(o) for o in cell_ops)
        index_by_value = [-1] * (1 << _VALUE_BITS)
        for index, value in enumerate(in_order):
            index_by_value[value] = index
        return RuleTables(
            layout,
            ops,
            values,
            cell_ops,
            multipliers,
            in_order,
            bit_of,
            codes,
            tuple(index_by_value),
            -(-len(layout.squares) // _WORD_BITS),
        )

    def index(self, value: int) -> int:
        """The index of ``value``'s bit in a mask (-1 for a value not tracked)."""
        by_value = self.index_by_value
        return by_value[value] if 0 <= value < len(by_value) else -1

    def bit(self, value: int) -> int:
        """``value``'s bit in a mask (0 for a value not tracked)."""
        index = self.index(value)
        return 1 << index if index >= 0 else 0

    def results(self, a: int, b: int, ops: Op) -> tuple[int, ...]:
        """The tracked values that ``ops`` make from ``a`` and ``b``."""
        return self.values_of(self.result_mask(a, b, int(ops)))

    def result_mask(self, a: int, b: int, op_code: int) -> int:
        """The tracked values that the operations ``op_code`` (an ``Op`` as an int) make
        from ``a`` and ``b``, as a mask (memoised under one int: a few hundred pairs
        occur in a game, and this is the board's innermost lookup)."""
        key = (((op_code << _VALUE_BITS) | a) << _VALUE_BITS) | b
        found = self._masks[key]
        if found < 0:
            bit_of = self.bit_of
            found = 0
            for v in pair_values(a, b, op_code):
                found |= bit_of.get(v, 0)
            self._masks[key] = found
        return found

    def values_of(self, mask: int) -> tuple[int, ...]:
        """The values whose bits ``mask`` holds, smallest first."""
        in_order = self.values_in_order
        return tuple(in_order[i] for i in _bits(mask))


_VALUE_BITS: Final = 7
"""Token values fit in this many bits (the largest is 90)."""

_OP_BITS: Final = 4
"""An ``Op`` set fits in this many bits (the four operations)."""

_MASK_BITS: Final = 62
"""At most this many token values are tracked, a bit each in a mask (classic has 46): a
mask is a native 64-bit integer."""

_WORD_BITS: Final = 60
"""Cells per word of a set of cells: a word stays a small int (below 2**62), which the
compiled build keeps unboxed, where a set of a whole board's 196 cells would be a big
int made anew at every change."""


def _bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


class Board:
    """Tokens on a board and, per empty cell, the values accepted and their equations."""

    __slots__ = (
        "_history",
        "_synced",
        "_undo",
        "cells_by_bit",
        "grid",
        "masks",
        "rules",
        "twice",
        "values",
    )

    rules: RuleTables
    grid: Grid
    values: list[int]
    masks: vec[i64]
    """Per cell, the values a token may take there (0 on a filled cell)."""
    twice: vec[i64]
    """Per cell, the values that complete two equations or more there."""
    cells_by_bit: vec[i64]
    """Per tracked value (by its bit's index ``i``), the empty cells that accept it as
    a bit set over the cells, in words of :data:`_WORD_BITS` cells: cell ``c`` is bit
    ``c % _WORD_BITS`` of item ``i * words + c // _WORD_BITS`` (flipped at every
    placement in search: a native vector read by index)."""
    _history: list[Cell]
    _undo: list[list[int]]
    _synced: tuple[object, ...] | None
    """The tuple of values :meth:`catch_up` last made this board hold, while nothing else
    has changed it since (else None): the next catch-up compares against it by identity
    first (a pointer compare; Python keeps one object per small int)."""

    def __init__(
        self,
        rules: RuleTables,
        initial: Mapping[Cell, int] | None = None,
        *,
        like: Board | None = None,
    ) -> None:
        """A board as at the start of a game, or holding ``initial``, or a copy of
        ``like`` (its tables copied, not computed again)."""
        self.rules = rules
        if like is not None:
            self.grid = like.grid
            self.values = list(like.values)
            self.masks = vec[i64](like.masks)
            self.twice = vec[i64](like.twice)
            self.cells_by_bit = vec[i64](like.cells_by_bit)
            self._history = list(like._history)
            self._undo = list(like._undo)
            self._synced = None
            return
        self.grid = rules.layout.grid
        n = self.grid.size * self.grid.size
        self.values = [EMPTY] * n
        if initial is None:
            initial = {c: sq.start for c, sq in enumerate(rules.layout.squares) if sq.start}
        for cell, value in initial.items():
            self.values[cell] = value
        self.masks = vec[i64]([0] * n)
        self.twice = vec[i64]([0] * n)
        self.cells_by_bit = vec[i64]([0] * (len(rules.values_in_order) * rules.words))
        self._history = []
        self._undo = []
        self._synced = None
        for cell in range(n):
            self._refresh(cell)

    # -- queries -------------------------------------------------------------------

    def is_empty(self, cell: Cell) -> bool:
        """Whether no token lies on ``cell``."""
        return self.values[cell] == EMPTY

    def accepts(self, cell: Cell, value: int) -> bool:
        """Whether ``value`` completes at least one equation on ``cell`` (C3-C5)."""
        return bool(self.masks[cell] & self.rules.bit_of.get(value, 0))

    def accepted(self, cell: Cell) -> tuple[int, ...]:
        """The values a token may take on ``cell``, smallest first."""
        return self.rules.values_of(self.masks[cell])

    def equations(self, cell: Cell, value: int) -> int:
        """How many equations a token ``value`` on ``cell`` completes (C4, C5); 0 if none."""
        bit = self.rules.bit(value)
        if not self.masks[cell] & bit:
            return 0
        if not self.twice[cell] & bit:
            return 1
        values = self.values
        rules = self.rules  # its method called on it, not bound: a native call compiled
        ops = rules.op_codes[cell]
        return sum(
            1
            for near, far in self.grid.pairs[cell]
            if values[near] != EMPTY
            and values[far] != EMPTY
            and rules.result_mask(values[near], values[far], ops) & bit
        )

    def points(self, cell: Cell, value: int) -> int:
        """Points of placing ``value`` on ``cell`` now (C6): value x equations x award."""
        bit = self.rules.bit(value)
        if not self.masks[cell] & bit:
            return 0
        if self.twice[cell] & bit:
            return value * self.equations(cell, value) * self.rules.multipliers[cell]
        return value * self.rules.multipliers[cell]

    def cells_accepting(self, value: int) -> list[Cell]:
        """The empty cells where ``value`` is legal, in cell order."""
        found: list[Cell] = []
        start = self._first_word(value)
        if start < 0:
            return found
        cells = self.cells_by_bit
        for word in range(self.rules.words):
            mask: int = cells[start + word]
            offset = word * _WORD_BITS
            while mask:
                low = mask & -mask
                found.append(offset + low.bit_length() - 1)
                mask ^= low
        return found

    def has_placement(self, values: Iterable[int]) -> bool:
        """Whether any of ``values`` has a legal cell."""
        cells = self.cells_by_bit
        words = self.rules.words
        for value in values:
            start = self._first_word(value)
            if start >= 0:
                for index in range(start, start + words):  # no slice: no new vector
                    if cells[index]:
                        return True
        return False

    @property
    def cells_of(self) -> dict[int, int]:
        """Per tracked value, the empty cells that accept it as one bit set over the
        cells (bit ``c`` for cell ``c``)."""
        cells, words = self.cells_by_bit, self.rules.words
        return {
            value: sum(
                int(cells[index * words + word]) << (word * _WORD_BITS) for word in range(words)
            )
            for index, value in enumerate(self.rules.values_in_order)
        }

    def _first_word(self, value: int) -> int:
        """Where ``value``'s cells begin in :attr:`cells_by_bit` (-1 if not tracked)."""
        index = self.rules.index(value)
        return index * self.rules.words if index >= 0 else -1

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
        points = self.points(cell, value)
        undo: list[int] = []
        self._put(cell, value, undo)
        self._history.append(cell)
        self._undo.append(undo)
        return points

    def unplace(self) -> tuple[Cell, int]:
        """Take back the last token placed; returns its cell and value. The tables of
        the cells it changed are put back as they were, not computed again."""
        cell = self._history.pop()
        undo = self._undo.pop()
        value = self.values[cell]
        self.values[cell] = EMPTY
        self._synced = None
        masks = self.masks
        twice = self.twice
        for i in range(len(undo) - 3, -1, -3):
            changed = undo[i]
            old = undo[i + 1]
            self._move_bits(changed, masks[changed] ^ old)
            masks[changed] = old
            twice[changed] = undo[i + 2]
        return cell, value

    def catch_up(self, wanted: tuple[int, ...]) -> bool:
        """Place the tokens ``wanted`` (a value per cell, ``EMPTY`` where empty) holds and
        this board does not; False, changing nothing, if a cell of this board would have
        to lose or change its token (or the boards differ in size). A computer catches up
        on each view: a cell whose value is the very object of the last catch-up's tuple
        is not compared again (issue 35: the compare of 196 cells was a tenth of a greedy
        game). Every token then on the board is kept for good (:meth:`forget_history`):
        ``unplace`` takes back only what is placed after."""
        values = self.values
        if len(values) != len(wanted):
            return False
        added = []
        synced = self._synced
        if synced is not None and len(synced) != len(wanted):
            synced = None
        same: tuple[object, ...] = wanted
        for cell in range(len(values)):
            if synced is not None and same[cell] is synced[cell]:
                continue  # the very object of the last catch-up: the cell is unchanged
            have = values[cell]
            if have != wanted[cell]:
                if have != EMPTY:
                    return False
                added.append(cell)
        for cell in added:
            self.lay(cell, wanted[cell])
        self.forget_history()
        self._synced = wanted
        return True

    def lay(self, cell: Cell, value: int) -> None:
        """Put ``value`` on the empty ``cell`` for good: :meth:`place` without its points
        and without a record for :meth:`unplace`, which stops before it. A game's own
        board and a computer's caught-up board never take a token back, and the two were
        a third of a placement's cost (issue 35)."""
        self._put(cell, value, None)

    def _put(self, cell: Cell, value: int, undo: list[int] | None) -> None:
        """Put ``value`` on the empty ``cell`` and bring the tables up to date, noting
        what changed in ``undo`` when given (:meth:`_refresh`)."""
        values = self.values
        if values[cell] != EMPTY:
            raise ValueError(f"{self.grid.name(cell)} is not empty")
        values[cell] = value
        self._synced = None
        self._refresh(cell, undo)
        for dependent, partner in self.grid.partners[cell]:
            # Only a pair completed by this token changes a neighbour's tables.
            if values[dependent] == EMPTY and values[partner] != EMPTY:
                self._refresh(dependent, undo)

    def forget_history(self) -> None:
        """Keep the tokens placed so far for good (``unplace`` stops before them)."""
        self._history.clear()
        self._undo.clear()

    def copy(self) -> Board:
        """An independent board in the same state."""
        return Board(self.rules, like=self)

    def _refresh(self, cell: Cell, undo: list[int] | None = None) -> None:
        """Compute ``cell``'s tables from its neighbours; what changed is noted in
        ``undo`` (cell, old mask, old twice) for :meth:`unplace`."""
        values = self.values
        mask = 0
        twice = 0
        if values[cell] == EMPTY:
            rules = self.rules  # its method called on it, not bound: a native call compiled
            ops = rules.op_codes[cell]
            if ops:
                for near, far in self.grid.pairs[cell]:
                    a = values[near]
                    if a == EMPTY:
                        continue
                    b = values[far]
                    if b == EMPTY:
                        continue
                    made = rules.result_mask(a, b, ops)
                    twice |= mask & made
                    mask |= made
        old = self.masks[cell]
        old_twice = self.twice[cell]
        if mask == old and twice == old_twice:
            return
        if undo is not None:
            undo.extend((cell, old, old_twice))
        self.twice[cell] = twice
        self.masks[cell] = mask
        self._move_bits(cell, old ^ mask)

    def _move_bits(self, cell: Cell, changed: int) -> None:
        """Flip ``cell`` in the cell sets of the values whose bits ``changed`` holds."""
        words = self.rules.words
        word, place = divmod(cell, _WORD_BITS)
        here = 1 << place
        cells = self.cells_by_bit
        while changed:
            low = changed & -changed
            cells[(low.bit_length() - 1) * words + word] ^= here
            changed ^= low
