"""The top of the ladder: strong (exact turn search plus judgement) and expert (simulation).

Both decide from the player's view alone. They plan a whole turn at its first action and
then follow the plan while each view is exactly where it leads (:class:`PlanningBot`); a
token drawn on a restriction square (C7) is new information, so they plan the rest of the
turn once more with it. In Quattro both play the strong chain search
(:func:`~.quattro.strong_plan`).

Every decision is bounded by counts (positions searched, samples simulated), so the same
seed and view give the same turn on any machine under any load (issue 35); the expert's
wall-clock ``cap_ms`` is only a safety net, logged and counted when it bites.
"""

from __future__ import annotations

import logging
import math
import time
from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, replace

from mathable.engine.actions import Action, EndTurn, Exchange, Pass, placing
from mathable.games.board.board import EMPTY, Board
from mathable.games.board.variants import Variant, get_variant
from mathable.games.board.view import BoardView
from mathable.games.registry import game_type

from .base import FamilyBot
from .evaluation import (
    THREAT_WEIGHT,
    LeaveJudge,
    exchange_plans,
    expected_best_reply,
    leave_value,
    rank_plans,
)
from .inference import FITS_WEIGHT, holding_chances, infer_opponent
from .leaves import judge
from .search import TurnPlan
from .simulation import (
    ENDGAME_NODES,
    PRE_ENDGAME_NODES,
    PRE_ENDGAME_SAMPLES,
    REPLY_NODES,
    SPREAD_PER_TOKEN,
    Cap,
    EndgameSearch,
    greedy_turn,
    pre_endgame,
    simulate,
)

__all__ = [
    "DEFAULT_CAP_MS",
    "ENDGAME_NODES",
    "THREAT_WEIGHT",
    "ExpertBot",
    "PlanningBot",
    "StrongBot",
    "expected_best_reply",
    "first_action",
    "greedy_turn",
    "leave_value",
    "rank_plans",
]

log = logging.getLogger(__name__)


def first_action(view: BoardView, plan: TurnPlan) -> Action:
    """The next action of ``plan``: its first placement (taking the extra token where C7
    offers it, unless the plan empties the rack for the bonus), or the end; at a turn's
    start a plan that places nothing exchanges the tokens it does not keep (C8b)."""
    if not plan.placements:
        if view.turn_placements:
            return EndTurn()
        given = list(view.rack)
        for value in plan.leave:
            given.remove(value)
        return Exchange(tuple(sorted(given))) if given else _no_placement(view)
    variant = get_variant(view.variant)  # no board needed: building one refreshes every cell
    cell, value = plan.placements[0]
    extra = variant.extra_token_refusal(cell, view.bag_size) is None and plan.bonus == 0
    return placing(cell, value, extra)


def _no_placement(view: BoardView) -> Action:
    """Nothing worth placing at the start of a turn: exchange the worst tokens, or pass."""
    rack = sorted(view.rack)
    if not view.bag_size or not rack:
        return Pass()
    keep = [v for v in rack if 1 <= v <= 10]
    give = [v for v in rack if v not in keep] or rack[-3:]
    give = give[: view.bag_size]
    return Exchange(tuple(give)) if give else Pass()


@dataclass(frozen=True)
class _Plan:
    """A turn chosen at one view, to follow while later views are where it leads."""

    board: tuple[int, ...]
    rack: tuple[int, ...]
    finished_turns: int
    placed_before: int
    plan: TurnPlan


class PlanningBot(FamilyBot):
    """A level that chooses a whole turn at once, then plays it out placement by placement.

    The plan is kept only while each view is exactly where it leads: the same turn, the
    board holding the plan's first tokens and nothing else new, the rack without them.
    Anything else (an extra token drawn, a challenge, a bot made afresh for each action
    as the server's worker pool does) plans again from where the turn stands, which
    picks the same continuation save for near-ties (issue 16: re-planning after every
    placement was most of the strong player's time, and the expert's extra-token check
    re-planned a whole endgame search at every action).
    """

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._plan: _Plan | None = None
        self.capped = 0
        """Decisions the wall-clock safety cap cut short (each logged at WARNING): the
        arena and the ladder report them, as such decisions depend on the machine."""

    def act_on_board(self, view: BoardView) -> Action:
        following = self._following(view) or self._resumed(view)
        if following is not None:
            return following
        variant, board = self.memory.board_for(view)
        plan = self.choose(view, variant, board)
        if plan is None:
            self._plan = None
            return EndTurn() if view.turn_placements else _no_placement(view)
        self._plan = _Plan(
            view.board, tuple(sorted(view.rack)), len(view.turns), len(view.turn_placements), plan
        )
        return first_action(view, plan)

    def _resumed(self, view: BoardView) -> Action | None:
        """Mid-turn with no plan kept (a bot made afresh for this action): plan from
        where a bot kept all turn planned last -- the turn's start, or just after its
        last extra token (C7: new tokens, so planned again) -- and follow that plan if
        the turn since is its beginning. So the decision is one function of that point
        and the seed, wherever the bot was made."""
        placed = view.turn_placements
        extras = [i for i, p in enumerate(placed) if p.extra]
        since = placed[extras[-1] + 1 :] if extras else placed
        if not since:
            return None
        board = list(view.board)
        for token in since:
            board[token.cell] = EMPTY
        start = replace(
            view,
            surface=tuple(board),
            rack=tuple(sorted((*view.rack, *(p.value for p in since)))),
            turn_placements=placed[: len(placed) - len(since)],
            turn_points=view.turn_points - sum(p.points for p in since),
        )
        variant, kept = self.memory.board_for(start)
        plan = self.choose(start, variant, kept)
        if plan is None:
            return None
        self._plan = _Plan(
            start.board, start.rack, len(view.turns), len(start.turn_placements), plan
        )
        return self._following(view)

    @abstractmethod
    def choose(self, view: BoardView, variant: Variant, board: Board) -> TurnPlan | None:
        """The rest of the turn to play from ``view`` (None: nothing worth placing); the
        board holds the view's tokens and must be left so."""

    def _following(self, view: BoardView) -> Action | None:
        """The next action of the kept plan, when the view is exactly where it leads."""
        kept = self._plan
        if kept is None or len(view.turns) != kept.finished_turns:
            return None
        done = len(view.turn_placements) - kept.placed_before
        placements = kept.plan.placements
        if not 1 <= done <= len(placements):
            return None
        expected = list(kept.board)
        left = list(kept.rack)
        for cell, value in placements[:done]:
            expected[cell] = value
            left.remove(value)
        if tuple(expected) != view.board or tuple(left) != tuple(sorted(view.rack)):
            return None
        plan = kept.plan
        return first_action(view, TurnPlan(placements[done:], plan.points, plan.bonus, plan.leave))


DEFAULT_NODES = 20_000
"""The strong search's default node budget: every position of 30 seeded classic games
needed fewer (the most 19,897: ~0.1 s compiled), so the search stays exact in play and
bounded in the rare crowded position (issue 16)."""


class StrongBot(PlanningBot):
    """Finds the best-scoring whole turn by exact search over the order of placements,
    then weighs what it keeps and what it opens for the opponent."""

    name = "strong"

    def __init__(
        self, seed: int | None = None, nodes: int = DEFAULT_NODES, leaves: str = "learned"
    ) -> None:
        """``nodes``: the turn search's budget, positions searched per decision;
        ``leaves``: how the tokens kept are valued (``learned``, ``hand``, ``none``)."""
        super().__init__(seed)
        self.nodes = nodes
        self.leaves = leaves
        judge("hand" if leaves == "learned" else leaves, "classic", 7)  # refuse a typo now

    def choose(self, view: BoardView, variant: Variant, board: Board) -> TurnPlan | None:
        ranked = rank_plans(
            view,
            board=board,
            node_limit=self.nodes,
            leaves=judge(self.leaves, variant.name, variant.rack_size),
        )
        return ranked[0][1] if ranked else None


DEFAULT_CAP_MS = 5_000
"""The expert's default wall-clock safety cap per decision: far above what its budgets
take (a turn's p95 is ~100 ms compiled), so it bites only on a machine in trouble."""

BUDGET_MS_IS_CAP = -1
"""``budget_ms``'s default: not given, ``cap_ms`` rules (see :class:`ExpertBot`)."""


MAX_PLIES = 12
"""The most turns the expert's simulations may play after a candidate (``plies``)."""


class ExpertBot(PlanningBot):
    """Tries the strong player's best few turns, and exchanging the tokens it would
    rather not keep (C8b), in simulated continuations (Quackle's method): opponent
    racks and draws sampled from the tokens it has not seen (the
    tokens the opponent kept last turn are those that fit nowhere: :mod:`.inference`),
    the opponent's reply and its own next turn played out, judged together with the
    strong player's own estimate. With the bag empty it knows the opponent's rack and
    searches the reply exactly."""

    name = "expert"
    quattro_level = "strong"

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 64,
        budget_ms: int | None = BUDGET_MS_IS_CAP,
        candidates: int = 8,
        blend: float = 0.5,
        nodes: int = DEFAULT_NODES,
        searched_reply: bool = False,
        searched_own: bool = False,
        rollout_nodes: int = REPLY_NODES,
        endgame_turns: int = 6,
        leaves: str = "learned",
        infer: bool = True,
        race: bool = False,
        threat_top: int = 30,
        final_leave: bool = False,
        opp_leave: bool = False,
        plies: int = 2,
        to_end: int = -1,
        even_horizon: bool = False,
        end_blend: float = -1.0,
        fits_weight: float = FITS_WEIGHT,
        history: bool = False,
        win_chance: bool = False,
        exchanges: int = 2,
        pre_endgame: int = 0,
        pre_samples: int = PRE_ENDGAME_SAMPLES,
        pre_nodes: int = PRE_ENDGAME_NODES,
        cap_ms: int | None = DEFAULT_CAP_MS,
        endgame_nodes: int | None = ENDGAME_NODES,
    ) -> None:
        """``samples`` continuations per decision, every one of them whatever the time
        (the same seed and view give the same choice on any machine);
        ``endgame_nodes`` the positions the end-game search may expand per decision
        (None: no limit), deepening while they last; ``cap_ms`` the wall-clock safety
        cap (None: none): a decision still going then stops simulating and searching
        with what it has, and is logged (WARNING) and counted in ``capped``;
        ``budget_ms``, its former time budget, is now another name for ``cap_ms``
        (given, it sets the cap: ``expert:budget_ms=500`` keeps working);
        ``candidates`` is the shortlist simulated, the best by the strong player's
        estimate after ``threat_top`` turns best by points and leave have had the board
        they open judged; ``blend`` is the weight of the simulations against that
        estimate; ``infer`` samples the opponent's rack from what its last turn kept
        (:mod:`.inference`) rather than from all the unseen tokens alike, and weighs
        the threats of the shortlist so too, a kept value that fits somewhere weighing
        ``fits_weight``, and with ``history`` each value by how long it has fit
        nowhere at the opponent's turns (:func:`~.inference.history_weights`); ``race``
        drops a candidate from the simulations once it is clearly behind
        (:func:`~.simulation.simulate`);
        ``searched_reply`` simulates the opponent's reply by the exact search rather
        than greedily, ``searched_own`` its own next turn, each such search expanding at
        most ``rollout_nodes`` positions; ``nodes`` bounds each exact
        search as the strong player's; ``endgame_turns`` is how many turns the end-game
        search looks ahead at most, the budget permitting; ``leaves`` values the tokens
        kept as the strong player's does; ``exchanges`` is how many exchanges (C8b)
        are simulated beside the placements at a turn's start, the tokens kept best by
        that leave value for each number given (0: it exchanges only when nothing
        fits, as the strong player). For research (each measured no better on
        tuning seeds, issue 16): ``leaves=to-the-end`` also charges each kept token
        the deduction it risks at the game's end (:mod:`.leaves`); ``plies``, the
        turns simulated after a candidate (2: the reply and its own next turn);
        ``final_leave`` adds the value of the tokens left after its last simulated turn;
        ``opp_leave`` takes off the value of those the opponent kept after its own;
        ``to_end`` plays the continuations out to the game's end once the bag holds
        that many tokens or fewer after the candidate (-1: never), or at the turn's start
        with ``even_horizon`` (every candidate then has the same horizon), where
        ``end_blend`` (0 to 1; -1: ``blend``) weighs the played-out continuations
        against the static estimate instead of ``blend``; ``win_chance``
        judges the continuations by the chance of winning they leave, the score so far
        and :data:`SPREAD_PER_TOKEN` counted, rather than by their average margin;
        ``pre_endgame`` (0: never) searches the rest of the game, two players, when the
        bag holds 1 to that many tokens: on ``pre_samples`` deals of the unseen tokens,
        ``pre_nodes`` positions each (:func:`~.simulation.pre_endgame`). The
        defaults are measured on tuning seeds (issue 16: the README's ladder)."""
        super().__init__(seed)
        if not 0 <= plies <= MAX_PLIES:
            raise ValueError(f"plies={plies}: expected 0 to {MAX_PLIES}")
        self.threat_top = threat_top
        self.final_leave = final_leave
        self.opp_leave = opp_leave
        self.plies = plies
        self.to_end = to_end
        self.even_horizon = even_horizon
        self.win_chance = win_chance
        if exchanges < 0:
            raise ValueError(f"exchanges={exchanges}: expected 0 or more")
        self.exchanges = exchanges
        if pre_endgame < 0 or pre_samples < 1 or pre_nodes < 1:
            raise ValueError(
                f"pre_endgame={pre_endgame}, pre_samples={pre_samples}, pre_nodes={pre_nodes}:"
                " expected 0 or more, 1 or more, 1 or more"
            )
        self.pre_endgame = pre_endgame
        self.pre_samples = pre_samples
        self.pre_nodes = pre_nodes
        self.infer = infer
        if not 0.0 <= fits_weight <= 1.0:
            raise ValueError(f"fits_weight={fits_weight}: expected 0 to 1")
        self.fits_weight = fits_weight
        self.history = history
        self.race = race
        self.searched_reply = searched_reply
        self.searched_own = searched_own
        if rollout_nodes < 1:
            raise ValueError(f"rollout_nodes={rollout_nodes}: expected 1 or more")
        self.rollout_nodes = rollout_nodes
        self.endgame_turns = endgame_turns
        self.leaves = leaves
        judge("hand" if leaves == "learned" else leaves, "classic", 7)  # refuse a typo now
        self.samples = samples
        if budget_ms is not None and budget_ms < 0 and budget_ms != BUDGET_MS_IS_CAP:
            raise ValueError(f"budget_ms={budget_ms}: expected 0 or more, or none")
        self.cap_ms = cap_ms if budget_ms == BUDGET_MS_IS_CAP else budget_ms
        if self.cap_ms is not None and self.cap_ms < 0:
            raise ValueError(f"cap_ms={self.cap_ms}: expected 0 or more, or none")
        self.endgame_nodes = endgame_nodes
        self.candidates = candidates
        self.blend = blend
        if not (end_blend == -1.0 or 0.0 <= end_blend <= 1.0):
            raise ValueError(f"end_blend={end_blend}: expected 0 to 1, or -1 (blend's)")
        self.end_blend = end_blend
        self.nodes = nodes

    @classmethod
    def plays_as(cls, game: str) -> str:
        """The level this one plays exactly as in ``game``: the strong player in Quattro
        (its chain search) and on Junior's numbered side (K2 chooses the turn, so there
        is nothing to simulate), itself elsewhere."""
        if game_type(game).surface != "board":
            return cls.quattro_level
        return cls.name if get_variant(game).partial_turns else StrongBot.name

    def choose(self, view: BoardView, variant: Variant, board: Board) -> TurnPlan | None:
        cap = Cap(None if self.cap_ms is None else time.perf_counter() + self.cap_ms / 1000)
        plan = self._judged(view, variant, board, cap)
        if cap.bit:
            self.capped += 1
            log.warning(
                "%s (seat %s): the %s ms safety cap bit, the turn was chosen on what was "
                "judged by then (a busy machine: this decision may differ on another run)",
                self.name,
                view.seat,
                self.cap_ms,
            )
        return plan

    def _judged(self, view: BoardView, variant: Variant, board: Board, cap: Cap) -> TurnPlan | None:
        """The turn chosen from ``view`` (as :meth:`choose`), ``cap`` its safety cap."""
        prior = (
            infer_opponent(view, variant, board, self.fits_weight, self.history)
            if self.infer
            else None
        )
        leaves = judge(self.leaves, variant.name, variant.rack_size)
        chances = (
            holding_chances(prior, view.unseen, variant.rack_size) if prior is not None else None
        )
        ranked = rank_plans(
            view,
            board=board,
            node_limit=self.nodes,
            leaves=leaves,
            top=self.threat_top,
            chances=chances,
        )
        if not ranked:
            return None
        if not variant.partial_turns:  # Junior's numbered side: K2 chooses the turn
            return ranked[0][1]
        ranked = ranked[: self.candidates] + self._exchanges(view, variant, board, leaves, chances)
        if len(ranked) == 1:
            return ranked[0][1]
        shortlist = [plan for _, plan in ranked]
        static = [equity for equity, _ in ranked]
        pool = [v for v, n in view.unseen.items() for _ in range(n)]
        if not pool:
            return shortlist[0]
        # Seeded by the planning point alone: a resumed plan (PlanningBot) deals the
        # same samples as the kept one did.
        rng = self.chance(view, at=(view.board, sorted(view.rack)))
        if view.bag_size == 0 and len(view.players) == 2:
            # The opponent's rack is known: judge the candidates, best static first,
            # by the exact reply, deeper while the budget lasts.
            search = EndgameSearch(variant, board, cap, self.nodes, budget=self.endgame_nodes)
            scores = search.root_values(shortlist, tuple(pool), self.endgame_turns)
        elif view.bag_size <= self.pre_endgame and len(view.players) == 2:
            scores = pre_endgame(
                variant,
                board,
                shortlist,
                pool,
                view.rack,
                rng,
                samples=self.pre_samples,
                node_limit=REPLY_NODES,
                budget=self.pre_nodes,
                max_turns=self.endgame_turns,
                prior=prior,
                deadline=cap,
            )
        else:
            # Blend the two judges of a turn (each counting its points): the strong
            # player's static estimate and the simulated continuations' average.
            blend = self.blend
            if self.end_blend >= 0 and self.even_horizon and view.bag_size <= self.to_end:
                blend = self.end_blend  # every continuation is played out to the end
            offsets = [(1 - blend) * equity for equity in static]
            simulated = simulate(
                variant,
                board,
                view.bag_size,
                shortlist,
                pool,
                rng,
                samples=self.samples,
                deadline=cap,
                searched_reply=self.searched_reply,
                searched_own=self.searched_own,
                rollout_nodes=self.rollout_nodes,
                prior=prior,
                offsets=offsets if self.race else None,
                weight=blend,
                leaves=leaves if self.final_leave else None,
                opponent_leaves=leaves if self.opp_leave else None,
                plies=self.plies,
                to_end=self.to_end if self.to_end >= 0 else None,
                even_horizon=self.even_horizon,
                risk=self._risk(view, variant) if self.win_chance else None,
            )
            scores = [o + blend * sim for o, sim in zip(offsets, simulated, strict=True)]
        best = max(range(len(scores)), key=lambda i: (scores[i], -i))
        return shortlist[best]

    def _exchanges(
        self,
        view: BoardView,
        variant: Variant,
        board: Board,
        leaves: LeaveJudge,
        chances: Mapping[int, float] | None,
    ) -> list[tuple[float, TurnPlan]]:
        """The exchanges (C8b) to simulate beside the placements, at a turn's start: the
        best ``exchanges`` by the tokens kept (:func:`~.evaluation.exchange_plans`),
        each judged statically as its leave less the threat of the board left as it is."""
        if (
            not self.exchanges
            or view.turn_placements
            or not view.bag_size
            or not variant.pass_and_exchange
        ):
            return []
        plans = exchange_plans(view.rack, view.bag_size, leaves, self.exchanges)
        if not plans:
            return []
        threat = THREAT_WEIGHT * expected_best_reply(variant, board, dict(view.unseen), chances)
        return [(kept - threat, plan) for kept, plan in plans]

    @staticmethod
    def _risk(view: BoardView, variant: Variant) -> tuple[float, float] | None:
        """The lead over the best opponent (this turn's points counted) and the spread
        of what the rest of the game may add to it, for ``win_chance``."""
        if view.seat is None or len(view.players) < 2:
            return None
        mine = view.scores[view.seat] + view.turn_points
        best_other = max(s for seat, s in enumerate(view.scores) if seat != view.seat)
        tokens = view.bag_size + len(view.players) * variant.rack_size
        return float(mine - best_other), SPREAD_PER_TOKEN * math.sqrt(tokens)
