"""The web's analysis at the master's depth (issue 35, "analysis that judges like a
master"): ``GET /api/games/{id}/analysis?depth=master``, kept once per game and depth
(in memory and in the database, across restarts), refused with the depths there are,
counted against its own rate limit; and the kept analyses of before carried over as the
expert's by the migration."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from mathable.ai import analysis
from mathable.ai.equity import DEPTHS, Depth
from mathable.ai.master import MASTER_SAMPLES
from mathable.web.api import create_app
from mathable.web.infra.db import make_engine, parse_url
from mathable.web.infra.store import EventStore
from support.migrations import upgrade_to
from support.waiting import eventually

TWO = [{"name": "A", "bot": "greedy"}, {"name": "B", "bot": "greedy"}]


def _depths_judged(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The depth of each analysis worked out in this process (the workers on a thread)."""
    judged: list[str] = []
    real: Callable[..., dict[str, Any]] = analysis.analysis_report

    def counting(game: Any, depth: Depth, *rest: Any) -> dict[str, Any]:
        judged.append(depth.name)
        return real(game, depth, *rest)

    for name, module in list(sys.modules.items()):
        if name.startswith("mathable") and getattr(module, "analysis_report", None) is real:
            monkeypatch.setattr(module, "analysis_report", counting)
    return judged


def _finished(client: TestClient, seed: int) -> str:
    made = client.post("/api/games", json={"variant": "classic", "players": TWO, "seed": seed})
    assert made.status_code == 201, made.text
    game_id: str = made.json()["id"]
    assert eventually(lambda: client.get(f"/api/games/{game_id}").json()["over"], 120)
    return game_id


def test_a_finished_games_analysis_at_the_masters_depth_is_kept_beside_the_experts(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    judged = _depths_judged(monkeypatch)
    with TestClient(create_app(database_url)) as client:
        game_id = _finished(client, 3)
        url = f"/api/games/{game_id}/analysis"
        expert = client.get(url).json()
        master = client.get(url, params={"depth": "master"}).json()
        assert expert["method"]["depth"] == "expert"
        assert master["method"]["depth"] == "master"
        assert master["method"]["samples"] == MASTER_SAMPLES > expert["method"]["samples"]
        assert [t["turn"] for t in master["turns"]] == [t["turn"] for t in expert["turns"]]
        assert [t["played"] for t in master["turns"]] == [t["played"] for t in expert["turns"]]
        assert all(t["samples"] == MASTER_SAMPLES for t in master["turns"] if t["samples"])
        assert all("step" in t and "best_placements" in t for t in master["turns"])
        # asked again: each depth's own, none worked out again
        assert client.get(url, params={"depth": "expert"}).json() == expert
        assert client.get(url, params={"depth": "master"}).json() == master
        assert judged == ["expert", "master"]
    with TestClient(create_app(database_url)) as client:  # a restart: both kept
        assert client.get(url, params={"depth": "master"}).json() == master
        assert client.get(url).json() == expert
        assert judged == ["expert", "master"]


def test_a_depth_there_is_not_is_refused_with_the_depths_and_nothing_worked_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    judged = _depths_judged(monkeypatch)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as client:
        game_id = _finished(client, 4)
        url = f"/api/games/{game_id}/analysis"
        for typed in ("deep", "<b>[red]Master[/red]</b>", "Expert", ""):
            refused = client.get(url, params={"depth": typed})
            assert refused.status_code == 422, refused.text
            assert refused.json()["error"] == (
                f"query.depth: {typed} is no depth of analysis (expert, master)"
            )
        too_long = client.get(url, params={"depth": "m" * 65})
        assert too_long.status_code == 422
        assert too_long.json()["error"] == "query.depth: at most 64 characters"
        french = client.get(url, params={"depth": "deep"}, headers={"Accept-Language": "fr"})
        assert french.status_code == 422 and "deep" in french.json()["error"]
        assert "no depth of analysis" not in french.json()["error"]  # in the reader's words
        schema = client.get("/openapi.json").json()["paths"]["/api/games/{game_id}/analysis"]
        (depth,) = [p for p in schema["get"]["parameters"] if p["name"] == "depth"]
        assert depth["schema"]["enum"] == list(DEPTHS) and depth["schema"]["default"] == "expert"
        assert judged == []


def test_the_masters_depth_has_its_own_rate_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    monkeypatch.setenv("MATHABLE_RATE_MASTER_ANALYSIS", "1/minute")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as client:
        game_id = _finished(client, 5)
        url = f"/api/games/{game_id}/analysis"
        assert client.get(url, params={"depth": "master"}).status_code == 200
        refused = client.get(url, params={"depth": "master"})
        assert refused.status_code == 429
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert "analyses at the master's depth" in refused.json()["error"]
        assert client.get(url).status_code == 200  # the expert's: not this limit
        assert client.get(url, params={"depth": "expert"}).status_code == 200


def test_the_analyses_kept_before_the_depths_are_carried_over_as_the_experts(
    database_url: str,
) -> None:
    report = {"version": 3, "method": {"samples": 24}, "turns": [], "players": []}
    engine = make_engine(parse_url(database_url))
    try:
        with engine.begin() as connection:
            upgrade_to(connection, "0015")  # as the server left it before the depths
            connection.execute(
                text("INSERT INTO games (id, created, spec, seats) VALUES ('g', 1.0, '{}', '[]')")
            )
            connection.execute(
                text(
                    "INSERT INTO analyses (game_id, actions, version, report, created) "
                    "VALUES ('g', 12, 3, :report, :now)"
                ),
                {"report": json.dumps(report), "now": time.time()},
            )
    finally:
        engine.dispose()
    store = EventStore(database_url)  # migrates to the head
    try:
        assert store.analysis("g", 12, 3, "expert") == report
        assert store.analysis("g", 12, 3, "master") is None
        master = {**report, "method": {"samples": 256, "depth": "master"}}
        store.keep_analysis("g", 12, 3, "master", master)  # beside it, not instead
        assert store.analysis("g", 12, 3, "master") == master
        assert store.analysis("g", 12, 3, "expert") == report
    finally:
        store.close()
    # read as this version: a report kept before the depths says it was the expert's
    assert analysis.with_texts(report)["method"] == {"samples": 24, "depth": "expert"}
