"""How long a tournament takes to pair one round (issue 38: "an arena of 500 players and a
Swiss of 200 pair each round within a second"), printed as JSON.

Usage: ``python benchmarks/pairing.py [--repeats 7] [--swiss 200] [--arena 500]
[--rounds 7]``. A Swiss of ``--swiss`` players is played ``--rounds`` rounds with seeded
random results (decisive and drawn), and each round's :func:`due` (which reads the whole
log's history and pairs) is timed ``--repeats`` times: the report gives the median per
round and the slowest round's median. An arena of ``--arena`` players plays waves in
which every board finishes, so everyone waits at once, the largest wave there can be; each
wave's pairing is timed the same way. A crowded Swiss (``--crowded`` players, as many
rounds as players less 15, where repeats and first-player balance are hard to avoid and
the exact blossom search takes over) reports its slowest round, timed once per round.
The machine's load average is reported beside the figures (the machine may be shared:
read the medians with it).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from mathable.online.tournaments import (
    Joined,
    Paired,
    Result,
    Spec,
    Started,
    State,
    apply,
    due,
    replay,
)

OUTCOMES = [(1.0, 0.0), (0.0, 1.0), (0.5, 0.5), (1.0, 0.0), (0.0, 1.0)]


def median_ms(work: Callable[[], object], repeats: int) -> float:
    """The median wall time of ``work``, in milliseconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def field(spec: Spec, count: int, rng: random.Random) -> State:
    players = [Joined(f"p{i:04d}", f"P{i}", rng.uniform(1000, 2200)) for i in range(count)]
    return replay(spec, [*players, Started(0)])


def finish_round(state: State, paired: Paired, rng: random.Random) -> None:
    apply(state, paired)
    for board in paired.boards:
        scores = (rng.randint(150, 450), rng.randint(150, 450))
        apply(state, Result(paired.round, board.board, rng.choice(OUTCOMES), scores))


def play(state: State, rounds: int, repeats: int, rng: random.Random) -> list[float]:
    """Pair ``rounds`` rounds, timing each pairing; every board then gets a result."""
    medians = []
    for number in range(1, rounds + 1):
        now = float(number)
        medians.append(round(median_ms(lambda: due(state, now), repeats), 2))  # noqa: B023
        (paired,) = due(state, now)
        assert isinstance(paired, Paired)
        finish_round(state, paired, rng)
    return medians


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--swiss", type=int, default=200)
    parser.add_argument("--arena", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--crowded", type=int, default=61)
    args = parser.parse_args(argv)
    rng = random.Random(38)
    swiss = field(Spec("Open", "classic", "swiss", rounds=args.rounds), args.swiss, rng)
    swiss_ms = play(swiss, args.rounds, args.repeats, rng)
    arena = field(Spec("Blitz", "classic", "arena", minutes=60), args.arena, rng)
    arena_ms = play(arena, args.rounds, args.repeats, rng)
    late = max(1, args.crowded - 15)
    crowded = field(Spec("Late", "classic", "swiss", rounds=late), args.crowded, rng)
    crowded_ms = play(crowded, late, 1, rng)
    report: dict[str, Any] = {
        "swiss": {"players": args.swiss, "round_ms_median": swiss_ms, "worst_ms": max(swiss_ms)},
        "arena": {"players": args.arena, "wave_ms_median": arena_ms, "worst_ms": max(arena_ms)},
        "crowded_swiss": {"players": args.crowded, "rounds": late, "worst_ms": max(crowded_ms)},
        "repeats": args.repeats,
        "loadavg": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
    }
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
