"""A board turn judged as the expert judges it, for the analysis (issue 35).

Points alone rate an exchange a miss and a greedy turn that opens the board a good one.
Here every turn -- a placement, an exchange, a pass alike -- is judged by the value of
the position it leaves, with the expert's own valuation (:class:`~.strong.ExpertBot`):

- the static equity: points with the bonus, plus the learned value of the tokens kept
  (:mod:`.leaves`), minus :data:`~.evaluation.THREAT_WEIGHT` of the opponent's expected
  best reply on the board left (the opponent's rack inferred from its last turn:
  :mod:`.inference`);
- refined by simulated continuations (:func:`~.simulation.simulate`: the reply and the
  player's next turn, :data:`SAMPLES` samples, every candidate on the same samples),
  blended half and half with the static equity as the expert blends them; with the bag
  empty and two players the racks are known and the reply is searched exactly
  (:class:`~.simulation.EndgameSearch`); on Junior's numbered side (K2) the static
  equity alone, as the expert.

The candidates are the played turn, the expert's shortlist (:data:`CANDIDATES` best by
static equity) and its exchanges (:func:`~.evaluation.exchange_plans`). Decisions are
reproducible: the samples are seeded by the game's seed and the turn's number, and the
budgets are samples and search nodes, never the wall clock. Those budgets are a
:class:`Depth`: the expert's at a budget the web answers within (the default), or the
master's (:data:`MASTER_DEPTH`: more samples, candidates and exchanges, continuations
played out to the end late in the game), for an analysis that judges like a master.

The chance of winning is a model, not a simulation to the end: the rest of the game is
taken as normal noise around the margin, of spread :data:`SPREAD_PER_TOKEN` times the
square root of the tokens still to play (the figure the expert's ``win_chance`` uses,
issue 16), so a turn worth ``e`` of equity leaves ``Phi((margin + e) / spread)``.
Accuracy follows lichess: a turn that loses ``w`` percentage points of winning chance
is ``103.1668 exp(-0.04354 w) - 3.1669`` percent accurate (clamped to 0..100).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from statistics import NormalDist

from mathable.games.board.board import Board
from mathable.games.board.variants import Variant
from mathable.games.board.view import BoardView
from mathable.i18n import Text, lazy, lazy_plural

from .evaluation import THREAT_WEIGHT, exchange_plans, expected_best_reply, rank_plans
from .inference import holding_chances, infer_opponent
from .leaves import judge
from .master import (
    MASTER_CANDIDATES,
    MASTER_ENDGAME_TURNS,
    MASTER_EXCHANGES,
    MASTER_SAMPLES,
    MASTER_THREAT_TOP,
    MASTER_TO_END,
)
from .search import TurnPlan
from .simulation import ENDGAME_NODES, SPREAD_PER_TOKEN, EndgameSearch, simulate

SAMPLES = 32
"""Simulated continuations per candidate of a turn analysed (the expert plays 64 per
decision): a long classic game's analysis stays within ~2 s here, as the web's worker
answers while players wait (issue 35; measured on the 2-core shared machine)."""
CANDIDATES = 8
"""The shortlist simulated beside the turn played, as the expert's."""
THREAT_TOP = 30
"""Turns whose threat is judged before the shortlist is taken, as the expert's."""
EXCHANGES = 2
"""Exchanges simulated beside the placements, as the expert's."""
BLEND = 0.5
"""The weight of the simulations against the static equity, as the expert's."""
NODES = 20_000
"""The exact turn search's node budget, as the strong player's."""
ENDGAME_TURNS = 2
"""Turns the end-game search looks at (the reply, exactly)."""


@dataclass(frozen=True)
class Depth:
    """How far a turn is looked at: the budgets of the judge, all counts (the same report
    on any machine)."""

    name: str
    samples: int
    """Simulated continuations per candidate."""
    candidates: int
    """Turns simulated beside the one played, best by static equity."""
    threat_top: int
    """Turns whose threat is judged before the candidates are taken."""
    exchanges: int
    """Exchanges simulated beside the placements."""
    endgame_turns: int
    """Turns the end-game search looks at with the bag empty."""
    to_end: int | None = None
    """Continuations are played out to the game's end once the bag holds this many
    tokens or fewer after the candidate (None: they stop after two turns)."""


EXPERT_DEPTH = Depth("expert", SAMPLES, CANDIDATES, THREAT_TOP, EXCHANGES, ENDGAME_TURNS)
"""The expert's judgement at a budget that answers in ~2 s a game: the web's, the default."""
MASTER_DEPTH = Depth(
    "master",
    MASTER_SAMPLES,
    MASTER_CANDIDATES,
    MASTER_THREAT_TOP,
    MASTER_EXCHANGES,
    MASTER_ENDGAME_TURNS,
    MASTER_TO_END,
)
"""The master's budgets (:class:`~.master.MasterBot`): analysis that judges like a master,
some ten times slower."""
DEPTHS = {depth.name: depth for depth in (EXPERT_DEPTH, MASTER_DEPTH)}
"""The depths by name (``mathable analyse --depth``)."""

_NORMAL = NormalDist()


@dataclass(frozen=True)
class Judged:
    """A candidate turn with the parts of its equity."""

    plan: TurnPlan
    given: tuple[int, ...]
    """The tokens it exchanges (empty for a placement or a pass)."""
    leave_value: float
    threat: float
    simulated: float | None
    equity: float

    @property
    def static(self) -> float:
        """Points, leave and threat: the strong player's equity."""
        return self.plan.total + self.leave_value - THREAT_WEIGHT * self.threat


@dataclass(frozen=True)
class TurnJudgement:
    """A turn against its best alternative, by equity and by chance of winning."""

    played: Judged
    best: Judged
    samples: int
    """Simulated continuations per candidate (0: none, the static equity alone)."""
    win_before: float
    """The mover's chance of winning with the best turn (the position's value), 0..1."""
    win_after: float
    """The mover's chance of winning after the turn played, 0..1."""
    exchanges: int = 0
    """The exchanges judged beside the placements (0: the bag or the game allows none)."""

    @property
    def equity_loss(self) -> float:
        """The equity given away (0 when the turn played was the best)."""
        return max(0.0, self.best.equity - self.played.equity)

    @property
    def win_loss(self) -> float:
        """The chance of winning given away, in percentage points."""
        return max(0.0, 100 * (self.win_before - self.win_after))


def turn_accuracy(win_loss: float) -> float:
    """A turn's accuracy in percent from the percentage points of winning chance it
    lost (lichess's formula, clamped)."""
    raw = 103.1668 * math.exp(-0.04354 * win_loss) - 3.1669
    return min(100.0, max(0.0, raw))


def win_chance(margin: float, tokens: int) -> float:
    """The chance of winning ``margin`` points ahead with ``tokens`` still to play."""
    if tokens <= 0:
        return 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
    return _NORMAL.cdf(margin / (SPREAD_PER_TOKEN * math.sqrt(tokens)))


def judge_turn(
    view: BoardView,
    variant: Variant,
    board: Board,
    played: TurnPlan,
    given: tuple[int, ...],
    rng: random.Random,
    depth: Depth = EXPERT_DEPTH,
) -> TurnJudgement:
    """Judge ``played`` (its exchanged tokens ``given``) from the start of a turn,
    ``view`` that of the seat to move, ``board`` holding its tokens (left so), with the
    budgets of ``depth``."""
    leaves = judge("learned", variant.name, variant.rack_size)
    prior = infer_opponent(view, variant, board)
    chances = holding_chances(prior, view.unseen, variant.rack_size) if prior else None
    unseen = dict(view.unseen)
    ranked = rank_plans(
        view, board=board, node_limit=NODES, leaves=leaves, top=depth.threat_top, chances=chances
    )
    shortlist = [plan for _, plan in ranked[: depth.candidates]]
    exchanges: list[TurnPlan] = []
    if variant.partial_turns and view.bag_size and variant.pass_and_exchange:
        exchanges = [
            plan for _, plan in exchange_plans(view.rack, view.bag_size, leaves, depth.exchanges)
        ]
    shortlist += exchanges
    if played in shortlist:
        shortlist.remove(played)
    shortlist.insert(0, played)

    def parts(plan: TurnPlan) -> tuple[float, float]:
        for cell, value in plan.placements:
            board.place(cell, value)
        threat = expected_best_reply(variant, board, unseen, chances)
        for _ in plan.placements:
            board.unplace()
        return leaves(plan.leave, view.bag_size), threat

    static = [parts(plan) for plan in shortlist]
    pool = [v for v, n in unseen.items() for _ in range(n)]
    simulated: list[float] | None = None
    used = 0
    if variant.partial_turns and pool and len(shortlist) > 1:
        if view.bag_size == 0 and len(view.players) == 2:
            search = EndgameSearch(variant, board, None, NODES, budget=ENDGAME_NODES)
            simulated = search.root_values(shortlist, tuple(pool), depth.endgame_turns)
        else:
            simulated = simulate(
                variant,
                board,
                view.bag_size,
                shortlist,
                pool,
                rng,
                samples=depth.samples,
                deadline=None,
                prior=prior,
                to_end=depth.to_end,
            )
            used = depth.samples
    judged = []
    for index, plan in enumerate(shortlist):
        leave, threat = static[index]
        equity = plan.total + leave - THREAT_WEIGHT * threat
        sim = None if simulated is None else simulated[index]
        if sim is not None:
            equity = sim if used == 0 else (1 - BLEND) * equity + BLEND * sim
        judged.append(
            Judged(
                plan, given if index == 0 else _given(view.rack, plan), leave, threat, sim, equity
            )
        )
    best = max(judged, key=lambda j: (j.equity, j is judged[0]))
    margin = _margin(view)
    tokens = view.bag_size + len(view.players) * variant.rack_size
    return TurnJudgement(
        judged[0],
        best,
        used,
        win_chance(margin + best.equity, tokens),
        win_chance(margin + judged[0].equity, tokens),
        len(exchanges),
    )


def _given(rack: tuple[int, ...], plan: TurnPlan) -> tuple[int, ...]:
    """The tokens an exchange plan gives back (none for a placement)."""
    if plan.placements or len(plan.leave) == len(rack):
        return ()
    left = list(rack)
    for value in plan.leave:
        left.remove(value)
    return tuple(sorted(left))


def _margin(view: BoardView) -> float:
    """The mover's lead over the best of the others at the turn's start."""
    if view.seat is None or len(view.players) < 2:
        return 0.0
    mine = view.scores[view.seat]
    return float(mine - max(s for seat, s in enumerate(view.scores) if seat != view.seat))


def _tokens(values: tuple[int, ...]) -> str:
    return " ".join(map(str, values)) or "-"


def why_better(judgement: TurnJudgement, best_written: str) -> Text | None:
    """Why the best turn is better than the one played, in words translated when shown
    (None: the turn played was the best, or as good)."""
    played, best = judgement.played, judgement.best
    if judgement.equity_loss < 0.5 or best is played:
        return None
    if best.given:
        if played.given:
            # TRANSLATORS: the better exchange's tokens given back, then those it keeps
            return lazy(
                "exchanging {tokens} instead keeps {kept}, a rack worth more next turn",
                tokens=_tokens(best.given),
                kept=_tokens(best.plan.leave),
            )
        # TRANSLATORS: the tokens an exchange gives back (56 63 72)
        return lazy(
            "exchanging {tokens}: no placement leaves a rack that scores as well next turn",
            tokens=_tokens(best.given),
        )
    reasons: list[Text] = []
    more = best.plan.total - played.plan.total
    if more > 0:
        reasons.append(
            lazy_plural("it scores {count} more point", "it scores {count} more points", more)
        )
    kept = round(best.leave_value - played.leave_value)
    if kept >= 2 and best.plan.leave:  # (an empty rack keeps nothing to speak of)
        # TRANSLATORS: the tokens a turn keeps on the rack, then points of the next turn
        reasons.append(
            lazy(
                "it keeps {tokens}, worth {points} more next turn",
                tokens=_tokens(best.plan.leave),
                points=kept,
            )
        )
    opened = round(THREAT_WEIGHT * (played.threat - best.threat))
    if opened >= 2:
        # TRANSLATORS: points by which the opponent's expected reply is smaller
        reasons.append(lazy("it opens {points} fewer points to the opponent", points=opened))
    if played.given:
        reasons.append(lazy("the exchange gave up more points now than the new tokens are worth"))
    elif not played.plan.placements:
        reasons.append(lazy("passing scores nothing and keeps the rack as it is"))
    if not reasons and best.simulated is not None and played.simulated is not None:
        ahead = round(best.simulated - played.simulated)
        if ahead > 0:
            # TRANSLATORS: points ahead after the simulated replies and next turns
            reasons.append(
                lazy("it comes out {points} ahead in the simulated replies", points=ahead)
            )
    if not reasons:
        return None
    joined = reasons[0]
    for reason in reasons[1:]:
        joined = Text("{first}, {then}", {"first": joined, "then": reason})
    # TRANSLATORS: the better turn (I8=12 H6=8), then its reasons joined by commas
    return lazy("{best} is better: {reasons}", best=best_written, reasons=joined)


def why_not_placed(judgement: TurnJudgement) -> Text | None:
    """Why the turn played exchanged or passed, when it did (a computer's turn explained
    in the move list and the analysis)."""
    played = judgement.played
    if played.plan.placements:
        return None
    if played.given:
        if judgement.equity_loss < 0.5:
            # TRANSLATORS: the tokens exchanged (56 63 72), then the tokens kept
            return lazy(
                "exchanging {tokens}: no placement leaves a rack that scores as well next "
                "turn; it keeps {kept}",
                tokens=_tokens(played.given),
                kept=_tokens(played.plan.leave),
            )
        return None
    if judgement.best is played and not judgement.exchanges:
        return lazy("passing: no token fits on the board and the bag allows no exchange")
    return None
