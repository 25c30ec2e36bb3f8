"""The web API through an in-process test client: make games, read views, act, claim
seats. Shared by the API, clock, record and standings tests."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def new_game(client: TestClient, **spec: Any) -> dict[str, Any]:
    """A game at one screen (a chosen seed, every seat's token) unless ``spec`` says."""
    body = {
        "variant": "classic",
        "players": [{"name": "Ann"}, {"name": "Bob"}],
        "seed": 7,
        "mode": "screen",
    }
    body.update(spec)
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    found: dict[str, Any] = response.json()
    return found


def view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    suffix = f"?token={token}" if token else ""
    response = client.get(f"/api/games/{game_id}{suffix}")
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def act(client: TestClient, game_id: str, token: str, action: str, **extra: Any) -> Any:
    return client.post(
        f"/api/games/{game_id}/actions", json={"token": token, "action": action, **extra}
    )


def tokens(made: dict[str, Any]) -> list[str]:
    return [s["token"] for s in made["seats"]]


def online(client: TestClient, **spec: Any) -> dict[str, Any]:
    """An online game as its creator receives it (no seed: the server deals)."""
    body: dict[str, Any] = {"variant": "classic", "players": [{"name": "Ann"}, {"name": "Bob"}]}
    body.update(spec)
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    found: dict[str, Any] = response.json()
    return found


def dealt(client: TestClient, game_id: str) -> int:
    """The seed of a game, as the server alone knows it."""
    app: Any = client.app
    seed: int = app.state.service.get(game_id).game.seed
    return seed


def claim(client: TestClient, made: dict[str, Any], seat: int) -> Any:
    """Follow seat ``seat``'s invitation link: the code after ``invite=``."""
    code = made["seats"][seat]["invite"].split("invite=")[1]
    return client.post(f"/api/games/{made['id']}/join", json={"invite": code})


def seat_tokens(client: TestClient, made: dict[str, Any]) -> list[str]:
    """Every person's token of an online game: the creator's own, the others claimed."""
    out = []
    for seat in made["seats"]:
        if seat["token"]:
            out.append(seat["token"])
        elif seat["invite"]:
            out.append(claim(client, made, seat["seat"]).json()["token"])
    return out


def finish_by_passing(client: TestClient, game_id: str, seat_tokens: list[str]) -> None:
    """Two people pass until the game ends (C11c: two rounds without a placement)."""
    while not (now := view(client, game_id, seat_tokens[0]))["over"]:
        assert act(client, game_id, seat_tokens[now["to_move"]], "pass").status_code == 200


def junior_with_an_empty_pot() -> dict[str, Any]:
    """A record of a two-player Junior game at a turn's start once the pot is empty (J4:
    only then may a stop be proposed), played by the greedy computer."""
    from mathable.ai import get_bot
    from mathable.engine import records
    from mathable.games.board.view import BoardView
    from mathable.games.registry import new_game as engine_game

    for seed in range(1, 40):
        game = engine_game("junior", ["Ann", "Bob"], seed=seed)
        bots = [get_bot("greedy", seed * 8 + s) for s in range(2)]
        while not game.is_over:
            state = game.view(game.to_move)
            assert isinstance(state, BoardView)
            if state.bag_size == 0 and not state.turn_placements and "stop" in state.available:
                return records.to_record(game)
            game.apply(bots[game.to_move].act(state))
    raise AssertionError("no Junior game reached an empty pot")
