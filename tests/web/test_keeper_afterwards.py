"""After a kept game (issue 37): its analysis (``GET /api/keeper/{id}/analysis``, the best
turn of the same tokens) and its record (``GET /api/keeper/{id}/record``), which the web's
upload (``POST /api/records``) replays to the same board, scores and winners."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mathable.engine.protocol import Game
from mathable.games.board.game import BoardGame
from mathable.games.registry import from_record
from mathable.web.api import create_app
from support.kept import random_game

ANN = ["I8=12", "H6=8", "G9=2", "F7=1", "J8=16+"]
BOB = ["F8=7", "F9=6", "H9=8", "G6=4", "E9=3", "E8=21", "E10=7"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'kept.db'}")) as made:
        yield made


def keep(client: TestClient, game: Game) -> tuple[str, str]:
    """``game`` entered into a new kept game through the API, turn by turn, as a table
    would (an exchange by its count only), then its end."""
    turns = game.summaries()
    first = game.players[turns[0].seat]
    made = client.post(
        "/api/keeper", json={"variant": game.name, "players": list(game.players), "first": first}
    ).json()
    kept, token = made["id"], made["token"]
    for turn in turns:
        body: dict[str, Any] = {"token": token}
        if turn.notation == "pass":
            body["pass"] = True
        elif turn.notation.startswith("exchange"):
            body["exchange"] = len(turn.notation.split(" ", 1)[1].split(","))
        else:
            body["placements"] = turn.notation.split()
        answer = client.post(f"/api/keeper/{kept}/turns", json=body)
        assert answer.status_code == 200, answer.text
    if game.is_over:
        left = [list(game.rack(seat)) for seat in range(len(game.players))]
        ended = client.post(f"/api/keeper/{kept}/end", json={"token": token, "left": left})
        assert ended.status_code == 200, ended.text
    return kept, token


def on_board(game: Game) -> dict[int, int]:
    """The tokens on a board game's board, by cell."""
    assert isinstance(game, BoardGame)
    return game.board.placed()


def test_the_analysis_of_the_worked_example(client: TestClient) -> None:
    made = client.post("/api/keeper", json={"players": ["Ann", "Bob"]}).json()
    url = f"/api/keeper/{made['id']}"
    for placements in (ANN, BOB):
        client.post(f"{url}/turns", json={"token": made["token"], "placements": placements})
    report = client.get(f"{url}/analysis")
    assert report.status_code == 200, report.text
    turns = report.json()["turns"]
    assert [(t["player"], t["points"], t["best_points"], t["lost"]) for t in turns] == [
        ("Ann", 39, 39, 0),
        ("Bob", 121, 121, 0),
    ]
    assert turns[0]["best"] == " ".join(ANN)
    assert client.get("/api/keeper/nothing-here/analysis").status_code == 404


def test_the_analysis_explains_a_better_turn_in_the_readers_language(client: TestClient) -> None:
    kept, _token = keep(client, random_game("classic", 0, 2))
    turns = client.get(f"/api/keeper/{kept}/analysis").json()["turns"]
    better = [t for t in turns if t["lost"] > 0]
    assert better and all(t["best_points"] - t["points"] == t["lost"] for t in better)
    shown = better[0]["best_explanations"]
    assert len(shown) == len(better[0]["best"].split()) and shown[0]["text"]
    french = client.get(f"/api/keeper/{kept}/analysis", headers={"Accept-Language": "fr"})
    assert french.json()["turns"][0]["played"] == turns[0]["played"]


@pytest.mark.parametrize(
    ("variant", "seed", "players"),
    [("classic", 3, 2), ("classic", 11, 3), ("junior", 3, 2), ("junior-numbers", 5, 4)],
)
def test_the_record_replays_on_the_web_as_kept(
    client: TestClient, variant: str, seed: int, players: int
) -> None:
    game = random_game(variant, seed, players)
    kept, _token = keep(client, game)
    state = client.get(f"/api/keeper/{kept}").json()
    answer = client.get(f"/api/keeper/{kept}/record")
    assert answer.status_code == 200, answer.text
    assert "attachment" in answer.headers["content-disposition"]
    record = answer.json()
    assert any(a.startswith("exchange") for a in record["actions"]) or variant != "classic"
    uploaded = client.post("/api/records", json=record)
    assert uploaded.status_code == 201, uploaded.text
    replayed = from_record(client.get(f"/api/games/{uploaded.json()['id']}/record").text)
    assert list(replayed.scores) == state["scores"] == list(game.scores)
    assert on_board(replayed) == on_board(game)
    assert replayed.winners() == game.winners() and replayed.is_over


def test_a_game_the_rules_cannot_end_there_has_no_record(client: TestClient) -> None:
    made = client.post("/api/keeper", json={"players": ["Ann", "Bob"]}).json()
    url = f"/api/keeper/{made['id']}"
    client.post(f"{url}/turns", json={"token": made["token"], "placements": ANN})
    running = client.get(f"{url}/record")
    assert running.status_code == 200 and "result" not in running.json()  # not over yet
    left = {"token": made["token"], "left": [[5] * 7, [6] * 7]}
    assert client.post(f"{url}/end", json=left).status_code == 200  # the bag is still full
    refused = client.get(f"{url}/record")
    assert refused.status_code == 422 and "C11" in refused.json()["error"]
