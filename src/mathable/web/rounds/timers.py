"""One clock timer per server process (issue 15, clocks at scale): a heap of (flag instant,
game) for the games whose clock runs, and one task that sleeps until the earliest.

The service tells the scheduler a game's next flag instant whenever its turn changes
(:meth:`ClockScheduler.set`; None once its clock stops); an instant replaced is left in
the heap and skipped when it comes up (lazy deletion), so a move costs one push, and the
heap is rebuilt from the current instants once it holds twice as many as there are games
(days-long correspondence instants would otherwise pile up). At the
instant the service's ``fire(game_id)`` runs: it stores the flag if it is due (the
store's seq check lets one process only store it, whichever processes fire) or sets the
game's next instant. The task sleeps at most ``longest`` seconds at a time, so a clock
set forward (NTP, the tests' moved clock) is noticed within that: one look at the heap's
top, whatever the number of games.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import threading
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


class ClockScheduler:
    """The flag instants (seconds on the ``now`` clock) of this process's running clocks."""

    def __init__(
        self,
        now: Callable[[], float],
        fire: Callable[[str], Awaitable[None]],
        longest: float = 1.0,
    ) -> None:
        self.now = now
        self.fire = fire
        self.longest = longest
        self._heap: list[tuple[float, str]] = []
        self._due: dict[str, float] = {}
        """Each game's current instant (a heap entry that differs is stale)."""
        self._lock = threading.Lock()  # set() comes from the loop and from threads
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None

    def __len__(self) -> int:
        return len(self._due)

    def due(self, game_id: str) -> float | None:
        """The game's flag instant (None: not scheduled)."""
        with self._lock:
            return self._due.get(game_id)

    def set(self, game_id: str, at: float | None) -> None:
        """The game's next flag instant (None: its clock has stopped). Thread-safe."""
        with self._lock:
            if at is None:
                self._due.pop(game_id, None)
                return
            if self._due.get(game_id) == at:
                return
            self._due[game_id] = at
            heapq.heappush(self._heap, (at, game_id))
            if len(self._heap) > 2 * len(self._due) + 64:  # mostly replaced instants
                self._heap = [(when, game) for game, when in self._due.items()]
                heapq.heapify(self._heap)
            earliest = self._heap[0][0] == at
        if earliest and self._loop is not None and self._wake is not None:
            with contextlib.suppress(RuntimeError):  # a loop closing
                self._loop.call_soon_threadsafe(self._wake.set)

    def start(self) -> None:
        """Run the timer on the running event loop."""
        if self._task is None:
            self._loop = asyncio.get_running_loop()
            self._wake = asyncio.Event()
            self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._task = self._loop = self._wake = None

    def _pop_due(self, now: float) -> tuple[list[str], float | None]:
        """The games whose instant has come (taken off), and the next instant."""
        fired: list[str] = []
        with self._lock:
            while self._heap:
                at, game_id = self._heap[0]
                if self._due.get(game_id) != at:
                    heapq.heappop(self._heap)  # replaced or stopped
                    continue
                if at > now:
                    return fired, at
                heapq.heappop(self._heap)
                del self._due[game_id]
                fired.append(game_id)
        return fired, None

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            self._wake.clear()  # before looking: a set() from now on wakes the wait
            fired, upcoming = self._pop_due(self.now())
            for game_id in fired:
                try:
                    await self.fire(game_id)
                except asyncio.CancelledError:
                    raise
                except Exception:  # the database away a moment: look again soon
                    log.exception("the clock of game %s", game_id)
                    self.set(game_id, self.now() + self.longest)
            if fired:
                continue
            wait = self.longest if upcoming is None else upcoming - self.now()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), min(max(wait, 0.001), self.longest))
