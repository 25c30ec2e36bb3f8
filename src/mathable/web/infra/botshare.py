"""A fair share of the computer work (issue 30, finding 5): per client address and per
player, at most ``MATHABLE_BOT_GAMES_ALL`` live games between computers only and at most
``MATHABLE_BOT_GAMES`` live games with a computer seat (those between computers only
included). One address once made 30 games of four expert computers a minute, and a
person's move against the greedy computer went from 38 ms to over 2 s.

The count is the store's (:data:`~.db.bot_games`), so every server process over the
database agrees: a new game claims its row in a transaction that counts the creator's
live games first, one claim at a time (SQLite's write lock, a PostgreSQL advisory lock).
A game is live until it has a result, or while an action (or its creation) is at most
:data:`QUIET_AFTER` old: a game a person left against the computer costs no work, and
must not hold a slot for ever. Dead rows of the creator are deleted as they are found.
The address is kept as a keyed hash, never as written.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import (
    ColumnElement,
    Connection,
    and_,
    delete,
    exists,
    func,
    insert,
    or_,
    select,
    text,
)

from mathable.i18n import _
from mathable.web.infra.db import bot_games, events, results
from mathable.web.infra.store import EventStore, secret_key

QUIET_AFTER = 30 * 60.0
"""Seconds without an action after which an unfinished game no longer counts as live."""

CLAIM_LOCK = 0x626F7473
"""The PostgreSQL advisory lock held while a claim counts and writes (``"bots"``)."""


def _count(name: str, default: int) -> int | None:
    """A limit from the environment: a whole number, or ``off`` (None: no limit)."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in ("off", "none", "unlimited"):
        return None
    if not value.isdigit():
        raise ValueError(f"{name}={value!r}: a whole number, or off")
    return int(value)


@dataclass(frozen=True)
class BotLimits:
    """How many live computer games one address, and one player, may have at once:
    ``MATHABLE_BOT_GAMES_ALL`` (2) between computers only, ``MATHABLE_BOT_GAMES`` (10)
    with a computer seat; ``off`` lifts one (a load benchmark)."""

    all_computer: int | None = 2
    with_computer: int | None = 10

    @classmethod
    def from_env(cls) -> BotLimits:
        """The limits the environment sets (the defaults for the rest)."""
        return cls(
            _count("MATHABLE_BOT_GAMES_ALL", cls.all_computer or 0),
            _count("MATHABLE_BOT_GAMES", cls.with_computer or 0),
        )


class TooManyBotGames(Exception):
    """A new computer game over a limit: the reason in the reader's language, and which
    limit (``bot_games_all`` or ``bot_games``) and its number."""

    def __init__(self, message: str, limit: str, most: int) -> None:
        super().__init__(message)
        self.message = message
        self.limit = limit
        self.most = most


class BotShare:
    """The claims of computer games in the store, counted per address and per player."""

    def __init__(self, store: EventStore, limits: BotLimits | None = None) -> None:
        self.store = store
        self.limits = limits or BotLimits.from_env()
        self._key: bytes | None = None

    def address_key(self, address: str) -> str:
        """The address as kept: an HMAC under the database's secret, so the table never
        holds an address a reader could take back."""
        if self._key is None:
            self._key = secret_key(self.store).encode()
        return hmac.new(self._key, address.encode(errors="replace"), hashlib.sha256).hexdigest()

    def claim(
        self,
        game_id: str,
        all_computer: bool,
        player: str | None,
        address: str | None,
        now: float,
    ) -> None:
        """Count the live computer games of ``player`` and of ``address`` (either may be
        None: not counted) and, under every limit, claim one for ``game_id``; raises
        :class:`TooManyBotGames` at a limit. Blocking: call it in a thread."""
        key = self.address_key(address) if address else None
        with self.store.writing() as connection:
            if self.store.postgresql:
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": CLAIM_LOCK})
            for column, value, whose in (
                (bot_games.c.address, key, "address"),
                (bot_games.c.player_id, player, "player"),
            ):
                if value is None:
                    continue
                self._forget_dead(connection, column == value, now)
                found = connection.execute(
                    select(bot_games.c.all_computer, func.count())
                    .where(column == value)
                    .group_by(bot_games.c.all_computer)
                ).all()
                counts = {bool(kind): int(n) for kind, n in found}
                self._check(counts, all_computer, whose)
            connection.execute(
                insert(bot_games).values(
                    game_id=game_id,
                    player_id=player,
                    address=key,
                    all_computer=all_computer,
                    created=now,
                )
            )

    def release(self, game_id: str) -> None:
        """Give back the claim of a game that was not made after all."""
        with self.store.writing() as connection:
            connection.execute(delete(bot_games).where(bot_games.c.game_id == game_id))

    def _check(self, counts: dict[bool, int], all_computer: bool, whose: str) -> None:
        most = self.limits.all_computer
        if all_computer and most is not None and counts.get(True, 0) >= most:
            raise TooManyBotGames(REFUSALS["bot_games_all", whose](most), "bot_games_all", most)
        most = self.limits.with_computer
        if most is not None and counts.get(True, 0) + counts.get(False, 0) >= most:
            raise TooManyBotGames(REFUSALS["bot_games", whose](most), "bot_games", most)

    @staticmethod
    def _forget_dead(connection: Connection, whose: ColumnElement[bool], now: float) -> None:
        """Delete the claims of ``whose`` whose game is over or has gone quiet."""
        since = now - QUIET_AFTER
        over = exists().where(results.c.game_id == bot_games.c.game_id)
        acted = exists().where(events.c.game_id == bot_games.c.game_id, events.c.created >= since)
        connection.execute(
            delete(bot_games).where(
                and_(whose, or_(over, and_(bot_games.c.created < since, ~acted)))
            )
        )


REFUSALS: dict[tuple[str, str], Callable[[int], str]] = {
    ("bot_games_all", "address"): lambda n: _(
        "too many games between computers from your address: at most {count} at once; "
        "try again once one has ended",
        count=n,
    ),
    ("bot_games_all", "player"): lambda n: _(
        "too many of your games between computers: at most {count} at once; "
        "try again once one has ended",
        count=n,
    ),
    ("bot_games", "address"): lambda n: _(
        "too many games with a computer from your address: at most {count} at once; "
        "finish or resign one first",
        count=n,
    ),
    ("bot_games", "player"): lambda n: _(
        "too many of your games with a computer: at most {count} at once; "
        "finish or resign one first",
        count=n,
    ),
}
"""Each refusal, by limit and by whose games were counted, in the request's language."""
