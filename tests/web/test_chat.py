"""The chat of a game (issue 15, "Chat"), over the API on both databases: who reads and
writes which room (fair play during the game, both rooms open after it), the bounds of a
message, its text kept as typed, the rate limit, reports, and live delivery on sockets."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from mathable.web.api import create_app
from mathable.web.infra.db import reports
from support.api import finish_by_passing, online, seat_tokens


@pytest.fixture(autouse=True)
def roomy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test client shares an address: a wide chat limit unless a test sets one."""
    monkeypatch.setenv("MATHABLE_RATE_CHAT", "1000/minute")


def chat(client: TestClient, game_id: str, query: str = "") -> Any:
    return client.get(f"/api/games/{game_id}/chat{query}")


def write(client: TestClient, game_id: str, text: str, **body: Any) -> Any:
    return client.post(f"/api/games/{game_id}/chat", json={"text": text, **body})


def texts(answer: Any) -> list[str]:
    assert answer.status_code == 200, answer.text
    return [m["text"] for m in answer.json()["messages"]]


def test_rooms_are_kept_apart_during_the_game_and_open_after_it(database_url: str) -> None:
    app = create_app(database_url)
    players, watcher = TestClient(app), TestClient(app)
    made = online(players)
    game_id = made["id"]
    ann, bob = seat_tokens(players, made)

    mine = write(players, game_id, "good luck", token=ann)
    assert mine.status_code == 201, mine.text
    said = mine.json()
    assert (said["room"], said["name"], said["seat"]) == ("players", "Ann", 0)
    assert write(players, game_id, "you too", token=bob, room="players").json()["name"] == "Bob"
    seen = watcher.get("/api/me").json()
    theirs = write(watcher, game_id, "nice opening")
    assert theirs.status_code == 201, theirs.text
    assert theirs.json()["room"] == "spectators" and theirs.json()["seat"] is None
    assert (theirs.json()["name"], theirs.json()["player"]) == (seen["name"], seen["id"])

    assert texts(chat(players, game_id, f"?token={bob}")) == ["good luck", "you too"]
    after = chat(players, game_id, f"?token={bob}&after={said['id']}")
    assert texts(after) == ["you too"]
    assert texts(chat(watcher, game_id)) == ["nice opening"]
    # fair play: neither room reads the other's during the game, nor writes in it
    for refused in [
        chat(players, game_id, f"?token={ann}&room=spectators"),
        chat(watcher, game_id, "?room=players"),
        write(players, game_id, "psst", token=ann, room="spectators"),
        write(watcher, game_id, "play I8", room="players"),
        chat(watcher, game_id, "?token=guess"),
    ]:
        assert refused.status_code == 403, refused.text
        assert refused.json()["error"]
    assert chat(watcher, "nosuchgame").status_code == 404
    assert texts(chat(players, game_id, f"?token={ann}")) == ["good luck", "you too"]

    finish_by_passing(players, game_id, [ann, bob])
    assert texts(chat(watcher, game_id, "?room=players")) == ["good luck", "you too"]
    assert texts(chat(players, game_id, f"?token={ann}&room=spectators")) == ["nice opening"]
    assert write(watcher, game_id, "well played").status_code == 201  # each in their own
    assert write(players, game_id, "gg", token=ann, room="spectators").status_code == 403


def test_a_message_is_bounded_and_kept_exactly_as_typed(database_url: str) -> None:
    client = TestClient(create_app(database_url))
    made = online(client)
    game_id, ann = made["id"], seat_tokens(client, made)[0]
    for text, why in [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * 501, "at most 500"),
        ("two\nlines", "control"),
        ("bell\x07", "control"),
    ]:
        refused = write(client, game_id, text, token=ann)
        assert refused.status_code == 422, (text, refused.text)
        assert refused.json()["error"].startswith("text:") and why in refused.json()["error"]
    assert write(client, game_id, "x" * 500, token=ann).status_code == 201
    typed = ["<script>alert(1)</script>", "[bold]hi[/bold] & <b>x</b>", "ünïcode ✓ 12×3"]
    for text in typed:
        answer = write(client, game_id, text, token=ann)
        assert answer.status_code == 201 and answer.json()["text"] == text
    assert write(client, game_id, "  spaced  ", token=ann).json()["text"] == "spaced"
    assert texts(chat(client, game_id, f"?token={ann}"))[1:] == [*typed, "spaced"]
    assert write(client, game_id, "hi", token=ann, room="lobby").status_code == 422


def test_too_many_messages_are_refused_with_a_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATHABLE_RATE_CHAT", "5/10 seconds")
    app = create_app("sqlite://")
    here = TestClient(app, client=("10.0.0.1", 5000))
    made = online(here)
    game_id, ann = made["id"], seat_tokens(here, made)[0]
    for n in range(5):
        assert write(here, game_id, f"hello {n}", token=ann).status_code == 201
    refused = write(here, game_id, "one more", token=ann)
    assert refused.status_code == 429
    assert "too many chat messages" in refused.json()["error"]
    assert refused.json()["retry_after"] >= 1 and refused.headers["Retry-After"]
    # the same player from another address is refused too: the limit is also per player
    elsewhere = TestClient(app, client=("10.0.0.2", 5000), cookies=here.cookies)
    again = write(elsewhere, game_id, "from my phone", token=ann)
    assert again.status_code == 429 and "from you " in again.json()["error"]
    someone = TestClient(app, client=("10.0.0.3", 5000))  # another player, address: free
    assert write(someone, game_id, "hi all").status_code == 201


def test_a_report_is_stored(database_url: str) -> None:
    app = create_app(database_url)
    players, watcher = TestClient(app), TestClient(app)
    made = online(players)
    game_id, ann = made["id"], seat_tokens(players, made)[0]
    rude = write(watcher, game_id, "something rude").json()
    me = watcher.get("/api/me").json()["id"]
    reported = players.post(
        f"/api/games/{game_id}/chat/{rude['id']}/report", json={"reason": "insults"}
    )
    assert reported.status_code == 201, reported.text
    missing = players.post(f"/api/games/{game_id}/chat/{rude['id'] + 99}/report", json={})
    assert missing.status_code == 404
    store = app.state.service.store
    with store.reading() as connection:
        rows = connection.execute(select(reports)).all()
    reporter = players.get("/api/me").json()["id"]
    assert [(r.game_id, r.message_id, r.reporter, r.reason) for r in rows] == [
        (game_id, rude["id"], reporter, "insults")
    ]
    assert reporter != me and rude["player"] == me
    assert ann  # the reporter need not be seated


def next_chat(socket: Any) -> dict[str, Any]:
    """The socket's next chat message; the views sent meanwhile (a player connecting
    changes who is present: a new view) are skipped."""
    for _ in range(10):
        got: dict[str, Any] = socket.receive_json()
        if got["type"] != "view":
            return got
    raise AssertionError("no chat message among ten")


def test_new_messages_reach_the_sockets_that_may_read_them(database_url: str) -> None:
    with TestClient(create_app(database_url)) as client:
        made = online(client)
        game_id = made["id"]
        ann, bob = seat_tokens(client, made)
        base = f"/api/games/{game_id}/ws"
        with (
            client.websocket_connect(f"{base}?token={ann}") as to_ann,
            client.websocket_connect(f"{base}?token={bob}") as to_bob,
            client.websocket_connect(base) as to_watcher,
        ):
            for socket in (to_ann, to_bob, to_watcher):
                assert socket.receive_json()["type"] == "view"
            for posted in [
                write(client, game_id, "watching closely"),  # spectators' room
                write(client, game_id, "<b>hi</b>", token=ann),  # players' room
            ]:
                assert posted.status_code == 201, posted.text
            for socket in (to_ann, to_bob):  # the players get theirs, not the watchers'
                got = next_chat(socket)
                assert got["type"] == "chat" and got["message"]["text"] == "<b>hi</b>"
                assert got["message"]["name"] == "Ann"
            got = next_chat(to_watcher)
            assert got["type"] == "chat" and got["message"]["text"] == "watching closely"
            assert write(client, game_id, "second", token=bob).status_code == 201
            assert write(client, game_id, "me again").status_code == 201
            assert next_chat(to_watcher)["message"]["text"] == "me again"
            assert next_chat(to_ann)["message"]["text"] == "second"
