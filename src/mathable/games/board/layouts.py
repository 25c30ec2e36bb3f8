"""Board layouts as data: a layout is read from a text grid like ``data/classic-board.txt``.

Legend of a layout file (one row per line, the row number first, cells separated by
spaces; ``#`` starts a comment, and the line of column letters is skipped):

``.`` plain, ``2``/``3`` award squares (x2, x3, ruling C6), ``+ - x /`` restriction
squares (ruling C5), ``cN`` a centre square printed with token N before play (C1),
``nN`` a square printed with the number N (Mathable Junior's back side, K1).

>>> board = classic_layout()
>>> board.size, board.grid.name(board.start_cells()[0])
(14, 'G7')
>>> str(board.squares[board.grid.parse("J8")])
'+'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from mathable.engine.arithmetic import SYMBOL_OPS, Op

from .geometry import COLUMN_LETTERS, Cell, Grid


@dataclass(frozen=True)
class Square:
    """What is printed on one square of the board."""

    multiplier: int = 1
    """2 or 3 on an award square: the token placed there scores double or triple."""
    restriction: Op | None = None
    """The only operation whose equations count there (ruling C5)."""
    start: int | None = None
    """The token printed there before play (the classic centre 1, 2, 3, 4)."""
    number: int | None = None
    """The number printed there on a numbered board (Junior, back side)."""

    def __str__(self) -> str:
        if self.start is not None:
            return f"c{self.start}"
        if self.number is not None:
            return f"n{self.number}"
        if self.restriction is not None:
            return self.restriction.symbol
        if self.multiplier > 1:
            return str(self.multiplier)
        return "."


PLAIN = Square()


@dataclass(frozen=True)
class Layout:
    """A board: its name, its geometry and what is printed on each square."""

    name: str
    squares: tuple[Square, ...]

    @property
    def size(self) -> int:
        """The side of the square board."""
        return int(len(self.squares) ** 0.5)

    @property
    def grid(self) -> Grid:
        """The geometry tables of the board's size."""
        return Grid.of(self.size)

    def start_cells(self) -> list[Cell]:
        """The cells printed with a token before play."""
        return [c for c, sq in enumerate(self.squares) if sq.start is not None]

    def to_text(self) -> str:
        """The layout in the text format it is read from."""
        letters = "".join(f"{letter:>4}" for letter in COLUMN_LETTERS[: self.size])
        lines = [f"# {self.name}", f"  {letters}"]
        for row in range(self.size):
            cells = self.squares[row * self.size : (row + 1) * self.size]
            lines.append(f"{row + 1:>2}" + "".join(f"{sq!s:>4}" for sq in cells))
        return "\n".join(lines) + "\n"


def parse_square(token: str) -> Square:
    """One cell of a layout file."""
    if token == ".":
        return PLAIN
    if token in ("2", "3"):
        return Square(multiplier=int(token))
    if token in SYMBOL_OPS:
        return Square(restriction=SYMBOL_OPS[token])
    if token[:1] in ("c", "n") and token[1:].isdigit():
        value = int(token[1:])
        return Square(start=value) if token[0] == "c" else Square(number=value)
    raise ValueError(f"unknown square {token!r} in a board layout")


def parse_layout(name: str, text: str) -> Layout:
    """Read a layout from its text grid; raises ValueError on a malformed grid."""
    rows: list[list[Square]] = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].split()
        if not line or not line[0].isdigit():
            continue  # blank, comment or the line of column letters
        if int(line[0]) != len(rows) + 1:
            raise ValueError(f"board {name}: row {line[0]} is out of order")
        rows.append([parse_square(tok) for tok in line[1:]])
    size = len(rows)
    if size == 0 or any(len(r) != size for r in rows):
        raise ValueError(f"board {name}: the grid is not square")
    return Layout(name, tuple(sq for row in rows for sq in row))


@cache
def packaged_layout(name: str) -> Layout:
    """A layout shipped in ``mathable/games/board/data`` as ``NAME-board.txt``."""
    text = resources.files("mathable.games.board").joinpath(f"data/{name}-board.txt").read_text()
    return parse_layout(name, text)


def classic_layout() -> Layout:
    """The 14x14 classic board (ruling C1)."""
    return packaged_layout("classic")
