"""Several server processes over one database (issue 13, item 3): the database is the
authority. Two apps acting alternately on one game both accept every correct action, a
watcher on one sees the actions made through the other, a seat claimed on one opens on
the other, and a lost race is answered with the fresh state, never a 5xx.

The fast tests run two apps in this process (each with its own memory, store and change
feed, as two processes have); the slow ones start two real ``mathable serve`` processes.
Both kinds run on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx2
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from mathable.web.api import create_app
from support import oneoff
from support.waiting import eventually
from webserver import Server


@pytest.fixture
def two_apps(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[TestClient]]:
    """Two apps over one database, each with its lifespan (so its change feed) running."""
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    with TestClient(create_app(database_url)) as a, TestClient(create_app(database_url)) as b:
        yield [a, b]


class Watcher:
    """A spectator's socket on a test client, read on a thread: the seqs of its views."""

    def __init__(self, client: TestClient, game_id: str) -> None:
        self._socket = client.websocket_connect(f"/api/games/{game_id}/ws")
        self.socket = self._socket.__enter__()
        self.seqs: list[int] = []
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            while True:
                message = self.socket.receive_json()
                if message.get("type") == "view":
                    self.seqs.append(message["view"]["seq"])
        except Exception:  # closed
            return

    def close(self) -> None:
        self._socket.__exit__(None, None, None)


GAME = {
    "variant": "classic",
    "players": [{"name": "Ann"}, {"name": "Bob"}],
    "mode": "screen",
    "seed": 3,
}
"""Two people at one screen: the creator holds both tokens, so one test plays both."""


def new_game(client: TestClient) -> tuple[str, list[str]]:
    made = client.post(
        "/api/games",
        json=GAME,
    )
    assert made.status_code == 201, made.text
    return made.json()["id"], [seat["token"] for seat in made.json()["seats"]]


def choose(view: dict[str, Any]) -> str:
    """The mover's action: a placement if there is one, else the first legal word."""
    legal: list[str] = view["legal"]
    return next((a for a in legal if "=" in a), legal[0])


def post_to(client: Any, url: str, body: dict[str, Any]) -> httpx2.Response:
    """``body`` posted to ``url`` by ``client`` (a test client, or httpx2 itself)."""
    answer: httpx2.Response = client.post(url, json=body)
    return answer


def get_from(client: Any, url: str, params: dict[str, Any]) -> httpx2.Response:
    """``url`` read by ``client`` (a test client, or httpx2 itself) with ``params``."""
    answer: httpx2.Response = client.get(url, params=params)
    return answer


def play_alternately(
    posts: list[Callable[[dict[str, Any]], httpx2.Response]],
    gets: list[Callable[[dict[str, Any]], httpx2.Response]],
    tokens: list[str],
    turns: int,
) -> None:
    """Act ``turns`` times, through process A, then B, then A...: each action is chosen
    from the view of the process that made the last one, and sent to the other with the
    seq that view showed. Every one must be accepted."""
    view = gets[0]({"token": tokens[0]}).json()
    for turn in range(turns):
        here = turn % 2
        last = max(turn - 1, 0) % 2  # the process that acted last (A made the game)
        mover = tokens[view["to_move"]]
        view = gets[last]({"token": mover}).json()
        assert view["seq"] == turn and view["legal"], (turn, view)
        answer = posts[here]({"token": mover, "action": choose(view), "seq": turn})
        assert answer.status_code == 200, (turn, answer.status_code, answer.text)
        view = answer.json()
        assert view["seq"] == turn + 1


def test_two_apps_act_alternately_and_a_watcher_on_one_sees_the_other(
    two_apps: list[TestClient],
) -> None:
    a, b = two_apps
    game_id, tokens = new_game(a)
    watcher = Watcher(b, game_id)  # b holds the game in memory from now on
    try:
        assert eventually(lambda: watcher.seqs == [0]), watcher.seqs
        path = f"/api/games/{game_id}"
        play_alternately(
            [partial(post_to, c, path + "/actions") for c in (a, b)],
            [partial(get_from, c, path) for c in (a, b)],
            tokens,
            turns=7,  # the last through a: b hears of it by its change feed only
        )
        assert eventually(lambda: 7 in watcher.seqs), watcher.seqs
        assert watcher.seqs == sorted(watcher.seqs)
        assert eventually(lambda: b.get(path).json()["seq"] == 7)
    finally:
        watcher.close()


def test_a_seat_claimed_through_one_app_opens_on_the_other(two_apps: list[TestClient]) -> None:
    a, b = two_apps
    made = a.post(
        "/api/games", json={"variant": "classic", "players": [{"name": "Ann"}, {"name": "Bob"}]}
    ).json()
    game_id, invite = made["id"], made["seats"][1]["invite"]
    assert b.get(f"/api/games/{game_id}").json()["seats"][1]["claimed"] is False  # held by b
    code = parse_qs(urlsplit(invite).query)["invite"][0]
    joined = a.post(f"/api/games/{game_id}/join", json={"invite": code})
    assert joined.status_code == 200, joined.text
    seen = b.get(f"/api/games/{game_id}", params={"token": joined.json()["token"]})
    assert seen.status_code == 200, seen.text
    assert seen.json()["seats"][1]["claimed"] is True
    again = b.post(f"/api/games/{game_id}/join", json={"invite": code})
    assert again.status_code == 409 and "used already" in again.json()["error"]


def test_a_lost_race_is_answered_with_the_fresh_seq(
    two_apps: list[TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two_apps
    game_id, tokens = new_game(a)
    path = f"/api/games/{game_id}"
    view = b.get(path, params={"token": tokens[0]}).json()  # b holds the game at seq 0
    mover = tokens[view["to_move"]]
    view = a.get(path, params={"token": mover}).json()
    # the race: a's action lands after b looked at the store and before b stores its own
    app_b: Any = b.app
    monkeypatch.setattr(app_b.state.service.store, "events_after", lambda *_: [], raising=False)
    assert (
        a.post(path + "/actions", json={"token": mover, "action": choose(view)}).status_code == 200
    )
    lost = b.post(path + "/actions", json={"token": mover, "action": choose(view), "seq": 0})
    assert lost.status_code == 409, lost.text
    assert lost.json()["seq"] == 1
    monkeypatch.undo()
    assert b.get(path).json()["seq"] == 1


# -- two real processes -----------------------------------------------------------------


@pytest.fixture
def two_servers(database_url: str) -> Iterator[list[Server]]:
    servers = [Server(database_url, env={"MATHABLE_WORKERS": "0"}) for _ in range(2)]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


@pytest.mark.slow
def test_two_server_processes_over_one_database_act_alternately(
    two_servers: list[Server], database_url: str
) -> None:
    a, b = two_servers
    made = oneoff.post(
        a.url + "/api/games",
        json=GAME,
    ).json()
    game_id, tokens = made["id"], [seat["token"] for seat in made["seats"]]
    path = f"/api/games/{game_id}"
    heard: queue.Queue[int] = queue.Queue()
    with connect(f"ws://127.0.0.1:{b.port}{path}/ws") as socket:

        def listen() -> None:
            try:
                for message in socket:
                    data = json.loads(message)
                    if data.get("type") == "view":
                        heard.put(data["view"]["seq"])
            except Exception:  # closed
                return

        threading.Thread(target=listen, daemon=True).start()
        assert heard.get(timeout=10) == 0
        play_alternately(
            [partial(post_to, httpx2, s.url + path + "/actions") for s in (a, b)],
            [partial(get_from, httpx2, s.url + path) for s in (a, b)],
            tokens,
            turns=9,  # the last through a
        )
        seen = [0]
        while seen[-1] != 9:
            seen.append(heard.get(timeout=10))  # b's watcher hears of a's last action
        assert seen == sorted(seen)
    assert oneoff.get(b.url + path).json()["seq"] == 9
    for server in (a, b):
        server.stop()
        password = httpx2.URL(database_url.replace("postgresql://", "http://")).password
        assert not password or password not in server.output()
