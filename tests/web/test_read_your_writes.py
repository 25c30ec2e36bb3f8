"""Read your writes across processes (issue 29, finding 11): two ``mathable serve``
processes over one database (SQLite and PostgreSQL); an action made on one and, at once,
a GET or a new socket on the other: the other shows it (it catches up before answering,
without waiting for the change feed), and the next action, sent there with the seq it
showed, is accepted, never a 409.

The change feed is late by its nature (SQLite's poller looks a few times a second); on
PostgreSQL its notes come within milliseconds, so before each action the tests cut the
feeds' connections (as a network blip would: they come back a second later), leaving
the processes to catch up by themselves.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from websockets.sync.client import connect

from support import oneoff
from webserver import Server

TURNS = 8
GAME = {
    "variant": "classic",
    "players": [{"name": "Ann"}, {"name": "Bob"}],
    "mode": "screen",
    "seed": 3,
}
"""Two people at one screen: the creator holds both tokens, so one test plays both."""


@pytest.fixture
def two_servers(database_url: str) -> Iterator[list[Server]]:
    servers = [
        Server(database_url, env={"MATHABLE_WORKERS": "0", "MATHABLE_RATE_ACTION": "off"})
        for _ in range(2)
    ]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


def blind(database_url: str) -> None:
    """On PostgreSQL, cut every process's change feed (its ``LISTEN`` connection) for a
    second: what another process stores is not heard of meanwhile."""
    if not database_url.startswith("postgresql"):
        return  # the SQLite poller is late enough by itself
    with psycopg.connect(database_url, autocommit=True) as connection:
        connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND (query LIKE 'LISTEN %' OR query LIKE 'SELECT game_id, max(seq) + 1 FROM %')"
        )


def choose(view: dict[str, Any]) -> str:
    """The mover's action: a placement if there is one, else the first legal word."""
    legal: list[str] = view["legal"]
    return next((a for a in legal if "=" in a), legal[0])


def new_game(server: Server) -> tuple[str, list[str]]:
    made = oneoff.post(server.url + "/api/games", json=GAME)
    assert made.status_code == 201, made.text
    return made.json()["id"], [seat["token"] for seat in made.json()["seats"]]


@pytest.mark.slow
def test_a_get_on_one_process_shows_the_action_just_made_on_the_other(
    two_servers: list[Server], database_url: str
) -> None:
    a, b = two_servers
    game_id, tokens = new_game(a)
    path = f"/api/games/{game_id}"
    view = oneoff.get(b.url + path, params={"token": tokens[0]}).json()  # b holds it now
    view = oneoff.get(a.url + path, params={"token": tokens[view["to_move"]]}).json()
    assert view["seq"] == 0
    shown, accepted = [], []
    for turn in range(TURNS):
        here, there = (a, b) if turn % 2 == 0 else (b, a)
        mover = tokens[view["to_move"]]
        blind(database_url)
        answer = oneoff.post(
            here.url + path + "/actions",
            json={"token": mover, "action": choose(view), "seq": view["seq"]},
        )
        accepted.append(answer.status_code == 200)
        assert answer.status_code == 200, (turn, answer.status_code, answer.text)
        mover = tokens[answer.json()["to_move"]]
        view = oneoff.get(there.url + path, params={"token": mover}).json()  # at once
        shown.append(view["seq"] == turn + 1)
        assert view["seq"] == turn + 1, (turn, view["seq"])
        assert view["legal"]
    assert shown.count(True) == TURNS and accepted.count(True) == TURNS


def first_view(socket: Any) -> dict[str, Any]:
    message = json.loads(socket.recv(timeout=10))
    assert message["type"] == "view", message
    view: dict[str, Any] = message["view"]
    return view


@pytest.mark.slow
def test_a_socket_opened_on_one_process_shows_the_action_just_made_on_the_other(
    two_servers: list[Server], database_url: str
) -> None:
    a, b = two_servers
    game_id, tokens = new_game(a)
    path = f"/api/games/{game_id}"
    view = oneoff.get(b.url + path, params={"token": tokens[0]}).json()  # b holds it now
    view = oneoff.get(a.url + path, params={"token": tokens[view["to_move"]]}).json()
    for turn in range(TURNS):
        here, there = (a, b) if turn % 2 == 0 else (b, a)
        mover = tokens[view["to_move"]]
        blind(database_url)
        with connect(f"ws://127.0.0.1:{here.port}{path}/ws?token={mover}") as socket:
            assert first_view(socket)["seq"] == turn
            socket.send(json.dumps({"action": choose(view), "seq": turn}))
            answer = json.loads(socket.recv(timeout=10))  # the view after it, or a refusal
            assert answer["type"] == "view", (turn, answer)
            assert answer["view"]["seq"] == turn + 1
            mover = tokens[answer["view"]["to_move"]]
        with connect(f"ws://127.0.0.1:{there.port}{path}/ws?token={mover}") as socket:
            view = first_view(socket)  # at once, on the other process
            assert view["seq"] == turn + 1, (turn, view["seq"])
