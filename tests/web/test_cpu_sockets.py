"""``mathable serve``'s WebSockets without per-message deflate (issue 34, cheaper
actions): a client that offers compression (as browsers and the websockets library do)
is answered with plain frames, and the game plays on them as before."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from mathable.cli.serve import SOCKET_OPTIONS
from support import oneoff
from webserver import Server

GAME = {
    "variant": "classic",
    "players": [{"name": "Ann"}, {"name": "Bob"}],
    "mode": "screen",
    "seed": 3,
}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    served = Server(tmp_path / "games.db", env={"MATHABLE_WORKERS": "0"})
    try:
        yield served.start()
    finally:
        served.stop()


def test_the_server_is_configured_without_socket_compression() -> None:
    assert SOCKET_OPTIONS == {"ws_per_message_deflate": False}


@pytest.mark.slow
def test_a_client_offering_deflate_gets_plain_frames_and_plays(server: Server) -> None:
    made = oneoff.post(server.url + "/api/games", json=GAME, timeout=30)
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    tokens = [seat["token"] for seat in made.json()["seats"]]
    url = server.url.replace("http://", "ws://") + f"/api/games/{game_id}/ws"
    with (
        connect(f"{url}?token={tokens[0]}&patches=1", compression="deflate") as seat,
        connect(url, compression="deflate") as watcher,
    ):
        offered = seat.request.headers.get("Sec-WebSocket-Extensions") if seat.request else None
        assert offered is not None and "permessage-deflate" in offered  # asked for
        for ws in (seat, watcher):
            assert ws.response is not None
            assert ws.response.headers.get("Sec-WebSocket-Extensions") is None  # refused
            assert ws.protocol.extensions == []
        first = json.loads(seat.recv(timeout=30))
        assert first["type"] == "view" and first["view"]["seq"] == 0
        assert json.loads(watcher.recv(timeout=30))["type"] == "view"
        view: dict[str, Any] = first["view"]
        mover = tokens[view["to_move"]]
        action = next(a for a in view["legal"] if "=" in a) if view["legal"] else "pass"
        if view["to_move"] != 0:  # the other seat acts over HTTP
            legal = oneoff.get(
                server.url + f"/api/games/{game_id}", params={"token": mover}, timeout=30
            ).json()["legal"]
            action = next((a for a in legal if "=" in a), legal[0])
        acted = oneoff.post(
            server.url + f"/api/games/{game_id}/actions",
            json={"token": mover, "action": action, "seq": 0},
            timeout=30,
        )
        assert acted.status_code == 200, acted.text
        update = json.loads(seat.recv(timeout=30))
        assert update["type"] == "patch" and update["seq"] == 1
        watched = json.loads(watcher.recv(timeout=30))
        assert watched["type"] == "view" and watched["view"]["seq"] == 1
