"""A server's start-up with many clocked games stored (issue 15, clocks at scale), printed
as JSON.

Usage: ``python benchmarks/clock_startup.py build DB [--finished 2000] [--running 50]
[--moves 10]`` stores that many two-player 90+0 online games in the SQLite file ``DB``:
the finished ones with ``--moves`` actions each and then resigned, the running ones with
the same actions and their clock running. ``python benchmarks/clock_startup.py measure DB``
starts the app's lifespan on a copy of it and reports the time until its start-up work
(the resume of computer players and clock timers) is done, the games it loaded into
memory, the timers set, the Python heap it holds then (``tracemalloc``, after a garbage
collection) and the process's peak RSS. Run ``measure`` with ``PYTHONPATH`` pointing at
another version's ``src`` (``git archive``) to compare: the database is the same.
``python benchmarks/clock_startup.py presence URL`` times one presence poll of 500
watched games and one heartbeat on the (empty) database at ``URL``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import secrets
import shutil
import sys
import tempfile
import time
import tracemalloc
from typing import Any

CLOCK = {"minutes": 90, "increment": 0}


def build(path: str, finished: int, running: int, moves: int) -> None:
    from mathable.web.infra.store import EventStore, StoredSeat
    from mathable.web.infra.workers import replay

    store = EventStore(f"sqlite:///{path}")
    seats: list[StoredSeat] = [
        {"name": n, "bot": None, "token_hash": None, "invite_hash": None} for n in "AB"
    ]
    names = [s["name"] for s in seats]
    now = time.time()
    for number in range(finished + running):
        spec = {
            "variant": "classic",
            "seed": number,
            "house_rules": {},
            "mode": "online",
            "clock": CLOCK,
            "rated": False,
        }
        game_id = secrets.token_urlsafe(8)
        store.create(game_id, spec, seats, created=now)
        game = replay(spec, names, [])
        for seq in range(moves):
            legal = game.legal_actions()
            if not legal or game.is_over:
                break
            action = next((a for a in legal if "=" in game.format_action(a)), legal[0])
            game.apply(action)
            store.append(game_id, seq, game.format_action(action), None, now)
        if number < finished:
            store.append(game_id, len(game.log), "resign 0", 0, now, True)
    store.close()


def measure(path: str) -> dict[str, Any]:
    os.environ["MATHABLE_WORKERS"] = "0"
    from fastapi.testclient import TestClient

    from mathable.web.api import create_app

    with tempfile.TemporaryDirectory() as folder:
        copy = os.path.join(folder, "games.db")
        shutil.copy(path, copy)
        app: Any = create_app(f"sqlite:///{copy}")
        service = app.state.service
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        start = time.perf_counter()
        with TestClient(app) as client:
            waited = time.monotonic() + 600
            while time.monotonic() < waited:
                resuming = service._resuming
                portal = client.portal
                assert portal is not None  # the client's portal is open inside its ``with``
                if resuming is not None and portal.call(resuming.done):
                    break
                time.sleep(0.01)
            seconds = time.perf_counter() - start
            gc.collect()
            held = tracemalloc.get_traced_memory()[0] - base
            scheduler = getattr(service, "clocks", None)
            timers = len(scheduler) if scheduler is not None else len(service._clock_tasks)
            loaded = len(service.live)
        tracemalloc.stop()
    return {
        "startup_s": round(seconds, 3),
        "games_loaded": loaded,
        "timers": timers,
        "heap_held_mb": round(held / 2**20, 2),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def presence_poll(url: str, games: int, repeats: int = 50) -> dict[str, Any]:
    """The cost of one presence poll (:mod:`mathable.web.rounds.presence`): the rows of ``games``
    watched games, two seats each, read in one go; and of one heartbeat."""
    from mathable.web.infra.store import EventStore, StoredSeat
    from mathable.web.rounds.presence import PresenceTable, Row

    store = EventStore(url)
    table = PresenceTable(store)
    seats: list[StoredSeat] = [
        {"name": n, "bot": None, "token_hash": None, "invite_hash": None} for n in "AB"
    ]
    ids = []
    now = time.time()
    for number in range(games):
        game_id = secrets.token_urlsafe(8)
        store.create(game_id, {"variant": "classic", "seed": number, "mode": "online"}, seats)
        for seat in range(2):
            table.write(game_id, seat, "me", Row(seat, "me", now, True, now))
        ids.append(game_id)
    polls, beats = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        found = table.rows(ids)
        polls.append(time.perf_counter() - start)
        start = time.perf_counter()
        table.beat("me", time.time())
        beats.append(time.perf_counter() - start)
    assert sum(len(r) for r in found.values()) == 2 * games
    store.close()
    return {
        "watched_games": games,
        "poll_ms_median": round(sorted(polls)[len(polls) // 2] * 1000, 2),
        "heartbeat_ms_median": round(sorted(beats)[len(beats) // 2] * 1000, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("what", choices=["build", "measure", "presence"])
    parser.add_argument("database", help="a SQLite file (presence: a database URL)")
    parser.add_argument("--finished", type=int, default=2000)
    parser.add_argument("--running", type=int, default=50)
    parser.add_argument("--moves", type=int, default=10)
    args = parser.parse_args()
    if args.what == "build":
        build(args.database, args.finished, args.running, args.moves)
        print(
            json.dumps({"built": args.database, "finished": args.finished, "running": args.running})
        )
    elif args.what == "presence":
        json.dump(presence_poll(args.database, 500), sys.stdout)
        print()
    else:
        json.dump(measure(args.database), sys.stdout)
        print()


if __name__ == "__main__":
    main()
