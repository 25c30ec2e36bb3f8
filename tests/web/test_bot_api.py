"""The Bot API (issue 36) on a real server: bot accounts and their tokens, the refusals,
challenges (accepted, declined, canceled, expired), the event and game streams, and a
game two bots' programs... one bot and one person's client play to the end."""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

from support.waiting import eventually
from webserver import Server

SCRIPTED = {"X-Requested-With": "test"}


@pytest.fixture(scope="module")
def bot_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("bots") / "games.db").start()
    yield running
    running.stop()


def account(server: Server, name: str | None = None) -> tuple[httpx2.Client, str]:
    """A client logged in to a new account (its cookie jar), and the account's name."""
    name = name or "P" + secrets.token_hex(4)
    client = httpx2.Client(base_url=server.url, timeout=10)
    made = client.post("/api/accounts", json={"name": name, "password": "secret-pass-1"})
    assert made.status_code == 201, made.text
    return client, name


def bot(server: Server) -> tuple[httpx2.Client, str, str]:
    """A new bot account: a bearer client, its name, its token."""
    person, name = account(server)
    made = person.post("/api/account/bot", headers=SCRIPTED)
    assert made.status_code == 200, made.text
    token = made.json()["token"]
    client = httpx2.Client(
        base_url=server.url, timeout=10, headers={"Authorization": f"Bearer {token}"}
    )
    return client, name, token


def test_routes_refuse_without_a_good_token(bot_server: Server) -> None:
    plain = httpx2.Client(base_url=bot_server.url, timeout=10)
    assert plain.get("/api/stream/event").status_code == 401
    wrong = {"Authorization": "Bearer " + secrets.token_urlsafe(32)}
    assert plain.get("/api/stream/event", headers=wrong).status_code == 401
    assert plain.get("/api/stream/event", headers={"Authorization": "Basic x"}).status_code == 401
    assert plain.post("/api/bot/game/nothing/move/end", headers=wrong).status_code == 401
    client, _name, _token = bot(bot_server)
    assert client.get("/api/account").json()["bot_account"] is True
    assert client.delete("/api/account/bot/token").status_code == 200
    revoked = client.get("/api/account")
    assert revoked.status_code == 401, revoked.text
    assert "revoked" in revoked.json()["error"]


def test_a_person_bearer_and_a_player_with_games_cannot_be_bots(bot_server: Server) -> None:
    person, _name = account(bot_server)
    guest = httpx2.Client(base_url=bot_server.url, timeout=10)
    guest.get("/api/me")
    assert guest.post("/api/account/bot", headers=SCRIPTED).status_code == 401
    made = person.post(
        "/api/games",
        json={"variant": "junior", "players": [{"name": "Me"}, {"name": "C", "bot": "gentle"}]},
    )
    assert made.status_code == 201, made.text
    refused = person.post("/api/account/bot", headers=SCRIPTED)
    assert refused.status_code == 409
    assert "played no game" in refused.json()["error"]
    # a person's session is not a bearer token: the bot routes stay shut
    assert person.get("/api/stream/event").status_code == 401
    # nor does a cookie change pass from another site (Origin checks kept for cookies)
    foreign = person.post("/api/account/bot", headers={"Origin": "https://evil.example"})
    assert foreign.status_code == 403


def test_challenges_declined_canceled_and_refused(bot_server: Server) -> None:
    client, name, _token = bot(bot_server)
    person, person_name = account(bot_server)
    sent = person.post(f"/api/challenge/{name}", json={"variant": "junior"})
    assert sent.status_code == 201, sent.text
    challenge = sent.json()
    assert challenge["dest"]["bot_account"] is True and challenge["status"] == "created"
    assert person.post(f"/api/challenge/{challenge['id']}/accept").status_code == 403
    declined = client.post(f"/api/challenge/{challenge['id']}/decline")
    assert declined.json()["status"] == "declined"
    assert client.post(f"/api/challenge/{challenge['id']}/accept").status_code == 409
    again = client.post(f"/api/challenge/{person_name}", json={"variant": "classic"}).json()
    assert person.get("/api/challenge").json()["in"][0]["id"] == again["id"]
    assert client.post(f"/api/challenge/{again['id']}/cancel").json()["status"] == "canceled"
    assert person.post("/api/challenge/nobody-at-all", json={}).status_code == 404
    assert person.post(f"/api/challenge/{person_name}", json={}).status_code == 400
    bad = person.post(f"/api/challenge/{name}", json={"variant": "chess"})
    assert bad.status_code == 400


def events(client: httpx2.Client, found: list[dict[str, Any]], stop: threading.Event) -> None:
    """Read the event stream into ``found`` until ``stop``."""
    with client.stream("GET", "/api/stream/event", timeout=httpx2.Timeout(10, read=None)) as r:
        assert r.status_code == 200
        for text in r.iter_lines():
            if stop.is_set():
                return
            if text.strip():
                found.append(json.loads(text))


def test_the_streams_and_a_game_to_its_end(bot_server: Server) -> None:
    client, name, _token = bot(bot_server)
    person, _person_name = account(bot_server)
    found: list[dict[str, Any]] = []
    stop = threading.Event()
    reader = threading.Thread(target=events, args=(client, found, stop), daemon=True)
    reader.start()
    sent = person.post(f"/api/challenge/{name}", json={"variant": "junior"}).json()
    assert eventually(lambda: any(e["type"] == "challenge" for e in found))
    accepted = client.post(f"/api/challenge/{sent['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    game_id = accepted.json()["game_id"]
    assert eventually(lambda: any(e["type"] == "gameStart" for e in found))
    start = next(e for e in found if e["type"] == "gameStart")["game"]
    assert start["id"] == game_id and start["seat"] == 1
    # not your game, and not your turn
    other, _n, _t = bot(bot_server)
    assert other.post(f"/api/bot/game/{game_id}/move/pass").status_code == 403
    early = client.post(f"/api/bot/game/{game_id}/move/pass")
    assert early.status_code == 409, early.text
    with client.stream("GET", f"/api/bot/game/stream/{game_id}") as stream:
        views = (json.loads(line) for line in stream.iter_lines() if line.strip())
        first = next(views)
        assert first["type"] == "gameFull" and first["view"]["seat"] == 1
        assert first["view"]["rack"] and "legal" in first["view"]
        last = first
        # the person passes, the bot passes too: two rounds without a placement end the
        # game (C11)
        for _turn in range(50):
            view = person.get(f"/api/games/{game_id}").json()
            if view["over"]:
                break
            if view["to_move"] == 0:
                acted = person.post(
                    f"/api/games/{game_id}/actions", json={"action": "pass", "seq": view["seq"]}
                )
                assert acted.status_code == 200, acted.text
                continue
            while last["view"]["seq"] < view["seq"]:
                last = next(views)
            assert last["type"] == "gameState"
            moved = client.post(f"/api/bot/game/{game_id}/move/pass")
            assert moved.status_code == 200, moved.text
        states = list(views)
    assert states[-1]["view"]["over"]
    assert eventually(lambda: any(e["type"] == "gameFinish" for e in found))
    stop.set()
