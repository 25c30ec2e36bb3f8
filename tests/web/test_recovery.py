"""Nothing stuck (issue 13): a game whose computer player is to move when the server
stops (a restart, a SIGKILL) is resumed when the server starts again or when the game
is loaded, and a conflict while storing a computer player's move (another process
stored one first) is recovered, never a crashed task or a game stuck for good."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mathable.engine.protocol import HouseRules
from mathable.games.registry import new_game
from mathable.web.api import create_app
from mathable.web.infra.store import EventStore
from support import oneoff
from webserver import Server

PEOPLE_FIRST = {
    "variant": "classic",
    "players": [{"name": "Ann"}, {"name": "Robo", "bot": "greedy"}],
    "seed": 4,
    "mode": "screen",
}
"""Ann (seat 0, to move first) against a computer player (seat 1)."""


def wait_for(check: Callable[[], bool], seconds: float = 60) -> bool:
    """Whether ``check()`` comes true within ``seconds`` (a bound, not a speed test)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def play_anns_turn_behind_the_server(database_url: str, game_id: str) -> int:
    """Store Ann's whole turn straight into the database, as a server killed right
    after acknowledging it leaves the game: the computer player is to move and has not
    moved. Returns the number of actions stored."""
    store = EventStore(database_url)
    try:
        stored = store.load(game_id)
        assert stored is not None
        spec = stored.spec
        game = new_game(
            spec["variant"],
            [s["name"] for s in stored.seats],
            seed=spec["seed"],
            house_rules=HouseRules.from_dict(spec.get("house_rules") or {}),
            rounds=spec.get("rounds", 1),
        )
        for text in stored.actions:
            game.apply(game.parse_action(text))
        for _ in range(20):
            if game.to_move != 0 or game.is_over:
                break
            action = game.legal_actions()[0]
            store.append(game_id, len(game.log), game.format_action(action), 0)
            game.apply(action)
        assert game.to_move == 1 and not game.is_over
        return len(game.log)
    finally:
        store.close()


def create_people_first(database_url: str) -> str:
    """The game of :data:`PEOPLE_FIRST`, created by a server that then stops; Ann is to
    move, so its computer player has not moved."""
    with TestClient(create_app(database_url)) as first:
        made = first.post("/api/games", json=PEOPLE_FIRST)
        assert made.status_code == 201, made.text
        game_id: str = made.json()["id"]
        assert first.get(f"/api/games/{game_id}").json()["to_move"] == 0
    return game_id


def bot_moved_after(view: dict[str, Any], stored: int) -> bool:
    """Whether the computer player (seat 1) finished its turn after ``stored`` actions."""
    return (
        view["seq"] > stored and view["to_move"] == 0 and any(t["seat"] == 1 for t in view["turns"])
    )


def test_a_computer_to_move_resumes_when_the_service_starts_again(database_url: str) -> None:
    game_id = create_people_first(database_url)
    stored = play_anns_turn_behind_the_server(database_url, game_id)
    with TestClient(create_app(database_url)) as client:  # the restarted server
        assert wait_for(lambda: bot_moved_after(client.get(f"/api/games/{game_id}").json(), stored))
        shown = client.get(f"/api/games/{game_id}").json()
        assert shown["players"][shown["to_move"]] == "Ann"


def test_a_computer_to_move_resumes_when_its_game_is_loaded(database_url: str) -> None:
    app = create_app(database_url)
    with TestClient(app) as client:
        made = client.post("/api/games", json=PEOPLE_FIRST).json()
        game_id = made["id"]
        service = app.state.service
        service.live.pop(game_id)  # out of memory (as after an eviction or in another process)
        stored = play_anns_turn_behind_the_server(database_url, game_id)  # another process
        assert wait_for(lambda: bot_moved_after(client.get(f"/api/games/{game_id}").json(), stored))


def test_a_conflict_on_a_computer_players_move_is_recovered(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process stores a move at the sequence number the computer player's move
    takes: the store refuses the second (ConflictError); the service reloads the game
    (the other move stands), decides again from there, and the game goes on."""
    app = create_app(database_url)
    with TestClient(app) as client:
        service = app.state.service
        store: EventStore = service.store
        real_append = store.append_async
        other = EventStore(database_url)
        raced: list[str] = []

        async def append(
            game_id: str,
            seq: int,
            action: str,
            seat: int | None,
            at: float | None = None,
            ends: bool = False,
        ) -> None:
            if seat == 0 and not raced:  # the computer player's first move: another came first
                stored = store.load(game_id)
                assert stored is not None and len(stored.actions) == seq
                game = new_game(
                    stored.spec["variant"],
                    [s["name"] for s in stored.seats],
                    seed=stored.spec["seed"],
                    house_rules=HouseRules.from_dict(stored.spec.get("house_rules") or {}),
                )
                for text in stored.actions:
                    game.apply(game.parse_action(text))
                rival = next(
                    game.format_action(a)
                    for a in game.legal_actions()
                    if game.format_action(a) != action
                )
                other.append(game_id, seq, rival, 0)
                raced.append(rival)
            await real_append(game_id, seq, action, seat, at, ends)

        monkeypatch.setattr(store, "append_async", append)
        bots_first = {
            "variant": "classic",
            "players": [{"name": "Robo", "bot": "greedy"}, {"name": "Ann"}],
            "seed": 4,
            "mode": "screen",
        }
        made = client.post("/api/games", json=bots_first)
        assert made.status_code == 201, made.text
        game_id, ann = made.json()["id"], made.json()["seats"][1]["token"]

        def robo_done() -> bool:
            return bool(client.get(f"/api/games/{game_id}").json()["to_move"] == 1)

        assert wait_for(robo_done)
        assert raced
        stored = other.load(game_id)
        other.close()
        assert stored is not None and stored.actions[0] == raced[0]  # the first move stands
        seen = client.get(f"/api/games/{game_id}", params={"token": ann}).json()
        assert seen["seq"] == len(stored.actions)
        with TestClient(create_app(database_url)) as fresh:  # memory agrees with the store
            assert fresh.get(f"/api/games/{game_id}", params={"token": ann}).json() == seen


@pytest.mark.slow
def test_sigkill_with_a_computer_to_move_then_restart_resumes_it(database_url: str) -> None:
    server = Server(database_url).start()
    try:
        made = oneoff.post(f"{server.url}/api/games", json=PEOPLE_FIRST, timeout=30)
        assert made.status_code == 201, made.text
        game_id = made.json()["id"]
        server.kill()  # SIGKILL: no shutdown code runs
        stored = play_anns_turn_behind_the_server(database_url, game_id)
        server.start()

        def resumed() -> bool:
            view = oneoff.get(f"{server.url}/api/games/{game_id}", timeout=30).json()
            return bot_moved_after(view, stored)

        assert wait_for(resumed), server.output()[-2000:]
    finally:
        server.stop()
