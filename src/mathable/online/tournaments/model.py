"""A tournament as a spec plus an event log (issue 38), and the state the log replays to.

Like a game, a tournament is never stored as a snapshot: the web keeps its :class:`Spec`
and its events (each as :func:`event_to_json`), and any process rebuilds the
:class:`State` with :func:`replay`. An event that could not have happened (a result for a
board never paired, a second start, a withdrawn player paired...) is refused with a
:class:`TournamentError` naming the reason, so a corrupt or doubled log never turns into a
silently wrong crosstable.

Nothing here reads a clock: every timed event carries its instant ``at`` (seconds since the
epoch, as the caller counts them).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Literal, TypeAlias, get_args

System = Literal["swiss", "round-robin", "arena"]
Status = Literal["upcoming", "running", "paused", "finished"]
How = Literal["played", "forfeit", "decided", "no-show"]

SYSTEMS: tuple[str, ...] = get_args(System)
HOWS: tuple[str, ...] = get_args(How)
POINTS: frozenset[tuple[float, float]] = frozenset({(1.0, 0.0), (0.5, 0.5), (0.0, 1.0), (0.0, 0.0)})
"""The results a board may have, for (first, second); (0, 0) is a double forfeit."""


class TournamentError(ValueError):
    """An event or a spec that cannot be: the message says why, for a person."""


@dataclass(frozen=True)
class Spec:
    """What the organizer chose when creating the event.

    ``rounds``: Swiss, the number of rounds; round robin, 0 for "as many as needed" (n-1,
    or n with a bye seat) or a smaller count; arena, 0. ``minutes``: the arena's length (0
    otherwise). ``clock`` is the time control as the web spells it, opaque here.
    ``late_join_until``: joins are allowed until round ``late_join_until`` has been paired
    (0: before the start only; in an arena, any positive value means "until the end").
    """

    name: str
    variant: str
    system: System
    rounds: int = 0
    minutes: int = 0
    clock: str = ""
    rated: bool = False
    private: bool = False
    late_join_until: int = 0


@dataclass(frozen=True)
class Board:
    """One pairing of a round: ``first`` moves first."""

    board: int
    first: str
    second: str


@dataclass(frozen=True)
class Joined:
    kind: ClassVar[str] = "joined"
    player: str
    name: str
    rating: float
    computer: bool = False


@dataclass(frozen=True)
class Withdrew:
    """The player left by themselves (they may join again while joins are open)."""

    kind: ClassVar[str] = "withdrew"
    player: str


@dataclass(frozen=True)
class Removed:
    """The organizer took a player out (a no-show); they do not come back."""

    kind: ClassVar[str] = "removed"
    player: str


@dataclass(frozen=True)
class Started:
    kind: ClassVar[str] = "started"
    at: float


@dataclass(frozen=True)
class Paused:
    kind: ClassVar[str] = "paused"
    at: float


@dataclass(frozen=True)
class Resumed:
    kind: ClassVar[str] = "resumed"
    at: float


@dataclass(frozen=True)
class Paired:
    """Round ``round``'s boards, and who sits it out with a bye (worth one point)."""

    kind: ClassVar[str] = "paired"
    round: int
    boards: tuple[Board, ...]
    bye: str | None
    at: float


@dataclass(frozen=True)
class Linked:
    """The web created the game played on that board."""

    kind: ClassVar[str] = "linked"
    round: int
    board: int
    game: str


@dataclass(frozen=True)
class Result:
    """A board's outcome: ``points`` (1, 0.5 or 0 each) and game ``scores`` for (first,
    second); ``how``: "played", "forfeit", "decided" (by the organizer) or "no-show"."""

    kind: ClassVar[str] = "result"
    round: int
    board: int
    points: tuple[float, float]
    scores: tuple[int, int] = (0, 0)
    how: str = "played"


@dataclass(frozen=True)
class Finished:
    kind: ClassVar[str] = "finished"
    at: float


Event: TypeAlias = (
    Joined | Withdrew | Removed | Started | Paused | Resumed | Paired | Linked | Result | Finished
)
EVENT_TYPES: dict[str, type[Event]] = {
    kind.kind: kind
    for kind in (
        Joined,
        Withdrew,
        Removed,
        Started,
        Paused,
        Resumed,
        Paired,
        Linked,
        Result,
        Finished,
    )
}


# ---------------------------------------------------------------- the JSON codec


def event_to_json(event: Event) -> dict[str, Any]:
    """The event as JSON-ready data: ``{"kind": ..., field: value...}``, tuples as lists."""
    data: dict[str, Any] = {"kind": event.kind}
    for item in fields(event):
        value = getattr(event, item.name)
        if isinstance(value, tuple):
            value = [
                {"board": v.board, "first": v.first, "second": v.second}
                if isinstance(v, Board)
                else v
                for v in value
            ]
        data[item.name] = value
    return data


def _str(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ValueError(f"{where}.{key}: expected a string, got {value!r}")
    return value


def _int(data: Mapping[str, Any], key: str, where: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where}.{key}: expected an integer, got {value!r}")
    return value


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{where}: expected a finite number, got {value!r}")
    return float(value)


def _bool(data: Mapping[str, Any], key: str, where: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise ValueError(f"{where}.{key}: expected true or false, got {value!r}")
    return value


def _pair(data: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(f"{where}.{key}: expected a list of two, got {value!r}")
    return list(value)


def _board(value: Any, where: str) -> Board:
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: expected an object, got {value!r}")
    return Board(
        _int(value, "board", where), _str(value, "first", where), _str(value, "second", where)
    )


def event_from_json(data: Mapping[str, Any]) -> Event:
    """The event :func:`event_to_json` wrote; a :class:`ValueError` naming the field at
    fault on anything else (unknown fields are refused too: a typo is not ignored)."""
    if not isinstance(data, Mapping):
        raise ValueError(f"event: expected an object, got {data!r}")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        raise ValueError(f"kind: expected one of {sorted(EVENT_TYPES)}, got {kind!r}")
    known = {"kind"} | {item.name for item in fields(EVENT_TYPES[kind])}
    extra = sorted(set(data) - known)
    if extra:
        raise ValueError(f"{kind}.{extra[0]}: no such field")
    w = kind
    if kind == "joined":
        return Joined(
            _str(data, "player", w),
            _str(data, "name", w),
            _number(data.get("rating"), f"{w}.rating"),
            _bool(data, "computer", w, False),
        )
    if kind == "withdrew":
        return Withdrew(_str(data, "player", w))
    if kind == "removed":
        return Removed(_str(data, "player", w))
    if kind in ("started", "paused", "resumed", "finished"):
        at = _number(data.get("at"), f"{w}.at")
        timed: type[Started | Paused | Resumed | Finished] = EVENT_TYPES[kind]  # type: ignore[assignment]
        return timed(at)
    if kind == "paired":
        boards = data.get("boards")
        if not isinstance(boards, list | tuple):
            raise ValueError(f"{w}.boards: expected a list, got {boards!r}")
        bye = data.get("bye")
        if bye is not None and not isinstance(bye, str):
            raise ValueError(f"{w}.bye: expected a string or null, got {bye!r}")
        return Paired(
            _int(data, "round", w),
            tuple(_board(b, f"{w}.boards[{i}]") for i, b in enumerate(boards)),
            bye,
            _number(data.get("at"), f"{w}.at"),
        )
    if kind == "linked":
        return Linked(_int(data, "round", w), _int(data, "board", w), _str(data, "game", w))
    # result
    points = _pair(data, "points", w)
    scores = _pair(data, "scores", w) if "scores" in data else [0, 0]
    for i, score in enumerate(scores):
        if isinstance(score, bool) or not isinstance(score, int):
            raise ValueError(f"{w}.scores[{i}]: expected an integer, got {score!r}")
    how = data.get("how", "played")
    if how not in HOWS:
        raise ValueError(f"{w}.how: expected one of {list(HOWS)}, got {how!r}")
    return Result(
        _int(data, "round", w),
        _int(data, "board", w),
        (_number(points[0], f"{w}.points[0]"), _number(points[1], f"{w}.points[1]")),
        (scores[0], scores[1]),
        how,
    )


def spec_to_json(spec: Spec) -> dict[str, Any]:
    """The spec as JSON-ready data (the field names as keys)."""
    return {item.name: getattr(spec, item.name) for item in fields(spec)}


def spec_from_json(data: Mapping[str, Any]) -> Spec:
    """The spec :func:`spec_to_json` wrote; a :class:`ValueError` naming the field at fault."""
    if not isinstance(data, Mapping):
        raise ValueError(f"spec: expected an object, got {data!r}")
    extra = sorted(set(data) - {item.name for item in fields(Spec)})
    if extra:
        raise ValueError(f"spec.{extra[0]}: no such field")
    system = data.get("system")
    if system not in SYSTEMS:
        raise ValueError(f"spec.system: expected one of {list(SYSTEMS)}, got {system!r}")
    clock = data.get("clock", "")
    if not isinstance(clock, str):
        raise ValueError(f"spec.clock: expected a string, got {clock!r}")
    ints = {k: data.get(k, 0) for k in ("rounds", "minutes", "late_join_until")}
    for key, value in ints.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"spec.{key}: expected an integer, got {value!r}")
    spec = Spec(
        _str(data, "name", "spec"),
        _str(data, "variant", "spec"),
        system,
        ints["rounds"],
        ints["minutes"],
        clock,
        _bool(data, "rated", "spec", False),
        _bool(data, "private", "spec", False),
        ints["late_join_until"],
    )
    try:
        check_spec(spec)
    except TournamentError as error:
        raise ValueError(f"spec.{error}") from None
    return spec


def check_spec(spec: Spec) -> None:
    """Refuse a spec no tournament can run (the reason names the field)."""
    if spec.system not in SYSTEMS:
        raise TournamentError(f"system: no such system {spec.system!r}")
    for name in ("rounds", "minutes", "late_join_until"):
        if getattr(spec, name) < 0:
            raise TournamentError(f"{name}: never negative")
    if spec.system == "swiss" and spec.rounds < 1:
        raise TournamentError("rounds: a Swiss needs at least one round")
    if spec.system == "arena" and spec.minutes < 1:
        raise TournamentError("minutes: an arena needs a length in minutes")
    if spec.system != "arena" and spec.minutes:
        raise TournamentError("minutes: only an arena has a length in minutes")
    if spec.system == "arena" and spec.rounds:
        raise TournamentError("rounds: an arena has no fixed rounds")


# ---------------------------------------------------------------- the state


@dataclass
class Entrant:
    """A player of the tournament; ``active`` false once withdrawn or removed."""

    player: str
    name: str
    rating: float
    computer: bool = False
    active: bool = True
    removed: bool = False


@dataclass
class RoundState:
    """A paired round: its boards, its bye, the games linked to boards, the results."""

    number: int
    boards: tuple[Board, ...]
    bye: str | None
    at: float = 0.0
    games: dict[int, str] = field(default_factory=dict)
    results: dict[int, Result] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """Every board has its result."""
        return len(self.results) == len(self.boards)

    def playing(self) -> set[str]:
        """The players whose game of this round has no result yet."""
        return {
            name for b in self.boards if b.board not in self.results for name in (b.first, b.second)
        }


@dataclass
class State:
    """What a tournament's log says now."""

    spec: Spec
    status: Status = "upcoming"
    players: dict[str, Entrant] = field(default_factory=dict)
    rounds: list[RoundState] = field(default_factory=list)
    started_at: float | None = None
    finished_at: float | None = None
    paused_at: float | None = None
    paused_for: float = 0.0
    """Seconds spent paused so far (an arena's end moves by as much)."""
    last_at: float = 0.0
    """The latest instant an event carried: time never runs backwards in a log."""

    def active(self) -> list[str]:
        """The active players, in the order they joined."""
        return [p for p, e in self.players.items() if e.active]

    def playing(self) -> set[str]:
        """The players with a game in progress (paired, no result yet)."""
        return {name for r in self.rounds for name in r.playing()}

    def ends_at(self) -> float | None:
        """An arena's end (its start, plus its minutes, plus the time spent paused)."""
        if self.spec.system != "arena" or self.started_at is None:
            return None
        return self.started_at + self.spec.minutes * 60.0 + self.paused_for


def _joins_open(state: State) -> bool:
    if state.status == "upcoming":
        return True
    if state.status == "finished" or state.spec.late_join_until == 0:
        return False
    if state.spec.system == "round-robin":
        return False  # the Berger table is fixed at the first pairing
    if state.spec.system == "arena":
        return True
    return len(state.rounds) < state.spec.late_join_until


def _timed(state: State, at: float, what: str) -> None:
    if at < state.last_at:
        raise TournamentError(f"{what} at {at} is before the log's last event ({state.last_at})")
    state.last_at = at


def apply(state: State, event: Event) -> None:
    """Apply one event to ``state`` in place, or raise :class:`TournamentError` (leaving
    ``state`` as it was) if the event cannot happen now."""
    if state.status == "finished":
        raise TournamentError(f"{event.kind}: the tournament is finished")
    match event:
        case Joined(player, name, rating, computer):
            known = state.players.get(player)
            if known is not None and known.active:
                raise TournamentError(f"joined: {player} has already joined")
            if known is not None and known.removed:
                raise TournamentError(f"joined: {player} was removed by the organizer")
            if not _joins_open(state):
                raise TournamentError(f"joined: joins are closed for {player}")
            if not math.isfinite(rating):
                raise TournamentError(f"joined: {player}'s rating is not a number")
            state.players[player] = Entrant(player, name, rating, computer)
        case Withdrew(player) | Removed(player):
            known = state.players.get(player)
            if known is None or not known.active:
                raise TournamentError(f"{event.kind}: {player} is not an active player")
            known.active = False
            known.removed = isinstance(event, Removed)
        case Started(at):
            if state.status != "upcoming":
                raise TournamentError("started: the tournament has already started")
            _timed(state, at, "started")
            state.status, state.started_at = "running", at
        case Paused(at):
            if state.status != "running":
                raise TournamentError("paused: the tournament is not running")
            _timed(state, at, "paused")
            state.status, state.paused_at = "paused", at
        case Resumed(at):
            if state.status != "paused" or state.paused_at is None:
                raise TournamentError("resumed: the tournament is not paused")
            _timed(state, at, "resumed")
            state.paused_for += at - state.paused_at
            state.status, state.paused_at = "running", None
        case Paired():
            _check_paired(state, event)
            _timed(state, event.at, "paired")
            state.rounds.append(RoundState(event.round, event.boards, event.bye, event.at))
        case Linked(number, board, game):
            played = _board_of(state, number, board, "linked")
            if board in played.games:
                raise TournamentError(f"linked: round {number} board {board} already has a game")
            played.games[board] = game
        case Result(number, board, points, scores, how):
            played = _board_of(state, number, board, "result")
            if board in played.results:
                raise TournamentError(f"result: round {number} board {board} already has one")
            if (float(points[0]), float(points[1])) not in POINTS:
                raise TournamentError(f"result: points {points} are not a result")
            if how not in HOWS:
                raise TournamentError(f"result: how {how!r} is not one of {list(HOWS)}")
            if len(scores) != 2:
                raise TournamentError("result: scores need one per player")
            played.results[board] = event
        case Finished(at):
            _timed(state, at, "finished")
            state.status, state.finished_at = "finished", at
        case _:
            raise TournamentError(f"not a tournament event: {event!r}")


def _board_of(state: State, number: int, board: int, what: str) -> RoundState:
    if not 1 <= number <= len(state.rounds):
        raise TournamentError(f"{what}: round {number} was never paired")
    played = state.rounds[number - 1]
    if not any(b.board == board for b in played.boards):
        raise TournamentError(f"{what}: round {number} has no board {board}")
    return played


def _check_paired(state: State, event: Paired) -> None:
    if state.status != "running":
        raise TournamentError(f"paired: the tournament is {state.status}, not running")
    if event.round != len(state.rounds) + 1:
        raise TournamentError(
            f"paired: round {event.round}, but the next is {len(state.rounds) + 1}"
        )
    arena = state.spec.system == "arena"
    if state.rounds and not arena and not state.rounds[-1].complete:
        raise TournamentError(f"paired: round {len(state.rounds)} still has games without a result")
    if [b.board for b in event.boards] != list(range(1, len(event.boards) + 1)):
        raise TournamentError("paired: boards are numbered 1, 2, 3... in order")
    seated = [name for b in event.boards for name in (b.first, b.second)]
    if event.bye is not None:
        if arena:
            raise TournamentError("paired: an arena has no byes")
        seated.append(event.bye)
    if len(set(seated)) != len(seated):
        raise TournamentError("paired: a player is seated twice in one round")
    busy = state.playing()
    for name in seated:
        entrant = state.players.get(name)
        if entrant is None:
            raise TournamentError(f"paired: {name} never joined")
        if not entrant.active:
            raise TournamentError(f"paired: {name} has withdrawn")
        if name in busy:
            raise TournamentError(f"paired: {name} is still playing")


def replay(spec: Spec, events: Iterable[Event]) -> State:
    """The state after ``events``, oldest first; :class:`TournamentError` on the first
    event that cannot happen (the message says which, counting from 1)."""
    check_spec(spec)
    state = State(spec)
    for index, event in enumerate(events, start=1):
        try:
            apply(state, event)
        except TournamentError as error:
            raise TournamentError(f"event {index}: {error}") from None
    return state
