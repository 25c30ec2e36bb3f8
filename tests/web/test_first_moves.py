"""Issue 29, trust in online results: first moves as on lichess (ruling O4), no rating
farming, and rated games on the same terms whoever sits in them. The service's clock is
moved by hand: nothing waits 30 seconds."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from mathable.web.infra.db import ratings, results
from support.api import act, claim, new_game, online, seat_tokens, view
from support.clocks import Clock, app_at, end, first_moves, stored_events, take_turn
from support.standings import account, bind, people_ratings, rated_game, table
from support.waiting import eventually


def tokens(made: dict[str, Any]) -> list[str]:
    return [s["token"] for s in made["seats"]]


def test_a_seat_that_makes_no_first_move_in_30_s_aborts_the_game_unrated(
    database_url: str,
) -> None:
    """O4: the countdown of the first player, found by a late action (no lifespan)."""
    clock = Clock()
    client = app_at(database_url, clock)
    ann, bob = account(client, "ann", "Ann"), account(client, "bob", "Bob")
    game_id, seats = rated_game(client, ann, bob)
    first = view(client, game_id)["to_move"]
    clock.at += 29.9  # within its first-move time: the clocks stand still
    shown = view(client, game_id)
    assert shown["over"] is False and shown["clocks"] == [300_000, 300_000]
    clock.at += 0.2
    legal = view(client, game_id, seats[first])["legal"]
    late = act(client, game_id, seats[first], legal[0])
    assert late.status_code == 409
    name = ["Ann", "Bob"][first]
    assert late.json()["error"] == (
        f"aborted: {name} made no first move in time (O4); nobody wins and it is not rated"
    )
    assert stored_events(client, game_id) == [f"abort {first}"]
    over = view(client, game_id)
    assert over["over"] is True and over["winners"] == [] and over["rated"] is False
    assert over["end_reason"] == late.json()["error"]
    assert over["rating_changes"] is None and people_ratings(client) == []
    (result,) = table(client, results)
    assert result.rated is False
    again = app_at(database_url, clock)  # the reason derives from the events and times
    assert view(again, game_id)["end_reason"] == over["end_reason"]


def test_the_second_seat_s_first_move_is_timed_from_its_turn_by_the_timer(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """O4: each seat's first turn has its own first-move time; the server's timer aborts
    the game with nobody acting."""
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    clock = Clock()
    with app_at(database_url, clock) as client:
        made = new_game(client, clock={"minutes": 3, "increment": 2})
        game_id, seats = made["id"], tokens(made)
        clock.at += 25
        mover = take_turn(client, game_id, seats)
        second = 1 - mover
        waiting = view(client, game_id, seats[second])
        assert waiting["first_move"] == {
            "seat": second,
            "deadline": round(clock.at * 1000) + 30_000,
            "left": 30_000,
        }
        assert waiting["clocks"] == [180_000, 180_000] and waiting["running"] is None
        assert waiting["resign"] is False and waiting["abort"] is True
        clock.at += 31
        moved = [e for e in stored_events(client, game_id) if not e.startswith("abort")]
        assert eventually(lambda: stored_events(client, game_id) == [*moved, f"abort {second}"])
        over = view(client, game_id)
        assert over["over"] is True and over["winners"] == [] and over["first_move"] is None


def test_an_invited_seat_s_first_move_is_timed_once_it_has_taken_its_seat(
    database_url: str,
) -> None:
    """O4: nothing is counted while a seat is still empty; from its join on, it is."""
    clock = Clock()
    client = app_at(database_url, clock)
    made = online(client, clock={"minutes": 3})
    game_id = made["id"]
    creator = made["seats"][0]["token"]
    clock.at += 20
    start = view(client, game_id)
    starter = start["to_move"]  # drawn by the rules (C10)
    empty = {"seat": starter, "deadline": None, "left": None}
    assert start["first_move"] == empty  # Bob not there yet
    if starter == 0:
        assert take_turn(client, game_id, [creator, ""]) == 0  # Ann's first move
    clock.at += 600  # Bob follows his invitation ten minutes later
    assert view(client, game_id)["over"] is False
    assert claim(client, made, 1).status_code == 200
    joined = view(client, game_id)
    deadline = round(clock.at * 1000) + 30_000
    assert joined["first_move"] == {"seat": 1, "deadline": deadline, "left": 30_000}
    clock.at += 31
    assert act(client, game_id, creator, "pass").status_code == 409  # the game ends first
    assert view(client, game_id)["end_reason"].startswith("aborted: Bob made no first move")


def test_resigning_before_every_seat_has_moved_is_refused_and_rates_nothing(
    database_url: str,
) -> None:
    """Finding 3 (rating farming): five rated games resigned at once took a rating from
    1500 to 1792; now only abort is possible then (O4), and it rates nothing."""
    client = app_at(database_url, Clock())
    ann, bob = account(client, "ann", "Ann"), account(client, "bob", "Bob")
    for _game in range(5):
        game_id, seats = rated_game(client, ann, bob)
        refused = end(client, game_id, "resign", seats[1])
        assert refused.status_code == 409 and "abort" in refused.json()["error"]
        assert view(client, game_id, seats[1])["resign"] is False
        take_turn(client, game_id, seats)  # one has moved: still only abort
        mover = view(client, game_id)["to_move"]
        refused = end(client, game_id, "resign", seats[mover])
        assert refused.status_code == 409
        aborted = end(client, game_id, "abort", seats[mover])
        assert aborted.status_code == 200 and aborted.json()["rated"] is False
    assert people_ratings(client) == []
    with client.app.state.service.store.reading() as connection:  # type: ignore[attr-defined]
        rated = connection.execute(select(results.c.rated)).scalars().all()
    assert rated == [False] * 5
    game_id, seats = rated_game(client, ann, bob)
    first_moves(client, game_id, seats)
    assert view(client, game_id, seats[1])["resign"] is True
    assert end(client, game_id, "resign", seats[1]).json()["rated"] is True
    assert {r.player_id for r in table(client, ratings)} >= {ann, bob}


def test_a_rated_game_is_dealt_by_the_server_whoever_sits_in_it(database_url: str) -> None:
    """Finding 4: a rated game against the computer took a chosen seed and served its
    record (the seed: every rack) mid-game."""
    client = app_at(database_url, Clock())
    ann = account(client, "ann", "Ann")
    players = [{"name": "Ann"}, {"name": "Hal", "bot": "greedy"}]
    chosen = client.post(
        "/api/games",
        json={"variant": "classic", "players": players, "rated": True, "seed": 12345},
    )
    assert chosen.status_code == 422 and chosen.json()["error"].startswith("seed: a rated game")
    hints = client.post(
        "/api/games",
        json={
            "variant": "classic",
            "players": players,
            "rated": True,
            "house_rules": {"hints": True},
        },
    )
    assert hints.status_code == 422 and "house_rules.hints" in hints.json()["error"]
    made = client.post(
        "/api/games",
        json={"variant": "classic", "players": players, "rated": True, "clock": {"minutes": 5}},
    )
    assert made.status_code == 201, made.text
    game = made.json()
    game_id, token = game["id"], game["seats"][0]["token"]
    bind(client, game_id, ann, "bot-greedy")
    for path in ("record", "replay?step=0"):
        for query in (f"token={token}", ""):
            joiner = "&" if "?" in path else "?"
            answer = client.get(f"/api/games/{game_id}/{path}{joiner}{query}")
            assert answer.status_code == 409, (path, query, answer.text)
    assert client.get(f"/api/games/{game_id}/hint?token={token}").status_code == 403
    assert "seed" not in view(client, game_id, token)


def test_presence_of_a_seat_with_its_page_open_stays_connected(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 1 in the views: a player whose page stays open is never shown away, however
    long (this process's own rows are judged by its sockets, not by a heartbeat)."""
    from support.sockets import Socket

    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    clock = Clock()
    with app_at(database_url, clock) as client:
        client.app.state.service.presence.poll = 0.1  # type: ignore[attr-defined]
        made = online(client, clock={"minutes": 5})
        ann, bob = seat_tokens(client, made)
        sockets = [Socket(client, made["id"], ann), Socket(client, made["id"], bob)]
        try:
            assert eventually(
                lambda: (
                    all(s.presence(0) and s.presence(1) for s in sockets)
                    and all((s.presence(i) or {}).get("connected") for s in sockets for i in (0, 1))
                )
            )
            game_url = f"/api/games/{made['id']}"
            for _step in range(4):  # 4 × 40 s, past the 50 s after which rows go stale
                clock.at += 40
                # a view judges presence at its own instant (the moved clock): no waiting
                shown = client.get(game_url).json()["presence"]
                assert [here["connected"] for here in shown] == [True, True]
                for socket in sockets:
                    assert socket.presence(0)["connected"] is True  # type: ignore[index]
                    assert socket.presence(1)["connected"] is True  # type: ignore[index]
        finally:
            for socket in sockets:
                socket.close()


def test_a_lobby_style_game_is_rated_only_after_every_first_move(database_url: str) -> None:
    """A rated game between people with a clock: a claim before the first moves is
    refused (no-show: the countdown aborts instead), and the views offer no claim."""
    clock = Clock()
    client: TestClient = app_at(database_url, clock)
    made = online(client, clock={"minutes": 1}, rated=False)
    game_id = made["id"]
    seats = seat_tokens(client, made)
    mover = view(client, game_id)["to_move"]
    other = seats[1 - mover]
    clock.at += 25
    shown = view(client, game_id, other)
    assert shown["claim_after"] is None
    refused = client.post(f"/api/games/{game_id}/claim", json={"token": other})
    assert refused.status_code == 409 and "first move" in refused.json()["error"]
    clock.at += 10  # the first-move time is over: the next request finds it out
    late = client.post(f"/api/games/{game_id}/claim", json={"token": other})
    name = ["Ann", "Bob"][mover]
    assert late.status_code == 409 and late.json()["error"].startswith(f"aborted: {name}")
    over = view(client, game_id)
    assert over["over"] is True and over["winners"] == [] and over["claim_after"] is None


def test_a_rematch_s_first_move_is_timed_from_the_last_player_s_arrival(
    database_url: str,
) -> None:
    """O4: a rematch offered by Ann waits for Bob's seat to be taken; the first-move
    time counts from then (it would have aborted at once on Bob's arrival otherwise)."""
    clock = Clock()
    client = app_at(database_url, clock)
    made = online(client, clock={"minutes": 3})
    ann, bob = seat_tokens(client, made)
    assert end(client, made["id"], "abort", ann).status_code == 200
    rematch = client.post(f"/api/games/{made['id']}/rematch", json={"token": ann})
    assert rematch.status_code == 201, rematch.text
    again = rematch.json()["id"]
    clock.at += 100  # Bob comes back to the rematch later
    waiting = view(client, again)
    assert waiting["first_move"]["deadline"] is None and waiting["over"] is False
    taken = client.post(f"/api/games/{made['id']}/rematch", json={"token": bob})
    assert taken.status_code in (200, 201), taken.text
    joined = view(client, again)
    assert joined["over"] is False
    assert joined["first_move"]["deadline"] == round(clock.at * 1000) + 30_000


def test_the_first_move_time_is_a_setting(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``MATHABLE_FIRST_MOVE`` (seconds, live games) as the app reads its settings; a bad
    value is refused at start with the setting's name."""
    from mathable.web.api import Settings, create_app

    monkeypatch.setenv("MATHABLE_FIRST_MOVE", "5")
    clock = Clock()
    client = TestClient(create_app(database_url))
    client.app.state.service.now = clock  # type: ignore[attr-defined]
    made = new_game(client, clock={"minutes": 3})
    shown = view(client, made["id"])
    assert shown["first_move"]["left"] == 5_000
    monkeypatch.setenv("MATHABLE_FIRST_MOVE", "soon")
    with pytest.raises(ValueError, match="MATHABLE_FIRST_MOVE"):
        Settings()
