"""Records of web games (issue 14): an uploaded record keeps its computer seats and they
play on; a game at one screen is saved mid-game and resumed; the same record uploaded
twice makes one game; a rematch with the same seats at game over, each person taking
their own seat. Hidden information stays hidden: an online game's record (its seed) only
at the end (O1), a rematch only for the game's players."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mathable.engine import records
from mathable.games.registry import new_game as engine_game
from mathable.web.api import create_app
from support.api import act, dealt, finish_by_passing, new_game, online, seat_tokens, tokens, view


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}"))


def upload(client: TestClient, record: Any, query: str = "") -> Any:
    return client.post(f"/api/records{query}", json=record)


def computer_to_move(names: list[str]) -> dict[str, Any]:
    """A classic game's record between a person (seat 0) and a computer (seat 1), at the
    computer's turn: the person has passed. Its ``bots`` as given, none written."""
    game = engine_game("classic", names, seed=5)
    while game.to_move != 1:
        game.apply(game.parse_action("pass"))
    return records.to_record(game)


def test_an_uploaded_record_keeps_its_computer_seats_and_they_play_on(
    client: TestClient,
) -> None:
    record = computer_to_move(["Ann", "Robo"])
    record["bots"] = [None, "greedy"]
    made = upload(client, record)
    assert made.status_code == 201, made.text
    seats = made.json()["seats"]
    assert [s["bot"] for s in seats] == [None, "greedy"]
    assert seats[0]["token"] and seats[1]["token"] is None  # only the person's seat
    after = view(client, made.json()["id"], seats[0]["token"])
    assert after["seats"][1]["bot"] == "greedy"
    assert after["seq"] > len(record["actions"]) and after["to_move"] == 0  # it moved
    assert len(after["summaries"]) == len(record["actions"]) + 1


def test_an_older_record_names_its_computer_seat_in_the_players_name(
    client: TestClient,
) -> None:
    record = computer_to_move(["Ann", "bot:gentle"])  # as the terminal games write it
    made = upload(client, record).json()
    assert [s["bot"] for s in made["seats"]] == [None, "gentle"]
    assert view(client, made["id"])["to_move"] == 0


def test_a_record_with_a_bad_or_unknown_computer_level_is_refused(client: TestClient) -> None:
    record = computer_to_move(["Ann", "Robo"])
    for bots, said in [
        ([None], "one entry per player"),
        ([None, 3], "seat 2"),
        ([None, "grandmaster"], "grandmaster"),
    ]:
        refused = upload(client, {**record, "bots": bots})
        assert refused.status_code == 400 and said in refused.json()["error"], refused.text
    assert client.get("/api/games").json() == []


def test_a_game_at_one_screen_is_saved_mid_game_and_resumed_with_its_computer(
    client: TestClient,
) -> None:
    made = new_game(client, players=[{"name": "Ann"}, {"name": "Robo", "bot": "greedy"}])
    ann = tokens(made)[0]
    assert act(client, made["id"], ann, "pass").status_code == 200  # the computer answers
    before = view(client, made["id"], ann)
    assert not before["over"]
    watcher = client.get(f"/api/games/{made['id']}/record")
    assert watcher.status_code == 409 and "still being played" in watcher.json()["error"]
    saved = client.get(f"/api/games/{made['id']}/record?token={ann}")
    assert saved.status_code == 200, saved.text
    record = json.loads(saved.text)
    assert record["bots"] == [None, "greedy"] and "result" not in record
    assert len(record["actions"]) == before["seq"]
    resumed = upload(client, record).json()
    again = view(client, resumed["id"], resumed["seats"][0]["token"])
    for key in ("rack", "scores", "surface", "to_move", "bag_size", "seq"):
        assert again[key] == before[key], key
    assert act(client, resumed["id"], resumed["seats"][0]["token"], "pass").status_code == 200
    turns = view(client, resumed["id"])["summaries"]
    assert [t["seat"] for t in turns[len(before["summaries"]) :]] == [0, 1]  # Ann, the computer


def test_an_online_games_record_waits_for_the_end_o1(client: TestClient) -> None:
    made = online(client)
    ann, bob = seat_tokens(client, made)
    refused = client.get(f"/api/games/{made['id']}/record?token={ann}")
    assert refused.status_code == 409 and "O1" in refused.json()["error"]
    seed = dealt(client, made["id"])
    assert str(seed) not in refused.text
    finish_by_passing(client, made["id"], [ann, bob])
    whole = client.get(f"/api/games/{made['id']}/record")
    assert whole.status_code == 200 and json.loads(whole.text)["seed"] == seed


def test_the_same_record_uploaded_twice_makes_one_game(database_url: str) -> None:
    client = TestClient(create_app(database_url))
    record = computer_to_move(["Ann", "Robo"])
    record["bots"] = [None, "greedy"]
    first = upload(client, record)
    assert first.status_code == 201
    second = upload(client, json.loads(json.dumps(record, indent=3)))  # same record
    assert second.status_code == 200, second.text
    assert second.json()["id"] == first.json()["id"] and second.json()["existing"]
    assert all(s["token"] is None for s in second.json()["seats"])  # no tokens to others
    stored = client.app.state.service.store  # type: ignore[attr-defined]
    # (an uploaded game is listed to nobody, issue 30: the store holds the games)
    assert [game_id for game_id, _seats in stored.games_page(0, 10)] == [first.json()["id"]]
    fresh = upload(client, record, "?again=true")  # asked for: a new game all the same
    assert fresh.status_code == 201 and fresh.json()["id"] != first.json()["id"]
    other = upload(client, {**record, "players": ["Ann", "Rob"]})  # another record
    assert other.status_code == 201 and len(stored.games_page(0, 10)) == 3


def test_a_rematch_at_one_screen_has_the_same_seats_and_a_new_deal(client: TestClient) -> None:
    made = new_game(
        client,
        players=[{"name": "Ann"}, {"name": "Bob"}, {"name": "Robo", "bot": "gentle"}],
        house_rules={"table_referee": True, "hints": False},
    )
    ann, bob = tokens(made)[:2]
    rematch = f"/api/games/{made['id']}/rematch"
    early = client.post(rematch, json={"token": ann})
    assert early.status_code == 409 and "over" in early.json()["error"]
    while not (now := view(client, made["id"], ann))["over"]:
        assert act(client, made["id"], [ann, bob][now["to_move"]], "pass").status_code == 200
    spectator = client.post(rematch, json={"token": ""})
    assert spectator.status_code == 403
    assert "rematch" not in view(client, made["id"])
    offered = client.post(rematch, json={"token": bob})
    assert offered.status_code == 201, offered.text
    new = offered.json()
    assert new["mode"] == "screen" and new["id"] != made["id"]
    assert [(s["name"], s["bot"]) for s in new["seats"]] == [
        ("Ann", None),
        ("Bob", None),
        ("Robo", "gentle"),
    ]
    assert new["seats"][0]["token"] and new["seats"][1]["token"]  # one screen: both people
    fresh = view(client, new["id"], new["seats"][0]["token"])
    assert fresh["house_rules"] == now["house_rules"]
    # a new game: no person has played in it (the computer may have, if the deal has it start)
    assert all(turn["seat"] == 2 for turn in fresh["summaries"])
    mid_game = client.get(f"/api/games/{new['id']}/record?token={new['seats'][0]['token']}")
    saved = json.loads(mid_game.text)
    assert saved["seed"] != now["seed"]  # a new deal
    assert view(client, made["id"])["rematch"] == new["id"]  # every view names it
    again = client.post(rematch, json={"token": ann}).json()
    assert again["id"] == new["id"] and all(s["token"] is None for s in again["seats"])


def test_an_online_rematch_gives_each_person_their_own_seat(client: TestClient) -> None:
    made = online(client)
    ann, bob = seat_tokens(client, made)
    finish_by_passing(client, made["id"], [ann, bob])
    new = client.post(f"/api/games/{made['id']}/rematch", json={"token": ann}).json()
    assert new["mode"] == "online"
    assert new["seats"][0]["token"] and new["seats"][1]["token"] is None
    assert new["seats"][1]["invite"] is None  # Bob takes his seat from his own game
    assert "seed" not in view(client, new["id"], new["seats"][0]["token"])  # O1
    assert [s["claimed"] for s in view(client, new["id"])["seats"]] == [True, False]
    assert view(client, made["id"], bob)["rematch"] == new["id"]
    taken = client.post(f"/api/games/{made['id']}/rematch", json={"token": bob}).json()
    assert taken["id"] == new["id"] and taken["seats"][0]["token"] is None
    bobs = taken["seats"][1]["token"]
    assert view(client, new["id"], bobs)["seat"] == 1
    assert [s["claimed"] for s in view(client, new["id"])["seats"]] == [True, True]
    twice = client.post(f"/api/games/{made['id']}/rematch", json={"token": bob}).json()
    assert twice["seats"][1]["token"] is None  # given once
