"""The top of the ladder: strong (exact turn search plus judgement) and expert (simulation).

Both decide from the player's view alone. Each time they are asked for an action they
plan the rest of the turn from the board as it stands, so they need no memory between
calls and a drawn extra token is used at once.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence

from mathable.engine.actions import Action, EndTurn, Exchange, Pass, Place
from mathable.games.board.board import Board
from mathable.games.board.variants import Variant, get_variant
from mathable.games.board.view import BoardView

from .base import AnyView, board_from_view
from .quattro import quattro_act
from .search import TurnPlan, best_turn, search_turns

THREAT_WEIGHT = 0.7
"""How much of the opponent's expected best reply a move is charged with."""


def leave_value(leave: Sequence[int], bag_size: int, rack_size: int) -> float:
    """What the tokens kept on the rack are worth for the turns to come.

    Small numbers fit many equations (every product, sum and difference of small
    numbers), big ones few; duplicates narrow the choice; a 0 scores nothing. Once the
    bag is empty, tokens kept are likely to be deducted at the end (C11).
    """
    if bag_size == 0:
        return -0.6 * sum(leave)
    value = 0.0
    for token, count in Counter(leave).items():
        if token == 0:
            each = -4.0
        elif token <= 10:
            each = 2.0
        elif token <= 20:
            each = 0.0
        else:
            each = -0.08 * token
        value += each * count - 2.5 * (count - 1)
    if rack_size < 7:  # Junior's racks of 5 count every token a little more
        value *= 1.3
    return value


def expected_best_reply(variant: Variant, board: Board, unseen: Mapping[int, int]) -> float:
    """The expected points of the opponent's best single placement: values that score
    most first, each weighted by the chance the opponent holds one (7 tokens drawn from
    the unseen ones) and no better one."""
    total = sum(unseen.values())
    if not total:
        return 0.0
    scored = []
    for value, count in unseen.items():
        if not count:
            continue
        cells = board.cells_accepting(value)
        if cells:
            best = max(variant.placement_points(board, c, value) for c in cells)
            if best:
                scored.append((best, count))
    scored.sort(reverse=True)
    expected, none_better = 0.0, 1.0
    for points, count in scored:
        holds = 1.0 - (1.0 - count / total) ** 7
        expected += none_better * holds * points
        none_better *= 1.0 - holds
    return expected


def _started_with(view: BoardView) -> int:
    extras = sum(1 for p in view.turn_placements if p.extra)
    return len(view.rack) + len(view.turn_placements) - extras


def rank_plans(
    view: BoardView, *, threat: bool = True, top: int = 8
) -> list[tuple[float, TurnPlan]]:
    """The candidate ways to finish the turn, best equity first:
    points + bonus + leave value - the opponent's expected best reply."""
    variant, board = board_from_view(view)
    strict = bool(view.house_rules.get("strict", False))
    plans = search_turns(variant, board, view.rack, started_with=_started_with(view), strict=strict)
    if view.turn_placements:
        options = list(plans.values())
    else:  # at the start of a turn, not placing is a pass or an exchange, judged apart
        options = [p for p in plans.values() if p.placements] or list(plans.values())
    rack_size = variant.rack_size
    scored = [(p.total + leave_value(p.leave, view.bag_size, rack_size), p) for p in options]
    scored.sort(key=lambda e: (-e[0], len(e[1].placements)))
    if threat and variant.partial_turns:
        shortlist = scored[:top]
        unseen = dict(view.unseen)
        rescored = []
        for equity, plan in shortlist:
            for cell, value in plan.placements:
                board.place(cell, value)
            reply = expected_best_reply(variant, board, unseen)
            for _ in plan.placements:
                board.unplace()
            rescored.append((equity - THREAT_WEIGHT * reply, plan))
        rescored.sort(key=lambda e: (-e[0], len(e[1].placements)))
        scored = rescored + scored[top:]
    return scored


def first_action(view: BoardView, plan: TurnPlan) -> Action:
    """The next action of ``plan``: its first placement (taking the extra token on a
    restriction square unless the plan empties the rack for the bonus), or the end."""
    if not plan.placements:
        return EndTurn() if view.turn_placements else _no_placement(view)
    variant = get_variant(view.variant)  # no board needed: building one refreshes every cell
    cell, value = plan.placements[0]
    square = variant.layout.squares[cell]
    extra = (
        variant.extra_draw
        and square.restriction is not None
        and view.bag_size > 0
        and plan.bonus == 0
    )
    return Place(cell, value, extra)


def _no_placement(view: BoardView) -> Action:
    """Nothing worth placing at the start of a turn: exchange the worst tokens, or pass."""
    rack = sorted(view.rack)
    if not view.bag_size or not rack:
        return Pass()
    keep = [v for v in rack if 1 <= v <= 10]
    give = [v for v in rack if v not in keep] or rack[-3:]
    give = give[: view.bag_size]
    return Exchange(tuple(give)) if give else Pass()


class StrongBot:
    """Finds the best-scoring whole turn by exact search over the order of placements,
    then weighs what it keeps and what it opens for the opponent."""

    name = "strong"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: AnyView) -> Action:
        if not isinstance(view, BoardView):
            return quattro_act(view, self.name, self.rng)
        ranked = rank_plans(view)
        if not ranked:
            return EndTurn() if view.turn_placements else _no_placement(view)
        return first_action(view, ranked[0][1])


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


class ExpertBot:
    """Tries the strong player's best few turns in simulated continuations (Quackle's
    method): opponent racks and draws sampled from the tokens it has not seen, the
    opponent's reply and its own next turn played out, judged together with the strong
    player's own estimate. With the bag empty it knows the opponent's rack and
    searches the reply exactly."""

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 16,
        budget: float | None = 1.0,
        candidates: int = 6,
        blend: float = 0.5,
    ) -> None:
        """``samples`` continuations per decision (the same seed and view give the same
        choice), cut short if ``budget`` seconds run out first (None: never); ``blend``
        is the weight of the simulations against the static estimate (0.5 measured best
        of 0.5 and 1.0: see the README's ladder)."""
        self.rng = random.Random(seed)
        self.samples = samples
        self.budget = budget
        self.candidates = candidates
        self.blend = blend
        self._plan: tuple[tuple[int, ...], tuple[int, ...], TurnPlan] | None = None

    def act(self, view: AnyView) -> Action:
        if not isinstance(view, BoardView):
            return quattro_act(view, "strong", self.rng)
        following = self._following(view)
        if following is not None:
            return following
        return self._decide(view)

    def _following(self, view: BoardView) -> Action | None:
        """The rest of the plan chosen earlier this turn, when the view is exactly where
        the plan led (no new information: an extra token drawn means planning again)."""
        if self._plan is None or not view.turn_placements:
            return None
        board, rack, plan = self._plan
        done = len(view.turn_placements)
        if done > len(plan.placements) or any(p.extra for p in view.turn_placements):
            return None
        expected = list(board)
        left = list(rack)
        for cell, value in plan.placements[:done]:
            expected[cell] = value
            left.remove(value)
        if tuple(expected) != view.board or tuple(sorted(left)) != tuple(sorted(view.rack)):
            return None
        rest = TurnPlan(plan.placements[done:], plan.points, plan.bonus, plan.leave)
        return first_action(view, rest)

    def _decide(self, view: BoardView) -> Action:
        ranked = rank_plans(view)
        if not ranked:
            return EndTurn() if view.turn_placements else _no_placement(view)
        variant, board = board_from_view(view)
        if not variant.partial_turns or len(ranked) == 1:
            return first_action(view, ranked[0][1])
        shortlist = [plan for _, plan in ranked[: self.candidates]]
        static = [equity for equity, _ in ranked[: self.candidates]]
        pool = [v for v, n in view.unseen.items() for _ in range(n)]
        if not pool:
            return first_action(view, shortlist[0])
        if view.bag_size == 0 and len(view.players) == 2:
            scores = [self._endgame(variant, board, view, plan, tuple(pool)) for plan in shortlist]
        else:
            simulated = self._simulate(variant, board, view, shortlist, pool)
            # Blend the two judges of what a move leaves behind: the strong player's
            # static leave-and-threat estimate and the simulated continuations.
            scores = [
                plan.total
                + (1 - self.blend) * (equity - plan.total)
                + self.blend * (sim - plan.total)
                for plan, equity, sim in zip(shortlist, static, simulated, strict=True)
            ]
        best = max(range(len(shortlist)), key=lambda i: (scores[i], -i))
        self._plan = (view.board, view.rack, shortlist[best])
        return first_action(view, shortlist[best])

    def _simulate(
        self,
        variant: Variant,
        board: Board,
        view: BoardView,
        shortlist: list[TurnPlan],
        pool: list[int],
    ) -> list[float]:
        """Average of plan points - opponent's reply + own next turn over sampled
        continuations; every plan sees the same samples (common random numbers)."""
        size = variant.rack_size
        deadline = None if self.budget is None else time.perf_counter() + self.budget
        totals = [0.0] * len(shortlist)
        samples = 0
        while samples < self.samples:
            if samples >= 2 and deadline is not None and time.perf_counter() > deadline:
                break
            drawn = self.rng.sample(pool, len(pool))
            opponent, rest = drawn[:size], drawn[size:]
            for index, plan in enumerate(shortlist):
                refill = rest[: min(size - len(plan.leave), view.bag_size)]
                for cell, value in plan.placements:
                    board.place(cell, value)
                mark = len(board.history)
                reply = greedy_turn(variant, board, list(opponent), len(opponent))
                mine = list(plan.leave) + refill
                ours = greedy_turn(variant, board, mine, len(mine))
                while len(board.history) > mark - len(plan.placements):
                    board.unplace()
                totals[index] += plan.total - reply + ours
            samples += 1
        return [t / samples for t in totals]

    def _endgame(
        self,
        variant: Variant,
        board: Board,
        view: BoardView,
        plan: TurnPlan,
        opponent: tuple[int, ...],
    ) -> float:
        """Bag empty, two players: the opponent's rack is known; its best reply is
        searched exactly and the end-of-game deductions counted (C11)."""
        for cell, value in plan.placements:
            board.place(cell, value)
        reply = best_turn(variant, board, opponent, started_with=len(opponent))
        for _ in plan.placements:
            board.unplace()
        value = plan.total - reply.total
        if not plan.leave:  # we go out: the opponent's tokens are deducted
            return plan.total + sum(opponent)
        if not reply.leave:  # the opponent goes out after us
            value -= sum(plan.leave)
        else:
            value -= 0.5 * sum(plan.leave)
        return value
