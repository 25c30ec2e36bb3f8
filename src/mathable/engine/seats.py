"""A game's seats: their names, and who left and why (local ruling L1), in words for
people and as :class:`Departures` read from a log.
"""

from __future__ import annotations

from collections.abc import Sequence

from mathable.i18n import Text, _, lazy

from .actions import LEAVE_REASONS, Abort, Action, Leave
from .errors import IllegalMove


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

    def read_up(self, log: Sequence[Action]) -> Departures:
        """These departures with the actions of ``log`` not read yet noted (a log only
        grows in place: each action is read once)."""
        length = len(log)
        for index in range(self.read, length):  # no slice made
            action = log[index]  # a final class's own type: a failed isinstance cost
            if type(action) is Leave:  # ~0.05 us, two for every action (issue 35)
                self.left_by(action)
            elif type(action) is Abort:
                self.aborted = True
        self.read = length
        return self

    def check(
        self, action: Leave | Abort, players: Sequence[str], *, over: bool, started: bool
    ) -> None:
        """Refuse (:class:`~.errors.IllegalMove`, L1) a seat leaving or aborting that may
        not now: a reason that is no way to leave, a seat not in the game or gone already,
        a game over, or an abort once every seat still in has moved (``started``)."""
        seat, count = action.seat, len(players)
        if isinstance(action, Leave) and action.reason not in LEAVE_REASONS:
            why = lazy("{reason} is not a way to leave a game", reason=repr(action.reason))
        elif not 0 <= seat < count:
            why = lazy("there is no seat {seat} in this game of {count}", seat=seat, count=count)
        elif over:
            why = lazy("the game is over")
        elif seat not in self.seats_in:
            why = lazy("{name} has left the game already", name=players[seat])
        elif isinstance(action, Abort) and started:
            why = lazy("a game is aborted only before each player has moved: resign instead")
        else:
            return
        raise IllegalMove(why, rule="L1")

    def ending(self, players: Sequence[str], last: Action | None) -> Text | str:
        """Why a game ended by ``last``, an abort or a seat leaving ('' if it did not):
        "aborted", "Bob resigned", "Ann ran out of time", "Bob left the game (claimed)"."""
        if isinstance(last, Abort):
            # TRANSLATORS: why a game ended: a player called it off
            return lazy("aborted")
        if isinstance(last, Leave) and len(self.seats_in) < 2:
            return departure(players[last.seat], last.reason)
        return ""

    def ranks(self, scores: Sequence[int]) -> tuple[int, ...]:
        """Each seat's final place, 1 the best (equal places on a tie: 1, 1, 3), local
        ruling L1: the seats still in rank among themselves by score; those that left
        rank below them all, a later leaver above an earlier one; an abort ranks every
        seat 1."""
        if self.aborted:
            return tuple(1 for _ in scores)
        order = {leave.seat: index for index, leave in enumerate(self.departures)}
        keys = [
            (0, order[seat], 0) if seat in order else (1, 0, score)
            for seat, score in enumerate(scores)
        ]
        return tuple(1 + sum(1 for other in keys if other > own) for own in keys)


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
