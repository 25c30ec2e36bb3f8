"""Issue 15, results, ratings and histories through the API: a finished game's result row
(written once, by whichever process stores its end or loads it first), Glicko-2 ratings
of rated games as :func:`~mathable.online.ratings.rate_game` gives them, never for a
casual or an aborted game; the leaderboard, the profile and the history's filters. On
SQLite and PostgreSQL. Seats are bound to players by ``game_players`` rows (as the lobby
binds them)."""

from __future__ import annotations

import json
import math
import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from mathable import i18n
from mathable.ai import BOTS, bot_player_id
from mathable.online.botratings import starting_rating
from mathable.online.ratings import Rating, rate_game
from mathable.web.infra.db import rating_changes, ratings, results
from mathable.web.infra.store import EventStore
from mathable.web.ratings.standings import Ending, Standings
from support.api import new_game, tokens, view
from support.clocks import Clock, app_at, end, first_moves, take_turn
from support.standings import account, bind, people_ratings, rated_game, store_of, table


@pytest.fixture(autouse=True)
def _no_worker_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATHABLE_WORKERS", "0")


def rating_of(
    client: TestClient, player_id: str, game: str = "classic", pace: str | None = None
) -> Rating:
    (row,) = [
        r
        for r in table(client, ratings)
        if r.player_id == player_id and r.game == game and pace in (None, r.pace)
    ]
    return Rating(row.rating, row.deviation, row.volatility)


def close(a: Rating, b: Rating) -> bool:
    return all(
        math.isclose(x, y, rel_tol=1e-9)
        for x, y in zip(
            (a.rating, a.deviation, a.volatility),
            (b.rating, b.deviation, b.volatility),
            strict=True,
        )
    )


def test_a_rated_game_to_its_end_writes_one_result_and_rates_both(database_url: str) -> None:
    client = app_at(database_url, Clock())
    ann, bob = account(client, "ann", "Ann"), account(client, "bob", "Bob")
    game_id, seats = rated_game(client, ann, bob)
    take_turn(client, game_id, seats)
    take_turn(client, game_id, seats)
    over = end(client, game_id, "resign", seats[1]).json()  # Bob resigns: Ann first
    assert over["over"] and over["rated"] is True
    (result,) = table(client, results)
    assert (result.game_id, result.variant, result.pace, result.rated) == (
        game_id,
        "classic",
        "live",
        True,
    )
    assert json.loads(result.ranks) == [1, 2] and json.loads(result.scores) == over["scores"]
    assert i18n.from_stored(result.reason) == "Bob resigned"  # kept as a text (issue 17)
    with i18n.language("fr"):
        assert "Bob" in i18n.from_stored(result.reason) != "Bob resigned"
    expected = rate_game([Rating(), Rating()], [1, 2])
    assert close(rating_of(client, ann), expected[0]) and close(rating_of(client, bob), expected[1])
    shown = [round(r.rating) - 1500 for r in expected]
    assert [c["change"] for c in over["rating_changes"]] == shown and shown[0] > 0 > shown[1]
    assert [c["player"] for c in over["rating_changes"]] == [ann, bob]
    assert len(table(client, rating_changes)) == 2
    # another process loading the game finds its result written: nothing changes
    again = app_at(database_url, Clock())
    assert view(again, game_id)["rating_changes"] == over["rating_changes"]
    assert len(table(again, results)) == 1 and len(table(again, rating_changes)) == 2
    profile = again.get(f"/api/players/{ann}").json()
    assert profile["name"] == "Ann" and profile["kind"] == "person"  # its fields kept
    (pool,) = profile["ratings"]
    assert (pool["game"], pool["pace"], pool["games"], pool["provisional"]) == (
        "classic",
        "live",
        1,
        True,
    )
    assert pool["rating"] == round(expected[0].rating)
    (entry,) = profile["games"]["games"]
    assert entry["id"] == game_id and entry["rating_change"]["change"] == shown[0]
    assert [p["id"] for p in entry["players"]] == [ann, bob]


def test_computer_players_are_rated_from_a_game_played_out(database_url: str) -> None:
    client = app_at(database_url, Clock())
    made = new_game(
        client,
        players=[{"name": "A", "bot": "greedy"}, {"name": "B", "bot": "gentle"}],
        clock={"days": 3},
        rated=True,
        seed=None,
    )
    over = view(client, made["id"])
    assert over["over"] and over["end_reason"] and not over["end_reason"].endswith("resigned")
    (result,) = table(client, results)
    ranks = json.loads(result.ranks)
    assert result.pace == "correspondence" and result.rated
    start = [starting_rating(level, "classic") for level in ("greedy", "gentle")]
    assert all(s is not None for s in start)  # the levels' calibrated starting ratings
    expected = rate_game([s or Rating() for s in start], ranks)
    for player_id, new in zip(("bot-greedy", "bot-gentle"), expected, strict=True):
        assert close(rating_of(client, player_id, pace="correspondence"), new)
        assert rating_of(client, player_id, pace="live") != new  # another pool
    board = client.get("/api/leaderboard?game=classic&pace=correspondence").json()
    listed = board["players"]
    assert {p["id"] for p in listed} == {bot_player_id(level) for level in BOTS}
    assert [p["rank"] for p in listed] == list(range(1, len(listed) + 1))
    assert [p["rating"] for p in listed] == sorted((p["rating"] for p in listed), reverse=True)
    assert all(p["bot"] for p in listed) and board["provisional"] == []
    (entry,) = client.get("/api/players/bot-gentle/games").json()["games"]
    assert entry["id"] == made["id"] and [p["bot"] for p in entry["players"]] == [True, True]


def test_a_casual_game_has_a_result_and_no_rating(database_url: str) -> None:
    client = app_at(database_url, Clock())
    ann, bob = account(client, "ann", "Ann"), account(client, "bob", "Bob")
    made = new_game(client)
    bind(client, made["id"], ann, bob)
    first_moves(client, made["id"], tokens(made))  # O4: a resignation after them
    over = end(client, made["id"], "resign", tokens(made)[0]).json()
    assert over["over"] and over["rating_changes"] is None
    (result,) = table(client, results)
    assert result.rated is False and result.pace == "untimed"
    assert people_ratings(client) == [] and table(client, rating_changes) == []
    (entry,) = client.get(f"/api/players/{bob}/games").json()["games"]
    assert entry["rated"] is False and entry["rating_change"] is None and entry["ranks"] == [2, 1]


def test_an_abort_is_never_rated(database_url: str) -> None:
    client = app_at(database_url, Clock())
    ann, bob = account(client, "ann", "Ann"), account(client, "bob", "Bob")
    game_id, seats = rated_game(client, ann, bob)
    over = end(client, game_id, "abort", seats[0]).json()
    assert over["over"] and over["end_reason"] == "aborted" and over["rating_changes"] is None
    (result,) = table(client, results)
    assert i18n.from_stored(result.reason) == "aborted" and result.rated is False
    assert people_ratings(client) == [] and table(client, rating_changes) == []


def test_an_end_whose_result_was_lost_is_written_once_by_the_next_process(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = app_at(database_url, Clock())
    ann, bob = account(first, "ann", "Ann"), account(first, "bob", "Bob")
    game_id, seats = rated_game(first, ann, bob)
    app: Any = first.app
    settle = app.state.service.standings.settle
    endings: list[Ending] = []

    def crash(ending: Ending) -> bool:  # the process dies between the event and its result
        endings.append(ending)
        raise RuntimeError("killed")

    monkeypatch.setattr(app.state.service.standings, "settle", crash)
    first_moves(first, game_id, seats)
    assert end(first, game_id, "resign", seats[0]).json()["over"]
    assert table(first, results) == [] and len(endings) == 1
    second = app_at(database_url, Clock())
    later = view(second, game_id)  # loaded: its result caught up
    assert [c["change"] for c in later["rating_changes"]] == [
        round(r.rating) - 1500 for r in rate_game([Rating(), Rating()], [2, 1])
    ]
    third = app_at(database_url, Clock())
    view(third, game_id)
    assert settle(endings[0]) is False  # the first process, back: the row is taken
    assert len(table(first, results)) == 1 and len(table(first, rating_changes)) == 2
    assert [r.games for r in people_ratings(first)] == [1, 1]


def test_two_games_of_a_player_ending_at_once_lose_no_update(database_url: str) -> None:
    client = app_at(database_url, Clock())
    ann = account(client, "ann", "Ann")
    others = [account(client, f"p{n}", f"P{n}") for n in range(6)]
    games = []
    for other in others:
        made = new_game(client, clock={"minutes": 5}, rated=True, seed=None)
        bind(client, made["id"], ann, other)
        games.append(made["id"])
    barrier = threading.Barrier(len(games))
    errors: list[BaseException] = []

    def settle(game_id: str) -> None:
        standings = Standings(EventStore(database_url))  # a process of its own each
        ending = Ending(game_id, "classic", "live", True, 1.8e9, "x", [10, 0], [1, 2], {})
        barrier.wait()
        try:
            assert standings.settle(ending)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=settle, args=(g,)) for g in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert [r.games for r in table(client, ratings) if r.player_id == ann] == [len(games)]
    befores = sorted(r.before for r in table(client, rating_changes) if r.player_id == ann)
    assert len(set(befores)) == len(games)  # each game rated from the one before it


def test_the_leaderboard_orders_by_rating_and_sets_provisional_ones_apart(
    database_url: str,
) -> None:
    client = app_at(database_url, Clock())
    for name in ("ann", "bob", "cy"):
        account(client, name, name.title())
    for winner, loser in (("ann", "bob"), ("ann", "cy"), ("bob", "cy")):
        game_id, seats = rated_game(client, winner, loser)
        first_moves(client, game_id, seats)
        assert end(client, game_id, "resign", seats[1]).status_code == 200
    with store_of(client).writing() as connection:  # a settled player, as after many games
        connection.execute(
            update(ratings).where(ratings.c.player_id == "bob").values(deviation=60.0)
        )
    board = client.get("/api/leaderboard?game=classic").json()
    assert (board["game"], board["pace"]) == ("classic", "live")
    assert [p["id"] for p in board["players"] if not p["bot"]] == ["bob"]
    assert [p["rank"] for p in board["players"]] == list(range(1, len(board["players"]) + 1))
    order = sorted(
        (r for r in people_ratings(client) if r.player_id != "bob"), key=lambda r: -r.rating
    )
    assert [p["id"] for p in board["provisional"]] == [r.player_id for r in order] == ["ann", "cy"]
    assert all(p["provisional"] and p["shown"].endswith("?") for p in board["provisional"])
    assert client.get("/api/leaderboard?game=junior").json()["provisional"] == []
    assert client.get("/api/leaderboard?game=chess").status_code == 400


def test_the_history_is_searchable_by_game_opponent_and_date_and_paged(
    database_url: str,
) -> None:
    clock = Clock()
    client = app_at(database_url, clock)
    ann, bob, cy = (
        account(client, p, n) for p, n in (("ann", "Ann"), ("bob", "Bobby"), ("cy", "Cy"))
    )
    played = []
    for other, variant in ((bob, "classic"), (cy, "classic"), (bob, "junior")):
        clock.at += 3600
        made = new_game(client, variant=variant)
        bind(client, made["id"], ann, other)
        first_moves(client, made["id"], tokens(made))
        assert end(client, made["id"], "resign", tokens(made)[1]).status_code == 200
        played.append((made["id"], clock.at))
    unfinished = new_game(client)
    bind(client, unfinished["id"], ann, bob)

    def ids(query: str = "", player: str = ann) -> list[str]:
        answer = client.get(f"/api/players/{player}/games{query}")
        assert answer.status_code == 200, answer.text
        return [g["id"] for g in answer.json()["games"]]

    newest_first = [g for g, _ in reversed(played)]
    assert ids() == newest_first
    assert ids("?opponent=BOB") == [played[2][0], played[0][0]]
    assert ids("?game=classic") == [played[1][0], played[0][0]]
    assert ids("?game=classic&opponent=by") == [played[0][0]]
    assert ids(f"?since={played[1][1]}") == [played[2][0], played[1][0]]
    assert ids(f"?until={played[1][1]}") == [played[0][0]]
    assert ids("?opponent=ann", player=cy) == [played[1][0]]
    assert ids("?opponent=%25") == []  # a wildcard is a character like any
    first = client.get(f"/api/players/{ann}/games?limit=2").json()
    assert [g["id"] for g in first["games"]] == newest_first[:2] and first["next"] is not None
    rest = client.get(f"/api/players/{ann}/games?limit=2&before={first['next']}").json()
    assert [g["id"] for g in rest["games"]] == newest_first[2:] and rest["next"] is None
    entry = client.get(f"/api/players/{ann}/games?limit=1").json()["games"][0]
    assert entry["variant"] == "junior" and entry["links"]["game"] == f"/g/{played[2][0]}"
    assert [p["name"] for p in entry["players"]] == ["Ann", "Bob"]  # as seated
    assert client.get(entry["links"]["record"]).status_code == 200


def test_the_computer_levels_are_rated_from_the_start(database_url: str) -> None:
    client = app_at(database_url, Clock())
    for variant in ("classic", "junior", "junior-numbers", "quattro"):
        for pace in ("live", "correspondence"):
            board = client.get(f"/api/leaderboard?game={variant}&pace={pace}").json()
            listed = {p["id"]: p for p in board["players"]}
            assert set(listed) == {bot_player_id(level) for level in BOTS}
            for level in BOTS:
                start = starting_rating(level, variant)
                assert start is not None
                entry = listed[bot_player_id(level)]
                assert entry["rating"] == round(start.rating) and not entry["provisional"]
    app: Any = client.app
    assert app.state.service.standings.seed_bots(time.time()) == 0  # made once


def test_a_computer_levels_profile_shows_every_pool_and_a_persons_only_those_played(
    database_url: str,
) -> None:
    client = app_at(database_url, Clock())
    expert = client.get("/api/players/bot-expert").json()
    assert len(expert["ratings"]) == 4 * 2  # every game, live and correspondence
    assert all(r["games"] == 0 and not r["provisional"] for r in expert["ratings"])
    ann = account(client, "ann", "Ann")
    assert client.get(f"/api/players/{ann}").json()["ratings"] == []
