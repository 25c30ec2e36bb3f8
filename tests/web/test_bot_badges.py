"""Bot accounts are marked BOT on every page (issue 36, a follow-up): a seat a bot account
plays says ``bot_account`` in every seat's and watcher's view, and the lobby's seeks, my
games and the leaderboard say it of its rows; people and the package's computers (those
are ``bot``) are not bot accounts. And a computer that exchanges or passes says why in
the move list (issue 35): its turn's ``reason``, never a person's."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import insert

from mathable.ai.reasons import computer_turn_notes
from mathable.web.infra.db import ratings
from support.api import act, new_game, tokens, view
from support.lobby import PASSWORD, ok, person
from support.standings import store_of
from support.waiting import eventually


def bot_account(main: TestClient, name: str) -> tuple[TestClient, str]:
    """A new account made a bot account, with its session cookie still open (a program
    may also sit at the lobby as its owner's browser would)."""
    client = person(main, name)
    ok(client.post("/api/accounts", json={"name": name, "password": PASSWORD}), 201)
    ok(client.post("/api/account/bot"))
    return client, ok(client.get("/api/me"))["id"]


def test_a_bot_account_is_marked_in_the_lobby_the_views_and_my_games(main: TestClient) -> None:
    robo, robo_id = bot_account(main, "Robo")
    ann = person(main, "Ann")
    made = ok(robo.post("/api/seeks", json={"variant": "classic", "seats": 2}), 201)
    listed: list[dict[str, Any]] = ann.get("/api/seeks").json()
    assert [
        (s["owner"]["bot_account"], [p["bot_account"] for p in s["players"]]) for s in listed
    ] == [(True, [True])]
    joined = ok(ann.post(f"/api/seeks/{made['id']}/join"))
    game_id = joined["game_id"]
    assert [p["bot_account"] for p in joined["players"]] == [True, False]
    watcher = TestClient(main.app)
    watcher.portal = main.portal
    for client in (robo, ann, watcher):  # each seat's view and a spectator's
        seen = ok(client.get(f"/api/games/{game_id}"))
        assert [s["bot_account"] for s in seen["seats"]] == [True, False]
    games: list[dict[str, Any]] = ann.get("/api/me/games").json()
    (entry,) = [g for g in games if g["kind"] == "game"]
    assert [(p["name"], p["bot_account"]) for p in entry["players"]] == [
        ("Robo", True),
        ("Ann", False),
    ]
    assert robo_id == entry["players"][0]["id"]


def test_people_and_the_packages_computers_are_no_bot_accounts(main: TestClient) -> None:
    ann = person(main, "Ann")
    made = ok(
        ann.post(
            "/api/games",
            json={
                "variant": "classic",
                "players": [{"name": "Ann"}, {"name": "C", "bot": "gentle"}],
            },
        ),
        201,
    )
    seen = ok(ann.get(f"/api/games/{made['id']}"))
    assert [(s["bot"], s["bot_account"]) for s in seen["seats"]] == [
        (None, False),
        ("gentle", False),
    ]


def test_the_leaderboard_marks_a_bot_account(main: TestClient) -> None:
    _robo, robo_id = bot_account(main, "Robo")
    with store_of(main).writing() as connection:
        connection.execute(
            insert(ratings).values(
                player_id=robo_id,
                game="classic",
                pace="live",
                rating=1600.0,
                deviation=60.0,
                volatility=0.06,
                games=30,
                updated=time.time(),
            )
        )
    board = ok(main.get("/api/leaderboard?game=classic&pace=live"))
    rows = board["players"] + board["provisional"]
    marked = {row["id"] for row in rows if row["bot_account"]}
    assert marked == {robo_id}
    assert any(row["bot"] and not row["bot_account"] for row in rows)  # the levels: computers


def test_a_computers_exchange_says_why_and_a_persons_does_not(main: TestClient) -> None:
    computers = [{"name": "C1", "bot": "greedy"}, {"name": "C2", "bot": "greedy"}]
    made = new_game(main, players=computers, seed=6)
    game_id = made["id"]
    assert eventually(lambda: view(main, game_id)["over"], seconds=120)
    seen = view(main, game_id)
    app: Any = main.app
    game = app.state.service.get(game_id).game
    notes = computer_turn_notes(game.replayed(len(game.log)), {0, 1})  # the oracle: the log
    assert any(notes)  # this deal has computers' exchanges
    assert [t.get("reason") for t in seen["summaries"]] == [
        None if note is None else str(note) for note in notes
    ]
    said = [t["notation"] for t in seen["summaries"] if "reason" in t]
    assert said and all(n.startswith(("exchange", "pass")) for n in said)
    french = ok(main.get(f"/api/games/{game_id}?lang=fr"))  # in each reader's language
    assert [t.get("reason") for t in french["summaries"]] != [
        t.get("reason") for t in seen["summaries"]
    ]

    mine = new_game(main, players=[{"name": "Ann"}, {"name": "C", "bot": "greedy"}], seed=6)
    ann = tokens(mine)[0]
    rack = view(main, mine["id"], ann)["rack"]
    ok(act(main, mine["id"], ann, "exchange " + " ".join(map(str, rack[:2]))))
    (turn,) = [t for t in view(main, mine["id"], ann)["summaries"] if t["seat"] == 0]
    assert turn["notation"].startswith("exchange")
    assert "reason" not in turn  # a person's exchange: no reason
