"""The change notes of PostgreSQL (issue 13): sent after the write commits, by a thread of
their own, several games at once, the newest seq of each game, again after a lost
connection, and the pending ones at close."""

from __future__ import annotations

import time
from collections.abc import Iterator

import psycopg
import pytest

from mathable.web.infra.db import CHANNEL, parse_url, psycopg_arguments
from mathable.web.infra.feed import PostgresNotifier
from mathable.web.infra.store import EventStore
from pg import Cluster


@pytest.fixture()
def listener(postgres: Cluster) -> Iterator[tuple[str, psycopg.Connection[tuple[object, ...]]]]:
    """A database and a connection listening on the channel of change notes."""
    url = postgres.database()
    connection = psycopg.connect(**psycopg_arguments(parse_url(url)), autocommit=True)
    connection.execute(f"LISTEN {CHANNEL}")
    yield url, connection
    connection.close()


def heard(connection: psycopg.Connection[tuple[object, ...]], wanted: dict[str, int]) -> list[str]:
    """The payloads heard until each game's newest seq is at least ``wanted``'s (or 10
    seconds passed). The notifier's thread may send a note before the next is noted,
    so how many payloads come is not fixed: what they end on is."""
    payloads: list[str] = []
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = newest(payloads)
        if all(found.get(game, 0) >= seq for game, seq in wanted.items()):
            break
        payloads += [n.payload for n in connection.notifies(timeout=0.2)]
    return payloads


def newest(payloads: list[str]) -> dict[str, int]:
    """The newest seq heard of each game (the origin dropped)."""
    found: dict[str, int] = {}
    for payload in payloads:
        game_id, seq, _origin = payload.split(" ")
        found[game_id] = max(int(seq), found.get(game_id, 0))
    return found


def test_notes_carry_each_games_newest_seq(
    listener: tuple[str, psycopg.Connection[tuple[object, ...]]],
) -> None:
    url, connection = listener
    notifier = PostgresNotifier(psycopg_arguments(parse_url(url)), "here")
    for seq in range(1, 6):
        notifier.note("g1", seq)
    notifier.note("g2", 7)
    notifier.note("g2", 3)  # an older note never takes back a newer one
    assert notifier.flush()
    payloads = heard(connection, {"g1": 5, "g2": 7})
    assert newest(payloads) == {"g1": 5, "g2": 7}
    assert all(p.endswith(" here") for p in payloads)
    notifier.close()


def test_a_lost_connection_sends_again(
    listener: tuple[str, psycopg.Connection[tuple[object, ...]]],
) -> None:
    url, connection = listener
    notifier = PostgresNotifier(psycopg_arguments(parse_url(url)), "here")
    notifier.note("g1", 1)
    assert notifier.flush()
    assert newest(heard(connection, {"g1": 1})) == {"g1": 1}
    # cut every other connection to this database: the notifier's among them
    connection.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid()"
    )
    notifier.note("g1", 2)
    assert notifier.flush(timeout=10)
    assert newest(heard(connection, {"g1": 2})) == {"g1": 2}
    notifier.close()


def test_an_append_is_announced_after_it_commits_and_close_sends_the_rest(
    listener: tuple[str, psycopg.Connection[tuple[object, ...]]],
) -> None:
    url, connection = listener
    store = EventStore(url)
    store.create("g1", {"variant": "classic"}, [])
    store.append("g1", 0, "pass", 0)
    store.append("g1", 1, "pass", 1)
    store.close()  # the notes pending at close are sent, not dropped
    assert newest(heard(connection, {"g1": 2})).get("g1") == 2
    # the note was sent by another connection than the write's: the event was there first
    with psycopg.connect(**psycopg_arguments(parse_url(url))) as reader:
        assert reader.execute("SELECT count(*) FROM events WHERE game_id = 'g1'").fetchone() == (2,)
