"""Players and accounts (issue 15, "Players"): a guest on a first visit, kept in a signed
session cookie; accounts with argon2-hashed passwords; log in and out; computer players
as players of kind ``bot``; one cookie key for every process over a database; log-ins
rate-limited per address. On SQLite and PostgreSQL (``database_url``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from itsdangerous import TimestampSigner
from sqlalchemy import select

from mathable.ai import BOTS
from mathable.web.api import create_app
from mathable.web.infra.db import players
from mathable.web.infra.store import EventStore
from mathable.web.players.accounts import COOKIE
from mathable.web.players.players import WRONG_LOGIN, PlayerStore
from support import passwords

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


def ok(response: httpx2.Response, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    return body


def refused(response: httpx2.Response, status: int) -> str:
    """The reason of a refusal with this status (never a 5xx)."""
    assert response.status_code == status, response.text
    error: str = response.json()["error"]
    return error


def rows(client: TestClient) -> dict[str, Any]:
    """The players table as stored, by id."""
    app: Any = client.app
    store: PlayerStore = app.state.players
    with store.store.reading() as connection:
        return {row.id: row for row in connection.execute(select(players))}


def use_cookie(client: TestClient, value: str) -> None:
    """The client sends this session cookie, and no other."""
    client.cookies.clear()
    client.cookies.set(COOKIE, value, domain="testserver.local")  # as the server set it


def register(client: TestClient, name: str, password: str = PASSWORD) -> dict[str, Any]:
    return ok(client.post("/api/accounts", json={"name": name, "password": password}), 201)


# -- guests and the cookie ---------------------------------------------------------------


def test_a_first_visit_gets_a_guest_in_a_signed_cookie(client: TestClient) -> None:
    answer = client.get("/api/me")
    me = ok(answer)
    assert me["kind"] == "person" and me["account"] is False
    assert me["name"].startswith("Guest ") and me["name"][6:].isdigit()
    cookie = answer.headers["set-cookie"].lower()
    assert cookie.startswith(f"{COOKIE}=")
    for flag in ("httponly", "samesite=lax", f"max-age={30 * 24 * 3600}", "path=/"):
        assert flag in cookie
    assert "secure" not in cookie  # plain HTTP: Secure only when served over HTTPS
    # the cookie holds a signed session id and nothing else: not the player's id
    payload = client.cookies[COOKIE].split(".")[0]
    assert me["id"] not in client.cookies[COOKIE] and len(payload) == 43
    assert ok(client.get("/api/me")) == me  # the same guest on the next visit
    assert me["id"] not in rows(client)  # a guest's row waits for their first write
    ok(client.patch("/api/me", json={"name": "Ann Lee"}))  # a write: the row is made
    assert rows(client)[me["id"]].password_hash is None
    # the answers still carry the security headers
    assert answer.headers["X-Frame-Options"] == "DENY"
    assert answer.headers["Cache-Control"] == "no-store"


def test_a_tampered_or_forged_cookie_is_not_accepted(client: TestClient) -> None:
    me = ok(client.get("/api/me"))
    value = client.cookies[COOKIE]
    payload, rest = value.split(".", 1)
    tampered = f"{payload}.{rest[:-2]}{'AA' if not rest.endswith('AA') else 'BB'}"
    # the right id, signed with another key: what someone without the key could make
    forged = TimestampSigner("not the key").sign(payload).decode()
    for bad in (tampered, forged, "nonsense"):
        use_cookie(client, bad)
        other = ok(client.get("/api/me"))
        assert other["id"] != me["id"] and other["account"] is False


def test_the_secure_flag_follows_the_setting(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATHABLE_SECURE_COOKIES", "on")
    with TestClient(create_app(database_url), base_url="https://testserver") as client:
        answer = client.get("/api/me")
    assert "; secure" in answer.headers["set-cookie"].lower()


# -- accounts ------------------------------------------------------------------------------


def test_register_log_in_and_out(database_url: str) -> None:
    with (
        TestClient(create_app(database_url)) as phone,
        TestClient(create_app(database_url)) as laptop,
    ):
        guest = ok(phone.get("/api/me"))
        made = register(phone, "Ada Lovelace")
        assert made == {**guest, "name": "Ada Lovelace", "account": True}  # the guest, kept
        assert ok(phone.get("/api/me")) == made
        stored = rows(phone)[made["id"]]
        assert stored.password_hash.startswith("$argon2id$")
        assert PASSWORD not in stored.password_hash
        assert PasswordHasher().verify(stored.password_hash, PASSWORD)
        assert stored.name_key == "ada lovelace"

        # the name is taken whatever its case and spacing, by another guest too
        ok(laptop.get("/api/me"))
        assert "taken" in refused(
            laptop.post("/api/accounts", json={"name": "ADA  lovelace", "password": PASSWORD}), 409
        )
        assert "taken" in refused(laptop.patch("/api/me", json={"name": "ada lovelace"}), 409)
        assert refused(
            phone.post("/api/accounts", json={"name": "Ada 2", "password": PASSWORD}), 409
        )

        # logging in on another device: the same player; a wrong name or password: one answer
        wrong = refused(
            laptop.post(
                "/api/session", json={"name": "Ada Lovelace", "password": "wrong password"}
            ),
            401,
        )
        unknown = refused(
            laptop.post("/api/session", json={"name": "Nobody", "password": PASSWORD}), 401
        )
        assert wrong == unknown == WRONG_LOGIN
        assert (
            ok(laptop.post("/api/session", json={"name": "ada LOVELACE", "password": PASSWORD}))
            == made
        )
        assert ok(laptop.get("/api/me")) == made

        # logging out: a new guest, and the account stays the phone's
        fresh = ok(laptop.delete("/api/session", headers={"X-Requested-With": "test"}))
        assert fresh["id"] != made["id"] and fresh["account"] is False
        assert ok(laptop.get("/api/me")) == fresh
        assert ok(phone.get("/api/me")) == made

        # an account's new name, as typed but normalized (issue 30: NFKC, single spaces)
        renamed = ok(phone.patch("/api/me", json={"name": "  Countess   Ada  "}))
        assert renamed["name"] == "Countess Ada" and renamed["id"] == made["id"]
        assert ok(phone.get(f"/api/players/{made['id']}"))["name"] == "Countess Ada"
        assert (
            ok(laptop.post("/api/session", json={"name": "countess ada", "password": PASSWORD}))[
                "id"
            ]
            == made["id"]
        )


def test_a_guest_renames_and_the_profile_shows_what_exists(client: TestClient) -> None:
    me = ok(client.get("/api/me"))
    assert ok(client.patch("/api/me", json={"name": "Zoë"}))["name"] == "Zoë"
    profile = ok(client.get(f"/api/players/{me['id']}"))
    # issue 15: the profile carries the ratings and finished games too (none yet)
    assert set(profile) == {"id", "name", "kind", "created", "bot_account", "ratings", "games"}
    assert profile["ratings"] == [] and profile["games"] == {"games": [], "next": None}
    assert profile["name"] == "Zoë" and profile["kind"] == "person"
    assert "password" not in json.dumps(profile)
    assert refused(client.get("/api/players/nobody"), 404)


@pytest.mark.parametrize(
    ("path", "body", "status", "field"),
    [
        ("/api/me", {"name": ""}, 400, "name"),
        ("/api/me", {"name": "   "}, 400, "name"),
        ("/api/me", {"name": "x" * 41}, 422, "name"),
        ("/api/me", {"name": "a\nb"}, 400, "name"),
        ("/api/me", {"name": 5}, 422, "name"),
        ("/api/me", {}, 422, "name"),
        ("/api/accounts", {"name": "Ann", "password": "short"}, 422, "password"),
        ("/api/accounts", {"name": "Ann", "password": "p" * 201}, 422, "password"),
        ("/api/accounts", {"name": " ", "password": PASSWORD}, 400, "name"),
        ("/api/accounts", {"name": "x" * 41, "password": PASSWORD}, 422, "name"),
        ("/api/session", {"name": "Ann", "password": "p" * 201}, 422, "password"),
        ("/api/session", {"name": "Ann"}, 422, "password"),
    ],
)
def test_names_and_passwords_out_of_bounds_are_refused_naming_the_field(
    client: TestClient, path: str, body: dict[str, Any], status: int, field: str
) -> None:
    method = client.patch if path == "/api/me" else client.post
    reason = refused(method(path, json=body), status)
    assert field in reason
    assert "p" * 20 not in reason and "short" not in reason  # a password is never echoed
    assert ok(client.get("/api/me"))["account"] is False
    assert refused(
        method(path, content=b"{not json", headers={"Content-Type": "application/json"}), 422
    )


def test_the_server_hashes_passwords_with_argon2id_at_its_defaults() -> None:
    """The tests hash cheaply (support.passwords); the server at RFC 9106's low-memory
    profile, which is what a stored hash records."""
    hasher = passwords.PRODUCTION()
    assert (hasher.time_cost, hasher.memory_cost, hasher.parallelism) == (3, 65536, 4)
    assert hasher.hash(PASSWORD).startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    assert passwords.cheap_hasher().hash(PASSWORD).startswith("$argon2id$v=19$m=1024,t=1,p=1$")


def test_a_rehash_when_the_hashers_parameters_are_raised(database_url: str) -> None:
    store = EventStore(database_url)
    try:
        weak = PlayerStore(store, PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
        guest = weak.new_guest()
        weak.register(guest.id, "Ann", PASSWORD)
        strong = PlayerStore(store, passwords.PRODUCTION())

        def digest() -> str:
            with store.reading() as connection:
                found = connection.execute(
                    select(players.c.password_hash).where(players.c.id == guest.id)
                ).scalar_one()
            return str(found)

        before = digest()
        assert strong.hasher.check_needs_rehash(before)
        assert strong.login("ann", PASSWORD).id == guest.id
        after = digest()
        assert after != before and not strong.hasher.check_needs_rehash(after)
        assert strong.login("Ann", PASSWORD).id == guest.id  # the new hash still opens it
    finally:
        store.close()


# -- computer players ----------------------------------------------------------------------


def test_computer_players_are_players_of_kind_bot(database_url: str) -> None:
    with TestClient(create_app(database_url)) as first, TestClient(create_app(database_url)):
        stored = rows(first)  # a second app over the database made none twice
        bots = {key: row for key, row in stored.items() if row.kind == "bot"}
        assert set(bots) == {f"bot-{level}" for level in BOTS}
        for level in BOTS:
            profile = ok(first.get(f"/api/players/bot-{level}"))
            assert profile["kind"] == "bot" and level in profile["name"]
            assert bots[f"bot-{level}"].password_hash is None
        # nobody passes for a computer player, nor logs in as one
        name = ok(first.get("/api/players/bot-strong"))["name"]
        assert refused(first.patch("/api/me", json={"name": name.upper()}), 409)
        assert refused(first.post("/api/accounts", json={"name": name, "password": PASSWORD}), 409)
        assert (
            refused(first.post("/api/session", json={"name": name, "password": PASSWORD}), 401)
            == WRONG_LOGIN
        )


# -- several processes, one key ------------------------------------------------------------


def test_two_apps_over_one_database_accept_each_others_cookies(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(create_app(database_url)) as a, TestClient(create_app(database_url)) as b:
        me = ok(a.get("/api/me"))
        use_cookie(b, a.cookies[COOKIE])
        assert ok(b.get("/api/me")) == me
        made = ok(b.post("/api/accounts", json={"name": "Ben", "password": PASSWORD}), 201)
        use_cookie(a, b.cookies[COOKIE])
        assert ok(a.get("/api/me")) == made
        cookie = a.cookies[COOKIE]
    # a key of one's own (MATHABLE_SECRET_KEY) replaces the database's: its cookies differ
    monkeypatch.setenv("MATHABLE_SECRET_KEY", "k" * 32)
    with TestClient(create_app(database_url)) as own:
        use_cookie(own, cookie)
        assert ok(own.get("/api/me"))["id"] != me["id"]
        mine = ok(own.get("/api/me"))
        again = own.cookies[COOKIE]
    with TestClient(create_app(database_url)) as same_key:
        use_cookie(same_key, again)
        assert ok(same_key.get("/api/me")) == mine


def test_a_short_secret_key_is_refused(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATHABLE_SECRET_KEY", "short")
    with pytest.raises(ValueError, match="MATHABLE_SECRET_KEY"):
        create_app(database_url)


# -- limits --------------------------------------------------------------------------------


def test_log_ins_and_new_accounts_are_rate_limited_per_address(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATHABLE_RATE_LOGIN", "3/minute")
    with TestClient(create_app(database_url)) as client:
        register(client, "Cy")
        for _ in range(2):
            refused(
                client.post("/api/session", json={"name": "Cy", "password": "guess guess"}), 401
            )
        answer = client.post("/api/session", json={"name": "Cy", "password": PASSWORD})
        reason = refused(answer, 429)
        assert "log-ins" in reason and "3 per minute" in reason
        assert int(answer.headers["Retry-After"]) >= 1
        assert answer.json()["retry_after"] >= 1
        # the rest of the API is not held up, and the player is still who they were
        assert ok(client.get("/api/me"))["name"] == "Cy"
        logged_out = client.delete("/api/session", headers={"X-Requested-With": "test"})
        assert ok(logged_out)["account"] is False
