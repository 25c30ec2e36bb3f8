"""A gate that lets a few jobs run at once and the most urgent waiting one in next.

A process pool's own queue is first come, first served: a person's master opponent
queued behind two whole-game analyses waits for both. In front of the long jobs' pool
(:class:`~.workers.Workers`) this gate hands a free worker to the waiting job of the
lowest priority number first, and among equals to the one that came first, so the pool's
own queue stays empty (issue 35: the wait of a slow decision was not bounded).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
from collections.abc import AsyncIterator


class PriorityGate:
    """At most ``slots`` holders at once; waiters enter by priority (lower first), then
    by arrival. Used from one event loop."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError(f"slots={slots}: expected 1 or more")
        self.slots = slots
        self.busy = 0
        """Holders now (at most ``slots``)."""
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._arrivals = itertools.count()

    @property
    def waiting(self) -> int:
        """Jobs waiting for a slot."""
        return sum(1 for _, _, granted in self._waiting if not granted.done())

    @contextlib.asynccontextmanager
    async def slot(self, priority: int) -> AsyncIterator[None]:
        """Hold a slot for the block, after every waiter more urgent than ``priority``
        (or as urgent and earlier); a waiter cancelled leaves its place, or passes on the
        slot it was just given."""
        if self.busy < self.slots and not self.waiting:
            self.busy += 1
        else:
            granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            entry = (priority, next(self._arrivals), granted)
            heapq.heappush(self._waiting, entry)
            try:
                await granted
            except asyncio.CancelledError:
                if granted.done() and not granted.cancelled():
                    self._release()  # given the slot as it was cancelled: pass it on
                else:
                    self._waiting.remove(entry)
                    heapq.heapify(self._waiting)
                raise
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        """A holder leaves: its slot goes to the most urgent waiter, or is freed."""
        while self._waiting:
            _, _, granted = heapq.heappop(self._waiting)
            if not granted.done():
                granted.set_result(None)  # the slot passes on: ``busy`` is unchanged
                return
        self.busy -= 1
