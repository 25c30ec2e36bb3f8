"""Fair play in rated games (issue 15, "Fair play"; O2): a rated game is made without
hints and without undo, whichever way it is made (a new game, a lobby seek): refused
with the field at fault, nothing made; unrated games keep O2's house rule."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from mathable.online.fairplay import OFF_WHEN_RATED, rated_refusal
from mathable.web.api import create_app


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}"))


def game(rated: bool, **house_rules: bool) -> dict[str, object]:
    return {
        "variant": "classic",
        "players": [{"name": "Ann"}, {"name": "Bob"}],
        "mode": "online",
        "rated": rated,
        "house_rules": house_rules,
    }


@pytest.mark.parametrize("rule", sorted(OFF_WHEN_RATED))
def test_a_rated_game_refuses_aids(client: TestClient, rule: str) -> None:
    before = client.get("/api/games").json()
    refused = client.post("/api/games", json=game(True, **{rule: True}))
    assert refused.status_code == 422
    assert refused.json()["error"].startswith(f"house_rules.{rule}: ")
    assert client.get("/api/games").json() == before  # nothing made
    seek = client.post("/api/seeks", json={"rated": True, "house_rules": {rule: True}})
    assert seek.status_code == 422 and f"house_rules.{rule}" in seek.json()["error"]
    assert client.post("/api/games", json=game(True, **{rule: False})).status_code == 201


def test_a_casual_online_game_may_agree_on_hints_and_a_rated_one_has_none(
    client: TestClient,
) -> None:
    casual = client.post("/api/games", json=game(False, hints=True)).json()
    assert client.get(f"/api/games/{casual['id']}").json()["house_rules"]["hints"] is True
    rated = client.post("/api/games", json=game(True)).json()
    assert client.get(f"/api/games/{rated['id']}").json()["house_rules"]["hints"] is False


def test_the_rule_in_one_place() -> None:
    assert rated_refusal({"hints": False, "allow_undo": False, "table_referee": True}) is None
    assert rated_refusal({"allow_undo": True}) == (
        "house_rules.allow_undo",
        OFF_WHEN_RATED["allow_undo"],
    )
