"""The lobby (issue 15, "Lobby"): seeks offered, listed, joined and started as online
games with each seat bound to its player (their cookie opens it, no token kept);
refusals; no overfill when two join at once; rated seeks for accounts; clocks checked;
quick pairing; cancelling; expiry; the rate limit. On SQLite and PostgreSQL (``database_url``)."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient

from mathable.web.api import create_app
from mathable.web.lobby.seeks import EXPIRY, MAX_OPEN, SeekStore
from support.lobby import PASSWORD, ok, person

pytestmark = pytest.mark.usefixtures("no_worker_processes")


def seeks_of(main: TestClient) -> SeekStore:
    app: Any = main.app
    found: SeekStore = app.state.seeks
    return found


def listing(client: TestClient, path: str) -> list[dict[str, Any]]:
    response = client.get(path)
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()
    return found


def refused(response: httpx2.Response, status: int) -> str:
    assert response.status_code == status, response.text
    error: str = response.json()["error"]
    return error


def seek(client: TestClient, **spec: Any) -> dict[str, Any]:
    return ok(client.post("/api/seeks", json=spec), 201)


def seats_of(client: TestClient, game_id: str) -> tuple[int, list[str]]:
    """The seat the client's session cookie opens and every seat's name, from the view."""
    view = ok(client.get(f"/api/games/{game_id}"))
    return view["seat"], [s["name"] for s in view["seats"]]


def test_a_seek_is_listed_joined_and_started_with_each_seat_bound_to_its_player(
    main: TestClient,
) -> None:
    ann, bob, cid, eve = (person(main, n) for n in ("Ann", "Bob", "Cid", "Eve"))
    made = seek(ann, variant="classic", seats=4, computers=["gentle"])  # clocks: two players
    assert made["players"] == [
        {"id": ok(ann.get("/api/me"))["id"], "name": "Ann", "bot_account": False}
    ]
    assert (made["open_seats"], made["seat"], made["token"]) == (2, 0, None)
    assert made["clock"] is None
    timed = seek(bob, variant="classic", seats=2, clock={"minutes": 10})
    assert timed["clock"] == {"minutes": 10, "increment": 0}  # as parse_time_control reads it
    ok(bob.delete(f"/api/seeks/{timed['id']}"))
    listed = listing(eve, "/api/seeks")
    assert [s["id"] for s in listed] == [made["id"]]
    assert listed[0]["seat"] is None and listed[0]["owner"]["name"] == "Ann"

    joined = ok(bob.post(f"/api/seeks/{made['id']}/join"))
    assert (joined["status"], joined["seat"], joined["open_seats"]) == ("open", 1, 1)
    last = ok(cid.post(f"/api/seeks/{made['id']}/join"))
    assert last["status"] == "started" and last["seat"] == 2
    game_id = last["game_id"]
    assert listing(eve, "/api/seeks") == []  # started: no longer listed

    for client, seat in ((ann, 0), (bob, 1), (cid, 2)):
        mine = ok(client.get(f"/api/seeks/{made['id']}"))
        assert (mine["seat"], mine["game_id"], mine["token"]) == (seat, game_id, None)
        assert seats_of(client, game_id) == (seat, ["Ann", "Bob", "Cid", "Computer (gentle)"])
    assert last["token"] is None
    stranger = ok(eve.get(f"/api/seeks/{made['id']}"))
    assert (stranger["seat"], stranger["token"]) == (None, None)
    view = ok(eve.get(f"/api/games/{game_id}"))
    assert view["seat"] is None and view["seats"][3]["bot"] == "gentle"
    assert "seed" not in view  # an online game: dealt by the server, the seed secret (O1)
    assert [s["status"] for s in listing(ann, "/api/me/games")] == ["playing", "started"]
    assert listing(eve, "/api/me/games") == []


def test_refusals_say_why(main: TestClient) -> None:
    ann, bob, cid = (person(main, n) for n in ("Ann", "Bob", "Cid"))
    three = seek(ann, seats=3)
    assert "seat" in refused(ann.post(f"/api/seeks/{three['id']}/join"), 409)
    ok(bob.post(f"/api/seeks/{three['id']}/join"))
    assert "seat in this seek already" in refused(bob.post(f"/api/seeks/{three['id']}/join"), 409)
    two = seek(ann)
    ok(bob.post(f"/api/seeks/{two['id']}/join"))
    assert "started" in refused(cid.post(f"/api/seeks/{two['id']}/join"), 409)
    assert "no such seek" in refused(cid.post("/api/seeks/nothing/join"), 404)
    assert "owner" in refused(bob.delete(f"/api/seeks/{three['id']}"), 403)
    assert ok(ann.delete(f"/api/seeks/{three['id']}"))["status"] == "cancelled"
    assert "cancelled" in refused(cid.post(f"/api/seeks/{three['id']}/join"), 409)
    assert "started" in refused(ann.delete(f"/api/seeks/{two['id']}"), 409)
    assert "two people" in refused(ann.post("/api/seeks", json={"computers": ["gentle"]}), 422)
    assert "computers.0" in refused(
        ann.post("/api/seeks", json={"seats": 3, "computers": ["nobody"]}), 422
    )
    assert "house_rules.sideways" in refused(
        ann.post("/api/seeks", json={"house_rules": {"sideways": True}}), 422
    )
    assert "variant" in refused(ann.post("/api/seeks", json={"variant": "chess"}), 400)
    for _ in range(MAX_OPEN):
        seek(cid)
    assert f"at most {MAX_OPEN}" in refused(cid.post("/api/seeks", json={}), 409)


@pytest.mark.parametrize(
    ("clock", "field"),
    [
        ({"minutes": 0}, "clock.minutes"),
        ({"minutes": 5, "increment": -1}, "clock.increment"),
        ({"days": 30}, "clock.days"),
        ({"hours": 2}, "clock.hours"),
    ],
)
def test_a_clock_is_checked_and_the_field_at_fault_named(
    main: TestClient, clock: dict[str, int], field: str
) -> None:
    ann = person(main, "Ann")
    assert field in refused(ann.post("/api/seeks", json={"clock": clock}), 422)
    assert seek(ann, clock={"days": 3})["clock"] == {"days": 3}


def test_a_rated_seek_needs_an_account_to_offer_and_to_join(main: TestClient) -> None:
    ann, bob = person(main, "Ann"), person(main, "Bob")
    assert "account" in refused(ann.post("/api/seeks", json={"rated": True}), 403)
    ok(ann.post("/api/accounts", json={"name": "Ann", "password": PASSWORD}), 201)
    rated = seek(ann, rated=True, clock={"minutes": 5, "increment": 3})
    assert rated["rated"] is True
    assert "rated" in refused(bob.post(f"/api/seeks/{rated['id']}/join"), 403)
    ok(bob.post("/api/accounts", json={"name": "Bob", "password": PASSWORD}), 201)
    assert ok(bob.post(f"/api/seeks/{rated['id']}/join"))["status"] == "started"


def test_two_joins_at_once_never_overfill_a_seek(
    main: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both read the seek with its one free seat before either writes: one takes it, the
    other is refused (the conditional update), and one game is made."""
    ann, bob, cid = (person(main, n) for n in ("Ann", "Bob", "Cid"))
    made = seek(ann)
    store = seeks_of(main)
    read = store._current
    barrier = threading.Barrier(2)
    waited: set[int] = set()

    def current(seek_id: str) -> Any:
        row = read(seek_id)
        if threading.get_ident() not in waited:  # the first read of each: both, then on
            waited.add(threading.get_ident())
            barrier.wait(timeout=10)
        return row

    monkeypatch.setattr(store, "_current", current)
    answers: list[httpx2.Response] = []

    def join(client: TestClient) -> None:
        answers.append(client.post(f"/api/seeks/{made['id']}/join"))

    threads = [threading.Thread(target=join, args=(c,)) for c in (bob, cid)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(a.status_code for a in answers) == [200, 409]
    won = next(a.json() for a in answers if a.status_code == 200)
    assert won["status"] == "started"
    final = ok(ann.get(f"/api/seeks/{made['id']}"))
    assert len(final["players"]) == 2 and final["game_id"] == won["game_id"]


def test_quick_pairing_joins_the_oldest_matching_seek_or_offers_one(main: TestClient) -> None:
    ann, bob, cid, dan = (person(main, n) for n in ("Ann", "Bob", "Cid", "Dan"))
    ten = {"minutes": 10, "increment": 0}
    other = seek(dan, clock={"minutes": 3})  # another clock: never matched
    first = ok(ann.post("/api/seeks/quick", json={"variant": "classic", "clock": ten}))
    assert (first["status"], first["seat"]) == ("open", 0)
    again = ok(ann.post("/api/seeks/quick", json={"variant": "classic", "clock": ten}))
    assert again["id"] == first["id"]  # pressed twice: still the one seek
    later = seek(cid, clock=ten)
    paired = ok(bob.post("/api/seeks/quick", json={"variant": "classic", "clock": ten}))
    assert paired["id"] == first["id"] and paired["status"] == "started"
    assert paired["seat"] == 1 and seats_of(bob, paired["game_id"])[0] == 1
    assert {s["id"] for s in listing(dan, "/api/seeks")} == {other["id"], later["id"]}
    again = ok(ann.post("/api/seeks/quick", json={"variant": "junior", "clock": ten}))
    assert again["id"] not in (first["id"], later["id"]) and again["variant"] == "junior"


def test_open_seeks_expire(main: TestClient) -> None:
    ann, bob = person(main, "Ann"), person(main, "Bob")
    made = seek(ann)
    store = seeks_of(main)
    store.now = lambda: time.time() + EXPIRY + 1
    assert listing(bob, "/api/seeks") == []
    assert "cancelled" in refused(bob.post(f"/api/seeks/{made['id']}/join"), 409)


def test_offering_seeks_is_rate_limited_per_address(
    monkeypatch: pytest.MonkeyPatch, database_url: str
) -> None:
    monkeypatch.setenv("MATHABLE_RATE_SEEK", "2/minute")
    with TestClient(create_app(database_url)) as client:
        seek(client)
        ok(client.post("/api/seeks/quick", json={}))
        answer = client.post("/api/seeks", json={})
        assert "too many new seeks" in refused(answer, 429)
        assert answer.headers["Retry-After"]
