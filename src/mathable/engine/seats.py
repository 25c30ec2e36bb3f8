"""A game's seats: their names, and who left and why (local ruling L1), in words for
people and as :class:`Departures` read from a log.
"""

from __future__ import annotations

from collections.abc import Sequence

from mathable.i18n import Text, _, lazy

from .actions import Leave


class Departures:
    """Who left a game and whether it was aborted, as far as its log was read (kept by
    :meth:`~.protocol.Game.departures` as the log grows)."""

    __slots__ = ("aborted", "departures", "left", "read", "seats_in")

    def __init__(self, seats: int) -> None:
        self.read = 0
        """The actions of the log read so far."""
        self.departures: tuple[Leave, ...] = ()
        self.aborted = False
        self.left: tuple[str, ...] = ("",) * seats
        """Per seat, why it left ("" for a seat still in)."""
        self.seats_in: tuple[int, ...] = tuple(range(seats))

    def left_by(self, leave: Leave) -> None:
        """Note a seat leaving."""
        self.departures = (*self.departures, leave)
        reasons = list(self.left)
        reasons[leave.seat] = leave.reason
        self.left = tuple(reasons)
        self.seats_in = tuple(s for s, why in enumerate(reasons) if not why)


def departure(name: str, reason: str) -> Text:
    """A seat leaving in words (local ruling L1), as a lazy text: "Bob resigned", "Ann ran
    out of time", "Bob left the game (claimed)"."""
    if reason == "flag":
        return lazy("{name} ran out of time", name=name)
    if reason == "claim":
        return lazy("{name} left the game (claimed)", name=name)
    return lazy("{name} resigned", name=name)


def departure_text(name: str, reason: str) -> str:
    """:func:`departure` in the current language."""
    return str(departure(name, reason))


def seat_names(players: Sequence[str] | int) -> tuple[str, ...]:
    """Player names, or ``Player 1``... for a count (names: written in the current
    language once, as a name typed would be)."""
    if isinstance(players, int):
        return tuple(_("Player {number}", number=i + 1) for i in range(players))
    return tuple(players)
