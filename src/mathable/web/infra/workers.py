"""The worker pool: the server's CPU work (computer players' turns, hints, analysis) runs
in other processes, so a cheap request never waits behind a search on the event loop.

Each job is a top-level function fed with picklable inputs: a bot's level, its seed and
the seat's :class:`~mathable.engine.protocol.View` (a bot sees nothing else); a view for
hints; a game record's JSON text for an analysis; a stored game's creation row and
actions for the summary the list of games shows. Workers are started by the forkserver
(or spawned), never forked from the threaded server, and import the engine once. Each
worker watches the server and ends with it, killed or not (:func:`watch_server`), and the
forkserver and the resource tracker end once the workers have (issue 30).

The pool is started and shut down by the app's lifespan (:meth:`Workers.start`,
:meth:`Workers.shutdown`). Without it (an app run without its lifespan, or a size of 0)
jobs run on a thread of the server process instead: the one place a process pool is not
used, because nothing would shut it down.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import select
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from typing import TYPE_CHECKING, Any, TypeVar

from mathable.ai import Bot, get_bot, is_slow, with_cap
from mathable.ai.analysis import analysis_report
from mathable.ai.equity import DEPTHS, EXPERT_DEPTH
from mathable.ai.hints import Hint, hints
from mathable.ai.kept_jobs import analyse_kept_log
from mathable.engine.actions import META_KINDS, Abort, Action, Leave, Place, Shake, action_kind
from mathable.engine.errors import NotationError
from mathable.engine.notation import format_action, parse_action
from mathable.engine.protocol import Game, HouseRules, TargetNames, View
from mathable.games import registry
from mathable.games.registry import new_game

from .priority import PriorityGate

if TYPE_CHECKING:  # (the worker processes never load the store)
    from mathable.web.infra.store import StoredSeat

T = TypeVar("T")
log = logging.getLogger(__name__)


def default_size() -> int:
    """One worker per core but one (the event loop keeps a core), at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


WORKER_NICENESS = 10
"""How much lower the workers' CPU priority is than the server's (``nice``)."""


def yield_to_the_server() -> None:
    """Run at a lower CPU priority than the server process: when searches and analyses
    take every core, the event loop still gets one at once, so requests and moves are
    answered in milliseconds while the long jobs take a little longer."""
    with contextlib.suppress(OSError):  # a system that refuses: the same priority
        os.nice(WORKER_NICENESS)


WATCH_EVERY = 1.0
"""Seconds between two looks at the server where a process cannot wait on it (no
``pidfd_open``: not Linux)."""


def watch_server(server: int) -> threading.Thread:
    """End this worker as soon as the server process ``server`` ends, however it ends
    (SIGKILL too: no shutdown code of the server runs then). Without it a worker blocks
    for ever on the pool's queue, whose write end it holds itself, and keeps the
    forkserver and the resource tracker alive with it (issue 30): once the workers are
    gone, those two see their pipes close and exit on their own.

    On Linux the thread waits on a pidfd of the server (no polling); elsewhere it looks
    every :data:`WATCH_EVERY` seconds."""

    def wait() -> None:
        try:
            handle = os.pidfd_open(server)
        except (AttributeError, OSError):  # not Linux, or gone already
            while _running(server):
                time.sleep(WATCH_EVERY)
        else:
            select.select([handle], [], [])
        os._exit(1)  # the job under way has nobody to answer

    thread = threading.Thread(target=wait, name="watch-server", daemon=True)
    thread.start()
    return thread


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists (a zombie too, until it is reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def start_worker(server: int) -> None:
    """A worker's start (the pool's initializer): a lower priority than the server's,
    and an end with the server's (:func:`watch_server`)."""
    yield_to_the_server()
    watch_server(server)


LONG_NICENESS = 15
"""The CPU priority of the workers of the long jobs (:data:`LONG_JOBS`): below those that
answer a person at once (:data:`WORKER_NICENESS`), above the games between computers."""


def start_long_worker(server: int) -> None:
    """A long jobs' worker's start: :func:`start_worker` at :data:`LONG_NICENESS`."""
    with contextlib.suppress(OSError):
        os.nice(LONG_NICENESS)
    watch_server(server)


UNVERSIONED = {"classic": 2, "junior": 2, "junior-numbers": 2, "quattro": 1}
"""The rules versions of the games stored before a game kept its own (``rules_version``
in its spec, from 2026-11-28, issue 31): such a game replays by the rules it was played
by, whatever changed since."""


def rules_version(spec: dict[str, Any]) -> int | None:
    """The rules version a stored game is played by (None: its game's current one)."""
    version = spec.get("rules_version")
    if isinstance(version, int) and not isinstance(version, bool):
        return version
    return UNVERSIONED.get(str(spec.get("variant")))


def replay(spec: dict[str, Any], names: list[str], actions: list[str]) -> Game:
    """A stored game rebuilt: its deal from the creation row's ``spec`` (by the rules
    version it was begun with), then its actions replayed."""
    game = new_game(
        spec["variant"],
        names,
        seed=spec["seed"],
        house_rules=HouseRules.from_dict(spec.get("house_rules") or {}),
        rounds=spec.get("rounds", 1),
        setup=spec.get("setup"),
        version=rules_version(spec),
    )
    for text in actions:
        apply_event(game, text)
    return game


UNDO = "undo"
"""A stored event that takes actions back (house rule ``allow_undo``, ruling V-B):
``undo`` takes back one action, ``undo 3`` three. It is an event of the store's log,
not an action of the game's (its log keeps what stands), so replaying the store gives
the game as its players left it, and the seq of events only grows.

Ruling O5: an undo then shakes the bag with the server's fresh entropy, stored in the
event (``undo shake 8123``, ``undo 3 shake 8123``, :func:`undo_event`), so the tokens a
turn taken back drew are not drawn again in the same order, and replaying the store still
gives the same game (the engine's :class:`~mathable.engine.actions.Shake`). The forms
without a shake, stored before, still load as they were played."""


def undo_event(count: int, shake: int | None = None) -> str:
    """The stored event of an undo of ``count`` actions, shaking the bag with the entropy
    ``shake`` after (ruling O5): ``undo``, ``undo 3``, ``undo shake 8123``..."""
    words = [UNDO] if count == 1 else [UNDO, str(count)]
    if shake is not None:
        words.append(format_action(Shake(shake), _NO_CELLS))
    return " ".join(words)


def undo_parts(text: str) -> tuple[int, int | None] | None:
    """How many actions an ``undo`` event takes back and the entropy its shake holds
    (None: an event stored before ruling O5, no shake); None for any other text."""
    words = text.split()
    if not words or words[0] != UNDO or len(words) > 4:
        return None
    shake: int | None = None
    if len(words) >= 3:
        try:
            action = parse_action(" ".join(words[-2:]), _NO_CELLS)
        except NotationError:
            return None
        if not isinstance(action, Shake):
            return None
        shake, words = action.entropy, words[:-2]
    if len(words) == 1:
        return 1, shake
    if len(words) == 2 and words[1].isdigit() and 0 < int(words[1]) <= 100_000:
        return int(words[1]), shake
    return None


def undo_count(text: str) -> int | None:
    """How many actions an ``undo`` event takes back; None for any other text."""
    parts = undo_parts(text)
    return None if parts is None else parts[0]


ENDINGS = META_KINDS
"""The stored events of a seat leaving or of an abort: ``flag 1`` (seat 1 ran out of time),
``resign 0``, ``claim 1`` (seat 1 was away too long on its turn: another player claimed,
:mod:`.presence`), ``abort 0``. They are the engine's own actions (:class:`Leave`,
:class:`Abort`, local ruling L1): :func:`apply_event` applies them like any other."""

_NO_CELLS = TargetNames(())
"""No cell names: an ending event names none (a placement does not parse against it)."""


def ending_event(text: str) -> tuple[str, int] | None:
    """``(kind, seat)`` of an ending event (:data:`ENDINGS`), read by the engine's
    notation; None for any other text."""
    try:
        action = parse_action(text, _NO_CELLS)
    except NotationError:
        return None
    if isinstance(action, Leave | Abort):
        return action_kind(action), action.seat
    return None


def apply_event(game: Game, text: str) -> None:
    """Apply one stored event: an action in notation (a seat leaving or an abort too),
    or an undo (:data:`UNDO`), with its shake of the bag after the last action taken
    back when it holds one (ruling O5)."""
    parts = undo_parts(text)
    if parts is None:
        game.apply(game.parse_action(text))
        return
    count, shake = parts
    for left in range(count, 0, -1):
        game.undo(shake if left == 1 else None)


def summary_data(
    game_id: str,
    created: float,
    game: Game,
    seats: Sequence[StoredSeat],
    mode: str,
    events: int | None = None,
) -> dict[str, Any]:
    """A game in the list of games: who plays, the scores, whether it is over;
    ``actions`` counts its stored events (undos too: :data:`UNDO`), as the store does."""
    return {
        "id": game_id,
        "created": created,
        "variant": game.name,
        "players": [s["name"] for s in seats],
        "bots": [s["bot"] for s in seats],
        "scores": list(game.scores),
        "actions": len(game.log) if events is None else events,
        "over": game.is_over,
        "to_move": None if game.is_over else game.players[game.to_move],
        "mode": mode,
    }


# -- the jobs (top-level functions: a worker process imports them by name) -------------


def summarise(
    game_id: str,
    created: float,
    spec: dict[str, Any],
    seats: list[StoredSeat],
    actions: list[str],
) -> dict[str, Any]:
    """The summary of a stored game, replayed (:func:`summary_data`)."""
    game = replay(spec, [s["name"] for s in seats], actions)
    return summary_data(game_id, created, game, seats, spec.get("mode", "screen"), len(actions))


BOT_CAP_MS = 1_000
"""The wall-clock safety cap of a computer player's decision on the server, lower than
the levels' own (a person waits for it): the expert's counted budgets take tens of ms
a turn, so it bites only on an overloaded machine, and is logged when it does. It counts
from when the decision was queued (:func:`bot_decision`), so the wait for a free worker
is inside it, not on top of it."""

SLOW_CAP_MS = 10_000
"""The wall-clock safety cap of a slow level's decision on the server
(:data:`~mathable.ai.SLOW_LEVELS`: the master, whose counted budgets take ~0.1-2 s a
turn), counted from the decision's start: the person chose a player that thinks, so its
queue wait is not taken from its thinking, and a turn is cut only on a machine in
trouble (logged, as any cap that bites)."""

CAP_FLOOR_MS = 100
"""The least cap a decision is given however long it waited in the queue: enough for the
expert's shortlist, so a late decision is a shallower one, never a blind one."""

wall_clock: Callable[[], float] = time.time
"""The clock a decision's queue wait is read on (``time.time``: the same in every process
of the machine; a test puts a fixed one here)."""

KEPT_BOTS = 512
"""Computer players each worker keeps between actions (the least recently used go)."""
_kept: OrderedDict[tuple[str, int], Bot] = OrderedDict()
_kept_lock = threading.Lock()


@dataclass(frozen=True)
class Decision:
    """A computer player's action and what it cost: ``wait_ms`` queued before a worker
    took it, ``think_ms`` in the worker, ``capped`` whether the safety cap cut it short
    (the server logs them: :mod:`mathable.web.rounds.computers`)."""

    action: Action
    think_ms: float
    wait_ms: float
    capped: bool


def bot_decision(
    level: str, seed: int, view: View, queued_at: float | None = None, wait_counts: bool = True
) -> Decision:
    """The action a computer player of ``level`` picks from its seat's view, timed.

    The worker keeps the player for its next action (its board and its turn plan: a
    strong turn is planned once, not at every placement). That is speed only: a
    decision depends on the view and the seed alone (see :mod:`mathable.ai.base`), so
    another worker, or a restarted server, decides the same (unless the decision runs
    past its safety cap, which is logged). The cap is :data:`BOT_CAP_MS` counted from
    ``queued_at`` (``time.time()`` when the job was queued), at least
    :data:`CAP_FLOOR_MS`, unless ``level`` sets its own or the wait does not count
    (``wait_counts`` False: nobody waits for it, the cap runs from the start); a slow
    level's is :data:`SLOW_CAP_MS` from the start (:func:`slow_decision`). A player
    in use is taken out of the cache, so two threads never share one."""
    started = wall_clock()
    wait_ms = 0.0 if queued_at is None else max(0.0, 1000 * (started - queued_at))
    key = (level, seed)
    with _kept_lock:
        bot = _kept.pop(key, None)
    slow = is_slow(level)
    cap_ms = SLOW_CAP_MS if slow else BOT_CAP_MS
    capped_spec = with_cap(level, cap_ms)
    if bot is None:
        bot = get_bot(capped_spec, seed)
    if capped_spec != level and hasattr(bot, "cap_ms"):  # the server's cap, not the spec's
        left = cap_ms - wait_ms if wait_counts and not slow else cap_ms
        setattr(bot, "cap_ms", max(CAP_FLOOR_MS, round(left)))  # noqa: B010
    capped_before = getattr(bot, "capped", 0)
    action = bot.act(view)
    think_ms = 1000 * (wall_clock() - started)
    capped = getattr(bot, "capped", 0) != capped_before
    with _kept_lock:
        _kept[key] = bot
        while len(_kept) > KEPT_BOTS:
            _kept.popitem(last=False)
    return Decision(action, round(think_ms, 2), round(wait_ms, 2), capped)


def slow_decision(level: str, seed: int, view: View, queued_at: float | None = None) -> Decision:
    """:func:`bot_decision` for a slow level (the master), run in the long jobs' pool
    (:data:`LONG_JOBS`) at its lower priority: a person's choice of a player that thinks
    for seconds never delays another person's computer opponent (its cap,
    :data:`SLOW_CAP_MS` from the decision's start, is :func:`bot_decision`'s for a slow
    level in any lane)."""
    return bot_decision(level, seed, view, queued_at)


def bot_move(level: str, seed: int, view: View) -> Action:
    """The action of :func:`bot_decision`, untimed (nothing queued before it)."""
    return bot_decision(level, seed, view).action


def hint_turns(view: View) -> list[Hint]:
    """The best turns for the seat of ``view`` (the hint search)."""
    return hints(view)


def analyse_record(record: str, depth: str = EXPERT_DEPTH.name) -> dict[str, Any]:
    """The analysis of the game a record (JSON text) holds, judged at ``depth`` (a name
    of :data:`~mathable.ai.equity.DEPTHS`), with what a page draws of each turn:
    ``step``, the actions played before it (its position is the replay's view at that
    step), and ``best_placements``, the best turn's cells and values."""
    game = registry.from_record(record)
    report = analysis_report(game, DEPTHS[depth])
    starts = turn_steps(game)
    for turn in report["turns"]:
        turn["step"] = starts[turn["turn"] - 1]
        turn["best_placements"] = placements_of(game, turn["best"])
    return report


def turn_steps(game: Game) -> list[int]:
    """Per finished turn (and the one under way), how many actions came before it."""
    replay = game.replayed(0)
    steps = [0]
    for done, action in enumerate(game.log, start=1):
        replay.apply(action)
        while len(steps) <= len(replay.summaries()):
            steps.append(done)
    return steps


def placements_of(game: Game, turn: str) -> list[dict[str, Any]]:
    """The placements of a turn written in notation (``I8=12 H6=8``, ``diago A=8``)."""
    out = []
    for word in turn.split():
        with contextlib.suppress(NotationError):
            action = game.parse_action(word)
            if isinstance(action, Place):
                out.append({"cell": game.cell_names.name(action.cell), "value": action.value})
    return out


LONG_JOBS: tuple[Callable[..., Any], ...] = (analyse_record, analyse_kept_log, slow_decision)
"""The jobs that take seconds (a whole game's analysis, a slow level's turn): they run in
a pool of their own (:class:`Workers`), so a person's computer opponent or hint never
queues behind one (issue 35: with one worker, a turn waited for a whole analysis)."""

URGENT_LONG_JOBS: tuple[Callable[..., Any], ...] = (slow_decision,)
"""The long jobs a person waits for at the board (a slow level's turn): a free long
worker goes to them before any analysis waiting (:class:`~.priority.PriorityGate`), so
a master's reply waits for one job at most, never for a queue of analyses."""


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
    """A process pool of ``size`` workers (0: a thread of this process, see above), and
    beside it, started with the first such job, a pool of as many for the long jobs
    (:data:`LONG_JOBS`) at a lower CPU priority, so that a long job never delays a short
    one: the short ones never queue behind it, and take the CPU from it."""

    def __init__(self, size: int | None = None) -> None:
        self.size = default_size() if size is None else max(0, size)
        self._pool: ProcessPoolExecutor | None = None
        self._long: ProcessPoolExecutor | None = None
        self._long_gate = PriorityGate(max(1, self.size))
        """The long jobs' way in: as many at once as the pool has workers, the urgent
        first (:data:`URGENT_LONG_JOBS`), so the pool's own first-come queue stays empty."""
        self._breaks = 0

    @property
    def started(self) -> bool:
        """Whether jobs go to worker processes."""
        return self._pool is not None

    def _new_pool(self, initializer: Callable[[int], None] = start_worker) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.size, mp_context=_context(), initializer=initializer, initargs=(os.getpid(),)
        )

    def start(self) -> None:
        """Open the pool (its processes start with the first job)."""
        if self._pool is None and self.size > 0:
            self._pool = self._new_pool()

    def _pool_for(self, job: Callable[..., Any]) -> ProcessPoolExecutor | None:
        """The pool ``job`` runs in: the long jobs' own (opened now if need be), or the
        pool (None: no processes, jobs run on threads)."""
        if self._pool is None or job not in LONG_JOBS:
            return self._pool
        if self._long is None:
            self._long = self._new_pool(start_long_worker)
        return self._long

    def warm_long(self) -> None:
        """Open the long jobs' pool and start its workers now, not at its first job: a
        game with a slow computer player (the master) has begun, and its first turn
        would otherwise wait a second more for them. Nothing if the pool is open (or
        jobs run on threads)."""
        if self._pool is None or self._long is not None:
            return
        pool = self._pool_for(slow_decision)
        if pool is not None:
            for _ in range(self.size):  # a worker starts for each job waiting
                pool.submit(worker_pid)

    async def run(self, job: Callable[..., T], *args: Any) -> T:
        """``job(*args)`` in a worker, awaited without blocking the event loop; a long
        job (:data:`LONG_JOBS`) once the long jobs' gate lets it in, the urgent first.
        A pool broken by a worker's death is replaced and the job run again; if the new
        one breaks too before any job succeeded (workers that cannot start), the jobs
        run on threads from then on, so the server still answers."""
        if self._pool is None or job not in LONG_JOBS:
            return await self._run(job, *args)
        async with self._long_gate.slot(0 if job in URGENT_LONG_JOBS else 1):
            return await self._run(job, *args)

    async def _run(self, job: Callable[..., T], *args: Any) -> T:
        """``job(*args)`` in its pool (:meth:`run`), again in a new one if it broke."""
        loop = asyncio.get_running_loop()
        for _ in range(2):
            pool = self._pool_for(job)
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
        """A new pool for a broken one (once per break; the long jobs' own is opened
        again by its next job), or none after two breaks in a row."""
        long = broken is self._long
        if not long and self._pool is not broken:
            return  # replaced already by another job that saw it break
        broken.shutdown(wait=False, cancel_futures=True)
        if long:
            self._long = None
        self._breaks += 1
        if self._breaks >= 2:
            log.warning("the worker processes keep failing: jobs run on threads instead")
            for pool in (self._pool, self._long):
                if pool is not None:
                    pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._long = None
        elif not long:
            log.warning("a worker process died: the pool is restarted")
            self._pool = self._new_pool()

    def shutdown(self) -> None:
        """Stop the pools: queued jobs are cancelled, running ones finish."""
        for pool in (self._pool, self._long):
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
        self._pool = self._long = None


# -- the computers' own lane (issue 30, finding 5) -------------------------------------

COMPUTERS_NICENESS = 19
"""The CPU priority of the workers that play games between computers only: the lowest,
below the workers that answer people (:data:`WORKER_NICENESS`)."""

_lowered = False


def computers_decision(
    level: str, seed: int, view: View, queued_at: float | None = None
) -> Decision:
    """:func:`bot_decision` for a game between computers only, in a worker of the
    computers' own pool (:attr:`~.service.GameService.computer_workers`) at the lowest
    CPU priority: their turns never queue before a person's computer opponent, and yield
    the CPU to it; their cap runs from the decision's start (their queue is long, and
    nobody waits: a cap counted from the queue would cut most of their decisions short).
    Never lowers the server's own priority (a pool of size 0 runs jobs on threads)."""
    global _lowered
    if not _lowered and multiprocessing.parent_process() is not None:
        with contextlib.suppress(OSError):
            os.nice(max(0, COMPUTERS_NICENESS - os.nice(0)))
        _lowered = True
    return bot_decision(level, seed, view, queued_at, wait_counts=False)


def computers_move(level: str, seed: int, view: View) -> Action:
    """The action of :func:`computers_decision`, untimed."""
    return computers_decision(level, seed, view).action
