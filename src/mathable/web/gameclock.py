"""A web game's clock and its endings outside the rules (out of time, resigned, aborted),
derived from the stored events and their times alone (:mod:`mathable.online.clocks`).

Nothing here is kept only in memory: a restart, or another process, replays the same
events with the same times and gets the same clocks. The clocks start at the game's
creation, not at the first move (lichess starts them after the first moves, and aborts a
game nobody starts): here nobody can then hold a game open for ever by not moving, and an
abort is open to the players until each has moved.

Resign, abort and the loss on time are for games of two players for now: a seat leaving
a larger game (its score frozen, play going on) needs a change of the engine's turn order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mathable.engine.protocol import Game
from mathable.online.clocks import Clocks, TimeControl, Turn, clocks_at, parse_time_control

from .workers import apply_event, ending_event


@dataclass(frozen=True)
class Ending:
    """How a game ended outside its rules: ``kind`` (flag, resign, abort) by ``seat``."""

    kind: str
    seat: int
    reason: str
    winners: tuple[int, ...]


def ending_of(kind: str, seat: int, players: Sequence[str]) -> Ending:
    """The ending of a two-player game: the other seat wins, but for an abort."""
    name = players[seat] if 0 <= seat < len(players) else f"seat {seat}"
    others = tuple(s for s in range(len(players)) if s != seat)
    if kind == "abort":
        return Ending(kind, seat, "aborted", ())
    if kind == "resign":
        return Ending(kind, seat, f"{name} resigned", others)
    return Ending(kind, seat, f"{name} ran out of time", others)


def control_of(spec: dict[str, Any]) -> TimeControl | None:
    """The stored game's time control (None: no clock)."""
    clock = spec.get("clock")
    return None if clock is None else parse_time_control(clock)


def ms(seconds: float) -> int:
    return round(seconds * 1000)


class Timing:
    """A game's turn changes with their times and its ending, kept level with its events
    (:meth:`note` after each one)."""

    def __init__(self, control: TimeControl | None, game: Game, created: float) -> None:
        self.control = control
        self.seats = len(game.players)
        self.turns: list[Turn] = [Turn(ms(created), game.to_move)]
        self.ending: Ending | None = None

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
        if self.ending is not None or self.turns[-1].seat is None:
            return None
        clocks = self.clocks(at)
        return clocks.flags[0].seat if clocks is not None and clocks.flags else None

    def note(self, game: Game, text: str, at: float) -> None:
        """Take in an event (already applied to ``game``) stored at ``at``."""
        if self.turns[-1].seat is None:
            return  # the clocks have stopped
        when = self.now_ms(at)
        found = ending_event(text)
        if found is not None:
            self.ending = ending_of(*found, game.players)
            clocks = self.clocks(at)
            if found[0] == "flag" and clocks is not None and clocks.flags:
                when = clocks.flags[0].at  # the instant the time ran out
            self.turns.append(Turn(when, None))
        elif game.is_over:
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
