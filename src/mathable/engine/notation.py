"""The text forms used everywhere: tests, logs, the CLI, the web API and bug reports.

* a cell: ``G7`` (column letter, then row; ruling C1);
* a placement: ``I8=12``; with ``+`` when the extra token of a restriction square was
  taken (``J8=16+``, ruling C7);
* an action: a placement, ``end``, ``pass``, ``exchange 3,5,7`` (the values given back)
  ``challenge`` or ``stop`` (end by agreement, Junior); Quattro's ``draw``,
  ``penalty`` and ``diago``, and its plays on a pile ``A=32`` (see ``quattro.py``);
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
from dataclasses import dataclass
from typing import Protocol

from .actions import (
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
    Pass,
    Penalty,
    Place,
)
from .errors import NotationError

_PLACEMENT_RE = re.compile(r"^\s*([A-Za-z]\d{0,2})\s*=\s*(\d{1,3})\s*(\+?)\s*$")


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
        raise NotationError(f"{text.strip()!r} is not a placement like I8=12 or J8=16+")
    return Place(grid.parse(match.group(1)), int(match.group(2)), bool(match.group(3)))


def format_placement(place: Place, grid: CellNames) -> str:
    """A Place as ``'I8=12'`` (``'J8=16+'`` with the extra token)."""
    return f"{grid.name(place.cell)}={place.value}{'+' if place.extra else ''}"


def parse_action(text: str, grid: CellNames) -> Action:
    """Any action in its text form."""
    words = text.strip().split(None, 1)
    if not words:
        raise NotationError("an empty action")
    keyword = words[0].lower()
    simple: dict[str, Action] = {
        "end": EndTurn(),
        "pass": Pass(),
        "challenge": Challenge(),
        "stop": EndGame(),
        "accept": Accept(),
        "decline": Decline(),
        "draw": Draw(),
        "penalty": Penalty(),
        "diago": Diago(),
    }
    if keyword in simple and len(words) == 1:
        return simple[keyword]
    if keyword == "exchange":
        values = words[1].replace(",", " ").split() if len(words) > 1 else []
        if not values or not all(v.isdigit() for v in values):
            raise NotationError(
                f"{text.strip()!r}: write exchange then the values, like exchange 3,5,7"
            )
        return Exchange(tuple(int(v) for v in values))
    return parse_placement(text, grid)


def format_action(action: Action, grid: CellNames) -> str:
    """An action's text form."""
    if isinstance(action, Place):
        return format_placement(action, grid)
    if isinstance(action, EndTurn):
        return "end"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Challenge):
        return "challenge"
    if isinstance(action, EndGame):
        return "stop"
    if isinstance(action, Accept):
        return "accept"
    if isinstance(action, Decline):
        return "decline"
    if isinstance(action, Draw):
        return "draw"
    if isinstance(action, Penalty):
        return "penalty"
    if isinstance(action, Diago):
        return "diago"
    return "exchange " + ",".join(str(v) for v in action.values)


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
    def parse(text: str, grid_of: dict[str, CellNames] | CellNames) -> Position:
        """Read a one-line position; ``grid_of`` maps variant names to their grids."""
        fields = [f.strip() for f in text.strip().split("|")]
        if len(fields) != 6:
            raise NotationError(
                "a position has 6 fields separated by '|': variant | board | "
                f"racks | scores | bag | to move (found {len(fields)})"
            )
        variant, board_text, racks_text, scores_text, bag_text, move_text = fields
        if not isinstance(grid_of, dict):
            grid = grid_of
        elif variant in grid_of:
            grid = grid_of[variant]
        else:
            raise NotationError(f"unknown variant {variant!r} in the position")
        board = tuple(sorted((p.cell, p.value) for p in parse_turn(board_text, grid)))
        if len({c for c, _ in board}) != len(board):
            raise NotationError("the position names a cell twice")
        racks: list[tuple[int, ...] | int] = []
        for rack in racks_text.split("/"):
            rack = rack.strip()
            if rack.startswith("?"):
                racks.append(_number(rack[1:], "hidden rack size"))
            else:
                racks.append(tuple(sorted(_number(v, "rack token") for v in rack.split())))
        scores = tuple(_number(s, "score", signed=True) for s in scores_text.split())
        if len(scores) != len(racks):
            raise NotationError(f"{len(racks)} racks but {len(scores)} scores")
        to_move = _number(move_text, "seat to move") - 1
        if not 0 <= to_move < len(racks):
            raise NotationError(f"seat to move {to_move + 1} is not 1..{len(racks)}")
        return Position(
            variant, board, tuple(racks), scores, _number(bag_text, "bag size"), to_move
        )


def _number(text: str, what: str, *, signed: bool = False) -> int:
    body = text[1:] if signed and text.startswith("-") else text
    if not body.isdigit():
        raise NotationError(f"{what} {text!r} is not a number")
    return int(text)
