"""Random legal agents in the PettingZoo environment, and how fast it runs (issue 36).

``python examples/rl_random.py [--games 50] [--variant classic] [--players 2]
[--runs 3] [--seed 0]`` plays ``--games`` games of each game of the registry (or of
``--variant`` alone) where every agent picks uniformly among the actions its
observation's ``action_mask`` allows, and prints JSON: per game, the median over
``--runs`` runs of steps per second and games per second, and the mean steps per game.
Needs ``pip install mathable[rl]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import numpy as np

from mathable.games.registry import GAMES
from mathable.rl import env


def play(variant: str, players: int, games: int, seed: int) -> tuple[int, float]:
    """Play ``games`` random legal games; the steps taken and the seconds it took."""
    chooser = random.Random(seed)
    game = env(variant, players, seed=seed)
    steps, start = 0, time.perf_counter()
    for _ in range(games):
        game.reset()
        for _agent in game.agent_iter():
            observation, _reward, terminated, truncated, _info = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            game.step(int(chooser.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    return steps, time.perf_counter() - start


def measure(variant: str, players: int, games: int, runs: int, seed: int) -> dict[str, Any]:
    """The median speed over ``runs`` runs of ``games`` games each."""
    found = [play(variant, players, games, seed + run) for run in range(runs)]
    return {
        "games": games,
        "runs": runs,
        "steps_per_game": round(statistics.mean(s for s, _ in found) / games, 1),
        "steps_per_second": round(statistics.median(s / t for s, t in found)),
        "games_per_second": round(statistics.median(games / t for _, t in found), 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games per run, per game")
    parser.add_argument("--variant", choices=list(GAMES), help="one game only")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3, help="runs; the median is shown")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    variants = [args.variant] if args.variant else list(GAMES)
    report = {
        variant: measure(variant, args.players, args.games, args.runs, args.seed)
        for variant in variants
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
