"""A web game's clock, derived from the stored events and their times alone
(:mod:`mathable.online.clocks`), and how it ended when a seat left or the game was called
off (read from the engine's game: ``resign 1``, ``flag 1``, ``claim 1`` and ``abort 0`` are
the engine's own actions, local ruling L1 in docs/architecture.md).

Nothing here is kept only in memory: a restart, or another process, replays the same
events with the same times and gets the same clocks. The clocks start at the game's
creation, not at the first move (lichess starts them after the first moves, and aborts a
game nobody starts): here nobody can then hold a game open for ever by not moving, and an
abort is open to the players until each has moved.

With three or four players a seat out of time leaves the game (its score frozen) and play
goes on: the clocks go on with the next seat still in, which the engine has made the seat
to move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mathable.engine.actions import Abort, Leave, action_kind
from mathable.engine.protocol import Game
from mathable.i18n import Text
from mathable.online.clocks import Clocks, TimeControl, Turn, clocks_at, parse_time_control

from .workers import apply_event, ending_event


@dataclass(frozen=True)
class Ending:
    """How a game ended outside its turns: ``kind`` (flag, resign, claim, abort) by
    ``seat``, read from the engine's game (:func:`ending_of`)."""

    kind: str
    seat: int
    reason: str | Text
    """Why the game ended, as the engine says it (a lazy text: shown in the reader's
    language)."""
    winners: tuple[int, ...]


def ending_of(game: Game) -> Ending | None:
    """The game's ending when its last action was a seat leaving that ended it, or an
    abort (L1); None while it runs or when it ended by its rules."""
    last = game.log[-1] if game.log else None
    if not game.is_over or not isinstance(last, Leave | Abort):
        return None
    return Ending(action_kind(last), last.seat, game.end_reason, game.winners())


def control_of(spec: dict[str, Any]) -> TimeControl | None:
    """The stored game's time control (None: no clock)."""
    clock = spec.get("clock")
    return None if clock is None else parse_time_control(clock)


def ms(seconds: float) -> int:
    return round(seconds * 1000)


class Timing:
    """A game's turn changes with their times, kept level with its events (:meth:`note`
    after each one); whether it is over, and how, is the game's."""

    def __init__(self, control: TimeControl | None, game: Game, created: float) -> None:
        self.control = control
        self.game = game
        self.seats = len(game.players)
        self.turns: list[Turn] = [Turn(ms(created), game.to_move)]

    @property
    def ending(self) -> Ending | None:
        """How the game ended when a seat left or it was aborted (:func:`ending_of`)."""
        return ending_of(self.game)

    def now_ms(self, at: float) -> int:
        """An instant never before the last turn change (a clock set back)."""
        return max(ms(at), self.turns[-1].at)

    def clocks(self, at: float) -> Clocks | None:
        """Every clock at ``at`` (None: the game has no clock)."""
        if self.control is None:
            return None
        return clocks_at(self.control, self.seats, self.turns, self.now_ms(at))

    def flag_due(self, at: float) -> int | None:
        """The seat that has run out of time by ``at`` and whose flag is not stored."""
        if self.game.is_over or self.turns[-1].seat is None:
            return None
        clocks = self.clocks(at)
        if clocks is None:
            return None
        left = self.game.left
        due = [flag.seat for flag in clocks.flags if not left[flag.seat]]
        return due[0] if due else None

    def note(self, game: Game, text: str, at: float) -> None:
        """Take in an event (already applied to ``game``) stored at ``at``."""
        self.game = game
        if self.turns[-1].seat is None:
            return  # the clocks have stopped
        when = self.now_ms(at)
        found = ending_event(text)
        if found is not None and found[0] == "flag":
            clocks = self.clocks(at)
            flagged = [] if clocks is None else [f for f in clocks.flags if f.seat == found[1]]
            if flagged:
                when = flagged[-1].at  # the instant the time ran out
        if game.is_over:
            self.turns.append(Turn(when, None))
        elif game.to_move != self.turns[-1].seat:
            self.turns.append(Turn(when, game.to_move))


def replay_timed(
    game: Game, spec: dict[str, Any], created: float, events: Sequence[str], times: Sequence[float]
) -> Timing:
    """Apply the stored ``events`` (stored at ``times``; missing times: the creation's)
    to ``game`` (fresh) and return its timing."""
    timing = Timing(control_of(spec), game, created)
    for index, text in enumerate(events):
        apply_event(game, text)
        timing.note(game, text, times[index] if index < len(times) else created)
    return timing
