"""Password guessing limited per account (issue 30, finding 3): after 10 failed log-ins
on one name within 10 minutes, the name answers 429 from any address and any server
process, the same for a name nobody has, each lock twice as long as the one before.

Two apps over one database play two server processes, each with its own client address
(the per-address limit is off: it is not what is tested); one injected clock rules both.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient

from mathable.web.api import create_app
from mathable.web.players.guessing import Guessing
from mathable.web.players.players import WRONG_LOGIN

PASSWORD = "correct horse battery"
WRONG = "wrong horse battery"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def _settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    monkeypatch.setenv("MATHABLE_RATE_LOGIN", "off")  # only the per-account limit here
    for name in (
        "MATHABLE_LOGIN_FAILURES",
        "MATHABLE_LOGIN_WINDOW",
        "MATHABLE_LOGIN_LOCKOUT",
        "MATHABLE_LOGIN_LOCKOUT_MAX",
    ):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def two(database_url: str, clock: Clock) -> Iterator[tuple[TestClient, TestClient]]:
    """Two server processes over one database, reached from two addresses."""
    first, second = create_app(database_url), create_app(database_url)
    for app in (first, second):
        app.state.players.guesses.clock = clock
    with (
        TestClient(first, client=("203.0.113.5", 40000)) as a,
        TestClient(second, client=("198.51.100.77", 40001)) as b,
    ):
        made = a.post("/api/accounts", json={"name": "Ada Lovelace", "password": PASSWORD})
        assert made.status_code == 201, made.text
        yield a, b


def log_in(client: TestClient, name: str, password: str) -> httpx2.Response:
    client.cookies.clear()
    answer: httpx2.Response = client.post("/api/session", json={"name": name, "password": password})
    return answer


def fail(client: TestClient, name: str, times: int) -> None:
    """``times`` wrong passwords for ``name``, each the 401 of a wrong log-in."""
    for _ in range(times):
        answer = log_in(client, name, WRONG)
        assert answer.status_code == 401, answer.text
        assert answer.json()["error"] == str(WRONG_LOGIN)


def locked(answer: httpx2.Response) -> dict[str, Any]:
    assert answer.status_code == 429, answer.text
    body: dict[str, Any] = answer.json()
    assert answer.headers["Retry-After"] == str(body["retry_after"])
    assert "failed log-ins" in body["error"]
    return body


def test_ten_failures_lock_the_account_from_another_address_and_process(
    two: tuple[TestClient, TestClient], clock: Clock
) -> None:
    a, b = two
    fail(a, "Ada Lovelace", 9)
    assert log_in(b, "ada lovelace", PASSWORD).status_code == 200  # 9: not yet
    fail(a, "Ada Lovelace", 10)
    # the right password, from another address on another process: refused for a while
    body = locked(log_in(b, "ADA LOVELACE", PASSWORD))
    assert body["retry_after"] == Guessing().lockout
    assert "Ada" not in body["error"]  # the answer does not name the account
    clock.now += Guessing().lockout - 1
    assert locked(log_in(a, "Ada Lovelace", PASSWORD))["retry_after"] == 1
    # after the lock: the right password opens it
    clock.now += 1
    me = log_in(b, "Ada Lovelace", PASSWORD)
    assert me.status_code == 200 and me.json()["name"] == "Ada Lovelace"


def test_a_name_nobody_has_answers_the_same(
    two: tuple[TestClient, TestClient], clock: Clock
) -> None:
    a, b = two
    fail(a, "Ada Lovelace", 10)
    fail(a, "Nobody Here", 10)
    known = log_in(b, "Ada Lovelace", PASSWORD)
    unknown = log_in(b, "Nobody Here", PASSWORD)
    assert locked(known) == locked(unknown)
    assert known.headers["Retry-After"] == unknown.headers["Retry-After"]
    # other names are not held up
    assert log_in(b, "Somebody Else", WRONG).status_code == 401


def test_each_lock_lasts_twice_the_one_before(
    two: tuple[TestClient, TestClient], clock: Clock
) -> None:
    a, b = two
    first = Guessing().lockout
    waits = []
    for _ in range(4):
        fail(a, "Ada Lovelace", 10)
        wait = locked(log_in(b, "Ada Lovelace", WRONG))["retry_after"]
        waits.append(wait)
        clock.now += wait
    assert waits == [first, 2 * first, 4 * first, 8 * first]
    # a right password once the lock is over
    assert log_in(b, "Ada Lovelace", PASSWORD).status_code == 200


def test_failures_spread_over_more_than_the_window_do_not_lock(
    two: tuple[TestClient, TestClient], clock: Clock
) -> None:
    a, b = two
    for _ in range(3):
        fail(a, "Ada Lovelace", 9)
        clock.now += Guessing().window + 1
    assert log_in(b, "Ada Lovelace", PASSWORD).status_code == 200


def test_a_right_password_forgets_the_failures_before_it(
    two: tuple[TestClient, TestClient],
) -> None:
    a, b = two
    fail(a, "Ada Lovelace", 9)
    assert log_in(b, "Ada Lovelace", PASSWORD).status_code == 200
    fail(a, "Ada Lovelace", 9)
    assert log_in(b, "Ada Lovelace", PASSWORD).status_code == 200


def test_the_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATHABLE_LOGIN_FAILURES", "5")
    monkeypatch.setenv("MATHABLE_LOGIN_LOCKOUT", "60")
    settings = Guessing.from_env()
    assert settings.failures == 5 and settings.lock_for(3) == 240
    assert Guessing().lock_for(100) == Guessing().longest  # bounded
    monkeypatch.setenv("MATHABLE_LOGIN_WINDOW", "ten minutes")
    with pytest.raises(ValueError, match="MATHABLE_LOGIN_WINDOW"):
        Guessing.from_env()
