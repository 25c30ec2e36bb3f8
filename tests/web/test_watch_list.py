"""The lobby's games to watch (issue 15, "Lobby": "a list of live games to watch"):
``GET /api/games?live=true`` lists the online games being played, newest first, and
neither games at one screen nor finished ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mathable.web.api import create_app
from support.api import new_game


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}"))


def online(client: TestClient, first: str) -> dict[str, Any]:
    return new_game(client, players=[{"name": first}, {"name": "Bob"}], mode="online", seed=None)


def test_only_online_games_being_played_are_listed(client: TestClient) -> None:
    at_one_screen = new_game(client)
    older = online(client, "Ann")
    newer = online(client, "Cid")
    ended = online(client, "Dee")
    token = ended["seats"][0]["token"]
    resigned = client.post(f"/api/games/{ended['id']}/abort", json={"token": token})
    assert resigned.status_code == 200, resigned.text

    listed = client.get("/api/games?live=true").json()
    assert [g["id"] for g in listed] == [newer["id"], older["id"]]
    assert all(g["mode"] == "online" and not g["over"] for g in listed)
    everything = {g["id"] for g in client.get("/api/games").json()}
    assert ended["id"] in everything  # the plain list keeps the finished online games
    assert at_one_screen["id"] not in everything  # never a one-screen game of others (#30)
    assert [g["id"] for g in client.get("/api/games?live=true&limit=1").json()] == [newer["id"]]
    assert client.get("/api/games?live=maybe").status_code == 422
