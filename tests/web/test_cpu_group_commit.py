"""The store's group commit (issue 34, cheaper actions): events appended while another
write is under way are committed together, in one transaction, and each append still
answers for its own event (stored, or refused with :class:`ConflictError`), on SQLite and
PostgreSQL.

A write is held up by holding the database itself (a SQLite file's writer, a lock on
PostgreSQL's events table) from the test, so that the appends made meanwhile queue.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event

from mathable.web.infra.store import ConflictError, EventStore
from support.waiting import eventually

SPEC: dict[str, Any] = {"variant": "classic"}
CLOCKED: dict[str, Any] = {"variant": "classic", "clock": {"minutes": 10}}


@pytest.fixture
def store(database_url: str) -> Iterator[EventStore]:
    opened = EventStore(database_url)
    try:
        yield opened
    finally:
        opened.close()


def count_commits(store: EventStore) -> list[int]:
    """A counter of the store's committed transactions (SQLAlchemy's ``commit`` event)."""
    commits = [0]

    def committed(_connection: Any) -> None:
        commits[0] += 1

    event.listen(store.engine, "commit", committed)
    return commits


def queued(store: EventStore) -> int:
    """How many appends wait for the next group."""
    with store.groups.lock:
        return len(store.groups.waiting)


@contextmanager
def database_held(store: EventStore) -> Iterator[None]:
    """Hold every write to the events until the block ends."""
    with store.writing() as connection:
        if store.postgresql:
            connection.exec_driver_sql("LOCK TABLE events IN EXCLUSIVE MODE")
        yield


class Appender(threading.Thread):
    """One append in a thread of its own; what it raised, if anything."""

    def __init__(self, store: EventStore, game_id: str, seq: int, action: str, **kw: Any):
        super().__init__()
        self.store, self.args_ = store, (game_id, seq, action, 0)
        self.kw = kw
        self.raised: BaseException | None = None

    def run(self) -> None:
        try:
            self.store.append(*self.args_, **self.kw)
        except BaseException as exc:
            self.raised = exc


def append_together(store: EventStore, appenders: list[Appender]) -> None:
    """Start the appends while the database is held, one after the other: the first one
    writes its group (of itself) once it is let go, the others wait in their order and
    are written as one group after it."""
    with database_held(store):
        appenders[0].start()
        assert eventually(lambda: store.groups.leading, 30.0)
        for count, each in enumerate(appenders[1:], start=1):
            each.start()
            assert eventually(partial(lambda n: queued(store) == n, count), 30.0)
    for each in appenders:
        each.join(30)
        assert not each.is_alive()


def test_appends_made_during_a_write_are_committed_in_one_group(store: EventStore) -> None:
    games = [f"g{i}" for i in range(6)]
    for game_id in games:
        store.create(game_id, SPEC, [])
    commits = count_commits(store)
    appenders = [Appender(store, game_id, 0, "pass") for game_id in games]
    append_together(store, appenders)
    assert [each.raised for each in appenders] == [None] * 6
    assert commits[0] == 1 + 2  # the test's own hold, the first append, then the other five
    for game_id in games:
        loaded = store.load(game_id)
        assert loaded is not None and loaded.actions == ["pass"]


def test_a_taken_seq_in_a_group_is_refused_alone(database_url: str, store: EventStore) -> None:
    other = EventStore(database_url)  # another server process
    try:
        for game_id in ("a", "b", "c", "d"):
            store.create(game_id, SPEC, [])
        other.append("c", 0, "exchange 1", 1)  # took game c's action 0 first
        appenders = [Appender(store, g, 0, "pass") for g in ("a", "b", "c", "d")]
        append_together(store, appenders)
    finally:
        other.close()
    assert [type(each.raised) for each in appenders] == [
        type(None),
        type(None),
        ConflictError,
        type(None),
    ]
    for game_id, actions in (("a", ["pass"]), ("b", ["pass"]), ("c", ["exchange 1"])):
        loaded = store.load(game_id)
        assert loaded is not None and loaded.actions == actions
    loaded = store.load("d")
    assert loaded is not None and loaded.actions == ["pass"]
    store.append("c", 1, "pass", 0)  # the refused one left nothing behind


def test_an_ending_event_in_a_group_stops_its_own_games_clock_only(store: EventStore) -> None:
    for game_id in ("first", "ends", "goes-on"):
        store.create(game_id, CLOCKED, [])
    appenders = [
        Appender(store, "first", 0, "pass"),
        Appender(store, "ends", 0, "pass", ends=True),
        Appender(store, "goes-on", 0, "pass"),
    ]
    append_together(store, appenders)
    assert [each.raised for each in appenders] == [None] * 3
    assert sorted(store.running_clocks()) == ["first", "goes-on"]


def test_a_group_that_fails_is_written_one_by_one_each_with_its_answer(
    store: EventStore,
) -> None:
    store.create("g", SPEC, [])
    appenders = [Appender(store, "g", 0, "first")]  # alone: the first group
    appenders += [Appender(store, "g", 1, "pass"), Appender(store, "g", 1, "end")]
    appenders += [Appender(store, "g", 2, "end")]
    append_together(store, appenders)
    # two appends of event 1 in one group: the group fails; alone, the first one stands
    assert appenders[0].raised is None and appenders[1].raised is None
    assert isinstance(appenders[2].raised, ConflictError)
    assert appenders[3].raised is None
    loaded = store.load("g")
    assert loaded is not None and loaded.actions == ["first", "pass", "end"]


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 2), st.sampled_from(["pass", "end"])),
        min_size=2,
        max_size=8,
    )
)
def test_each_event_of_a_group_is_stored_once_as_one_append_gave_it(
    tmp_path: Path, appends: list[tuple[int, int, str]]
) -> None:
    """However the appends of a group collide, each (game, seq) is stored once, with the
    action of the one append that answered it stored; every other one is refused."""
    store = EventStore(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        prefix = uuid.uuid4().hex
        games = [f"{prefix}-{i}" for i in range(3)]
        for game_id in games:
            store.create(game_id, SPEC, [])
        appenders = [Appender(store, games[g], seq, action) for g, seq, action in appends]
        append_together(store, appenders)
        stored: dict[tuple[int, int], str] = {}
        for g, game_id in enumerate(games):
            loaded = store.load(game_id)
            assert loaded is not None
            wanted = sorted({seq for gg, seq, _a in appends if gg == g})
            # a game's events are stored by seq, whatever gaps the appends leave
            assert len(loaded.actions) == len(wanted)
            stored.update(
                ((g, seq), action) for seq, action in zip(wanted, loaded.actions, strict=True)
            )
        answered: dict[tuple[int, int], list[str]] = {}
        for (g, seq, action), each in zip(appends, appenders, strict=True):
            if each.raised is None:
                answered.setdefault((g, seq), []).append(action)
            else:
                assert isinstance(each.raised, ConflictError)
        assert {key: [action] for key, action in stored.items()} == answered
    finally:
        store.close()


def test_appends_from_the_event_loop_are_written_by_the_writer_in_groups(
    database_url: str, store: EventStore
) -> None:
    """``append_async`` (the server's way, off the event loop): the events queued while
    the writer waits on the database go in one group, and the loop goes on meanwhile;
    each await answers for its own event (a taken seq: ConflictError, nothing left
    behind)."""
    games = [f"w{i}" for i in range(5)]
    for game_id in games:
        store.create(game_id, SPEC, [])
    commits = count_commits(store)

    async def together() -> None:
        with database_held(store):
            first = asyncio.ensure_future(store.append_async(games[0], 0, "pass", 0))
            assert await asyncio.to_thread(eventually, lambda: store.groups.leading, 30.0)
            rest = [
                asyncio.ensure_future(store.append_async(game_id, 0, "pass", 0))
                for game_id in games[1:]
            ]

            def all_queued() -> bool:
                return store.groups.queued.qsize() == len(rest)

            assert await asyncio.to_thread(eventually, all_queued, 30.0)  # the loop is free
        await asyncio.gather(first, *rest)

    asyncio.run(together())
    assert commits[0] == 1 + 2  # the test's own hold, the first append, then the other four
    for game_id in games:
        loaded = store.load(game_id)
        assert loaded is not None and loaded.actions == ["pass"]

    other = EventStore(database_url)  # another server process
    try:
        other.append("w3", 1, "exchange 1", 1)  # took game w3's action 1 first

        async def raced() -> list[BaseException | None]:
            answers = await asyncio.gather(
                *(store.append_async(game_id, 1, "pass", 0) for game_id in games),
                return_exceptions=True,
            )
            return [each if isinstance(each, BaseException) else None for each in answers]

        raised = asyncio.run(raced())
    finally:
        other.close()
    assert [type(each) for each in raised] == [type(None)] * 3 + [ConflictError, type(None)]
    loaded = store.load("w3")
    assert loaded is not None and loaded.actions == ["pass", "exchange 1"]
    store.append("w3", 2, "pass", 0)  # the refused one left nothing behind


def test_closing_the_store_writes_what_the_loop_queued_first(database_url: str) -> None:
    opened, again = EventStore(database_url), EventStore(database_url)
    opened.create("q", SPEC, [])

    stored: list[str] = []

    async def close() -> None:
        await asyncio.to_thread(opened.close)
        loaded = again.load("q")  # as the close left it
        assert loaded is not None
        stored.extend(loaded.actions)

    async def queue_and_close() -> None:
        # tasks start in order: the three appends are handed over before the close
        appends = [opened.append_async("q", seq, "pass", 0) for seq in range(3)]
        await asyncio.gather(*appends, close())

    try:
        asyncio.run(queue_and_close())
    finally:
        again.close()
    assert stored == ["pass"] * 3
    assert opened.groups._writer is None  # none started again after the close


def test_an_append_whose_caller_stopped_waiting_still_settles_in_the_writer(
    database_url: str, store: EventStore
) -> None:
    """The caller of ``append_async`` is cancelled while its write waits, and the write
    then fails on a seq another process took: the store does not keep that seq as its
    own, so the other process's event is news to it (the feed reports it)."""
    other = EventStore(database_url)  # another server process
    try:
        store.create("c", SPEC, [])
        other.append("c", 0, "exchange 1", 1)  # took action 0 first

        async def cancelled_while_held() -> None:
            with database_held(store):
                waiting = asyncio.ensure_future(store.append_async("c", 0, "pass", 0))
                assert await asyncio.to_thread(eventually, lambda: store.groups.leading, 30.0)
                waiting.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await waiting
            assert await asyncio.to_thread(eventually, lambda: not store.groups.leading, 30.0)

        asyncio.run(cancelled_while_held())
    finally:
        other.close()
    assert not store._is_mine("c", 1)  # the other's event, news here
    loaded = store.load("c")
    assert loaded is not None and loaded.actions == ["exchange 1"]
