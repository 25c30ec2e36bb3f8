"""Issue 30, finding 1: the session cookie acts for the site's own pages only
(:mod:`mathable.web.infra.origin`).

A page on a sibling origin (another port or subdomain of the same site: ``SameSite=Lax``
sends the cookie along) is refused every change and every socket made with the victim's
cookie, 403 and close 1008; the site's own pages, and API clients holding seat tokens
without a cookie, are not. Body-less changes need JSON or ``X-Requested-With`` besides.
The test client's site is ``http://testserver`` (its ``Host``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from mathable.web.api import Settings, create_app
from mathable.web.infra.origin import Place, parse_domain

OWN = "http://testserver"
SIBLINGS = ["http://testserver:8001", "http://evil.testserver", "null"]
"""Another port, a subdomain, a page that hides where it is."""
SCRIPTED = {"X-Requested-With": "test"}
PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def _settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    for name in ("MATHABLE_DOMAIN", "MATHABLE_SECRET_KEY", "MATHABLE_SECURE_COOKIES"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def main(database_url: str) -> Iterator[TestClient]:
    """The running app (its lifespan), on SQLite and PostgreSQL."""
    with TestClient(create_app(database_url)) as client:
        yield client


def person(main: TestClient, name: str, base_url: str = OWN) -> TestClient:
    """A browser of its own (its own session cookie) on the running app, named ``name``."""
    client = TestClient(main.app, base_url=base_url)
    client.portal = main.portal
    made = client.patch("/api/me", json={"name": name})
    assert made.status_code == 200, made.text
    return client


def refused(response: httpx2.Response, header: str) -> str:
    """A 403 whose reason names ``header``."""
    assert response.status_code == 403, response.text
    error: str = response.json()["error"]
    assert error.startswith(f"header {header}: "), error
    return error


def ok(response: httpx2.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def open_seek(main: TestClient) -> dict[str, Any]:
    ann = person(main, "Ann")
    made: dict[str, Any] = ok(ann.post("/api/seeks", json={"variant": "classic"}), 201)
    return made


def test_a_sibling_origin_cannot_join_a_seek_with_the_victims_cookie(main: TestClient) -> None:
    made = open_seek(main)
    bob = person(main, "Bob")
    join = f"/api/seeks/{made['id']}/join"
    for origin in SIBLINGS:  # the attack: Bob's cookie, a page of another origin
        error = refused(bob.post(join, headers={"Origin": origin, **SCRIPTED}), "Origin")
        assert "is not this site" in error
    assert ok(bob.get(f"/api/seeks/{made['id']}"))["open_seats"] == 1  # nobody joined
    joined = ok(bob.post(join, headers={"Origin": OWN, **SCRIPTED}))  # the lobby's own page
    assert joined["status"] == "started" and joined["seat"] == 1


def test_a_sibling_origin_cannot_rename_the_victim(main: TestClient) -> None:
    bob = person(main, "Bob")
    for origin in SIBLINGS:
        answer = bob.patch("/api/me", json={"name": "Mallory"}, headers={"Origin": origin})
        refused(answer, "Origin")
    # cookies a subdomain sets for the whole site do not hide the session's
    padded = f"padding={'x' * 9000}; mathable_session={bob.cookies['mathable_session']}"
    answer = bob.patch(
        "/api/me", json={"name": "Mallory"}, headers={"Origin": SIBLINGS[0], "Cookie": padded}
    )
    refused(answer, "Origin")
    assert ok(bob.get("/api/me"))["name"] == "Bob"
    renamed = bob.patch("/api/me", json={"name": "Robert"}, headers={"Origin": OWN})
    assert ok(renamed)["name"] == "Robert"


def test_a_sibling_origin_cannot_resign_for_the_victim(main: TestClient) -> None:
    """Resigning by cookie takes no token: the seat is the cookie's (an online game)."""
    ann, bob = person(main, "Ann"), person(main, "Bob")
    players = [{"name": "Ann"}, {"name": "Bob"}]
    made = ok(ann.post("/api/games", json={"variant": "classic", "players": players}), 201)
    game_id, invite = made["id"], made["seats"][1]["invite"].partition("invite=")[2]
    ok(bob.post(f"/api/games/{game_id}/join", json={"invite": invite}))
    seats = {0: ann, 1: bob}
    for _ in range(2):  # each seat's first move (O4: no resigning before)
        to_move = ok(ann.get(f"/api/games/{game_id}"))["to_move"]
        ok(seats[to_move].post(f"/api/games/{game_id}/actions", json={"action": "pass"}))
    resign = f"/api/games/{game_id}/resign"
    for origin in SIBLINGS:
        refused(ann.post(resign, headers={"Origin": origin, **SCRIPTED}), "Origin")
        refused(ann.post(resign, json={}, headers={"Origin": origin}), "Origin")
    assert ok(ann.get(f"/api/games/{game_id}"))["over"] is False
    over = ok(ann.post(resign, json={}, headers={"Origin": OWN}))
    assert over["over"] is True and over["end_reason"] == "Ann resigned"


def test_a_referer_stands_for_a_missing_origin(main: TestClient) -> None:
    bob = person(main, "Bob")
    for page in ("http://testserver:8001/attack.html", "http://evil.testserver/"):
        answer = bob.patch("/api/me", json={"name": "Mallory"}, headers={"Referer": page})
        refused(answer, "Referer")
    cross = bob.patch("/api/me", json={"name": "Mallory"}, headers={"Sec-Fetch-Site": "same-site"})
    refused(cross, "Sec-Fetch-Site")
    own = bob.patch("/api/me", json={"name": "Robert"}, headers={"Referer": OWN + "/lobby"})
    assert ok(own)["name"] == "Robert"


def test_a_body_less_change_needs_json_or_the_scripts_header(main: TestClient) -> None:
    """The second guard: a form or a plain fetch of another origin can send neither."""
    made = open_seek(main)
    bob = person(main, "Bob")
    join = f"/api/seeks/{made['id']}/join"
    for headers in ({"Origin": OWN}, {}, {"Origin": OWN, "Content-Type": "text/plain"}):
        error = refused(bob.post(join, headers=headers), "Content-Type")
        assert "X-Requested-With" in error
    as_form = bob.post(join, data={"x": "1"}, headers={"Origin": OWN})
    refused(as_form, "Content-Type")
    assert ok(bob.get(f"/api/seeks/{made['id']}"))["open_seats"] == 1
    joined = ok(bob.post(join, headers={"Content-Type": "application/json"}))
    assert joined["status"] == "started"
    cancel = ok(bob.post("/api/seeks", json={"variant": "classic"}), 201)
    refused(bob.delete(f"/api/seeks/{cancel['id']}", headers={"Origin": OWN}), "Content-Type")
    gone = ok(bob.delete(f"/api/seeks/{cancel['id']}", headers={"X-Requested-With": "page"}))
    assert gone["status"] == "cancelled"


def test_token_clients_without_a_cookie_are_not_checked(main: TestClient) -> None:
    client = TestClient(main.app)  # no session cookie: tokens open the seats
    client.cookies.set("lang", "en")  # (another cookie does not count)
    players = [{"name": "Ann"}, {"name": "Bob"}]
    made = client.post(
        "/api/games",
        json={"variant": "classic", "players": players, "mode": "screen"},
        headers={"Origin": SIBLINGS[0]},
    )
    game_id, tokens = ok(made, 201)["id"], [s["token"] for s in made.json()["seats"]]
    to_move = ok(client.get(f"/api/games/{game_id}"))["to_move"]
    action = {"token": tokens[to_move], "action": "pass"}
    played = client.post(f"/api/games/{game_id}/actions", json=action, headers={"Origin": "null"})
    assert ok(played)["to_move"] == 1 - to_move
    assert "mathable_session" not in client.cookies
    ok(client.get("/api/me"))  # the session cookie now: the same is refused
    action = {"token": tokens[1 - to_move], "action": "pass"}
    again = client.post(f"/api/games/{game_id}/actions", json=action, headers={"Origin": "null"})
    refused(again, "Origin")


def seat_socket_messages(client: TestClient, path: str, origin: str) -> list[Any]:
    """What a socket opened with ``Origin: origin`` reads (its first message), and how it
    was closed if it was."""
    try:
        with client.websocket_connect(path, headers={"Origin": origin}) as socket:
            return [socket.receive_json()]
    except WebSocketDisconnect as closed:
        return [("closed", closed.code)]


def test_a_sibling_origins_socket_is_closed_before_it_reads_a_rack(main: TestClient) -> None:
    ann = person(main, "Ann")
    players = [{"name": "Ann"}, {"name": "Bob"}]
    made = ok(ann.post("/api/games", json={"variant": "classic", "players": players}), 201)
    path = f"/api/games/{made['id']}/ws"  # no token: the cookie's seat (Ann's)
    for origin in SIBLINGS:
        assert seat_socket_messages(ann, path, origin) == [("closed", 1008)]
        assert seat_socket_messages(ann, "/api/lobby/ws", origin) == [("closed", 1008)]
    (first,) = seat_socket_messages(ann, path, OWN)
    assert first["type"] == "view" and first["view"]["seat"] == 0
    assert len(first["view"]["rack"]) == 7
    (listed,) = seat_socket_messages(ann, "/api/lobby/ws", OWN)
    assert listed["type"] == "seeks"


def test_mathable_domain_names_the_site(
    main: TestClient, monkeypatch: pytest.MonkeyPatch, database_url: str
) -> None:
    """With ``MATHABLE_DOMAIN`` the ``Host`` no longer counts; an https site refuses a
    plain-http page of its own name (but not the reverse: a proxy that forgets
    ``X-Forwarded-Proto``)."""
    monkeypatch.setenv("MATHABLE_DOMAIN", "play.example.org")
    with TestClient(create_app(database_url)) as site:
        bob = person(site, "Bob", base_url="http://play.example.org")
        rename = "/api/me"
        refused(bob.patch(rename, json={"name": "X"}, headers={"Origin": OWN}), "Origin")
        for origin in ("https://play.example.org", "http://play.example.org"):
            ok(bob.patch(rename, json={"name": "Bob"}, headers={"Origin": origin}))
        ok(
            bob.patch(
                rename, json={"name": "Bob"}, headers={"Origin": "https://play.example.org:443"}
            )
        )
        refused(
            bob.patch(
                rename, json={"name": "X"}, headers={"Origin": "https://play.example.org:8443"}
            ),
            "Origin",
        )
    secure = person(main, "Ann", base_url="https://testserver")  # TLS, as the proxy says
    refused(secure.patch(rename, json={"name": "X"}, headers={"Origin": OWN}), "Origin")
    ok(secure.patch(rename, json={"name": "Ann"}, headers={"Origin": "https://testserver"}))


def test_the_domain_setting_is_checked_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    assert parse_domain(" ") == ()
    assert parse_domain("Play.Example.org:8443, http://[::1]:8000") == (
        Place("play.example.org", 8443),
        Place("::1", 8000, "http"),
    )
    assert parse_domain("bücher.example") == (Place("xn--bcher-kva.example"),)
    for bad in ("ftp://example.org", "example.org/play", "example.org:http", "*", "a b"):
        monkeypatch.setenv("MATHABLE_DOMAIN", bad)
        with pytest.raises(ValueError, match="MATHABLE_DOMAIN="):
            Settings()


def test_the_refusal_is_in_the_readers_language(main: TestClient) -> None:
    bob = person(main, "Bob")
    answer = bob.patch("/api/me?lang=fr", json={"name": "X"}, headers={"Origin": SIBLINGS[0]})
    assert answer.status_code == 403
    error = answer.json()["error"]
    assert error.startswith("en-tête Origin") and "http://testserver:8001" in error
