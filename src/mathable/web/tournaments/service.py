"""The tournaments' service (issue 38): a tournament is its spec and its event log
(:mod:`.log`), replayed by the pure engine (:mod:`mathable.online.tournaments`) on every
request, so any process serves any tournament and a crash loses nothing.

Every change is a list of events appended after the log's last one: the engine replays
them first (an event that cannot happen is refused, 409), and the store takes them only
if nobody appended in between (the key (tournament, seq)); otherwise the log is read again
and the change made again on it. So two processes never pair a round twice.

What a tournament does by itself (:meth:`TournamentService.advance`): the results of its
boards' games once they end, then what the engine's ``due(state, now)`` says (the next
round's pairings, the end), then a game for each paired board, created by the game
service as the lobby creates one (each person's seat bound to their account, a computer
entrant's seat to its computer player, the tournament's clock, rated as its spec says)
and linked to its board. It runs when a tournament is read or changed, and every
:data:`CHECK_EVERY` seconds in each process for the tournaments under way
(:meth:`TournamentService.check`): the games' ends are read from the store (their
results rows and last events), so the rounds' layer, a floor below, never has to know
that tournaments exist. The replay and the pairing run in a thread, off the event loop.

Two rules are the web's own, over the engine's: a computer level that fills an odd field
(``fill_bye``, kept in the stored spec beside the engine's fields) joins just before the
start (:meth:`TournamentService._filled`); and a correspondence round's deadline, its
clock's days after its pairing and the time paused since (:func:`paused_during`),
decides the boards nobody finished by ruling O4 (:func:`forfeits`: who never moved loses
by no-show), and their games are ended as the no-show's seat leaving
(:meth:`TournamentService._end_forfeited`): nobody plays on in a game already decided.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from mathable.ai import bot_player_id, level_of_player
from mathable.games.registry import new_game
from mathable.i18n import _
from mathable.online.clocks import parse_time_control
from mathable.online.tournaments import (
    Event,
    Joined,
    Linked,
    Paused,
    Removed,
    Result,
    Resumed,
    Spec,
    Started,
    State,
    TournamentError,
    Withdrew,
    due,
    event_from_json,
    event_to_json,
    replay,
    spec_from_json,
    spec_to_json,
)
from mathable.web.infra.db import ratings
from mathable.web.infra.errors import ServiceError
from mathable.web.infra.store import EventStore
from mathable.web.ratings.standings import shown_name
from mathable.web.rounds.schemas import SEED_LIMIT, NewGame, Seat
from mathable.web.rounds.service import GameService
from mathable.web.tournaments.log import Conflict, GameEnd, StoredTournament, TournamentLog

log = logging.getLogger(__name__)

CHECK_EVERY = 2.0
"""Seconds between two looks at the tournaments under way (their games' ends)."""
TRIES = 8
"""Appends tried before a change is given up (409): each lost one replays the log."""
START_RATING = 1500.0
"""The rating of an entrant without one in the tournament's game and pace."""
MOST_PLAYERS = {"swiss": 200, "round-robin": 16, "arena": 500}
"""Entrants at most, by system (a round robin is for a class: every pair once)."""
WEB_ONLY = ("fill_bye",)
"""The stored spec's keys the engine's :class:`Spec` does not have, the web's own:
``fill_bye``, the computer level that takes the bye seat of an odd field at the start."""
DAY = 24 * 3600.0


@dataclass(frozen=True)
class Loaded:
    """A tournament replayed: its row, its events and the state they make."""

    stored: StoredTournament
    spec: Spec
    events: list[Event]
    state: State

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def fill_bye(self) -> str | None:
        """The computer level that fills an odd field at the start (None: a bye point)."""
        level = self.stored.spec.get("fill_bye")
        return str(level) if level else None


def clock_of(spec: Spec) -> dict[str, Any] | None:
    """The time control of the tournament's games (the spec keeps its JSON)."""
    return None if not spec.clock else dict(json.loads(spec.clock))


def pace_of(spec: Spec) -> str:
    """live, correspondence or untimed: the pace whose rating seeds an entrant."""
    clock = clock_of(spec)
    return "untimed" if clock is None else parse_time_control(clock).pace


def result_of(
    end: GameEnd, first: str | None = None
) -> tuple[tuple[float, float], tuple[int, int], str]:
    """A board's points, scores and how for (its first player, its second), from its
    game's end; ``first``: the board's first player, found among the game's seats (seat 0
    when not bound there).

    A game aborted by the server because a seat never made its first move (ruling O4:
    the seat to move let its time pass) is no rated abort here: that seat loses by
    no-show, the other wins 1-0. A game a player aborted themselves is their forfeit.
    Otherwise the ranks decide: a shared first place is half a point each."""
    seat_of_first = next((s for s, p in end.players.items() if p == first), 0)
    order = (0, 1) if seat_of_first == 0 else (1, 0)
    padded = [*end.scores, 0, 0]
    scores = (padded[order[0]], padded[order[1]])
    word, _space, seat_text = end.last_action.partition(" ")
    if word == "abort" and seat_text.strip().isdigit():
        lost = order.index(int(seat_text)) if int(seat_text) in order else 1
        points = (0.0, 1.0) if lost == 0 else (1.0, 0.0)
        return points, scores, "no-show" if end.last_seat is None else "forfeit"
    ranks = [*end.ranks, 2, 2]
    mine, theirs = ranks[order[0]], ranks[order[1]]
    if mine == theirs:
        return (0.5, 0.5), scores, "played"
    return ((1.0, 0.0) if mine < theirs else (0.0, 1.0)), scores, "played"


def paused_during(events: Sequence[Event], since: float) -> float:
    """Seconds the tournament spent paused from ``since`` on, by its log's Paused and
    Resumed instants (the engine keeps only the total); a pause not yet resumed counts
    from its resumption (no deadline passes while paused)."""
    total, paused_at = 0.0, None
    for event in events:
        if isinstance(event, Paused):
            paused_at = event.at
        elif isinstance(event, Resumed) and paused_at is not None:
            total += max(0.0, event.at - max(paused_at, since))
            paused_at = None
    return total


def round_deadline(state: State, events: Sequence[Event] = ()) -> float | None:
    """When the current round's unplayed games are forfeited: a correspondence
    tournament's round lasts its clock's days from its pairing, plus the time the
    tournament spent paused since (``events``: its log) (None: no deadline, or nothing
    left to decide)."""
    clock = clock_of(state.spec)
    if not clock or not clock.get("days") or state.spec.system == "arena" or not state.rounds:
        return None
    current = state.rounds[-1]
    if current.complete:
        return None
    return current.at + float(clock["days"]) * DAY + paused_during(events, current.at)


def forfeits(
    state: State, moved: dict[str, set[str]], now: float, events: Sequence[Event] = ()
) -> list[Result]:
    """At the current round's deadline, its boards without a result decided by the trust
    rules (ruling O4): a player who never moved in their game loses by no-show (both:
    nobody scores); a game both have moved in plays on, its own clock decides. ``moved``:
    the players who made a move, by game; ``events``: the log (its pauses move the
    deadline)."""
    deadline = round_deadline(state, events)
    if deadline is None or now < deadline or state.status != "running":
        return []
    current = state.rounds[-1]
    made: list[Result] = []
    for board in current.boards:
        if board.board in current.results:
            continue
        game = current.games.get(board.board)
        movers = moved.get(game, set()) if game is not None else set()
        first, second = board.first in movers, board.second in movers
        if first and second:
            continue
        points = (1.0 if first else 0.0, 1.0 if second else 0.0)
        made.append(Result(current.number, board.board, points, (0, 0), "no-show"))
    return made


def seating(variant: str, names: Sequence[str]) -> tuple[int, int]:
    """A deal (a seed) and the seat that starts it: who starts is the deal's (C10: a
    draw from the seed alone), so the board's first player is seated there, as a rated
    rematch seats its players around its deal."""
    dealt = secrets.randbelow(SEED_LIMIT)
    return dealt, new_game(variant, list(names), seed=dealt).to_move


class TournamentService:
    """The tournaments of the database, and the games of their boards (through
    ``games``, the game service). ``now`` is the clock (tests inject theirs)."""

    def __init__(
        self, store: EventStore, games: GameService, now: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.log = TournamentLog(store)
        self.games = games
        self.now = now
        self._checker: asyncio.Task[None] | None = None

    # -- reading ------------------------------------------------------------------------

    def load(self, tournament_id: str) -> Loaded:
        """The tournament replayed (404 when there is none). Blocking."""
        stored = self.log.load(tournament_id)
        if stored is None:
            raise ServiceError(404, _("no tournament {id}", id=tournament_id))
        spec = spec_from_json({k: v for k, v in stored.spec.items() if k not in WEB_ONLY})
        events = [event_from_json(data) for data in stored.events]
        return Loaded(stored, spec, events, replay(spec, events))

    def rating(self, player_id: str, spec: Spec) -> float:
        """The player's rating in the tournament's game and pace (a start if none)."""
        with self.store.reading() as connection:
            found = connection.execute(
                select(ratings.c.rating).where(
                    ratings.c.player_id == player_id,
                    ratings.c.game == spec.variant,
                    ratings.c.pace == pace_of(spec),
                )
            ).scalar()
        return START_RATING if found is None else float(found)

    # -- changing -----------------------------------------------------------------------

    def create(
        self,
        spec: Spec,
        organizer: str,
        starts: float | None,
        fill_bye: str | None = None,
        entrants: Sequence[Joined] = (),
    ) -> str:
        """A new tournament's id (unguessable: a private one's link), with the players
        its organizer entered (a teacher's pupils) and the computer level that fills an
        odd field's bye at the start (``fill_bye``). Blocking."""
        tournament_id = secrets.token_urlsafe(9)
        stored = spec_to_json(spec)
        if fill_bye:
            stored["fill_bye"] = fill_bye
        self.log.create(tournament_id, stored, organizer, spec.private, starts, self.now())
        if entrants:
            self.change(tournament_id, lambda _loaded: list(entrants))
        return tournament_id

    def computer_entrant(self, level: str, spec: Spec) -> Joined:
        """A computer player of this level as an entrant (its rating in this game)."""
        player_id = bot_player_id(level)
        return Joined(
            player_id, shown_name(player_id, "", "bot"), self.rating(player_id, spec), True
        )

    def _filled(self, loaded: Loaded, made: list[Event]) -> list[Event]:
        """``made`` with the computer that fills an odd field joined just before the
        start, when the tournament asks for one (``fill_bye``) and it is not in yet."""
        level = loaded.fill_bye
        at = next((i for i, e in enumerate(made) if isinstance(e, Started)), None)
        if level is None or at is None or loaded.spec.system == "arena":
            return made
        before = replay(loaded.spec, [*loaded.events, *made[:at]])
        entrant = self.computer_entrant(level, loaded.spec)
        known = before.players.get(entrant.player)
        if len(before.active()) % 2 == 0 or (known is not None and (known.active or known.removed)):
            return made
        return [*made[:at], entrant, *made[at:]]

    def change(self, tournament_id: str, make: Callable[[Loaded], Sequence[Event]]) -> Loaded:
        """Append what ``make`` says on the newest log: replayed first (an event that
        cannot happen: 409), then stored unless another writer came first, in which case
        the log is read and ``make`` asked again. Blocking."""
        for _attempt in range(TRIES):
            loaded = self.load(tournament_id)
            made = self._filled(loaded, list(make(loaded)))
            if not made:
                return loaded
            try:
                state = replay(loaded.spec, [*loaded.events, *made])
            except TournamentError as exc:
                raise ServiceError(409, str(exc)) from None
            try:
                self.log.append(
                    tournament_id,
                    len(loaded.events),
                    [(event.kind, event_to_json(event)) for event in made],
                    state.status,
                    self.now(),
                )
            except Conflict:
                continue
            return Loaded(loaded.stored, loaded.spec, [*loaded.events, *made], state)
        raise ServiceError(409, _("the tournament is busy: try again"))

    async def changed(
        self, tournament_id: str, make: Callable[[Loaded], Sequence[Event]]
    ) -> Loaded:
        """:meth:`change` in a thread, then what the tournament does by itself."""
        await asyncio.to_thread(self.change, tournament_id, make)
        return await self.advance(tournament_id)

    # -- what the tournament does by itself ---------------------------------------------

    def _own_events(self, loaded: Loaded) -> list[Event]:
        """What the tournament does now by itself on ``loaded``: its boards' results from
        their ended games, a planned start, the engine's due events, an arena's pairing."""
        state, now = loaded.state, self.now()
        made: list[Event] = []
        if state.status == "finished":
            return made
        linked = {
            game: (number.number, board)
            for number in state.rounds
            for board, game in number.games.items()
            if board not in number.results
        }
        ended = self.log.finished(sorted(linked))
        for game_id, (round_, board) in sorted(linked.items(), key=lambda item: item[1]):
            end = ended.get(game_id)
            if end is not None:
                number = state.rounds[round_ - 1]
                first = next(b.first for b in number.boards if b.board == board)
                points, scores, how = result_of(end, first)
                made.append(Result(round_, board, points, scores, how))
        starts = loaded.stored.starts
        if (
            state.status == "upcoming"
            and starts is not None
            and now >= starts
            and len(state.active()) >= 2
        ):
            made = self._filled(loaded, [*made, Started(now)])
        if made:
            state = replay(loaded.spec, [*loaded.events, *made])
        if round_deadline(state) is not None:
            current = state.rounds[-1]
            moved = self.log.moved(
                [g for b, g in current.games.items() if b not in current.results]
            )
            late = forfeits(state, moved, now, [*loaded.events, *made])
            if late:
                made += late
                state = replay(loaded.spec, [*loaded.events, *made])
        if state.status == "running":
            made += due(state, now)  # an arena's waves too: every active player waits
        return made

    async def advance(self, tournament_id: str) -> Loaded:
        """Everything the tournament does by itself now (see the module's docstring),
        then the games of its paired boards made and linked; the tournament after."""
        loaded = await asyncio.to_thread(self.change, tournament_id, self._own_events)
        await self._end_forfeited(loaded)
        for _round in range(TRIES):
            unlinked = [
                (number.number, board.board)
                for number in loaded.state.rounds
                for board in number.boards
                if board.board not in number.games and board.board not in number.results
            ]
            if not unlinked:
                return loaded
            made = await asyncio.to_thread(self.log.boards_made, tournament_id)
            links: list[Event] = []
            for round_, board in unlinked:
                game_id = made.get((round_, board))
                if game_id is None:
                    game_id = await self._make_game(loaded, round_, board)
                if game_id is not None:
                    links.append(Linked(round_, board, game_id))
            if not links:
                return loaded

            def link(now: Loaded, wanted: list[Event] = links) -> list[Event]:
                return [
                    e
                    for e in wanted
                    if isinstance(e, Linked) and e.board not in now.state.rounds[e.round - 1].games
                ]

            loaded = await asyncio.to_thread(self.change, tournament_id, link)
        return loaded

    async def _end_forfeited(self, loaded: Loaded) -> None:
        """End the games of the boards lost by no-show at a round's deadline that are
        still open, so that nobody plays on in a game whose result is given: through the
        game service's own leaving path, as the no-show's seat (both no-shows: the first
        player's), an abort while the game has not started (O4: never rated), else a
        resignation (the no-show moved after the deadline passed). A game that cannot be
        ended now is logged and tried again at the next look."""
        forfeited: dict[str, str] = {}  # game: the player whose seat ends it
        for played in loaded.state.rounds:
            for board in played.boards:
                result = played.results.get(board.board)
                game_id = played.games.get(board.board)
                if result is not None and result.how == "no-show" and game_id is not None:
                    won = result.points == (1.0, 0.0)
                    forfeited[game_id] = board.second if won else board.first
        if not forfeited:
            return
        ended = await asyncio.to_thread(self.log.ended, sorted(forfeited))
        for game_id, loser in sorted(forfeited.items()):
            if game_id in ended:
                continue
            try:
                seated = await self.games.seated_async(game_id, None, loser)
                if seated.seat is None or seated.live.over:
                    continue
                kind = "abort" if seated.live.game.can_abort(seated.seat) else "resign"
                await self.games.end(seated, kind)
            except ServiceError:
                log.exception("ending the forfeited game %s of %s", game_id, loaded.id)

    async def _make_game(self, loaded: Loaded, round_: int, board: int) -> str | None:
        """The game of a paired board, made by whoever claims it first (None: another
        process did, or the game could not be made now: tried again later)."""
        tournament_id = loaded.id
        claimed = await asyncio.to_thread(self.log.claim, tournament_id, round_, board, self.now())
        if not claimed:
            return None
        seated = next(b for b in loaded.state.rounds[round_ - 1].boards if b.board == board)
        pair = [loaded.state.players[p] for p in (seated.first, seated.second)]
        dealt, starter = seating(loaded.spec.variant, [e.name[:40] for e in pair])
        entrants = pair if starter == 0 else pair[::-1]  # the first player at the starter's
        people = [i for i, e in enumerate(entrants) if not e.computer]
        seats = [
            Seat(name=e.name[:40], bot=level_of_player(e.player) if e.computer else None)
            for e in entrants
        ]
        try:
            made = await self.games.create(
                NewGame(
                    variant=loaded.spec.variant,
                    players=seats,
                    mode="online",
                    seat=people[0] if people else None,
                    clock=clock_of(loaded.spec),
                    rated=loaded.spec.rated,
                ),
                entrants[people[0]].player if people else None,
                dealt=dealt,
            )
            game_id = str(made["id"])
            for entry, entrant in zip(made["seats"], entrants, strict=True):
                if entry["invite"]:
                    invite = str(entry["invite"]).rpartition("invite=")[2]
                    await self.games.join(game_id, invite, entrant.player)
        except (ServiceError, ValueError):
            log.exception("making the game of %s round %d board %d", tournament_id, round_, board)
            await asyncio.to_thread(self.log.release, tournament_id, round_, board)
            return None
        await asyncio.to_thread(self.log.made, tournament_id, round_, board, game_id)
        return game_id

    # -- the periodic check -------------------------------------------------------------

    async def check(self) -> None:
        """One look at every tournament under way (a failure is logged, never raised)."""
        ids = await asyncio.to_thread(self.log.running)
        for tournament_id in ids:
            try:
                await self.advance(tournament_id)
            except Exception:
                log.exception("advancing tournament %s", tournament_id)

    async def _checking(self, every: float) -> None:
        while True:
            await self.check()
            await asyncio.sleep(every)

    def start(self, every: float = CHECK_EVERY) -> None:
        """Look at the tournaments under way every ``every`` seconds from now on."""
        if self._checker is None:
            self._checker = asyncio.get_running_loop().create_task(self._checking(every))

    async def close(self) -> None:
        """Stop the periodic check."""
        checker, self._checker = self._checker, None
        if checker is not None:
            checker.cancel()
            await asyncio.gather(checker, return_exceptions=True)


# -- the organizer's and the players' changes ---------------------------------------------


def organizer_only(loaded: Loaded, player_id: str) -> None:
    """403 unless ``player_id`` organizes the tournament."""
    if loaded.stored.organizer != player_id:
        raise ServiceError(403, _("only the tournament's organizer may do this"))


def joining(
    player_id: str, name: str, rating: float, computer: bool = False
) -> Callable[[Loaded], list[Event]]:
    """The change of a player joining: refused with the reason when they cannot."""

    def make(loaded: Loaded) -> list[Event]:
        state = loaded.state
        known = state.players.get(player_id)
        if known is not None and known.active:
            raise ServiceError(409, _("{name} has joined already", name=known.name))
        if known is not None and known.removed:
            raise ServiceError(
                403, _("the organizer removed {name} from this tournament", name=name)
            )
        if state.status == "finished":
            raise ServiceError(409, _("the tournament is over"))
        if state.status != "upcoming" and not late_join_open(state):
            raise ServiceError(409, _("joins are closed: the tournament has started"))
        most = MOST_PLAYERS[state.spec.system]
        if len(state.active()) >= most:
            raise ServiceError(409, _("the tournament is full ({count} players)", count=most))
        return [Joined(player_id, name, rating, computer)]

    return make


def late_join_open(state: State) -> bool:
    """Whether a player may still join a tournament under way (its late joins)."""
    spec = state.spec
    if spec.late_join_until == 0 or spec.system == "round-robin":
        return False
    return spec.system == "arena" or len(state.rounds) < spec.late_join_until


def leaving(player_id: str) -> Callable[[Loaded], list[Event]]:
    def make(loaded: Loaded) -> list[Event]:
        known = loaded.state.players.get(player_id)
        if known is None or not known.active:
            raise ServiceError(409, _("you are not in this tournament"))
        if loaded.state.status == "finished":
            raise ServiceError(409, _("the tournament is over"))
        return [Withdrew(player_id)]

    return make


def organizing(
    organizer: str, what: str, now: float, **given: Any
) -> Callable[[Loaded], list[Event]]:
    """The organizer's changes: start, pause, resume, remove (``player``), decide
    (``round``, ``board``, ``points``)."""

    def make(loaded: Loaded) -> list[Event]:
        organizer_only(loaded, organizer)
        state = loaded.state
        if what == "start":
            if state.status != "upcoming":
                raise ServiceError(409, _("the tournament has started already"))
            if len(state.active()) < 2:
                raise ServiceError(409, _("start: two players at least must have joined"))
            return [Started(now)]
        if what == "pause":
            if state.status != "running":
                raise ServiceError(409, _("pause: the tournament is not running"))
            return [Paused(now)]
        if what == "resume":
            if state.status != "paused":
                raise ServiceError(409, _("resume: the tournament is not paused"))
            return [Resumed(now)]
        if what == "remove":
            player = str(given["player"])
            known = state.players.get(player)
            if known is None or not known.active:
                raise ServiceError(
                    404, _("player: {player} is not in this tournament", player=player)
                )
            return [Removed(player)]
        round_, board, points = int(given["round"]), int(given["board"]), given["points"]
        if not 1 <= round_ <= len(state.rounds):
            raise ServiceError(404, _("round: no round {round}", round=round_))
        played = state.rounds[round_ - 1]
        if not any(b.board == board for b in played.boards):
            raise ServiceError(
                404, _("board: no board {board} in round {round}", board=board, round=round_)
            )
        if board in played.results:
            raise ServiceError(409, _("board: this board has its result already"))
        return [Result(round_, board, (float(points[0]), float(points[1])), (0, 0), "decided")]

    return make
