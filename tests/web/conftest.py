"""Fixtures of the web tests: a database of each kind the server runs on, the lobby's
running app, and the page tests' page and finished game.

``database_url`` is parametrized over ``sqlite`` (a file in the test's folder) and
``postgresql`` (a fresh database in a throw-away cluster, :mod:`pg`, started once per
session: under pytest-xdist, once per worker). Without PostgreSQL's binaries the
PostgreSQL cases fail, saying how to get them: they are never skipped. The connections
each test opened are closed after it, and the cluster checks at the end that none of the
suite's is left open (issue 34: 14 were).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Pool, event

from mathable.web.api import create_app
from mathable.web.infra.feed import PostgresNotifier
from mathable.web.infra.store import EventStore
from pg import Cluster, MissingPostgres
from webserver import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


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
        assert left_open(cluster) == {}, "connections the tests left open, by database"
    finally:
        cluster.stop()


def left_open(cluster: Cluster, seconds: float = 10.0) -> dict[str, int]:
    """The client connections still open on the cluster's test databases, by database,
    once the backends of processes the tests killed have noticed (``seconds`` bounds
    that wait; it is not a speed test)."""
    import psycopg

    deadline = time.monotonic() + seconds
    while True:
        with psycopg.connect(cluster.url("postgres"), autocommit=True) as connection:
            rows = connection.execute(
                "SELECT datname, count(*) FROM pg_stat_activity WHERE datname LIKE 'test_%' "
                "AND backend_type = 'client backend' GROUP BY datname"
            ).fetchall()
        found = {str(name): int(count) for name, count in rows}
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


@pytest.fixture
def _closed_connections(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Whatever holds a PostgreSQL connection and was made during the test, closed after
    it: the stores (their pools, change feed and notifier) and the lobby's notifiers of
    apps a test makes without running their shutdown, then any pooled connection left
    (an engine derived with other options). The objects are only noted as they are made."""
    made: list[EventStore | PostgresNotifier] = []
    opened: list[Any] = []
    for kind in (EventStore, PostgresNotifier):
        monkeypatch.setattr(kind, "__init__", noted(kind.__init__, made))

    def connected(connection: Any, _record: Any) -> None:
        if type(connection).__module__.startswith("psycopg"):
            opened.append(connection)

    event.listen(Pool, "connect", connected)
    try:
        yield
    finally:
        event.remove(Pool, "connect", connected)
        for thing in reversed(made):
            thing.close()
        for connection in opened:
            if not connection.closed:
                connection.close()


def noted(init: Callable[..., None], made: list[Any]) -> Callable[..., None]:
    """``init``, noting each object it makes in ``made``."""

    def noting(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        made.append(self)

    return noting


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    request.getfixturevalue("_closed_connections")
    cluster: Cluster = request.getfixturevalue("postgres")
    return cluster.database()


@pytest.fixture
def no_worker_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer players in the server's own process, and the lobby's defaults."""
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    for name in ("MATHABLE_SECRET_KEY", "MATHABLE_SECURE_COOKIES", "MATHABLE_RATE_SEEK"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def main(database_url: str) -> Iterator[TestClient]:
    """The running app (its lifespan: the service started, on this client's loop)."""
    with TestClient(create_app(database_url)) as client:
        yield client


@pytest.fixture()
def page(browser: Browser) -> Iterator[Page]:
    """A desktop-sized page of a fresh browser context."""
    from support.browser import DESKTOP

    context = browser.new_context(viewport=DESKTOP)
    yield context.new_page()
    context.close()


@pytest.fixture(scope="module")
def finished(server: Server) -> dict[str, Any]:
    """A classic game between two computer players, over at once (the page tests' game
    over)."""
    from support.browser import play_out

    players = [{"name": "A", "bot": "strong"}, {"name": "B", "bot": "greedy"}]
    return play_out(server, players, seed=3)
