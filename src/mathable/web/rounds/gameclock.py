"""A web game's clock, derived from the stored events and their times alone
(:mod:`mathable.online.clocks`), and how it ended when a seat left or the game was called
off (read from the engine's game: ``resign 1``, ``flag 1``, ``claim 1`` and ``abort 0`` are
the engine's own actions, local ruling L1 in docs/architecture.md).

Nothing here is kept only in memory: a restart, or another process, replays the same
events with the same times and gets the same clocks. As on lichess (ruling O4), no seat's
clock runs before its first move: each seat's first turn is bounded by the first-move time
instead (live: 30 s, ``MATHABLE_FIRST_MOVE``; correspondence: the turn's days), counted
once every seat is taken (:func:`ready_of`), and a seat that lets it pass has the game
aborted (``abort <seat>``: no result, never rated). Until each seat has moved only abort
is possible.

A flag stored late (no process held the game when it fell) is stored when noticed: the
flagged seat's clock shows 0 from its instant, and the next seat's turn starts when the
flag is stored, so nobody else is charged for the time nobody was there to see it.

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
from mathable.i18n import Text, lazy
from mathable.online.clocks import (
    FIRST_MOVE_LIVE_MS,
    Clocks,
    TimeControl,
    Turn,
    clocks_at,
    first_move_ms,
    parse_time_control,
)
from mathable.web.infra.store import StoredSeat
from mathable.web.infra.workers import apply_event, ending_event


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


def ready_of(seats: Sequence[StoredSeat], created: float) -> float | None:
    """When every seat of a stored game was taken (O4's first-move time counts from
    then): a computer's at once, a person's when bound to a player or holding a token
    (``joined``: the instant an invitation was followed; older seats: the creation);
    None while a person's seat is still empty."""
    ready = created
    for seat in seats:
        if seat.get("bot"):
            continue
        if not (seat.get("token_hash") or seat.get("player")):
            return None
        ready = max(ready, float(seat.get("joined", created)))
    return ready


class Timing:
    """A game's turn changes with their times, kept level with its events (:meth:`note`
    after each one); whether it is over, and how, is the game's."""

    def __init__(
        self,
        control: TimeControl | None,
        game: Game,
        created: float,
        ready: float | None,
        first_move: float | None = None,
        computers: frozenset[int] = frozenset(),
    ) -> None:
        self.control = control
        self.game = game
        self.seats = len(game.players)
        self.turns: list[Turn] = [Turn(ms(created), game.to_move)]
        self.ready = ready
        """When every seat was taken (None: not yet), :func:`ready_of`."""
        self.first_move = FIRST_MOVE_LIVE_MS / 1000 if first_move is None else first_move
        """Seconds for a first move in a live game (O4: 30; ``MATHABLE_FIRST_MOVE``)."""
        self.computers = computers
        """The computer players' seats: timed from their first turn, no countdown (O4 is
        for people)."""
        self.no_start: int | None = None
        """O4: the seat whose first-move time passed, when that aborted the game."""

    def ending_text(self) -> Text | None:
        """Why the game ended, when the clocks say it better than the engine: a game
        aborted because a seat made no first move in time (O4); else None."""
        if self.no_start is None:
            return None
        return lazy(
            "aborted: {name} made no first move in time (O4); nobody wins and it is not rated",
            name=self.game.players[self.no_start],
        )

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
        return clocks_at(
            self.control,
            self.seats,
            self.turns,
            self.now_ms(at),
            first_move=first_move_ms(self.control, ms(self.first_move)),
            ready=None if self.ready is None else ms(self.ready),
            computers=self.computers,
        )

    def unstarted_due(self, at: float) -> int | None:
        """O4: the seat to move that let its first-move time pass by ``at`` (the game is
        then aborted), None if none."""
        if self.game.is_over or self.turns[-1].seat is None:
            return None
        clocks = self.clocks(at)
        return None if clocks is None else clocks.unstarted

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
        when = self.now_ms(at)  # a flag: the next seat's turn starts as it is stored
        found = ending_event(text)
        if found is not None and found[0] == "abort":
            clocks = self.clocks(at)
            if clocks is not None and clocks.unstarted == found[1]:
                self.no_start = found[1]
        if game.is_over:
            self.turns.append(Turn(when, None))
        elif game.to_move != self.turns[-1].seat:
            self.turns.append(Turn(when, game.to_move))


def replay_timed(
    game: Game,
    spec: dict[str, Any],
    created: float,
    events: Sequence[str],
    times: Sequence[float],
    ready: float | None,
    computers: frozenset[int] = frozenset(),
    first_move: float | None = None,
) -> Timing:
    """Apply the stored ``events`` (stored at ``times``; missing times: the creation's)
    to ``game`` (fresh) and return its timing (``ready``: :func:`ready_of`)."""
    timing = Timing(control_of(spec), game, created, ready, first_move, computers)
    for index, text in enumerate(events):
        apply_event(game, text)
        timing.note(game, text, times[index] if index < len(times) else created)
    return timing
