"""The analysis at each depth (``mathable analyse --depth``, issue 35): how long a whole
game's analysis takes at the default (the expert's judgement at the web's budget) and at
the master's budgets, how often the two name the same best turn, and how well each
depth's accuracy tells the result: in how many decided games the winner is rated the
more accurate, the correlation of the two players' accuracy difference with their
margin, and the mean accuracy of each level (strong plays the first seat).

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


LEVELS = ("strong", "expert")
"""The players of the games analysed, in seat order."""


def _tells(games: list[tuple[int, list[float]]]) -> dict[str, Any]:
    """How one depth's accuracy tells the results of ``games`` (each the first seat's
    margin and both seats' accuracy): the winner rated the more accurate in how many
    decided games, the correlation of the accuracy difference with the margin (None
    with fewer than two games or no spread), and each level's mean accuracy."""
    decided = [(margin, a) for margin, a in games if margin != 0]
    winner_more = sum((margin > 0) == (a[0] > a[1]) for margin, a in decided if a[0] != a[1])
    differences = [a[0] - a[1] for _, a in games]
    margins = [float(margin) for margin, _ in games]
    try:
        correlation: float | None = round(statistics.correlation(differences, margins), 3)
    except statistics.StatisticsError:  # fewer than two games, or all alike
        correlation = None
    return {
        "winner_more_accurate": f"{winner_more} of {len(decided)}",
        "accuracy_margin_correlation": correlation,
        "mean_accuracy": {
            level: round(statistics.fmean(a[seat] for _, a in games), 1)
            for seat, level in enumerate(LEVELS)
        },
    }


def measure(games: int, seed: int) -> dict[str, Any]:
    """Seconds a game at each depth (median, max), their ratio, the turns on which the
    two depths agree on the best turn, and how each depth's accuracy tells the results
    (:func:`_tells`)."""
    seconds: dict[str, list[float]] = {EXPERT_DEPTH.name: [], MASTER_DEPTH.name: []}
    judged: dict[str, list[tuple[int, list[float]]]] = {name: [] for name in seconds}
    ratios: list[float] = []
    agree = turns = 0
    for number in range(games):
        result = play_game(list(LEVELS), "classic", seed + number, keep_record=True)
        game = registry.from_record(json.dumps(result.record))
        margin = game.scores[0] - game.scores[1]
        order = (EXPERT_DEPTH, MASTER_DEPTH) if number % 2 == 0 else (MASTER_DEPTH, EXPERT_DEPTH)
        timed = {depth.name: _timed(game, depth) for depth in order}
        for name, (spent, report) in timed.items():
            seconds[name].append(spent)
            accuracy = [float(player["accuracy"]) for player in report["players"]]
            judged[name].append((margin, accuracy))
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
        "accuracy_tells": {name: _tells(games) for name, games in judged.items()},
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
