"""Tournaments for teachers and by correspondence (issue 38), over the API: a private
round robin made at once with the pupils entered by their ids, a computer level filling
an odd field's bye at the start, refusals naming the field; and a correspondence
round's deadline (the clock's days) forfeiting the games nobody moved in by the trust
rules (ruling O4: a seat that never moved loses by no-show), found by the periodic
check under an injected clock."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mathable.online.tournaments import Event, Paused, Resumed
from mathable.web.api import create_app
from mathable.web.tournaments.service import DAY, TournamentService, paused_during
from support.lobby import account, ok, person

CLASS: dict[str, Any] = {
    "name": "Class 5B",
    "variant": "classic",
    "system": "round-robin",
    "rounds": 0,
    "clock": None,
    "rated": False,
    "private": True,
}


@pytest.fixture
def main(tmp_path: Path, no_worker_processes: None) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'events.db'}")) as client:
        yield client


def me(client: TestClient) -> str:
    return str(ok(client.get("/api/me"))["id"])


def test_a_teacher_enters_the_pupils_and_a_computer_fills_the_bye(main: TestClient) -> None:
    teacher = account(main, "Mrs Ray")
    pupils = [person(main, name) for name in ("Ada", "Ben", "Cy")]  # guests: not rated
    ids = [me(p) for p in pupils]
    made = ok(
        teacher.post(
            "/api/tournaments", json={**CLASS, "players": [*ids, ids[0]], "fill_bye": "gentle"}
        ),
        201,
    )
    tid = made["id"]
    state = ok(teacher.get(f"/api/tournaments/{tid}"))
    assert [p["player"] for p in state["players"]] == ids  # each once, in order
    assert [p["name"] for p in state["players"]] == ["Ada", "Ben", "Cy"]
    assert state["spec"]["private"] and state["spec"]["fill_bye"] == "gentle"
    assert state["me"]["organizer"] and not state["me"]["joined"]
    assert ok(pupils[1].get(f"/api/tournaments/{tid}"))["me"]["joined"]
    started = ok(teacher.post(f"/api/tournaments/{tid}/start"))
    assert [p["player"] for p in started["players"]] == [*ids, "bot-gentle"]
    assert started["rounds"][0]["bye"] is None and len(started["rounds"][0]["pairings"]) == 2
    assert [p["computer"] for p in started["players"]] == [False, False, False, True]


def test_an_even_field_needs_no_computer(main: TestClient) -> None:
    teacher = account(main, "Mrs Ray")
    ids = [me(person(main, name)) for name in ("Ada", "Ben")]
    tid = ok(
        teacher.post("/api/tournaments", json={**CLASS, "players": ids, "fill_bye": "gentle"}),
        201,
    )["id"]
    started = ok(teacher.post(f"/api/tournaments/{tid}/start"))
    assert [p["player"] for p in started["players"]] == ids


def test_a_computer_among_the_pupils_and_the_refusals(main: TestClient) -> None:
    teacher = account(main, "Mrs Ray")
    ada = me(person(main, "Ada"))
    bea = me(account(main, "Bea"))
    tid = ok(teacher.post("/api/tournaments", json={**CLASS, "players": [ada, "bot-greedy"]}), 201)[
        "id"
    ]
    shown = ok(teacher.get(f"/api/tournaments/{tid}"))["players"]
    assert [(p["player"], p["computer"]) for p in shown] == [(ada, False), ("bot-greedy", True)]
    bad: list[tuple[dict[str, Any], str]] = [
        ({"players": ["nobody-at-all"]}, "players"),
        ({"players": [ada], "rated": True}, "players"),  # a guest in a rated event
        ({"players": [bea], "rated": True}, "players"),  # an account, entered by another
        ({"fill_bye": "grandmaster"}, "fill_bye"),
        ({"system": "arena", "minutes": 10, "fill_bye": "gentle"}, "fill_bye"),
        ({"players": [f"p{i}" for i in range(17)]}, "players"),
    ]
    for change, field in bad:
        answer = teacher.post("/api/tournaments", json={**CLASS, **change})
        assert answer.status_code == 422, (change, answer.text)
        assert answer.json()["error"].startswith(field), (change, answer.json())


def test_at_a_rounds_deadline_who_never_moved_loses_by_no_show(main: TestClient) -> None:
    service: TournamentService = main.app.state.tournaments  # type: ignore[attr-defined]
    assert main.portal is not None
    main.portal.call(service.close)  # this test looks, at the instants it chooses
    clock = [service.now()]
    service.now = lambda: clock[0]
    clients = [account(main, name) for name in ("Ann", "Bob", "Cid", "Dee")]
    spec = {**CLASS, "system": "swiss", "rounds": 2, "private": False, "clock": {"days": 3}}
    tid = ok(clients[0].post("/api/tournaments", json=spec), 201)["id"]
    people = {ok(c.post(f"/api/tournaments/{tid}/join"))["me"]["player"]: c for c in clients}
    started = ok(clients[0].post(f"/api/tournaments/{tid}/start"))
    boards = started["rounds"][0]["pairings"]
    paired_at = clock[0]
    assert started["deadline"] == pytest.approx(paired_at + 3 * DAY, abs=1)
    # board 1: its first player moves, the second never does; board 2: nobody moves
    first = boards[0]["players"][0]
    game = f"/api/games/{boards[0]['game']}"
    assert ok(people[first].get(game))["to_move"] == ok(people[first].get(game))["seat"]
    ok(people[first].post(game + "/actions", json={"action": "pass"}))
    clock[0] = paired_at + 3 * DAY - 60  # a minute before: nothing yet
    main.portal.call(service.check)
    assert service.load(tid).state.rounds[0].results == {}
    clock[0] = paired_at + 3 * DAY + 1
    main.portal.call(service.check)
    state = service.load(tid).state
    results = state.rounds[0].results
    assert results[1].points == (1.0, 0.0) and results[1].how == "no-show"
    assert results[2].points == (0.0, 0.0) and results[2].how == "no-show"
    assert len(state.rounds) == 2  # the next round paired at once
    shown = ok(clients[0].get(f"/api/tournaments/{tid}"))
    assert shown["deadline"] == pytest.approx(clock[0] + 3 * DAY, abs=1)
    # the forfeited games are ended, not left open: aborted by the no-show's seat (O4)
    never_moved = boards[0]["players"][1]
    for board in boards:
        game = f"/api/games/{board['game']}"
        for player in board["players"]:
            seen = ok(people[player].get(game))
            assert seen["over"] and seen["legal"] == [], (board, seen)
    refused = people[never_moved].post(
        f"/api/games/{boards[0]['game']}/actions", json={"action": "pass"}
    )
    assert refused.status_code == 409  # nobody plays on
    ended = service.log.finished([boards[0]["game"], boards[1]["game"]])
    no_show = next(s for s, p in ended[boards[0]["game"]].players.items() if p == never_moved)
    assert ended[boards[0]["game"]].last_action == f"abort {no_show}"
    assert ended[boards[1]["game"]].last_action.startswith("abort ")
    assert service.load(tid).state.rounds[0].results == results  # the results stand


def test_a_game_both_have_moved_in_plays_on_past_the_deadline(main: TestClient) -> None:
    service: TournamentService = main.app.state.tournaments  # type: ignore[attr-defined]
    assert main.portal is not None
    main.portal.call(service.close)
    clock = [service.now()]
    service.now = lambda: clock[0]
    clients = [account(main, name) for name in ("Ann", "Bob")]
    spec = {**CLASS, "system": "swiss", "rounds": 1, "private": False, "clock": {"days": 1}}
    tid = ok(clients[0].post("/api/tournaments", json=spec), 201)["id"]
    people = {ok(c.post(f"/api/tournaments/{tid}/join"))["me"]["player"]: c for c in clients}
    board = ok(clients[0].post(f"/api/tournaments/{tid}/start"))["rounds"][0]["pairings"][0]
    game = f"/api/games/{board['game']}"
    for player in board["players"]:  # the first player, then the second
        ok(people[player].post(game + "/actions", json={"action": "pass"}))
    clock[0] += 2 * DAY
    main.portal.call(service.check)
    assert service.load(tid).state.rounds[0].results == {}  # its own clock decides


def test_a_rounds_deadline_moves_by_the_time_paused_during_that_round(main: TestClient) -> None:
    service: TournamentService = main.app.state.tournaments  # type: ignore[attr-defined]
    assert main.portal is not None
    main.portal.call(service.close)
    clock = [service.now()]
    service.now = lambda: clock[0]
    clients = [account(main, name) for name in ("Ann", "Bob")]
    spec = {**CLASS, "system": "swiss", "rounds": 2, "private": False, "clock": {"days": 1}}
    tid = ok(clients[0].post("/api/tournaments", json=spec), 201)["id"]
    for client in clients:
        ok(client.post(f"/api/tournaments/{tid}/join"))
    paired_at = clock[0]
    assert ok(clients[0].post(f"/api/tournaments/{tid}/start"))["deadline"] == pytest.approx(
        paired_at + DAY
    )
    for pause, resume in ((2, 5), (10, 11)):  # four hours paused in round 1, in two pauses
        clock[0] = paired_at + pause * 3600
        paused = ok(clients[0].post(f"/api/tournaments/{tid}/pause"))
        assert paused["deadline"] is None  # none passes while paused
        clock[0] = paired_at + resume * 3600
        ok(clients[0].post(f"/api/tournaments/{tid}/resume"))
    deadline = paired_at + DAY + 4 * 3600
    assert ok(clients[0].get(f"/api/tournaments/{tid}"))["deadline"] == pytest.approx(deadline)
    clock[0] = deadline - 60  # past the clock's day, within the time paused: nothing yet
    main.portal.call(service.check)
    assert service.load(tid).state.rounds[0].results == {}
    clock[0] = deadline + 1
    main.portal.call(service.check)
    state = service.load(tid).state
    assert state.rounds[0].results[1].how == "no-show" and len(state.rounds) == 2
    # round 2: paired now, the pauses of round 1 do not move its deadline
    shown = ok(clients[0].get(f"/api/tournaments/{tid}"))
    assert shown["deadline"] == pytest.approx(state.rounds[1].at + DAY)


@pytest.mark.parametrize(
    ("events", "since", "expected"),
    [
        ([], 0.0, 0.0),
        ([Paused(10.0), Resumed(40.0), Paused(50.0), Resumed(55.0)], 0.0, 35.0),
        ([Paused(10.0), Resumed(40.0)], 30.0, 10.0),  # only the share after ``since``
        ([Paused(10.0), Resumed(40.0)], 45.0, 0.0),  # a pause of an earlier round
        ([Paused(10.0), Resumed(40.0), Paused(50.0)], 0.0, 30.0),  # under way: not yet
    ],
)
def test_the_time_paused_since_an_instant(
    events: list[Event], since: float, expected: float
) -> None:
    assert paused_during(events, since) == expected
