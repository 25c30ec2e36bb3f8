"""Training the leave model of :mod:`.leaves` by self-play (issue 16, ``mathable
train-leaves``): leave-blind games between two :data:`TRAINER` players, the leaves kept
and the points of the next turn fitted by ridge least squares, the tokens kept and
whether they stuck to the end fitted by a logistic model per value.

Apart from :mod:`.leaves` (the model, its files and judges, which :mod:`.strong` uses)
because the self-play plays with the levels of :mod:`mathable.ai`: nothing in ``ai/``
imports this module, so the package and the model stay free of an import circle (issue
34). The same games, seed and command write the same file, byte for byte.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

from mathable.ai import get_bot
from mathable.ai.base import share_board
from mathable.engine.actions import Place
from mathable.engine.protocol import View
from mathable.games.board.view import BoardView
from mathable.games.quattro.view import PilesView
from mathable.games.registry import new_game

from .families import by_surface
from .leaves import LeaveModel

TRAINER = "strong:leaves=none"
"""The self-play that makes the data: leave-blind, so it carries no leave judgement."""
RIDGE = 5.0
"""How strongly the weights are pulled to 0 (few samples of a rare value stay small)."""

Sample = tuple[tuple[int, ...], int]
"""A leave kept with the bag not empty, and its player's points in the next turn."""
Stuck = tuple[int, int, bool]
"""A token kept with the bag not empty: its value, the bag's size, and whether it was
still on the rack when the game ended."""


@dataclass
class GameSamples:
    """What one self-play game teaches: its leaves and its kept tokens' fates."""

    leaves: list[Sample]
    stuck: list[Stuck]


def game_samples(job: tuple[str, int]) -> GameSamples:
    """Play one leave-blind self-play game from ``seed`` and return its samples (a
    top-level function, for process pools)."""
    game_name, seed = job
    game = new_game(game_name, ["a", "b"], seed=seed)
    bots = [get_bot(TRAINER, seed * 2 + seat) for seat in range(2)]
    share_board(bots)
    # (seat, turn number, leave, bag, index of the seat's turn end)
    kept: list[tuple[int, int, tuple[int, ...], int, int]] = []
    racks: list[list[Counter[int]]] = [[], []]  # each seat's rack after each turn
    while not game.is_over:
        seat = game.to_move
        view = _board(game.view(seat, explained=False))
        action = bots[seat].act(view)
        turns_before = len(view.turns)
        game.apply(action)
        after = _board(game.view(None, explained=False))
        if len(after.turns) > turns_before:  # the turn ended: what the seat kept
            rack = list(view.rack)
            if isinstance(action, Place):
                rack.remove(action.value)
            if after.turns[turns_before].kind == "place" and view.bag_size > 0 and rack:
                leave = tuple(sorted(rack))
                kept.append((seat, turns_before, leave, view.bag_size, len(racks[seat])))
            racks[seat].append(Counter(_board(game.view(seat, explained=False)).rack))
    final = _board(game.view(None, explained=False))
    ends = [Counter(_board(game.view(seat, explained=False)).rack) for seat in range(2)]
    leaves: list[Sample] = []
    stuck: list[Stuck] = []
    for seat, number, leave, bag, index in kept:
        following = next((t for t in final.turns[number + 1 :] if t.seat == seat), None)
        if following is not None:
            leaves.append((leave, following.points))
        # The k-th copy of a value kept is still there at the end if the seat held at
        # least k copies after every turn since (tokens of a value are alike: a copy
        # drawn later may stand in for one played, which the counts cannot tell).
        since = racks[seat][index + 1 :]
        for value, count in Counter(leave).items():
            held = min([ends[seat][value], *(r[value] for r in since)])
            stuck.extend((value, bag, copy <= held) for copy in range(1, count + 1))
    return GameSamples(leaves, stuck)


def _board(view: View) -> BoardView:
    """The view of a game played on a board (training plays no other)."""
    return by_surface(view, _same, _no_board)


def _same(view: BoardView) -> BoardView:
    return view


def _no_board(view: PilesView) -> BoardView:
    raise ValueError(f"{view.variant} keeps no rack between turns")


def features(leave: Sequence[int], values: Sequence[int], sizes: int) -> dict[int, float]:
    """The leave as sparse features: a count per token value, the extra copies, the
    size (one-hot): indexes into ``values`` + [duplicate] + sizes."""
    found: dict[int, float] = {}
    index = {v: i for i, v in enumerate(values)}
    previous = None
    for value in sorted(leave):
        found[index[value]] = found.get(index[value], 0.0) + 1.0
        if value == previous:
            found[len(values)] = found.get(len(values), 0.0) + 1.0
        previous = value
    found[len(values) + 1 + min(len(leave), sizes - 1)] = 1.0
    return found


def fit(game: str, samples: Sequence[Sample], values: Sequence[int], sizes: int = 7) -> LeaveModel:
    """The ridge least-squares model of the next turn's points from the leave."""
    width = len(values) + 1 + sizes
    gram = [[0.0] * width for _ in range(width)]
    target = [0.0] * width
    mean = sum(points for _, points in samples) / max(1, len(samples))
    for leave, points in samples:
        row = features(leave, values, sizes)
        y = points - mean
        for i, xi in row.items():
            target[i] += xi * y
            gram_i = gram[i]
            for j, xj in row.items():
                gram_i[j] += xi * xj
    for i in range(width):
        gram[i][i] += RIDGE
    weights = _solve(gram, target)
    return LeaveModel(
        game,
        {v: weights[i] for i, v in enumerate(values)},
        weights[len(values)],
        tuple(weights[len(values) + 1 :]),
    )


def _solve(matrix: list[list[float]], right: list[float]) -> list[float]:
    """Solve ``matrix x = right`` (symmetric positive definite: ridge keeps it so) by
    Gaussian elimination with partial pivoting."""
    n = len(right)
    a = [[*row, right[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            if factor:
                row, top = a[r], a[col]
                for c in range(col, n + 1):
                    row[c] -= factor * top[c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


STUCK_RIDGE = 1.0
"""How strongly each value's stuck-token weights are pulled to 0."""


def fit_stuck(samples: Sequence[Stuck]) -> dict[int, tuple[float, float]]:
    """Per token value, the logistic model of the chance that a token kept is still on
    the rack at the end, from the logarithm of the bag's size: two weights fitted by
    Newton's method on the ridge-penalised likelihood (exact and quick: the samples are
    counted per value and bag size first)."""
    counts: dict[int, Counter[tuple[int, bool]]] = {}
    for value, bag, stuck in samples:
        counts.setdefault(value, Counter())[bag, stuck] += 1
    return {value: _logistic(found) for value, found in sorted(counts.items())}


def _logistic(counts: Counter[tuple[int, bool]]) -> tuple[float, float]:
    rows = [(math.log1p(bag), n, stuck) for (bag, stuck), n in counts.items()]
    intercept = slope = 0.0
    for _ in range(100):
        grad_a, grad_b = -STUCK_RIDGE * intercept, -STUCK_RIDGE * slope
        h_aa = h_bb = STUCK_RIDGE
        h_ab = 0.0
        for x, n, stuck in rows:
            p = 1.0 / (1.0 + math.exp(-(intercept + slope * x)))
            residual = n * ((1.0 if stuck else 0.0) - p)
            grad_a += residual
            grad_b += residual * x
            weight = n * p * (1.0 - p)
            h_aa += weight
            h_ab += weight * x
            h_bb += weight * x * x
        det = h_aa * h_bb - h_ab * h_ab
        step_a = (h_bb * grad_a - h_ab * grad_b) / det
        step_b = (h_aa * grad_b - h_ab * grad_a) / det
        intercept += step_a
        slope += step_b
        if abs(step_a) + abs(step_b) < 1e-10:
            break
    return intercept, slope


def train(
    game: str,
    games: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[], None] | None = None,
) -> tuple[LeaveModel, int]:
    """Play ``games`` leave-blind self-play games of ``game`` from ``seed`` (game ``i``
    from ``seed + i``) across ``jobs`` processes, and fit the model; also returns the
    number of leave samples."""
    from mathable.games.board.variants import get_variant

    work = [(game, seed + i) for i in range(games)]
    samples: list[Sample] = []
    stuck: list[Stuck] = []
    for found in _played(work, jobs):
        samples.extend(found.leaves)
        stuck.extend(found.stuck)
        if progress is not None:
            progress()
    variant = get_variant(game)
    model = fit(game, samples, sorted(variant.tokens), variant.rack_size)
    return replace(model, stuck=fit_stuck(stuck)), len(samples)


def _played(work: list[tuple[str, int]], jobs: int) -> Iterator[GameSamples]:
    if jobs == 1:
        yield from map(game_samples, work)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(game_samples, work, chunksize=4)
