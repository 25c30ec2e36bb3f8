"""The class view's figures (issue 32): a player's accuracy only from a game they moved in
(the analysis says 100% for no turn, which judged nothing), and each seat's player id, so
that the page tells two pupils of one name apart."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from mathable.ai import bot_player_id
from mathable.web.api import create_app
from mathable.web.learning.classes import _accuracy

PEOPLE = {
    "variant": "classic",
    "players": [{"name": "Ann"}, {"name": "Bob"}],
    "mode": "screen",
    "seed": 7,
}


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as client:
        yield client


def test_a_player_who_never_moved_has_no_accuracy(client: TestClient) -> None:
    made = client.post("/api/games", json=PEOPLE).json()
    game_id, tokens = made["id"], [s["token"] for s in made["seats"]]
    path = f"/api/games/{game_id}"
    bob = client.get(path).json()["to_move"]
    assert client.post(f"{path}/actions", json={"token": tokens[bob], "action": "G6=4"}).is_success
    ann = client.get(path).json()["to_move"]
    assert ann != bob  # G6=4 was Bob's only fit: his turn passed by itself
    assert client.post(f"{path}/abort", json={"token": tokens[ann]}).is_success
    (shown,) = client.get("/api/class", params={"games": game_id}).json()
    assert shown["over"]
    accuracy = dict(zip(shown["players"], shown["accuracy"], strict=True))
    assert accuracy["Ann"] is None  # aborted before her first move: nothing to judge
    # Bob's one turn is judged by the chance of winning it kept (issue 35): the class view
    # shows the analysis's own figure (G6=4 was his only fit, yet exchanging was better)
    judged = {p["player"]: p for p in client.get(f"{path}/analysis").json()["players"]}
    assert judged["Bob"]["win_loss"] is not None
    assert accuracy["Bob"] == judged["Bob"]["accuracy"]


def test_no_turn_or_nothing_to_score_is_not_judged() -> None:
    assert _accuracy({"turns": 0, "best_points": 0, "accuracy": 100.0}) is None
    assert _accuracy({"turns": 2, "best_points": 0, "accuracy": 100.0}) is None
    assert _accuracy({"turns": 2, "best_points": 20, "accuracy": 40.0}) == 40.0
    judged = {"turns": 1, "best_points": 0, "win_loss": 3.4, "accuracy": 85.8}
    assert _accuracy(judged) == 85.8  # issue 35: the best turn was an exchange


def test_each_seat_names_its_player(client: TestClient) -> None:
    people = client.post("/api/games", json=PEOPLE).json()
    versus = {**PEOPLE, "players": [{"name": "Ann"}, {"name": "Greedy", "bot": "greedy"}]}
    versus.pop("mode")
    computer = client.post("/api/games", json=versus).json()
    ids = ",".join([people["id"], computer["id"]])
    first, second = client.get("/api/class", params={"games": ids}).json()
    assert first["player_ids"] == [None, None]  # one screen: seats bound to no player
    assert second["player_ids"] == [None, bot_player_id("greedy")]
