"""The lobby pushes (issue 29): ``/api/lobby/ws`` sends the open seeks now and whenever
they change, and a seek's players each change of it (joined, started), so its owner
learns of the join at once instead of at the next poll. Across apps and real server
processes over one database (SQLite and PostgreSQL: a join on one reaches an owner whose
socket is on the other), within the sockets' limits (per address, frame size), and the
list a slow reader has not been sent yet is replaced by the newest."""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import httpx2
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocket
from websockets.sync.client import connect

from mathable.web.api import create_app
from mathable.web.infra.connections import Connection, SocketLimits
from support.sockets import StuckSocket, until_closed
from webserver import Server

LOBBY = "/api/lobby/ws"


class Heard:
    """The messages of a socket, read on a thread (``receive_json`` or an iterator of
    texts), to wait for one that matches with a timeout."""

    def __init__(self, read: Any) -> None:
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self._read = read
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        try:
            while True:
                self.messages.put(self._read())
        except Exception:  # closed
            return

    def until(self, wanted: Any, seconds: float = 10.0) -> dict[str, Any]:
        """The first message from now for which ``wanted(message)`` holds (skipping the
        others); fails after ``seconds``."""
        while True:
            message = self.messages.get(timeout=seconds)
            if wanted(message):
                return message


@contextlib.contextmanager
def someone_else(client: TestClient) -> Iterator[TestClient]:
    """The client without its cookies for a while (another player, on the same app and
    event loop); its own cookies back after."""
    kept = dict(client.cookies)
    client.cookies.clear()
    try:
        yield client
    finally:
        client.cookies.clear()
        client.cookies.update(kept)


def listing(seek_id: str) -> Any:
    return lambda m: m["type"] == "seeks" and seek_id in [s["id"] for s in m["seeks"]]


def started(seek_id: str) -> Any:
    return lambda m: (
        m["type"] == "seek" and m["seek"]["id"] == seek_id and m["seek"]["status"] == "started"
    )


# -- one app ------------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    monkeypatch.setenv("MATHABLE_SOCKETS_PER_ADDRESS", "3")
    monkeypatch.setenv("MATHABLE_WS_MAX_FRAME", "64")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as made:
        yield made


def test_the_owner_hears_of_the_join_and_every_socket_of_the_list(client: TestClient) -> None:
    ann = client
    ann.get("/api/me")
    with contextlib.ExitStack() as sockets:
        mine = sockets.enter_context(ann.websocket_connect(LOBBY))
        with someone_else(client):  # no cookie: the list only
            anyone = sockets.enter_context(client.websocket_connect(LOBBY))
        assert mine.receive_json() == anyone.receive_json() == {"type": "seeks", "seeks": []}
        heard, seen = Heard(mine.receive_json), Heard(anyone.receive_json)
        seek = ann.post("/api/seeks", json={}).json()
        for socket in (heard, seen):  # it appears everywhere by itself
            shown = socket.until(listing(seek["id"]))["seeks"]
            assert shown == [{**seek, "seat": None}]  # as GET /api/seeks lists it
        with someone_else(client) as bob:
            joined = bob.post(f"/api/seeks/{seek['id']}/join").json()
        assert joined["status"] == "started"
        news = heard.until(started(seek["id"]))["seek"]  # before: no such socket at all
        assert news["game_id"] == joined["game_id"] and news["seat"] == 0
        assert news == ann.get(f"/api/seeks/{seek['id']}").json()
        assert seen.until(lambda m: m["type"] == "seeks" and m["seeks"] == [])
        assert all(m["type"] == "seeks" for m in list(seen.messages.queue))  # not Ann's news


def test_lobby_sockets_from_one_address_are_capped(client: TestClient) -> None:
    with (
        client.websocket_connect(LOBBY) as first,
        client.websocket_connect(LOBBY) as second,
        client.websocket_connect(LOBBY) as third,
    ):
        for socket in (first, second, third):
            assert socket.receive_json()["type"] == "seeks"
        with client.websocket_connect(LOBBY) as fourth:  # the cap: 3
            refusal = fourth.receive_json()
            assert refusal["type"] == "error" and refusal["status"] == 429
            assert "too many live connections" in refusal["error"]
            assert until_closed(fourth, 1) == ([], 1008)
    with client.websocket_connect(LOBBY) as later:  # they left: room again
        assert later.receive_json()["type"] == "seeks"


def test_an_oversized_or_binary_frame_closes_a_lobby_socket(client: TestClient) -> None:
    with client.websocket_connect(LOBBY) as socket:
        assert socket.receive_json()["type"] == "seeks"
        socket.send_text("x" * 65)
        assert until_closed(socket, 1) == ([], 1009)
    with client.websocket_connect(LOBBY) as socket:
        assert socket.receive_json()["type"] == "seeks"
        socket.send_bytes(b"{}")
        assert until_closed(socket, 1) == ([], 1003)


def test_a_list_not_sent_yet_is_replaced_by_the_newest() -> None:
    """A lobby socket's reader that stops reading holds one list, the newest."""

    async def scenario() -> list[str]:
        connection = Connection(
            cast(WebSocket, StuckSocket()), SocketLimits(send_timeout=5), newest="seeks"
        )
        for n in range(100):
            connection.send({"type": "seeks", "seeks": [n]})
            if n == 0:
                await asyncio.sleep(0.01)  # the first is being sent (and sticks)
        waiting = [json.dumps(m) for m in connection.outbox]
        connection.drop(1000, "")
        await connection.close()
        return waiting

    waiting = asyncio.run(asyncio.wait_for(scenario(), 5))
    assert waiting == [json.dumps({"type": "seeks", "seeks": [99]})]


# -- two apps, two processes over one database --------------------------------------------


@pytest.fixture
def two_apps(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[TestClient]]:
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    with TestClient(create_app(database_url)) as a, TestClient(create_app(database_url)) as b:
        yield [a, b]


def test_a_join_through_one_app_reaches_the_owner_on_the_other(
    two_apps: list[TestClient],
) -> None:
    """Ann's lobby socket is on app A; Bob sees her seek offered there and joins through
    app B: A's socket tells Ann the game started (before: no socket; the page polled)."""
    a, b = two_apps
    a.get("/api/me")
    with a.websocket_connect(LOBBY) as socket, b.websocket_connect(LOBBY) as elsewhere:
        assert socket.receive_json()["type"] == elsewhere.receive_json()["type"] == "seeks"
        ann, there = Heard(socket.receive_json), Heard(elsewhere.receive_json)
        seek = a.post("/api/seeks", json={"seats": 2}).json()
        assert there.until(listing(seek["id"]))  # offered on A: listed on B's sockets
        joined = b.post(f"/api/seeks/{seek['id']}/join").json()  # b: Bob's own cookie
        assert joined["status"] == "started"
        news = ann.until(started(seek["id"]))["seek"]
        assert news["game_id"] == joined["game_id"] and news["seat"] == 0
        assert there.until(lambda m: m["type"] == "seeks" and m["seeks"] == [])


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
def test_two_server_processes_push_the_lobby(two_servers: list[Server]) -> None:
    """Two real ``mathable serve`` processes: Ann's lobby socket is on A, Bob joins on B."""
    a, b = two_servers
    with httpx2.Client(base_url=a.url) as ann, httpx2.Client(base_url=b.url) as bob:
        ann.get("/api/me").raise_for_status()
        cookie = "; ".join(f"{k}={v}" for k, v in ann.cookies.items())
        with (
            connect(f"ws://127.0.0.1:{a.port}{LOBBY}", additional_headers={"Cookie": cookie}) as s,
            connect(f"ws://127.0.0.1:{b.port}{LOBBY}") as t,
        ):
            heard = Heard(lambda: json.loads(s.recv()))
            there = Heard(lambda: json.loads(t.recv()))
            assert heard.until(lambda m: m["type"] == "seeks")
            assert there.until(lambda m: m["type"] == "seeks")
            seek = ann.post("/api/seeks", json={}).json()
            assert there.until(listing(seek["id"]))  # offered on A, pushed by B
            joined = bob.post(f"/api/seeks/{seek['id']}/join").json()
            assert joined["status"] == "started"
            news = heard.until(started(seek["id"]))["seek"]  # joined on B, pushed by A
            assert news["game_id"] == joined["game_id"]
            game = ann.get(f"/api/games/{news['game_id']}").json()  # Ann's cookie: her seat
            assert game["seat"] == 0
