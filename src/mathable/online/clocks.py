"""Game clocks derived from the event log alone: time controls and the time left per seat.

The server's clock is the authority, and it lives in the event log: a clock kept only in
memory is lost at the next restart. So nothing here ticks. :func:`clocks_at` reads the
timestamped turn changes of a game and an instant ``now`` and returns what every clock
shows then, and who ran out of time and exactly when. A loss on time is therefore itself
derivable: the server stores it as an event whenever it notices (at once, or after a
restart), with the same instant either way.

**Time controls** (the JSON contract of a new game's ``"clock"``): live,
``{"minutes": 5, "increment": 3}`` -- minutes per player, plus a Fischer increment in
seconds added each time the player completes a turn; correspondence, ``{"days": 3}`` -- the
player to move has that many days for the turn, and the full allowance again at the next.

**What the caller passes** (``turns``, oldest first; milliseconds since the epoch):

- ``Turn(start, seat)`` when the clocks start, with the seat to move first (the caller
  chooses when: at the game's start, or, as lichess does, once the first moves are made);
- ``Turn(t, seat)`` each time a turn ends, with the seat to move next -- the seat that just
  moved then gets its increment (or, in correspondence, its full allowance back);
- when :func:`clocks_at` reports a new :class:`Flag` at instant ``f``: the flag as an event
  (two players: the game is lost; three or four: the player leaves the game, the score
  frozen) and ``Turn(f, seat)`` for the next seat still playing (:func:`next_seat` skips
  the seats that have left), or ``Turn(f, None)`` when the game ends there;
- ``Turn(t, None)`` when the game ends (last move, resignation, abort): every clock stops.

A turn to a seat that has already run out of time is an error: the caller must skip it.
Clocks pause for nobody; the clock of a player who has left simply never runs again. A
turn that ends at the very millisecond the time runs out is too late: time is up when the
clock reaches zero.

**First moves** (ruling O4, as on lichess), when the caller passes ``first_move`` (the
first-move time in ms, :func:`first_move_ms`): no person's clock runs before its first
move (a computer's seat, always there, is timed from its first turn).
Each seat's first turn is free of its clock (its time is not used, no increment is added),
and is bounded instead by the first-move time, counted from the turn's start, or from
``ready`` (when every seat was taken) if later; ``ready=None``: seats still empty, nothing
counted yet. :attr:`Clocks.first_move` then says who must start by when, and
:attr:`Clocks.unstarted` who let the time pass (the game is then aborted: no result, no
rating change).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from mathable.i18n import Text, lazy, ngettext

MS_PER_SECOND = 1_000
MS_PER_MINUTE = 60 * MS_PER_SECOND
MS_PER_DAY = 24 * 60 * MS_PER_MINUTE
FIRST_MOVE_LIVE_MS = 30 * MS_PER_SECOND
"""O4: the first-move time of a live game."""
MINUTES = (1, 180)
INCREMENT = (0, 180)
DAYS = (1, 14)


class TimeControlError(ValueError):
    """A time control that cannot be used; ``field`` names the JSON field at fault and
    ``reason`` what is wrong with it (a lazy text: ``str(exc)`` is in the current
    language)."""

    def __init__(self, field: str, message: str | Text) -> None:
        # TRANSLATORS: a field of a request (house_rules.hints, clock.minutes), then what is wrong
        super().__init__(lazy("{field}: {problem}", field=field, problem=message))
        self.field = field
        self.reason = message


def _bounded(field: str, value: object, bounds: tuple[int, int]) -> int:
    low, high = bounds
    # bool is an int to Python, never to a player
    if type(value) is not int or not low <= value <= high:
        raise TimeControlError(
            field,
            lazy(
                "must be a whole number from {low} to {high}, not {value}",
                low=low,
                high=high,
                value=repr(value),
            ),
        )
    return value


@dataclass(frozen=True)
class Live:
    """A live clock: ``minutes`` per player plus ``increment`` seconds per completed turn."""

    minutes: int
    increment: int = 0

    def __post_init__(self) -> None:
        _bounded("clock.minutes", self.minutes, MINUTES)
        _bounded("clock.increment", self.increment, INCREMENT)

    @property
    def pace(self) -> Literal["live"]:
        """The rating pool's pace."""
        return "live"

    @property
    def initial_ms(self) -> int:
        return self.minutes * MS_PER_MINUTE

    @property
    def increment_ms(self) -> int:
        return self.increment * MS_PER_SECOND

    def to_json(self) -> dict[str, int]:
        return {"minutes": self.minutes, "increment": self.increment}

    def __str__(self) -> str:
        return f"{self.minutes}+{self.increment}"


@dataclass(frozen=True)
class Correspondence:
    """A correspondence clock: ``days`` for each turn."""

    days: int

    def __post_init__(self) -> None:
        _bounded("clock.days", self.days, DAYS)

    @property
    def pace(self) -> Literal["correspondence"]:
        """The rating pool's pace."""
        return "correspondence"

    @property
    def initial_ms(self) -> int:
        return self.days * MS_PER_DAY

    def to_json(self) -> dict[str, int]:
        return {"days": self.days}

    def __str__(self) -> str:
        return ngettext("{count} day a turn", "{count} days a turn", self.days)


TimeControl = Live | Correspondence


def first_move_ms(control: TimeControl, live_ms: int = FIRST_MOVE_LIVE_MS) -> int:
    """O4: the time a seat has for its first move: ``live_ms`` (30 s) in a live game, the
    turn's days by correspondence."""
    return live_ms if isinstance(control, Live) else control.initial_ms


def parse_time_control(data: object) -> TimeControl:
    """A time control from its JSON, ``{"minutes": 5, "increment": 3}`` or ``{"days": 3}``.

    The increment may be left out (0). Errors name the field at fault, e.g.
    ``clock.minutes: must be a whole number from 1 to 180, not 0``.
    """
    if not isinstance(data, dict):
        raise TimeControlError(
            "clock",
            # TRANSLATORS: the JSON is written as it is (minutes, increment, days: its fields)
            lazy('must be an object such as {"minutes": 5, "increment": 3} or {"days": 3}'),
        )
    for key in data:
        if key not in ("minutes", "increment", "days"):
            raise TimeControlError(
                f"clock.{key}", lazy("unknown field: use minutes and increment, or days")
            )
    if "days" in data:
        if "minutes" in data or "increment" in data:
            raise TimeControlError(
                "clock",
                lazy("either minutes and increment (live) or days (correspondence), not both"),
            )
        return Correspondence(_bounded("clock.days", data["days"], DAYS))
    if "minutes" not in data:
        raise TimeControlError(
            "clock.minutes", lazy("missing: give minutes (live) or days (correspondence)")
        )
    return Live(
        _bounded("clock.minutes", data["minutes"], MINUTES),
        _bounded("clock.increment", data.get("increment", 0), INCREMENT),
    )


@dataclass(frozen=True)
class Turn:
    """From ``at`` (ms since the epoch) ``seat`` is to move; ``None``: the game is over."""

    at: int
    seat: int | None


@dataclass(frozen=True)
class Flag:
    """``seat`` ran out of time at the instant ``at``."""

    seat: int
    at: int


@dataclass(frozen=True)
class FirstMove:
    """O4: ``seat`` is to make its first move, before ``deadline`` (ms since the epoch;
    None: not counted yet, some seat is still empty)."""

    seat: int
    deadline: int | None


@dataclass(frozen=True)
class Clocks:
    """Every clock at the instant ``at``: ``now``, or when the clocks stopped if earlier
    (the game's end, or a flag the next turn has not followed yet)."""

    at: int
    left_ms: tuple[int, ...]
    """Milliseconds left per seat (the view's ``clocks``); 0 for a seat that flagged."""
    used_ms: tuple[int, ...]
    """Milliseconds each seat's clock has run in all, up to its flag."""
    running: int | None
    """The seat whose clock runs at ``at``; None when the game is over or the seat to move
    has just run out of time and the next turn is not recorded yet."""
    flags: tuple[Flag, ...]
    """Every seat that ran out of time, in order: those already recorded and any new one."""
    first_move: FirstMove | None = None
    """O4: the seat to move has not made its first move (its clock does not run)."""
    unstarted: int | None = None
    """O4: the seat to move let its first-move time pass: the game is to be aborted."""

    @property
    def deadline(self) -> int | None:
        """When the running clock reaches zero if nobody moves (to wake the server then)."""
        return None if self.running is None else self.at + self.left_ms[self.running]

    @property
    def wake(self) -> int | None:
        """The next instant the server must act at if nobody moves: a flag, the end of
        a first-move time (O4), or at once for one already due."""
        if self.unstarted is not None:
            return self.at
        if self.first_move is not None:
            return self.first_move.deadline
        if self.running is None and self.flags:
            return self.at  # a flag the caller has not recorded yet
        return self.deadline


def clocks_at(
    control: TimeControl,
    seats: int,
    turns: Sequence[Turn],
    now: int,
    first_move: int | None = None,
    ready: int | None = None,
    computers: Collection[int] = (),
) -> Clocks:
    """What every clock shows at ``now``, from the turn changes alone (see the module notes).

    A ``now`` before the last turn change (a wall clock set back) counts as that instant,
    so the clocks never run backwards. With ``first_move`` (ms), each seat's first turn is
    free of its clock and bounded by that time from ``ready`` on (O4, module notes), but
    for the ``computers``' seats: a computer player is always there, its clock runs from
    its first turn as from any other.
    """
    if seats < 1:
        raise ValueError(f"a game has at least one seat, not {seats}")
    if not turns or turns[0].seat is None:
        raise ValueError("the clocks start with a turn: the seat to move first")
    left = [control.initial_ms] * seats
    used = [0] * seats
    flags: list[Flag] = []
    out: set[int] = set()
    running: int | None = None
    started: set[int] = set()
    waiting: FirstMove | None = None
    unstarted: int | None = None
    at = now
    for index, turn in enumerate(turns):
        following = turns[index + 1] if index + 1 < len(turns) else None
        if following is not None and following.at < turn.at:
            raise ValueError(f"turn changes out of order: {following.at} after {turn.at}")
        if turn.seat is None:
            if following is not None:
                raise ValueError(f"a turn change at {following.at} after the game ended")
            running = None
            at = turn.at
            break
        seat = turn.seat
        if not 0 <= seat < seats:
            raise ValueError(f"seat {seat} in a game of {seats}")
        if seat in out:
            raise ValueError(f"seat {seat} ran out of time and cannot be given the turn")
        end = following.at if following is not None else max(now, turn.at)
        spent = end - turn.at
        if first_move is not None and seat not in started and seat not in computers:
            # O4: the seat's first turn, free of its clock
            running = None
            at = end
            if following is None:
                due = None if ready is None else max(turn.at, ready) + first_move
                waiting = FirstMove(seat, due)
                if due is not None and end >= due:
                    unstarted = seat
            elif following.seat is not None and following.seat != seat:
                started.add(seat)
            continue
        if spent >= left[seat]:
            flags.append(Flag(seat, turn.at + left[seat]))
            used[seat] += left[seat]
            left[seat] = 0
            out.add(seat)
            running = None
            at = flags[-1].at
        else:
            used[seat] += spent
            left[seat] -= spent
            running = seat
            at = end
            if following is not None and following.seat is not None:
                # the seat completed its turn
                if isinstance(control, Live):
                    left[seat] += control.increment_ms
                else:
                    left[seat] = control.initial_ms
    return Clocks(at, tuple(left), tuple(used), running, tuple(flags), waiting, unstarted)


def next_seat(seats: int, current: int, out: Collection[int]) -> int | None:
    """The seat after ``current`` in turn order, skipping the seats in ``out`` (that ran out
    of time or resigned); ``current`` itself comes last. None when every seat is out."""
    for step in range(1, seats + 1):
        seat = (current + step) % seats
        if seat not in out:
            return seat
    return None
