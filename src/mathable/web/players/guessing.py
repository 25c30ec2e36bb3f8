"""Password guessing limited per account (issue 30, finding 3), beside the per-address
rate limit of :mod:`.limits`: 100 guesses from 100 addresses were all checked before.

After :attr:`Guessing.failures` failed log-ins on one name within :attr:`Guessing.window`
seconds, that name answers 429 for :attr:`Guessing.lockout` seconds, from any address,
even to the right password; each later lock lasts twice the one before (up to
:attr:`Guessing.longest`), and the count of locks is forgotten after a quiet
:attr:`Guessing.longest`. The count is kept in the database (:data:`~.db.login_failures`),
so every server process over it shares it, and it is kept for any name typed, an account's
or not: the answers (401, then 429) and their time are the same, and nobody learns whether
a name exists.

The settings come from the environment (defaults in brackets):
``MATHABLE_LOGIN_FAILURES`` (10), ``MATHABLE_LOGIN_WINDOW`` (600 seconds),
``MATHABLE_LOGIN_LOCKOUT`` (300 seconds, the first lock), ``MATHABLE_LOGIN_LOCKOUT_MAX``
(86400 seconds).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from mathable.i18n import _
from mathable.web.infra.db import is_unique_violation, login_failures
from mathable.web.infra.limits import RateLimited
from mathable.web.infra.store import EventStore

Clock = Callable[[], float]


def _number(name: str, default: int) -> int:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit() or int(text) <= 0:
        raise ValueError(f"{name}={text!r}: a whole number above 0")
    return int(text)


@dataclass(frozen=True)
class Guessing:
    """How many failed log-ins one name takes, and how long it is locked after."""

    failures: int = 10
    window: float = 600.0
    lockout: float = 300.0
    longest: float = 86400.0

    @classmethod
    def from_env(cls) -> Guessing:
        """The settings the environment gives (the defaults for the rest)."""
        return cls(
            _number("MATHABLE_LOGIN_FAILURES", cls.failures),
            _number("MATHABLE_LOGIN_WINDOW", int(cls.window)),
            _number("MATHABLE_LOGIN_LOCKOUT", int(cls.lockout)),
            _number("MATHABLE_LOGIN_LOCKOUT_MAX", int(cls.longest)),
        )

    def lock_for(self, lockouts: int) -> float:
        """How long the ``lockouts``-th lock lasts (1: the first): doubling, bounded."""
        return min(self.longest, self.lockout * 2.0 ** min(lockouts - 1, 60))


class GuessLimiter:
    """Counts failed log-ins per name key (:func:`.players.name_key`) in the database of
    ``store``; ``clock`` gives the time (a test's own)."""

    def __init__(
        self, store: EventStore, settings: Guessing | None = None, clock: Clock = time.time
    ) -> None:
        self.store = store
        self.settings = settings or Guessing.from_env()
        self.clock = clock

    def check(self, name_key: str) -> None:
        """Raise :class:`~.limits.RateLimited` (429) while ``name_key`` is locked."""
        now = self.clock()
        with self.store.reading() as connection:
            until = connection.execute(
                select(login_failures.c.locked_until).where(login_failures.c.name_key == name_key)
            ).scalar()
        if until is not None and until > now:
            seconds = max(1, math.ceil(until - now))
            raise RateLimited(
                # TRANSLATORS: the answer to a log-in after many wrong passwords for a
                # name, whoever tries; s is seconds
                _(
                    "too many failed log-ins for this name: try again in {seconds} s",
                    seconds=seconds,
                ),
                seconds,
            )

    def failed(self, name_key: str) -> None:
        """Count a failed log-in on ``name_key``: the one that makes too many locks it.
        Two processes counting the same name at once count both (the row is made once)."""
        for _attempt in range(3):
            try:
                self._count(name_key)
                return
            except IntegrityError as exc:  # another process made the row first: count again
                if not is_unique_violation(exc):
                    raise
        self._count(name_key)

    def _count(self, name_key: str) -> None:
        now = self.clock()
        rules = self.settings
        table = login_failures
        with self.store.writing() as connection:
            row = connection.execute(
                select(table).where(table.c.name_key == name_key).with_for_update()
            ).one_or_none()
            if row is None:
                failures, since, lockouts, until = 1, now, 0, 0.0
            else:
                fresh = now - row.since > rules.window
                failures = 1 if fresh else row.failures + 1
                since = now if fresh else row.since
                # a quiet day forgets the locks: the next one is the shortest again
                lockouts = 0 if now - row.updated > rules.longest else row.lockouts
                until = row.locked_until
            if failures >= rules.failures:  # too many: locked, and counted afresh after
                lockouts += 1
                failures, since, until = 0, now, now + rules.lock_for(lockouts)
            values = {
                "failures": failures,
                "since": since,
                "lockouts": lockouts,
                "locked_until": until,
                "updated": now,
            }
            if row is None:
                connection.execute(insert(table).values(name_key=name_key, **values))
            else:
                connection.execute(update(table).where(table.c.name_key == name_key).values(values))
            # the names quiet for longer than any lock lasts: forgotten
            connection.execute(delete(table).where(table.c.updated < now - 2 * rules.longest))

    def succeeded(self, name_key: str) -> None:
        """A right password, outside a lock: the name's failures are forgotten (not its
        locks: the next one still lasts twice the last)."""
        table = login_failures
        with self.store.writing() as connection:
            connection.execute(
                update(table)
                .where(table.c.name_key == name_key, table.c.failures > 0)
                .values(failures=0, since=self.clock())
            )
