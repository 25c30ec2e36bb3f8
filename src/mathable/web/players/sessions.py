"""Sessions kept on the server (issue 30, "Sessions kept on the server"), as lichess keeps
them: one row per log-in (:data:`~.db.sessions`: id, player, created, last seen, user
agent), the session cookie holding only its signed id (:mod:`.accounts`).

- A **log-in or a sign-up** opens a new session and ends the one the browser had, so a
  cookie planted in a victim's browser before they sign up is never their account
  (session fixation). **Logging out** deletes the row: the old cookie is a stranger's.
- **"Log out everywhere"** and a **password change** end every session of the account
  (this browser gets a new one).
- A session lasts :data:`LIFETIME` from its last use (sliding); ``last_seen`` is raised
  at most every :data:`TOUCH_EVERY` seconds, not on every request.
- A **guest** is known by their cookie alone (a signed random id, no row) until their
  first write (a seek, a game, a chat line, a rename, a sign-up): only then are their
  player row and session row made. Their player id and name derive from the cookie's id
  (:meth:`SessionStore.guest_id`), so they are the same before and after. A cookie whose
  id names no session while its guest player exists has been ended: a fresh guest.

Every method is one blocking transaction (or two): the routes call them in a thread. The
clock is injected (tests move it).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import Depends
from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection

from mathable.i18n import _
from mathable.web.infra.db import is_unique_violation, players, sessions
from mathable.web.infra.errors import ServiceError
from mathable.web.players.players import PERSON, Player, PlayerStore
from mathable.web.players.seating import SESSION_KEY, cookie_player

Clock = Callable[[], float]

LIFETIME = 30 * 24 * 60 * 60
"""A session ends this many seconds after its last use (30 days, sliding)."""
TOUCH_EVERY = 60
"""``last_seen`` is written at most this often (seconds): one write a minute, not one a
request."""
MAX_USER_AGENT = 300
"""The characters of a ``User-Agent`` kept (the rest cut)."""
GUEST_NUMBERS = 9000
"""How many "Guest" numbers a guest's name is drawn from (1000 and up)."""

State = Literal["live", "light", "ended"]
"""What a cookie's id is: a ``live`` session (its row), a ``light`` guest (no row yet), or
``ended`` (logged out, revoked, expired: the cookie is worth a fresh guest)."""


@dataclass(frozen=True)
class Session:
    """A session as its owner sees it (``GET /api/me/sessions``)."""

    id: str
    created: float
    last_seen: float
    user_agent: str
    current: bool

    def shown(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "created": self.created,
            "last_seen": self.last_seen,
            "user_agent": self.user_agent,
            "current": self.current,
        }


@dataclass(frozen=True)
class Found:
    """What a cookie's id comes to (:meth:`SessionStore.resolve`): its state, its player
    when ``live``, and whether ``last_seen`` was just raised (the cookie is sent again, so
    its expiry slides too)."""

    state: State
    player: Player | None = None
    touched: bool = False


def handle(session_id: str) -> str:
    """The public name of a session (its list, its revocation): a hash of its id, so the
    id itself, the cookie's secret part, never leaves the cookie."""
    return hashlib.sha256(session_id.encode("ascii")).hexdigest()[:20]


def new_id() -> str:
    """A new session id: 256 random bits."""
    return secrets.token_urlsafe(32)


class SessionStore:
    """The sessions of the database of ``players`` (its store and its transactions).
    ``key`` derives guests' ids from their cookies' (the cookie signing key will do: it
    is secret and shared by every process)."""

    def __init__(
        self,
        players_: PlayerStore,
        key: str,
        *,
        clock: Clock = time.time,
        lifetime: float = LIFETIME,
    ) -> None:
        self.players = players_
        self.store = players_.store
        self._key = key.encode("utf-8")
        self.clock = clock
        self.lifetime = lifetime

    # -- guests known by their cookie alone -------------------------------------------------

    def _digest(self, purpose: str, session_id: str) -> bytes:
        return hmac.new(self._key, f"{purpose}:{session_id}".encode(), hashlib.sha256).digest()

    def guest_id(self, session_id: str) -> str:
        """The player id of the guest of this cookie id (the same before and after their
        row is made); nobody can tell it from the id without the key."""
        return base64.urlsafe_b64encode(self._digest("guest", session_id)[:12]).decode("ascii")

    def guest(self, session_id: str) -> Player:
        """The guest of this cookie id as the API shows them before their first write:
        no row yet, the name their row will have."""
        number = 1000 + int.from_bytes(self._digest("name", session_id)[:8], "big") % GUEST_NUMBERS
        # TRANSLATORS: the name a visitor is given on a first visit (kept as their name)
        name = _("Guest {number}", number=number)
        return Player(self.guest_id(session_id), name, PERSON, False, self.clock())

    def materialize(self, session_id: str, user_agent: str) -> Player:
        """The guest of this cookie id, written: their player row and their session row,
        on their first write. Two first writes at once make them once."""
        light = self.guest(session_id)
        try:
            self.players.new_guest(player_id=light.id, name=light.name)
        except IntegrityError as exc:  # another request of the same browser made it first
            if not is_unique_violation(exc):
                raise
        now = self.clock()
        try:
            with self.store.writing() as connection:
                connection.execute(
                    insert(sessions).values(
                        id=session_id,
                        player_id=light.id,
                        created=now,
                        last_seen=now,
                        user_agent=user_agent[:MAX_USER_AGENT],
                    )
                )
        except IntegrityError as exc:
            if not is_unique_violation(exc):
                raise
        found = self.players.get(light.id)
        if found is None:  # pragma: no cover - made just above, and never deleted
            raise ServiceError(404, _("no such player"))
        return found

    # -- reading a cookie -----------------------------------------------------------------

    def resolve(self, session_id: str, *, touch: bool = True) -> Found:
        """What this cookie id is now. A live session last seen :data:`TOUCH_EVERY` ago or
        more is seen again (when ``touch``); one unused for :attr:`lifetime` is deleted."""
        now = self.clock()
        with self.store.reading() as connection:
            row = connection.execute(
                select(sessions.c.last_seen, players)
                .join(players, players.c.id == sessions.c.player_id)
                .where(sessions.c.id == session_id)
            ).one_or_none()
            if row is None:
                guest = connection.execute(
                    select(players.c.id).where(players.c.id == self.guest_id(session_id))
                ).first()
                return Found("ended" if guest is not None else "light")
        if now - row.last_seen > self.lifetime or row.kind != PERSON:
            self.end(session_id)
            return Found("ended")
        player = Player(row.id, row.name, row.kind, row.password_hash is not None, row.created)
        if not touch or now - row.last_seen < TOUCH_EVERY:
            return Found("live", player)
        with self.store.writing() as connection:
            connection.execute(
                update(sessions).where(sessions.c.id == session_id).values(last_seen=now)
            )
        return Found("live", player, touched=True)

    # -- opening and ending ---------------------------------------------------------------

    def open(
        self, player_id: str, user_agent: str, *, ending: str | None = None, every: bool = False
    ) -> str:
        """A new session of ``player_id`` (its id); the session ``ending`` ends (the one
        the browser had), and with ``every`` all the player's others too."""
        session_id = new_id()
        now = self.clock()
        with self.store.writing() as connection:
            if every:
                connection.execute(delete(sessions).where(sessions.c.player_id == player_id))
            else:  # the player's expired sessions go with the log-in
                connection.execute(
                    delete(sessions).where(
                        sessions.c.player_id == player_id,
                        sessions.c.last_seen < now - self.lifetime,
                    )
                )
            if ending is not None:
                connection.execute(delete(sessions).where(sessions.c.id == ending))
            connection.execute(
                insert(sessions).values(
                    id=session_id,
                    player_id=player_id,
                    created=now,
                    last_seen=now,
                    user_agent=user_agent[:MAX_USER_AGENT],
                )
            )
        return session_id

    def end(self, session_id: str) -> None:
        """Delete this session (logging out): its cookie is a stranger's from now on."""
        with self.store.writing() as connection:
            connection.execute(delete(sessions).where(sessions.c.id == session_id))

    def end_one(self, player_id: str, shown_id: str) -> None:
        """End the session of ``player_id`` listed as ``shown_id`` (:func:`handle`);
        404 if the player has none such."""
        with self.store.writing() as connection:
            ids = connection.execute(
                select(sessions.c.id).where(sessions.c.player_id == player_id)
            ).scalars()
            found = [session_id for session_id in ids if handle(session_id) == shown_id]
            if not found:
                raise ServiceError(404, _("field 'id': no such session of yours"))
            connection.execute(delete(sessions).where(sessions.c.id == found[0]))

    def count(self, player_id: str) -> int:
        """How many sessions the player has (ended ones aside)."""
        return len(self.of(player_id, None))

    def of(self, player_id: str, current: str | None) -> list[Session]:
        """The player's sessions, the most recently seen first; ``current`` (this
        browser's id) marked. Expired ones are not listed."""
        since = self.clock() - self.lifetime
        with self.store.reading() as connection:
            found = connection.execute(
                select(sessions)
                .where(sessions.c.player_id == player_id, sessions.c.last_seen >= since)
                .order_by(sessions.c.last_seen.desc(), sessions.c.created.desc())
            ).all()
        return [
            Session(handle(row.id), row.created, row.last_seen, row.user_agent, row.id == current)
            for row in found
        ]


# -- the visitor of a request ------------------------------------------------------------

VISITOR = "mathable.visitor"
"""The scope's entry holding the request's (or socket's) :class:`Visitor`."""


class Visitor:
    """Who a request or a socket comes from, as its session cookie says (read once by
    :class:`~.accounts.SessionCookies`): a live session's player, or a guest known by
    the cookie alone. The scope's ``session`` (:func:`~.seating.cookie_player`) of a
    request names the player only once they have a row: a spectator's read makes
    nothing, and nothing is bound to a player without one."""

    def __init__(
        self,
        sessions_: SessionStore,
        session: dict[str, Any],
        session_id: str | None,
        found: Found | None,
        user_agent: str,
        *,
        socket: bool = False,
    ) -> None:
        self.sessions = sessions_
        self.socket = socket
        self.session = session
        self.user_agent = user_agent[:MAX_USER_AGENT]
        self.player = found.player if found is not None else None
        self.session_id = session_id if found is not None and found.state != "ended" else None
        self.live = found is not None and found.state == "live"
        """Whether :attr:`session_id` has its row (a log-in, or a guest who wrote)."""
        self.changed = found is not None and (found.touched or found.state == "ended")
        """Whether the answer sends the cookie (again): a new id, or a session seen again."""
        if found is not None and found.state == "ended":
            self._new_id()
        self._name_player()

    def _name_player(self) -> None:
        """The scope's ``session`` names the player with a row; a socket's names a guest
        known by their cookie alone too (the lobby then tells them of the seek they offer
        next: their row is made then, with this id), as nothing is bound to a socket's."""
        self.session.clear()
        if self.player is not None:
            self.session[SESSION_KEY] = self.player.id
        elif self.socket and self.session_id is not None and not self.changed:
            self.session[SESSION_KEY] = self.sessions.guest_id(self.session_id)

    def _new_id(self) -> str:
        self.session_id = new_id()
        self.live = False
        self.changed = True
        return self.session_id

    def reader(self) -> Player:
        """The player, or the guest this cookie names (a new cookie if it had none): no
        row is made."""
        if self.player is not None:
            return self.player
        session_id = self.session_id or self._new_id()
        return self.sessions.guest(session_id)

    async def writer(self) -> Player:
        """The player, made now if the cookie named a guest without a row (their first
        write): a new cookie first if there was none."""
        if self.player is not None:
            return self.player
        session_id = self.session_id or self._new_id()
        self.player = await asyncio.to_thread(
            self.sessions.materialize, session_id, self.user_agent
        )
        self.live = True
        self._name_player()
        return self.player

    def switch(self, session_id: str | None, player: Player | None) -> None:
        """This browser's session is now ``session_id`` of ``player`` (a log-in, a
        sign-up, a new session after "log out everywhere"), or with None a fresh
        guest's (a log-out)."""
        self.player = player
        if session_id is None:
            self._new_id()
        else:
            self.session_id, self.live, self.changed = session_id, True, True
        self._name_player()


def visitor_of(connection: HTTPConnection) -> Visitor:
    """The visitor of a request (:class:`~.accounts.SessionCookies` is installed)."""
    found: Visitor = connection.scope[VISITOR]
    return found


async def written_player(connection: HTTPConnection) -> str | None:
    """The player id a write binds (a created game's seat, an invitation claimed): the
    session cookie's player, made now for a guest known by their cookie alone; None
    without a cookie (an API client holding tokens) or without sessions installed."""
    visitor: Visitor | None = connection.scope.get(VISITOR)
    if visitor is None or visitor.session_id is None:
        return cookie_player(connection)
    return (await visitor.writer()).id


async def session_player(connection: HTTPConnection) -> str | None:
    """:func:`cookie_player` as a dependency of a write: a guest known by their cookie
    alone gets their player row now (:func:`.sessions.written_player`)."""
    return await written_player(connection)


SessionPlayerDep = Annotated[str | None, Depends(session_player)]
"""The player a created game's or a claimed invitation's seat is bound to: the session
cookie's, if the request has one (the page makes sure it has: ``GET /api/me``). Without
a session (an API client holding tokens), nothing is bound and tokens alone open seats,
as before."""
