"""The master opposite a person on the web (issue 35, "a master level for correspondence
and analysis"): ``/api/bots`` lists it as slow; its turns run in the long jobs' pool, so
no other person's computer opponent waits behind its seconds of thought, with a safety
cap of their own counted from the decision's start, never from its queue."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mathable.ai import BOTS, SLOW_LEVELS, is_slow
from mathable.games.registry import new_game as new_engine_game
from mathable.web.api import create_app
from mathable.web.infra import workers
from mathable.web.infra.workers import (
    BOT_CAP_MS,
    LONG_JOBS,
    SLOW_CAP_MS,
    Workers,
    bot_decision,
    slow_decision,
)
from support.api import act, new_game, tokens, view
from support.waiting import eventually


def test_the_bots_list_every_level_and_mark_the_master_slow(tmp_path: Path) -> None:
    client = TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}"))
    listed = client.get("/api/bots").json()
    assert [b["name"] for b in listed] == list(BOTS)
    assert {b["name"]: b["slow"] for b in listed} == {n: n in SLOW_LEVELS for n in BOTS}
    assert listed[-1]["name"] == "master" and listed[-1]["slow"] is True
    schema = client.get("/openapi.json").json()["components"]["schemas"]["BotOut"]
    assert schema["properties"]["slow"]["type"] == "boolean"


def test_a_slow_levels_cap_is_its_own_from_the_decisions_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Queued five seconds ago, an expert's decision gets the floor of its cap; a master's
    gets its whole cap, in its own lane or any other (a person chose to wait for it)."""
    workers._kept.clear()
    view_ = new_engine_game("classic", ["a", "b"], seed=3).view(0)
    now = 1_000_000.0
    monkeypatch.setattr(workers, "wall_clock", lambda: now)
    assert is_slow("master") and is_slow("master:samples=2") and not is_slow("expert")
    assert SLOW_CAP_MS > BOT_CAP_MS

    slow = slow_decision("master:samples=2,candidates=2", 1, view_, queued_at=now - 5.0)
    assert slow.wait_ms == pytest.approx(5000.0)
    kept: Any = workers._kept.pop(("master:samples=2,candidates=2", 1))
    assert kept.cap_ms == SLOW_CAP_MS

    direct = bot_decision("master:samples=2,candidates=2", 1, view_, queued_at=now - 5.0)
    assert direct.wait_ms == pytest.approx(5000.0)
    kept = workers._kept[("master:samples=2,candidates=2", 1)]
    assert kept.cap_ms == SLOW_CAP_MS

    own: Any = bot_decision("master:samples=2,cap_ms=3000", 3, view_, queued_at=now - 5.0)
    assert own.wait_ms == pytest.approx(5000.0)
    kept = workers._kept[("master:samples=2,cap_ms=3000", 3)]
    assert kept.cap_ms == 3000  # a level that sets its own keeps it

    assert slow.action == direct.action  # one player, one decision, whichever lane


def test_a_slow_decision_runs_in_the_long_jobs_pool() -> None:
    assert slow_decision in LONG_JOBS and bot_decision not in LONG_JOBS
    pool = Workers(1)
    pool.start()
    try:
        assert pool._pool_for(slow_decision) is not pool._pool_for(bot_decision)
        assert pool._pool_for(slow_decision) is pool._pool_for(LONG_JOBS[0])
    finally:
        pool.shutdown()


def test_the_master_opposite_a_person_plays_its_turn_in_the_slow_lane(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game made through the API, Ann against the master: once Ann has played, the
    master's turn is played, and the job the server ran for it was
    :func:`slow_decision` (never the person's lane, :func:`bot_decision`)."""
    monkeypatch.setenv("MATHABLE_WORKERS", "0")  # jobs on threads: the spy sees them
    jobs: list[str] = []
    real = Workers.run

    async def recording(self: Workers, job: Callable[..., Any], *args: Any) -> Any:
        jobs.append(job.__name__)
        return await real(self, job, *args)

    monkeypatch.setattr(Workers, "run", recording)
    with TestClient(create_app(database_url)) as client:
        made = new_game(client, players=[{"name": "M", "bot": "master"}, {"name": "Ann"}])
        game_id, ann = made["id"], tokens(made)[1]
        if view(client, game_id, ann)["to_move"] == 1:  # Ann first (the deal's): a turn
            placement = next(a for a in view(client, game_id, ann)["legal"] if "=" in a)
            assert act(client, game_id, ann, placement).status_code == 200
            if not view(client, game_id, ann)["turns"]:  # her turn goes on: she ends it
                assert act(client, game_id, ann, "end").status_code == 200

        def master_played() -> bool:
            return 0 in [turn["seat"] for turn in view(client, game_id, ann)["turns"]]

        assert eventually(master_played, 120)  # a bound on its thinking, not a speed test
        assert view(client, game_id, ann)["to_move"] == 1  # the master's turn is over
    assert "slow_decision" in jobs and "bot_decision" not in jobs


def test_the_long_pool_is_warmed_before_a_masters_first_turn() -> None:
    """Its workers start as the game does, not when the master's first turn is asked
    for (a second more of waiting); once, and not without worker processes."""
    pool = Workers(1)
    pool.start()
    try:
        assert pool._long is None
        pool.warm_long()
        long = pool._long
        assert long is not None
        assert eventually(lambda: len(long._processes) == 1, 60)  # started, no job asked
        pool.warm_long()
        assert pool._long is long
    finally:
        pool.shutdown()
    threads = Workers(0)
    threads.start()
    threads.warm_long()
    assert threads._long is None  # jobs run on threads: nothing to start


@pytest.mark.parametrize("level", ["master", "expert"])
def test_a_game_with_a_master_warms_the_long_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, level: str
) -> None:
    """Ann moves first (seed 1): nothing has asked the master yet, its pool is open."""
    monkeypatch.setenv("MATHABLE_WORKERS", "1")
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}")
    with TestClient(app) as client:
        players = [{"name": "Ann"}, {"name": "C", "bot": level}]
        made = new_game(client, players=players, seed=1)
        assert view(client, made["id"], tokens(made)[0])["to_move"] == 0  # Ann's to play
        assert (app.state.service.workers._long is not None) == (level == "master")
