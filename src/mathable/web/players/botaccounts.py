"""Bot accounts and their API tokens (issue 36, the Bot API, as lichess's).

An account that has played no game may become a **bot account**
(``POST /api/account/bot``): a program then acts for it with an API token sent as
``Authorization: Bearer <token>``, and every page marks its name BOT. The token is
:func:`new_token` (256 random bits after ``mbt_``), shown once and kept as its SHA-256 only:
for a token of that entropy a fast hash is enough (no guessing to slow down, unlike a
password's argon2), and a lookup is one indexed read. A new token replaces the old one;
``DELETE /api/account/bot/token`` revokes it (the account stays a bot).

Bearer tokens and the session cookie: :mod:`.origin` checks the Origin of every change
that carries the session cookie. A bearer request is authenticated by its token alone,
never by a cookie it may also carry, and a page of another origin can neither read the
token nor add an ``Authorization`` header without a CORS preflight this server never
grants: so the bearer routes need no Origin check, and the cookie routes keep theirs.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections.abc import Collection
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import insert, select, update

from mathable.i18n import _
from mathable.web.infra.db import bot_accounts, game_players
from mathable.web.infra.errors import ServiceError
from mathable.web.infra.store import EventStore
from mathable.web.players.players import PERSON, Player, PlayerStore

MAX_TOKEN = 200
"""A bearer token longer than this (characters) is refused unread."""


TOKEN_PREFIX = "mbt_"
"""Every token's start: a token never begins with ``-`` (a bare urlsafe token did one time
in 64, and ``bot.py --token -x…`` was then read as an option and refused), and a secret
scanner can tell ours apart."""


def new_token() -> str:
    """A new API token: the prefix and 256 random bits, URL-safe."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """What the database keeps of a token: its SHA-256 (any text hashes)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def bot_players_among(store: EventStore, player_ids: Collection[str | None]) -> set[str]:
    """Which of these players (None: a seat bound to nobody) are bot accounts, in one
    indexed read per 500: blocking, so run in a thread or while loading (the live games'
    BOT badges, the lobby's and the leaderboard's rows)."""
    wanted = sorted({p for p in player_ids if p})
    found: set[str] = set()
    if not wanted:
        return found
    with store.reading() as connection:
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            found.update(
                str(p)
                for p in connection.execute(
                    select(bot_accounts.c.player_id).where(bot_accounts.c.player_id.in_(chunk))
                ).scalars()
            )
    return found


class BotAccounts:
    """The bot accounts of the database of ``store``; each method one blocking transaction
    (the routes run them in a thread)."""

    def __init__(self, store: EventStore, players: PlayerStore) -> None:
        self.store = store
        self.players = players

    def make(self, player: Player) -> str:
        """``player`` (an account that has played no game) becomes a bot account: its new
        token, shown this once. 401 a guest, 409 games played or a bot already."""
        if not player.account or player.kind != PERSON:
            raise ServiceError(401, _("log in to your account first"))
        token = new_token()
        now = time.time()
        with self.store.writing() as connection:
            played = connection.execute(
                select(game_players.c.game_id).where(game_players.c.player_id == player.id).limit(1)
            ).first()
            if played is not None:
                raise ServiceError(
                    409, _("only an account that has played no game may become a bot account")
                )
            known = connection.execute(
                select(bot_accounts.c.player_id).where(bot_accounts.c.player_id == player.id)
            ).first()
            if known is not None:
                raise ServiceError(409, _("this account is a bot account already"))
            connection.execute(
                insert(bot_accounts).values(
                    player_id=player.id,
                    token_hash=token_digest(token),
                    created=now,
                    token_created=now,
                )
            )
        return token

    def renew(self, player: Player) -> str:
        """A new token for the bot account of ``player`` (the old one stops working)."""
        token = new_token()
        self._set(player, token_digest(token))
        return token

    def revoke(self, player: Player) -> None:
        """The bot account's token stops working (a new one: :meth:`renew`)."""
        self._set(player, None)

    def _set(self, player: Player, digest: str | None) -> None:
        with self.store.writing() as connection:
            changed = connection.execute(
                update(bot_accounts)
                .where(bot_accounts.c.player_id == player.id)
                .values(token_hash=digest, token_created=time.time() if digest else None)
            ).rowcount
        if changed != 1:
            raise ServiceError(403, _("this account is not a bot account"))

    def player_of(self, token: str) -> Player | None:
        """The bot account a token opens (None: none, or revoked)."""
        if not token or len(token) > MAX_TOKEN:
            return None
        with self.store.reading() as connection:
            row = connection.execute(
                select(bot_accounts.c.player_id).where(
                    bot_accounts.c.token_hash == token_digest(token)
                )
            ).first()
        return None if row is None else self.players.get(str(row.player_id))

    def among(self, player_ids: Collection[str | None]) -> set[str]:
        """Which of these players are bot accounts."""
        return bot_players_among(self.store, player_ids)

    def is_bot(self, player_id: str) -> bool:
        return bool(self.among([player_id]))


def get_bot_accounts(request: Request) -> BotAccounts:
    found: BotAccounts = request.app.state.bot_accounts
    return found


BotAccountsDep = Annotated[BotAccounts, Depends(get_bot_accounts)]


def bearer_of(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer`` header (None: no such header); 401 for
    another scheme or an empty token."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _space, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServiceError(401, _("header Authorization: Bearer and your bot account's token"))
    return token.strip()


async def bearer_player(request: Request, accounts: BotAccountsDep) -> Player:
    """The bot account of the request's bearer token: 401 without one, or a token that
    opens nothing (wrong, revoked)."""
    token = bearer_of(request)
    if token is None:
        raise ServiceError(
            401, _("this route needs a bot account's token: header Authorization: Bearer …")
        )
    player = await asyncio.to_thread(accounts.player_of, token)
    if player is None:
        raise ServiceError(401, _("this token opens no bot account (wrong or revoked)"))
    request.state.token_key = "token:" + token_digest(token)
    return player


BotDep = Annotated[Player, Depends(bearer_player)]
"""The bot account of a bearer request (the bot routes)."""
