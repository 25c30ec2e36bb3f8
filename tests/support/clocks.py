"""A service clock the test moves by hand, and the turns and endings the clock tests
play with it (ruling O4: the first moves are free of the clocks)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from mathable.web.api import create_app
from support.api import act, view


class Clock:
    """A service clock the test moves (seconds since the epoch)."""

    def __init__(self) -> None:
        self.at = 1_800_000_000.0

    def __call__(self) -> float:
        return self.at


def app_at(url: str, clock: Clock) -> TestClient:
    client = TestClient(create_app(url))
    app: Any = client.app
    app.state.service.now = clock
    return client


def finish_turn(client: TestClient, game_id: str, seats: list[str]) -> int:
    """The seat to move places a token (and ends its turn if it must), or passes or
    exchanges when its rack fits nowhere (a random online deal may); returns that seat."""
    first = view(client, game_id)["to_move"]
    legal = view(client, game_id, seats[first])["legal"]
    placement = next((a for a in legal if "=" in a), None)
    action = placement or next(a for a in legal if a.split()[0] in ("pass", "exchange"))
    answer = act(client, game_id, seats[first], action)
    assert answer.status_code == 200, answer.text
    if answer.json()["to_move"] == first:
        assert act(client, game_id, seats[first], "end").status_code == 200
    assert view(client, game_id)["to_move"] != first
    return int(first)


def end(client: TestClient, game_id: str, kind: str, token: str) -> Any:
    return client.post(f"/api/games/{game_id}/{kind}", json={"token": token})


def stored_events(client: TestClient, game_id: str) -> list[str]:
    app: Any = client.app
    stored = app.state.service.store.load(game_id)
    assert stored is not None
    return list(stored.actions)


def first_moves(client: TestClient, game_id: str, seats: list[str]) -> None:
    """Every seat makes its first turn, the service's clock standing still (O4: those turns
    are free of the clocks); then the clocks run."""
    for _seat in seats:
        take_turn(client, game_id, seats)


def take_turn(client: TestClient, game_id: str, seats: list[str]) -> int:
    """The seat to move places a token if it can (:func:`finish_turn`), else passes."""
    mover = view(client, game_id)["to_move"]
    if any("=" in a for a in view(client, game_id, seats[mover])["legal"]):
        return finish_turn(client, game_id, seats)
    assert act(client, game_id, seats[mover], "pass").status_code == 200
    return int(mover)
