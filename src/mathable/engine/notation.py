"""The text forms used everywhere: tests, logs, the CLI, the web API and bug reports.

* a cell: ``G7`` (column letter, then row; ruling C1);
* a placement: ``I8=12``; with ``+`` when the extra token of a restriction square was
  taken (``J8=16+``, ruling C7);
* an action: a placement, ``end``, ``pass``, ``exchange 3,5,7`` (the values given back)
  ``challenge`` or ``stop`` (end by agreement, Junior); Quattro's ``draw``,
  ``penalty`` and ``diago``, and its plays on a pile ``A=32`` (see ``quattro.py``);
  a seat leaving, ``resign 1``, ``flag 1``, ``claim 1``, or calling the game off,
  ``abort 0`` (seats from 0, as the web server has always stored them; local ruling L1);
* a turn: its placements separated by spaces, in the order played;
* a position: one line ``variant | board | racks | scores | bag | to move``.

Every ``parse_*`` has a ``format_*`` with ``parse(format(x)) == x``.

>>> from mathable.games.board.geometry import Grid
>>> grid = Grid.of(14)
>>> format_action(parse_action("j8=16+", grid), grid)
'J8=16+'
>>> format_action(parse_action("exchange 3, 5,7", grid), grid)
'exchange 3,5,7'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from .actions import (
    LEAVE_REASONS,
    Abort,
    Accept,
    Action,
    Cell,
    Challenge,
    Decline,
    Diago,
    Draw,
    EndGame,
    EndTurn,
    Exchange,
    Leave,
    Pass,
    Penalty,
    Place,
    action_kind,
)
from .errors import NotationError, counted

_PLACEMENT_RE = re.compile(r"^\s*([A-Za-z]\d{0,2})\s*=\s*(\d{1,3})\s*(\+?)\s*$", re.ASCII)
_VALUE_RE = re.compile(r"\d{1,3}", re.ASCII)
_NUMBER_RE = re.compile(r"-?\d{1,9}", re.ASCII)
_NATURAL_RE = re.compile(r"\d{1,9}", re.ASCII)
_SEAT_RE = re.compile(r"\d{1,2}", re.ASCII)
MAX_POSITION_LENGTH = 2000
"""The longest one-line position read, in characters (a full 14x14 board is ~1,400)."""


class CellNames(Protocol):
    """How a game names its cells (``G7``) or piles (``A``): a board's grid, or a list."""

    def name(self, cell: Cell) -> str:
        """The name of ``cell``."""
        ...

    def parse(self, text: str) -> Cell:
        """The cell called ``text``; raises NotationError."""
        ...


def parse_placement(text: str, grid: CellNames) -> Place:
    """``'I8=12'`` or ``'J8=16+'`` as a Place."""
    match = _PLACEMENT_RE.match(text)
    if not match:
        raise NotationError(f"{_quoted(text.strip())} is not a placement like I8=12 or J8=16+")
    return Place(grid.parse(match.group(1)), int(match.group(2)), bool(match.group(3)))


def format_placement(place: Place, grid: CellNames) -> str:
    """A Place as ``'I8=12'`` (``'J8=16+'`` with the extra token)."""
    return f"{grid.name(place.cell)}={place.value}{'+' if place.extra else ''}"


_KEYWORD_ACTIONS: dict[str, Action] = {
    action_kind(action): action
    for action in (
        EndTurn(),
        Pass(),
        Challenge(),
        EndGame(),
        Accept(),
        Decline(),
        Draw(),
        Penalty(),
        Diago(),
    )
}
"""The actions written as one keyword (``end``, ``pass``, ``stop``…), by that keyword:
the words are :func:`~.actions.action_kind`'s, so parsing and writing share them."""


def parse_action(text: str, grid: CellNames) -> Action:
    """Any action in its text form."""
    words = text.strip().split(None, 1)
    if not words:
        raise NotationError("an empty action")
    keyword = words[0].lower()
    if keyword in _KEYWORD_ACTIONS and len(words) == 1:
        return _KEYWORD_ACTIONS[keyword]
    if keyword in (*LEAVE_REASONS, "abort"):
        seat = words[1].strip() if len(words) > 1 else ""
        if not _SEAT_RE.fullmatch(seat):
            raise NotationError(
                f"{_quoted(text.strip())}: write {keyword} then the seat from 0, like {keyword} 1"
            )
        return Abort(int(seat)) if keyword == "abort" else Leave(int(seat), keyword)
    if keyword == "exchange":
        values = words[1].replace(",", " ").split() if len(words) > 1 else []
        if not values or not all(_VALUE_RE.fullmatch(v) for v in values):
            raise NotationError(
                f"{_quoted(text.strip())}: write exchange then the values, like exchange 3,5,7"
            )
        return Exchange(tuple(int(v) for v in values))
    return parse_placement(text, grid)


def format_action(action: Action, grid: CellNames) -> str:
    """An action's text form."""
    if isinstance(action, Place):
        return format_placement(action, grid)
    if isinstance(action, Exchange):
        return "exchange " + ",".join(str(v) for v in action.values)
    if isinstance(action, Leave | Abort):
        return f"{action_kind(action)} {action.seat}"
    return action_kind(action)  # a keyword alone: its kind is its text


def parse_turn(text: str, grid: CellNames) -> list[Place]:
    """Placements separated by spaces, in the order played."""
    return [parse_placement(word, grid) for word in text.split()]


def format_turn(places: list[Place], grid: CellNames) -> str:
    """A turn's placements, separated by spaces."""
    return " ".join(format_placement(p, grid) for p in places)


@dataclass(frozen=True)
class Position:
    """A snapshot in one line: what a viewer may see of a game between actions.

    ``racks`` holds, per seat, the rack's values or, when hidden, its size as an int.
    ``to_move`` counts seats from 0 (written from 1).
    """

    variant: str
    board: tuple[tuple[Cell, int], ...]
    racks: tuple[tuple[int, ...] | int, ...]
    scores: tuple[int, ...]
    bag: int
    to_move: int

    def format(self, grid: CellNames) -> str:
        """``variant | G7=1 ... | 1 2 8 / ?7 | 39 0 | 85 | 2``."""
        board = format_turn([Place(c, v) for c, v in self.board], grid)
        racks = " / ".join(
            f"?{r}" if isinstance(r, int) else " ".join(str(v) for v in r) for r in self.racks
        )
        scores = " ".join(str(s) for s in self.scores)
        return f"{self.variant} | {board} | {racks} | {scores} | {self.bag} | {self.to_move + 1}"

    @staticmethod
    def parse(text: str, grid_of: Mapping[str, CellNames] | CellNames) -> Position:
        """Read a one-line position; ``grid_of`` maps variant names to their grids.

        Checks everything the text alone can tell (its length, at most
        :data:`MAX_POSITION_LENGTH` characters; the fields; cells named once; numbers;
        the seat to move); :meth:`check` adds what the game can tell. Raises
        NotationError naming the field."""
        if not isinstance(text, str):
            raise NotationError(f"a position is a line of text, not a {type(text).__name__}")
        if len(text) > MAX_POSITION_LENGTH:
            raise NotationError(
                f"a position has at most {MAX_POSITION_LENGTH} characters, "
                f"not {len(text)}: is this a position?"
            )
        fields = [f.strip() for f in text.strip().split("|")]
        if len(fields) != 6:
            raise NotationError(
                "a position has 6 fields separated by '|': variant | board | "
                f"racks | scores | bag | to move (found {len(fields)})"
            )
        variant, board_text, racks_text, scores_text, bag_text, move_text = fields
        if not isinstance(grid_of, Mapping):
            grid = grid_of
        elif variant in grid_of:
            grid = grid_of[variant]
        else:
            known = ", ".join(grid_of)
            raise NotationError(
                f"field 'variant': unknown variant {_quoted(variant)} in the position "
                f"(positions are of {known})"
            )
        try:
            placed = parse_turn(board_text, grid)
        except NotationError as exc:
            raise NotationError(f"field 'board': {exc}") from None
        if any(p.extra for p in placed):
            raise NotationError("field 'board': a position's board has no extra marks (+)")
        board = tuple(sorted((p.cell, p.value) for p in placed))
        cells = [c for c, _ in board]
        twice = sorted({c for c in cells if cells.count(c) > 1})
        if twice:
            raise NotationError(f"field 'board': the position names {grid.name(twice[0])} twice")
        racks: list[tuple[int, ...] | int] = []
        for seat, rack in enumerate(racks_text.split("/"), start=1):
            rack = rack.strip()
            if rack.startswith("?"):
                racks.append(_number(rack[1:], "racks", f"rack {seat}'s hidden size"))
            else:
                values = (_number(v, "racks", f"a value of rack {seat}") for v in rack.split())
                racks.append(tuple(sorted(values)))
        scores = tuple(_number(s, "scores", "score", signed=True) for s in scores_text.split())
        if len(scores) != len(racks):
            raise NotationError(f"field 'scores': {len(racks)} racks but {len(scores)} scores")
        to_move = _number(move_text, "to move", "the seat") - 1
        if not 0 <= to_move < len(racks):
            raise NotationError(
                f"field 'to move': seat {to_move + 1} is out of range 1-{len(racks)}"
            )
        return Position(
            variant, board, tuple(racks), scores, _number(bag_text, "bag", "the size"), to_move
        )

    def check(
        self,
        *,
        pieces: Mapping[int, int],
        printed: Mapping[Cell, int],
        grid: CellNames,
        rack_size: int,
        players: tuple[int, int],
        piece: str = "token",
    ) -> None:
        """Check the position against its game: ``players`` (fewest, most) racks, none
        above ``rack_size``; every ``printed`` square holding its value; only values of
        ``pieces`` (by value, how many the game has), never more of one than it has; and
        board, racks and bag adding up to the whole set. Raises NotationError."""
        low, high = players
        if not low <= len(self.racks) <= high:
            raise NotationError(
                f"field 'racks': {len(self.racks)} racks: the game is for {low} to {high} players"
            )
        values = dict(self.board)
        for cell, value in sorted(printed.items()):
            if values.get(cell) != value:
                raise NotationError(
                    f"field 'board': {grid.name(cell)} is printed with {value}: the board holds it"
                )
        used = [v for c, v in self.board if c not in printed]
        held = 0
        for seat, rack in enumerate(self.racks, start=1):
            size = rack if isinstance(rack, int) else len(rack)
            if size > rack_size:
                raise NotationError(
                    f"field 'racks': rack {seat} holds {counted(size, piece)}, "
                    f"more than {rack_size}"
                )
            held += size
            if not isinstance(rack, int):
                used.extend(rack)
        have = Counter(pieces)
        for value, count in sorted(Counter(used).items()):
            if count > have[value]:
                holds = f"only {have[value]}" if have[value] else "none"
                on_board = sum(1 for c, v in self.board if v == value and c not in printed)
                where = "board" if on_board > have[value] else "racks"
                raise NotationError(
                    f"field '{where}': {counted(count, piece)} of {value} on the board and racks, "
                    f"but the game holds {holds}"
                )
        left = sum(have.values()) - (len(self.board) - len(printed)) - held
        if self.bag != left:
            raise NotationError(
                f"field 'bag': {counted(self.bag, piece)}, but the game's "
                f"{sum(have.values())} less "
                f"those on the board and the racks leave {left}"
            )


def _number(text: str, field: str, thing: str, *, signed: bool = False) -> int:
    """A whole number of at most 9 digits (ASCII digits only), or a NotationError naming
    the field."""
    if not (_NUMBER_RE if signed else _NATURAL_RE).fullmatch(text):
        raise NotationError(f"field '{field}': {thing} {_quoted(text)} is not a number")
    return int(text)


def _quoted(text: str, limit: int = 40) -> str:
    """Input text as a message quotes it: escaped, and cut short when long."""
    shown = repr(text if len(text) <= limit else f"{text[: limit - 1]}…")
    return shown.encode("ascii", "backslashreplace").decode("ascii")
