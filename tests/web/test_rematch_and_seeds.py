"""Issue 29, findings 8 and 9 over the API.

A rematch keeps the finished game's clock, rated or casual and house rules; a rated
rematch swaps the order of play (two players: the other moves first; more: the order moves
on by one), each player finding their own seat in it. Seeds are exact in every JSON
reader: the server draws them below 2^53, refuses a chosen one of 2^53 or more with a
field error, and a game dealt from a larger seed before (or uploaded from a record made
elsewhere) shows it as the string of its digits."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mathable.engine import records
from mathable.games.registry import new_game as engine_game
from mathable.web.api import create_app
from support.api import act, dealt, online, seat_tokens, view

CLOCK = {"minutes": 3, "increment": 2}


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TestClient:
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    return TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}"))


def post(client: TestClient, path: str, body: dict[str, Any], status: int = 200) -> Any:
    answer = client.post(path, json=body)
    assert answer.status_code == status, answer.text
    return answer.json()


def each_moves(client: TestClient, game_id: str, tokens: list[str]) -> None:
    """Every player makes a first move (a pass): resigning comes after (O4)."""
    for _ in tokens:
        mover = view(client, game_id)["to_move"]
        assert act(client, game_id, tokens[mover], "pass").status_code == 200


def rematch_of(client: TestClient, game_id: str, tokens: list[str]) -> tuple[str, list[str]]:
    """Each player asks for the rematch in turn; its id and each old seat's new token."""
    found: list[str] = []
    new_id = ""
    for token in tokens:
        made = post(client, f"/api/games/{game_id}/rematch", {"token": token}, 201)
        new_id = made["id"]
        mine = [s["token"] for s in made["seats"] if s["token"]]
        assert len(mine) == 1  # online: this player's own seat only
        found.append(mine[0])
    return new_id, found


def test_a_rated_two_player_rematch_keeps_the_clock_and_rules_and_swaps_who_starts(
    client: TestClient,
) -> None:
    made = online(client, clock=CLOCK, rated=True, house_rules={"table_referee": True})
    game_id, tokens = made["id"], seat_tokens(client, made)
    first = view(client, game_id)["to_move"]  # the deal's starter
    before = view(client, game_id, tokens[0])
    each_moves(client, game_id, tokens)
    post(client, f"/api/games/{game_id}/resign", {"token": tokens[1 - first]})
    new_id, new_tokens = rematch_of(client, game_id, tokens)
    fresh = view(client, new_id)
    assert fresh["clock"] == CLOCK and fresh["rated"] is True and fresh["mode"] == "online"
    assert fresh["house_rules"] == before["house_rules"]
    assert fresh["house_rules"]["table_referee"] is True and not fresh["house_rules"]["hints"]
    names = [s["name"] for s in fresh["seats"]]
    assert sorted(names) == ["Ann", "Bob"]
    starter = names[fresh["to_move"]]
    assert starter != ["Ann", "Bob"][first]  # the other player moves first
    for old, token in enumerate(new_tokens):  # each player at their own seat in it
        seat = view(client, new_id, token)["seat"]
        assert names[seat] == ["Ann", "Bob"][old]
    assert view(client, game_id, tokens[0])["rematch"] == new_id


def test_a_rated_rematch_of_three_moves_the_order_on_by_one(client: TestClient) -> None:
    players = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}]
    made = online(client, players=players, clock=CLOCK, rated=True)
    game_id, tokens = made["id"], seat_tokens(client, made)
    first = view(client, game_id)["to_move"]
    post(client, f"/api/games/{game_id}/abort", {"token": tokens[0]})
    old_order = [players[(first + k) % 3]["name"] for k in range(3)]
    new_id, new_tokens = rematch_of(client, game_id, tokens)
    fresh = view(client, new_id)
    assert fresh["clock"] == CLOCK and fresh["rated"] is True
    names = [s["name"] for s in fresh["seats"]]
    new_order = [names[(fresh["to_move"] + k) % 3] for k in range(3)]
    assert new_order == old_order[1:] + old_order[:1]
    for old, token in enumerate(new_tokens):
        assert names[view(client, new_id, token)["seat"]] == players[old]["name"]


def test_a_casual_rematch_keeps_its_clock_and_seats(client: TestClient) -> None:
    made = online(client, clock={"days": 3}, house_rules={"hints": True, "allow_undo": True})
    game_id, tokens = made["id"], seat_tokens(client, made)
    each_moves(client, game_id, tokens)
    post(client, f"/api/games/{game_id}/resign", {"token": tokens[0]})
    new_id, new_tokens = rematch_of(client, game_id, tokens)
    fresh = view(client, new_id)
    assert fresh["clock"] == {"days": 3} and fresh["rated"] is False
    assert fresh["house_rules"]["hints"] is True and fresh["house_rules"]["allow_undo"] is True
    assert [s["name"] for s in fresh["seats"]] == ["Ann", "Bob"]
    assert [view(client, new_id, t)["seat"] for t in new_tokens] == [0, 1]


def test_the_server_draws_every_seed_below_2_53(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    bounds: list[int] = []
    real = secrets.randbelow

    def randbelow(n: int) -> int:
        bounds.append(n)
        return real(n)

    monkeypatch.setattr(secrets, "randbelow", randbelow)
    games = [online(client)["id"] for _ in range(4)]
    screen = post(
        client,
        "/api/games",
        {"players": [{"name": "Ann"}, {"name": "Robo", "bot": "gentle"}]},
        201,
    )
    games.append(screen["id"])
    made = online(client, rated=True, clock=CLOCK)
    tokens = seat_tokens(client, made)
    post(client, f"/api/games/{made['id']}/abort", {"token": tokens[0]})
    games.append(post(client, f"/api/games/{made['id']}/rematch", {"token": tokens[1]}, 201)["id"])
    assert bounds and all(bound <= 2**53 for bound in bounds)
    assert all(0 <= dealt(client, game_id) < 2**53 for game_id in games)
    shown = view(client, made["id"])["seed"]
    assert isinstance(shown, int) and shown == dealt(client, made["id"])


def test_a_chosen_seed_is_below_2_53_and_may_be_sent_as_digits(client: TestClient) -> None:
    body: dict[str, Any] = {"players": [{"name": "Ann"}, {"name": "Bob"}], "mode": "screen"}
    refused = client.post("/api/games", json={**body, "seed": 2**53})
    assert refused.status_code == 422
    assert refused.json()["error"] == "seed: less than 9007199254740992"
    big = client.post("/api/games", json={**body, "seed": str(2**63 - 1)})
    assert big.status_code == 422 and "seed: less than" in big.json()["error"]
    words = client.post("/api/games", json={**body, "seed": "12abc"})
    assert words.status_code == 422 and words.json()["error"] == "seed: a whole number"
    most = post(client, "/api/games", {**body, "seed": 2**53 - 1}, 201)
    assert dealt(client, most["id"]) == 2**53 - 1
    digits = post(client, "/api/games", {**body, "seed": "9007199254740991"}, 201)
    assert dealt(client, digits["id"]) == 2**53 - 1


def test_a_game_dealt_from_a_larger_seed_before_shows_it_exactly_as_digits(
    client: TestClient,
) -> None:
    seed = 2**63 - 25  # as seeds were drawn before issue 29 (and a record made elsewhere)
    record = records.dumps(engine_game("classic", ["Ann", "Bob"], seed=seed))
    answer = client.post(
        "/api/records", content=record, headers={"content-type": "application/json"}
    )
    assert answer.status_code == 201, answer.text
    made = answer.json()
    game_id, tokens = made["id"], [s["token"] for s in made["seats"]]
    while not (now := view(client, game_id, tokens[0]))["over"]:
        assert act(client, game_id, tokens[now["to_move"]], "pass").status_code == 200
    assert now["seed"] == str(seed) and view(client, game_id)["seed"] == str(seed)
