"""SQLite takes concurrent writers (issue 29, finding 12): a dozen people signing up and
posting seeks at once against the default store (``make run``: one ``mathable serve`` on
a SQLite file) all get an answer, never a 500 ("database is locked"); and the same with
two processes sharing the file (half of the people on each)."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import httpx2
import pytest

from support import oneoff
from webserver import Server

WRITERS = 12
PASSWORD = "correct horse battery"
UNLIMITED = {
    name: "off"
    for name in (
        "MATHABLE_RATE_CREATE",
        "MATHABLE_RATE_ACTION",
        "MATHABLE_RATE_LOGIN",
        "MATHABLE_RATE_SEEK",
        "MATHABLE_RATE_CHAT",
    )
}
"""Every client comes from 127.0.0.1: the per-address limits would refuse them first."""


def person(url: str, number: int, start: threading.Barrier, statuses: list[int]) -> None:
    """A browser of its own: a guest on its first visit (a write), an account (a write),
    then two seeks (writes), each step begun by every person at the same instant."""
    with httpx2.Client(base_url=url, timeout=60) as client:
        steps: list[Callable[[], httpx2.Response]] = [
            lambda: client.get("/api/me"),
            lambda: client.post(
                "/api/accounts", json={"name": f"Writer {number}", "password": PASSWORD}
            ),
            lambda: client.post("/api/seeks", json={"variant": "classic", "seats": 2}),
            lambda: client.patch("/api/me", json={"name": f"Writer {number} again"}),
            lambda: client.post("/api/seeks", json={"variant": "classic", "seats": 3}),
        ]
        for step in steps:
            start.wait(timeout=60)
            try:
                statuses.append(step().status_code)
            except httpx2.HTTPError:
                statuses.append(0)


@pytest.mark.slow
@pytest.mark.parametrize("processes", [1, 2])
def test_twelve_concurrent_writers_on_sqlite_get_no_500(tmp_path: Path, processes: int) -> None:
    servers = [
        Server(tmp_path / "games.db", env={"MATHABLE_WORKERS": "0", **UNLIMITED})
        for _ in range(processes)
    ]
    try:
        for server in servers:
            server.start()
        statuses: list[int] = []
        start = threading.Barrier(WRITERS)
        threads = [
            threading.Thread(target=person, args=(servers[n % processes].url, n, start, statuses))
            for n in range(WRITERS)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        counted = Counter(statuses)
        output = "".join(server.output() for server in servers)
        assert sum(counted.values()) == WRITERS * 5, counted
        assert counted[500] == 0 and counted[0] == 0, (counted, output[-3000:])
        assert set(counted) <= {200, 201}, counted
        seeks = oneoff.get(servers[0].url + "/api/seeks", params={"limit": 50}).json()
        assert len(seeks) == WRITERS * 2
    finally:
        for server in servers:
            server.stop()
    assert "database is locked" not in "".join(server.output() for server in servers)
