"""The score keeper's API (issue 37): the rulebook's worked example kept through it, the
refusals (422, nothing recorded), idempotent entries, undo, challenges, the end, the sheet
that ``mathable score`` totals identically, and a server killed mid-game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient

from mathable.games.board.transcript import score_transcript
from mathable.web.api import create_app
from webserver import Server

ANN = ["I8=12", "H6=8", "G9=2", "F7=1", "J8=16+"]
BOB = ["F8=7", "F9=6", "H9=8", "G6=4", "E9=3", "E8=21", "E10=7"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'kept.db'}")) as made:
        yield made


def new_kept(client: TestClient | httpx2.Client, **spec: Any) -> tuple[str, str]:
    answer = client.post("/api/keeper", json={"players": ["Ann", "Bob"], **spec})
    assert answer.status_code == 201, answer.text
    made = answer.json()
    return made["id"], made["token"]


def test_the_worked_example_scores_39_and_121(client: TestClient) -> None:
    game, token = new_kept(client, variant="classic", first="Ann")
    first = client.post(f"/api/keeper/{game}/turns", json={"token": token, "placements": ANN})
    assert first.status_code == 200, first.text
    assert first.json()["points"] == 39 and first.json()["to_move"] == 1
    second = client.post(f"/api/keeper/{game}/turns", json={"token": token, "placements": BOB})
    answer = second.json()
    assert (answer["points"], answer["bonus"], answer["scores"]) == (121, 50, [39, 121])
    assert answer["explanations"][-1]["bonus"] == 50
    assert answer["explanations"][0]["equations"]  # F8=7: which equation made it
    assert answer["unseen"]["7"] == 7 - 2 and answer["unseen"]["12"] == 0
    sheet = client.get(f"/api/keeper/{game}/sheet").text
    assert score_transcript(sheet).totals == {"Ann": 39, "Bob": 121}


def test_a_refused_placement_names_the_rule_and_records_nothing(client: TestClient) -> None:
    game, token = new_kept(client)
    url = f"/api/keeper/{game}/turns"
    refused = client.post(url, json={"token": token, "placements": ["I8=12", "A1=5"]})
    assert refused.status_code == 422
    assert refused.json()["rule"] == "C3" and refused.json()["where"] == "A1"
    state = client.get(f"/api/keeper/{game}").json()
    assert state["seq"] == 0 and state["turns"] == [] and state["unseen"]["12"] == 1
    # an eighth 5 is refused whatever the board allows (C2)
    client.post(url, json={"token": token, "placements": ["I8=12"]})
    assert client.post(url, json={"token": token, "placements": ["I9=99"]}).status_code == 422


def test_a_turn_sent_twice_is_recorded_once(client: TestClient) -> None:
    game, token = new_kept(client)
    url = f"/api/keeper/{game}/turns"
    body = {"token": token, "placements": ["I8=12"], "id": "phone-1-turn-1", "seq": 0}
    first, again = client.post(url, json=body), client.post(url, json=body)
    assert first.json()["repeat"] is False and again.json()["repeat"] is True
    assert again.json()["scores"] == first.json()["scores"] == [12, 0]
    assert client.get(f"/api/keeper/{game}").json()["seq"] == 1
    stale = client.post(url, json={"token": token, "pass": True, "seq": 0})
    assert stale.status_code == 409 and stale.json()["seq"] == 1


def test_undo_only_the_entry_the_phone_has_seen(client: TestClient) -> None:
    game, token = new_kept(client)
    client.post(f"/api/keeper/{game}/turns", json={"token": token, "placements": ["I8=12"]})
    client.post(f"/api/keeper/{game}/turns", json={"token": token, "exchange": 3})
    assert (
        client.post(f"/api/keeper/{game}/undo", json={"token": token, "seq": 1}).status_code == 409
    )
    undone = client.post(f"/api/keeper/{game}/undo", json={"token": token, "seq": 2}).json()
    assert [t["notation"] for t in undone["turns"]] == ["I8=12"] and undone["to_move"] == 1


def test_a_challenge_under_the_table_referee_cuts_the_turn(client: TestClient) -> None:
    game, token = new_kept(client, referee=True)
    url = f"/api/keeper/{game}/turns"
    made = client.post(url, json={"token": token, "placements": ["I8=12", "A1=5", "H6=8"]})
    assert made.json()["turn"]["placements"][1]["mistake"] is True
    verdict = client.post(url, json={"token": token, "challenge": True})
    assert verdict.status_code == 200
    assert verdict.json()["scores"] == [12, 0] and verdict.json()["turn"]["challenged"]
    failed = client.post(url, json={"token": token, "challenge": True})
    assert failed.status_code == 422 and failed.json()["rule"] == "C12"
    assert "challenge fails" in failed.json()["error"]


def test_the_end_deducts_the_tokens_left(client: TestClient) -> None:
    game, token = new_kept(client, first="Bob")
    client.post(f"/api/keeper/{game}/turns", json={"token": token, "placements": ["I8=12"]})
    short = client.post(f"/api/keeper/{game}/end", json={"token": token, "left": [[5, 7], []]})
    assert short.status_code == 422 and short.json()["rule"] == "C11"
    left = [[1, 2, 3, 4, 5, 6, 7], [1, 1, 2, 2, 3, 3, 4]]
    ended = client.post(f"/api/keeper/{game}/end", json={"token": token, "left": left}).json()
    assert ended["over"] and ended["scores"] == [-28, 12 - 16]
    refused = client.post(f"/api/keeper/{game}/turns", json={"token": token, "pass": True})
    assert refused.status_code == 422
    sheet = client.get(f"/api/keeper/{game}/sheet").text
    assert score_transcript(sheet).totals == {"Bob": -4, "Ann": -28}


@pytest.mark.parametrize(
    "body",
    [
        {"players": ["Ann"]},
        {"players": ["Ann", "ann"]},
        {"players": ["Ann", "Bob"], "first": "Cid"},
        {"players": ["Ann", "Bob"], "variant": "quattro", "referee": True},
        {"players": ["Ann", "Bob"], "variant": "classic", "rounds": 2},
        {"players": ["Ann", "Bob"], "variant": "chess"},
        {"players": ["Ann", " "]},
    ],
)
def test_a_table_the_keeper_cannot_seat_is_refused(client: TestClient, body: Any) -> None:
    answer = client.post("/api/keeper", json=body)
    assert answer.status_code == 422 and answer.json()["error"]


def test_a_wrong_token_or_game(client: TestClient) -> None:
    game, _token = new_kept(client)
    wrong = client.post(f"/api/keeper/{game}/turns", json={"token": "x", "pass": True})
    assert wrong.status_code == 403
    assert client.get("/api/keeper/nosuchgame").status_code == 404


def test_the_keeper_carries_on_after_the_server_is_killed(tmp_path: Path) -> None:
    server = Server(tmp_path / "kept.db").start()
    try:
        with httpx2.Client(base_url=server.url, timeout=30) as http:
            game, token = new_kept(http)
            turn = {"token": token, "placements": ANN, "id": "t1"}
            assert http.post(f"/api/keeper/{game}/turns", json=turn).status_code == 200
            server.kill()
            server.start()
            # the page's queue sends the acknowledged turn again, then the next one
            again = http.post(f"/api/keeper/{game}/turns", json=turn).json()
            assert again["repeat"] is True
            bob = {"token": token, "placements": BOB, "id": "t2"}
            assert http.post(f"/api/keeper/{game}/turns", json=bob).json()["scores"] == [39, 121]
    finally:
        server.stop()
