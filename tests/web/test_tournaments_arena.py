"""An arena through the web (issue 38), under an injected clock: six accounts paired at
the start, each board's players paired again as soon as its game ends (with the others
waiting, never with the same opponent while another pairing avoids it), the arena's
points (2 a win, streaks doubled) in the standings, and at start + minutes the end: the
games still running do not count and nobody is paired any more."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mathable.web.api import create_app
from mathable.web.tournaments.service import TournamentService
from support.lobby import account, ok

ARENA: dict[str, Any] = {
    "name": "Friday arena",
    "variant": "classic",
    "system": "arena",
    "rounds": 0,
    "minutes": 10,
    "clock": None,
    "rated": False,
    "private": False,
}
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


@pytest.fixture
def main(tmp_path: Path, no_worker_processes: None) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'events.db'}")) as client:
        yield client


def finish(game_id: str, winner: TestClient, loser: TestClient) -> None:
    """Both seats pass once in the order of play (each has moved: O4), then the loser
    resigns."""
    game = f"/api/games/{game_id}"
    by_seat = {ok(c.get(game))["seat"]: c for c in (winner, loser)}
    mover = int(ok(winner.get(game))["to_move"])
    for seat in (mover, 1 - mover):
        ok(by_seat[seat].post(game + "/actions", json={"action": "pass"}))
    ok(loser.post(game + "/resign", json={}))


def arena_points(games: list[float]) -> int:
    """The lichess arena's points of one player's results in order (1 win, ½ draw, 0
    loss), counted here apart from the engine: 2/1/0, doubled after two wins in a row
    until a game that is not a win."""
    total, streak = 0, 0
    for points in games:
        base = {1.0: 2, 0.5: 1, 0.0: 0}[points]
        total += base * (2 if streak >= 2 else 1)
        streak = streak + 1 if points == 1.0 else 0
    return total


class Arena:
    """The test's handle on one arena: its accounts by player id, the service under an
    injected clock, and the boards' results as the test gave them."""

    def __init__(self, main: TestClient) -> None:
        self.main = main
        self.service: TournamentService = main.app.state.tournaments  # type: ignore[attr-defined]
        assert main.portal is not None
        main.portal.call(self.service.close)  # this test looks, at the instants it chooses
        self.clock = [self.service.now()]
        self.service.now = lambda: self.clock[0]
        clients = [account(main, name) for name in NAMES]
        self.organizer = clients[0]
        self.id = ok(self.organizer.post("/api/tournaments", json=ARENA), 201)["id"]
        self.people: dict[str, TestClient] = {}
        self.rank: dict[str, int] = {}
        for index, client in enumerate(clients):
            player = ok(client.post(f"/api/tournaments/{self.id}/join"))["me"]["player"]
            self.people[player] = client
            self.rank[player] = index  # the earlier name wins every game it plays
        self.results: dict[str, list[float]] = {p: [] for p in self.people}

    def check(self) -> None:
        """One periodic look, at the clock's instant."""
        assert self.main.portal is not None
        self.main.portal.call(self.service.check)

    def state(self) -> dict[str, Any]:
        found: dict[str, Any] = ok(self.organizer.get(f"/api/tournaments/{self.id}"))
        return found

    def running(self) -> list[dict[str, Any]]:
        """The boards paired and not yet decided, each with its game."""
        return [
            p
            for r in self.state()["rounds"]
            for p in r["pairings"]
            if p["result"] is None and p["game"]
        ]

    def play(self, pairing: dict[str, Any]) -> None:
        """The board's game played to its end: the earlier name wins."""
        winner, loser = sorted(pairing["players"], key=self.rank.__getitem__)
        finish(pairing["game"], self.people[winner], self.people[loser])
        self.results[winner].append(1.0)
        self.results[loser].append(0.0)


def test_an_arena_pairs_whoever_finishes_and_counts_streaks(main: TestClient) -> None:
    arena = Arena(main)
    started = ok(arena.organizer.post(f"/api/tournaments/{arena.id}/start"))
    assert started["status"] == "running"
    assert started["ends"] == pytest.approx(arena.clock[0] + 10 * 60)
    first_wave = started["rounds"][0]["pairings"]
    assert len(first_wave) == 3 and all(p["game"] for p in first_wave)
    seated = sorted(p for board in first_wave for p in board["players"])
    assert seated == sorted(arena.people)  # everybody plays at once

    last_opponent: dict[str, str] = {}
    for minute in range(1, 7):  # two boards end, then a look: their four players re-paired
        arena.clock[0] += 60
        before = arena.running()
        ended, still = before[:2], before[2:]
        for pairing in ended:
            arena.play(pairing)
            a, b = pairing["players"]
            last_opponent[a], last_opponent[b] = b, a
        arena.check()
        after = arena.running()
        new = [p for p in after if p["game"] not in {q["game"] for q in before}]
        assert len(new) == 2, (minute, after)
        waiting = sorted(p for pairing in ended for p in pairing["players"])
        assert sorted(p for pairing in new for p in pairing["players"]) == waiting
        for pairing in new:  # four waited: nobody meets their last opponent at once
            a, b = pairing["players"]
            assert last_opponent[a] != b
        assert [p["game"] for p in still] == [p["game"] for p in after if p in still]
        shown = {s["player"]: s["points"] for s in arena.state()["standings"]}
        assert shown == {p: arena_points(r) for p, r in arena.results.items()}

    ann = next(p for p, r in arena.rank.items() if r == 0)
    assert arena.results[ann][:3] == [1.0, 1.0, 1.0]  # Ann wins every game: on fire
    assert arena_points(arena.results[ann]) == 2 + 2 + 4 * (len(arena.results[ann]) - 2)

    # the end: a board ended just before it counts, the others' games no longer do
    before = arena.running()
    arena.play(before[0])
    arena.clock[0] = started["ends"] - 1
    arena.check()
    counted = {s["player"]: s["points"] for s in arena.state()["standings"]}
    assert counted == {p: arena_points(r) for p, r in arena.results.items()}
    arena.clock[0] = started["ends"]
    arena.check()
    final = arena.state()
    assert final["status"] == "finished" and final["finished"] == pytest.approx(started["ends"])
    waves = len(final["rounds"])
    late = [p for p in arena.running() if p["game"]]
    assert late  # games were still running at the end
    arena.play(late[0])  # ended after the arena: it does not count
    arena.clock[0] += 60
    arena.check()
    closed = arena.state()
    assert len(closed["rounds"]) == waves  # nobody paired any more
    assert {s["player"]: s["points"] for s in closed["standings"]} == counted
    games = {p["game"] for p in late}
    unplayed = [p for r in closed["rounds"] for p in r["pairings"] if p["game"] in games]
    assert len(unplayed) == len(late) and all(p["result"] is None for p in unplayed)
