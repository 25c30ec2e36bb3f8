"""Quattro's expert: the strong player's candidate turns judged by the rounds they win.

Quattro scores rounds, not points (Q5): what a turn is worth is the chance that its
player empties the hand first. At each decision the expert lists its candidates -- every
different way its turn can end (Q2: a player plays on while able, so a turn is the
position it stops in, with or without DIAGO, Q4), or the pile for a drawn card, or the
card to exchange (Q3) -- and plays the round on after each on ``samples`` deals
sampled from the cards it has not seen (the opponents' hands, each as its owner's last
turn says it must be, the reserve and the cards under the tops, consistent with the
player card and the counts the view shows), every seat playing the strong policy
(:mod:`.quattro_sim`) for ``horizon`` turns (or to the round's end), the round then
scored from the cards in hand. The candidate that wins the most of those rounds is
played; a tie goes to the strong player's own choice, listed first.

Every candidate is judged on the same deals (common random numbers: the luck of the
deal cancels between candidates), and the deals come from the bot's seed and the turn
(:meth:`~.base.FamilyBot.chance`), so the same seed gives the same game on any machine.
Budgets are counts (``samples`` deals, ``candidates`` turns, ``nodes`` searched in the
simulations); the wall-clock ``cap_ms``
is a safety net only: when it bites the decision stops with the deals judged so far, is
logged and counted in ``capped``.
"""

from __future__ import annotations

import logging
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mathable.engine.actions import Action, Diago, Draw, Exchange, Penalty, Place
from mathable.engine.tokens import CLASSIC_TOKENS
from mathable.games.quattro.view import PilesView

from .quattro import plays_from, strong_plan
from .quattro_inference import HandClue, hand_clues, turn_start
from .quattro_sim import Round, best_pile, worst_card

log = logging.getLogger(__name__)

ENDINGS_NODES = 4000
"""The node budget of the search for the different ways a turn can end (strong's)."""


@dataclass(frozen=True)
class Candidate:
    """One way to go on from a view: its actions in order, what it does to a sampled
    round (``apply`` returns True when the seat emptied its hand), and the position a
    turn of plays ends in (None for other candidates): two chains ending alike are one
    candidate."""

    actions: tuple[Action, ...]
    apply: Callable[[Round, int], bool]
    ending: object = None


@dataclass
class QuattroPlan:
    """The rest of a turn the expert chose, kept while each view is where it leads."""

    key: tuple[object, ...]
    actions: tuple[Action, ...]


@dataclass(frozen=True)
class QuattroBudget:
    """The expert's counted budgets in Quattro, and its wall-clock safety cap."""

    samples: int
    candidates: int
    cap_ms: int | None
    horizon: int = 0
    """Turns played after a candidate before the round is estimated (0: to its end)."""
    infer: bool = True
    """Deal each opponent a hand its last turn could have left (:mod:`.quattro_inference`)."""
    nodes: int = 40_000
    """The positions the simulations' chain searches may search in all, per decision:
    no new deal is begun once they are spent (a counted bound on the decisions of long
    rounds, where hands grow and searches with them)."""

    def __post_init__(self) -> None:
        if self.samples < 0:
            raise ValueError(f"samples={self.samples}: expected 0 or more")
        if self.candidates < 1:
            raise ValueError(f"candidates={self.candidates}: expected 1 or more")
        if self.horizon < 0:
            raise ValueError(f"horizon={self.horizon}: expected 0 or more")
        if self.nodes < 1:
            raise ValueError(f"nodes={self.nodes}: expected 1 or more")


class QuattroExpert:
    """The expert's Quattro play (see the module): one per bot, as it keeps the rest of
    its turn; ``capped`` counts the decisions the safety cap cut short."""

    def __init__(self, budget: QuattroBudget, name: str = "expert") -> None:
        """``name``: the level, as the warning of a cap that bites says it."""
        self.budget = budget
        self.name = name
        self.capped = 0
        self._plan: QuattroPlan | None = None

    def act(self, view: PilesView, chance: Callable[[tuple[object, ...]], random.Random]) -> Action:
        """The next action from ``view``; ``chance(at)`` gives the seeded generator of a
        decision at position ``at`` (:meth:`~.base.FamilyBot.chance`)."""
        following = self._following(view)
        if following is not None:
            return following
        start = turn_start(view)
        if start is not None:  # made afresh mid-turn: decide as at the turn's start
            self._decide(start, chance)
            following = self._following(view)
            if following is not None:
                return following
        return self._decide(view, chance)

    def _decide(
        self, view: PilesView, chance: Callable[[tuple[object, ...]], random.Random]
    ) -> Action:
        """Chooses from ``view``, keeps the plan and gives its first action."""
        candidates = self.candidates(view)
        chosen = candidates[0]
        if len(candidates) > 1 and self.budget.samples > 0:
            at = ("quattro-expert", view.round, len(view.turns), view.seat, view.phase)
            chosen = candidates[self.judge(view, candidates, chance(at))]
        self._plan = QuattroPlan(_turn_key(view), chosen.actions)
        return chosen.actions[0]

    # -- keeping the turn's plan ---------------------------------------------------------

    def _following(self, view: PilesView) -> Action | None:
        """The kept plan's next action when ``view`` is where it leads and the action is
        legal there, else None (so a bot made afresh decides anew)."""
        plan = self._plan
        if plan is None or plan.key != _turn_key(view) or view.phase != "play":
            return None
        announced = isinstance(plan.actions[0], Diago)
        if announced and view.seat not in view.diago_used:
            return None
        done = int(announced) + len(view.turn_plays)
        planned = [(a.cell, a.value) for a in plan.actions if isinstance(a, Place)]
        if tuple(planned[: len(view.turn_plays)]) != view.turn_plays or done >= len(plan.actions):
            return None
        action = plan.actions[done]
        if not isinstance(action, Place) or action.value not in view.rack:
            return None
        if action not in plays_from(view.tops, view.rack, view.diagonals):
            return None
        return action

    # -- candidates ----------------------------------------------------------------------

    def candidates(self, view: PilesView) -> list[Candidate]:
        """What the expert weighs from ``view``, at most ``candidates`` of them: the
        strong player's own choice first (so a tie, or no samples, plays as strong)."""
        strong = strong_plan(view)
        if view.phase == "drawn":
            assert view.drawn is not None
            found = _drawn_candidates(view.drawn)
        elif view.phase == "after":
            found = _after_candidates(view.rack)
        else:
            found = _turn_candidates(view)
        first = next((c for c in found if c.actions == strong), None)
        if first is None:
            first = _as_strong(view, strong)
        rest = [
            c for c in found if c is not first and (c.ending is None or c.ending != first.ending)
        ]
        return [first, *rest][: self.budget.candidates]

    # -- judging -------------------------------------------------------------------------

    def judge(self, view: PilesView, candidates: Sequence[Candidate], rng: random.Random) -> int:
        """The index of the candidate whose continuations win the most rounds over the
        sampled deals (the first on a tie): ``samples`` deals, or fewer once the deals
        played have spent the budget's ``nodes``."""
        seeds = [rng.getrandbits(64) for _ in range(self.budget.samples)]
        cap = self.budget.cap_ms
        deadline = None if cap is None else time.perf_counter() + cap / 1000
        totals = [0.0] * len(candidates)
        spent = 0
        seat = view.seat
        assert seat is not None
        for seed in seeds:
            if deadline is not None and time.perf_counter() > deadline:
                self.capped += 1
                log.warning(
                    "%s (seat %s, Quattro): the %s ms safety cap bit, the turn was "
                    "chosen on the deals judged by then (a busy machine: this decision "
                    "may differ on another run)",
                    self.name,
                    seat,
                    cap,
                )
                break
            deal = sampled_round(view, random.Random(seed), self.budget.infer)
            for index, candidate in enumerate(candidates):
                sample = deal.copy()
                if candidate.apply(sample, seat):
                    totals[index] += 1.0
                    continue
                totals[index] += sample.play_out(seat, self.budget.horizon)
                spent += sample.nodes_spent
            if spent >= self.budget.nodes:
                break  # the counted budget: every candidate judged on the same deals
        best = max(totals)
        return totals.index(best)


def _turn_key(view: PilesView) -> tuple[object, ...]:
    """What stays the same through a turn: the seat, the round, the turns finished."""
    return (view.seat, view.round, len(view.turns))


# -- the candidates of each phase ------------------------------------------------------


def turn_endings(
    tops: tuple[int, ...], hand: tuple[int, ...], diagonals: bool, budget: int
) -> list[tuple[tuple[int, int], ...]]:
    """One chain of plays for every different position a turn can stop in (no card of
    the hand fits any more, Q2), longest first; the search expands at most ``budget``
    positions."""
    endings: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, int], ...]] = {}
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    left = [budget]
    path: list[tuple[int, int]] = []

    def search(tops: tuple[int, ...], hand: tuple[int, ...]) -> None:
        key = (tops, hand)
        if key in seen or left[0] <= 0:
            return
        seen.add(key)
        left[0] -= 1
        plays = plays_from(tops, hand, diagonals)
        if not plays:
            if path:
                endings.setdefault(key, tuple(path))
            return
        for play in plays:
            rest = list(hand)
            rest.remove(play.value)
            new_tops = list(tops)
            new_tops[play.cell] = play.value
            path.append((play.cell, play.value))
            search(tuple(new_tops), tuple(rest))
            path.pop()

    search(tops, hand)
    return sorted(endings.values(), key=len, reverse=True)


def _chain_candidate(
    view: PilesView, announce: bool, chain: tuple[tuple[int, int], ...]
) -> Candidate:
    """Playing ``chain`` from ``view`` (after announcing DIAGO when ``announce``)."""
    diagonals = announce or view.diagonals
    actions: tuple[Action, ...] = tuple(Place(p, v) for p, v in chain)
    if announce:
        actions = (Diago(), *actions)
    tops, hand = list(view.tops), list(view.rack)
    for pile, value in chain:
        tops[pile] = value
        hand.remove(value)

    def apply(state: Round, seat: int) -> bool:
        if state.chain_turn(seat, diagonals, chain):
            return True
        state.finish_turn()
        return False

    return Candidate(actions, apply, (diagonals, tuple(tops), tuple(sorted(hand))))


def _draw_candidate() -> Candidate:
    """Stuck at the turn's start (or choosing not to announce DIAGO): draw, then the
    strong player's pile and exchange."""

    def apply(state: Round, seat: int) -> bool:
        card = state.draw()
        if card is None:
            state.finish_turn(passed=True)
            return False
        hand = state.hands[seat]
        state.put_drawn(best_pile(state.tops, hand, card, state.diagonals_for_all()), card)
        state.exchange(seat, worst_card(hand))
        state.finish_turn()
        return False

    return Candidate((Draw(),), apply)


def _turn_candidates(view: PilesView) -> list[Candidate]:
    """At a turn's start (or mid-turn, anew): every way the turn can end, with DIAGO too
    where it may be announced, longest first, and drawing when no card fits without it."""
    tops, hand = tuple(view.tops), tuple(view.rack)
    found = [
        _chain_candidate(view, False, chain)
        for chain in turn_endings(tops, hand, view.diagonals, ENDINGS_NODES)
    ]
    may_diago = (
        not view.turn_plays
        and not view.diagonals
        and view.seat not in view.diago_used
        and len(view.diago_used) < len(view.players)
    )
    if may_diago:
        found += [
            _chain_candidate(view, True, chain)
            for chain in turn_endings(tops, hand, True, ENDINGS_NODES)
        ]
        found.sort(key=lambda c: len(c.actions) - isinstance(c.actions[0], Diago), reverse=True)
    if "draw" in view.available and not plays_from(tops, hand, view.diagonals):
        found.append(_draw_candidate())
    return found


def _as_strong(view: PilesView, strong: tuple[Action, ...]) -> Candidate:
    """The strong player's choice as a candidate: its chain (played on as Q2 demands
    where its search ran out of budget), a draw, or a pass."""
    chain = tuple((a.cell, a.value) for a in strong if isinstance(a, Place))
    if view.phase == "play" and chain:
        return _chain_candidate(view, isinstance(strong[0], Diago), chain)
    if isinstance(strong[0], Draw):
        return _draw_candidate()

    def apply(state: Round, seat: int) -> bool:  # a pass: nothing can be drawn
        state.finish_turn(passed=True)
        return False

    return Candidate(strong, apply)


def _drawn_candidates(card: int) -> list[Candidate]:
    """A drawn card (Q3): each pile it may go on, then the strong player's exchange."""

    def on(pile: int) -> Candidate:
        def apply(state: Round, seat: int) -> bool:
            state.put_drawn(pile, card)
            state.exchange(seat, worst_card(state.hands[seat]))
            state.finish_turn()
            return False

        return Candidate((Place(pile, card),), apply)

    return [on(pile) for pile in range(4)]


def _after_candidates(rack: Sequence[int]) -> list[Candidate]:
    """The end of a stuck turn (Q3): each card to exchange, least flexible first, or a
    penalty card."""

    def giving(value: int | None) -> Candidate:
        def apply(state: Round, seat: int) -> bool:
            state.exchange(seat, value)
            state.finish_turn()
            return False

        action: Action = Penalty() if value is None else Exchange((value,))
        return Candidate((action,), apply)

    worst = worst_card(rack)
    values = [worst, *(v for v in sorted(set(rack)) if v != worst)]
    return [*(giving(v) for v in values), giving(None)]


# -- sampling the hidden cards ---------------------------------------------------------


def sampled_round(view: PilesView, rng: random.Random, infer: bool = True) -> Round:
    """A round consistent with ``view``, the seat to move next after the current
    decision's candidate is applied: the opponents' hands and the reserve dealt from the
    unseen cards (the player card: the rest went to the trash, out of play), each hand
    as its owner's last turn says where ``infer`` (:func:`~.quattro_inference.hand_clues`),
    and the cards under the tops (the deck less the unseen, the hand, the tops and a
    drawn card) in a sampled order."""
    seat = view.seat
    assert seat is not None
    pool = [v for v, n in sorted(view.unseen.items()) for _ in range(n)]
    rng.shuffle(pool)
    clues = hand_clues(view) if infer else {}
    hands: list[list[int]] = []
    for other, size in enumerate(view.rack_sizes):
        if other == seat:
            hands.append(list(view.rack))
            continue
        clue = clues.get(other)
        hand = [] if clue is None else _clued_cards(pool, size - clue.free, clue)
        rest = size - len(hand)
        hand += pool[:rest]
        del pool[:rest]
        hands.append(hand)
    reserve = pool[: view.bag_size]
    seen = Counter(CLASSIC_TOKENS)
    seen.subtract(view.unseen)
    seen.subtract(view.rack)
    seen.subtract(view.tops)
    if view.drawn is not None:
        seen[view.drawn] -= 1
    bodies = [v for v, n in sorted(seen.items()) for _ in range(max(n, 0))]
    rng.shuffle(bodies)
    used = set(view.diago_used)
    return Round(view.tops, hands, reserve, bodies, used, seat)


def _clued_cards(pool: list[int], count: int, clue: HandClue) -> list[int]:
    """The first ``count`` cards of ``pool`` that fit no pile under the clue's tops,
    taken out of it (none when there are too few: the clue is then not used)."""
    chosen = [i for i, card in enumerate(pool) if not clue.fits(card)][: max(count, 0)]
    if len(chosen) < count:
        return []
    cards = [pool[i] for i in chosen]
    for i in reversed(chosen):
        del pool[i]
    return cards


__all__ = [
    "Candidate",
    "QuattroBudget",
    "QuattroExpert",
    "sampled_round",
    "turn_endings",
]
