"""The web API: every endpoint, bad input answered with a clear 4xx and nothing changed,
live updates over WebSocket, hidden information kept hidden, a restart losing nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mathable.engine.conformance import _holds
from mathable.web.api import create_app

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "worked-example.txt"


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}"))


def new_game(client: TestClient, **spec: Any) -> dict[str, Any]:
    body = {"variant": "classic", "players": [{"name": "Ann"}, {"name": "Bob"}], "seed": 7}
    body.update(spec)
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    suffix = f"?token={token}" if token else ""
    response = client.get(f"/api/games/{game_id}{suffix}")
    assert response.status_code == 200, response.text
    return response.json()


def act(client: TestClient, game_id: str, token: str, action: str, **extra: Any) -> Any:
    return client.post(
        f"/api/games/{game_id}/actions", json={"token": token, "action": action, **extra}
    )


def tokens(made: dict[str, Any]) -> list[str]:
    return [s["token"] for s in made["seats"]]


def test_variants_bots_and_the_page(client: TestClient) -> None:
    names = [v["name"] for v in client.get("/api/variants").json()]
    assert names == ["classic", "junior", "junior-numbers", "quattro"]
    board = client.get("/api/variants").json()[0]["board"]
    assert board["size"] == 14 and len(board["squares"]) == 196
    assert [b["name"] for b in client.get("/api/bots").json()][:2] == ["gentle", "greedy"]
    assert "Mathable" in client.get("/").text and client.get("/static/app.js").status_code == 200
    assert client.get("/g/anything").status_code == 200
    assert "/api/games/{game_id}/actions" in client.get("/openapi.json").json()["paths"]


def test_a_seat_sees_its_rack_and_a_spectator_none(client: TestClient) -> None:
    made = new_game(client)
    ann, bob = tokens(made)
    mine = view(client, made["id"], ann)
    public = view(client, made["id"])
    assert mine["seat"] == 0 and len(mine["rack"]) == 7
    assert public["seat"] is None and public["rack"] == [] and public["legal"] == []
    to_move = mine["to_move"]
    assert (view(client, made["id"], [ann, bob][to_move])["legal"]) != []


def test_playing_and_every_refusal(client: TestClient) -> None:
    made = new_game(client)
    game_id = made["id"]
    seat_tokens = tokens(made)
    start = view(client, game_id, seat_tokens[0])
    mover, other = seat_tokens[start["to_move"]], seat_tokens[1 - start["to_move"]]
    legal = [a for a in view(client, game_id, mover)["legal"] if "=" in a]
    before = view(client, game_id, mover)
    refusals = [
        (act(client, game_id, "not-a-token", legal[0]), 403, "token"),
        (act(client, game_id, other, legal[0]), 409, "turn"),
        (act(client, game_id, mover, "A1=" + legal[0].split("=")[1].rstrip("+")), 422, "rule"),
        (act(client, game_id, mover, "Z99=1"), 400, ""),
        (act(client, game_id, mover, "I8=12", seq=99), 409, "moved on"),
        (
            client.post("/api/games/nope/actions", json={"token": mover, "action": "end"}),
            404,
            "no game",
        ),
        (
            client.post(
                f"/api/games/{game_id}/actions",
                content=b"{not json",
                headers={"content-type": "application/json"},
            ),
            422,
            "JSON",
        ),
        (client.post(f"/api/games/{game_id}/actions", json={"action": "end"}), 422, "token"),
        (client.get(f"/api/games/{game_id}?token=wrong"), 403, "token"),
        (client.get("/api/games/unknown"), 404, "no game"),
        (client.get(f"/api/games/{game_id}/record"), 409, "still being played"),
        (client.get(f"/api/games/{game_id}/replay?step=1"), 409, "still being played"),
        (client.get(f"/api/games/{game_id}/analysis"), 409, "still being played"),
    ]
    for response, status, words in refusals:
        assert response.status_code == status, (response.status_code, response.text)
        assert words.lower() in response.json()["error"].lower()
    illegal = refusals[2][0].json()
    assert illegal["rule"].startswith("C") and illegal["where"] == "A1"
    assert view(client, game_id, mover) == before  # nothing changed
    hint = client.get(f"/api/games/{game_id}/hint?token={mover}")
    assert hint.status_code == 200 and hint.json()["turns"][0]["points"] > 0
    assert client.get(f"/api/games/{game_id}/hint?token={other}").status_code == 409
    assert client.get(f"/api/games/{game_id}/hint").status_code == 409
    ok = act(client, game_id, mover, legal[0], seq=before["seq"])
    assert ok.status_code == 200 and ok.json()["seq"] == before["seq"] + 1


def test_bad_game_specs_are_refused(client: TestClient) -> None:
    for body, words in [
        ({"variant": "chess", "players": [{"name": "A"}, {"name": "B"}]}, "unknown game"),
        ({"players": [{"name": "A"}]}, "players"),
        ({"players": [{"name": "A"}, {"name": "B", "bot": "nobody"}]}, "unknown bot"),
        ({"players": [{"name": "A"}, {"name": "B"}], "seed": -1}, "seed"),
        ({"players": [{"name": "A"}, {"name": "B"}], "rounds": 0}, "rounds"),
        ({"players": "Ann"}, "players"),
    ]:
        response = client.post("/api/games", json=body)
        assert 400 <= response.status_code < 500, response.text
        assert words in response.json()["error"]
    assert client.get("/api/games").json() == []


def test_bots_move_after_a_person_and_a_bot_game_finishes(client: TestClient) -> None:
    made = new_game(client, players=[{"name": "Ann"}, {"name": "Robo", "bot": "greedy"}])
    ann = tokens(made)[0]
    state = view(client, made["id"], ann)
    assert state["to_move"] == 0  # the bot has played if it started
    turns_before = len(state["turns"])
    action = next(a for a in state["legal"] if "=" in a)
    act(client, made["id"], ann, action)
    if len(view(client, made["id"])["turns"]) == turns_before:  # Ann's turn goes on
        assert act(client, made["id"], ann, "end").status_code == 200
    after = view(client, made["id"], ann)
    assert [t["seat"] for t in after["turns"][turns_before:]] == [0, 1]  # Ann, then the bot
    assert after["to_move"] == 0
    bots = new_game(
        client, players=[{"name": "A", "bot": "greedy"}, {"name": "B", "bot": "gentle"}]
    )
    finished = view(client, bots["id"])
    assert finished["over"] and finished["winners"]
    record = client.get(f"/api/games/{bots['id']}/record")
    assert record.status_code == 200 and json.loads(record.text)["format"] == "mathable-record"
    step = client.get(f"/api/games/{bots['id']}/replay?step=3").json()
    assert step["step"] == 3 and step["total"] == finished["seq"] and step["action"]
    sheet = client.get(f"/api/games/{bots['id']}/transcript")
    assert sheet.status_code == 200 and sheet.text.startswith("# Mathable")
    scored = client.post("/api/transcripts", json={"text": sheet.text}).json()
    assert scored["totals"] == dict(zip(finished["players"], finished["scores"], strict=True))
    analysis = client.get(f"/api/games/{bots['id']}/analysis").json()
    assert analysis["turns"] and {p["player"] for p in analysis["players"]} == {"A", "B"}
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    assert listed[bots["id"]]["over"] and not listed[made["id"]]["over"]


def test_records_and_score_sheets_upload(client: TestClient) -> None:
    bots = new_game(
        client, players=[{"name": "A", "bot": "greedy"}, {"name": "B", "bot": "greedy"}]
    )
    record = client.get(f"/api/games/{bots['id']}/record").text
    uploaded = client.post(
        "/api/records", content=record, headers={"content-type": "application/json"}
    )
    assert uploaded.status_code == 201, uploaded.text
    again = view(client, uploaded.json()["id"])
    assert again["scores"] == view(client, bots["id"])["scores"]
    broken = json.loads(record)
    broken["actions"][3] = "A1=99"
    bad = client.post("/api/records", json=broken)
    assert bad.status_code == 400 and "action 4" in bad.json()["error"]
    assert (
        client.post(
            "/api/records", content=b"[1,", headers={"content-type": "application/json"}
        ).status_code
        == 422
    )
    sheet = client.post("/api/transcripts", json={"text": EXAMPLE.read_text()})
    assert sheet.json()["totals"] == {"Ann": 39, "Bob": 121}
    wrong = client.post("/api/transcripts", json={"text": "Ann: A1=5"})
    assert wrong.status_code == 422 and "line 1" in wrong.json()["error"]


def test_websocket_live_updates_and_refusals(client: TestClient) -> None:
    made = new_game(client)
    ann, bob = tokens(made)
    first = view(client, made["id"], ann)["to_move"]
    mover, watcher = ([ann, bob][first], [ann, bob][1 - first])
    with (
        client.websocket_connect(f"/api/games/{made['id']}/ws?token={mover}") as mine,
        client.websocket_connect(f"/api/games/{made['id']}/ws?token={watcher}") as theirs,
        client.websocket_connect(f"/api/games/{made['id']}/ws") as public,
    ):
        start = mine.receive_json()["view"]
        theirs.receive_json()
        public.receive_json()
        action = next(a for a in start["legal"] if "=" in a)
        mine.send_text(json.dumps({"action": action, "seq": start["seq"]}))
        for socket in (mine, theirs, public):
            update = socket.receive_json()
            assert update["type"] == "view" and update["view"]["seq"] == start["seq"] + 1
        mine.send_text("{nope")
        assert mine.receive_json()["status"] == 400
        waiting = theirs if update["view"]["to_move"] == start["to_move"] else mine
        waiting.send_text(json.dumps({"action": "pass"}))
        refusal = waiting.receive_json()
        assert refusal["type"] == "error" and refusal["status"] == 409
    with client.websocket_connect(f"/api/games/{made['id']}/ws?token=bad") as bad:
        assert bad.receive_json()["status"] == 403


def test_no_response_holds_another_seats_rack_or_the_bag(client: TestClient) -> None:
    """Walk every endpoint and socket as each seat and as a spectator while the game runs."""
    made = new_game(client, players=[{"name": "A"}, {"name": "B"}, {"name": "C"}], seed=3)
    game_id, seat_tokens = made["id"], tokens(made)
    app_service = client.app.state.service  # type: ignore[attr-defined]
    for _ in range(12):
        game = app_service.get(game_id).game
        secrets_by_seat = {s: list(game.rack(s)) for s in range(3)}
        bag = list(game.bag_order())
        for viewer in [None, 0, 1, 2]:
            token = None if viewer is None else seat_tokens[viewer]
            seen: list[Any] = [view(client, game_id, token), client.get("/api/games").json()]
            with client.websocket_connect(
                f"/api/games/{game_id}/ws" + (f"?token={token}" if token else "")
            ) as socket:
                seen.append(socket.receive_json())
            for seat, rack in secrets_by_seat.items():
                if seat != viewer:
                    assert not _holds(seen, rack), f"seat {viewer} sees seat {seat}'s rack"
            assert not _holds(seen, bag) and not any(_holds(seen, bag[:k]) for k in (7, 14)), (
                "the bag order leaked"
            )
        mover = seat_tokens[game.to_move]
        legal = view(client, game_id, mover)["legal"]
        act(client, game_id, mover, next((a for a in legal if "=" in a), "pass"))


def test_a_restart_loses_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    first = TestClient(create_app(url))
    made = new_game(first)
    ann, bob = tokens(made)
    mover = [ann, bob][view(first, made["id"], ann)["to_move"]]
    action = next(a for a in view(first, made["id"], mover)["legal"] if "=" in a)
    act(first, made["id"], mover, action)
    before = view(first, made["id"], ann)
    second = TestClient(create_app(url))  # a new process on the same file
    assert view(second, made["id"], ann) == before
