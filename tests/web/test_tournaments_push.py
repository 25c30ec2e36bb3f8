"""A tournament's socket (issue 38), ``/api/tournaments/{id}/ws``: its log's length at
once, a note again when the tournament changes (here a join, seen by the watching task's
look), a refusal for no such tournament, and the sockets closed (1001) when the server
shuts down, so that no open stream holds the shutdown."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from mathable.web.api import create_app
from mathable.web.tournaments.push import GOING_AWAY, Watchers
from support.lobby import PASSWORD, ok, person

SWISS = {
    "name": "Pushed",
    "variant": "classic",
    "system": "swiss",
    "rounds": 1,
    "clock": None,
    "rated": False,
    "private": False,
}


@pytest.fixture
def main(tmp_path: Path, no_worker_processes: None) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'events.db'}")) as client:
        yield client


def test_the_socket_tells_each_change_and_closes_at_shutdown(main: TestClient) -> None:
    ann = person(main, "Ann")
    ok(ann.post("/api/accounts", json={"name": "Ann", "password": PASSWORD}), 201)
    tid = ok(ann.post("/api/tournaments", json=SWISS), 201)["id"]
    with main.websocket_connect(f"/api/tournaments/{tid}/ws") as socket:
        assert socket.receive_json() == {"type": "tournament", "seq": 0}
        ok(ann.post(f"/api/tournaments/{tid}/join"))
        assert socket.receive_json() == {"type": "tournament", "seq": 1}
        watchers: Watchers = main.app.state.tournament_watchers  # type: ignore[attr-defined]
        assert main.portal is not None
        main.portal.call(watchers.close)  # as at the server's shutdown
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == GOING_AWAY
        assert watchers.tasks == {} and watchers.sockets == {}


def test_no_such_tournament_is_refused(main: TestClient) -> None:
    with main.websocket_connect("/api/tournaments/nosuchthing/ws") as socket:
        refused = socket.receive_json()
        assert refused["type"] == "error" and refused["status"] == 404
