"""The service between HTTP and the engine (:class:`GameService`): every game the server
knows, backed by the event store, as one object the routes call.

It never asks which game it holds: games are created by name through the registry, and
all it sends is a game's :class:`~mathable.engine.protocol.View` and its ``game_type``
capabilities. Routes stay thin: they call its methods and turn
:class:`~mathable.web.infra.errors.ServiceError` into a 4xx answer.

It is built in layers, one concern each, every layer using only those below it (as
lila's round module has its ``Player``, ``Finisher``, ``Rematcher`` and ``JsonView``):

- :mod:`.live`: the games in memory over the store, caught up with other processes,
  their listeners and broadcasts (the layers above answer its hooks);
- :mod:`.views`: what each seat and watcher sees;
- :mod:`.finisher`: flags and endings on the clock;
- :mod:`.computers`: the computer players' turns and hints;
- :mod:`.leaving`: resigning, aborting, claims and presence;
- :mod:`.moves`: a seat's action or undo;
- :mod:`.creating`: new games, invitations, imported records;
- :mod:`.rematches`: rematches;
- :mod:`.records`: records, replays, analyses, score sheets and the lists of games;
- this module: the start and stop of it all (the app's lifespan).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor

from mathable.web.infra.errors import ServiceError
from mathable.web.rounds.records import Records

log = logging.getLogger(__name__)


class GameService(Records):
    """Every game the server knows, backed by the event store: the façade the routes call,
    with the app's start and stop."""

    # -- start and stop (the app's lifespan) --------------------------------------------

    async def start(self) -> None:
        """Open the worker pool; from now on computer players move in the background,
        and every stored game whose computer player is to move is resumed."""
        self.workers.start()
        self.computer_workers.start()
        self._started = True
        self._loop = asyncio.get_running_loop()
        if self.store.postgresql:
            # the store's calls (asyncio.to_thread) wait on the server, mostly on its
            # commits: more of them at once than the default of cores + 4 (PostgreSQL
            # groups concurrent commits). SQLite writes one at a time: the default stays
            self._loop.set_default_executor(
                ThreadPoolExecutor(self.STORE_THREADS, thread_name_prefix="mathable-store")
            )
        self.store.watch(self.on_store_change)  # other processes' changes (issue 13)
        self.clocks.start()
        self.presence.start(self._watched)
        self._resuming = asyncio.create_task(self.resume())

    STORE_THREADS = 16
    """Threads for the store's calls on PostgreSQL (the event loop's default executor;
    SQLAlchemy's pool holds 15 connections)."""

    async def close(self) -> None:
        """Stop the background work (computer players, the resume) and the pool."""
        self._started = False
        self.store.unwatch()
        await asyncio.to_thread(self.store.flush_notes)  # the other processes hear the last
        self._loop = None
        tasks = [t for t in (self._resuming, *self._bot_tasks.values()) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.clocks.close()
        await self.presence.close()
        await asyncio.to_thread(self.workers.shutdown)
        await asyncio.to_thread(self.computer_workers.shutdown)

    async def resume(self, page: int = 200) -> None:
        """Find the stored games whose computer player is to move (after a crash or a
        restart) and set their bots going, a page of games at a time: games without a
        computer player are skipped unread, the others are replayed in the worker pool,
        and only those with a bot to move are kept in memory."""
        offset = 0
        while True:
            rows = await asyncio.to_thread(self.store.games_page, offset, page)
            waiting = [
                game_id
                for game_id, seats in rows
                if any(s.get("bot") for s in seats) and game_id not in self._bot_tasks
            ]
            summaries = await asyncio.gather(*(self._stored_summary(i) for i in waiting))
            for found in summaries:
                if found is None or found["over"]:
                    continue
                if found["bots"][found["players"].index(found["to_move"])] is not None:
                    try:
                        self.get(found["id"])  # loaded: its bot set going
                    except ServiceError:
                        continue
            if len(rows) < page:
                break
            offset += page
        for game_id in await asyncio.to_thread(self.store.running_clocks):  # their timers
            if self.clocks.due(game_id) is None:
                with contextlib.suppress(ServiceError):
                    live = await asyncio.to_thread(self.get, game_id)
                    if live.over:  # ended without its flag cleared (before it existed)
                        await asyncio.to_thread(self.store.stop_clock, game_id)
