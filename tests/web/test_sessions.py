"""Sessions kept on the server (issue 30, finding 2 and the rows of finding 5): a row per
log-in, the cookie holding only its signed id, a new id at sign-up and log-in (no
fixation), log-out deleting it, "log out everywhere", a password change ending the other
sessions, a list of my sessions to revoke one, 30 days sliding on an injected clock, and
no row for a visitor who only looks. On SQLite and PostgreSQL (``database_url``)."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from itsdangerous import TimestampSigner
from sqlalchemy import func, select

from mathable.web.api import create_app
from mathable.web.infra.db import game_players, players, sessions
from mathable.web.players.accounts import COOKIE
from mathable.web.players.sessions import LIFETIME, SessionStore

PASSWORD = "correct horse battery"
DAY = 24 * 60 * 60
WRITE = {"X-Requested-With": "test"}
"""What a page's own script sends with a body-less change (the origin check's guard)."""


@pytest.fixture(autouse=True)
def _settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    for name in (
        "MATHABLE_SECRET_KEY",
        "MATHABLE_SECURE_COOKIES",
        "MATHABLE_RATE_LOGIN",
        "MATHABLE_DOMAIN",
    ):
        monkeypatch.delenv(name, raising=False)


class Clock:
    """A clock the test moves (the sessions' ``clock``)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def app(database_url: str) -> Iterator[Any]:
    made: Any = create_app(database_url)
    with TestClient(made):  # started once: the lifespan opens the store
        yield made


@contextmanager
def browser(app: Any, agent: str = "testclient") -> Iterator[TestClient]:
    """Another browser of the same running server: its own cookie jar and User-Agent."""
    client = TestClient(app, headers={"User-Agent": agent})
    try:
        yield client
    finally:
        client.close()


def ok(response: httpx2.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def refused(response: httpx2.Response, status: int) -> str:
    assert response.status_code == status, response.text
    error: str = response.json()["error"]
    return error


def cookie_of(client: TestClient) -> str:
    return str(client.cookies[COOKIE])


def use_cookie(client: TestClient, value: str) -> None:
    """The client sends this session cookie, and no other (as another browser would)."""
    client.cookies.clear()
    client.cookies.set(COOKIE, value, domain="testserver.local")


def count(app: Any, table: Any) -> int:
    with app.state.players.store.reading() as connection:
        return int(connection.execute(select(func.count()).select_from(table)).scalar_one())


def player_ids(app: Any) -> set[str]:
    with app.state.players.store.reading() as connection:
        return set(connection.execute(select(players.c.id)).scalars())


def sign_up(client: TestClient, name: str) -> dict[str, Any]:
    ok(client.get("/api/me"))
    made: dict[str, Any] = ok(
        client.post("/api/accounts", json={"name": name, "password": PASSWORD}), 201
    )
    return made


def log_in(client: TestClient, name: str, password: str = PASSWORD) -> dict[str, Any]:
    found: dict[str, Any] = ok(
        client.post("/api/session", json={"name": name, "password": password})
    )
    return found


# -- finding 5: a look makes no row -----------------------------------------------------


def test_a_visit_without_a_cookie_makes_no_row(app: Any) -> None:
    rows_before, sessions_before = count(app, players), count(app, sessions)
    seen = set()
    for _ in range(40):
        with browser(app) as visitor:
            me = ok(visitor.get("/api/me"))
            assert me["account"] is False and me["name"].startswith("Guest ")
            assert ok(visitor.get("/api/me")) == me  # the cookie names the same guest
            assert ok(visitor.get("/api/me/sessions")) == []
            seen.add(me["id"])
    assert len(seen) == 40
    assert (count(app, players), count(app, sessions)) == (rows_before, sessions_before)


def test_a_guests_first_write_makes_their_row_and_binds_their_seat(app: Any) -> None:
    with browser(app) as guest:
        me = ok(guest.get("/api/me"))
        assert me["id"] not in player_ids(app)
        spec = {"variant": "classic", "mode": "online", "players": [{"name": "A"}, {"name": "B"}]}
        made = ok(guest.post("/api/games", json=spec), 201)
        assert me["id"] in player_ids(app)  # the guest the cookie named, kept
        assert ok(guest.get("/api/me")) == me
        with app.state.players.store.reading() as connection:
            seat = connection.execute(
                select(game_players.c.player_id).where(game_players.c.game_id == made["id"])
            ).scalar_one()
        assert seat == me["id"]
        assert ok(guest.get(f"/api/games/{made['id']}"))["seat"] == 0  # the cookie opens it
        assert len(ok(guest.get("/api/me/sessions"))) == 1


# -- finding 2: fixation, log-out, everywhere, password ---------------------------------


@pytest.mark.parametrize("written", [False, True], ids=["cookie-only", "guest-row"])
def test_a_planted_guest_cookie_never_becomes_the_victims_account(app: Any, written: bool) -> None:
    with browser(app, "attacker") as attacker, browser(app, "victim") as victim:
        ok(attacker.get("/api/me"))
        if written:  # a guest with a row and a session, as the attack had it
            ok(attacker.patch("/api/me", json={"name": "Mallory"}))
        planted = cookie_of(attacker)
        use_cookie(victim, planted)  # planted in the victim's browser
        account = ok(
            victim.post("/api/accounts", json={"name": "Victim", "password": PASSWORD}), 201
        )
        assert cookie_of(victim) != planted  # a new session id at sign-up
        assert ok(victim.get("/api/me")) == account
        use_cookie(attacker, planted)
        after = ok(attacker.get("/api/me"))
        assert after["account"] is False and after["id"] != account["id"]
        assert ok(attacker.get("/api/me/sessions")) == []
        ok(attacker.patch("/api/me", json={"name": "Still Mallory"}))
        assert ok(victim.get("/api/me"))["name"] == "Victim"


def test_a_log_in_opens_a_new_session_and_ends_the_old(app: Any) -> None:
    with browser(app) as first, browser(app) as second:
        account = sign_up(first, "Ada")
        ok(second.get("/api/me"))
        ok(second.patch("/api/me", json={"name": "Tom"}))  # a guest with a session
        before = cookie_of(second)
        assert log_in(second, "ada") == account
        assert cookie_of(second) != before
        with browser(app) as old:
            use_cookie(old, before)
            assert ok(old.get("/api/me"))["account"] is False


def test_a_read_answered_after_a_log_in_leaves_the_browser_logged_in(app: Any) -> None:
    """The lobby's poll (a read) sent with the guest's cookie, answered after the log-in
    that ended that session: its answer sets no cookie, as the browser would have taken
    a fresh guest's over the account's (logged out); /api/me and writes still do."""
    with browser(app) as laptop, browser(app) as phone:
        account = sign_up(laptop, "Ivy")
        ok(phone.get("/api/me"))
        ok(phone.patch("/api/me", json={"name": "Tom"}))  # a guest with a session
        guest = cookie_of(phone)
        assert log_in(phone, "Ivy") == account  # the guest's session ends
        with browser(app) as poll:  # the read sent before the log-in's answer
            use_cookie(poll, guest)
            for path in ("/api/games?mine=true", "/api/me/games", "/api/me/sessions"):
                answer = poll.get(path)
                assert answer.status_code == 200 and "set-cookie" not in answer.headers, path
            assert "set-cookie" in poll.get("/api/me").headers  # it names a fresh guest
        assert ok(phone.get("/api/me")) == account


def test_a_first_visits_reads_set_no_cookie_but_its_question_who_am_i(app: Any) -> None:
    """A first visit's reads other than /api/me set no cookie: each would have made a
    guest of its own, the last answer's winning over a seat bound to the first."""
    with browser(app) as visitor:
        for path in (
            "/api/variants",
            "/api/bots",
            "/api/games?mine=true",
            "/api/me/games",
            "/api/seeks",
        ):
            answer = visitor.get(path)
            assert answer.status_code == 200 and "set-cookie" not in answer.headers, path
        me = ok(visitor.get("/api/me"))
        assert ok(visitor.get("/api/games?mine=true")) == []
        assert ok(visitor.get("/api/me")) == me  # the cookie /api/me set names the guest
    with browser(app) as writer:  # a write without a cookie makes its guest, cookie and all
        named = ok(writer.patch("/api/me", json={"name": "Kim"}))
        assert ok(writer.get("/api/me")) == named


def test_log_out_ends_the_cookie_on_the_server(app: Any) -> None:
    with browser(app) as phone:
        account = sign_up(phone, "Ben")
        kept = cookie_of(phone)
        guest = ok(phone.delete("/api/session", headers=WRITE))
        assert guest["account"] is False and guest["id"] != account["id"]
        assert cookie_of(phone) != kept
        with browser(app) as thief:  # a copy of the cookie, taken before the log-out
            use_cookie(thief, kept)
            again = ok(thief.get("/api/me"))
            assert again["account"] is False and again["id"] != account["id"]
            assert "log in" in refused(thief.post("/api/me/logout-everywhere", headers=WRITE), 401)


def test_log_out_everywhere_ends_every_session_and_keeps_this_browser(app: Any) -> None:
    with browser(app, "phone") as phone, browser(app, "laptop") as laptop:
        account = sign_up(phone, "Cleo")
        log_in(laptop, "Cleo")
        with browser(app, "tablet") as tablet:
            log_in(tablet, "Cleo")
            assert len(ok(phone.get("/api/me/sessions"))) == 3
            old_phone = cookie_of(phone)
            assert ok(phone.post("/api/me/logout-everywhere", headers=WRITE)) == {"ended": 2}
            for other in (laptop, tablet):
                assert ok(other.get("/api/me"))["account"] is False
        assert ok(phone.get("/api/me")) == account  # this browser, in a new session
        assert cookie_of(phone) != old_phone
        use_cookie(laptop, old_phone)  # a stolen copy of this browser's cookie ends too
        assert ok(laptop.get("/api/me"))["account"] is False
        assert [s["current"] for s in ok(phone.get("/api/me/sessions"))] == [True]


def test_a_password_change_ends_every_other_session(app: Any) -> None:
    with browser(app) as phone, browser(app) as laptop:
        account = sign_up(phone, "Dora")
        log_in(laptop, "Dora")
        new = "a new horse staple"
        why = refused(
            phone.post("/api/me/password", json={"current": "wrong guess", "password": new}), 403
        )
        assert "'current'" in why
        why = refused(
            phone.post("/api/me/password", json={"current": PASSWORD, "password": "short"}), 422
        )
        assert "password" in why and "short" not in why
        assert ok(laptop.get("/api/me")) == account  # nothing changed yet
        assert ok(phone.post("/api/me/password", json={"current": PASSWORD, "password": new})) == {
            "ended": 1
        }
        assert ok(laptop.get("/api/me"))["account"] is False
        assert ok(phone.get("/api/me")) == account
        with browser(app) as other:
            ok(other.get("/api/me"))
            refused(other.post("/api/session", json={"name": "Dora", "password": PASSWORD}), 401)
            assert log_in(other, "Dora", new) == account
            # a guest has no password to change
            with browser(app) as guest:
                ok(guest.get("/api/me"))
                refused(guest.post("/api/me/password", json={"current": "x", "password": new}), 401)


# -- the list, and ending one -------------------------------------------------------------


def test_my_sessions_are_listed_and_one_can_be_ended(app: Any) -> None:
    with browser(app, "Phone/1.0") as phone, browser(app, "Laptop/2.0") as laptop:
        sign_up(phone, "Eli")
        log_in(laptop, "Eli")
        listed = ok(phone.get("/api/me/sessions"))
        assert sorted(s["user_agent"] for s in listed) == ["Laptop/2.0", "Phone/1.0"]
        assert [s["current"] for s in listed if s["user_agent"] == "Phone/1.0"] == [True]
        for session in listed:  # the public id is never the cookie's
            assert session["id"] not in cookie_of(phone) + cookie_of(laptop)
            assert set(session) == {"id", "created", "last_seen", "user_agent", "current"}
        other = next(s["id"] for s in listed if not s["current"])
        left = ok(phone.delete(f"/api/me/sessions/{other}", headers=WRITE))
        assert [s["user_agent"] for s in left] == ["Phone/1.0"]
        assert ok(laptop.get("/api/me"))["account"] is False
        assert "'id'" in refused(phone.delete(f"/api/me/sessions/{other}", headers=WRITE), 404)
        # another account's session is not mine to end
        with browser(app) as stranger:
            sign_up(stranger, "Fay")
            mine = ok(phone.get("/api/me/sessions"))[0]["id"]
            refused(stranger.delete(f"/api/me/sessions/{mine}", headers=WRITE), 404)
        assert ok(phone.get("/api/me"))["name"] == "Eli"
        # ending this browser's own session logs it out
        assert ok(phone.delete(f"/api/me/sessions/{mine}", headers=WRITE)) == []
        assert ok(phone.get("/api/me"))["account"] is False
    with browser(app) as reader:
        openapi = ok(reader.get("/openapi.json"))["paths"]
    for path in ("/api/me/sessions", "/api/me/sessions/{session_id}", "/api/me/password"):
        assert path in openapi
    assert "/api/me/logout-everywhere" in openapi


# -- lifetime: 30 days, sliding -------------------------------------------------------------


def test_a_session_lasts_30_days_from_its_last_use(app: Any) -> None:
    clock = Clock()
    store: SessionStore = app.state.sessions
    store.clock = clock
    with browser(app) as phone, browser(app) as idle:
        account = sign_up(phone, "Gus")
        log_in(idle, "Gus")

        def seen() -> list[float]:
            return sorted(s["last_seen"] for s in ok(phone.get("/api/me/sessions")))

        assert seen() == [clock.now, clock.now]
        clock.now += 30  # seen again within a minute: no write, no new cookie
        answer = phone.get("/api/me")
        assert "set-cookie" not in answer.headers and seen() == [clock.now - 30] * 2
        for _ in range(3):  # used every 20 days: it lives on, its cookie sent again
            clock.now += 20 * DAY
            answer = phone.get("/api/me")
            assert ok(answer) == account
            assert f"max-age={LIFETIME}" in answer.headers["set-cookie"].lower()
        assert max(seen()) == clock.now
        # the browser left idle for 60 days: its session has ended
        assert ok(idle.get("/api/me"))["account"] is False
        assert len(ok(phone.get("/api/me/sessions"))) == 1
        clock.now += LIFETIME + 1  # and this one, unused past 30 days
        assert ok(phone.get("/api/me"))["account"] is False


# -- cookies -----------------------------------------------------------------------------------


def test_a_cookie_of_the_old_format_is_a_fresh_guest(app: Any) -> None:
    """Cookies from before (Starlette's, holding the player id itself) fail safe."""
    with browser(app) as phone:
        account = sign_up(phone, "Hal")
        secret = app.state.sessions._key.decode()
        payload = base64.b64encode(json.dumps({"player": account["id"]}).encode())
        old = TimestampSigner(secret).sign(payload).decode()
        with browser(app) as other:
            use_cookie(other, old)
            assert ok(other.get("/api/me"))["id"] != account["id"]


@pytest.mark.parametrize(
    ("setting", "base", "secure"),
    [
        (None, "http://testserver", False),
        (None, "https://testserver", True),
        ("off", "https://testserver", False),
        ("on", "http://testserver", True),
    ],
)
def test_the_secure_flag_follows_the_scheme_unless_set(
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    setting: str | None,
    base: str,
    secure: bool,
) -> None:
    if setting is not None:
        monkeypatch.setenv("MATHABLE_SECURE_COOKIES", setting)
    with TestClient(create_app(database_url), base_url=base) as client:
        cookie = client.get("/api/me").headers["set-cookie"].lower()
    assert ("; secure" in cookie) is secure


def test_a_bad_secure_setting_is_refused(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATHABLE_SECURE_COOKIES", "sometimes")
    with pytest.raises(ValueError, match="MATHABLE_SECURE_COOKIES"):
        create_app(database_url)
