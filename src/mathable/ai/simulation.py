"""The expert's look-ahead: simulated continuations of a board game (Quackle's method).

Each candidate turn is played on the board, then the opponent's reply and the player's
own next turn (or more turns, or the rest of the game once the bag is nearly empty) are
played out by a fast greedy policy, from racks sampled out of the tokens the player has
not seen. With the bag empty and two players the opponent's rack is known: the rest of
the game is searched as a game of perfect information instead (:class:`EndgameSearch`).

Both are bounded by counts (samples, positions searched), never by the time they take,
so the same seed decides the same on any machine under any load (issue 35). The wall
clock is only a safety cap (:class:`Cap`): when a decision runs past it, the work stops
early with what it has, and the cap records that it bit.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from statistics import NormalDist
from typing import Final

from mathable.games.board.board import Board
from mathable.games.board.variants import Variant

from .evaluation import LeaveJudge
from .inference import RackPrior, deal
from .search import TurnPlan, best_turn, search_turns


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


class Cap:
    """The wall-clock safety cap of one decision: past ``deadline`` (a
    ``time.perf_counter()`` reading; None: no cap) the work stops early, and ``bit``
    says it did. Only a safety net: budgets in samples and positions bound a decision;
    a cap that bites makes it depend on the machine's speed, so it is logged and counted
    by the bots that use it."""

    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline
        self.bit = False

    def passed(self) -> bool:
        """Whether the deadline has passed (remembered in ``bit``)."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            self.bit = True
        return self.bit


REPLY_NODES = 2_000
"""The node budget of a searched reply in a simulation (most turns need far fewer)."""


RACE_FROM = 16
"""Samples every candidate gets before the race may drop any (:func:`simulate`)."""
RACE_EVERY = 8
"""How many samples go by between two looks at the race."""
RACE_Z = 2.0
"""A candidate leaves the race when it trails the leader by this many standard errors."""


def simulate(
    variant: Variant,
    board: Board,
    bag_size: int,
    shortlist: Sequence[TurnPlan],
    pool: Sequence[int],
    rng: random.Random,
    *,
    samples: int,
    deadline: Cap | None,
    searched_reply: bool = False,
    searched_own: bool = False,
    prior: RackPrior | None = None,
    offsets: Sequence[float] | None = None,
    weight: float = 1.0,
    leaves: LeaveJudge | None = None,
    plies: int = 2,
    to_end: int | None = None,
    risk: tuple[float, float] | None = None,
    even_horizon: bool = False,
    rollout_nodes: int = REPLY_NODES,
    opponent_leaves: LeaveJudge | None = None,
) -> list[float]:
    """Average of plan points - opponent's reply + own next turn over ``samples``
    sampled continuations (fewer only when the safety cap ``deadline`` bites, but at
    least one; None: no cap); every plan sees the same samples (common random
    numbers). ``plies`` turns are played after the plan, the opponent's and the
    player's in turn (2: the reply and the own next turn), each
    side drawing from the sampled bag before its later turns. With ``leaves`` the
    continuation ends by valuing the tokens the player keeps after its last turn, with
    the bag as that turn found it (Quackle's sims add the leave so), and with
    ``opponent_leaves`` the tokens the opponent kept after its last turn are valued so
    and taken off (a candidate that leaves it stuck is worth more). With ``to_end``,
    when the bag holds that many tokens or fewer after the plan, each continuation goes
    on to the game's end instead (a rack emptied with the bag empty, or two turns in a
    row without a placement) and ends with C11's deductions; with ``even_horizon`` the
    bag is counted at the turn's start instead, so every candidate's continuations have
    the same horizon (counted after each candidate's draw, one that draws more may be
    played out to the end while its neighbour stops after two turns, and the two totals
    are not alike: issue 35). With
    ``searched_reply`` the opponent replies with its best whole turn (the exact search,
    as the strong player) rather than greedily, and with ``searched_own`` the player's
    own turns are searched so too, each search expanding at most ``rollout_nodes``
    positions; ``prior`` is what its last turn says of its rack
    (:mod:`.inference`; None: any unseen tokens).

    With ``offsets`` the candidates race, as Quackle's simulations prune: a candidate is
    judged ``offsets[i] + weight * average``, and from :data:`RACE_FROM` samples on one
    that trails the leader by :data:`RACE_Z` standard errors of their paired difference
    is dropped (its average stays as it was then), so the samples go to the close
    calls; the race ends when one candidate is left.

    With ``risk`` = (lead, spread) a candidate is judged by its chance of winning, not
    its average margin: each continuation's margin ``x`` wins with the chance
    ``Phi((lead + x) / s)``, the rest of the game after it as normal noise of spread
    ``s``: ``spread`` scaled by the square root of the share of the tokens still to play
    then (a continuation played out to the end wins, draws or loses for sure), and the
    average chance is given back as the sure margin worth the same, so a candidate
    whose continuations spread more is worth more when behind and less when ahead."""
    size = variant.rack_size
    count = len(shortlist)
    values: list[list[float]] = [[] for _ in range(count)]
    left: list[list[float]] = [[] for _ in range(count)]  # the noise to come, for ``risk``
    tokens_now = bag_size + 2 * size
    alive = list(range(count))
    done = 0
    while done < samples:
        if done and deadline is not None and deadline.passed():
            break
        opponent, rest = deal(pool, size, prior, rng)
        for index in alive:
            plan = shortlist[index]
            mark = len(board.history)
            for cell, value in plan.placements:
                board.place(cell, value)
            taken = min(size - len(plan.leave), bag_size)
            counted = bag_size if even_horizon else bag_size - taken
            finish = to_end is not None and counted <= to_end
            hands = (list(opponent), list(plan.leave) + rest[:taken])
            bag = bag_size - taken
            own_bag = bag  # the bag as the player's last turn began
            their_bag = bag  # the bag as the opponent's last turn began
            total = float(plan.total)
            ended = False
            ply, idle = 0, 0
            while ply < plies or (finish and not ended):
                side = ply % 2  # 0: the opponent, 1: the player
                hand = hands[side]
                before = len(hand)
                points = _turn(
                    variant, board, hand, searched_own if side else searched_reply, rollout_nodes
                )
                total += points if side else -points
                if side:
                    own_bag = bag
                else:
                    their_bag = bag
                placed = before - len(hand)
                drawn = min(placed, bag)
                if finish or ply < plies - 2:  # a later turn of this side: it draws first
                    hand.extend(rest[taken : taken + drawn])
                taken += drawn
                bag -= drawn
                ply += 1
                if finish:
                    idle = 0 if placed else idle + 1
                    if not hand:  # out: the other loses its rack (C11a)
                        total += sum(hands[0]) if side else -sum(hands[1])
                        ended = True
                    elif idle >= 2:  # nobody can place: each loses its own (C11b)
                        total += sum(hands[0]) - sum(hands[1])
                        ended = True
            while len(board.history) > mark:
                board.unplace()
            if leaves is not None and not ended:
                total += leaves(tuple(sorted(hands[1])), own_bag)
            if opponent_leaves is not None and not ended:
                total -= opponent_leaves(tuple(sorted(hands[0])), their_bag)
            values[index].append(total)
            if risk is not None:
                to_come = 0 if ended else bag + len(hands[0]) + len(hands[1])
                left[index].append(math.sqrt(to_come / tokens_now))
        done += 1
        if offsets is not None and done >= RACE_FROM and done % RACE_EVERY == 0:
            alive = _still_racing(values, alive, offsets, weight, done)
            if len(alive) == 1:
                break
    if risk is not None:
        return [_sure_margin(v, *risk, rest) for v, rest in zip(values, left, strict=True)]
    return [sum(v) / len(v) for v in values]


_NORMAL = NormalDist()
SPREAD_PER_TOKEN: Final = 40.0
"""How much the final margin of a classic game spreads per square root of the tokens
still to play (~400 points over a whole game's ~106: issue 16): the noise the expert's
``win_chance`` and the analysis's win chances count on."""
SETTLED = 1e-7
"""A chance of winning this close to 0 or 1 is taken as settled (and past the floats'
precision for the inverse)."""


def _sure_margin(
    margins: Sequence[float], lead: float, spread: float, left: Sequence[float] | None = None
) -> float:
    """The margin that wins as often as ``margins`` do on average, ``lead`` ahead with
    the rest of the game normal noise of ``spread``; with ``left``, the share of that
    spread still to come after each continuation: those that played the game out (0)
    win, draw or lose for sure, the others share the noise their average share leaves."""
    if left is None:
        chance = sum(_NORMAL.cdf((lead + x) / spread) for x in margins) / len(margins)
    else:
        open_ended = [rest for rest in left if rest > 0]
        spread *= sum(open_ended) / len(open_ended) if open_ended else 1.0
        chance = sum(
            _NORMAL.cdf((lead + x) / spread) if rest > 0 else _settled(lead + x)
            for x, rest in zip(margins, left, strict=True)
        ) / len(margins)
    if not SETTLED < chance < 1 - SETTLED:  # won or lost whatever: play for the margin
        return sum(margins) / len(margins)
    return spread * _NORMAL.inv_cdf(chance) - lead


def _settled(final_margin: float) -> float:
    """A played-out game's result as a chance of winning: 1, a draw 0.5, or 0."""
    return 1.0 if final_margin > 0 else 0.5 if final_margin == 0 else 0.0


def _turn(variant: Variant, board: Board, hand: list[int], searched: bool, node_limit: int) -> int:
    """Play a simulated turn of ``hand`` (greedy, or with ``searched`` the best of the
    exact search bounded by ``node_limit`` positions): its tokens go on the board and
    leave the hand; its points with bonus."""
    if not searched:
        return greedy_turn(variant, board, hand, len(hand))
    best = best_turn(variant, board, hand, started_with=len(hand), node_limit=node_limit)
    for cell, value in best.placements:
        board.place(cell, value)
        hand.remove(value)
    return best.total


def _still_racing(
    values: list[list[float]], alive: list[int], offsets: Sequence[float], weight: float, n: int
) -> list[int]:
    """The candidates not significantly behind the leader after ``n`` samples each."""
    means = {i: offsets[i] + weight * sum(values[i]) / n for i in alive}
    leader = max(alive, key=lambda i: (means[i], -i))
    lead = values[leader]
    kept = []
    for index in alive:
        if index == leader:
            kept.append(index)
            continue
        own = values[index]
        diffs = [own[j] - lead[j] for j in range(n)]
        mean = sum(diffs) / n
        spread = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        error = weight * math.sqrt(spread / n)
        if means[index] - means[leader] + RACE_Z * error >= 0:
            kept.append(index)
    return kept


ENDGAME_WIDTH = 6
"""Turns tried per position by the end-game search (the best-scoring ones)."""


ENDGAME_NODES = 2_000
"""The end-game search's default budget: positions expanded per decision (each one an
exact turn search), over all its passes. In 60 classic games (tuning seeds) the full
six-turn search of an end-game decision expanded at most 1,011 (p95 419; ~0.05 ms each
in pure Python), so this keeps the depth the former 250 ms time budget reached, and
bounds the rare crowded position as that budget did (issue 35)."""


PRE_ENDGAME_SAMPLES = 8
"""Deals of the unseen tokens the pre-end-game search judges each candidate on (from
the bag's 4 tokens, the master with 8 and with 16 gained alike, 48 no more than 16 with
300 positions: docs/computer-players.md)."""
PRE_ENDGAME_NODES = 1_000
"""Positions the pre-end-game search may expand on each deal (300 gained a third as
much as 1,000, 3,000 no more)."""


def pre_endgame(
    variant: Variant,
    board: Board,
    shortlist: Sequence[TurnPlan],
    pool: Sequence[int],
    rack: Sequence[int],
    rng: random.Random,
    *,
    samples: int,
    node_limit: int,
    budget: int,
    max_turns: int,
    prior: RackPrior | None,
    deadline: Cap | None,
) -> list[float]:
    """The pre-end game (a few tokens left in the bag, two players), as Macondo's
    pre-end-game solver: on each of ``samples`` deals of the unseen ``pool`` (the
    opponent's rack as ``prior`` says, the rest the bag in a drawing order) the rest of
    the game is searched as a game of perfect information (:class:`EndgameSearch`,
    ``budget`` positions a deal), each side refilling its rack from that bag; a
    candidate's value is its average margin over the deals. Every candidate is judged
    alike, to the game's end or the search's horizon (the simulations' greedy
    continuations play the last turns badly: issue 35)."""
    size = variant.rack_size
    totals = [0.0] * len(shortlist)
    counts = [0] * len(shortlist)
    for done in range(samples):
        if done and deadline is not None and deadline.passed():
            break
        opponent, bag = deal(pool, size, prior, rng)
        search = EndgameSearch(variant, board, deadline, node_limit, budget=budget)
        values = search.root_values(
            shortlist, tuple(opponent), max_turns, bag=tuple(bag), rack=tuple(rack)
        )
        for index, value in enumerate(values):
            totals[index] += value
            counts[index] += 1
    return [t / n if n else -math.inf for t, n in zip(totals, counts, strict=True)]


class _OutOfTime(Exception):
    """The end-game search ran out of its budget, in positions or (the safety cap) in
    time: the deeper pass is dropped."""


class EndgameSearch:
    """Bag empty, two players: both racks are known, so the rest of the game is a game
    of perfect information. A depth-limited negamax over whole turns (each side's
    :data:`ENDGAME_WIDTH` best-scoring turns from the exact turn search, alpha-beta),
    deepened two turns at a time while the budget lasts: ``budget`` positions expanded
    over all passes (None: no limit), a pass that would need more is dropped, so the
    depth reached is the same on any machine; ``deadline`` is the wall-clock safety cap
    (:class:`Cap`), which drops a pass so too. ``node_limit`` bounds each position's
    turn search. Values are the score margin of the side to move, with C11's deductions
    when a rack empties or nobody can place; at the horizon half of each rack left is
    counted as lost."""

    def __init__(
        self,
        variant: Variant,
        board: Board,
        deadline: Cap | None,
        node_limit: int,
        width: int = ENDGAME_WIDTH,
        budget: int | None = None,
    ) -> None:
        self.variant = variant
        self.board = board
        self.deadline = deadline
        self.node_limit = node_limit
        self.width = width
        self.budget = budget
        self.expanded = 0

    def root_values(
        self,
        shortlist: Sequence[TurnPlan],
        opponent: tuple[int, ...],
        max_turns: int = 6,
        bag: tuple[int, ...] = (),
        rack: tuple[int, ...] = (),
    ) -> list[float]:
        """The margin each candidate leads to, from the deepest look-ahead finished
        within the budget (at least the opponent's exact reply for the first
        candidate). With a ``bag`` (its tokens in drawing order: one sampled deal of a
        pre-end game) each side refills its rack from it after a turn, and an exchange
        among the candidates (no placements, fewer tokens kept than ``rack`` holds)
        draws first and puts the tokens given at the bag's end."""
        values: list[float] = []
        for turns in range(2, max_turns + 1, 2):
            try:
                values = [self._root(plan, opponent, turns, True, bag, rack) for plan in shortlist]
            except _OutOfTime:
                break
        if not values:  # not even the first pass: the reply alone, as far as the budget went
            for plan in shortlist:
                if values and self._spent():
                    break
                values.append(self._root(plan, opponent, 2, False, bag, rack))
        return values

    def _root(
        self,
        plan: TurnPlan,
        other: tuple[int, ...],
        turns: int,
        bounded: bool,
        bag: tuple[int, ...],
        rack: tuple[int, ...],
    ) -> float:
        """A candidate's margin, an exchange's (C8b) included."""
        if plan.placements or not bag or len(plan.leave) >= len(rack):
            return self._after(plan, other, turns, bounded, bag)
        given = list(rack)
        for value in plan.leave:
            given.remove(value)
        drawn = min(len(given), len(bag))
        mover = plan.leave + bag[:drawn]
        if turns <= 1:
            return 0.5 * (sum(other) - sum(mover))
        rest = bag[drawn:] + tuple(given)
        return -self._value(other, mover, turns - 1, -math.inf, math.inf, bounded, rest)

    def _spent(self) -> bool:
        """Whether the budget is used up: every position it allows expanded, or the
        safety cap past."""
        if self.budget is not None and self.expanded >= self.budget:
            return True
        return self.deadline is not None and self.deadline.passed()

    def _after(
        self,
        plan: TurnPlan,
        other: tuple[int, ...],
        turns: int,
        bounded: bool = True,
        bag: tuple[int, ...] = (),
    ) -> float:
        """The mover's margin after playing ``plan`` and refilling its rack from
        ``bag``, ``turns`` turns looked at."""
        drawn = min(self.variant.rack_size - len(plan.leave), len(bag))
        mover = plan.leave + bag[:drawn]
        if not mover:  # the mover goes out: the other loses its rack (C11a)
            return plan.total + sum(other)
        if turns <= 1:
            return plan.total + 0.5 * (sum(other) - sum(mover))
        board = self.board
        for cell, value in plan.placements:
            board.place(cell, value)
        try:
            reply = self._value(other, mover, turns - 1, -math.inf, math.inf, bounded, bag[drawn:])
        finally:
            for _ in plan.placements:
                board.unplace()
        return plan.total - reply

    def _value(
        self,
        mover: tuple[int, ...],
        other: tuple[int, ...],
        turns: int,
        alpha: float,
        beta: float,
        bounded: bool,
        bag: tuple[int, ...] = (),
    ) -> float:
        """The best margin for the side to move holding ``mover``, ``bag`` still to
        draw from."""
        if bounded and self._spent():
            raise _OutOfTime
        self.expanded += 1
        variant, board = self.variant, self.board
        # The turns worth trying first: those that score most once the rack left is
        # counted (so a turn that goes out is never crowded out by bigger scorers).
        left_over = sum(other)
        plans = sorted(
            (
                p
                for p in search_turns(
                    variant, board, mover, started_with=len(mover), node_limit=self.node_limit
                )
                if p.placements
            ),
            key=lambda p: p.total + (left_over if not p.leave and not bag else -0.5 * sum(p.leave)),
            reverse=True,
        )[: self.width]
        if not plans:
            if not variant.can_place(board, other):  # nobody can place: the end (C11b)
                return float(sum(other) - sum(mover))
            if turns <= 1:
                return 0.5 * (sum(other) - sum(mover))
            return -self._value(other, mover, turns - 1, -beta, -alpha, bounded, bag)  # a pass
        best = -math.inf
        for plan in plans:
            value = self._after(plan, other, turns, bounded, bag)
            if value > best:
                best = value
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
        return best
