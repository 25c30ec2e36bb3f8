"""CPU work off the event loop, and memory that stays bounded (issue 13): a game of
computer players is created at once and played in the background, watchers seeing it
move; computer players' turns and analyses run in worker processes while a cheap GET
answers; a finished game's analysis is computed once; idle games leave memory and come
back on demand as they were; listing games loads none of them.

No assertion here is on speed: waits are bounds, and "elsewhere" is shown by spies that
count the calls made in this process."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from mathable.ai import analysis
from mathable.ai.base import FamilyBot
from mathable.engine.actions import Action
from mathable.engine.protocol import View
from mathable.web.api import create_app
from mathable.web.infra.workers import WORKER_NICENESS
from support.api import act, new_game, tokens, view

FOUR_COMPUTERS = {
    "variant": "classic",
    "players": [{"name": f"Bot {n}", "bot": "greedy"} for n in range(1, 5)],
    "seed": 11,
}
PEOPLE = {"variant": "classic", "players": [{"name": "Ann"}, {"name": "Bob"}], "mode": "screen"}


def wait_for(check: Callable[[], bool], seconds: float = 60) -> bool:
    """Whether ``check()`` comes true within ``seconds`` (a bound, not a speed test)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def receive_within(socket: Any, seconds: float) -> Any:
    """The next JSON message of a test client's socket, or None if none comes within
    ``seconds`` (its receive has no timeout of its own: a silent socket would hang)."""
    got: list[Any] = []
    reader = threading.Thread(target=lambda: got.append(socket.receive_json()), daemon=True)
    reader.start()
    reader.join(seconds)
    return got[0] if got else None


def over(client: TestClient, game_id: str) -> bool:
    return bool(client.get(f"/api/games/{game_id}").json()["over"])


def spy(monkeypatch: pytest.MonkeyPatch, name: str, real: Callable[..., Any]) -> list[int]:
    """Count the calls of the function ``real`` made in this process, under every name
    a loaded ``mathable`` module holds it by; the calls go through to it."""
    calls: list[int] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(os.getpid())
        return real(*args, **kwargs)

    for module_name, module in list(sys.modules.items()):
        if module_name.startswith("mathable") and getattr(module, name, None) is real:
            monkeypatch.setattr(module, name, counting)
    return calls


def bot_spy(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the computer players' decisions made in this process."""
    calls: list[int] = []
    real = FamilyBot.act

    def counting(self: FamilyBot, view: View) -> Action:
        calls.append(os.getpid())
        return real(self, view)

    monkeypatch.setattr(FamilyBot, "act", counting)
    return calls


def test_a_four_computer_game_is_created_at_once_and_played_in_the_background(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The computer players are held at a gate (on threads of this process, so the gate
    reaches them): the creation answers while they wait, then the game is played to its
    end with nobody asking, and a watcher sees it move."""
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    gate = threading.Event()
    real = FamilyBot.act

    def gated(self: FamilyBot, view: View) -> Action:
        gate.wait(60)
        return real(self, view)

    monkeypatch.setattr(FamilyBot, "act", gated)
    with TestClient(create_app(database_url)) as client:
        answer: dict[str, httpx2.Response] = {}
        creating = threading.Thread(
            target=lambda: answer.update(made=client.post("/api/games", json=FOUR_COMPUTERS))
        )
        creating.start()
        creating.join(15)
        answered_at_the_gate = "made" in answer
        if not answered_at_the_gate:
            gate.set()
            creating.join(60)
        assert answered_at_the_gate, "the creation waited for the computer players"
        made = answer["made"]
        assert made.status_code == 201, made.text
        game_id = made.json()["id"]
        with client.websocket_connect(f"/api/games/{game_id}/ws") as watcher:
            first = watcher.receive_json()
            assert first["type"] == "view" and first["view"]["seq"] == 0
            gate.set()
            seen = [0]
            while True:
                message = watcher.receive_json()
                if message["type"] != "view":
                    continue
                seen.append(message["view"]["seq"])
                if message["view"]["over"]:
                    break
        assert seen == sorted(seen) and len(set(seen)) > 2  # the watcher saw it move
        assert over(client, game_id)


def test_computer_players_and_analysis_run_in_worker_processes(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATHABLE_WORKERS", "1")
    decisions = bot_spy(monkeypatch)
    analyses = spy(monkeypatch, "analysis_report", analysis.analysis_report)
    app: FastAPI = create_app(database_url)
    with TestClient(app) as client:
        made = client.post("/api/games", json=FOUR_COMPUTERS)
        assert made.status_code == 201, made.text
        game_id = made.json()["id"]
        assert wait_for(lambda: over(client, game_id))
        answer: dict[str, httpx2.Response] = {}
        analysing = threading.Thread(
            target=lambda: answer.update(report=client.get(f"/api/games/{game_id}/analysis"))
        )
        analysing.start()
        cheap: list[int] = []
        while analysing.is_alive() or not cheap:  # cheap GETs beside the analysis
            cheap.append(client.get(f"/api/games/{game_id}").status_code)
        analysing.join()
        assert set(cheap) == {200}
        report = answer["report"]
        assert report.status_code == 200 and report.json()["turns"]
        assert decisions == [] and analyses == []  # none of that work was done here
        portal = client.portal
        assert portal is not None
        from mathable.web.infra.workers import worker_pid

        assert portal.call(app.state.service.workers.run, worker_pid) != os.getpid()
        # and at a lower CPU priority: the event loop gets a core first
        niceness = portal.call(app.state.service.workers.run, os.nice, 0)
        assert niceness >= os.nice(0) + WORKER_NICENESS


@pytest.mark.parametrize(("level", "here"), [("greedy", True), ("strong", False)])
def test_a_quick_computer_beside_a_person_decides_here_the_others_in_workers(
    database_url: str, monkeypatch: pytest.MonkeyPatch, level: str, here: bool
) -> None:
    """A quick level (:data:`~mathable.ai.QUICK_LEVELS`: it decides in less than the
    trip to a worker and back, issue 34) opposite a person decides on a thread of the
    server; the other levels in the worker processes (a game between computers only:
    the test above)."""
    monkeypatch.setenv("MATHABLE_WORKERS", "1")
    decisions = bot_spy(monkeypatch)
    with TestClient(create_app(database_url)) as client:
        made = new_game(client, players=[{"name": "Ann"}, {"name": "C", "bot": level}])
        game_id, ann = made["id"], tokens(made)[0]
        for _ in range(2):  # two of Ann's turns, each answered by the computer
            assert wait_for(lambda: view(client, game_id, ann)["to_move"] == 0)
            turns = len(view(client, game_id, ann)["turns"])
            placement = next(a for a in view(client, game_id, ann)["legal"] if "=" in a)
            assert act(client, game_id, ann, placement).status_code == 200
            if len(view(client, game_id, ann)["turns"]) == turns:  # Ann's turn goes on
                assert act(client, game_id, ann, "end").status_code == 200
        assert wait_for(lambda: view(client, game_id, ann)["to_move"] == 0)
        seats = [t["seat"] for t in view(client, game_id)["turns"]]
        assert seats.count(1) >= 2  # the computer answered
    assert bool(decisions) == here
    assert all(pid == os.getpid() for pid in decisions)


def test_a_finished_games_analysis_is_computed_once_and_kept(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATHABLE_WORKERS", "0")  # on a thread here, so the spy sees it
    analyses = spy(monkeypatch, "analysis_report", analysis.analysis_report)
    with TestClient(create_app(database_url)) as client:
        two = [{"name": "A", "bot": "greedy"}, {"name": "B", "bot": "greedy"}]
        made = client.post("/api/games", json={"variant": "classic", "players": two, "seed": 3})
        game_id = made.json()["id"]
        assert wait_for(lambda: over(client, game_id))
        reports = [client.get(f"/api/games/{game_id}/analysis").json() for _ in range(3)]
        at_once: list[Any] = []
        threads = [
            threading.Thread(
                target=lambda: at_once.append(client.get(f"/api/games/{game_id}/analysis").json())
            )
            for _ in range(3)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert all(r == reports[0] for r in reports + at_once) and reports[0]["turns"]
        assert len(analyses) == 1
    # a restart (or another process over the same database) finds it kept
    with TestClient(create_app(database_url)) as client:
        assert client.get(f"/api/games/{game_id}/analysis").json() == reports[0]
        assert len(analyses) == 1


def test_idle_games_leave_memory_and_come_back_as_they_were(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATHABLE_LIVE_GAMES", "2")
    app: FastAPI = create_app(database_url)
    service = app.state.service
    with TestClient(app) as client:

        def create() -> tuple[str, list[str]]:
            made = client.post("/api/games", json=PEOPLE).json()
            return made["id"], [s["token"] for s in made["seats"]]

        first, tokens = create()
        mover = tokens[client.get(f"/api/games/{first}").json()["to_move"]]
        legal = client.get(f"/api/games/{first}", params={"token": mover}).json()["legal"]
        action = next((a for a in legal if "=" in a), "pass")  # a deal may offer none
        body = {"token": mover, "action": action}
        assert client.post(f"/api/games/{first}/actions", json=body).status_code == 200
        before = [client.get(f"/api/games/{first}", params={"token": t}).json() for t in tokens]
        watched, _ = create()
        with client.websocket_connect(f"/api/games/{watched}/ws") as watcher:
            assert watcher.receive_json()["type"] == "view"
            for _ in range(3):
                create()
            assert first not in service.live  # idle: evicted
            assert watched in service.live  # watched: kept, however old
            assert len(service.live) <= 3
        after = [client.get(f"/api/games/{first}", params={"token": t}).json() for t in tokens]
        assert after == before and first in service.live  # reloaded on demand, the same
        mover = tokens[after[0]["to_move"]]
        legal = client.get(f"/api/games/{first}", params={"token": mover}).json()["legal"]
        body = {
            "token": mover,
            "action": next((a for a in legal if "=" in a or a == "end"), "pass"),
        }
        assert client.post(f"/api/games/{first}/actions", json=body).status_code == 200


def test_listing_games_loads_none_of_them(database_url: str) -> None:
    with TestClient(create_app(database_url)) as first:
        first.get("/api/me")  # a browser's session: its one-screen games are listed to it
        ids = [first.post("/api/games", json=PEOPLE).json()["id"] for _ in range(3)]
        expected = first.get("/api/games").json()
        cookies = dict(first.cookies)
    assert {g["id"] for g in expected} == set(ids)
    app: FastAPI = create_app(database_url)  # a restarted server: nothing in memory
    with TestClient(app, cookies=cookies) as client:
        assert client.get("/api/games").json() == expected
        assert client.get("/api/games").json() == expected
        assert len(app.state.service.live) == 0


def test_games_watched_beyond_the_memory_bound_still_hear_every_action(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With more watched games than ``MATHABLE_LIVE_GAMES``, a game loaded anew was
    evicted at once, so its sockets hung on a copy nobody updated (found by the load
    benchmark). Every watcher hears the actions of its game."""
    monkeypatch.setenv("MATHABLE_LIVE_GAMES", "1")
    app: FastAPI = create_app(database_url)
    with TestClient(app) as client:
        made = [client.post("/api/games", json=PEOPLE).json() for _ in range(3)]
        sockets = [client.websocket_connect(f"/api/games/{m['id']}/ws") for m in made]
        watchers = [s.__enter__() for s in sockets]
        try:
            for made_game, watcher in zip(made, watchers, strict=True):
                assert watcher.receive_json()["type"] == "view"
                game_id = made_game["id"]
                tokens = [s["token"] for s in made_game["seats"]]
                mover = tokens[client.get(f"/api/games/{game_id}").json()["to_move"]]
                view = client.get(f"/api/games/{game_id}", params={"token": mover}).json()
                action = next((a for a in view["legal"] if "=" in a), "pass")
                body = {"token": mover, "action": action}
                assert client.post(f"/api/games/{game_id}/actions", json=body).status_code == 200
                heard = receive_within(watcher, 30)
                assert heard is not None, f"the watcher of {game_id} heard nothing"
                assert heard["type"] == "view" and heard["view"]["seq"] == 1, game_id
        finally:
            for socket in reversed(sockets):
                socket.__exit__(None, None, None)
