"""Passwords hashed cheaply in the tests (as Django's test settings swap in a fast hasher):
argon2id still, at its smallest work (1 pass over 1 MiB, 1 lane) instead of the
production's 3 passes over 64 MiB, which cost ~0.1 s of CPU a hash, and the suite makes
many (every app's decoy hash, every account, every log-in). ``tests/conftest.py``
installs it for the in-process apps; the production's parameters keep a test of their own
(``web/test_accounts.py``), through :data:`PRODUCTION`."""

from __future__ import annotations

from collections.abc import Callable

from argon2 import PasswordHasher

from mathable.web.players import players

PRODUCTION: Callable[[], PasswordHasher] = players.password_hasher
"""The hasher the server makes, kept before the tests replace it."""


def cheap_hasher() -> PasswordHasher:
    """argon2id at its least work: the same format and checks, none of the cost."""
    return PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


def install() -> None:
    """Every ``PlayerStore`` made from now on in this process hashes cheaply."""
    players.password_hasher = cheap_hasher
