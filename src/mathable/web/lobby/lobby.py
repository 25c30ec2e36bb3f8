"""The lobby (issue 15, "Lobby"): open seeks, joining them, quick pairing.

A **seek** is a game offered by a player (its game, 2 to 4 seats, computer seats with
their levels, house rules, a time control, rated or casual), kept in the database
(:data:`~.db.seeks`) so that every server process lists the same ones. Its owner holds
the first seat; each player who joins takes the next. When the last person's seat is
taken, the game is created by the service as an online game (dealt by the server, O1)
with the joined players' names and the computer seats, each seat bound to its player
(:mod:`.seating`): their session cookie opens it at ``/g/{id}``, so the seek keeps no
token (its answer's ``token`` is null).

Two joins at once never overfill a seek: a join is a conditional update (the joined
players still as read and the seek still open), retried on a conflict, as
``EventStore.update_seats`` claims an invitation once. Open seeks expire after
:data:`EXPIRY` seconds; a player holds at most :data:`MAX_OPEN` open seeks; offering
seeks is rate-limited per address (``MATHABLE_RATE_SEEK``).

The lobby pushes (issue 29): the page holds one socket, ``/api/lobby/ws``
(:class:`Lobby`), sent the open seeks whenever they change and, for its player, each
change of a seek they are in: a seek's owner is on the board as soon as the last seat is
taken, not at the next poll. Every change a process makes to a seek is told to its own
sockets at once and to the other processes through a change feed of the seeks, as the
games have theirs (:mod:`.feed`): ``NOTIFY`` on a channel of its own on PostgreSQL, and
on SQLite a light look at the open seeks (and those closed lately) a few times a second.
The sockets are :class:`~.connections.Connection` s within the same limits as a game's
(an outbox keeping only the newest list, frame limits, sockets per address); the reads
and the JSON are made on a thread, once per change however many sockets listen. The
page polls ``GET /api/seeks`` only while its socket is down.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Collection
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Query, Request, WebSocket
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field
from sqlalchemy import Connection, func, insert, select, union_all, update

from mathable.ai import BOTS, bot_player_id
from mathable.games import registry
from mathable.games.registry import GAMES
from mathable.i18n import _, ngettext
from mathable.online.clocks import TimeControlError, parse_time_control
from mathable.online.fairplay import rated_refusal
from mathable.web.infra import connections
from mathable.web.infra.connections import Admissions, Encoded, refuse
from mathable.web.infra.db import in_memory, psycopg_arguments, seeks
from mathable.web.infra.errors import REFUSALS, ServiceError, at_field
from mathable.web.infra.feed import Feed, OnChange, PostgresListener, PostgresNotifier
from mathable.web.infra.language import html_page
from mathable.web.infra.limits import rate_limited
from mathable.web.infra.store import EventStore
from mathable.web.players.accounts import MeDep
from mathable.web.players.players import Player
from mathable.web.players.seating import cookie_player
from mathable.web.ratings.standings import shown_name
from mathable.web.rounds.creating import unknown_house_rule
from mathable.web.rounds.deps import ServiceDep
from mathable.web.rounds.schemas import NewGame, Seat
from mathable.web.rounds.service import GameService

OPEN, STARTED, CANCELLED = "open", "started", "cancelled"
EXPIRY = 30 * 60
"""Seconds an open seek waits for players before it is cancelled."""
MAX_OPEN = 3
"""Open seeks one player may offer at once."""
LISTED = 50
"""Open seeks listed at most (the newest)."""
RETRIES = 5
"""Conditional updates tried before a join gives up (each lost one means a change)."""
CHANNEL = "mathable_lobby"
"""The PostgreSQL channel of the seeks' changes (the games' is :data:`.db.CHANNEL`)."""
ANY = "*"
"""A change of any seek (a feed back after a failure: what changed meanwhile is unknown)."""
RECENT = 60.0
"""Seconds back the SQLite feed also looks at closed seeks: one opened and closed between
two looks is seen all the same."""

log = logging.getLogger(__name__)

# -- shapes ------------------------------------------------------------------------------


class SeekIn(BaseModel):
    """A game offered in the lobby."""

    variant: str = Field(default="classic", description=", ".join(GAMES))
    seats: int = Field(default=2, ge=2, le=4, description="All the seats, computers' included.")
    computers: list[str] = Field(
        default_factory=list,
        max_length=2,
        description=f"A level per computer seat ({', '.join(BOTS)}); two people at least.",
    )
    house_rules: dict[str, bool] = Field(default_factory=dict)
    clock: dict[str, Any] | None = Field(
        default=None,
        description='{"minutes": 5, "increment": 3} (live) or {"days": 3} (correspondence).',
    )
    rated: bool = Field(default=False, description="Rated games are for accounts only.")


class QuickIn(BaseModel):
    """Play anyone: a game and a clock."""

    variant: str = Field(default="classic", description=", ".join(GAMES))
    clock: dict[str, Any] | None = None


class SeekPlayer(BaseModel):
    id: str
    name: str


class SeekOut(BaseModel):
    """A seek as listed; its members also see their own ``seat`` and, once it has
    started, their ``token`` (nobody else's)."""

    id: str
    owner: SeekPlayer
    variant: str
    seats: int
    computers: list[str]
    house_rules: dict[str, bool]
    clock: dict[str, int] | None
    rated: bool
    players: list[SeekPlayer] = Field(description="The people who took a seat, in seat order.")
    open_seats: int = Field(description="People's seats still free.")
    status: str = Field(description="open, started or cancelled.")
    game_id: str | None = Field(description="The game, once started.")
    created: float
    seat: int | None = Field(default=None, description="Mine, if I am in this seek.")
    kind: Literal["seek", "game"] = Field(
        default="seek",
        description=(
            "seek; or game: one of my games being played (in GET /api/me/games), its "
            "``id`` and ``game_id`` the game's, ``status`` playing, ``seat`` mine."
        ),
    )
    your_turn: bool | None = Field(
        default=None, description="A game: whether it is my turn (null for a seek)."
    )
    token: str | None = Field(
        default=None,
        description=(
            "My seat's token: null since seats are bound to players (the session cookie "
            "opens the game at /g/{game_id}); only seeks started before that carry one."
        ),
    )


# -- the store ---------------------------------------------------------------------------


def _refused(exc: TimeControlError | ValueError, status: int = 422) -> ServiceError:
    return ServiceError(status, str(exc))


def checked_spec(body: SeekIn) -> dict[str, Any]:
    """The seek's game as stored, checked as the service will create it: a known game,
    its number of seats, known computer levels, two people at least, its house rules,
    a valid clock (the field at fault named)."""
    try:
        kind = registry.game_type(body.variant)
    except ValueError as exc:
        raise ServiceError(400, at_field("variant", exc)) from None
    if not kind.min_players <= body.seats <= kind.max_players:
        raise ServiceError(
            422,
            _(
                "seats: {game} is played by {low} to {high}",
                game=kind.title,
                low=kind.min_players,
                high=kind.max_players,
            ),
        )
    for number, level in enumerate(body.computers, start=1):
        if level not in BOTS:
            raise ServiceError(
                422,
                _(
                    "computers.{index}: unknown level {level} ({levels})",
                    index=number - 1,
                    level=repr(level),
                    levels=", ".join(BOTS),
                ),
            )
    if body.seats - len(body.computers) < 2:
        raise ServiceError(
            422, _("computers: a seek is for two people at least (play the computer from home)")
        )
    for rule in body.house_rules:
        if rule not in kind.house_rules:
            raise ServiceError(422, unknown_house_rule(rule, kind))
    refused = rated_refusal(body.house_rules) if body.rated else None
    if refused is not None:
        raise ServiceError(422, at_field(*refused))
    clock = None
    if body.clock is not None:
        try:
            clock = parse_time_control(body.clock).to_json()
        except TimeControlError as exc:
            raise _refused(exc) from None
    return {
        "variant": kind.name,
        "seats": body.seats,
        "computers": list(body.computers),
        "house_rules": dict(body.house_rules),
        "clock": clock,
    }


class SeekStore:
    """The seeks of the database of ``store``; each method one blocking transaction (the
    routes run them in a thread). ``now`` is the clock expiry reads (tests move it)."""

    def __init__(self, store: EventStore, now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.now = now
        self.on_change: Callable[[list[str]], None] | None = None
        """Called (on the writing thread) with the seeks each change has changed, once
        committed: the :class:`Lobby` tells its sockets and the other processes."""

    def _changed(self, *seek_ids: str) -> None:
        if self.on_change is not None and seek_ids:
            self.on_change(list(seek_ids))

    # -- reading --------------------------------------------------------------------------

    @staticmethod
    def _row(connection: Connection, seek_id: str) -> Any:
        return connection.execute(select(seeks).where(seeks.c.id == seek_id)).one_or_none()

    @staticmethod
    def shown(row: Any, viewer: str | None = None) -> dict[str, Any]:
        """A seek as the API shows it to ``viewer`` (a player id): their own seat and
        token only."""
        spec = json.loads(row.spec)
        joined = json.loads(row.joined)
        people = spec["seats"] - len(spec["computers"])
        answer = {
            "id": row.id,
            "owner": {"id": row.owner, "name": row.owner_name},
            **spec,
            "rated": bool(row.rated),
            "players": [{"id": p["id"], "name": p["name"]} for p in joined],
            "open_seats": people - len(joined),
            "status": row.status,
            "game_id": row.game_id,
            "created": row.created,
            "seat": None,
            "kind": "seek",
            "your_turn": None,
            "token": None,
        }
        for seat, entry in enumerate(joined):
            if viewer is not None and entry["id"] == viewer:
                answer["seat"] = seat
                answer["token"] = entry.get("token")
        return answer

    def _current(self, seek_id: str) -> Any:
        """The seek's row as a join reads it, before its conditional update."""
        with self.store.reading() as connection:
            return self._row(connection, seek_id)

    def get(self, seek_id: str, viewer: str | None = None) -> dict[str, Any]:
        with self.store.reading() as connection:
            row = self._row(connection, seek_id)
        if row is None:
            raise ServiceError(404, _("no such seek"))
        return self.shown(row, viewer)

    def listed(self, limit: int = LISTED) -> list[dict[str, Any]]:
        """The open seeks with a free seat, newest first."""
        self.expire()
        with self.store.reading() as connection:
            rows = connection.execute(
                select(seeks)
                .where(seeks.c.status == OPEN)
                .order_by(seeks.c.created.desc())
                .limit(limit * 2)  # full ones being started are left out
            ).all()
        found = [self.shown(row) for row in rows]
        return [seek for seek in found if seek["open_seats"] > 0][:limit]

    def rows(self, seek_ids: Collection[str]) -> list[Any]:
        """The rows of these seeks (with :data:`ANY`: the open ones and those made in the
        last :data:`RECENT` seconds)."""
        if ANY in seek_ids:
            where = (seeks.c.status == OPEN) | (seeks.c.created > self.now() - RECENT)
            with self.store.reading() as connection:
                return list(connection.execute(select(seeks).where(where)).all())
        found: list[Any] = []
        wanted = sorted(seek_ids)
        with self.store.reading() as connection:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                found += connection.execute(select(seeks).where(seeks.c.id.in_(chunk))).all()
        return found

    def mine(self, player_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The seeks ``player_id`` offered or joined, open or started, newest first."""
        self.expire()
        pattern = f'%"{player_id}"%'  # a first cut; exact membership checked below
        with self.store.reading() as connection:
            rows = connection.execute(
                select(seeks)
                .where(seeks.c.status != CANCELLED, seeks.c.joined.like(pattern))
                .order_by(seeks.c.created.desc())
                .limit(limit)
            ).all()
        return [s for s in (self.shown(row, player_id) for row in rows) if s["seat"] is not None]

    # -- changing -------------------------------------------------------------------------

    def expire(self) -> int:
        """Cancel the open seeks older than :data:`EXPIRY`; how many (a read first: the
        lobby is polled, and most polls find none to cancel)."""
        old = (seeks.c.status == OPEN, seeks.c.created < self.now() - EXPIRY)
        with self.store.reading() as connection:
            found = [str(row.id) for row in connection.execute(select(seeks.c.id).where(*old))]
        if not found:
            return 0
        with self.store.writing() as connection:
            changed: int = connection.execute(
                update(seeks).where(seeks.c.id.in_(found), *old).values(status=CANCELLED)
            ).rowcount
        self._changed(*found)
        return changed

    def create(self, player: Player, spec: dict[str, Any], rated: bool) -> dict[str, Any]:
        """A new open seek by ``player``, who holds its first seat."""
        if rated and not player.account:
            raise ServiceError(
                403, _("rated: rated games are for players with an account: make one or log in")
            )
        self.expire()
        seek_id = secrets.token_urlsafe(8)
        with self.store.writing() as connection:
            held = connection.execute(
                select(seeks.c.id).where(seeks.c.owner == player.id, seeks.c.status == OPEN)
            ).all()
            if len(held) >= MAX_OPEN:
                raise ServiceError(
                    409,
                    ngettext(
                        "you have {count} open seek: at most {most} (cancel one)",
                        "you have {count} open seeks: at most {most} (cancel one)",
                        len(held),
                        most=MAX_OPEN,
                    ),
                )
            connection.execute(
                insert(seeks).values(
                    id=seek_id,
                    owner=player.id,
                    owner_name=player.name,
                    spec=json.dumps(spec),
                    rated=rated,
                    joined=json.dumps([{"id": player.id, "name": player.name}]),
                    status=OPEN,
                    created=self.now(),
                )
            )
            row = self._row(connection, seek_id)
        self._changed(seek_id)
        return self.shown(row, player.id)

    def join(self, seek_id: str, player: Player) -> tuple[dict[str, Any], bool]:
        """``player`` takes the next seat; the seek and whether this join filled it (then
        the caller starts its game, :meth:`started`). Refusals: 404, 403 (a rated seek
        and a guest), 409 (in it already, full, started, cancelled)."""
        self.expire()
        for _attempt in range(RETRIES):
            row = self._current(seek_id)
            if row is None:
                raise ServiceError(404, _("no such seek"))
            if row.status != OPEN:
                raise ServiceError(409, _seek_done(row.status))
            joined = json.loads(row.joined)
            spec = json.loads(row.spec)
            if any(entry["id"] == player.id for entry in joined):
                raise ServiceError(409, _("you have a seat in this seek already"))
            people = spec["seats"] - len(spec["computers"])
            if len(joined) >= people:
                raise ServiceError(409, _("this seek is full: its game is starting"))
            if row.rated and not player.account:
                raise ServiceError(
                    403, _("this seek is rated: rated games are for players with an account")
                )
            after = [*joined, {"id": player.id, "name": player.name}]
            with self.store.writing() as connection:
                changed = connection.execute(
                    update(seeks)
                    .where(
                        seeks.c.id == seek_id,
                        seeks.c.status == OPEN,
                        seeks.c.joined == row.joined,
                    )
                    .values(joined=json.dumps(after))
                ).rowcount
                taken = self._row(connection, seek_id) if changed == 1 else None
            if taken is not None:  # committed: now the others may hear of it
                self._changed(seek_id)
                return self.shown(taken, player.id), len(after) == people
        raise ServiceError(409, _("this seek changed too often at the same moment: try again"))

    def started(self, seek_id: str, game_id: str) -> None:
        """The seek's game is made: its id. No token is kept: each joined player's seat is
        bound to them (:mod:`.seating`), and their cookie opens it."""
        with self.store.writing() as connection:
            connection.execute(
                update(seeks).where(seeks.c.id == seek_id).values(status=STARTED, game_id=game_id)
            )
        self._changed(seek_id)

    def failed(self, seek_id: str) -> None:
        """The filled seek's game could not be made: cancelled, not left full for ever."""
        with self.store.writing() as connection:
            connection.execute(
                update(seeks)
                .where(seeks.c.id == seek_id, seeks.c.status == OPEN)
                .values(status=CANCELLED)
            )
        self._changed(seek_id)

    def cancel(self, seek_id: str, player: Player) -> dict[str, Any]:
        """The owner withdraws an open seek (403 for anyone else, 409 once started)."""
        with self.store.writing() as connection:
            row = self._row(connection, seek_id)
            if row is None:
                raise ServiceError(404, _("no such seek"))
            if row.owner != player.id:
                raise ServiceError(403, _("only the seek's owner may cancel it"))
            changed = connection.execute(
                update(seeks)
                .where(seeks.c.id == seek_id, seeks.c.status == OPEN)
                .values(status=CANCELLED)
            ).rowcount
            if changed != 1:
                raise ServiceError(409, _seek_done(row.status))
            row = self._row(connection, seek_id)
        self._changed(seek_id)
        return self.shown(row, player.id)

    def matching(self, player: Player, spec: dict[str, Any]) -> list[str]:
        """Quick pairing: the open casual two-player seeks of this game and clock that
        others offer, oldest first."""
        self.expire()
        with self.store.reading() as connection:
            rows = connection.execute(
                select(seeks)
                .where(seeks.c.status == OPEN, seeks.c.owner != player.id, seeks.c.rated.is_(False))
                .order_by(seeks.c.created)
                .limit(200)
            ).all()
        found = []
        for row in rows:
            theirs = json.loads(row.spec)
            if (
                theirs["variant"] == spec["variant"]
                and theirs["seats"] == 2
                and not theirs["computers"]
                and not theirs["house_rules"]
                and theirs["clock"] == spec["clock"]
                and len(json.loads(row.joined)) < 2
            ):
                found.append(row.id)
        return found


def _seek_done(status: str) -> str:
    """The refusal of a seek no longer open (started or cancelled)."""
    if status == STARTED:
        return _("this seek has been started already")
    if status == CANCELLED:
        return _("this seek has been cancelled already")
    return _("this seek has been {status} already", status=status)


# -- the lobby's pushes (issue 29) -------------------------------------------------------


class SeekPoller(Feed):
    """The seeks' change feed on SQLite: a look at the open seeks (and those made in the
    last :data:`RECENT` seconds) every ``interval`` seconds, reporting each seek that
    appeared, changed (a seat taken, started, cancelled) or closed since the last look.
    Both indexed reads (:data:`~.db.seeks` by status and time); the changes this process
    made come too (told already: the :class:`Lobby` sends nothing twice that is the same
    list, and a seek's news again is harmless)."""

    def __init__(self, seeks_: SeekStore, on_change: OnChange, interval: float) -> None:
        super().__init__(on_change)
        self.seeks = seeks_
        self.interval = interval
        self.last = self.look()

    def look(self) -> dict[str, tuple[str, int]]:
        """Each seek looked at: its status and the length of its joined players."""
        shown = (seeks.c.id, seeks.c.status, func.length(seeks.c.joined))
        closed = (
            seeks.c.status.in_([STARTED, CANCELLED]),
            seeks.c.created > self.seeks.now() - RECENT,
        )
        with self.seeks.store.reading() as connection:
            rows = connection.execute(
                union_all(
                    select(*shown).where(seeks.c.status == OPEN), select(*shown).where(*closed)
                )
            ).all()
        return {str(row[0]): (str(row[1]), int(row[2])) for row in rows}

    def poll(self) -> None:
        """One look: report what changed since the last."""
        now = self.look()
        before, self.last = self.last, now
        for seek_id, state in now.items():
            if before.get(seek_id) != state:
                self._deliver(seek_id, 0)
        for seek_id, (status, _length) in before.items():
            if seek_id not in now and status == OPEN:  # closed, and made a while ago
                self._deliver(seek_id, 0)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.poll()
            except Exception:  # a busy or vanished file: try again at the next look
                log.exception("the lobby's change feed could not read the database")


class SeekListener(PostgresListener):
    """The seeks' change feed on PostgreSQL: ``LISTEN`` on :data:`CHANNEL`; back after a
    failure, any seek may have changed meanwhile (:data:`ANY`)."""

    def _catch_up(self, connection: Any, since: float) -> None:
        self._deliver(ANY, 0)


class Listener:
    """A lobby socket: its connection, its player (None: no session cookie) and the text
    of the last list of seeks it was sent."""

    def __init__(self, connection: connections.Connection, player: str | None) -> None:
        self.connection = connection
        self.player = player
        self.listed: str | None = None


class Lobby:
    """The lobby's sockets on this process and the news of the seeks that reaches them.

    A change (a seek made, joined, started, cancelled or expired), from this process
    (:attr:`SeekStore.on_change`, also sent to the others on PostgreSQL) or from another
    (the seeks' change feed, started with the first socket), marks its seek; one task at
    a time then reads, on a thread, the open seeks and the marked seeks, encodes them
    there once, and offers every socket the list if it is not the one it has, and each
    player the seeks of theirs that changed. The reads follow one another, so no socket
    is ever sent an older list after a newer one; many changes at once make one read."""

    def __init__(self, seeks_: SeekStore) -> None:
        self.seeks = seeks_
        store = seeks_.store
        self.listeners: dict[connections.Connection, Listener] = {}
        self.players: dict[str, set[Listener]] = {}
        self.origin = secrets.token_hex(6)
        self.notifier = (
            PostgresNotifier(psycopg_arguments(store.url), self.origin, CHANNEL)
            if store.postgresql
            else None
        )
        self.feed: Feed | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._starting: asyncio.Lock | None = None
        self._marked: set[str] = set()
        self._due = False
        self._pushing: asyncio.Task[None] | None = None
        self._closed = False
        seeks_.on_change = self.changed

    # -- news, from any thread --------------------------------------------------------------

    def changed(self, seek_ids: list[str]) -> None:
        """Seeks this process changed (committed): the other processes are told, and the
        sockets here."""
        for seek_id in seek_ids:
            if self.notifier is not None:
                self.notifier.note(seek_id, 0)
            self.heard(seek_id)

    def heard(self, seek_id: str, _seq: int = 0) -> None:
        """A seek changed (:data:`ANY`: any may have): marked, for a push on the loop."""
        loop = self._loop
        if loop is None:  # no socket yet: nobody to tell
            return
        with contextlib.suppress(RuntimeError):  # the loop has closed
            loop.call_soon_threadsafe(self._mark, seek_id)

    # -- on the event loop ------------------------------------------------------------------

    def _mark(self, seek_id: str | None) -> None:
        if seek_id is not None:
            self._marked.add(seek_id)
        self._due = True
        if not self._closed and (self._pushing is None or self._pushing.done()):
            self._pushing = asyncio.ensure_future(self._push())

    async def _push(self) -> None:
        while self._due and not self._closed:
            marked, self._marked, self._due = self._marked, set(), False
            players = set(self.players)
            try:
                listed, theirs = await asyncio.to_thread(self._news, marked, players)
            except Exception:  # the database away for a moment: the same again soon
                log.exception("the lobby could not read the seeks")
                self._marked |= marked
                self._due = True
                await asyncio.sleep(1.0)
                continue
            text = listed.text()
            for listener in list(self.listeners.values()):
                if listener.listed != text:
                    listener.listed = text
                    listener.connection.send(listed)
            for player, message in theirs:
                for listener in list(self.players.get(player, ())):
                    listener.connection.send(message)

    def _news(
        self, marked: set[str], players: set[str]
    ) -> tuple[Encoded, list[tuple[str, Encoded]]]:
        """On a thread: the list of open seeks, and the marked seeks for each of their
        players listening here, each encoded once."""
        listed = Encoded(type="seeks", seeks=self.seeks.listed())
        listed.text()
        theirs: list[tuple[str, Encoded]] = []
        for row in self.seeks.rows(marked) if marked and players else []:
            for entry in json.loads(row.joined):
                if entry["id"] in players:
                    message = Encoded(type="seek", seek=SeekStore.shown(row, entry["id"]))
                    message.text()
                    theirs.append((entry["id"], message))
        return listed, theirs

    async def _listen(self) -> None:
        """The seeks' change feed, from the first socket until :meth:`close` (none for a
        database in memory: no other process)."""
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            store = self.seeks.store
            if self.feed is not None or self._closed or in_memory(store.url):
                return
            feed: Feed
            if store.postgresql:
                connect = psycopg_arguments(store.url)
                feed = SeekListener(connect, self.heard, self.origin, CHANNEL)
            else:
                feed = await asyncio.to_thread(
                    SeekPoller, self.seeks, self.heard, store.poll_interval
                )
            await asyncio.to_thread(feed.start)  # listening once this returns
            self.feed = feed

    async def enter(self, connection: connections.Connection, player: str | None) -> Listener:
        """A socket in: sent the list now, and the news from now on."""
        self._loop = asyncio.get_running_loop()
        listener = Listener(connection, player)
        self.listeners[connection] = listener
        if player is not None:
            self.players.setdefault(player, set()).add(listener)
        try:
            await self._listen()
        except BaseException:
            self.leave(listener)
            raise
        self._mark(None)  # its first list: read after it came in (nothing missed)
        return listener

    def leave(self, listener: Listener) -> None:
        self.listeners.pop(listener.connection, None)
        if listener.player is not None:
            mine = self.players.get(listener.player)
            if mine is not None:
                mine.discard(listener)
                if not mine:
                    del self.players[listener.player]

    async def close(self) -> None:
        """Stop the feed and the pushes; send the last notes to the other processes."""
        self._closed = True
        pushing = self._pushing
        if pushing is not None and not pushing.done():
            pushing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pushing
        if self.feed is not None:
            await asyncio.to_thread(self.feed.stop)
            self.feed = None
        if self.notifier is not None:
            await asyncio.to_thread(self.notifier.close)
        self._loop = None


# -- starting a game ---------------------------------------------------------------------


async def start_game(service: GameService, seek: dict[str, Any]) -> str:
    """Create the filled seek's online game: the joined people in seat order (the owner
    first), then the computer seats, each seat bound to its player (the owner's on
    creation, the others' by their invitations, claimed here); the game's id."""
    players = [Seat(name=p["name"]) for p in seek["players"]]
    players += [
        Seat(name=shown_name(bot_player_id(level), "", "bot"), bot=level)
        for level in seek["computers"]
    ]
    fields: dict[str, Any] = {
        "variant": seek["variant"],
        "players": players,
        "mode": "online",
        "seat": 0,
        "house_rules": seek["house_rules"],
    }
    for extra in ("clock", "rated"):  # once new games take them (the contract), passed on
        if extra in NewGame.model_fields:
            fields[extra] = seek[extra]
    joined = [str(p["id"]) for p in seek["players"]]
    made = await service.create(NewGame(**fields), joined[0])
    game_id = str(made["id"])
    for entry, player_id in zip(made["seats"], joined, strict=False):
        if entry["invite"]:
            invite = str(entry["invite"]).rpartition("invite=")[2]
            await service.join(game_id, invite, player_id)
    return game_id


# -- the routes --------------------------------------------------------------------------


def get_seeks(request: Request) -> SeekStore:
    found: SeekStore = request.app.state.seeks
    return found


SeeksDep = Annotated[SeekStore, Depends(get_seeks)]

router = APIRouter(prefix="/api", tags=["lobby"], responses=REFUSALS)
page = APIRouter(include_in_schema=False)
seek_limited = [Depends(rate_limited("seek"))]
LOBBY = "lobby"
"""The lobby's sockets' key in :class:`~.connections.Admissions` (counted by address)."""


@page.get("/lobby")
async def lobby_page() -> HTMLResponse:
    return html_page()


@router.get("/seeks", summary="The open seeks, newest first", response_model=list[SeekOut])
async def list_seeks(
    seeks_: SeeksDep, limit: Annotated[int, Query(ge=1, le=LISTED)] = LISTED
) -> list[dict[str, Any]]:
    """Seeks with a free seat (the lobby's socket, ``/api/lobby/ws``, pushes them; the page
    polls this only while its socket is down)."""
    return await asyncio.to_thread(seeks_.listed, limit)


@router.post(
    "/seeks",
    status_code=201,
    summary="Offer a game in the lobby",
    response_model=SeekOut,
    dependencies=seek_limited,
)
async def create_seek(body: SeekIn, player: MeDep, seeks_: SeeksDep) -> dict[str, Any]:
    """The session's player offers a game and holds its first seat; a rated seek needs an
    account (403); at most three open seeks each (409)."""
    spec = checked_spec(body)
    return await asyncio.to_thread(seeks_.create, player, spec, body.rated)


async def _join(
    seek_id: str, player: Player, seeks_: SeekStore, service: GameService
) -> dict[str, Any]:
    seek, filled = await asyncio.to_thread(seeks_.join, seek_id, player)
    if filled:
        try:
            game_id = await start_game(service, seek)
        except BaseException:
            await asyncio.to_thread(seeks_.failed, seek_id)
            raise
        await asyncio.to_thread(seeks_.started, seek_id, game_id)
        seek = await asyncio.to_thread(seeks_.get, seek_id, player.id)
    return seek


@router.post(
    "/seeks/quick", summary="Play anyone", response_model=SeekOut, dependencies=seek_limited
)
async def quick(
    body: QuickIn, player: MeDep, seeks_: SeeksDep, service: ServiceDep
) -> dict[str, Any]:
    """Join the oldest open casual two-player seek of this game and clock, or offer one."""
    spec = checked_spec(SeekIn(variant=body.variant, clock=body.clock))
    for seek_id in await asyncio.to_thread(seeks_.matching, player, spec):
        try:
            return await _join(seek_id, player, seeks_, service)
        except ServiceError as exc:
            if exc.status != 409:  # taken by another at the same moment: the next one
                raise
    for seek in await asyncio.to_thread(seeks_.mine, player.id):  # pressed again: the same
        same = {key: seek[key] for key in spec} == spec and seek["owner"]["id"] == player.id
        if same and seek["status"] == OPEN and not seek["rated"]:
            return seek
    return await asyncio.to_thread(seeks_.create, player, spec, False)


@router.get(
    "/seeks/{seek_id}", summary="A seek (my seat's token once started)", response_model=SeekOut
)
async def get_seek(seek_id: str, player: MeDep, seeks_: SeeksDep) -> dict[str, Any]:
    return await asyncio.to_thread(seeks_.get, seek_id, player.id)


@router.post("/seeks/{seek_id}/join", summary="Take a seat in a seek", response_model=SeekOut)
async def join_seek(
    seek_id: str, player: MeDep, seeks_: SeeksDep, service: ServiceDep
) -> dict[str, Any]:
    """The next seat is mine; the last person's seat starts the game (my token in the
    answer, the others' in their ``GET /api/seeks/{id}``)."""
    return await _join(seek_id, player, seeks_, service)


@router.delete("/seeks/{seek_id}", summary="Cancel my seek", response_model=SeekOut)
async def cancel_seek(seek_id: str, player: MeDep, seeks_: SeeksDep) -> dict[str, Any]:
    return await asyncio.to_thread(seeks_.cancel, seek_id, player)


@router.websocket("/lobby/ws")
async def lobby_socket(websocket: WebSocket) -> None:
    """The lobby, pushed: ``{"type": "seeks", "seeks": [...]}`` (as ``GET /api/seeks``)
    now and whenever the open seeks change, and, for the session cookie's player,
    ``{"type": "seek", "seek": {...}}`` (as ``GET /api/seeks/{id}``) whenever a seek they
    are in changes: joined, started (its ``game_id``: the game to open), cancelled. The
    client sends nothing (frames are read within the limits all the same: 1003, 1009,
    1008); a list not yet sent is replaced by the newest, a reader that does not read is
    dropped (1008), and the sockets from one address are capped (:mod:`.connections`)."""
    await websocket.accept()
    admissions: Admissions = websocket.app.state.admissions
    address = websocket.client.host if websocket.client else ""
    refused = admissions.enter(LOBBY, address, spectator=False)
    if refused is not None:
        code, reason = refused
        await refuse(websocket, 429, reason, code)
        return
    hub: Lobby = websocket.app.state.lobby
    connection = connections.Connection(websocket, admissions.limits, newest="seeks")
    listener: Listener | None = None
    try:
        listener = await hub.enter(connection, cookie_player(websocket))
        async for _text in connection.frames():
            pass  # nothing is asked here
    finally:
        if listener is not None:
            hub.leave(listener)
        admissions.leave(LOBBY, address, spectator=False)
        await connection.close()


def game_entry(game: dict[str, Any]) -> dict[str, Any]:
    """One of my games being played (:meth:`GameService.player_games`), shaped as a seek
    (``kind`` game) so that the list keeps one shape."""
    spec, seats = game["spec"], game["seats"]
    shown = [
        {
            "id": str(s.get("player") or (bot_player_id(s["bot"]) if s.get("bot") else "")),
            "name": s["name"],
        }
        for s in seats
    ]
    return {
        "id": game["id"],
        "owner": shown[0],
        "variant": spec["variant"],
        "seats": len(seats),
        "computers": [s["bot"] for s in seats if s.get("bot")],
        "house_rules": spec.get("house_rules", {}),
        "clock": spec.get("clock"),
        "rated": bool(spec.get("rated", False)),
        "players": [p for p, s in zip(shown, seats, strict=True) if not s.get("bot")],
        "open_seats": 0,
        "status": "playing",
        "game_id": game["id"],
        "created": game["created"],
        "seat": game["seat"],
        "kind": "game",
        "your_turn": game["your_turn"],
        "token": None,
    }


@router.get("/me/games", summary="My games and seeks", response_model=list[SeekOut])
async def my_games(player: MeDep, seeks_: SeeksDep, service: ServiceDep) -> list[dict[str, Any]]:
    """My games being played first (``kind`` game: those where it is my turn first, each
    opened by my session cookie at ``/g/{game_id}``), then the seeks I offered or joined,
    open or started, newest first."""
    games = await service.player_games(player.id)
    return [game_entry(g) for g in games] + await asyncio.to_thread(seeks_.mine, player.id)


def install(app: FastAPI, store: EventStore) -> None:
    """The seeks' store (``app.state.seeks``), the lobby's pushes (``app.state.lobby``:
    :func:`close` it at shutdown), its page and routes."""
    app.state.seeks = SeekStore(store)
    app.state.lobby = Lobby(app.state.seeks)
    app.include_router(page)
    app.include_router(router)


async def close(app: FastAPI) -> None:
    """At shutdown: the lobby's feed stopped, its last notes sent."""
    hub: Lobby | None = getattr(app.state, "lobby", None)
    if hub is not None:
        await hub.close()
