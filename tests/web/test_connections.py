"""Live connections hold (issue 13, "no stall"): a spectator that floods a game's socket
and never reads cannot hang the game; binary, oversized and too many frames close the
socket cleanly; spectators per game and sockets per address are capped; a slow reader's
outbox is bounded (the newest view replaces an unsent one) and a stuck reader is dropped."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import httpx2
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocket

from mathable.web.api import create_app
from mathable.web.infra.connections import Connection, SocketLimits
from support import oneoff
from support.sockets import StuckSocket, until_closed
from webserver import Server

GAME = {"variant": "classic", "players": [{"name": "Ann"}, {"name": "Bob"}], "seed": 7}


# -- a raw socket that never reads ------------------------------------------------------


def raw_websocket(host: str, port: int, path: str) -> socket.socket:
    """A WebSocket opened by hand with a tiny receive buffer, so that a client that never
    reads fills the server's send buffer after a few kilobytes."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.settimeout(10)
    sock.connect((host, port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)  # byte by byte: nothing past the handshake is read
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def text_frame(payload: bytes) -> bytes:
    """A client's (masked, with the all-zero mask) text frame of a short payload."""
    assert len(payload) < 126
    return bytes([0x81, 0x80 | len(payload)]) + b"\0\0\0\0" + payload


def close_code(data: bytes) -> int | None:
    """The code of the first close frame among the server's frames in ``data``."""
    at = 0
    while at + 2 <= len(data):
        opcode, length = data[at] & 0x0F, data[at + 1] & 0x7F
        at += 2
        if length == 126:
            length, at = int.from_bytes(data[at : at + 2], "big"), at + 2
        elif length == 127:
            length, at = int.from_bytes(data[at : at + 8], "big"), at + 8
        if opcode == 0x8:
            return int.from_bytes(data[at : at + 2], "big") if length >= 2 else 1005
        at += length
    return None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "games.db").start()
    yield running
    running.stop()


def test_a_spectator_flooding_and_never_reading_cannot_freeze_the_game(server: Server) -> None:
    """The attack of issue 13: game ids are public; a spectator socket sends many tiny
    frames and never reads. Before, the broadcast awaited its send under the game's lock
    and every later action hung. Now the players' actions all complete and the attacker is
    disconnected."""
    created = oneoff.post(server.url + "/api/games", json={**GAME, "mode": "screen"})
    assert created.status_code == 201, created.text
    made = created.json()
    game_id, tokens = made["id"], [s["token"] for s in made["seats"]]
    attacker = raw_websocket("127.0.0.1", server.port, f"/api/games/{game_id}/ws")
    flood = text_frame(b"x") * 200_000  # each frame is answered with an error message

    def attack() -> None:
        with contextlib.suppress(OSError):  # closed by the server (or stuck: the timeout)
            attacker.sendall(flood)

    thread = threading.Thread(target=attack, daemon=True)
    thread.start()
    thread.join(15)

    played = 0
    with httpx2.Client(base_url=server.url, timeout=10) as players:
        for _ in range(8):
            now = players.get(f"/api/games/{game_id}", params={"token": tokens[0]}).json()
            token = tokens[now["to_move"]]
            legal = players.get(f"/api/games/{game_id}", params={"token": token}).json()["legal"]
            body = {"token": token, "action": legal[0], "seq": now["seq"]}
            response = players.post(f"/api/games/{game_id}/actions", json=body)
            assert response.status_code == 200, response.text
            played += 1
    assert played == 8

    received, ended = b"", False
    attacker.settimeout(10)
    try:  # what the attacker was sent: its view, a few answers, then the close (1008)
        while close_code(received) is None:
            chunk = attacker.recv(65536)
            if not chunk:
                ended = True
                break
            received += chunk
    except ConnectionResetError:
        ended = True
    finally:
        attacker.close()
    assert close_code(received) == 1008 or ended


# -- in process: frames, caps ------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TestClient:
    monkeypatch.setenv("MATHABLE_SPECTATORS_PER_GAME", "2")
    monkeypatch.setenv("MATHABLE_SOCKETS_PER_ADDRESS", "4")
    return TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}"))


def new_game(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/games", json={**GAME, "mode": "screen"})
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def test_a_binary_frame_closes_the_socket_cleanly(client: TestClient) -> None:
    """Before, a binary frame raised KeyError in the route."""
    made = new_game(client)
    with client.websocket_connect(f"/api/games/{made['id']}/ws") as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_bytes(b'{"action": "end"}')
        messages, code = until_closed(ws, 1)
    assert code == 1003 and messages == []


def test_an_oversized_frame_closes_the_socket(client: TestClient) -> None:
    made = new_game(client)
    seat = made["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{made['id']}/ws?token={seat}") as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_text(json.dumps({"action": "end", "padding": "x" * 10_000}))
        messages, code = until_closed(ws, 1)  # before: an error message, the socket open
    assert code == 1009 and messages == []


def test_a_flood_of_frames_closes_the_socket(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At most ``MATHABLE_WS_FRAMES_PER_SECOND`` frames a second (5 here, so that even a
    busy machine that answers slowly is flooded; 20 by default): the 60 sent at once are
    cut short by a close (1008) after no more than a second's worth of answers."""
    monkeypatch.setenv("MATHABLE_WS_FRAMES_PER_SECOND", "5")
    client = TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}"))
    made = new_game(client)
    with client.websocket_connect(f"/api/games/{made['id']}/ws") as ws:
        assert ws.receive_json()["type"] == "view"
        for _ in range(60):
            ws.send_text("{}")
        messages, code = until_closed(ws, 60)  # before: 60 answers, the socket open
    assert code == 1008
    assert 1 <= len(messages) <= 6 and {m["type"] for m in messages} == {"error"}


def test_spectators_per_game_and_sockets_per_address_are_capped(client: TestClient) -> None:
    made = new_game(client)
    game = f"/api/games/{made['id']}/ws"
    with (
        client.websocket_connect(game) as first,
        client.websocket_connect(game) as second,
    ):
        assert first.receive_json()["type"] == second.receive_json()["type"] == "view"
        with client.websocket_connect(game) as third:  # a third spectator (cap: 2)
            refusal = third.receive_json()  # before: the view
            assert refusal["type"] == "error" and refusal["status"] == 503
            assert "spectators" in refusal["error"]
            assert until_closed(third, 1) == ([], 1013)
        seat = made["seats"][0]["token"]
        with (  # the seats still get in, up to the cap of 4 sockets from one address
            client.websocket_connect(f"{game}?token={seat}") as mine,
            client.websocket_connect(f"{game}?token={seat}") as again,
        ):
            assert mine.receive_json()["type"] == again.receive_json()["type"] == "view"
            with client.websocket_connect(f"{game}?token={seat}") as fifth:
                refusal = fifth.receive_json()
                assert refusal["type"] == "error" and refusal["status"] == 429
                assert until_closed(fifth, 1) == ([], 1008)
    with client.websocket_connect(game) as later:  # the spectators left: room again
        assert later.receive_json()["type"] == "view"


# -- the outbox ------------------------------------------------------------------------------


def test_a_reader_that_never_reads_costs_one_view_and_is_dropped() -> None:
    """Offering never waits; unsent views are replaced by the newest; the stuck send is
    given up after ``send_timeout`` and the socket closed with 1008."""

    async def scenario() -> tuple[StuckSocket, Connection, list[str]]:
        socket = StuckSocket()
        connection = Connection(cast(WebSocket, socket), SocketLimits(send_timeout=0.3))
        for seq in range(1000):
            connection.send({"type": "view", "view": {"seq": seq}})
            if seq == 0:
                await asyncio.sleep(0.01)  # the first is being sent (and sticks)
        waiting = [json.dumps(m) for m in connection.outbox]
        frames = [text async for text in connection.frames()]  # ends once dropped
        assert frames == []
        await connection.close()
        return socket, connection, waiting

    socket, connection, waiting = asyncio.run(asyncio.wait_for(scenario(), 5))
    assert waiting == [json.dumps({"type": "view", "view": {"seq": 999}})]
    assert len(socket.sent) == 1 and connection.closing is not None
    assert socket.closed == [1008]


def test_an_outbox_that_fills_up_drops_the_connection() -> None:
    """Replies are not coalesced: a client that sends but never reads fills its outbox
    and is dropped (1008) rather than queueing without end."""

    async def scenario() -> StuckSocket:
        socket = StuckSocket()
        connection = Connection(cast(WebSocket, socket), SocketLimits(outbox=4))
        for n in range(10):
            connection.send({"type": "error", "status": 400, "error": f"answer {n}"})
            await asyncio.sleep(0)
        assert connection.closing is not None and not connection.outbox
        await connection.close()
        return socket

    socket = asyncio.run(asyncio.wait_for(scenario(), 5))
    assert socket.closed == [1008] and len(socket.sent) == 1
