"""Players and accounts (issue 15, "Players"): who is at the table, kept in the database
beside the games (:data:`~.db.players`).

- A **guest** is made on a first visit, with a display name ("Guest 4821"); the session
  cookie (:mod:`.accounts`) holds its id, so nobody types a token.
- An **account** is a guest who chose a name (unique whatever its case) and a password,
  kept as an argon2 hash only (never in clear, never logged): the same player on every
  device that logs in.
- A **computer player** is a player of kind ``bot``, one per level of
  :data:`mathable.ai.BOTS` (``bot-strong``), made once by whichever process starts first.

Every method is one blocking transaction: the routes call them in a thread.
"""

from __future__ import annotations

import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError

from mathable.ai import BOTS, bot_player_id
from mathable.engine.validation import shown
from mathable.i18n import _, lazy
from mathable.online import names
from mathable.web.infra.db import is_unique_violation, players
from mathable.web.infra.errors import ServiceError
from mathable.web.infra.store import EventStore
from mathable.web.players.guessing import GuessLimiter
from mathable.web.ratings.standings import shown_name

PERSON = "person"
BOT = "bot"
MIN_PASSWORD = 8
MAX_PASSWORD = 200
"""A password's bounds, in characters (the upper one: argon2's work stays bounded)."""
WRONG_LOGIN = lazy("wrong name or password")
"""The one answer to a failed log-in, whichever of the two was wrong."""


def password_hasher() -> PasswordHasher:
    """argon2id at argon2-cffi's defaults (RFC 9106's low-memory profile: 3 passes over
    64 MiB, 4 lanes), the work a password costs to check. A stored hash made with weaker
    parameters is made again at the next log-in. The tests put a cheap hasher here, as
    Django's test settings do: a hash is ~0.1 s of CPU and the suite makes many."""
    return PasswordHasher()


GUEST_NUMBERS = 9_000_000
"""How many numbers a new guest's name ("Guest 4821937") is drawn from, 1000000 and up:
a guest's name is unique among the guests, drawn again on the rare repeat."""


@dataclass(frozen=True)
class Player:
    """A player as the API shows it: ``account`` is False for a guest (and a bot)."""

    id: str
    name: str
    kind: str
    account: bool
    created: float

    def me(self) -> dict[str, Any]:
        """What ``GET /api/me`` answers: the player behind the cookie."""
        name = shown_name(self.id, self.name, self.kind)
        return {"id": self.id, "name": name, "kind": self.kind, "account": self.account}

    def profile(self) -> dict[str, Any]:
        """What anyone may see: ``GET /api/players/{id}``."""
        name = shown_name(self.id, self.name, self.kind)
        return {"id": self.id, "name": name, "kind": self.kind, "created": self.created}


def name_key(name: str) -> str:
    """What makes two account names the same: case, width and spacing aside
    (``"Ann  Lee"`` and ``"ann lee"`` are one name)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


bot_id = bot_player_id
"""A computer level's player id (:func:`mathable.ai.bot_player_id`)."""


class PlayerStore:
    """The players of the database of ``store`` (its engine and transactions)."""

    def __init__(self, store: EventStore, hasher: PasswordHasher | None = None) -> None:
        self.store = store
        self.hasher = hasher or password_hasher()
        # a log-in with an unknown name still verifies a hash: as slow as a wrong password
        self._decoy = self.hasher.hash(secrets.token_urlsafe(16))
        self.guesses = GuessLimiter(store)
        """Failed log-ins per name, in the database (issue 30)."""

    # -- reading --------------------------------------------------------------------------

    @staticmethod
    def _player(row: Any) -> Player:
        return Player(row.id, row.name, row.kind, row.password_hash is not None, row.created)

    @staticmethod
    def _row(connection: Connection, player_id: str) -> Any:
        return connection.execute(select(players).where(players.c.id == player_id)).one_or_none()

    def get(self, player_id: str) -> Player | None:
        """The player of this id (None: none)."""
        with self.store.reading() as connection:
            row = self._row(connection, player_id)
        return None if row is None else self._player(row)

    # -- guests and names -----------------------------------------------------------------

    def new_guest(self, player_id: str | None = None, name: str | None = None) -> Player:
        """A new anonymous player, "Guest" and seven digits, a name no other player
        has (drawn again if one has: issue 30); ``player_id`` and ``name``
        given: the guest a session cookie named before their first write (:mod:`.sessions`)."""
        player_id = player_id or secrets.token_urlsafe(12)
        name = name or guest_name()
        now = time.time()
        for attempt in range(8):
            try:
                with self.store.writing() as connection:
                    connection.execute(
                        insert(players).values(
                            id=player_id,
                            name=name,
                            kind=PERSON,
                            created=now,
                            name_skeleton=names.key(name),
                        )
                    )
                break
            except IntegrityError as exc:  # the id made already, or the name another's
                if attempt == 7 or not is_unique_violation(exc) or self.get(player_id):
                    raise
                name = guest_name()  # another guest's name (issue 30): another number
        return Player(player_id, name, PERSON, False, now)

    def rename(self, player_id: str, name: str) -> Player:
        """Change a person's display name (:func:`.names.check`: 400 naming the rule
        broken); it may not look like another player's name, a guest's too, whatever its
        case (409), nor be reserved (409): nobody passes for another."""
        name = self._checked(name)
        skeleton = names.key(name)
        try:
            with self.store.writing() as connection:
                row = self._row(connection, player_id)
                if row is None or row.kind != PERSON:
                    raise ServiceError(404, _("no such player"))
                key: str | None = name_key(name)
                if row.password_hash is None:  # a guest: no key of its own
                    taken = connection.execute(
                        select(players.c.id).where(players.c.name_key == key)
                    ).first()
                    if taken is not None:
                        raise ServiceError(409, name_taken(name))
                    key = None
                connection.execute(
                    update(players)
                    .where(players.c.id == player_id)
                    .values(name=name, name_key=key, name_skeleton=skeleton)
                )
        except IntegrityError as exc:
            raise self._taken(exc, name) from None
        return Player(player_id, name, PERSON, row.password_hash is not None, row.created)

    # -- accounts -------------------------------------------------------------------------

    def register(self, player_id: str, name: str, password: str) -> Player:
        """Turn the guest ``player_id`` into an account: ``name`` passing the rules
        (:func:`.names.check`) and like no other player's (409), the password kept as an
        argon2 hash."""
        name = self._checked(name)
        skeleton = names.key(name)
        digest = self.hasher.hash(self._password(password))
        try:
            with self.store.writing() as connection:
                row = self._row(connection, player_id)
                if row is None or row.kind != PERSON:
                    raise ServiceError(404, _("no such player"))
                if row.password_hash is not None:
                    raise ServiceError(
                        409, _("you have an account already: log out to make another")
                    )
                connection.execute(
                    update(players)
                    .where(players.c.id == player_id)
                    .values(
                        name=name,
                        name_key=name_key(name),
                        name_skeleton=skeleton,
                        password_hash=digest,
                    )
                )
        except IntegrityError as exc:
            raise self._taken(exc, name) from None
        return Player(player_id, name, PERSON, True, row.created)

    def login(self, name: str, password: str) -> Player:
        """The account of this name and password; 401 :data:`WRONG_LOGIN` otherwise
        (the same answer for an unknown name and a wrong password); 429 while the name is
        locked after too many failures (:mod:`.guessing`), an account's or not."""
        guessed = name_key(name).encode("utf-8", "backslashreplace").decode("utf-8")
        self.guesses.check(guessed)
        with self.store.reading() as connection:
            row = connection.execute(
                select(players).where(
                    players.c.name_key == name_key(name),
                    players.c.kind == PERSON,
                    players.c.password_hash.is_not(None),
                )
            ).one_or_none()
        digest = self._decoy if row is None else str(row.password_hash)
        try:
            self.hasher.verify(digest, password)
        except (VerificationError, InvalidHashError):
            self.guesses.failed(guessed)
            raise ServiceError(401, str(WRONG_LOGIN)) from None
        if row is None:  # pragma: no cover - the decoy's password is never guessed
            raise ServiceError(401, str(WRONG_LOGIN))
        self.guesses.succeeded(guessed)
        if self.hasher.check_needs_rehash(digest):  # the hasher's parameters were raised
            with self.store.writing() as connection:
                connection.execute(
                    update(players)
                    .where(players.c.id == row.id)
                    .values(password_hash=self.hasher.hash(password))
                )
        return self._player(row)

    # -- computer players -----------------------------------------------------------------

    def ensure_bots(self) -> None:
        """A player of kind ``bot`` for each computer level, made once (another process
        starting at the same time may make them first)."""
        with self.store.reading() as connection:
            known = set(
                connection.execute(select(players.c.id).where(players.c.kind == BOT)).scalars()
            )
        for level in BOTS:
            if bot_id(level) in known:
                continue
            name = f"Computer ({level})"
            try:
                with self.store.writing() as connection:
                    connection.execute(
                        insert(players).values(
                            id=bot_id(level),
                            name=name,
                            name_key=name_key(name),
                            name_skeleton=names.key(name),
                            kind=BOT,
                            created=time.time(),
                        )
                    )
            except IntegrityError as exc:
                if not is_unique_violation(exc):
                    raise

    # -- passwords ------------------------------------------------------------------------

    def change_password(self, player_id: str, current: str, password: str) -> None:
        """An account's new password (8 to 200 characters), its current one given: 403 if
        wrong, 409 for a guest (no password to change). The caller ends the sessions."""
        digest = self.hasher.hash(self._password(password))
        with self.store.reading() as connection:
            row = self._row(connection, player_id)
        if row is None or row.kind != PERSON or row.password_hash is None:
            raise ServiceError(409, _("make an account first: a guest has no password"))
        try:
            self.hasher.verify(str(row.password_hash), current)
        except (VerificationError, InvalidHashError):
            raise ServiceError(403, _("field 'current': not your password")) from None
        with self.store.writing() as connection:
            connection.execute(
                update(players).where(players.c.id == player_id).values(password_hash=digest)
            )

    # -- checks ---------------------------------------------------------------------------

    @staticmethod
    def _checked(name: str) -> str:
        """The name as kept (:func:`.names.check`); a reserved one is 409, as a taken
        one, the other rules 400."""
        try:
            return names.check(name)
        except names.NameRefused as exc:
            raise ServiceError(409 if exc.rule == "reserved" else 400, str(exc)) from None

    @staticmethod
    def _password(password: str) -> str:
        if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise ServiceError(
                400,
                _(
                    "field 'password': {low} to {high} characters, not {length}",
                    low=MIN_PASSWORD,
                    high=MAX_PASSWORD,
                    length=len(password),
                ),
            )
        return password

    @staticmethod
    def _taken(exc: IntegrityError, name: str) -> Exception:
        if is_unique_violation(exc):
            return ServiceError(409, name_taken(name))
        return exc


def name_taken(name: str) -> str:
    """The refusal of a name another player has (whatever its case or look-alike
    letters)."""
    return _("the name {name} is taken: choose another", name=shown(name))


def guest_name() -> str:
    """A new guest's name: "Guest" and a number of :data:`GUEST_NUMBERS`, in the
    reader's language."""
    # TRANSLATORS: the name a visitor is given on a first visit (kept as their name)
    return _("Guest {number}", number=1_000_000 + secrets.randbelow(GUEST_NUMBERS))
