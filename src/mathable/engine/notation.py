"""The text forms used everywhere: tests, logs, the CLI, the web API and bug reports.

* a cell: ``G7`` (column letter, then row; ruling C1);
* a placement: ``I8=12``; with ``+`` when the extra token of a restriction square was
  taken (``J8=16+``, ruling C7);
* an action: a placement, ``end``, ``pass``, ``exchange 3,5,7`` (the values given back)
  ``challenge`` or ``stop`` (end by agreement, Junior); Quattro's ``draw``,
  ``penalty`` and ``diago``, and its plays on a pile ``A=32`` (see ``quattro.py``);
  a seat leaving, ``resign 1``, ``flag 1``, ``claim 1``, or calling the game off,
  ``abort 0`` (seats from 0, as the web server has always stored them; local ruling L1);
  the bag shaken after an undo, ``shake 8123`` (its entropy, ruling O5);
* a turn: its placements separated by spaces, in the order played; typed on one line,
  commas may separate them too and a keyword may close it (``F7=2,F8=7 end``:
  :func:`parse_actions`);
* a position: one line ``variant | board | racks | scores | bag | to move``.

Every ``parse_*`` has a ``format_*`` with ``parse(format(x)) == x``.

>>> from mathable.games.board.geometry import Grid
>>> grid = Grid.of(14)
>>> format_action(parse_action("j8=16+", grid), grid)
'J8=16+'
>>> format_action(parse_action("exchange 3, 5,7", grid), grid)
'exchange 3,5,7'
>>> [format_action(a, grid) for a in parse_actions("F7=2, f8 = 7 end", grid)]
['F7=2', 'F8=7', 'end']
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from mathable.i18n import Text, lazy, lazy_plural

from .actions import (
    LEAVE_REASONS,
    SHAKE_ENTROPY,
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
    Shake,
    action_kind,
)
from .errors import NotationError, message_of
from .tokens import pieces_text

_PLACEMENT_RE = re.compile(r"^\s*([A-Za-z]\d{0,2})\s*=\s*(\d{1,3})\s*(\+?)\s*$", re.ASCII)
_VALUE_RE = re.compile(r"\d{1,3}", re.ASCII)
_NUMBER_RE = re.compile(r"-?\d{1,9}", re.ASCII)
_NATURAL_RE = re.compile(r"\d{1,9}", re.ASCII)
_SEAT_RE = re.compile(r"\d{1,2}", re.ASCII)
_ENTROPY_RE = re.compile(r"\d{1,19}", re.ASCII)
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
        raise NotationError(
            lazy("{text} is not a placement like I8=12 or J8=16+", text=_quoted(text.strip()))
        )
    return Place(grid.parse(match.group(1)), int(match.group(2)), bool(match.group(3)))


class Placement(Protocol):
    """What a placement's text says of it: a :class:`~.actions.Place`, or a turn's
    record of a token placed (written without making a Place of it first)."""

    @property
    def cell(self) -> Cell: ...

    @property
    def value(self) -> int: ...

    @property
    def extra(self) -> bool: ...


def format_placement(place: Placement, grid: CellNames) -> str:
    """A placement as ``'I8=12'`` (``'J8=16+'`` with the extra token)."""
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
        raise NotationError(lazy("an empty action"))
    keyword = words[0].lower()
    if keyword in _KEYWORD_ACTIONS and len(words) == 1:
        return _KEYWORD_ACTIONS[keyword]
    if keyword in (*LEAVE_REASONS, "abort"):
        seat = words[1].strip() if len(words) > 1 else ""
        if not _SEAT_RE.fullmatch(seat):
            raise NotationError(
                lazy(
                    "{text}: write {keyword} then the seat from 0, like {keyword} 1",
                    text=_quoted(text.strip()),
                    keyword=keyword,
                )
            )
        return Abort(int(seat)) if keyword == "abort" else Leave(int(seat), keyword)
    if keyword == "shake":
        entropy = words[1].strip() if len(words) > 1 else ""
        if not _ENTROPY_RE.fullmatch(entropy) or int(entropy) >= SHAKE_ENTROPY:
            raise NotationError(
                lazy(
                    "{text}: write shake then a whole number below 2**63, like shake 8123",
                    text=_quoted(text.strip()),
                )
            )
        return Shake(int(entropy))
    if keyword == "exchange":
        values = words[1].replace(",", " ").split() if len(words) > 1 else []
        if not values or not all(_VALUE_RE.fullmatch(v) for v in values):
            raise NotationError(
                lazy(
                    "{text}: write exchange then the values, like exchange 3,5,7",
                    text=_quoted(text.strip()),
                )
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
    if isinstance(action, Shake):
        return f"shake {action.entropy}"
    return action_kind(action)  # a keyword alone: its kind is its text


def parse_turn(text: str, grid: CellNames) -> list[Place]:
    """Placements separated by spaces, in the order played."""
    return [parse_placement(word, grid) for word in text.split()]


_ARGUMENT_KEYWORDS = frozenset({*LEAVE_REASONS, "abort", "shake", "exchange"})
"""The keywords followed by their own arguments: a line starting with one is one action."""
_SPACED_EQUALS = re.compile(r"\s*=\s*")
_SPACED_EXTRA = re.compile(r"(=\d{1,3})\s+\+(?=\s|,|$)", re.ASCII)


def parse_actions(text: str, grid: CellNames) -> list[Action]:
    """A line a player typed: one action, or a whole turn of placements separated by
    spaces or commas, in order, perhaps closed by a keyword (``F7=2 F8=7``,
    ``F7=2,F8=7 end``); the notation of hints and move lists read back. A line starting
    with a keyword that takes arguments (``exchange 3,5,7``, ``resign 1``) is that one
    action. Raises NotationError naming the word at fault."""
    words = text.strip().split(None, 1)
    if not words:
        raise NotationError(lazy("an empty action"))
    if words[0].lower() in _ARGUMENT_KEYWORDS:
        return [parse_action(text, grid)]
    joined = _SPACED_EXTRA.sub(r"\1+", _SPACED_EQUALS.sub("=", text.strip()))
    return [parse_action(word, grid) for word in joined.replace(",", " ").split()]


def format_turn(places: Iterable[Placement], grid: CellNames) -> str:
    """A turn's placements, separated by spaces."""
    return " ".join([format_placement(p, grid) for p in places])


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
            raise NotationError(
                lazy("a position is a line of text, not a {kind}", kind=type(text).__name__)
            )
        if len(text) > MAX_POSITION_LENGTH:
            raise NotationError(
                lazy(
                    "a position has at most {most} characters, not {count}: is this a position?",
                    most=MAX_POSITION_LENGTH,
                    count=len(text),
                )
            )
        fields = [f.strip() for f in text.strip().split("|")]
        if len(fields) != 6:
            raise NotationError(
                lazy(
                    "a position has 6 fields separated by '|': variant | board | "
                    "racks | scores | bag | to move (found {count})",
                    count=len(fields),
                )
            )
        variant, board_text, racks_text, scores_text, bag_text, move_text = fields
        if not isinstance(grid_of, Mapping):
            grid = grid_of
        elif variant in grid_of:
            grid = grid_of[variant]
        else:
            known = ", ".join(grid_of)
            raise field_error(
                "variant",
                lazy(
                    "unknown variant {variant} in the position (positions are of {known})",
                    variant=_quoted(variant),
                    known=known,
                ),
            )
        try:
            placed = parse_turn(board_text, grid)
        except NotationError as exc:
            raise field_error("board", message_of(exc)) from None
        if any(p.extra for p in placed):
            raise field_error("board", lazy("a position's board has no extra marks (+)"))
        board = tuple(sorted((p.cell, p.value) for p in placed))
        cells = [c for c, _ in board]
        twice = sorted({c for c in cells if cells.count(c) > 1})
        if twice:
            raise field_error(
                "board", lazy("the position names {cell} twice", cell=grid.name(twice[0]))
            )
        racks: list[tuple[int, ...] | int] = []
        for seat, rack in enumerate(racks_text.split("/"), start=1):
            rack = rack.strip()
            if rack.startswith("?"):
                hidden = lazy("rack {seat}'s hidden size", seat=seat)
                racks.append(_number(rack[1:], "racks", hidden))
            else:
                one = lazy("a value of rack {seat}", seat=seat)
                values = (_number(v, "racks", one) for v in rack.split())
                racks.append(tuple(sorted(values)))
        # TRANSLATORS: a score in a one-line position, as in "score 'x' is not a number"
        score = lazy("score")
        scores = tuple(_number(s, "scores", score, signed=True) for s in scores_text.split())
        if len(scores) != len(racks):
            raise field_error(
                "scores",
                lazy("{racks} racks but {scores} scores", racks=len(racks), scores=len(scores)),
            )
        # TRANSLATORS: the seat to move in a one-line position ("the seat 'x' is not a number")
        to_move = _number(move_text, "to move", lazy("the seat")) - 1
        if not 0 <= to_move < len(racks):
            raise field_error(
                "to move",
                lazy("seat {seat} is out of range 1-{count}", seat=to_move + 1, count=len(racks)),
            )
        # TRANSLATORS: the bag's size in a one-line position ("the size 'x' is not a number")
        size = lazy("the size")
        return Position(
            variant, board, tuple(racks), scores, _number(bag_text, "bag", size), to_move
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
            raise field_error(
                "racks",
                lazy_plural(
                    "{count} rack: the game is for {low} to {high} players",
                    "{count} racks: the game is for {low} to {high} players",
                    len(self.racks),
                    low=low,
                    high=high,
                ),
            )
        values = dict(self.board)
        for cell, value in sorted(printed.items()):
            if values.get(cell) != value:
                raise field_error(
                    "board",
                    lazy(
                        "{cell} is printed with {value}: the board holds it",
                        cell=grid.name(cell),
                        value=value,
                    ),
                )
        used = [v for c, v in self.board if c not in printed]
        held = 0
        for seat, rack in enumerate(self.racks, start=1):
            size = rack if isinstance(rack, int) else len(rack)
            if size > rack_size:
                raise field_error(
                    "racks",
                    lazy(
                        "rack {seat} holds {pieces}, more than {most}",
                        seat=seat,
                        pieces=pieces_text(piece, size),
                        most=rack_size,
                    ),
                )
            held += size
            if not isinstance(rack, int):
                used.extend(rack)
        have = Counter(pieces)
        for value, count in sorted(Counter(used).items()):
            if count > have[value]:
                on_board = sum(1 for c, v in self.board if v == value and c not in printed)
                where = "board" if on_board > have[value] else "racks"
                many = pieces_text(piece, count)
                if have[value]:
                    problem = lazy(
                        "{pieces} of {value} on the board and racks, but the game holds "
                        "only {count}",
                        pieces=many,
                        value=value,
                        count=have[value],
                    )
                else:
                    problem = lazy(
                        "{pieces} of {value} on the board and racks, but the game holds none",
                        pieces=many,
                        value=value,
                    )
                raise field_error(where, problem)
        left = sum(have.values()) - (len(self.board) - len(printed)) - held
        if self.bag != left:
            raise field_error(
                "bag",
                lazy(
                    "{pieces}, but the game's {total} less those on the board and the racks "
                    "leave {left}",
                    pieces=pieces_text(piece, self.bag),
                    total=sum(have.values()),
                    left=left,
                ),
            )


def field_error(field: str, problem: str | Text) -> NotationError:
    """A NotationError naming the field of a one-line position: ``field 'bag': ...``."""
    # TRANSLATORS: a refusal naming the field of the input at fault ('board', 'seed')
    return NotationError(lazy("field {field}: {problem}", field=repr(field), problem=problem))


def _number(text: str, field: str, thing: str | Text, *, signed: bool = False) -> int:
    """A whole number of at most 9 digits (ASCII digits only), or a NotationError naming
    the field."""
    if not (_NUMBER_RE if signed else _NATURAL_RE).fullmatch(text):
        raise field_error(
            field, lazy("{thing} {text} is not a number", thing=thing, text=_quoted(text))
        )
    return int(text)


def _quoted(text: str, limit: int = 40) -> str:
    """Input text as a message quotes it: escaped, and cut short when long."""
    shown = repr(text if len(text) <= limit else f"{text[: limit - 1]}…")
    return shown.encode("ascii", "backslashreplace").decode("ascii")
