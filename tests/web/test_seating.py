"""Seats bound to players (issue 15, "Players": seat credentials out of URLs): the
creator's seat and the computer seats bound on creation, an invitation's seat bound to
whoever follows it, a seek's seats to its players; the session cookie then opens the
seat over HTTP and the game's socket without a token, another cookie is a spectator
refused with a reason; one player takes one seat; the seeks table keeps no token; my
games list the games I sit at, those where it is my turn first. On SQLite and
PostgreSQL (``database_url``)."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from mathable.web.infra.db import game_players, seeks
from mathable.web.infra.store import EventStore
from support.lobby import person

pytestmark = pytest.mark.usefixtures("no_worker_processes")


def ok(response: httpx2.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def refused(response: httpx2.Response, status: int) -> str:
    assert response.status_code == status, response.text
    error: str = response.json()["error"]
    return error


def me(client: TestClient) -> str:
    found: str = ok(client.get("/api/me"))["id"]
    return found


def store_of(main: TestClient) -> EventStore:
    app: Any = main.app
    store: EventStore = app.state.service.store
    return store


def bound(main: TestClient, game_id: str) -> dict[int, str]:
    """The game's rows in ``game_players``: seat -> player id."""
    with store_of(main).reading() as connection:
        rows = connection.execute(
            select(game_players.c.seat, game_players.c.player_id).where(
                game_players.c.game_id == game_id
            )
        ).all()
    return {int(seat): str(player) for seat, player in rows}


def online(client: TestClient, *names: str, bot: str | None = None) -> dict[str, Any]:
    players: list[dict[str, Any]] = [{"name": n} for n in names]
    if bot is not None:
        players.append({"name": "Computer", "bot": bot})
    made: dict[str, Any] = ok(
        client.post(
            "/api/games", json={"variant": "classic", "players": players, "mode": "online"}
        ),
        201,
    )
    return made


def invite_of(made: dict[str, Any], seat: int) -> str:
    return str(made["seats"][seat]["invite"]).rpartition("invite=")[2]


def view(client: TestClient, game_id: str) -> dict[str, Any]:
    found: dict[str, Any] = ok(client.get(f"/api/games/{game_id}"))
    return found


def test_seats_are_bound_on_create_and_join_and_the_cookie_then_plays(main: TestClient) -> None:
    ann, bob, eve = (person(main, n) for n in ("Ann", "Bob", "Eve"))
    made = online(ann, "Ann", "Bob", "Cid", bot="gentle")
    game_id = made["id"]
    assert bound(main, game_id) == {0: me(ann), 3: "bot-gentle"}
    joined = ok(bob.post(f"/api/games/{game_id}/join", json={"invite": invite_of(made, 1)}))
    assert joined["seat"] == 1 and joined["token"]  # the token stays, for API clients
    assert bound(main, game_id) == {0: me(ann), 1: me(bob), 3: "bot-gentle"}
    # one player, one seat: Ann cannot take Cid's seat with his invitation too
    why = refused(ann.post(f"/api/games/{game_id}/join", json={"invite": invite_of(made, 2)}), 409)
    assert "one seat" in why and "Ann" in why
    assert 2 not in bound(main, game_id)

    # the cookie opens the seat without a token; another cookie watches
    assert (view(ann, game_id)["seat"], view(bob, game_id)["seat"]) == (0, 1)
    assert view(eve, game_id)["seat"] is None and view(eve, game_id)["rack"] == []
    why = refused(eve.post(f"/api/games/{game_id}/actions", json={"action": "pass"}), 403)
    assert "holds no seat" in why
    to_move = view(eve, game_id)["to_move"]
    if to_move == 2:  # Cid has not come: his seat is to move, nobody can act yet
        return
    mover = {0: ann, 1: bob}[to_move]
    other = {0: bob, 1: ann}[to_move]
    assert "not yours" in refused(
        other.post(f"/api/games/{game_id}/actions", json={"action": "pass"}), 409
    )
    after = ok(mover.post(f"/api/games/{game_id}/actions", json={"action": "pass"}))
    assert after["seat"] == to_move and after["to_move"] != to_move


def test_the_cookie_opens_the_seat_on_the_games_socket(main: TestClient) -> None:
    ann, bob, eve = (person(main, n) for n in ("Ann", "Bob", "Eve"))
    made = online(ann, "Ann", "Bob")
    game_id = made["id"]
    ok(bob.post(f"/api/games/{game_id}/join", json={"invite": invite_of(made, 1)}))
    for client, seat in ((ann, 0), (bob, 1), (eve, None)):
        with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
            first = socket.receive_json()
            assert first["type"] == "view" and first["view"]["seat"] == seat
            if seat is not None:
                assert len(first["view"]["rack"]) == 7
    to_move = view(eve, game_id)["to_move"]
    mover = (ann, bob)[to_move]
    with mover.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        seq = socket.receive_json()["view"]["seq"]
        socket.send_json({"action": "pass", "seq": seq})
        while True:  # the next view, after the pass (presence news may come first)
            message = socket.receive_json()
            assert message["type"] != "error", message
            if message["type"] == "view" and message["view"]["seq"] > seq:
                break
    assert view(eve, game_id)["to_move"] != to_move


def test_a_started_seek_binds_its_players_and_keeps_no_token(main: TestClient) -> None:
    ann, bob = person(main, "Ann"), person(main, "Bob")
    made = ok(ann.post("/api/seeks", json={"variant": "classic", "seats": 2}), 201)
    started = ok(bob.post(f"/api/seeks/{made['id']}/join"))
    assert started["status"] == "started" and started["token"] is None
    game_id = started["game_id"]
    assert bound(main, game_id) == {0: me(ann), 1: me(bob)}
    assert (view(ann, game_id)["seat"], view(bob, game_id)["seat"]) == (0, 1)
    with store_of(main).reading() as connection:
        joined = connection.execute(
            select(seeks.c.joined).where(seeks.c.id == made["id"])
        ).scalar_one()
    assert all("token" not in entry for entry in json.loads(joined))
    assert set(json.loads(joined)[0]) == {"id", "name"}


def test_my_games_list_the_games_i_sit_at_my_turn_first(main: TestClient) -> None:
    ann, bob = person(main, "Ann"), person(main, "Bob")
    games = []
    for _ in range(2):
        made = online(ann, "Ann", "Bob")
        ok(bob.post(f"/api/games/{made['id']}/join", json={"invite": invite_of(made, 1)}))
        games.append(made["id"])
    first, second = games  # the second is the newer: listed first but for the turn
    if view(ann, first)["to_move"] != 0:
        ok(bob.post(f"/api/games/{first}/actions", json={"action": "pass"}))
    if view(ann, second)["to_move"] == 0:
        ok(ann.post(f"/api/games/{second}/actions", json={"action": "pass"}))
    mine = [g for g in ok(ann.get("/api/me/games")) if g["kind"] == "game"]
    assert [(g["game_id"], g["seat"], g["your_turn"]) for g in mine] == [
        (first, 0, True),
        (second, 0, False),
    ]
    assert mine[0]["status"] == "playing" and mine[0]["token"] is None
    assert [p["name"] for p in mine[0]["players"]] == ["Ann", "Bob"]
    theirs = [g for g in ok(bob.get("/api/me/games")) if g["kind"] == "game"]
    assert [(g["game_id"], g["seat"], g["your_turn"]) for g in theirs] == [
        (second, 1, True),
        (first, 1, False),
    ]


def test_a_rematch_binds_each_player_to_their_seat_again(main: TestClient) -> None:
    ann, bob = person(main, "Ann"), person(main, "Bob")
    made = online(ann, "Ann", "Bob")
    game_id = made["id"]
    ok(bob.post(f"/api/games/{game_id}/join", json={"invite": invite_of(made, 1)}))
    ok(bob.post(f"/api/games/{game_id}/abort", json={}))  # by Bob's cookie (O4: no one moved)
    again = ok(ann.post(f"/api/games/{game_id}/rematch", json={}), 201)
    assert bound(main, again["id"]) == {0: me(ann)}
    ok(bob.post(f"/api/games/{game_id}/rematch", json={}), 201)
    assert bound(main, again["id"]) == {0: me(ann), 1: me(bob)}
    assert (view(ann, again["id"])["seat"], view(bob, again["id"])["seat"]) == (0, 1)
