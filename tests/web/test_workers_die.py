"""The worker pool dies with its server (issue 30, finding 8): after a SIGKILL of a real
``mathable serve``, none of the processes it started (the forkserver, the resource
tracker, the workers) stays behind, parented to PID 1. The processes are read from
``/proc`` (Linux), so the test needs no extra dependency."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from support import oneoff
from webserver import Server

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _children() -> dict[int, list[int]]:
    """Every live process's children, by parent pid (zombies left out)."""
    found: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        state, parent = stat.rsplit(")", 1)[1].split()[:2]
        if state != "Z":
            found.setdefault(int(parent), []).append(int(entry.name))
    return found


def descendants(pid: int) -> set[int]:
    """The live processes below ``pid``, children and theirs."""
    tree, out, todo = _children(), set(), [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            if child not in out:
                out.add(child)
                todo.append(child)
    return out


def alive(pids: set[int]) -> set[int]:
    """Those of ``pids`` still running (not zombies)."""
    left = set()
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if stat.rsplit(")", 1)[1].split()[0] != "Z":
            left.add(pid)
    return left


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "games.db", env={"MATHABLE_WORKERS": "2"}).start()
    yield running
    running.stop()


def _busy_pool(server: Server) -> set[int]:
    """A game of two computers, played in the pool until its workers are up: the
    server's descendants then (forkserver, resource tracker, workers)."""
    body = {"variant": "classic", "players": [{"bot": "greedy"}, {"bot": "greedy"}]}
    made = oneoff.post(server.url + "/api/games", json=body, timeout=30)
    assert made.status_code == 201
    assert server.process is not None
    deadline = time.monotonic() + 30
    found: set[int] = set()
    while time.monotonic() < deadline:
        found = descendants(server.process.pid)
        if len(found) >= 3:  # the forkserver, the tracker and at least one worker
            return found
        time.sleep(0.1)  # waiting for processes to start: nothing to inject a clock into
    raise AssertionError(f"the pool did not start: {found}")


def test_a_killed_server_leaves_no_worker_forkserver_or_tracker(server: Server) -> None:
    started = _busy_pool(server)
    server.kill()
    deadline = time.monotonic() + 10
    while alive(started) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = alive(started)
    names = {pid: Path(f"/proc/{pid}/cmdline").read_bytes()[:120] for pid in left}
    for pid in left:  # leave nothing running for the next tests
        os.kill(pid, 9)
    assert not left, f"left running after SIGKILL: {names}"


def test_a_stopped_server_leaves_nothing_either(server: Server) -> None:
    started = _busy_pool(server)
    server.stop()
    deadline = time.monotonic() + 10
    while alive(started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(started)
