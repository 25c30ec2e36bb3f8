"""A fair share of the computer work (issue 30, finding 5): per address and per player,
at most ``MATHABLE_BOT_GAMES_ALL`` live games between computers only and at most
``MATHABLE_BOT_GAMES`` live games with a computer seat, counted in the store (two
processes agree); one over is refused 429 with the reason and the limit, and a game that
ends, or goes quiet for half an hour, frees its slot.

The computers of the games between computers only are held (their decisions wait on a
gate) so those games stay live exactly as long as a test needs; the client's address is
set per request as a reverse proxy's header would set it.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.types import Receive, Scope, Send

from mathable.web.api import create_app
from mathable.web.infra.botshare import QUIET_AFTER, BotLimits
from mathable.web.rounds.service import GameService
from support.waiting import eventually

COMPUTERS = {
    "variant": "classic",
    "players": [{"name": f"C{i}", "bot": "gentle"} for i in range(4)],
    "seed": 11,
}
AGAINST = {
    "variant": "classic",
    "players": [{"name": "Ann"}, {"name": "Greedy", "bot": "greedy"}],
    "seed": 12,
}
ORIGIN = {"Origin": "http://testserver"}


class Addressed:
    """The app with the client's address taken from an ``X-Test-Address`` header, as
    uvicorn takes it from ``X-Forwarded-For`` behind a proxy."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for name, value in scope["headers"]:
                if name == b"x-test-address":
                    scope = {**scope, "client": (value.decode(), 5000)}
        await self.app(scope, receive, send)


class Held:
    """The decisions of an app's gentle computers (those of :data:`COMPUTERS`) wait
    until :meth:`release`; the greedy one of :data:`AGAINST` plays at once."""

    def __init__(self, service: GameService) -> None:
        self.gate = threading.Event()
        decide = service._decide

        async def held(level: str, seed: int, game: Any, seat: int, **more: Any) -> Any:
            if level == "gentle":
                await asyncio.to_thread(self.gate.wait, 60)
            return await decide(level, seed, game, seat, **more)

        service._decide = held  # type: ignore[method-assign,assignment]

    def release(self) -> None:
        self.gate.set()


def served(url: str) -> tuple[TestClient, GameService, Held]:
    app = create_app(url)
    service: GameService = app.state.service
    return TestClient(Addressed(app), headers=ORIGIN), service, Held(service)


@pytest.fixture
def one(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, Any]]:
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    client, service, held = served(database_url)
    with client:
        yield client, (service, held)
        held.release()


def create(client: TestClient, body: dict[str, Any], address: str) -> Any:
    return client.post("/api/games", json=body, headers={"X-Test-Address": address})


def test_the_third_game_of_computers_from_one_address_is_refused_another_address_is_not(
    one: tuple[TestClient, Any],
) -> None:
    client, _ = one
    client.cookies.clear()  # no player: the address alone is counted
    for _n in range(2):
        assert create(client, COMPUTERS, "10.0.0.1").status_code == 201
    refused = create(client, COMPUTERS, "10.0.0.1")
    assert refused.status_code == 429
    answer = refused.json()
    assert answer["limit"] == "bot_games_all" and answer["most"] == 2
    assert answer["error"] == (
        "too many games between computers from your address: at most 2 at once; "
        "try again once one has ended"
    )
    assert create(client, COMPUTERS, "10.0.0.2").status_code == 201
    # a game with a person and a computer is still allowed from the first address
    assert create(client, AGAINST, "10.0.0.1").status_code == 201


def test_a_finished_game_frees_its_slot(one: tuple[TestClient, Any]) -> None:
    client, (service, held) = one
    client.cookies.clear()
    made = [create(client, COMPUTERS, "10.0.0.1").json()["id"] for _n in range(2)]
    assert create(client, COMPUTERS, "10.0.0.1").status_code == 429
    held.release()  # the computers play both games to their end
    deadline = time.monotonic() + 120
    while not all(client.get(f"/api/games/{g}").json()["over"] for g in made):
        assert time.monotonic() < deadline, "the games between computers did not end"
        time.sleep(0.1)
    # A game counts as live until its result is stored (the count is the store's, so
    # that processes agree): its last action shows in memory the moment it is applied,
    # its result is written a few milliseconds later, in the thread that stores the
    # action. Once written, the slot is free.
    assert eventually(lambda: all(service.standings.written(g) for g in made))
    assert create(client, COMPUTERS, "10.0.0.1").status_code == 201


def test_a_game_left_quiet_for_half_an_hour_frees_its_slot(one: tuple[TestClient, Any]) -> None:
    client, (service, _held) = one
    client.cookies.clear()
    for _n in range(2):
        assert create(client, COMPUTERS, "10.0.0.1").status_code == 201
    start = service.now()
    service.now = lambda: start + QUIET_AFTER - 60
    assert create(client, COMPUTERS, "10.0.0.1").status_code == 429
    service.now = lambda: start + QUIET_AFTER + 1
    assert create(client, COMPUTERS, "10.0.0.1").status_code == 201


def test_games_with_a_computer_seat_are_limited_and_one_that_ends_frees_its_slot(
    one: tuple[TestClient, Any],
) -> None:
    client, (service, _held) = one
    client.cookies.clear()
    service.bot_share.limits = BotLimits(all_computer=2, with_computer=3)
    made = [create(client, AGAINST, "10.0.0.1").json() for _n in range(3)]
    refused = create(client, AGAINST, "10.0.0.1")
    assert refused.status_code == 429
    assert refused.json() == {
        "error": "too many games with a computer from your address: at most 3 at once; "
        "finish or resign one first",
        "limit": "bot_games",
        "most": 3,
    }
    # games between computers only count too
    assert create(client, COMPUTERS, "10.0.0.1").status_code == 429
    first = made[0]
    ended = client.post(
        f"/api/games/{first['id']}/abort", json={"token": first["seats"][0]["token"]}
    )
    assert ended.status_code == 200 and ended.json()["over"]
    assert create(client, AGAINST, "10.0.0.1").status_code == 201
    # games between people only are never counted
    people = {"variant": "classic", "players": [{"name": "A"}, {"name": "B"}], "mode": "screen"}
    assert create(client, people, "10.0.0.1").status_code == 201


def test_a_player_is_limited_from_any_address(one: tuple[TestClient, Any]) -> None:
    client, _ = one
    me = client.get("/api/me")
    assert me.status_code == 200 and client.cookies
    assert create(client, COMPUTERS, "10.0.0.1").status_code == 201
    assert create(client, COMPUTERS, "10.0.0.2").status_code == 201
    refused = create(client, COMPUTERS, "10.0.0.3")
    assert refused.status_code == 429
    assert refused.json()["error"] == (
        "too many of your games between computers: at most 2 at once; try again once one has ended"
    )
    client.cookies.clear()  # someone else at that address
    assert create(client, COMPUTERS, "10.0.0.3").status_code == 201


def test_two_processes_over_one_database_count_the_same_games(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    first, _, held_first = served(database_url)
    second, _, held_second = served(database_url)
    with first, second:
        first.cookies.clear()
        second.cookies.clear()
        assert create(first, COMPUTERS, "10.0.0.1").status_code == 201
        assert create(second, COMPUTERS, "10.0.0.1").status_code == 201
        assert create(first, COMPUTERS, "10.0.0.1").status_code == 429
        assert create(second, COMPUTERS, "10.0.0.1").status_code == 429
        held_first.release()
        held_second.release()


def test_the_limits_are_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    assert BotLimits.from_env() == BotLimits(2, 10)
    monkeypatch.setenv("MATHABLE_BOT_GAMES_ALL", "5")
    monkeypatch.setenv("MATHABLE_BOT_GAMES", "off")
    assert BotLimits.from_env() == BotLimits(5, None)
    monkeypatch.setenv("MATHABLE_BOT_GAMES", "many")
    with pytest.raises(ValueError, match="MATHABLE_BOT_GAMES='many'"):
        BotLimits.from_env()
