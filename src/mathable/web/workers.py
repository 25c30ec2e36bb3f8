"""The worker pool: the server's CPU work (computer players' turns, hints, analysis) runs
in other processes, so a cheap request never waits behind a search on the event loop.

Each job is a top-level function fed with picklable inputs: a bot's level, its seed and
the seat's :class:`~mathable.engine.protocol.View` (a bot sees nothing else); a view for
hints; a game record's JSON text for an analysis; a stored game's creation row and
actions for the summary the list of games shows. Workers are started by the forkserver
(or spawned), never forked from the threaded server, and import the engine once.

The pool is started and shut down by the app's lifespan (:meth:`Workers.start`,
:meth:`Workers.shutdown`). Without it (an app run without its lifespan, or a size of 0)
jobs run on a thread of the server process instead: the one place a process pool is not
used, because nothing would shut it down.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from typing import Any, TypeVar

from mathable.ai import get_bot
from mathable.ai.analysis import analysis_report
from mathable.ai.hints import Hint, hints
from mathable.engine.actions import Action
from mathable.engine.protocol import Game, HouseRules, View
from mathable.games import registry
from mathable.games.registry import new_game

T = TypeVar("T")
log = logging.getLogger(__name__)


def default_size() -> int:
    """One worker per core but one (the event loop keeps a core), at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


def replay(spec: dict[str, Any], names: list[str], actions: list[str]) -> Game:
    """A stored game rebuilt: its deal from the creation row's ``spec``, then its
    actions replayed."""
    game = new_game(
        spec["variant"],
        names,
        seed=spec["seed"],
        house_rules=HouseRules.from_dict(spec.get("house_rules") or {}),
        rounds=spec.get("rounds", 1),
        setup=spec.get("setup"),
    )
    for text in actions:
        game.apply(game.parse_action(text))
    return game


def summary_data(
    game_id: str, created: float, game: Game, seats: list[dict[str, Any]], mode: str
) -> dict[str, Any]:
    """A game in the list of games: who plays, the scores, whether it is over."""
    return {
        "id": game_id,
        "created": created,
        "variant": game.name,
        "players": [s["name"] for s in seats],
        "bots": [s["bot"] for s in seats],
        "scores": list(game.scores),
        "actions": len(game.log),
        "over": game.is_over,
        "to_move": None if game.is_over else game.players[game.to_move],
        "mode": mode,
    }


# -- the jobs (top-level functions: a worker process imports them by name) -------------


def summarise(
    game_id: str,
    created: float,
    spec: dict[str, Any],
    seats: list[dict[str, Any]],
    actions: list[str],
) -> dict[str, Any]:
    """The summary of a stored game, replayed (:func:`summary_data`)."""
    game = replay(spec, [s["name"] for s in seats], actions)
    return summary_data(game_id, created, game, seats, spec.get("mode", "screen"))


def bot_move(level: str, seed: int, view: View) -> Action:
    """The action a computer player of ``level`` picks from its seat's view."""
    return get_bot(level, seed).act(view)


def hint_turns(view: View) -> list[Hint]:
    """The best turns for the seat of ``view`` (the hint search)."""
    return hints(view)


def analyse_record(record: str) -> dict[str, Any]:
    """The analysis of the game a record (JSON text) holds."""
    return analysis_report(registry.from_record(record))


def worker_pid() -> int:
    """The id of the process a job runs in (which process did the work)."""
    return os.getpid()


# -- the pool ------------------------------------------------------------------------


def _context() -> BaseContext:
    """Forkserver where the platform has it (a clean single-threaded parent that has
    imported this module), else spawn: never fork the threaded server itself."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        return context
    return multiprocessing.get_context("spawn")


class Workers:
    """A process pool of ``size`` workers (0: a thread of this process, see above)."""

    def __init__(self, size: int | None = None) -> None:
        self.size = default_size() if size is None else max(0, size)
        self._pool: ProcessPoolExecutor | None = None
        self._breaks = 0

    @property
    def started(self) -> bool:
        """Whether jobs go to worker processes."""
        return self._pool is not None

    def start(self) -> None:
        """Open the pool (its processes start with the first job)."""
        if self._pool is None and self.size > 0:
            self._pool = ProcessPoolExecutor(self.size, mp_context=_context())

    async def run(self, job: Callable[..., T], *args: Any) -> T:
        """``job(*args)`` in a worker, awaited without blocking the event loop. A pool
        broken by a worker's death is replaced and the job run again; if the new one
        breaks too before any job succeeded (workers that cannot start), the jobs run
        on threads from then on, so the server still answers."""
        loop = asyncio.get_running_loop()
        for _ in range(2):
            pool = self._pool
            if pool is None:
                break
            try:
                result = await loop.run_in_executor(pool, job, *args)
            except BrokenProcessPool:
                self._replace(pool)
                continue
            self._breaks = 0
            return result
        return await asyncio.to_thread(job, *args)

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """A new pool for a broken one (once per break), or none after two breaks in a
        row."""
        if self._pool is not broken:
            return  # replaced already by another job that saw it break
        broken.shutdown(wait=False, cancel_futures=True)
        self._breaks += 1
        if self._breaks >= 2:
            log.warning("the worker processes keep failing: jobs run on threads instead")
            self._pool = None
        else:
            log.warning("a worker process died: the pool is restarted")
            self._pool = ProcessPoolExecutor(self.size, mp_context=_context())

    def shutdown(self) -> None:
        """Stop the pool: queued jobs are cancelled, running ones finish."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
