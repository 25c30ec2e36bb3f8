"""Sockets for the tests: a reader of a game's socket on a thread (its last view), a
bounded read until the close, and a socket whose client never reads."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

from fastapi.testclient import TestClient


class Socket:
    """A seat's (or a spectator's) socket on a test client, read on a thread: its last
    view."""

    def __init__(self, client: TestClient, game_id: str, token: str | None = None) -> None:
        query = f"?token={token}" if token else ""
        self._socket = client.websocket_connect(f"/api/games/{game_id}/ws{query}")
        self.socket = self._socket.__enter__()
        self.view: dict[str, Any] = {}
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            while True:
                message = self.socket.receive_json()
                if message.get("type") == "view":
                    self.view = message["view"]
        except Exception:  # closed
            return

    def presence(self, seat: int) -> dict[str, Any] | None:
        seats = self.view.get("presence")
        return None if not seats else dict(seats[seat])

    def close(self) -> None:
        self._socket.__exit__(None, None, None)


def until_closed(socket: Any, most: int) -> tuple[list[dict[str, Any]], int | None]:
    """The messages received before the close and its code, reading at most ``most``
    messages (None: no close among them), so that a socket left open cannot hang."""
    messages: list[dict[str, Any]] = []
    for _ in range(most):
        message = socket.receive()
        if message["type"] == "websocket.close":
            return messages, message.get("code")
        messages.append(json.loads(message["text"]))
    return messages, None


class StuckSocket:
    """A WebSocket whose client never reads: its first send never finishes."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: list[int] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed.append(code)

    async def receive(self) -> dict[str, Any]:
        await asyncio.Event().wait()
        return {}
