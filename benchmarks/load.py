"""Load benchmark: N concurrent games against real server processes, printed as JSON.

Usage::

    python benchmarks/load.py [--games N] [--processes 1|2] [--database sqlite|postgresql]
                              [--duration S | --actions N] [--think S] [--fault] [--quick]

Every game slot creates a game over HTTP (scripted people and computer seats, at one
screen with a chosen seed), opens one WebSocket per person and one watcher socket, and
plays it to the end, then starts another, until the time or the action budget runs out.
People pick from the legal actions their view offers and send most actions on their
WebSocket and some as ``POST …/actions`` (``--http-share``), at once or after a pause
(``--think``). A prober, in a process of its own, times a cheap GET
(``/api/bots``) all along, and the server processes' memory (RSS, children included) is
read from ``/proc``.

Latency is from sending an action to receiving the seat's own view that includes it (the
WebSocket update, or the POST's answer). Only actions sent inside the measuring window
count (it opens once every slot has its first game and sockets). Several processes share
one database, behind no proxy: game ``i`` and its sockets go to process ``i mod P``
(``--spread seat`` sends the second person and the watcher to the next process).
The sockets get whole views, unless ``--patches``: then, as the page, the first view
whole and patches after it (applied by the clients).

CPU per action (issue 34): ``server.cpu_ms_per_action`` is the servers' CPU, their worker
processes' (the computers' thinking) included, over the actions measured;
``own_cpu_ms_per_action`` the server processes' own (event loop and threads) alone.
``socket_bytes_received_per_action`` counts the bytes the clients' sockets read off TCP
(frames' headers included, compressed where a socket negotiated per-message deflate).

Afterwards every game is checked against what the clients were told: every acknowledged
action present (its sequence number reached, its placement on the board, and for a finished
game the exact action in the record), and no game left with a computer to move
(``stuck``). ``--fault`` SIGKILLs process 0 halfway, restarts it on its port, and the
clients reconnect and play on; the check then reports ``{"acknowledged", "lost", "stuck"}``.

``--person`` (issue 30) times one person's games against the greedy computer over HTTP,
alone and beside ``--beside N`` loops of games between computers, in ``--pairs``
interleaved runs on fresh servers: the person's p50/p95 of each, their medians and the
ratio of the p95s (beside over quiet). It also reports the person's opponent's thinking
per computer turn as the server measured it (issue 35; ``opponent_turn_ms``): the
server's DEBUG lines of ``mathable.web.rounds.computers.times``, turned on in the
benchmark's servers alone, one a decision (queue wait, worker's thinking, the round trip
the server awaited), summed per turn of the person's games, with how often the safety
cap bit. ``--person-bot expert --beside 30 --beside-bot expert`` is the busy server of
issue 35 (the goal: the expert's p95 <= 300 ms and max <= 1 s there).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import platform
import random
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidHandshake, WebSocketException

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the throw-away PostgreSQL of the tests

from mathable.web.infra.patches import apply_patch  # noqa: E402
from pg import Cluster  # noqa: E402

GENEROUS_LIMITS: dict[str, str] = {
    "MATHABLE_RATE_CREATE": "off",
    "MATHABLE_RATE_ACTION": "off",
    "MATHABLE_RATE_IMPORT": "off",
    "MATHABLE_RATE_ANALYSIS": "off",
    "MATHABLE_RATE_MASTER_ANALYSIS": "off",
    "MATHABLE_SOCKETS_PER_ADDRESS": "1000000",
    "MATHABLE_WS_FRAMES_PER_SECOND": "1000",
    "MATHABLE_BOT_GAMES_ALL": "off",
    "MATHABLE_BOT_GAMES": "off",
}
"""Environment for the benchmark's servers: every client of the benchmark comes from one
address, so the per-address limits are lifted, and a scripted player answers each view at
once, faster than any person, so the frame rate is too (names from
``mathable.web.api.Settings``; a name an older server does not read is harmless).
``--env`` overrides them."""

TIMES_CODE = (
    "import logging, sys; "
    "handler = logging.StreamHandler(sys.stderr); "
    "handler.setFormatter(logging.Formatter('%(created).3f %(message)s')); "
    "times = logging.getLogger('mathable.web.rounds.computers.times'); "
    "times.setLevel(logging.DEBUG); times.addHandler(handler); times.propagate = False; "
)
"""Run before the server's main: its computers' decision times (DEBUG lines of
``mathable.web.rounds.computers.times``) go to its log, time-stamped (``time.time()``)."""

TIME_LINE = re.compile(r"^(\d+\.\d+) bot-time (.*)$")

WIRE_BYTES = [0]
"""Bytes the benchmark's WebSocket clients have received from the servers, frames'
headers included, as they came off TCP (compressed, when a socket negotiated
per-message deflate): counted in :func:`_count_wire_bytes`."""


def _count_wire_bytes() -> None:
    """Count every byte the clients' sockets receive (:data:`WIRE_BYTES`), by wrapping
    the websockets library's entry for data read from the connection."""
    received = ClientConnection.data_received
    if getattr(received, "counts_wire_bytes", False):
        return

    def data_received(self: ClientConnection, data: bytes) -> None:
        WIRE_BYTES[0] += len(data)
        received(self, data)

    data_received.counts_wire_bytes = True  # type: ignore[attr-defined]
    ClientConnection.data_received = data_received  # type: ignore[method-assign,assignment]


PLACEMENT = re.compile(r"^([A-Za-z]+\d+)=(\d+)")
CONNECTION_ERRORS = (OSError, WebSocketException, httpx2.TransportError, TimeoutError)


# -- the servers -----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _children(pid: int) -> list[int]:
    """Every live descendant of ``pid`` (a worker pool's processes), from /proc."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        parents.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def rss_kb(pid: int) -> int:
    """Resident memory of a process and its descendants, in KB (0 once gone)."""
    total = 0
    for each in [pid, *_children(pid)]:
        try:
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def own_cpu_seconds(pid: int) -> float:
    """User and system CPU time of one process alone, its threads included (0 once gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process and its live descendants."""
    return sum(own_cpu_seconds(each) for each in [pid, *_children(pid)])


class ServerProcess:
    """One ``mathable serve`` process on its own port; killed and restarted on that port."""

    def __init__(
        self, index: int, env: dict[str, str], folder: Path, log_times: bool = False
    ) -> None:
        self.index = index
        self.log_times = log_times
        """Whether the server logs each computer decision's cost (:data:`TIMES_CODE`)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = env
        self.log = folder / f"server-{index}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.cpu_before_kill = 0.0
        self.own_cpu_before_kill = 0.0

    def start(self, timeout: float = 60) -> ServerProcess:
        code = "from mathable.cli.app import main; main()"
        if self.log_times:
            code = TIMES_CODE + code
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-c", code, "serve", "--port", str(self.port)],
                env=self.env,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                if httpx2.get(self.url + "/api/bots", timeout=2).status_code == 200:
                    return self
            except httpx2.HTTPError:
                time.sleep(0.1)
        tail = self.log.read_text(errors="replace")[-3000:]
        self.stop()
        raise RuntimeError(f"server {self.index} did not start:\n{tail}")

    @property
    def pid(self) -> int:
        return self.process.pid if self.process else 0

    def rss_kb(self) -> int:
        return rss_kb(self.pid) if self.process else 0

    def cpu_s(self) -> float:
        return self.cpu_before_kill + (cpu_seconds(self.pid) if self.process else 0.0)

    def own_cpu_s(self) -> float:
        """The server process's own CPU time, without its workers' (computers' turns,
        analyses): the part of :meth:`cpu_s` that serving the actions costs."""
        return self.own_cpu_before_kill + (own_cpu_seconds(self.pid) if self.process else 0.0)

    def kill(self) -> None:
        """SIGKILL the process and its children: no shutdown code runs."""
        if self.process is None:
            return
        self.cpu_before_kill += cpu_seconds(self.pid)
        self.own_cpu_before_kill += own_cpu_seconds(self.pid)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.kill()  # its children too
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)  # a worker pool left behind
        self.process = None


# -- what the clients saw ----------------------------------------------------------------


def quantiles(values: list[float]) -> dict[str, float | int]:
    """p50/p95/p99/max in milliseconds of durations in seconds."""
    if not values:
        return {"count": 0}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)

    return {
        "count": len(ordered),
        "p50": at(0.50),
        "p95": at(0.95),
        "p99": at(0.99),
        "max": round(1000 * ordered[-1], 2),
    }


@dataclass
class GameRecord:
    """A game as its clients know it: where it lives, its tokens, what was acknowledged."""

    id: str
    port_index: int
    seats: list[dict[str, Any]]
    acked: dict[int, str] = field(default_factory=dict)
    """Sequence number -> action, for every action whose effect its sender was shown."""
    known_seq: int = 0
    over: bool = False


@dataclass
class Run:
    """Shared state of a run: settings, the clock, and every figure collected."""

    args: argparse.Namespace
    urls: list[str]
    http: list[httpx2.AsyncClient]
    started: float | None = None
    deadline: float = float("inf")
    stopping: bool = False
    go: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the window opens: until then people connect but do not act."""
    in_fault: bool = False
    fault_window: tuple[float, float] = (float("inf"), float("inf"))
    """Monotonic times from the kill until the clients are back."""
    latency: dict[str, list[float]] = field(default_factory=lambda: {"ws": [], "http": []})
    create: list[float] = field(default_factory=list)
    gets: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    disconnects: Counter[str] = field(default_factory=Counter)
    games: list[GameRecord] = field(default_factory=list)
    window_actions: int = 0
    unconfirmed: int = 0
    seq_regressions: int = 0
    watcher_updates: int = 0
    watcher_regressions: int = 0
    stalled: int = 0
    finished: int = 0
    beside_games: int = 0
    analyses: list[float] = field(default_factory=list)
    """Seconds each finished computer game's analysis took to answer (``--beside``)."""

    def measuring(self, sent: float) -> bool:
        return self.started is not None and self.started <= sent < self.deadline

    def error(self, kind: str, exc: BaseException | None = None) -> None:
        """Count a failure; a lost connection during a fault run is a disconnect."""
        if exc is not None and self.in_fault and isinstance(exc, CONNECTION_ERRORS):
            self.disconnects[kind] += 1
        else:
            self.errors[kind] += 1

    def acknowledge(self, game: GameRecord, seq: int, action: str, sent: float, how: str) -> None:
        now = time.monotonic()
        game.acked[seq] = action
        if self.measuring(sent):
            self.latency[how].append(now - sent)
            self.window_actions += 1
            if self.args.actions and self.window_actions >= self.args.actions:
                self.deadline = min(self.deadline, now)


def ws_url(base: str, game_id: str, token: str | None, patches: bool = False) -> str:
    url = base.replace("http://", "ws://") + f"/api/games/{game_id}/ws"
    query = [f"token={token}"] if token else []
    query += ["patches=1"] if patches else []
    return url + ("?" + "&".join(query) if query else "")


def socket_view(message: dict[str, Any], last: dict[str, Any] | None) -> dict[str, Any] | None:
    """The view a socket's message brings: a whole view, or (``--patches``, as the page
    asks) a patch applied to the view the socket brought last; None for a patch that does
    not follow it (the client then asks for the whole view, ``sync``)."""
    if message.get("type") != "patch":
        view: dict[str, Any] = message["view"]
        return view
    if last is None or message.get("from") != last["seq"]:
        return None
    return apply_patch(last, message)


def choose(view: dict[str, Any], rng: random.Random) -> str:
    """A scripted player's action: mostly a placement, sometimes ending the turn."""
    legal: list[str] = view["legal"]
    if "end" in legal and rng.random() < 0.3:
        return "end"
    places = [a for a in legal if "=" in a and "+" not in a]
    if places:
        return rng.choice(places)
    plain = [a for a in legal if a in ("end", "pass", "accept")]
    return plain[0] if plain else legal[-1]


def my_turn(view: dict[str, Any]) -> bool:
    if view.get("over") or not view.get("legal"):
        return False
    return view.get("to_move") == view.get("seat") or "accept" in view["legal"]


class Player:
    """A scripted person at one seat: reads views on its socket, acts on its turn."""

    def __init__(
        self, run: Run, game: GameRecord, seat: int, token: str, base: int, seed: float
    ) -> None:
        self.run = run
        self.game = game
        self.seat = seat
        self.token = token
        self.base = base
        self.rng = random.Random(seed)
        self.inflight: tuple[int, str, float] | None = None
        self.acted_at = -1
        """The seq of the last view acted on: a view of the same seq again (who is present
        changed, nothing was played) is no second turn."""
        self.max_acked = -1
        self.latest: dict[str, Any] | None = None
        self.ready = asyncio.Event()
        """Set once the seat's socket has brought its first view."""

    async def play(self) -> None:
        """Play until the game ends or the run stops; reconnect when the server goes."""
        while not self.run.stopping and not self.game.over:
            url = ws_url(self.run.urls[self.base], self.game.id, self.token, self.run.args.patches)
            try:
                async with connect(url, max_size=None, ping_interval=None, open_timeout=30) as ws:
                    await self._on(ws)
            except (*CONNECTION_ERRORS, InvalidHandshake) as exc:
                self.run.error(f"ws {type(exc).__name__}", exc)
                if self.inflight is not None:
                    self.run.unconfirmed += 1  # its outcome is unknown: not acknowledged
                    self.inflight = None
                await asyncio.sleep(0.25)

    async def _on(self, ws: ClientConnection) -> None:
        idle = 0.0
        fresh = True  # the first view of a connection must hold every acknowledged action
        last: dict[str, Any] | None = None  # the view this socket brought last (patches)
        while True:
            if self.run.stopping and self.inflight is None:
                return
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                idle += 0.5 if self.run.go.is_set() else 0.0
                if idle >= self.run.args.stall_after and not self.run.stopping:
                    self.run.stalled += not self.game.over  # once per game
                    self.game.over = True  # give up on it: the slot starts another
                    return
                if self.run.stopping and idle >= 10:
                    return
                continue
            idle = 0.0
            message = json.loads(raw)
            if message.get("type") == "error":
                self.run.error(f"ws {message.get('status')}")
                self.inflight = None
                view = await self._fetch()
                fresh = True
            else:
                view = last = socket_view(message, last)
                if view is None:
                    await ws.send(json.dumps({"type": "sync"}))
            while view is not None:
                if fresh and view["seq"] <= self.max_acked:
                    self.run.seq_regressions += 1  # an acknowledged action is missing
                fresh = False
                view = await self._see(ws, view)
                if self.game.over:
                    return
            if not self.run.go.is_set():  # connected: wait for the window to open
                self.ready.set()
                await self.run.go.wait()
                view = self.latest
                while view is not None and not self.game.over:
                    view = await self._see(ws, view)

    async def _fetch(self) -> dict[str, Any] | None:
        """The seat's view over HTTP (after a refusal, to act on the latest state)."""
        client = self.run.http[self.base]
        try:
            answer = await client.get(f"/api/games/{self.game.id}", params={"token": self.token})
        except CONNECTION_ERRORS as exc:
            self.run.error(f"GET view {type(exc).__name__}", exc)
            return None
        if answer.status_code != 200:
            self.run.error(f"GET view {answer.status_code}")
            return None
        view: dict[str, Any] = answer.json()
        return view

    async def _see(self, ws: ClientConnection, view: dict[str, Any]) -> dict[str, Any] | None:
        """Take in a view; act if it is our turn. Returns a further view to take in (the
        answer of an action sent over HTTP), or None."""
        seq = view["seq"]
        if self.inflight is not None and seq > self.inflight[0]:
            sent_seq, action, sent = self.inflight
            self.run.acknowledge(self.game, sent_seq, action, sent, "ws")
            self.max_acked = max(self.max_acked, sent_seq)
            self.inflight = None
        if seq < self.game.known_seq:
            return None  # an older view still on its way
        self.game.known_seq = seq
        self.latest = view
        if view.get("over"):
            self.game.over = True
            return None
        if not self.run.go.is_set() or self.inflight is not None or self.run.stopping:
            return None
        if not my_turn(view) or seq == self.acted_at:
            return None
        self.acted_at = seq
        if self.run.args.think:  # a person's pause, 0.5 to 1.5 times --think
            await asyncio.sleep(self.run.args.think * (0.5 + self.rng.random()))
            if self.run.stopping:
                return None
        action = choose(view, self.rng)
        sent = time.monotonic()
        if self.rng.random() >= self.run.args.http_share:
            self.inflight = (seq, action, sent)
            await ws.send(json.dumps({"action": action, "seq": seq}))
            return None
        client = self.run.http[self.base]
        body = {"token": self.token, "action": action, "seq": seq}
        try:
            answer = await client.post(f"/api/games/{self.game.id}/actions", json=body)
        except CONNECTION_ERRORS as exc:
            self.run.error(f"POST action {type(exc).__name__}", exc)
            self.run.unconfirmed += 1
            return None
        if answer.status_code != 200:
            self.run.error(f"POST action {answer.status_code}")
            return await self._fetch()
        self.run.acknowledge(self.game, seq, action, sent, "http")
        self.max_acked = max(self.max_acked, seq)
        after: dict[str, Any] = answer.json()
        return after


async def watch(run: Run, game: GameRecord, base: int, ready: asyncio.Event) -> None:
    """A spectator's socket on the game: counts updates, checks their order."""
    last = -1
    while not run.stopping and not game.over:
        try:
            url = ws_url(run.urls[base], game.id, None, run.args.patches)
            async with connect(url, max_size=None, ping_interval=None, open_timeout=30) as ws:
                seen: dict[str, Any] | None = None
                async for raw in ws:
                    message = json.loads(raw)
                    ready.set()
                    if message.get("type") not in ("view", "patch"):
                        run.error(f"watcher {message.get('status')}")
                        continue
                    seen = socket_view(message, seen)
                    if seen is None:
                        await ws.send(json.dumps({"type": "sync"}))
                        continue
                    seq = seen["seq"]
                    if seq < last:
                        run.watcher_regressions += 1
                    last = seq
                    run.watcher_updates += 1
                    if seen.get("over"):
                        return
        except (*CONNECTION_ERRORS, InvalidHandshake) as exc:
            run.error(f"watcher {type(exc).__name__}", exc)
            await asyncio.sleep(0.25)


def new_game_body(args: argparse.Namespace, seed: int) -> dict[str, Any]:
    people = [{"name": f"P{i + 1}"} for i in range(args.people)]
    bots = [{"bot": args.bot} for _ in range(args.bots)]
    return {
        "variant": args.variant,
        "players": people + bots,
        "mode": "screen",  # every person's token, and a chosen seed (O1)
        "seed": seed,
    }


async def slot(run: Run, index: int, ready: asyncio.Event, creating: asyncio.Semaphore) -> None:
    """One of the N concurrent games: create, play to the end, start another."""
    processes = len(run.urls)
    base = index % processes
    other = (base + 1) % processes if run.args.spread == "seat" else base
    rng = random.Random(index)
    first = True
    while not run.stopping:
        body = new_game_body(run.args, seed=rng.randrange(2**31))
        sent = time.monotonic()
        try:
            async with creating:
                answer = await run.http[base].post("/api/games", json=body)
        except CONNECTION_ERRORS as exc:
            run.error(f"POST game {type(exc).__name__}", exc)
            await asyncio.sleep(0.5)
            continue
        if answer.status_code != 201:
            run.error(f"POST game {answer.status_code}")
            await asyncio.sleep(0.5)
            continue
        if run.measuring(sent):
            run.create.append(time.monotonic() - sent)
        made = answer.json()
        game = GameRecord(made["id"], base, made["seats"])
        run.games.append(game)
        people = [s for s in made["seats"] if s["token"]]
        watching = asyncio.Event()
        tasks = [asyncio.create_task(watch(run, game, other, watching))]
        players = []
        for number, seat in enumerate(people):
            where = other if number % 2 else base
            players.append(Player(run, game, seat["seat"], seat["token"], where, rng.random()))
            tasks.append(asyncio.create_task(players[-1].play()))
        if first:  # ready once every socket of the first game has its first view
            first = False
            await asyncio.gather(watching.wait(), *(p.ready.wait() for p in players))
            ready.set()
        await asyncio.gather(*tasks[1:])
        tasks[0].cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await tasks[0]
        if game.over:
            run.finished += 1


async def beside(run: Run, index: int) -> None:
    """The heavy work beside the games (``--beside``): a game of four computer players
    (``--beside-bot``) played to its end by the server's workers, then its analysis asked
    twice (computed, then cached); then another game, until the window closes."""
    base = index % len(run.urls)
    rng = random.Random(10_000 + index)
    client = run.http[base]
    await run.go.wait()
    while not run.stopping:
        players = [{"name": f"C{i + 1}", "bot": run.args.beside_bot} for i in range(4)]
        seed = rng.randrange(2**31)
        body: dict[str, Any] = {
            "variant": run.args.variant,
            "players": players,
            "mode": "screen",
            "seed": seed,
        }
        try:
            made = (await client.post("/api/games", json=body)).raise_for_status().json()
            if run.args.person:  # watched as the page watches it: on its socket
                if not await watched_to_the_end(run, run.urls[base], made["id"]):
                    return
            else:
                while not run.stopping:
                    answer = await client.get(f"/api/games/{made['id']}")
                    if answer.raise_for_status().json()["over"]:
                        break
                    await asyncio.sleep(0.5)
                else:
                    return
            run.beside_games += 1
            if run.args.person:  # the computer games alone beside the person
                continue
            for _ in range(2):
                sent = time.monotonic()
                answer = await client.get(f"/api/games/{made['id']}/analysis", timeout=120)
                answer.raise_for_status()
                if run.measuring(sent):
                    run.analyses.append(time.monotonic() - sent)
        except (httpx2.HTTPError, *CONNECTION_ERRORS) as exc:
            run.error(f"beside {type(exc).__name__}", exc)
            await asyncio.sleep(0.5)


# -- a person against the computer, beside games between computers (``--person``) ---------


async def analyser(run: Run, index: int) -> None:
    """Another person at work beside (``--analysers``): a game against the greedy computer
    with the house rule hints, played to ``ANALYSED_TURNS`` turns, then its analysis asked
    over and over (each one computed afresh in the workers: a game under way is not
    kept), until the window closes."""
    client = run.http[0]
    rng = random.Random(20_000 + index)
    body = {
        "variant": "classic",
        "players": [{"name": "A"}, {"name": "C", "bot": "greedy"}],
        "mode": "screen",
        "seed": rng.randrange(2**31),
        "house_rules": {"hints": True},
    }
    try:
        made = (await client.post("/api/games", json=body)).raise_for_status().json()
        token = made["seats"][0]["token"]
        view = (await client.get(f"/api/games/{made['id']}", params={"token": token})).json()
        while my_turn(view) and len(view["summaries"]) < ANALYSED_TURNS:
            action = {"token": token, "action": choose(view, rng), "seq": view["seq"]}
            answer = await client.post(f"/api/games/{made['id']}/actions", json=action)
            view = answer.raise_for_status().json()
        await run.go.wait()
        while not run.stopping:
            answer = await client.get(
                f"/api/games/{made['id']}/analysis", params={"token": token}, timeout=120
            )
            answer.raise_for_status()
            run.analyses.append(0.0)
    except (httpx2.HTTPError, *CONNECTION_ERRORS) as exc:
        run.error(f"analyser {type(exc).__name__}", exc)


ANALYSED_TURNS = 24
"""The turns of an ``--analysers`` game before its analyses are asked."""


async def watched_to_the_end(run: Run, base: str, game_id: str) -> bool:
    """Listen to a game on a spectator's socket until it ends (True) or the run stops."""
    async with connect(ws_url(base, game_id, None), max_size=None, ping_interval=None) as ws:
        while not run.stopping:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            message = json.loads(raw)
            if message.get("type") == "view" and message["view"].get("over"):
                return True
    return False


async def person(run: Run, latencies: list[float]) -> None:
    """One person's games against the computer (``--person-bot``, at one screen), played
    over HTTP: each action's ``POST`` answers once the computer has replied (a game with
    a person waits for its computers), so its time is what the person waits. Only actions
    sent inside the window count."""
    client = run.http[0]
    rng = random.Random(7)
    await run.go.wait()
    while not run.stopping:
        body = {
            "variant": run.args.variant,
            "players": [{"name": "P1"}, {"name": "C", "bot": run.args.person_bot}],
            "mode": "screen",
            "seed": rng.randrange(2**31),
        }
        try:
            made = (await client.post("/api/games", json=body)).raise_for_status().json()
            token = made["seats"][0]["token"]
            answer = await client.get(f"/api/games/{made['id']}", params={"token": token})
            view = answer.raise_for_status().json()
            while not run.stopping and my_turn(view):
                action = {"token": token, "action": choose(view, rng), "seq": view["seq"]}
                sent = time.monotonic()
                answer = await client.post(f"/api/games/{made['id']}/actions", json=action)
                view = answer.raise_for_status().json()
                if run.measuring(sent):
                    latencies.append(time.monotonic() - sent)
        except (httpx2.HTTPError, *CONNECTION_ERRORS) as exc:
            run.error(f"person {type(exc).__name__}", exc)
            await asyncio.sleep(0.5)


async def person_window(
    args: argparse.Namespace, server: ServerProcess, beside_games: int
) -> dict[str, Any]:
    """One run of ``--person``: ``beside_games`` loops of games between computers (none:
    the quiet run) start, ``--warmup`` seconds pass, then the person's actions are timed
    for ``--duration`` seconds."""
    http = [httpx2.AsyncClient(base_url=server.url, timeout=120)]
    run = Run(args, [server.url], http)
    latencies: list[float] = []
    tasks = [asyncio.create_task(beside(run, i)) for i in range(beside_games)]
    if beside_games:
        tasks += [asyncio.create_task(analyser(run, i)) for i in range(args.analysers)]
    run.go.set()
    await asyncio.sleep(args.warmup if beside_games else 0)
    cpu_before = server.cpu_s()
    run.started = time.monotonic()
    run.deadline = run.started + args.duration
    window = (time.time(), time.time() + args.duration)
    tasks.append(asyncio.create_task(person(run, latencies)))
    await asyncio.sleep(args.duration)
    run.stopping = True
    cpu = server.cpu_s() - cpu_before
    await asyncio.wait(tasks, timeout=30)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await http[0].aclose()
    return {
        "beside": beside_games,
        "latency_ms": quantiles(latencies),
        **opponent_times(server.log, window, args.person_bot),
        "computer_games_finished": run.beside_games,
        "analyses": len(run.analyses),
        "server_cpu_s": round(cpu, 2),
        "errors": dict(run.errors),
    }


def decision_lines(log: Path) -> Iterator[tuple[float, dict[str, str]]]:
    """The server's decision lines (:data:`TIMES_CODE`): when, and their ``key=value``s."""
    for line in log.read_text(errors="replace").splitlines():
        found = TIME_LINE.match(line)
        if found:
            fields = dict(part.split("=", 1) for part in found.group(2).split() if "=" in part)
            yield float(found.group(1)), fields


def opponent_times(
    log: Path, window: tuple[float, float], level: str | None = None
) -> dict[str, Any]:
    """The person's opponent's thinking as the server measured it, from its log: per
    computer turn of the person's games (the ``person`` lane, at ``level`` when given:
    the ``--analysers``' opponents are greedy) logged inside ``window`` (wall-clock
    seconds), the sum of its decisions' round trips (``opponent_turn_ms``: queue wait and
    thinking, what the person waits for before the placements come) and of the worker's
    thinking alone (``opponent_think_ms``); the decisions the safety cap cut short; and
    the turns of the games between computers (``beside_turn_ms``, ``beside_capped``)."""
    turns: dict[tuple[str, str, str], list[float]] = {}
    thinking: dict[tuple[str, str, str], float] = {}
    beside: dict[tuple[str, str, str], float] = {}
    capped = decisions = beside_capped = 0
    for at, fields in decision_lines(log):
        if not window[0] <= at <= window[1] + 5:  # a turn begun inside may end after
            continue
        key = (fields["seed"], fields["seat"], fields["turn"])
        total = float(fields["total_ms"]) / 1000
        if fields["lane"] == "person" and level in (None, fields["level"]):
            decisions += 1
            capped += int(fields["capped"])
            turns.setdefault(key, []).append(total)
            thinking[key] = thinking.get(key, 0.0) + float(fields["think_ms"]) / 1000
        elif fields["lane"] == "computers":
            beside[key] = beside.get(key, 0.0) + total
            beside_capped += int(fields["capped"])
    return {
        "opponent_turn_ms": quantiles([sum(each) for each in turns.values()]),
        "opponent_think_ms": quantiles(list(thinking.values())),
        "opponent_first_decision_ms": quantiles([each[0] for each in turns.values()]),
        "opponent_decisions": decisions,
        "opponent_capped": capped,
        "beside_turn_ms": quantiles(list(beside.values())),
        "beside_capped": beside_capped,
    }


def person_runs(args: argparse.Namespace, env: dict[str, str], folder: Path) -> dict[str, Any]:
    """``--pairs`` interleaved runs, quiet then beside ``--beside`` games, each on a fresh
    server and database; the person's p50/p95 per run, their medians, and the ratio of
    the p95 medians (beside over quiet)."""
    runs: dict[str, list[dict[str, Any]]] = {"quiet": [], "beside": []}
    for pair in range(args.pairs):
        kinds = (("quiet", 0), ("beside", args.beside))
        for kind, games in kinds[1:] if args.beside_only else kinds:
            place = folder / f"{kind}-{pair}"
            place.mkdir()
            with database(args.database, place) as (url, _pid):
                settings = {**env, "DATABASE_URL": url}
                server = ServerProcess(0, settings, place, log_times=True).start()
                try:
                    runs[kind].append(asyncio.run(person_window(args, server, games)))
                finally:
                    server.stop()

    def median(kind: str, figure: str) -> float | None:
        values = [r["latency_ms"][figure] for r in runs[kind] if figure in r["latency_ms"]]
        return statistics.median(values) if values else None

    medians = {
        f"{figure}_{kind}_ms": median(kind, figure)
        for kind in ("quiet", "beside")
        for figure in ("p50", "p95")
    }
    quiet, beside_p95 = medians["p95_quiet_ms"], medians["p95_beside_ms"]
    ratio = round(beside_p95 / quiet, 2) if quiet and beside_p95 is not None else None
    opponent: dict[str, Any] = {}
    for kind in ("quiet", "beside"):
        for figure in ("p50", "p95", "max"):
            values = [
                r["opponent_turn_ms"][figure] for r in runs[kind] if figure in r["opponent_turn_ms"]
            ]
            opponent[f"{figure}_{kind}_ms"] = statistics.median(values) if values else None
        opponent[f"max_{kind}_ms_all_runs"] = max(
            (r["opponent_turn_ms"].get("max", 0) for r in runs[kind]), default=None
        )
        opponent[f"capped_{kind}"] = sum(r["opponent_capped"] for r in runs[kind])
        opponent[f"turns_{kind}"] = sum(r["opponent_turn_ms"]["count"] for r in runs[kind])
    return {
        "person": {
            **medians,
            "p95_ratio": ratio,
            "opponent": {"bot": args.person_bot, **opponent},
            "runs": runs,
        }
    }


def probe(urls: list[str], stop: Any, results: Any, running: Any) -> None:
    """The cheap GET (``/api/bots``), ten times a second over the processes, from a process
    of its own: its timings are the server's, not those of the busy client's event loop.
    Sets ``running`` at its first answer; puts ``(samples, failures)`` on ``results`` once
    ``stop`` is set: ``(monotonic time sent, seconds)`` per answer, ``(monotonic time
    seen, kind)`` per failure."""
    samples: list[tuple[float, float]] = []
    failures: list[tuple[float, str]] = []
    with contextlib.ExitStack() as stack:
        clients = [stack.enter_context(httpx2.Client(base_url=url, timeout=30)) for url in urls]
        turn = 0
        while not stop.is_set():
            client = clients[turn % len(clients)]
            turn += 1
            sent = time.monotonic()
            try:
                answer = client.get("/api/bots")
                if answer.status_code == 200:
                    samples.append((sent, time.monotonic() - sent))
                    running.set()
                else:
                    failures.append((time.monotonic(), f"GET bots {answer.status_code}"))
            except httpx2.TransportError as exc:
                failures.append((time.monotonic(), f"GET bots {type(exc).__name__}"))
            stop.wait(0.1 / len(clients))
    results.put((samples, failures))


class Prober:
    """:func:`probe` in a spawned process, started with the run and read at its end."""

    def __init__(self, urls: list[str]) -> None:
        context = multiprocessing.get_context("spawn")
        self.stop = context.Event()
        self.running = context.Event()
        self.results: Any = context.Queue()
        self.process = context.Process(
            target=probe, args=(urls, self.stop, self.results, self.running), daemon=True
        )
        self.process.start()

    def finish(self) -> tuple[list[tuple[float, float]], list[tuple[float, str]]]:
        self.stop.set()
        found: tuple[list[tuple[float, float]], list[tuple[float, str]]] = self.results.get(
            timeout=60
        )
        self.process.join(10)
        return found


async def sample_memory(servers: list[ServerProcess], peaks: list[int]) -> None:
    while True:
        for i, server in enumerate(servers):
            peaks[i] = max(peaks[i], await asyncio.to_thread(server.rss_kb))
        await asyncio.sleep(1)


async def fault(run: Run, server: ServerProcess, at: float, report: dict[str, Any]) -> None:
    """SIGKILL one server process at ``at`` (seconds into the window), restart it."""
    while run.started is None:
        await asyncio.sleep(0.05)
    await asyncio.sleep(max(0.0, run.started + at - time.monotonic()))
    if run.stopping:
        return
    run.in_fault = True
    run.fault_window = (time.monotonic(), float("inf"))
    killed = time.monotonic()
    await asyncio.to_thread(server.kill)
    await asyncio.sleep(run.args.fault_down)
    await asyncio.to_thread(server.start)
    report["killed_at_s"] = round(killed - run.started, 2)
    report["down_s"] = round(time.monotonic() - killed, 2)
    await asyncio.sleep(5)  # the clients reconnect: their lost connections are expected
    run.in_fault = False
    run.fault_window = (run.fault_window[0], time.monotonic())


async def check(run: Run) -> dict[str, int]:
    """Every game against what its clients were told: acknowledged actions present (the
    sequence reached, a placement on the board, a finished game's record), no computer
    left to move once things settle (``stuck``)."""
    lost = stuck = 0
    semaphore = asyncio.Semaphore(32)

    async def one(game: GameRecord) -> tuple[int, int]:
        client = run.http[game.port_index]
        async with semaphore:
            deadline = time.monotonic() + run.args.stuck_after
            while True:
                answer = await client.get(f"/api/games/{game.id}")
                view = answer.json()
                bots = {i for i, s in enumerate(view["seats"]) if s["bot"]}
                waiting = not view["over"] and view["to_move"] in bots
                if not waiting or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.25)
            actions: list[str] | None = None
            if view["over"]:
                record = await client.get(f"/api/games/{game.id}/record")
                actions = record.json()["actions"] if record.status_code == 200 else None
        missing = 0
        board = view.get("board") or {}
        for seq, action in game.acked.items():
            if seq >= view["seq"]:
                missing += 1
            elif actions is not None:
                missing += actions[seq] != action
            elif found := PLACEMENT.match(action):
                missing += board.get(found[1]) != int(found[2])
        return missing, int(waiting)

    results = await asyncio.gather(*(one(g) for g in run.games), return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            run.error(f"check {type(result).__name__}")
            continue
        lost += result[0]
        stuck += result[1]
    return {
        "games": len(run.games),
        "acknowledged": sum(len(g.acked) for g in run.games),
        "lost": lost,
        "stuck": stuck,
    }


async def drive(
    args: argparse.Namespace, servers: list[ServerProcess], database_pid: int | None = None
) -> dict[str, Any]:
    """Play the run against the servers; every figure of the report but the setup's."""
    # idle connections closed well before the server's keep-alive (5 s) closes them under us
    limits = httpx2.Limits(max_connections=None, max_keepalive_connections=200, keepalive_expiry=2)
    http = [httpx2.AsyncClient(base_url=s.url, timeout=60, limits=limits) for s in servers]
    run = Run(args, [s.url for s in servers], http)
    peaks = [s.rss_kb() for s in servers]
    idle_kb = list(peaks)
    sampler = asyncio.create_task(sample_memory(servers, peaks))
    fault_report: dict[str, Any] = {}
    background = [sampler]
    if args.fault:
        at = args.duration / 2 if not args.actions else args.fault_at
        background.append(asyncio.create_task(fault(run, servers[0], at, fault_report)))
    prober = await asyncio.to_thread(Prober, run.urls)
    creating = asyncio.Semaphore(16)
    readies = [asyncio.Event() for _ in range(args.games)]
    setup_start = time.monotonic()
    slots = [asyncio.create_task(slot(run, i, readies[i], creating)) for i in range(args.games)]
    background += [asyncio.create_task(beside(run, i)) for i in range(args.beside)]
    try:
        await asyncio.wait_for(
            asyncio.gather(*(r.wait() for r in readies)), timeout=60 + args.games / 2
        )
    except TimeoutError:  # measure all the same: the errors say why
        run.errors["slot never started"] = sum(not r.is_set() for r in readies)
    if not await asyncio.to_thread(prober.running.wait, 60):
        run.errors["the GET prober never started"] += 1
    run.started = time.monotonic()
    run.go.set()
    setup_s = run.started - setup_start
    if not args.actions:
        run.deadline = run.started + args.duration
    _count_wire_bytes()
    wire_before = WIRE_BYTES[0]
    cpu_before = [s.cpu_s() for s in servers]
    own_cpu_before = [s.own_cpu_s() for s in servers]
    database_before = cpu_seconds(database_pid) if database_pid else 0.0
    client_before = resource.getrusage(resource.RUSAGE_SELF)
    while time.monotonic() < run.deadline:
        await asyncio.sleep(min(0.2, max(0.0, run.deadline - time.monotonic())))
        if args.actions and time.monotonic() - run.started > args.max_duration:
            run.deadline = time.monotonic()
    window = time.monotonic() - run.started
    run.stopping = True
    wire_after = WIRE_BYTES[0]
    cpu_after = [s.cpu_s() for s in servers]
    own_cpu_after = [s.own_cpu_s() for s in servers]
    database_after = cpu_seconds(database_pid) if database_pid else 0.0
    client_after = resource.getrusage(resource.RUSAGE_SELF)
    end_kb = [s.rss_kb() for s in servers]
    samples, failures = await asyncio.to_thread(prober.finish)
    run.gets = [took for sent, took in samples if run.measuring(sent)]
    for at, kind in failures:
        start, end = run.fault_window
        (run.disconnects if start <= at <= end else run.errors)[kind] += 1
    await asyncio.wait(slots, timeout=30)
    for task in [*slots, *background]:
        task.cancel()
    await asyncio.gather(*slots, *background, return_exceptions=True)
    checked = await check(run)
    after_idle_kb: list[int] | None = None
    if args.idle_wait:
        await asyncio.sleep(args.idle_wait)
        after_idle_kb = [s.rss_kb() for s in servers]
    for client in http:
        await client.aclose()
    latencies = run.latency["ws"] + run.latency["http"]

    def per_action(cpu_s: float) -> float | None:
        """CPU milliseconds per action measured in the window (``None`` with none)."""
        return round(1000 * cpu_s / run.window_actions, 3) if run.window_actions else None

    client_cpu = (client_after.ru_utime + client_after.ru_stime) - (
        client_before.ru_utime + client_before.ru_stime
    )
    report: dict[str, Any] = {
        "setup_s": round(setup_s, 2),
        "window_s": round(window, 2),
        "games_played": len(run.games),
        "games_finished": run.finished,
        "actions": run.window_actions,
        "actions_per_s": round(run.window_actions / window, 1) if window else 0.0,
        "latency_ms": quantiles(latencies),
        "latency_ws_ms": quantiles(run.latency["ws"]),
        "latency_http_ms": quantiles(run.latency["http"]),
        "create_ms": quantiles(run.create),
        "get_ms": quantiles(run.gets),
        "beside": {
            "workers": args.beside,
            "computer_games_finished": run.beside_games,
            "analysis_ms": quantiles(run.analyses),
        },
        "watcher": {"updates": run.watcher_updates, "out_of_order": run.watcher_regressions},
        "errors": {"total": sum(run.errors.values()), "by_kind": dict(run.errors)},
        "stalled_games": run.stalled,
        "seq_regressions": run.seq_regressions,
        "server": {
            "rss_mb_idle": [round(k / 1024, 1) for k in idle_kb],
            "rss_mb_peak": [round(k / 1024, 1) for k in peaks],
            "rss_mb_end": [round(k / 1024, 1) for k in end_kb],
            "cpu_s": [round(b - a, 2) for a, b in zip(cpu_before, cpu_after, strict=True)],
            "own_cpu_s": [
                round(b - a, 2) for a, b in zip(own_cpu_before, own_cpu_after, strict=True)
            ],
            "cpu_ms_per_action": per_action(sum(cpu_after) - sum(cpu_before)),
            "own_cpu_ms_per_action": per_action(sum(own_cpu_after) - sum(own_cpu_before)),
        },
        "client_cpu_s": round(client_cpu, 2),
        "socket_bytes_received_per_action": (
            round((wire_after - wire_before) / run.window_actions) if run.window_actions else None
        ),
        "database_cpu_s": round(database_after - database_before, 2),
        "check": checked,
    }
    if after_idle_kb is not None:
        total_games = max(1, len(run.games))
        report["server"]["rss_mb_after_idle"] = [round(k / 1024, 1) for k in after_idle_kb]
        report["server"]["kb_per_game_after_idle"] = round(
            (sum(after_idle_kb) - sum(idle_kb)) / total_games, 2
        )
    if args.fault:
        report["fault"] = {
            **fault_report,
            "acknowledged": checked["acknowledged"],
            "lost": checked["lost"],
            "stuck": checked["stuck"],
            "seq_regressions": run.seq_regressions,
            "unconfirmed": run.unconfirmed,
            "disconnects": sum(run.disconnects.values()),
        }
    return report


@contextlib.contextmanager
def database(kind: str, folder: Path) -> Iterator[tuple[str, int | None]]:
    """A fresh database URL: a SQLite file in ``folder``, or a throw-away PostgreSQL (then
    with its server's process id, to read its CPU time)."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'load.db'}", None
        return
    with Cluster(durable=True, max_connections=400) as cluster:
        yield cluster.database(), cluster.pid()


def raise_file_limit() -> None:
    """Thousands of sockets: lift the soft limit on open files (the servers inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        )
        return out.stdout.strip() or "unknown"
    except OSError:
        return "unknown"


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="concurrent games (50/200/1000)")
    parser.add_argument("--processes", type=int, default=1, help="server processes")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--duration", type=float, default=30, help="measuring window, seconds")
    parser.add_argument("--actions", type=int, default=0, help="stop after N actions instead")
    parser.add_argument("--max-duration", type=float, default=600, help="cap with --actions")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--people", type=int, default=2, help="scripted people per game")
    parser.add_argument("--bots", type=int, default=1, help="computer seats per game")
    parser.add_argument("--bot", default="gentle", help="the computer level")
    parser.add_argument("--http-share", type=float, default=0.2, help="actions sent by POST")
    parser.add_argument(
        "--patches",
        action="store_true",
        help="sockets ask for patches after the first view, as the page does",
    )
    parser.add_argument(
        "--think", type=float, default=0, help="seconds a person pauses (0: flat out)"
    )
    parser.add_argument("--spread", choices=["game", "seat"], default="game")
    parser.add_argument(
        "--beside", type=int, default=0, help="loops of four-computer games and their analysis"
    )
    parser.add_argument("--beside-bot", default="strong", help="their computer level")
    parser.add_argument(
        "--person",
        action="store_true",
        help="time one person against --person-bot, quiet and beside --beside games",
    )
    parser.add_argument("--person-bot", default="greedy", help="the person's opponent")
    parser.add_argument("--pairs", type=int, default=3, help="--person: quiet/beside pairs")
    parser.add_argument(
        "--analysers",
        type=int,
        default=0,
        help="--person: people asking their game's analysis over and over, beside",
    )
    parser.add_argument(
        "--beside-only",
        action="store_true",
        help="--person: only the runs beside the computer games (no quiet ones)",
    )
    parser.add_argument("--warmup", type=float, default=3, help="--person: seconds before")
    parser.add_argument("--fault", action="store_true", help="SIGKILL process 0 halfway")
    parser.add_argument("--fault-at", type=float, default=5, help="with --actions: seconds in")
    parser.add_argument("--fault-down", type=float, default=1, help="seconds before restart")
    parser.add_argument("--stall-after", type=float, default=30, help="seconds without news")
    parser.add_argument("--stuck-after", type=float, default=5, help="grace for computers")
    parser.add_argument("--idle-wait", type=float, default=0, help="then measure RSS again")
    parser.add_argument(
        "--env", action="append", default=[], metavar="NAME=VALUE", help="server setting"
    )
    parser.add_argument("--quick", action="store_true", help="a tiny run, for the tests")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.duration, args.stall_after = min(args.games, 4), 3.0, 20.0
        args.pairs, args.warmup = min(args.pairs, 1), min(args.warmup, 1.0)
        args.beside = min(args.beside, 2) if args.person else args.beside
    return args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    raise_file_limit()
    report: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d"),
        "commit": _commit(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "config": {
            key: getattr(args, key)
            for key in (
                "games",
                "processes",
                "database",
                "duration",
                "actions",
                "variant",
                "people",
                "bots",
                "bot",
                "http_share",
                "patches",
                "think",
                "spread",
                "fault",
                "quick",
                "beside",
                "beside_bot",
                "person",
                "person_bot",
                "pairs",
                "analysers",
            )
        },
    }
    with tempfile.TemporaryDirectory(prefix="mathable-load-") as name:
        folder = Path(name)
        if args.person:
            env = {**os.environ, **GENEROUS_LIMITS}
            env.update(item.split("=", 1) for item in args.env)
            report.update(person_runs(args, env, folder))
            print(json.dumps(report, indent=2))
            return report
        with database(args.database, folder) as (url, database_pid):
            env = {**os.environ, **GENEROUS_LIMITS, "DATABASE_URL": url}
            env.update(item.split("=", 1) for item in args.env)
            servers: list[ServerProcess] = []
            try:
                for i in range(args.processes):
                    servers.append(ServerProcess(i, env, folder).start())
                report.update(asyncio.run(drive(args, servers, database_pid)))
            finally:
                for server in servers:
                    server.stop()
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
