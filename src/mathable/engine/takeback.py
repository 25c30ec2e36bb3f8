"""Taking back (house rule ``allow_undo``, ruling V-B): how far an undo by a seat reaches,
and which action of a log an undo takes back.

A player takes back their own last action and the computers' replies after it, while no
other person has acted since; a shake of the bag is nobody's and never taken back (O5); a
seat leaving or an abort never is (L1). :class:`~.protocol.Game` asks here
(:meth:`~.protocol.Game.undo_steps`, :meth:`~.protocol.Game.undo`), as lila's round keeps
its ``Takebacker`` apart from the moves.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Protocol

from mathable.i18n import Text, lazy

from .actions import Abort, Action, Leave, Shake
from .errors import IllegalMove
from .metadata import HouseRules


class Table(Protocol):
    """What an undo's reach reads of a game: a :class:`~.protocol.Game` (named by what
    it offers, so this module needs nothing of the protocol that calls it)."""

    @property
    def house_rules(self) -> HouseRules: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def left(self) -> tuple[str, ...]: ...

    @property
    def log(self) -> tuple[Action, ...]: ...

    def actors(self) -> tuple[int, ...]: ...


def undo_refusal(game: Table, seat: int | None, computers: Collection[int] = ()) -> Text | int:
    """How many actions an undo by ``seat`` takes back now, or why it may not (a text):
    its own last action and the replies after it of the seats in ``computers`` (the
    computer players), back to its turn, while no other person has acted since; so
    nobody ever takes back what another person did. Nothing once the game is over."""
    if seat is None:
        return lazy("spectators cannot undo")
    if not game.house_rules.allow_undo:
        return lazy("undo is off in this game: taking back is a house rule (allow undo, V-B)")
    if game.is_over:
        return lazy("the game is over")
    if game.left[seat]:
        return lazy("you have left the game")
    log, steps = game.log, 0
    for back, actor in enumerate(reversed(game.actors()), start=1):
        if isinstance(log[-back], Shake):
            continue  # nobody's, never taken back: the bag shaken by an undo (O5)
        if isinstance(log[-back], Leave | Abort):
            break  # never taken back (local ruling L1)
        steps += 1
        if actor == seat:
            return steps
        if actor not in computers:
            break
    return lazy(
        "nothing of yours to take back: you may undo your own last action (and the "
        "computer's replies) while nobody else has played since (V-B)"
    )


def taken_back(log: Sequence[Action]) -> int:
    """The index in ``log`` of the action an undo takes back: the last that is not a
    shake (the shakes after it stay: taking one back would show again the order it hid,
    O5); :class:`~.errors.IllegalMove` when there is none, or it is a seat leaving or an
    abort (L1)."""
    last = next((i for i in range(len(log) - 1, -1, -1) if not isinstance(log[i], Shake)), None)
    if last is None:
        raise IllegalMove(lazy("there is nothing to undo"))
    if isinstance(log[last], Leave | Abort):
        raise IllegalMove(lazy("leaving or aborting a game cannot be taken back"), rule="L1")
    return last
