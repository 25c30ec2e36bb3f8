"""Challenges (issue 36, the Bot API, as lichess's): one account asks another, by name,
for a two-player game.

A challenge (its game, clock, rated or casual) is a row of :data:`~.db.challenges`, so
every server process sees it and it survives a restart. The challenged account accepts
(the game is made exactly as a filled lobby seek's: :func:`~.seeks.start_game`, the
challenger in the first seat) or declines; the challenger may cancel it; unanswered it
expires after :data:`EXPIRY` seconds. A change is a conditional update on the status (two
answers at once: one wins, the other is told 409), and raises ``updated``, which the
event streams (:mod:`.botstreams`) read. Rated challenges pass the seeks' fair-play checks
(:func:`~.seeks.checked_spec`).
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy import Connection, insert, or_, select, update

from mathable.games.registry import GAMES
from mathable.i18n import _
from mathable.web.infra.db import challenges, players
from mathable.web.infra.errors import ServiceError
from mathable.web.infra.store import EventStore
from mathable.web.lobby.seeks import SeekIn, checked_spec
from mathable.web.players.players import PERSON, Player, name_key

CREATED, ACCEPTED, DECLINED, CANCELED, EXPIRED = (
    "created",
    "accepted",
    "declined",
    "canceled",
    "expired",
)


def answered_already(status: str) -> str:
    """Why a challenge cannot be answered again, in the reader's language."""
    said = {
        ACCEPTED: _("this challenge is accepted already"),
        DECLINED: _("this challenge is declined already"),
        CANCELED: _("this challenge is canceled already"),
        EXPIRED: _("this challenge has expired"),
    }
    return said.get(status, _("this challenge is answered already"))


EXPIRY = 10 * 60
"""Seconds a challenge waits for its answer."""
MAX_OPEN = 10
"""Challenges one player may have waiting at once."""


class ChallengeIn(BaseModel):
    """A challenge's game: two seats, no computer."""

    variant: str = Field(default="classic", description=", ".join(GAMES))
    clock: dict[str, Any] | None = Field(
        default=None,
        description='As seeks: {"minutes": 5, "increment": 3} or {"days": 3}; null: none.',
    )
    rated: bool = False


class ChallengeOut(BaseModel):
    """A challenge as its two players see it."""

    id: str
    status: str = Field(description="created, accepted, declined, canceled or expired.")
    challenger: dict[str, Any] = Field(description="id, name, bot_account")
    dest: dict[str, Any] = Field(description="The challenged: id, name, bot_account")
    variant: str
    clock: dict[str, int] | None
    rated: bool
    game_id: str | None
    created: float
    updated: float
    expires: float


def shown(row: Any, bots: set[str] | frozenset[str] = frozenset()) -> dict[str, Any]:
    """A challenge as the API shows it (``bots``: the bot accounts among its players)."""
    spec = json.loads(row.spec)
    return {
        "id": row.id,
        "status": row.status,
        "challenger": {
            "id": row.challenger,
            "name": row.challenger_name,
            "bot_account": row.challenger in bots,
        },
        "dest": {"id": row.dest, "name": row.dest_name, "bot_account": row.dest in bots},
        "variant": spec["variant"],
        "clock": spec["clock"],
        "rated": bool(row.rated),
        "game_id": row.game_id,
        "created": row.created,
        "updated": row.updated,
        "expires": row.created + EXPIRY,
    }


def checked(body: ChallengeIn) -> dict[str, Any]:
    """The challenge's game as a seek of two people would be checked (game, clock, the
    rated games' rules); the spec kept."""
    spec = checked_spec(SeekIn(variant=body.variant, seats=2, clock=body.clock, rated=body.rated))
    return {"variant": spec["variant"], "clock": spec["clock"]}


class ChallengeStore:
    """The challenges of the database of ``store``; each method one blocking transaction.
    ``now`` is the clock expiry reads (tests move it)."""

    def __init__(self, store: EventStore, now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.now = now

    @staticmethod
    def _row(connection: Connection, challenge_id: str) -> Any:
        return connection.execute(
            select(challenges).where(challenges.c.id == challenge_id)
        ).one_or_none()

    def expire(self) -> int:
        """Unanswered challenges older than :data:`EXPIRY` expire (a read first: most
        looks find none)."""
        old = (challenges.c.status == CREATED, challenges.c.created < self.now() - EXPIRY)
        with self.store.reading() as connection:
            found = [
                str(r) for r in connection.execute(select(challenges.c.id).where(*old)).scalars()
            ]
        if not found:
            return 0
        with self.store.writing() as connection:
            changed: int = connection.execute(
                update(challenges)
                .where(challenges.c.id.in_(found), *old)
                .values(status=EXPIRED, updated=self.now())
            ).rowcount
        return changed

    def create(self, challenger: Player, name: str, spec: dict[str, Any], rated: bool) -> Any:
        """``challenger`` (an account) challenges the account called ``name``: the row.
        404 no such account, 400 oneself, 409 too many waiting."""
        if not challenger.account:
            raise ServiceError(401, _("log in to your account first"))
        self.expire()
        now = self.now()
        challenge_id = secrets.token_urlsafe(8)
        with self.store.writing() as connection:
            dest = connection.execute(
                select(players.c.id, players.c.name).where(
                    players.c.name_key == name_key(name),
                    players.c.kind == PERSON,
                    players.c.password_hash.is_not(None),
                )
            ).first()
            if dest is None:
                raise ServiceError(404, _("no account is called {name}", name=repr(name[:80])))
            if dest.id == challenger.id:
                raise ServiceError(400, _("you cannot challenge yourself"))
            waiting = connection.execute(
                select(challenges.c.id).where(
                    challenges.c.challenger == challenger.id, challenges.c.status == CREATED
                )
            ).all()
            if len(waiting) >= MAX_OPEN:
                raise ServiceError(
                    409,
                    _(
                        "you have {count} challenges waiting: at most {most}",
                        count=len(waiting),
                        most=MAX_OPEN,
                    ),
                )
            connection.execute(
                insert(challenges).values(
                    id=challenge_id,
                    challenger=challenger.id,
                    challenger_name=challenger.name,
                    dest=dest.id,
                    dest_name=dest.name,
                    spec=json.dumps(spec),
                    rated=rated,
                    status=CREATED,
                    created=now,
                    updated=now,
                )
            )
            return self._row(connection, challenge_id)

    def get(self, challenge_id: str) -> Any:
        """The row (404: none)."""
        self.expire()
        with self.store.reading() as connection:
            row = self._row(connection, challenge_id)
        if row is None:
            raise ServiceError(404, _("no such challenge"))
        return row

    def answer(self, challenge_id: str, player: Player, status: str) -> Any:
        """The challenged declines (or accepts: the caller then makes the game and calls
        :meth:`started`), the challenger cancels: the row after. 404 none, 403 the wrong
        player, 409 answered already."""
        row = self.get(challenge_id)
        mine = row.challenger if status == CANCELED else row.dest
        if player.id not in (row.challenger, row.dest):
            raise ServiceError(404, _("no such challenge"))
        if player.id != mine:
            raise ServiceError(
                403,
                _("only the challenger may cancel a challenge")
                if status == CANCELED
                else _("only the challenged player may answer a challenge"),
            )
        with self.store.writing() as connection:
            changed = connection.execute(
                update(challenges)
                .where(challenges.c.id == challenge_id, challenges.c.status == CREATED)
                .values(status=status, updated=self.now())
            ).rowcount
            row = self._row(connection, challenge_id)
        if changed != 1:
            raise ServiceError(409, answered_already(row.status))
        return row

    def started(self, challenge_id: str, game_id: str) -> Any:
        """The accepted challenge's game is made."""
        with self.store.writing() as connection:
            connection.execute(
                update(challenges)
                .where(challenges.c.id == challenge_id)
                .values(game_id=game_id, updated=self.now())
            )
            return self._row(connection, challenge_id)

    def failed(self, challenge_id: str) -> None:
        """The accepted challenge's game could not be made: canceled."""
        with self.store.writing() as connection:
            connection.execute(
                update(challenges)
                .where(challenges.c.id == challenge_id)
                .values(status=CANCELED, updated=self.now())
            )

    def of(self, player_id: str, since: float | None = None) -> list[Any]:
        """The challenges to or from ``player_id``: those changed after ``since``, or
        (None) those waiting, oldest first."""
        self.expire()
        mine = or_(challenges.c.dest == player_id, challenges.c.challenger == player_id)
        where = challenges.c.status == CREATED if since is None else challenges.c.updated > since
        with self.store.reading() as connection:
            return list(
                connection.execute(
                    select(challenges).where(mine, where).order_by(challenges.c.updated).limit(200)
                ).all()
            )
