"""Players, seats and rating rows written straight to the store, for the standings and
first-move tests."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import delete, insert, select

from mathable.ai import level_of_player
from mathable.web.infra.db import game_players, players, ratings
from mathable.web.infra.store import EventStore
from support.api import new_game, tokens


def store_of(client: TestClient) -> EventStore:
    app: Any = client.app
    found: EventStore = app.state.service.store
    return found


def account(client: TestClient, player_id: str, name: str) -> str:
    """A player with an account (the hash is never checked here)."""
    with store_of(client).writing() as connection:
        connection.execute(
            insert(players).values(
                id=player_id,
                name=name,
                name_key=name.lower(),
                password_hash="argon2-hash",
                kind="person",
                created=time.time(),
            )
        )
    return player_id


def bind(client: TestClient, game_id: str, *player_ids: str) -> None:
    """The seats taken by these players (in place of whoever the game was made with)."""
    with store_of(client).writing() as connection:
        connection.execute(delete(game_players).where(game_players.c.game_id == game_id))
        for seat, player_id in enumerate(player_ids):
            connection.execute(
                insert(game_players).values(game_id=game_id, seat=seat, player_id=player_id)
            )


def table(client: TestClient, which: Any) -> list[Any]:
    with store_of(client).reading() as connection:
        return list(connection.execute(select(which)).all())


def people_ratings(client: TestClient) -> list[Any]:
    """The rating rows of people (the computer levels have theirs from the start)."""
    return [r for r in table(client, ratings) if level_of_player(r.player_id) is None]


def rated_game(client: TestClient, ann: str, bob: str, **spec: Any) -> tuple[str, list[str]]:
    made = new_game(client, clock={"minutes": 5, "increment": 3}, rated=True, seed=None, **spec)
    bind(client, made["id"], ann, bob)
    return made["id"], tokens(made)
