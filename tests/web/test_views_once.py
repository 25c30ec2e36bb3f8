"""Each seat's view is built once per action (issue 13, performance): the broadcast to
its sockets, the answer to the action and a new socket's first view share it, and the
HTTP answer is the very JSON its socket was sent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mathable.web.api import create_app
from mathable.web.rounds import views as views_module

PEOPLE = {
    "variant": "classic",
    "players": [{"name": "Ann"}, {"name": "Bob"}],
    "mode": "screen",
    "seed": 7,
}


def test_a_view_is_built_once_per_action_and_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[Any] = []
    real = views_module.view_data

    def counted(game: Any, view: Any) -> dict[str, Any]:
        built.append(view.seat)
        return real(game, view)

    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as client:
        made = client.post("/api/games", json=PEOPLE).json()
        game_id, tokens = made["id"], [s["token"] for s in made["seats"]]
        path = f"/api/games/{game_id}"
        mover = client.get(path).json()["to_move"]
        with (
            client.websocket_connect(f"{path}/ws?token={tokens[mover]}") as seat,
            client.websocket_connect(f"{path}/ws") as watcher,
        ):
            first = seat.receive_json()["view"]
            assert watcher.receive_json()["view"]["seat"] is None
            action = next(a for a in first["legal"] if a not in ("pass", "end"))
            monkeypatch.setattr(views_module, "view_data", counted)
            answer = client.post(f"{path}/actions", json={"token": tokens[mover], "action": action})
            assert answer.status_code == 200, answer.text
            sent = seat.receive_json()["view"]
            assert watcher.receive_json()["view"]["seq"] == 1
            assert answer.json() == sent  # the answer is the view the socket was sent
            assert built == [None]  # once for all seats: the spectator's, shared (issue 34)
            built.clear()
            again = client.get(path, params={"token": tokens[mover]})
            assert again.json() == sent and built == []  # nothing new: not built again
