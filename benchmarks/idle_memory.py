"""Memory per idle game after eviction (issue 13's target: at most 5 KB), printed as JSON.

Usage: ``python benchmarks/idle_memory.py [--games N]``. One in-process server keeps at
most 10 games in memory (``MATHABLE_LIVE_GAMES=10``); N games are created and played
one action each, so all but 10 are evicted; what they leave behind in Python's heap
(``tracemalloc``, after a garbage collection) is divided by N. Process RSS is not used:
the allocator rarely returns freed memory to the system, so RSS says little per game.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import tempfile
import tracemalloc
from typing import Any

PEOPLE = {"variant": "classic", "players": [{"name": "Ann"}, {"name": "Bob"}], "mode": "screen"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    args = parser.parse_args()
    os.environ.update(
        MATHABLE_LIVE_GAMES="10", MATHABLE_RATE_CREATE="off", MATHABLE_RATE_ACTION="off"
    )
    from fastapi.testclient import TestClient

    from mathable.web.api import create_app

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{folder}/idle.db")
        with TestClient(app) as client:

            def play(n: int) -> None:
                for _ in range(n):
                    made: dict[str, Any] = client.post("/api/games", json=PEOPLE).json()
                    game_id, tokens = made["id"], [s["token"] for s in made["seats"]]
                    token = tokens[client.get(f"/api/games/{game_id}").json()["to_move"]]
                    view = client.get(f"/api/games/{game_id}", params={"token": token}).json()
                    action = next((a for a in view["legal"] if "=" in a), "pass")
                    body = {"token": token, "action": action}
                    assert client.post(f"/api/games/{game_id}/actions", json=body).is_success

            play(50)  # warm: caches, the worker pool, the first evictions
            gc.collect()
            tracemalloc.start()
            before = tracemalloc.take_snapshot()
            play(args.games)
            gc.collect()
            after = tracemalloc.take_snapshot()
            grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
            print(
                json.dumps(
                    {
                        "games": args.games,
                        "in_memory": len(app.state.service.live),
                        "bytes_per_idle_game": round(grown / args.games),
                    }
                )
            )


if __name__ == "__main__":
    main()
