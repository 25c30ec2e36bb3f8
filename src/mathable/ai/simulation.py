"""The expert's look-ahead: simulated continuations of a board game (Quackle's method).

Each candidate turn is played on the board, then the opponent's reply and the player's
own next turn are played out by a fast greedy policy, from racks sampled out of the
tokens the player has not seen. With the bag empty and two players the opponent's rack
is known, and its reply is searched exactly instead.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from mathable.games.board.board import Board
from mathable.games.board.variants import Variant

from .search import TurnPlan, best_turn


def greedy_turn(variant: Variant, board: Board, rack: list[int], started_with: int) -> int:
    """Play the best single placement again and again (a fast rollout policy) and
    return the turn's points with its bonus; the placements stay on the board."""
    points, placed = 0, 0
    while rack:
        best = None
        for value in set(rack):
            for cell in variant.legal_cells(board, value, False):
                gain = variant.placement_points(board, cell, value)
                if best is None or gain > best[0]:
                    best = (gain, cell, value)
        if best is None:
            break
        gain, cell, value = best
        board.place(cell, value)
        rack.remove(value)
        points += gain
        placed += 1
    return points + (variant.turn_bonus(started_with, len(rack)) if placed else 0)


REPLY_NODES = 2_000
"""The node budget of a searched reply in a simulation (most turns need far fewer)."""


def simulate(
    variant: Variant,
    board: Board,
    bag_size: int,
    shortlist: Sequence[TurnPlan],
    pool: Sequence[int],
    rng: random.Random,
    *,
    samples: int,
    deadline: float | None,
    searched_reply: bool = False,
) -> list[float]:
    """Average of plan points - opponent's reply + own next turn over ``samples``
    sampled continuations (fewer once ``time.perf_counter()`` passes ``deadline``, but
    at least one; None: all of them); every plan sees the same samples (common random
    numbers). With ``searched_reply`` the opponent replies with its best whole turn
    (the exact search, as the strong player) rather than greedily."""
    size = variant.rack_size
    totals = [0.0] * len(shortlist)
    done = 0
    while done < samples:
        if done and deadline is not None and time.perf_counter() > deadline:
            break
        drawn = rng.sample(pool, len(pool))
        opponent, rest = drawn[:size], drawn[size:]
        for index, plan in enumerate(shortlist):
            refill = rest[: min(size - len(plan.leave), bag_size)]
            for cell, value in plan.placements:
                board.place(cell, value)
            mark = len(board.history)
            if searched_reply:
                best = best_turn(
                    variant, board, opponent, started_with=len(opponent), node_limit=REPLY_NODES
                )
                for cell, value in best.placements:
                    board.place(cell, value)
                reply = best.total
            else:
                reply = greedy_turn(variant, board, list(opponent), len(opponent))
            mine = list(plan.leave) + refill
            ours = greedy_turn(variant, board, mine, len(mine))
            while len(board.history) > mark - len(plan.placements):
                board.unplace()
            totals[index] += plan.total - reply + ours
        done += 1
    return [t / done for t in totals]


def endgame_value(
    variant: Variant,
    board: Board,
    plan: TurnPlan,
    opponent: tuple[int, ...],
    node_limit: int = 200_000,
) -> float:
    """Bag empty, two players: the opponent's rack is known; its best reply is
    searched exactly (within ``node_limit`` positions) and the end-of-game deductions
    counted (C11)."""
    for cell, value in plan.placements:
        board.place(cell, value)
    reply = best_turn(variant, board, opponent, started_with=len(opponent), node_limit=node_limit)
    for _ in plan.placements:
        board.unplace()
    outcome = float(plan.total - reply.total)
    if not plan.leave:  # we go out: the opponent's tokens are deducted
        return plan.total + sum(opponent)
    if not reply.leave:  # the opponent goes out after us
        outcome -= sum(plan.leave)
    else:
        outcome -= 0.5 * sum(plan.leave)
    return outcome
