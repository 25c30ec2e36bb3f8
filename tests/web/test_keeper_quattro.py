"""The score keeper's API for Quattro (issue 37): a match kept through ``/api/keeper``
(the cards turned up, plays explained, a stuck turn, refusals naming the rule and
recording nothing, rounds won), read back as the page reads it; its record (hands
reconstructed, or refused with the reason when the rules cannot replay the table) and its
analysis."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mathable.games import registry
from mathable.web.api import create_app
from support.kept import kept_quattro_copy, random_quattro


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'kept.db'}")) as made:
        yield made


def entered(client: TestClient, game: str, token: str, **body: Any) -> dict[str, Any]:
    answer = client.post(f"/api/keeper/{game}/turns", json={"token": token, **body})
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def test_a_quattro_match_kept_through_the_api(client: TestClient) -> None:
    assert "quattro" in client.get("/api/keeper/games").json()
    made = client.post(
        "/api/keeper", json={"variant": "quattro", "players": ["Louis", "Zoé"], "rounds": 2}
    )
    assert made.status_code == 201, made.text
    game, token = made.json()["id"], made.json()["token"]
    state = client.get(f"/api/keeper/{game}").json()
    assert state["variant"] == "quattro" and not state["started"] and state["piles"] == [None] * 4
    entered(client, game, token, placements=["A=1", "B=1", "C=1", "D=1"])
    refused = client.post(f"/api/keeper/{game}/turns", json={"token": token, "placements": ["A=5"]})
    assert refused.status_code == 422 and refused.json()["rule"] == "Q2"
    assert refused.json()["where"] == "pile A"
    played = entered(client, game, token, placements=["A=2", "A=3"])
    assert played["to_move"] == 1 and "3 = 2 + 1 (A, B)" in played["explanations"][1]["text"]
    stuck = entered(client, game, token, placements=["draw", "C=50", "exchange"])
    assert stuck["turn"]["notation"] == "draw C=50 exchange" and stuck["unseen"]["50"] == 0
    won = entered(client, game, token, placements=["A=4", "A=5", "A=4", "A=3", "A=2"])
    assert won["scores"] == [1, 0] and won["to_move"] == 1  # Q5: left of the winner
    assert any("won the round" in e["text"] for e in won["explanations"])
    state = client.get(f"/api/keeper/{game}").json()
    assert (state["round"], state["rounds"], state["racks"]) == (2, 2, [7, 7])
    assert state["round_winners"] == [[0]] and state["piles"] == [2, 1, 50, 1]
    assert state["turns"][-1]["points"] == 1 and not state["over"]
    refused = client.get(f"/api/keeper/{game}/record")  # Louis held cards that fitted (Q2)
    assert refused.status_code == 422 and "played earlier" in refused.text
    analysis = client.get(f"/api/keeper/{game}/analysis")
    assert analysis.status_code == 200 and analysis.json()["unit"] == "cards"
    assert [t["played"] for t in analysis.json()["turns"]] == ["A=2 A=3", "A=4 A=5 A=4 A=3 A=2"]
    assert "draw C=50 exchange" in client.get(f"/api/keeper/{game}/sheet").text


def test_a_kept_engine_match_has_a_record_that_replays(client: TestClient) -> None:
    game = random_quattro(7, 3, 2)
    copy = kept_quattro_copy(game)
    made = client.post(
        "/api/keeper",
        json={"variant": "quattro", "players": list(game.players), "rounds": 2},
    ).json()
    for entry in [copy.log[0], *(t.notation for t in copy.turns)]:
        words = entry.split()
        entered(client, made["id"], made["token"], placements=words)
    record = client.get(f"/api/keeper/{made['id']}/record")
    assert record.status_code == 200, record.text
    replayed = registry.from_record(record.json())
    assert list(replayed.scores) == list(game.scores)
    assert client.post("/api/records", json=record.json()).status_code in (200, 201)
    analysis = client.get(f"/api/keeper/{made['id']}/analysis").json()
    assert sum(p["points"] for p in analysis["players"]) == sum(
        len(t.placements) for t in copy.turns
    )
