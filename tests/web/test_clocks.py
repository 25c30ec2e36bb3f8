"""Issue 15, clocks and game flow through the API: clocks derived from the stored events'
times alone (the same after a restart), the increment, a flag stored by the server's timer
or instead of an action that comes too late, resign and abort, and what larger games are
refused. The service's clock is moved by hand: nothing waits for minutes."""

from __future__ import annotations

import time

from support.api import act, new_game, tokens, view
from support.clocks import Clock, app_at, end, finish_turn, first_moves, stored_events, take_turn


def test_views_carry_clocks_from_the_events_and_a_restart_derives_the_same(
    database_url: str,
) -> None:
    clock = Clock()
    client = app_at(database_url, clock)
    made = new_game(client, clock={"minutes": 1, "increment": 2}, rated=True, seed=None)
    game_id, seats = made["id"], tokens(made)
    start = view(client, game_id)
    assert start["clock"] == {"minutes": 1, "increment": 2} and start["rated"] is True
    assert start["clocks"] == [60_000, 60_000]
    first = start["to_move"]
    other = 1 - first
    # O4: no clock runs before its seat's first move; a first-move time of 30 s instead
    assert start["running"] is None
    deadline = round(clock.at * 1000) + 30_000
    assert start["first_move"] == {"seat": first, "deadline": deadline, "left": 30_000}
    clock.at += 10
    assert view(client, game_id)["clocks"] == [60_000, 60_000]
    assert take_turn(client, game_id, seats) == first
    clock.at += 5
    waiting = view(client, game_id)
    assert waiting["clocks"] == [60_000, 60_000] and waiting["running"] is None
    deadline = round(clock.at * 1000) + 25_000
    assert waiting["first_move"] == {"seat": other, "deadline": deadline, "left": 25_000}
    assert take_turn(client, game_id, seats) == other
    started = view(client, game_id)
    assert started["running"] == first and started["first_move"] is None
    assert started["clocks"] == [60_000, 60_000]  # free turns: nothing used, no increment
    clock.at += 10
    assert view(client, game_id)["clocks"][first] == 50_000
    assert take_turn(client, game_id, seats) == first
    clock.at += 5
    after = view(client, game_id)
    assert after["running"] == other
    assert after["clocks"][first] == 52_000  # 60 - 10 + the 2 seconds' increment
    assert after["clocks"][other] == 55_000
    # a new process over the same database: the same clocks, from the events alone
    again = app_at(database_url, clock)
    assert {k: view(again, game_id)[k] for k in ("clock", "clocks", "running", "rated")} == {
        k: after[k] for k in ("clock", "clocks", "running", "rated")
    }
    plain = new_game(client)
    assert {k: view(client, plain["id"])[k] for k in ("clock", "clocks", "running", "rated")} == {
        "clock": None,
        "clocks": None,
        "running": None,
        "rated": False,
    }


def test_correspondence_clock(database_url: str) -> None:
    clock = Clock()
    client = app_at(database_url, clock)
    made = new_game(client, clock={"days": 3})
    start = view(client, made["id"])
    assert start["clock"] == {"days": 3} and start["clocks"] == [3 * 86_400_000] * 2
    first_moves(client, made["id"], tokens(made))
    clock.at += 86_400
    first = finish_turn(client, made["id"], tokens(made))
    assert view(client, made["id"])["clocks"][first] == 3 * 86_400_000  # the full allowance


def test_an_action_after_the_deadline_is_refused_and_the_flag_stored(database_url: str) -> None:
    clock = Clock()
    client = app_at(database_url, clock)  # no lifespan: no timer, the action finds it out
    made = new_game(client, clock={"minutes": 1})
    game_id, seats = made["id"], tokens(made)
    first_moves(client, game_id, seats)
    moved = stored_events(client, game_id)
    first = view(client, game_id)["to_move"]
    legal = view(client, game_id, seats[first])["legal"]
    clock.at += 60
    answer = act(client, game_id, seats[first], next(a for a in legal if "=" in a))
    assert answer.status_code == 409
    name = ["Ann", "Bob"][first]
    assert f"{name} ran out of time" in answer.json()["error"]
    assert stored_events(client, game_id) == [*moved, f"flag {first}"]
    over = view(client, game_id)
    assert over["over"] is True and over["end_reason"] == f"{name} ran out of time"
    assert over["winners"] == [1 - first] and over["clocks"][first] == 0
    assert over["running"] is None and over["legal"] == []
    again = app_at(database_url, clock)
    clock.at += 100  # stopped clocks stay stopped
    assert view(again, game_id)["clocks"] == over["clocks"]
    assert view(again, game_id)["end_reason"] == over["end_reason"]


def test_the_timer_flags_with_nobody_acting(database_url: str) -> None:
    clock = Clock()
    with app_at(database_url, clock) as client:  # the lifespan: timers run
        made = new_game(client, clock={"minutes": 1})
        game_id = made["id"]
        first_moves(client, game_id, tokens(made))
        moved = stored_events(client, game_id)
        first = view(client, game_id)["to_move"]
        clock.at += 61
        waited = time.monotonic() + 10
        while stored_events(client, game_id) == moved and time.monotonic() < waited:
            time.sleep(0.05)  # polling for the timer's write, not an assertion
        assert stored_events(client, game_id) == [*moved, f"flag {first}"]
        assert view(client, game_id)["winners"] == [1 - first]


def test_resign(database_url: str) -> None:
    client = app_at(database_url, Clock())
    made = new_game(client)
    game_id, (ann, bob) = made["id"], tokens(made)
    assert end(client, game_id, "resign", "").status_code == 403  # a spectator
    early = end(client, game_id, "resign", bob)  # O4: not before each has moved
    assert early.status_code == 409 and "abort" in early.json()["error"]
    assert stored_events(client, game_id) == []
    first_moves(client, game_id, [ann, bob])
    moved = stored_events(client, game_id)
    answer = end(client, game_id, "resign", bob)
    assert answer.status_code == 200, answer.text
    assert answer.json()["over"] is True and answer.json()["end_reason"] == "Bob resigned"
    assert answer.json()["winners"] == [0]
    assert end(client, game_id, "resign", ann).status_code == 409
    seat = view(client, game_id)["to_move"]
    legal = view(client, game_id, [ann, bob][seat])["legal"]
    assert legal == []
    assert act(client, game_id, [ann, bob][seat], "pass").status_code in (400, 409)
    assert stored_events(client, game_id) == [*moved, "resign 1"]
    again = app_at(database_url, Clock())
    replayed = view(again, game_id)
    assert replayed["end_reason"] == "Bob resigned" and replayed["winners"] == [0]
    stored = again.app.state.service.store  # type: ignore[attr-defined]
    assert stored.load(game_id).actions[-1] == "resign 1"  # (listed to its player only, #30)
    rematch = again.post(f"/api/games/{game_id}/rematch", json={"token": bob})
    assert rematch.status_code == 201, rematch.text


def test_two_processes_racing_to_store_the_flag_store_it_once(database_url: str) -> None:
    clock = Clock()
    first = app_at(database_url, clock)
    made = new_game(first, clock={"minutes": 1})
    game_id, seats = made["id"], tokens(made)
    first_moves(first, game_id, seats)
    moved = stored_events(first, game_id)
    second = app_at(database_url, clock)
    mover = view(second, game_id)["to_move"]  # both processes hold the game
    clock.at += 90
    for client in (first, second):
        answer = act(client, game_id, seats[mover], "pass")
        assert answer.status_code == 409 and "ran out of time" in answer.json()["error"]
    assert stored_events(first, game_id) == [*moved, f"flag {mover}"]
    assert view(second, game_id)["winners"] == [1 - mover]


def test_abort_only_before_each_player_has_moved(database_url: str) -> None:
    client = app_at(database_url, Clock())
    made = new_game(client, rated=True, seed=None)
    game_id, seats = made["id"], tokens(made)
    take_turn(client, game_id, seats)  # one player has moved: still open
    answer = end(client, game_id, "abort", seats[0])
    assert answer.status_code == 200, answer.text
    over = answer.json()
    assert over["over"] and over["end_reason"] == "aborted" and over["winners"] == []
    assert over["rated"] is False  # an aborted game is never rated
    assert end(client, game_id, "abort", seats[1]).status_code == 409

    both = new_game(client)
    finish_turn(client, both["id"], tokens(both))
    finish_turn(client, both["id"], tokens(both))
    refused = end(client, both["id"], "abort", tokens(both)[0])
    assert refused.status_code == 409 and "resign" in refused.json()["error"]
    assert view(client, both["id"])["over"] is False


def test_bad_clocks_are_refused(database_url: str) -> None:
    """(Clocks and resignations for three or four players: tests/web/test_clocks_leaving.py.)"""
    client = app_at(database_url, Clock())
    three = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]
    body = {"variant": "classic", "players": three, "mode": "screen"}
    bad = client.post("/api/games", json={**body, "players": three[:2], "clock": {"minutes": 0}})
    assert bad.status_code == 400 and "clock.minutes" in bad.json()["error"]
