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

import json
import logging
import secrets
import time
from collections.abc import Callable, Collection
from typing import Any, Literal

from pydantic import BaseModel, Field
from sqlalchemy import Connection, insert, select, update

from mathable.ai import BOTS, bot_player_id
from mathable.engine.spec import SpecError, check_house_rule_names, check_seats
from mathable.games import registry
from mathable.games.registry import GAMES
from mathable.i18n import _, ngettext
from mathable.online.clocks import TimeControlError, parse_time_control
from mathable.online.fairplay import rated_refusal
from mathable.web.infra.db import seeks
from mathable.web.infra.errors import ServiceError, at_field
from mathable.web.infra.store import EventStore
from mathable.web.players.botaccounts import bot_players_among
from mathable.web.players.players import Player
from mathable.web.ratings.standings import shown_name
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
    bot_account: bool = Field(False, description="A bot account: a program plays for it.")


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
    try:
        check_seats(kind, body.seats, "seats")
    except SpecError as exc:
        raise ServiceError(422, exc.text) from None
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
    try:
        check_house_rule_names(kind, body.house_rules)
    except SpecError as exc:
        raise ServiceError(422, exc.text) from None
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
        players = [
            {"id": p["id"], "name": p["name"], "bot_account": bool(p.get("bot_account"))}
            for p in joined
        ]
        owner = {
            "id": row.owner,
            "name": row.owner_name,
            "bot_account": any(p["bot_account"] for p in players if p["id"] == row.owner),
        }
        answer = {
            "id": row.id,
            "owner": owner,
            **spec,
            "rated": bool(row.rated),
            "players": players,
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

    def _seated(self, player: Player) -> dict[str, Any]:
        """``player`` as a seek's ``joined`` keeps them: id and name, and ``bot_account``
        for a bot account's (issue 36: its name is marked BOT wherever the seek is shown,
        the lobby's socket too), looked up once as they take the seat."""
        entry: dict[str, Any] = {"id": player.id, "name": player.name}
        if player.account and bot_players_among(self.store, [player.id]):
            entry["bot_account"] = True
        return entry

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
        seated = self._seated(player)
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
                    joined=json.dumps([seated]),
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
        seated = self._seated(player)
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
            after = [*joined, seated]
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
