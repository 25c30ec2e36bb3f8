"""A person's computer opponent never waits behind a long job, and its safety cap counts
the wait (issue 35, "bots that never keep you waiting"): analyses run in a pool of their
own at a lower priority; a decision's wall-clock cap runs from when it was queued."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from mathable.games.registry import new_game
from mathable.web.infra import workers
from mathable.web.infra.workers import BOT_CAP_MS, CAP_FLOOR_MS, Workers, bot_decision


def test_a_short_job_is_answered_while_a_long_one_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With one worker, a long job (here a shell that waits for a file the test makes
    only afterwards) does not hold the short job behind it."""
    monkeypatch.setattr(workers, "LONG_JOBS", (subprocess.run,))
    flag = tmp_path / "go"
    waiting = ["sh", "-c", f"until [ -e '{flag}' ]; do sleep 0.05; done"]

    async def scenario() -> None:
        pool = Workers(1)
        pool.start()
        try:
            long = asyncio.ensure_future(pool.run(subprocess.run, waiting))
            pid = await asyncio.wait_for(pool.run(workers.worker_pid), timeout=60)
            assert pid > 0
            assert not long.done()  # answered while the long job still waits
            flag.touch()
            done = await asyncio.wait_for(long, timeout=60)
            assert done.returncode == 0
        finally:
            flag.touch()
            pool.shutdown()

    asyncio.run(scenario())


def test_a_persons_slow_opponent_goes_before_the_analyses_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the one long worker taken and two analyses queued, a slow level's turn queued
    after them runs next (:data:`~mathable.web.infra.workers.URGENT_LONG_JOBS`), not
    after both: the pool's own queue would serve them as they came. Here the jobs are
    shells that write their name to a log. The four are asked for in order at once (their
    tasks reach the gate in that order, before the first one's answer can come back)."""
    monkeypatch.setattr(workers, "LONG_JOBS", (subprocess.run, subprocess.call))
    monkeypatch.setattr(workers, "URGENT_LONG_JOBS", (subprocess.call,))
    log = tmp_path / "log"
    asked: list[tuple[Callable[..., object], str]] = [
        (subprocess.run, "analysis 0"),
        (subprocess.run, "analysis 1"),
        (subprocess.run, "analysis 2"),
        (subprocess.call, "master turn"),
    ]

    async def scenario() -> None:
        pool = Workers(1)
        pool.start()
        try:
            jobs = [
                asyncio.ensure_future(pool.run(job, ["sh", "-c", f"echo '{name}' >> '{log}'"]))
                for job, name in asked
            ]
            await asyncio.wait_for(asyncio.gather(*jobs), timeout=120)
        finally:
            pool.shutdown()

    asyncio.run(scenario())
    assert log.read_text().splitlines() == ["analysis 0", "master turn", "analysis 1", "analysis 2"]


def test_the_cap_counts_from_the_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision queued long ago gets what is left of the cap (at least the floor); a
    level that sets its own cap keeps it, and a game between computers its whole cap;
    the decision says how long it waited."""
    workers._kept.clear()
    view = new_game("classic", ["a", "b"], seed=3).view(0)
    now = 1_000_000.0
    monkeypatch.setattr(workers, "wall_clock", lambda: now)

    fresh = bot_decision("expert:samples=2", 1, view, queued_at=now - 0.2)
    assert fresh.wait_ms == pytest.approx(200.0)
    assert workers._kept[("expert:samples=2", 1)].cap_ms == BOT_CAP_MS - 200  # type: ignore[attr-defined]

    late = bot_decision("expert:samples=2", 2, view, queued_at=now - 5.0)
    assert late.wait_ms == pytest.approx(5000.0)
    assert workers._kept[("expert:samples=2", 2)].cap_ms == CAP_FLOOR_MS  # type: ignore[attr-defined]

    own = bot_decision("expert:samples=2,cap_ms=3000", 3, view, queued_at=now - 5.0)
    assert own.wait_ms == pytest.approx(5000.0)
    assert workers._kept[("expert:samples=2,cap_ms=3000", 3)].cap_ms == 3000  # type: ignore[attr-defined]

    alone = workers.computers_decision("expert:samples=2", 5, view, queued_at=now - 5.0)
    assert alone.wait_ms == pytest.approx(5000.0)  # a game between computers: nobody waits
    assert workers._kept[("expert:samples=2", 5)].cap_ms == BOT_CAP_MS  # type: ignore[attr-defined]

    untimed = bot_decision("greedy", 4, view)
    assert untimed.wait_ms == 0.0 and not untimed.capped
