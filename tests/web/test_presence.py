"""Issue 15, game flow: a disconnected player is shown as such, across server processes
over one database, and a player who leaves a live game can be claimed a loss after
``MATHABLE_CLAIM_AFTER`` seconds. The service's clock is moved by hand: nothing waits a
minute."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from mathable.web.api import create_app
from mathable.web.infra.db import games, presence
from support.api import online, seat_tokens
from support.clocks import Clock, finish_turn
from support.sockets import Socket
from support.waiting import eventually


@pytest.fixture
def two_apps(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[TestClient]]:
    """Two apps over one database with their lifespans (timers, presence polls) running,
    polling each other's presence every 0.2 s."""
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    with TestClient(create_app(database_url)) as a, TestClient(create_app(database_url)) as b:
        for client in (a, b):
            service(client).presence.poll = 0.2
        yield [a, b]


def service(client: TestClient) -> Any:
    app: Any = client.app
    return app.state.service


def rows(client: TestClient, game_id: str) -> list[tuple[int, bool]]:
    """The stored presence rows of a game: (seat, connected), one per process."""
    store = service(client).store
    with store.reading() as connection:
        found = connection.execute(
            select(presence.c.seat, presence.c.connected).where(presence.c.game_id == game_id)
        ).all()
    return sorted((int(seat), bool(connected)) for seat, connected in found)


def connected(socket: Socket, seat: int) -> bool | None:
    here = socket.presence(seat)
    return None if here is None else bool(here["connected"])


def test_presence_follows_a_seats_sockets_in_every_process(two_apps: list[TestClient]) -> None:
    a, b = two_apps
    made = online(a, clock={"minutes": 5})
    game_id = made["id"]
    _, bob = seat_tokens(a, made)
    assert a.get(f"/api/games/{game_id}").json()["presence"] is None  # not followed on A
    watcher = Socket(b, game_id)  # a spectator on the other process
    seen_a = Socket(a, game_id)  # and one on this one
    sockets = [watcher, seen_a]
    try:
        assert eventually(lambda: connected(watcher, 1) is False), watcher.view.get("presence")
        assert watcher.presence(1) == {"connected": False, "since": None}  # never seen
        three = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Hal", "bot": "greedy"}]
        bots = online(a, players=three)
        other = Socket(a, bots["id"], bots["seats"][0]["token"])
        sockets.append(other)
        assert eventually(lambda: connected(other, 0) is True), other.view.get("presence")
        assert other.presence(2) == {"connected": True, "since": None}  # a computer player
        assert connected(other, 1) is False

        on_a = Socket(a, game_id, bob)  # Bob opens the game on process A
        sockets.append(on_a)
        assert eventually(lambda: connected(on_a, 1) is True), on_a.view.get("presence")
        assert eventually(lambda: connected(watcher, 1) is True), watcher.view.get("presence")
        assert connected(watcher, 0) is False  # Ann has not opened it
        assert rows(a, game_id) == [(1, True)]

        on_b = Socket(b, game_id, bob)  # and on process B too (a second device)
        sockets.append(on_b)
        assert eventually(lambda: rows(a, game_id) == [(1, True), (1, True)])
        on_a.close()  # A's last socket of Bob's seat: B's still holds him there
        sockets.remove(on_a)
        assert eventually(lambda: rows(a, game_id) == [(1, False), (1, True)])
        here = f"/api/games/{game_id}"  # A hears of B's row by its poll: then, connected
        assert eventually(lambda: a.get(here).json()["presence"][1]["connected"] is True)
        assert eventually(lambda: connected(seen_a, 1) is True and connected(watcher, 1) is True)

        on_b.close()  # Bob's last socket anywhere
        sockets.remove(on_b)
        assert eventually(lambda: connected(watcher, 1) is False), (
            watcher.view.get("presence"),
            rows(b, game_id),
        )
        assert eventually(lambda: connected(seen_a, 1) is False), seen_a.view.get("presence")
        away = watcher.presence(1)
        assert away is not None and away["since"] is not None  # away since then
        assert rows(b, game_id) == [(1, False), (1, False)]
    finally:
        for socket in sockets:
            socket.close()


def app_at(url: str, clock: Clock) -> TestClient:
    client = TestClient(create_app(url))
    service(client).now = clock
    return client


def claim(client: TestClient, game_id: str, token: str) -> Any:
    return client.post(f"/api/games/{game_id}/claim", json={"token": token})


def running_clock(client: TestClient, game_id: str) -> bool:
    with service(client).store.reading() as connection:
        return bool(
            connection.execute(select(games.c.running_clock).where(games.c.id == game_id)).scalar()
        )


def test_a_claim_is_refused_before_the_timeout_and_accepted_after(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    clock = Clock()
    with app_at(database_url, clock) as client:
        made = online(client, clock={"minutes": 5})
        game_id = made["id"]
        tokens = seat_tokens(client, made)
        start = client.get(f"/api/games/{game_id}").json()
        assert start["claim_after"] is None  # O4: no claims before each has moved
        away = int(start["to_move"])
        name, claimant = ["Ann", "Bob"][away], tokens[1 - away]
        clock.at += 20
        unstarted = claim(client, game_id, claimant)  # never came nor moved: no claim
        assert unstarted.status_code == 409 and "first move" in unstarted.json()["error"]
        finish_turn(client, game_id, tokens)
        finish_turn(client, game_id, tokens)
        moved = service(client).store.load(game_id).actions
        assert client.get(f"/api/games/{game_id}").json()["claim_after"] == 60

        assert claim(client, game_id, "").status_code == 403  # a spectator
        mine = claim(client, game_id, tokens[away])
        assert mine.status_code == 409 and "your turn" in mine.json()["error"]
        early = claim(client, game_id, claimant)  # no socket ever: away since its turn began
        assert early.status_code == 409
        assert early.json()["error"] == f"{name} has been away 0 s; claim after 60 s"

        socket = Socket(client, game_id, tokens[away])
        try:
            assert eventually(lambda: rows(client, game_id) == [(away, True)])
            # connected, however long ago: past the heartbeats' staleness too (issue 29:
            # this process's own rows went stale after 50 s and the claim was accepted)
            clock.at += 120
            here = claim(client, game_id, claimant)
            assert here.status_code == 409 and here.json()["error"] == f"{name} is connected"
            shown = client.get(f"/api/games/{game_id}").json()["presence"][away]
            assert shown["connected"] is True
        finally:
            socket.close()
        assert eventually(lambda: rows(client, game_id) == [(away, False)])
        clock.at += 30
        soon = claim(client, game_id, claimant)
        assert soon.status_code == 409
        assert soon.json()["error"] == f"{name} has been away 30 s; claim after 60 s"
        assert running_clock(client, game_id)

        clock.at += 31
        won = claim(client, game_id, claimant)
        assert won.status_code == 200, won.text
        over = won.json()
        assert over["over"] is True and over["end_reason"].startswith(f"{name} left the game")
        assert over["winners"] == [1 - away] and over["claim_after"] is None
        assert service(client).store.load(game_id).actions == [*moved, f"claim {away}"]
        assert not running_clock(client, game_id)  # stopped in the ending's write
        assert claim(client, game_id, claimant).status_code == 409  # over
    again = app_at(database_url, clock)  # replayed from the events alone
    replayed = again.get(f"/api/games/{game_id}").json()
    assert replayed["end_reason"] == over["end_reason"] and replayed["winners"] == [1 - away]


def test_no_claims_by_correspondence_nor_at_one_screen(database_url: str) -> None:
    clock = Clock()
    client = app_at(database_url, clock)
    slow = online(client, clock={"days": 3})
    tokens = seat_tokens(client, slow)
    away = client.get(f"/api/games/{slow['id']}").json()["to_move"]
    assert client.get(f"/api/games/{slow['id']}").json()["claim_after"] is None
    clock.at += 86_000
    refused = claim(client, slow["id"], tokens[1 - away])
    assert refused.status_code == 409 and "correspondence" in refused.json()["error"]
    body = {"variant": "classic", "players": [{"name": "Ann"}, {"name": "Bob"}], "mode": "screen"}
    screen = client.post("/api/games", json=body).json()
    refused = claim(client, screen["id"], screen["seats"][0]["token"])
    assert refused.status_code == 409 and "online games" in refused.json()["error"]
    assert client.get(f"/api/games/{screen['id']}").json()["presence"] is None


def test_in_a_game_of_three_a_claim_removes_the_seat_and_play_goes_on(database_url: str) -> None:
    clock = Clock()
    client = app_at(database_url, clock)
    players = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]
    made = online(client, players=players)
    game_id = made["id"]
    tokens = seat_tokens(client, made)
    for _seat in range(3):  # O4: claims once each has made a first move
        finish_turn(client, game_id, tokens)
    moved = service(client).store.load(game_id).actions
    start = client.get(f"/api/games/{game_id}").json()
    away = int(start["to_move"])
    claimant = (away + 1) % 3
    assert claim(client, game_id, tokens[claimant]).status_code == 409  # not away long enough
    clock.at += 61  # no socket ever: away since its turn began
    answer = claim(client, game_id, tokens[claimant])
    assert answer.status_code == 200, answer.text
    after = answer.json()
    assert after["over"] is False and after["left"][away]  # the seat left, play goes on
    assert after["to_move"] != away and after["scores"][away] == start["scores"][away]
    assert service(client).store.load(game_id).actions == [*moved, f"claim {away}"]
    refused = claim(client, game_id, tokens[away])  # gone: no claims from them
    assert refused.status_code == 409 and "left the game" in refused.json()["error"]
