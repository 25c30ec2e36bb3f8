"""Issue 15, clocks at scale: one timer per process (:mod:`mathable.web.rounds.timers`) fires
each game at its flag instant, and a process starting up sets timers for the games whose
clock runs only (``games.running_clock``), however many clocked games have ended."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from mathable.web.api import create_app
from mathable.web.infra.db import games
from mathable.web.rounds.timers import ClockScheduler
from support.api import new_game, tokens, view
from support.clocks import Clock, app_at, end, first_moves, stored_events
from support.waiting import eventually


def test_the_timer_fires_each_game_at_its_instant_and_follows_changes() -> None:
    """The timer reads the test's clock (:class:`support.clocks.Clock`): the clock is moved
    to just before each instant (nothing fires) and then onto it (that game fires, at
    that instant); no real second is waited for, and no speed of the machine is timed."""

    async def scenario() -> None:
        clock = Clock()
        fired: list[tuple[str, float]] = []
        due: dict[str, float] = {}

        async def fire(game_id: str) -> None:
            fired.append((game_id, clock()))

        timer = ClockScheduler(clock, fire, longest=0.01)  # looks at the clock every 10 ms

        async def looked() -> None:
            """The timer has looked at the clock as it now stands (its next looks are
            due before this wait ends, on the same event loop)."""
            for _ in range(3):
                await asyncio.sleep(2 * timer.longest)

        timer.start()
        start = clock()
        for game_id, after in [("late", 0.45), ("soon", 0.15), ("moved", 0.05), ("gone", 0.1)]:
            due[game_id] = start + after
            timer.set(game_id, due[game_id])
        due["moved"] = start + 0.3  # its turn changed: the new instant only
        timer.set("moved", due["moved"])
        timer.set("gone", None)  # its clock stopped
        assert len(timer) == 3
        expected: list[tuple[str, float]] = []
        for game_id in ("soon", "moved", "late"):
            clock.at = due[game_id] - 0.001
            await looked()
            assert fired == expected  # not before its instant (nor "moved"'s old one)
            clock.at = due[game_id]
            await looked()
            expected.append((game_id, due[game_id]))
            assert fired == expected  # at its instant
        clock.at = start + 10
        await looked()
        assert fired == expected and len(timer) == 0  # "gone" never fires
        await timer.close()

    asyncio.run(scenario())


def running(client: TestClient, game_id: str, value: bool) -> None:
    app: Any = client.app
    with app.state.service.store.writing() as connection:
        connection.execute(update(games).where(games.c.id == game_id).values(running_clock=value))


def test_start_up_sets_timers_for_running_clocks_only(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    clock = Clock()
    before = app_at(database_url, clock)  # no lifespan: makes the games
    ended = new_game(before, clock={"minutes": 5})
    assert end(before, ended["id"], "abort", ended["seats"][0]["token"]).status_code == 200
    legacy = new_game(before, clock={"minutes": 5})  # ended before the flag was kept
    assert end(before, legacy["id"], "abort", legacy["seats"][0]["token"]).status_code == 200
    running(before, legacy["id"], True)
    ticking = new_game(before, clock={"minutes": 1})
    first_moves(before, ticking["id"], tokens(ticking))
    moved = stored_events(before, ticking["id"])
    plain = new_game(before)
    app: Any = before.app
    store = app.state.service.store
    assert sorted(store.running_clocks()) == sorted([legacy["id"], ticking["id"]])

    with app_at(database_url, clock) as after:
        service: Any = after.app
        service = service.state.service
        assert eventually(lambda: service.clocks.due(ticking["id"]) is not None)
        assert eventually(lambda: store.running_clocks() == [ticking["id"]])  # legacy: cleared
        assert service.clocks.due(ticking["id"]) == clock.at + 60  # its flag instant
        assert len(service.clocks) == 1
        assert ended["id"] not in service.live and plain["id"] not in service.live
        first = view(after, ticking["id"])["to_move"]
        clock.at += 61
        flagged = [*moved, f"flag {first}"]
        assert eventually(lambda: stored_events(after, ticking["id"]) == flagged)
        assert store.running_clocks() == []  # cleared in the flag's write
        assert len(service.clocks) == 0


def test_two_processes_timers_store_one_flag(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    clock = Clock()
    with (
        TestClient(create_app(database_url)) as a,
        TestClient(create_app(database_url)) as b,
    ):
        services = []
        for client in (a, b):
            app: Any = client.app
            app.state.service.now = clock
            services.append(app.state.service)
        made = new_game(a, clock={"minutes": 1})
        game_id = made["id"]
        first_moves(a, game_id, tokens(made))
        moved = stored_events(a, game_id)
        first = view(b, game_id)["to_move"]  # b holds it too: both timers set
        assert eventually(lambda: all(s.clocks.due(game_id) is not None for s in services))
        clock.at += 61
        assert eventually(lambda: stored_events(a, game_id) == [*moved, f"flag {first}"])
        assert eventually(lambda: all(s.clocks.due(game_id) is None for s in services))
        # the view has no "winners" until b has read the flag from the change feed
        assert eventually(lambda: view(b, game_id).get("winners") == [1 - first])
        assert stored_events(b, game_id) == [*moved, f"flag {first}"]  # once


def test_a_flag_that_fell_while_no_process_held_the_game_is_stored_at_start_up(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29, finding 6: a server stopped (a crash), a seat's time runs out meanwhile,
    a server starts again: the flag is stored by the start-up itself (before, the clock
    showed 0 with nothing running, not over, for as long as nobody acted), and in a game
    of three the next seat is not charged for the time nobody held the game."""
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    clock = Clock()
    three = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]
    before = app_at(database_url, clock)  # no lifespan: as a process that then died
    made = new_game(before, players=three, clock={"minutes": 1})
    game_id = made["id"]
    first_moves(before, game_id, tokens(made))
    moved = stored_events(before, game_id)
    late = view(before, game_id)["to_move"]
    clock.at += 300  # nobody holds the game: it fell due 240 s ago
    with app_at(database_url, clock) as after:
        flagged = [*moved, f"flag {late}"]
        assert eventually(lambda: stored_events(after, game_id) == flagged)
        shown = view(after, game_id)
        assert shown["over"] is False and shown["left"][late] == "flag"
        following = shown["to_move"]
        assert shown["running"] == following and shown["clocks"][late] == 0
        assert shown["clocks"][following] == 60_000  # not charged the 240 s
