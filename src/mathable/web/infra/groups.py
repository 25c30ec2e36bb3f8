"""Group commits of the event store's appends (issue 34, cheaper actions).

The appends that arrive while another write is under way wait for it; then the first of
them writes them all in one transaction: one ``BEGIN``, one ``COMMIT`` and, on a SQLite
file, one flush of the log to the disk for the group, as durable as one each. An append
that finds no write under way writes at once (alone): no append waits for company.

Appends come from threads (:meth:`GroupCommit.commit`, which blocks) or from an event
loop (:meth:`GroupCommit.hand_over`): those go to one writer thread, which commits what
waits for it as one group and wakes each loop once per group, where a worker thread's
trip per append cost the server more CPU than the insert itself.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any


@dataclass
class Append:
    """One event waiting to be written in a group (:meth:`EventStore.append`)."""

    row: dict[str, Any]
    """The ``events`` row."""
    ends: bool
    """The event ends its game (its ``running_clock`` is cleared with it)."""
    done: bool = False
    """Its group's write is over: its caller may go on."""
    written: bool = False
    """Committed."""
    error: BaseException | None = None
    """Why it was not written."""
    mine_before: int | None = None
    """The store's own head of the game before it (put back if it was not written)."""


Handed = tuple[Append, asyncio.AbstractEventLoop, "asyncio.Future[None]"]
"""An append handed over by an event loop, with the loop and the future it awaits."""


def _resolve(futures: list[asyncio.Future[None]]) -> None:
    """Wake the appends whose group was written (on their event loop)."""
    for future in futures:
        if not future.done():
            future.set_result(None)


class GroupCommit:
    """The appends of one store waiting to be written, written together by
    ``write_group`` (which sets each one's :attr:`~Append.written` or
    :attr:`~Append.error` and never raises)."""

    def __init__(self, write_group: Callable[[list[Append]], None]) -> None:
        self.write_group = write_group
        self.waiting: list[Append] = []
        """Appends waiting for the next group."""
        self.lock = threading.Condition()
        """Guards :attr:`waiting` and :attr:`leading`; wakes the waiting appends."""
        self.leading = False
        """Whether an append is writing a group now (the others wait for it)."""
        self.queued: queue.SimpleQueue[Handed | None] = queue.SimpleQueue()
        """What the event loops handed to the writer thread (``None``: stop)."""
        self._writer: threading.Thread | None = None

    def commit(self, pendings: list[Append]) -> None:
        """Write ``pendings`` and return once they are written or refused (each one's
        :attr:`~Append.written` and :attr:`~Append.error` say which)."""
        group: list[Append] = []
        with self.lock:
            self.waiting.extend(pendings)
            while self.leading and not all(each.done for each in pendings):
                self.lock.wait()
            if not all(each.done for each in pendings):  # no group is being written
                self.leading = True
                group, self.waiting = self.waiting, []
        if group:
            try:
                self.write_group(group)
            finally:
                with self.lock:
                    for each in group:
                        each.done = True
                    self.leading = False
                    self.lock.notify_all()

    def hand_over(
        self, pending: Append, loop: asyncio.AbstractEventLoop, written: asyncio.Future[None]
    ) -> None:
        """Give ``pending`` to the writer thread (started when first needed), which sets
        ``written`` on ``loop`` once its group's write is over. Never blocks."""
        if self._writer is None:
            with self.lock:
                if self._writer is None:
                    self._writer = threading.Thread(
                        target=self._write_handed, name="mathable-event-writer", daemon=True
                    )
                    self._writer.start()
        self.queued.put((pending, loop, written))

    def _write_handed(self) -> None:
        """The writer thread: commit all that the loops handed over and that waits, as one
        group, then wake each loop once (until ``None``, from :meth:`close`)."""
        stopping = False
        while not stopping:
            first = self.queued.get()
            if first is None:
                return
            batch = [first]
            while True:
                try:
                    handed = self.queued.get_nowait()
                except queue.Empty:
                    break
                if handed is None:
                    stopping = True
                    break
                batch.append(handed)
            try:
                self.commit([pending for pending, _, _ in batch])
            except BaseException as exc:  # never a waiter left hanging
                for pending, _, _ in batch:
                    if not pending.written and pending.error is None:
                        pending.error = exc
            by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Future[None]]] = {}
            for _, loop, written in batch:
                by_loop.setdefault(loop, []).append(written)
            for loop, futures in by_loop.items():
                with suppress(RuntimeError):  # that loop is closed: nobody waits
                    loop.call_soon_threadsafe(_resolve, futures)

    @contextmanager
    def idle(self) -> Iterator[None]:
        """Held while no group is being written (a group under way finishes first)."""
        with self.lock:
            while self.leading:
                self.lock.wait()
            yield

    def close(self) -> None:
        """Write what was handed over, then stop the writer thread."""
        writer, self._writer = self._writer, None
        if writer is not None:
            self.queued.put(None)
            writer.join(10)
