"""Train a small policy in the PettingZoo environment against the greedy computer player,
then measure it on games it never trained on (issue 36).

``python examples/rl_greedy_vs_learned.py [--variant classic] [--iterations 8]
[--population 12] [--games 6] [--eval-games 200] [--seed 0]``

The policy scores each legal action (the observation's ``action_mask``) with a linear
function of a few features (what kind of action it is, the points a placement scores
as the game explains it, the value placed, the square's kind, how many pieces an
exchange swaps) and plays the best. Its weights are learned by the cross-entropy method:
each iteration samples ``--population`` weight vectors from a Gaussian, plays each
``--games`` games against ``greedy`` (``mathable.ai``, seats alternating), and refits the
Gaussian to the best quarter by mean score difference. The last mean is then played on
``--eval-games`` held-out deals; the win rate is printed with its 95% (Wilson) interval,
as JSON. Needs ``pip install mathable[rl]``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from mathable.ai import get_bot
from mathable.engine.actions import ACTION_KINDS, Action, Exchange, Place, action_kind
from mathable.games.registry import GAMES
from mathable.rl import MathableEnv, raw_env

KINDS = ACTION_KINDS
"""Every action keyword (``place``, ``extra``, ``end``, ``pass``, ``exchange``…)."""
FEATURES = (*KINDS, "points", "value", "award", "swapped")
HELD_OUT = 1_000_000
"""Evaluation deals are seeded from here on; training deals lie below."""

Weights = npt.NDArray[np.float64]


def features(game: MathableEnv, action: Action) -> npt.NDArray[np.float64]:
    """What the policy sees of one legal action (all of it public or the seat's own)."""
    found = np.zeros(len(FEATURES))
    found[KINDS.index(action_kind(action))] = 1.0
    top = max(game.layout.values)
    if isinstance(action, Place):
        with contextlib.suppress(NotImplementedError):  # Quattro explains none
            found[-4] = game.game.explain(action).points / 20
        found[-3] = action.value / top
        found[-2] = game.kind.targets[action.cell].kind in ("x2", "x3")
    elif isinstance(action, Exchange):
        found[-1] = len(action.values) / game.kind.rack_size
    return found


def learned_action(game: MathableEnv, weights: Weights) -> int:
    """The legal action whose features score best under ``weights``."""
    legal = game.legal()
    return max(legal, key=lambda index: float(features(game, legal[index]) @ weights))


def play(variant: str, weights: Weights, seed: int, learned_seat: int) -> tuple[int, bool]:
    """One game against greedy: the learned seat's score difference, and whether it won
    alone."""
    game = raw_env(variant, 2)
    game.reset(seed=seed)
    greedy = get_bot("greedy", seed=seed)
    while not game.game.is_over:
        seat = game.game.to_move
        if seat == learned_seat:
            game.step(learned_action(game, weights))
        else:
            action = greedy.act(game.game.view(seat, explained=False))
            game.step(game.codec.encode(action, game.game.rack(seat)))
    scores = game.game.scores
    won = game.game.winners() == (learned_seat,)
    return scores[learned_seat] - scores[1 - learned_seat], won


def fitness(variant: str, weights: Weights, seeds: range) -> float:
    """Mean score difference against greedy over ``seeds``, seats alternating."""
    return float(np.mean([play(variant, weights, s, s % 2)[0] for s in seeds]))


def train(args: argparse.Namespace) -> tuple[Weights, list[float]]:
    """The cross-entropy method over the weights; the best fitness of each iteration."""
    rng = np.random.default_rng(args.seed)
    mean, spread = np.zeros(len(FEATURES)), np.ones(len(FEATURES))
    elite, history = max(2, args.population // 4), []
    for iteration in range(args.iterations):
        seeds = range(iteration * args.games, (iteration + 1) * args.games)
        samples = rng.normal(mean, spread, size=(args.population, len(FEATURES)))
        scored = sorted(
            ((fitness(args.variant, w, seeds), i) for i, w in enumerate(samples)), reverse=True
        )
        best = samples[[i for _, i in scored[:elite]]]
        mean, spread = best.mean(axis=0), best.std(axis=0) + 0.05
        history.append(round(scored[0][0], 1))
    return mean, history


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    return max(0.0, centre - half / (1 + z * z / games)), min(
        1.0, centre + half / (1 + z * z / games)
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=list(GAMES), default="classic")
    parser.add_argument("--iterations", type=int, default=8)
    parser.add_argument("--population", type=int, default=12)
    parser.add_argument("--games", type=int, default=6, help="training games per candidate")
    parser.add_argument("--eval-games", type=int, default=200, help="held-out games")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    weights, history = train(args)
    trained = time.perf_counter() - start
    results = [play(args.variant, weights, HELD_OUT + s, s % 2) for s in range(args.eval_games)]
    wins = sum(won for _, won in results)
    low, high = wilson(wins, len(results))
    report: dict[str, Any] = {
        "variant": args.variant,
        "opponent": "greedy",
        "weights": {name: round(float(w), 3) for name, w in zip(FEATURES, weights, strict=True)},
        "best_fitness_per_iteration": history,
        "training_seconds": round(trained, 1),
        "eval_games": len(results),
        "wins": wins,
        "win_rate": round(wins / max(1, len(results)), 3),
        "win_rate_95": [round(low, 3), round(high, 3)],
        "mean_score_difference": round(float(np.mean([d for d, _ in results])), 1)
        if results
        else 0.0,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
