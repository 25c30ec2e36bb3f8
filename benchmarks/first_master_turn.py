"""How long a person waits for a fresh server's first master turn (issue 35): with the long
jobs' pool started as the game begins (``Workers.warm_long``) and without (its workers
then start with that first turn), in interleaved runs, each on a server of its own.

Each run makes a game of Ann against the master (seed 1: Ann moves first) through the
API on a fresh app with one worker process, lets Ann read the board for ``--read``
seconds, plays her first legal placement (and ends her turn), and times her action's
answer to the master's turn being over. Printed as JSON: each way's seconds (all, the
median) and the ratio of the medians.

    .venv/bin/python benchmarks/first_master_turn.py --runs 4
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from typing import Any

from fastapi.testclient import TestClient

from mathable.web.api import create_app
from mathable.web.infra.workers import Workers


def _seat_view(client: TestClient, game: str, token: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/games/{game}", params={"token": token}).json()
    return found


def _play(client: TestClient, game: str, token: str, action: str) -> None:
    seq = _seat_view(client, game, token)["seq"]
    body = {"action": action, "seq": seq, "token": token}
    client.post(f"/api/games/{game}/actions", json=body).raise_for_status()


def first_turn(warm: bool, read: float) -> float:
    """Seconds from Ann's turn-ending action to the master's turn being over."""
    saved = Workers.warm_long
    if not warm:
        Workers.warm_long = lambda self: None  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory() as folder:
            app = create_app(f"sqlite:///{folder}/games.db")
            with TestClient(app) as client:
                body = {
                    "variant": "classic",
                    "players": [{"name": "Ann"}, {"name": "M", "bot": "master"}],
                    "seed": 1,
                    "mode": "screen",
                }
                made = client.post("/api/games", json=body).json()
                game, ann = made["id"], made["seats"][0]["token"]
                time.sleep(read)  # Ann reads the board
                legal = _seat_view(client, game, ann)["legal"]
                start = time.perf_counter()
                _play(client, game, ann, next(a for a in legal if "=" in a))
                if not _seat_view(client, game, ann)["turns"]:
                    _play(client, game, ann, "end")
                while 1 not in [t["seat"] for t in _seat_view(client, game, ann)["turns"]]:
                    time.sleep(0.01)
                return time.perf_counter() - start
    finally:
        Workers.warm_long = saved  # type: ignore[method-assign]


def main() -> None:
    """Print the first master turn's wait with and without the warm pool as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=4, help="runs of each way")
    parser.add_argument("--read", type=float, default=3.0, help="seconds before Ann plays")
    args = parser.parse_args()
    os.environ["MATHABLE_WORKERS"] = "1"
    found: dict[str, list[float]] = {"warm": [], "cold": []}
    for number in range(args.runs):
        for way in ("warm", "cold") if number % 2 == 0 else ("cold", "warm"):
            found[way].append(first_turn(way == "warm", args.read))
    medians = {way: statistics.median(seconds) for way, seconds in found.items()}
    print(
        json.dumps(
            {
                **{
                    way: {
                        "all_s": [round(s, 3) for s in seconds],
                        "median_s": round(medians[way], 3),
                    }
                    for way, seconds in found.items()
                },
                "cold_over_warm": round(medians["cold"] / medians["warm"], 2),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
