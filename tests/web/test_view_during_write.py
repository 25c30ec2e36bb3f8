"""A view built while an action is being stored (a GET, a new socket) shows the move with
its own seq, never with the seq before it: a player who acts on such a view must not be
told the game has moved on. And a write that fails takes the move back: the game is as
the store holds it."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mathable.web.api import create_app
from support.api import act, new_game, tokens, view


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}"))


def test_a_view_while_the_store_writes_has_the_moves_own_seq(client: TestClient) -> None:
    made = new_game(client)
    game_id, seats = made["id"], tokens(made)
    before = view(client, game_id)
    mover = before["to_move"]
    placement = next(a for a in view(client, game_id, seats[mover])["legal"] if "=" in a)
    app: Any = client.app
    service = app.state.service
    writing, release = threading.Event(), threading.Event()
    real = service._append

    async def slow_append(*args: Any) -> None:
        writing.set()
        assert await asyncio.to_thread(release.wait, 10)  # the loop serves views meanwhile
        await real(*args)

    service._append = slow_append
    answers: list[Any] = []
    acting = threading.Thread(
        target=lambda: answers.append(act(client, game_id, seats[mover], placement))
    )
    acting.start()
    try:
        assert writing.wait(10)
        during = view(client, game_id)  # the move applied in memory, not yet stored
    finally:
        release.set()
        acting.join(10)
    assert answers and answers[0].status_code == 200, answers
    after = answers[0].json()
    assert during["seq"] == after["seq"] == before["seq"] + 1
    assert during["board"] == after["board"] != before["board"]


def test_a_failed_write_takes_the_move_back(client: TestClient) -> None:
    made = new_game(client)
    game_id, seats = made["id"], tokens(made)
    before = view(client, game_id)
    mover = before["to_move"]
    placement = next(a for a in view(client, game_id, seats[mover])["legal"] if "=" in a)
    app: Any = client.app
    service = app.state.service
    real = service._append

    async def failing(*args: Any) -> None:
        raise OSError("disk full")

    service._append = failing
    refused = act(client, game_id, seats[mover], placement)
    assert refused.status_code == 503, refused.text
    service._append = real
    again = view(client, game_id)
    assert (again["seq"], again["board"], again["to_move"]) == (
        before["seq"],
        before["board"],
        before["to_move"],
    )
    assert act(client, game_id, seats[mover], placement).status_code == 200
