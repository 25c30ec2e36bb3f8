"""Fixtures of the web tests: a database of each kind the server runs on.

``database_url`` is parametrized over ``sqlite`` (a file in the test's folder) and
``postgresql`` (a fresh database in a throw-away cluster, :mod:`pg`, started once per
session). Without PostgreSQL's binaries the PostgreSQL cases fail, saying how to get
them: they are never skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pg import Cluster, MissingPostgres


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """A PostgreSQL cluster for the whole session, removed after."""
    try:
        cluster = Cluster()
    except MissingPostgres as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        cluster.start()
    except Exception:
        cluster.stop()
        raise
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    cluster: Cluster = request.getfixturevalue("postgres")
    return cluster.database()
