"""How long a person's master opponent waits in the long jobs' lane behind analyses
(issue 35): with the gate's order (a free long worker to the master's turn first:
``web/infra/priority.py``) and without it (first come, first served, as the pool's own
queue), in interleaved rounds on the same server pool.

Each round queues ``--analyses`` whole-game analyses at the master's depth (a seeded game
of strong against the expert), then a master decision from a mid-game view, and times
the decision from its queueing to its answer. Printed as JSON: per order, the decisions'
waits (median, max), and the median of the rounds' ratios (first come over gate), the
figure to compare across days (the machines are shared and noisy).

    .venv/bin/python benchmarks/long_lane.py --rounds 4 --analyses 4
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from typing import Any

from mathable.ai.arena import play_game
from mathable.engine import records
from mathable.games import registry
from mathable.web.infra import workers
from mathable.web.infra.workers import Workers, analyse_record, slow_decision


async def _round(pool: Workers, record: str, analyses: int, seed: int, view: Any) -> float:
    """Seconds from a master decision's queueing, behind ``analyses`` analyses, to its
    answer."""
    jobs = [
        asyncio.ensure_future(pool.run(analyse_record, record, "master")) for _ in range(analyses)
    ]
    queued = time.perf_counter()
    # asked for after them, it reaches the lane after them (tasks start in order)
    await asyncio.ensure_future(pool.run(slow_decision, "master", seed, view, time.time()))
    waited = time.perf_counter() - queued
    await asyncio.gather(*jobs)
    return waited


async def _measure(rounds: int, analyses: int, size: int) -> dict[str, Any]:
    played = play_game(["strong", "expert"], "classic", 3_200_000, keep_record=True)
    game = registry.from_record(json.dumps(played.record))
    record = records.dumps(game)
    middle = game.replayed(len(game.log) // 2)
    view = middle.view(middle.to_move, explained=False)
    pool = Workers(size)
    pool.start()
    waits: dict[str, list[float]] = {"gate": [], "first_come": []}
    urgent = workers.URGENT_LONG_JOBS
    try:
        await pool.run(analyse_record, record, "expert")  # the long pool's start, not timed
        for number in range(rounds):
            orders = ("gate", "first_come") if number % 2 == 0 else ("first_come", "gate")
            for order in orders:
                workers.URGENT_LONG_JOBS = urgent if order == "gate" else ()
                waits[order].append(await _round(pool, record, analyses, number, view))
    finally:
        workers.URGENT_LONG_JOBS = urgent
        pool.shutdown()
    ratios = [slow / fast for slow, fast in zip(waits["first_come"], waits["gate"], strict=True)]
    return {
        "rounds": rounds,
        "analyses_queued": analyses,
        "long_workers": size,
        **{
            order: {
                "median_s": round(statistics.median(found), 3),
                "max_s": round(max(found), 3),
                "all_s": [round(w, 3) for w in found],
            }
            for order, found in waits.items()
        },
        "median_ratio_first_come_over_gate": round(statistics.median(ratios), 2),
    }


def main() -> None:
    """Print the master decision's wait with and without the gate's order as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4, help="rounds of each order")
    parser.add_argument("--analyses", type=int, default=4, help="analyses queued first")
    parser.add_argument("--workers", type=int, default=1, help="the pool's size")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(_measure(args.rounds, args.analyses, args.workers)), indent=2))


if __name__ == "__main__":
    main()
