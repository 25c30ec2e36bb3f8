"""What a client sends on a game's socket is typed (issue 34: ``ClientIn``, a union of
models as lila-ws's): an action ``{"action": "I8=12", "seq": n}``, or ``{"type": "sync"}``.
A frame that is neither is refused as it always was: a spectator's as a spectator's,
otherwise by the first field at fault (the action, then the seq), and nothing changes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from mathable.web.api import create_app
from mathable.web.rounds.schemas import CLIENT_IN, ActionIn, SyncIn

GAME = {
    "variant": "classic",
    "players": [{"name": "Ann"}, {"name": "Bob"}],
    "seed": 7,
    "mode": "screen",
}
ACTION_TEXT = "action: a text such as I8=12, end, pass or exchange 3,5"
SEQ_TEXT = "seq: the number of actions you have seen"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as made:
        yield made


@pytest.mark.parametrize(
    ("message", "model"),
    [
        ({"action": "I8=12", "seq": 3}, ActionIn(action="I8=12", seq=3)),
        ({"action": "pass"}, ActionIn(action="pass")),
        ({"type": "other", "action": "end", "extra": [1]}, ActionIn(action="end")),
        ({"type": "sync"}, SyncIn(type="sync")),
    ],
)
def test_a_frame_is_read_into_its_model(message: dict[str, Any], model: Any) -> None:
    assert CLIENT_IN.validate_python(message) == model


@pytest.mark.parametrize(
    "message",
    [{"action": 5}, {"action": "end", "seq": True}, {"action": "end", "seq": 1.0}, {}],
)
def test_a_frame_of_the_wrong_types_is_no_client_message(message: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        CLIENT_IN.validate_python(message)


def refusal(ws: Any, message: dict[str, Any]) -> dict[str, Any]:
    ws.send_json(message)
    answer: dict[str, Any] = ws.receive_json()
    assert answer["type"] == "error", answer
    return answer


@pytest.mark.parametrize(
    ("message", "status", "error"),
    [
        ({"action": 5}, 400, ACTION_TEXT),
        ({"action": 5, "seq": "x"}, 400, ACTION_TEXT),
        ({"seq": 1}, 400, ACTION_TEXT),
        ({"action": "   "}, 400, ACTION_TEXT),
        ({"action": "x" * 101}, 400, ACTION_TEXT),
        ({"action": "pass", "seq": "1"}, 400, SEQ_TEXT),
        ({"action": "pass", "seq": False}, 400, SEQ_TEXT),
    ],
)
def test_a_seat_is_told_which_field_is_at_fault(
    client: TestClient, message: dict[str, Any], status: int, error: str
) -> None:
    made = client.post("/api/games", json=GAME).json()
    path = f"/api/games/{made['id']}"
    mover = client.get(path).json()["to_move"]
    with client.websocket_connect(f"{path}/ws?token={made['seats'][mover]['token']}") as ws:
        assert ws.receive_json()["view"]["seq"] == 0
        answer = refusal(ws, message)
        assert (answer["status"], answer["error"]) == (status, error)
    assert client.get(path).json()["seq"] == 0  # nothing changed


@pytest.mark.parametrize("message", [{"action": 5}, {"action": "pass"}, {}])
def test_a_spectator_is_refused_as_a_spectator_whatever_they_send(
    client: TestClient, message: dict[str, Any]
) -> None:
    made = client.post("/api/games", json=GAME).json()
    with client.websocket_connect(f"/api/games/{made['id']}/ws") as ws:
        assert ws.receive_json()["view"]["seat"] is None
        answer = refusal(ws, message)
        assert answer["status"] == 403 and answer["error"].startswith("spectators cannot play")


def test_a_seat_plays_and_syncs_on_its_socket(client: TestClient) -> None:
    made = client.post("/api/games", json=GAME).json()
    path = f"/api/games/{made['id']}"
    mover = client.get(path).json()["to_move"]
    with client.websocket_connect(f"{path}/ws?token={made['seats'][mover]['token']}") as ws:
        first = ws.receive_json()["view"]
        action = next(a for a in first["legal"] if a not in ("pass", "end"))
        ws.send_json({"type": "anything", "action": action, "seq": 0})
        assert ws.receive_json()["view"]["seq"] == 1
        ws.send_json({"type": "sync"})
        again = ws.receive_json()
        assert again["type"] == "view" and again["view"]["seq"] == 1
