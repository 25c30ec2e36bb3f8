"""Tournaments over the API (issue 38): a 3-round Swiss of five accounts from creation to
its final standings (every game played through the games' own API), a round robin of six
with a computer entrant, the refusals (bad fields, a join after the start, a start by
someone else), the organizer's decisions, and two stores over one database appending at
once without pairing a round twice."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mathable.online.tournaments import Joined, Paired, Started, due, replay
from mathable.web.api import create_app
from mathable.web.infra.store import EventStore
from mathable.web.tournaments.log import GameEnd
from mathable.web.tournaments.service import Loaded, TournamentService, result_of
from support.lobby import account, ok, person

SWISS: dict[str, Any] = {
    "name": "Club Swiss <b>#1</b>",
    "variant": "classic",
    "system": "swiss",
    "rounds": 3,
    "clock": None,
    "rated": False,
    "private": False,
}


@pytest.fixture
def main(tmp_path: Path, no_worker_processes: None) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'events.db'}")) as client:
        yield client


def listed(client: TestClient, **params: Any) -> list[dict[str, Any]]:
    answer = client.get("/api/tournaments", params=params)
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()
    return found


def tournament(client: TestClient, tournament_id: str) -> dict[str, Any]:
    return ok(client.get(f"/api/tournaments/{tournament_id}"))


def finish(client: TestClient, game_id: str, other: TestClient, winner_first: bool) -> None:
    """Both seats pass once, in the order of play (each has moved: O4), then the loser
    resigns: ``client`` (the board's first player) wins if ``winner_first``."""
    game = f"/api/games/{game_id}"
    by_seat = {ok(c.get(game))["seat"]: c for c in (client, other)}
    assert set(by_seat) == {0, 1}
    mover = int(ok(client.get(game))["to_move"])
    assert by_seat[mover] is client  # the board's first player moves first
    for seat in (mover, 1 - mover):
        ok(by_seat[seat].post(game + "/actions", json={"action": "pass"}))
    ok((other if winner_first else client).post(game + "/resign", json={}))


def play_round(people: dict[str, TestClient], state: dict[str, Any], winner: str = "first") -> None:
    """Every board of the current round played: the first player wins (or the second)."""
    current = state["rounds"][-1]
    for pairing in current["pairings"]:
        first, second = (people[p] for p in pairing["players"])
        assert pairing["game"], pairing
        finish(first, pairing["game"], second, winner == "first")


def test_a_three_round_swiss_of_five_accounts_to_its_final_standings(main: TestClient) -> None:
    names = ["Ann", "Bob", "Cid", "Dee", "Eve"]
    clients = [account(main, name) for name in names]
    organizer = clients[0]
    made = ok(organizer.post("/api/tournaments", json=SWISS), 201)
    tid = made["id"]
    people: dict[str, TestClient] = {}
    for client in clients:
        joined = ok(client.post(f"/api/tournaments/{tid}/join"))
        people[joined["me"]["player"]] = client
    assert [p["name"] for p in joined["players"]] == names
    assert joined["name"] == SWISS["name"]  # exactly as typed
    started = ok(organizer.post(f"/api/tournaments/{tid}/start"))
    assert started["status"] == "running" and started["round"] == 1
    for number in (1, 2, 3):
        state = tournament(organizer, tid)
        assert state["round"] == number
        current = state["rounds"][-1]
        assert len(current["pairings"]) == 2 and current["bye"] is not None
        seated = [p for pairing in current["pairings"] for p in pairing["players"]]
        assert sorted([*seated, current["bye"]]) == sorted(people)
        mine = tournament(people[seated[0]], tid)["me"]
        assert mine["next_game"] == current["pairings"][0]["game"]
        play_round(people, state)
    final = tournament(organizer, tid)
    assert final["status"] == "finished" and final["round"] == 3
    byes = [r["bye"] for r in final["rounds"]]
    assert len(set(byes)) == 3  # never twice to one player
    met = [frozenset(p["players"]) for r in final["rounds"] for p in r["pairings"]]
    assert len(set(met)) == len(met)  # no pair meets twice
    standings = final["standings"]
    assert {s["player"] for s in standings} == set(people)
    assert sum(s["points"] for s in standings) == 3 * 2 + 3  # the games' points and byes
    assert [s["rank"] for s in standings] == sorted(s["rank"] for s in standings)
    for row in standings:
        assert set(row["tiebreaks"]) == {"buchholz", "sonneborn_berger", "spread"}
        assert row["games"] in (2, 3)
    crossed = {row["player"]: row["rounds"] for row in final["crosstable"]}
    assert all(len(rounds) == 3 for rounds in crossed.values())
    shown = listed(organizer, status="finished")
    assert [t["id"] for t in shown] == [tid] and shown[0]["mine"] is True


def test_a_round_robin_of_six_with_a_computer_player(main: TestClient) -> None:
    names = ["Pia", "Quy", "Ria", "Sol", "Tom"]
    clients = [account(main, name) for name in names]
    organizer = clients[0]
    tid = ok(
        organizer.post(
            "/api/tournaments",
            json={**SWISS, "name": "Class 5B", "system": "round-robin", "rounds": 0},
        ),
        201,
    )["id"]
    people: dict[str, TestClient] = {}
    for client in clients:
        people[ok(client.post(f"/api/tournaments/{tid}/join"))["me"]["player"]] = client
    joined = ok(organizer.post(f"/api/tournaments/{tid}/join", json={"computer": "gentle"}))
    computer = next(p for p in joined["players"] if p["computer"])
    assert computer["player"] == "bot-gentle"
    ok(organizer.post(f"/api/tournaments/{tid}/start"))
    for number in range(1, 6):
        state = tournament(organizer, tid)
        assert state["round"] == number and state["rounds"][-1]["bye"] is None
        for pairing in state["rounds"][-1]["pairings"]:
            first, second = pairing["players"]
            if "bot-gentle" in pairing["players"]:  # decided: the computer plays slowly
                ok(
                    organizer.post(
                        f"/api/tournaments/{tid}/decide",
                        json={"round": number, "board": pairing["board"], "points": [0.5, 0.5]},
                    )
                )
            else:
                finish(people[first], pairing["game"], people[second], True)
    final = tournament(organizer, tid)
    assert final["status"] == "finished"
    met = [frozenset(p["players"]) for r in final["rounds"] for p in r["pairings"]]
    assert len(met) == 15 == len(set(met))  # every pair once
    assert sum(s["points"] for s in final["standings"]) == 15
    decided = [
        p["result"]["how"]
        for r in final["rounds"]
        for p in r["pairings"]
        if "bot-gentle" in p["players"]
    ]
    assert decided == ["decided"] * 5


def test_refusals_name_the_field(main: TestClient) -> None:
    ann = account(main, "Ann")
    guest = person(main, "Gus")
    assert guest.post("/api/tournaments", json=SWISS).status_code == 401
    bad: list[tuple[dict[str, Any], str]] = [
        ({"name": ""}, "name"),
        ({"name": "x" * 61}, "name"),
        ({"name": "   "}, "name"),
        ({"variant": "chess"}, "variant"),
        ({"system": "knockout"}, "system"),
        ({"rounds": 31}, "rounds"),
        ({"rounds": 0}, "rounds"),
        ({"minutes": 10}, "minutes"),
        ({"clock": {"minutes": 0}}, "clock.minutes"),
        ({"start": "tomorrow"}, "start"),
        ({"colour": "red"}, "colour"),
    ]
    for change, field in bad:
        answer = ann.post("/api/tournaments", json={**SWISS, **change})
        assert answer.status_code == 422, (change, answer.text)
        assert answer.json()["error"].startswith(field), (change, answer.json())
    arena = ann.post("/api/tournaments", json={**SWISS, "system": "arena", "rounds": 0})
    assert arena.status_code == 422 and arena.json()["error"].startswith("minutes")
    tid = ok(ann.post("/api/tournaments", json=SWISS), 201)["id"]
    bob, cid = account(main, "Bob"), account(main, "Cid")
    ok(ann.post(f"/api/tournaments/{tid}/join"))
    ok(bob.post(f"/api/tournaments/{tid}/join"))
    assert bob.post(f"/api/tournaments/{tid}/join").status_code == 409  # twice
    assert bob.post(f"/api/tournaments/{tid}/start").status_code == 403  # not the organizer
    assert bob.post(f"/api/tournaments/{tid}/join", json={"computer": "strong"}).status_code == 403
    ok(ann.post(f"/api/tournaments/{tid}/start"))
    late = cid.post(f"/api/tournaments/{tid}/join")
    assert late.status_code == 409 and "started" in late.json()["error"]
    assert ann.post(f"/api/tournaments/{tid}/start").status_code == 409  # twice
    assert ann.get("/api/tournaments/nosuchthing").status_code == 404
    decided = ann.post(
        f"/api/tournaments/{tid}/decide", json={"round": 1, "board": 1, "points": [1, 1]}
    )
    assert decided.status_code == 422 and decided.json()["error"].startswith("points")


def test_a_private_tournament_is_joined_by_its_link_only(main: TestClient) -> None:
    ann, bob = account(main, "Ann"), account(main, "Bob")
    tid = ok(ann.post("/api/tournaments", json={**SWISS, "private": True}), 201)["id"]
    assert [t["id"] for t in listed(bob)] == []
    assert [t["id"] for t in listed(ann)] == [tid]
    ok(bob.post(f"/api/tournaments/{tid}/join"))  # by its link
    assert [t["id"] for t in listed(bob, mine=True)] == [tid]
    assert len(tid) >= 12  # an unguessable id


def test_the_organizer_pauses_removes_and_a_player_withdraws(main: TestClient) -> None:
    ann, bob, cid = account(main, "Ann"), account(main, "Bob"), account(main, "Cid")
    tid = ok(ann.post("/api/tournaments", json={**SWISS, "late_join_until": 2}), 201)["id"]
    ids = [ok(c.post(f"/api/tournaments/{tid}/join"))["me"]["player"] for c in (ann, bob)]
    ok(ann.post(f"/api/tournaments/{tid}/start"))
    ok(cid.post(f"/api/tournaments/{tid}/join"))  # a late join, before round 2 is paired
    assert ok(ann.post(f"/api/tournaments/{tid}/pause"))["status"] == "paused"
    assert ok(ann.post(f"/api/tournaments/{tid}/resume"))["status"] == "running"
    removed = ok(ann.post(f"/api/tournaments/{tid}/remove", json={"player": ids[1]}))
    assert [p["active"] for p in removed["players"]] == [True, False, True]
    assert bob.post(f"/api/tournaments/{tid}/join").status_code == 403  # removed: not back
    assert ok(cid.post(f"/api/tournaments/{tid}/withdraw"))["me"]["joined"] is False


@pytest.mark.parametrize(
    ("end", "expected"),
    [
        (GameEnd([120, 80], [1, 2], "end", 0), ((1.0, 0.0), (120, 80), "played")),
        (GameEnd([80, 120], [2, 1], "resign 0", 0), ((0.0, 1.0), (80, 120), "played")),
        (GameEnd([90, 90], [1, 1], "end", 1), ((0.5, 0.5), (90, 90), "played")),
        (GameEnd([0, 0], [1, 1], "abort 0", None), ((0.0, 1.0), (0, 0), "no-show")),
        (GameEnd([12, 0], [1, 1], "abort 1", None), ((1.0, 0.0), (12, 0), "no-show")),
        (GameEnd([0, 0], [1, 1], "abort 1", 1), ((1.0, 0.0), (0, 0), "forfeit")),
    ],
)
def test_a_games_end_becomes_its_boards_result(
    end: GameEnd, expected: tuple[Any, Any, str]
) -> None:
    assert result_of(end) == expected


def test_two_stores_over_one_database_never_pair_a_round_twice(
    database_url: str, no_worker_processes: None
) -> None:
    url = database_url  # SQLite and PostgreSQL
    with TestClient(create_app(url)) as main:
        ann = account(main, "Ann")
        tid = ok(ann.post("/api/tournaments", json=SWISS), 201)["id"]
        for name in ("Bob", "Cid", "Dee"):
            ok(account(main, name).post(f"/api/tournaments/{tid}/join"))
        service: TournamentService = main.app.state.tournaments  # type: ignore[attr-defined]
        loaded = service.load(tid)
    services = [TournamentService(EventStore(url), service.games) for _ in range(2)]
    barrier = threading.Barrier(2)

    appended: list[int] = []

    def start_and_pair(own: TournamentService) -> None:
        """Start and pair round 1, both having read the same log before appending."""
        waited: list[bool] = []

        def make(now: Loaded) -> list[Any]:
            if not waited:
                waited.append(True)
                barrier.wait(timeout=10)
            if now.state.status != "upcoming":
                return []
            began = replay(now.spec, [*now.events, Started(1.0)])
            return [Started(1.0), *due(began, 1.0)]

        appended.append(len(own.change(tid, make).events))

    threads = [threading.Thread(target=start_and_pair, args=(s,)) for s in services]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(appended) == 2  # both finished: one appended, the other replayed and saw it
    final = services[0].load(tid)
    assert sum(isinstance(e, Started) for e in final.events) == 1
    assert sum(isinstance(e, Paired) for e in final.events) == 1
    assert sum(isinstance(e, Joined) for e in final.events) == len(loaded.events) == 3
    for own in services:
        own.store.close()


def test_the_periodic_check_records_results_and_pairs_without_a_read(main: TestClient) -> None:
    """The rounds' layer never calls the tournaments: each process's periodic look finds
    the ended games in the store and pairs the next round by itself."""
    service: TournamentService = main.app.state.tournaments  # type: ignore[attr-defined]
    assert main.portal is not None  # the running app's event loop
    main.portal.call(service.close)  # no look of its own meanwhile: this test looks
    ann, bob = account(main, "Ann"), account(main, "Bob")
    tid = ok(ann.post("/api/tournaments", json={**SWISS, "rounds": 2}), 201)["id"]
    people = {ok(c.post(f"/api/tournaments/{tid}/join"))["me"]["player"]: c for c in (ann, bob)}
    first_round = ok(ann.post(f"/api/tournaments/{tid}/start"))["rounds"][0]["pairings"][0]
    first, second = (people[p] for p in first_round["players"])
    finish(first, first_round["game"], second, True)
    assert len(service.load(tid).state.rounds) == 1  # nothing read it since
    main.portal.call(service.check)
    state = service.load(tid).state
    assert state.rounds[0].results[1].points == (1.0, 0.0)
    assert len(state.rounds) == 2 and 1 in state.rounds[1].games  # paired, its game made
