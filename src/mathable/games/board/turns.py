"""The pieces of a board game's history: an explicit start, tokens placed, finished turns."""

from __future__ import annotations

from dataclasses import dataclass

from mathable.engine.actions import Cell


@dataclass(frozen=True)
class Setup:
    """An explicit start instead of the seeded draw (puzzles, the rulebook's example).

    ``bag`` lists the tokens in the order they will be drawn.
    """

    racks: tuple[tuple[int, ...], ...]
    bag: tuple[int, ...]
    to_move: int = 0


@dataclass(frozen=True)
class PlacedToken:
    """One token placed during a turn and the points it scored."""

    cell: Cell
    value: int
    points: int
    extra: bool = False


@dataclass(frozen=True)
class TurnRecord:
    """A finished turn as every player saw it (never the values exchanged or drawn)."""

    seat: int
    kind: str
    """``"place"``, ``"exchange"`` or ``"pass"``."""
    placements: tuple[PlacedToken, ...] = ()
    points: int = 0
    """All points of the turn, the bonus included."""
    bonus: int = 0
    exchanged: int = 0
    challenged: bool = False
    """Cut short by a successful challenge (C12)."""
    no_fit: bool = False
    """Ended by itself (C8a): pieces were left in hand and none of them fits (issue 32)."""
