"""The analysis at each depth (``mathable analyse --depth``, issue 35): how long a whole
game's analysis takes at the default (the expert's judgement at the web's budget) and at
the master's budgets, and how often the two name the same best turn.

Seeded games of strong against the expert in classic are played first (``--games``,
from ``--seed``); each is then analysed at both depths in turn, alternating which goes
first, so the ratio of the two times is measured on the same game a moment apart (the
machines are shared and noisy: the ratio is the figure to compare across days).

    .venv/bin/python benchmarks/analysis_depth.py --games 8
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from mathable.ai.analysis import analysis_report
from mathable.ai.arena import play_game
from mathable.ai.equity import EXPERT_DEPTH, MASTER_DEPTH, Depth
from mathable.engine.protocol import Game
from mathable.games import registry


def _timed(game: Game, depth: Depth) -> tuple[float, dict[str, Any]]:
    start = time.perf_counter()
    report = analysis_report(game, depth)
    return time.perf_counter() - start, report


def measure(games: int, seed: int) -> dict[str, Any]:
    """Seconds a game at each depth (median, max), their ratio and the turns on which the
    two depths agree on the best turn."""
    seconds: dict[str, list[float]] = {EXPERT_DEPTH.name: [], MASTER_DEPTH.name: []}
    ratios: list[float] = []
    agree = turns = 0
    for number in range(games):
        result = play_game(["strong", "expert"], "classic", seed + number, keep_record=True)
        game = registry.from_record(json.dumps(result.record))
        order = (EXPERT_DEPTH, MASTER_DEPTH) if number % 2 == 0 else (MASTER_DEPTH, EXPERT_DEPTH)
        timed = {depth.name: _timed(game, depth) for depth in order}
        for name, (spent, _) in timed.items():
            seconds[name].append(spent)
        ratios.append(timed[MASTER_DEPTH.name][0] / timed[EXPERT_DEPTH.name][0])
        pairs = zip(
            timed[EXPERT_DEPTH.name][1]["turns"], timed[MASTER_DEPTH.name][1]["turns"], strict=True
        )
        for expert, master in pairs:
            turns += 1
            agree += expert["best"] == master["best"]
    return {
        "games": games,
        "seed": seed,
        "seconds_a_game": {
            name: {"median": round(statistics.median(s), 3), "max": round(max(s), 3)}
            for name, s in seconds.items()
        },
        "master_over_expert": round(statistics.median(ratios), 2),
        "same_best_turn": f"{agree} of {turns}",
    }


def main() -> None:
    """Print the measurement as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games analysed")
    parser.add_argument("--seed", type=int, default=90_000, help="the first game's seed")
    args = parser.parse_args()
    print(json.dumps(measure(args.games, args.seed)))


if __name__ == "__main__":
    main()
