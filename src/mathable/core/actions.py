"""What a player can do: the actions a game's event log is made of (ruling C8).

Actions are small frozen value objects; their text form lives in
:mod:`mathable.core.notation` (``I8=12``, ``J8=16+``, ``end``, ``pass``,
``exchange 3,5,7``, ``challenge``, ``stop``; Quattro adds ``A=32``, ``draw``,
``penalty`` and ``diago``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import Cell


@dataclass(frozen=True, slots=True)
class Place:
    """Put a token ``value`` from the rack on ``cell``; ``extra`` takes the extra token a
    restriction square allows (ruling C7), decided at once as the rules require."""

    cell: Cell
    value: int
    extra: bool = False


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Stop placing and refill the rack (C8a). ``challenged`` is internal: a turn cut
    short by a successful challenge (C12)."""

    challenged: bool = False


@dataclass(frozen=True, slots=True)
class Exchange:
    """Swap these rack tokens for as many from the bag, as the whole turn (C8b)."""

    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pass:
    """Do nothing this turn (C8c)."""


@dataclass(frozen=True, slots=True)
class Challenge:
    """Contest the turn just ended, under the table-referee house rule (C12)."""


@dataclass(frozen=True, slots=True)
class EndGame:
    """End the game now, all players agreeing (Mathable Junior, ruling J4)."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Mathable Quattro: unable to play, draw a card to put on any pile (ruling Q3)."""


@dataclass(frozen=True, slots=True)
class Penalty:
    """Mathable Quattro: after a drawn card, take one penalty card instead of an
    exchange (ruling Q3)."""


@dataclass(frozen=True, slots=True)
class Diago:
    """Mathable Quattro: announce DIAGO, diagonal pairs count this turn (ruling Q4)."""


Action = Place | EndTurn | Exchange | Pass | Challenge | EndGame | Draw | Penalty | Diago
