"""Puzzle ratings (issue 18): an account's first check of a puzzle is a rated game between
the solver and the puzzle (Glicko-2, :func:`mathable.online.ratings.rate`, one period);
later checks, guests and anonymous visitors are not rated; two processes checking the
same first attempt at once rate it once. On SQLite and PostgreSQL (``database_url``)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from mathable.learn import puzzles as mined
from mathable.online.ratings import Rating, Result, rate
from mathable.web.api import create_app
from mathable.web.infra.db import puzzle_attempts, puzzle_ratings, puzzle_solvers
from mathable.web.infra.store import EventStore
from mathable.web.players.players import PlayerStore
from mathable.web.ratings.puzzleratings import BAND_START, PuzzleRatings

PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def _no_worker_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    for name in ("MATHABLE_SECRET_KEY", "MATHABLE_SECURE_COOKIES", "MATHABLE_RATE_LOGIN"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(database_url)) as running:
        yield running


def ok(response: httpx2.Response) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def account(client: TestClient, name: str) -> str:
    """Make this client's guest an account; its id."""
    ok(client.get("/api/me"))
    response = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert response.status_code in (200, 201), response.text
    player_id: str = response.json()["id"]
    return player_id


def check(client: TestClient, puzzle: mined.Puzzle, solve: bool) -> dict[str, Any]:
    """Check ``puzzle``: its answer (solved), or its first placement only (not solved)."""
    placements = puzzle.answer.split() if solve else puzzle.answer.split()[:1]
    return ok(client.post(f"/api/puzzles/{puzzle.id}/check", json={"placements": placements}))


def table(client: TestClient, which: Any) -> list[Any]:
    app: Any = client.app
    store: EventStore = app.state.service.store
    with store.reading() as connection:
        return list(connection.execute(select(which)).all())


def first(band: str) -> mined.Puzzle:
    return mined.of_band(band)[0]


@pytest.mark.parametrize(("band", "solve"), [("easy", True), ("hard", False), ("medium", False)])
def test_a_first_attempt_is_rated_as_glicko_2_gives_it(
    client: TestClient, band: str, solve: bool
) -> None:
    puzzle = first(band)
    before = ok(client.get(f"/api/puzzles/{puzzle.id}"))["rating"]
    assert before["rating"] == BAND_START[band] and before["attempts"] == 0
    assert before["provisional"] and before["deviation"] == 350
    player_id = account(client, "Ann")
    answer = check(client, puzzle, solve)
    assert answer["solved"] is solve
    start = Rating(BAND_START[band])
    solver = rate(Rating(), [Result(start, 1.0 if solve else 0.0)])
    target = rate(start, [Result(Rating(), 0.0 if solve else 1.0)])
    rated = answer["rating"]
    assert rated["rating"] == round(solver.rating)
    assert rated["change"] == round(solver.rating) - 1500
    assert (rated["change"] > 0) is solve and rated["change"] != 0
    assert rated["puzzle"]["rating"] == round(target.rating)
    assert rated["puzzle"]["change"] == round(target.rating) - round(start.rating)
    (row,) = table(client, puzzle_solvers)
    assert row.player_id == player_id and (row.attempts, row.solved) == (1, int(solve))
    assert (row.rating, row.deviation, row.volatility) == pytest.approx(
        (solver.rating, solver.deviation, solver.volatility), abs=1e-9
    )
    (stored,) = table(client, puzzle_ratings)
    assert stored.rating == pytest.approx(target.rating, abs=1e-9) and stored.attempts == 1
    after = ok(client.get(f"/api/puzzles/{puzzle.id}"))["rating"]
    assert after["rating"] == round(target.rating) and after["attempts"] == 1
    mine = ok(client.get("/api/me/puzzles"))
    assert mine["rated"] and mine["rating"] == round(solver.rating)
    assert (mine["attempts"], mine["solved"]) == (1, int(solve))


def test_a_second_attempt_is_not_rated_and_the_next_solver_meets_the_new_rating(
    client: TestClient, database_url: str
) -> None:
    puzzle = first("easy")
    account(client, "Ann")
    first_answer = check(client, puzzle, solve=False)
    assert first_answer["rating"] is not None
    again = check(client, puzzle, solve=True)
    assert again["solved"] and again["rating"] is None  # solved, but not rated
    mine = ok(client.get("/api/me/puzzles"))
    assert (mine["attempts"], mine["solved"]) == (1, 0)
    assert len(table(client, puzzle_attempts)) == 1
    # another account meets the puzzle at its rating after Ann's attempt
    app: Any = client.app
    bob = TestClient(app)  # another browser on the running app (its own cookies)
    account(bob, "Bob")
    (stored,) = table(client, puzzle_ratings)
    puzzle_now = Rating(stored.rating, stored.deviation, stored.volatility)
    rated = check(bob, puzzle, solve=True)["rating"]
    expected = rate(Rating(), [Result(puzzle_now, 1.0)])
    assert rated["rating"] == round(expected.rating)
    assert rated["puzzle"]["rating"] == round(rate(puzzle_now, [Result(Rating(), 0.0)]).rating)
    assert {r.attempts for r in table(client, puzzle_ratings)} == {2}


def test_guests_and_visitors_are_not_rated(client: TestClient) -> None:
    puzzle = first("medium")
    answer = check(client, puzzle, solve=True)  # no cookie yet: no guest made for it
    assert answer["solved"] and answer["rating"] is None
    assert not client.cookies  # no guest was made for it
    ok(client.get("/api/me"))  # now a guest
    assert check(client, puzzle, solve=True)["rating"] is None
    assert ok(client.get("/api/me/puzzles")) == {
        "rated": False,
        "rating": None,
        "attempts": 0,
        "solved": 0,
    }
    assert table(client, puzzle_attempts) == [] and table(client, puzzle_solvers) == []
    assert ok(client.get(f"/api/puzzles/{puzzle.id}"))["rating"]["attempts"] == 0


def test_an_illegal_first_turn_is_a_rated_miss(client: TestClient) -> None:
    """Every check shows the answer, so a junk turn may not peek for free."""
    puzzle = first("easy")
    account(client, "Ann")
    answer = ok(client.post(f"/api/puzzles/{puzzle.id}/check", json={"placements": []}))
    assert not answer["legal"] and answer["rating"]["change"] < 0
    assert check(client, puzzle, solve=True)["rating"] is None


def test_two_processes_checking_the_same_first_attempt_at_once_rate_it_once(
    database_url: str,
) -> None:
    puzzle = first("hard")
    with TestClient(create_app(database_url)) as one, TestClient(create_app(database_url)) as two:
        player_id = account(one, "Ann")
        two.cookies.update(one.cookies)  # the same session in another process
        assert ok(two.get("/api/me"))["id"] == player_id
        gate = threading.Barrier(8)
        answers: list[dict[str, Any]] = []

        def go(client: TestClient) -> None:
            gate.wait()
            answers.append(check(client, puzzle, solve=True))

        threads = [threading.Thread(target=go, args=([one, two][i % 2],)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(answers) == 8
        rated = [a["rating"] for a in answers if a["rating"] is not None]
        assert len(rated) == 1
        expected = rate(Rating(), [Result(Rating(BAND_START["hard"]), 1.0)])
        assert rated[0]["rating"] == round(expected.rating)
        assert len(table(one, puzzle_attempts)) == 1
        (solver,) = table(two, puzzle_solvers)
        assert (solver.attempts, solver.solved) == (1, 1)
        (stored,) = table(two, puzzle_ratings)
        assert stored.attempts == 1


def test_many_solvers_at_once_lose_no_update(database_url: str) -> None:
    """Two stores (two processes) rating different players on one puzzle at once: every
    attempt counts on the puzzle's row."""
    puzzle = first("easy")
    stores = [EventStore(database_url), EventStore(database_url)]
    try:
        ids = [PlayerStore(stores[0]).new_guest().id for _ in range(6)]
        gate = threading.Barrier(len(ids))

        def go(i: int) -> None:
            gate.wait()
            PuzzleRatings(stores[i % 2]).attempt(ids[i], puzzle, solved=i % 3 == 0)

        threads = [threading.Thread(target=go, args=(i,)) for i in range(len(ids))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        with stores[1].reading() as connection:
            (row,) = connection.execute(select(puzzle_ratings)).all()
            attempts = connection.execute(select(puzzle_attempts)).all()
        assert row.attempts == len(ids) == len(attempts)
        # each attempt met the rating the one before left: one chain, from the band's start
        chain, at = [], BAND_START["easy"]
        left = list(attempts)
        while left:
            (step,) = [a for a in left if a.puzzle_before == at]
            chain.append(step)
            left.remove(step)
            at = step.puzzle_after
        assert at == row.rating and len(chain) == len(ids)
    finally:
        for store in stores:
            store.close()


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        ("/api/puzzles/nope/check", {"placements": ["A1=1"]}, 404),
        ("/api/puzzles/" + "x" * 81 + "/check", {"placements": []}, 422),
        ("/api/puzzles/{id}/check", {"placements": ["A1=1"], "rating": 3000}, 422),
        ("/api/puzzles/{id}/check", {"placements": "A1=1"}, 422),
        ("/api/puzzles/{id}/check", {"placements": ["x" * 21]}, 422),
    ],
)
def test_bad_input_is_refused_and_rates_nothing(
    client: TestClient, path: str, body: dict[str, Any], status: int
) -> None:
    account(client, "Ann")
    response = client.post(path.replace("{id}", first("easy").id), json=body)
    assert response.status_code == status, response.text
    assert response.json()["error"]
    assert table(client, puzzle_attempts) == [] and table(client, puzzle_solvers) == []
    assert client.get("/api/puzzles/nope").status_code == 404
