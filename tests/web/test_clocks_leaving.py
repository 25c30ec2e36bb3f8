"""Issue 15, clocks and game flow for three and four players (local ruling L1): a seat out
of time, resigned or claimed leaves the game with its score frozen, play goes on, and the
clocks go on with the next seat still in; the events replay to the same after a restart."""

from __future__ import annotations

from fastapi.testclient import TestClient

from support.api import act, new_game, tokens, view
from support.clocks import Clock, app_at, end, finish_turn, stored_events

THREE = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]


def take_turn(client: TestClient, game_id: str, seats: list[str]) -> int:
    """The seat to move places a token if it can (:func:`finish_turn`), else passes."""
    mover = view(client, game_id)["to_move"]
    if any("=" in a for a in view(client, game_id, seats[mover])["legal"]):
        return finish_turn(client, game_id, seats)
    assert act(client, game_id, seats[mover], "pass").status_code == 200
    return int(mover)


def test_a_flag_in_a_three_player_game_and_play_goes_on(database_url: str) -> None:
    clock = Clock()
    client = app_at(database_url, clock)  # no lifespan: the next action finds the flag
    made = new_game(client, players=THREE, clock={"minutes": 1, "increment": 0})
    game_id, seats = made["id"], tokens(made)
    start = view(client, game_id)
    assert start["clocks"] == [60_000] * 3 and start["left"] == ["", "", ""]
    for _seat in range(3):  # the first moves (O4: free of the clocks)
        take_turn(client, game_id, seats)
    take_turn(client, game_id, seats)
    late = view(client, game_id)["to_move"]
    before = view(client, game_id)
    clocks = before["clocks"]
    clock.at += 70  # the seat to move runs out of time (at 60 s), found 10 s later
    answer = act(client, game_id, seats[late], "pass")
    assert answer.status_code == 409  # too late: that seat has left the game
    assert stored_events(client, game_id)[-1] == f"flag {late}"
    after = view(client, game_id)
    assert after["over"] is False and after["left"][late] == "flag"
    following = after["to_move"]
    assert following != late and after["running"] == following
    assert after["clocks"][late] == 0
    # nobody else is charged for the 10 s between the flag and its finding (issue 29)
    assert after["clocks"][following] == clocks[following]
    assert after["scores"][late] == before["scores"][late]
    # the flagged seat's turns never come again; the other two play on
    for _ in range(4):
        mover = take_turn(client, game_id, seats)
        assert mover != late
    frozen = view(client, game_id)
    assert frozen["scores"][late] == after["scores"][late]
    again = app_at(database_url, clock)  # a restart derives the same
    replayed = view(again, game_id)
    assert replayed["left"] == frozen["left"] and replayed["clocks"] == frozen["clocks"]
    assert replayed["to_move"] == frozen["to_move"]


def test_resigning_a_three_player_game_then_the_last_two(database_url: str) -> None:
    clock = Clock()
    client = app_at(database_url, clock)
    made = new_game(client, players=THREE, clock={"minutes": 5, "increment": 3})
    game_id, seats = made["id"], tokens(made)
    early = end(client, game_id, "resign", seats[1])  # O4: abort before each has moved
    assert early.status_code == 409 and "abort" in early.json()["error"]
    for _seat in range(3):
        take_turn(client, game_id, seats)
    moved = stored_events(client, game_id)
    mover = view(client, game_id)["to_move"]
    other = (mover + 1) % 3
    answer = end(client, game_id, "resign", seats[other])  # out of turn
    assert answer.status_code == 200, answer.text
    assert answer.json()["over"] is False and answer.json()["left"][other] == "resign"
    assert answer.json()["to_move"] == mover and answer.json()["running"] == mover
    assert end(client, game_id, "resign", seats[other]).status_code == 409
    answer = end(client, game_id, "resign", seats[mover])  # on its turn
    assert answer.status_code == 200, answer.text
    last = answer.json()
    stayer = 3 - mover - other
    assert last["over"] is True and last["winners"] == [stayer]
    assert last["end_reason"] == f"{THREE[mover]['name']} resigned"
    assert stored_events(client, game_id) == [*moved, f"resign {other}", f"resign {mover}"]


def test_a_seat_may_not_play_another_seat_s_resignation(database_url: str) -> None:
    client = app_at(database_url, Clock())
    made = new_game(client, players=THREE)
    game_id, seats = made["id"], tokens(made)
    mover = view(client, game_id)["to_move"]
    refused = act(client, game_id, seats[mover], f"resign {(mover + 1) % 3}")
    assert refused.status_code == 400 and stored_events(client, game_id) == []
    assert view(client, game_id, seats[mover])["abort"] is True


def test_undo_never_takes_back_a_seat_leaving(database_url: str) -> None:
    client = app_at(database_url, Clock())
    made = new_game(client, players=THREE, house_rules={"allow_undo": True})
    game_id, seats = made["id"], tokens(made)
    for _seat in range(3):  # each makes a first move: then a seat may resign (O4)
        take_turn(client, game_id, seats)
    mover = take_turn(client, game_id, seats)
    assert view(client, game_id, seats[mover])["undo"] is True
    gone = 3 - mover - view(client, game_id)["to_move"]
    assert end(client, game_id, "resign", seats[gone]).status_code == 200
    assert view(client, game_id, seats[mover])["undo"] is False
    refused = act(client, game_id, seats[mover], "undo")
    assert refused.status_code == 409, refused.text
    assert view(client, game_id, seats[gone])["undo"] is False
    assert stored_events(client, game_id)[-1] == f"resign {gone}"
