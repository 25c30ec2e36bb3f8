"""The top of the ladder: strong (exact turn search plus judgement) and expert (simulation).

Both decide from the player's view alone. Each time they are asked for an action they
plan the rest of the turn from the board as it stands, so they need no memory between
calls and a drawn extra token is used at once. In Quattro both play the strong chain
search (:func:`~.quattro.strong_plan`).
"""

from __future__ import annotations

from mathable.engine.actions import Action, EndTurn, Exchange, Pass, Place
from mathable.games.board.variants import get_variant
from mathable.games.board.view import BoardView

from .base import FamilyBot, board_from_view
from .evaluation import THREAT_WEIGHT, expected_best_reply, leave_value, rank_plans
from .search import TurnPlan
from .simulation import endgame_value, greedy_turn, simulate

__all__ = [
    "THREAT_WEIGHT",
    "ExpertBot",
    "StrongBot",
    "expected_best_reply",
    "first_action",
    "greedy_turn",
    "leave_value",
    "rank_plans",
]


def first_action(view: BoardView, plan: TurnPlan) -> Action:
    """The next action of ``plan``: its first placement (taking the extra token where C7
    offers it, unless the plan empties the rack for the bonus), or the end."""
    if not plan.placements:
        return EndTurn() if view.turn_placements else _no_placement(view)
    variant = get_variant(view.variant)  # no board needed: building one refreshes every cell
    cell, value = plan.placements[0]
    extra = variant.extra_token_refusal(cell, view.bag_size) is None and plan.bonus == 0
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


class StrongBot(FamilyBot):
    """Finds the best-scoring whole turn by exact search over the order of placements,
    then weighs what it keeps and what it opens for the opponent."""

    name = "strong"

    def act_on_board(self, view: BoardView) -> Action:
        ranked = rank_plans(view)
        if not ranked:
            return EndTurn() if view.turn_placements else _no_placement(view)
        return first_action(view, ranked[0][1])


class ExpertBot(FamilyBot):
    """Tries the strong player's best few turns in simulated continuations (Quackle's
    method): opponent racks and draws sampled from the tokens it has not seen, the
    opponent's reply and its own next turn played out, judged together with the strong
    player's own estimate. With the bag empty it knows the opponent's rack and
    searches the reply exactly."""

    name = "expert"
    quattro_level = "strong"

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
        super().__init__(seed)
        self.samples = samples
        self.budget = budget
        self.candidates = candidates
        self.blend = blend
        self._plan: tuple[tuple[int, ...], tuple[int, ...], TurnPlan] | None = None

    def act_on_board(self, view: BoardView) -> Action:
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
            opponent = tuple(pool)
            scores = [endgame_value(variant, board, plan, opponent) for plan in shortlist]
        else:
            simulated = simulate(
                variant,
                board,
                view.bag_size,
                shortlist,
                pool,
                self.rng,
                samples=self.samples,
                budget=self.budget,
            )
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
