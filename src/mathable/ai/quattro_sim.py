"""A Quattro round played out fast, for the expert's simulations (:mod:`.quattro_expert`).

The expert judges its candidate turns by playing the rest of the round on deals sampled
from what it has not seen. The engine's :class:`~mathable.games.quattro.state.QuattroState`
checks every action and keeps a log: right for a match, far too slow for thousands of
continuations a turn. :class:`Round` holds only what the rules need (the four tops, the
hands, the reserve, the cards under the tops, who used DIAGO) and every seat plays the
strong player's policy (:func:`~.quattro.strong_plan`: the longest chain, DIAGO when it
plays two more or the whole hand, the drawn card where it opens most plays, the least
flexible card exchanged), so a continuation is a pure function of its deal.

What it leaves out, being a sample anyway: the order of the cards under the tops (turned
into a new reserve when it runs out, Q5) is sampled rather than known.
"""

from __future__ import annotations

import math
from bisect import insort
from collections.abc import Sequence
from functools import lru_cache

from mathable.games.quattro.game import pile_accepts

from .quattro import CHAIN_NODES, plays_from
from .quattro_chain import chain_pairs

MAX_TURNS = 40
"""The most turns a continuation plays before the round is estimated from the cards in
hand (:meth:`Round.estimate`): a round rarely lasts 30 turns, and a long one would cost
most of a decision's time."""

CARD_WEIGHT = 0.5
"""How much a card in hand more than the opponent's costs in :meth:`Round.estimate`
(logistic: 0.5 makes one card more a 38% chance, three more 18%)."""


class Round:
    """A round in play, as a continuation needs it: seats play the strong policy."""

    __slots__ = (
        "bodies",
        "diago_used",
        "hands",
        "idle",
        "n",
        "nodes_spent",
        "reserve",
        "to_move",
        "tops",
    )

    def __init__(
        self,
        tops: Sequence[int],
        hands: Sequence[Sequence[int]],
        reserve: list[int],
        bodies: list[int],
        diago_used: set[int],
        to_move: int,
    ) -> None:
        """``reserve`` is drawn from its end; ``bodies`` are the cards under the tops, in
        the order a rebuilt reserve would deal them (from the end); hands are kept
        sorted."""
        self.tops = list(tops)
        self.hands = [sorted(h) for h in hands]
        self.reserve = reserve
        self.bodies = bodies
        self.diago_used = diago_used
        self.n = len(hands)
        self.to_move = to_move
        self.idle = 0
        self.nodes_spent = 0
        """The positions its chain searches have searched (the expert counts its budget
        in them; a search kept from before counts as searched again, so the count
        depends on the deal alone)."""

    def copy(self) -> Round:
        """An independent copy (each candidate plays on its own)."""
        copy = Round(
            self.tops,
            self.hands,
            list(self.reserve),
            list(self.bodies),
            set(self.diago_used),
            self.to_move,
        )
        copy.idle = self.idle
        copy.nodes_spent = self.nodes_spent
        return copy

    # -- the pieces of a turn ----------------------------------------------------------

    def draw(self) -> int | None:
        """The reserve's next card, the cards under the tops becoming the reserve when it
        has run out (Q5); None when there is none."""
        if not self.reserve and self.bodies:
            self.reserve, self.bodies = self.bodies, []
        return self.reserve.pop() if self.reserve else None

    def can_draw(self) -> bool:
        return bool(self.reserve or self.bodies)

    def diagonals_for_all(self) -> bool:
        """Q4: every seat has used DIAGO, so diagonals count for all."""
        return len(self.diago_used) >= self.n

    def play(self, seat: int, pile: int, value: int) -> None:
        """``seat`` plays ``value`` on ``pile`` (checked by the caller)."""
        self.hands[seat].remove(value)
        self.bodies.append(self.tops[pile])
        self.tops[pile] = value

    def put_drawn(self, pile: int, card: int) -> None:
        """Q3: the drawn card goes on ``pile`` with no equation."""
        self.bodies.append(self.tops[pile])
        self.tops[pile] = card

    def take(self, seat: int, count: int) -> None:
        """``seat`` draws ``count`` cards (fewer when none are left), its hand kept in
        order as the engine keeps it (the strong player's searches and ties read it in
        that order)."""
        for _ in range(count):
            card = self.draw()
            if card is not None:
                insort(self.hands[seat], card)

    def exchange(self, seat: int, value: int | None) -> None:
        """Q3's end of a stuck turn: ``value`` discarded and two drawn, or (None) a
        penalty card drawn."""
        if value is None:
            self.take(seat, 1)
        else:
            self.hands[seat].remove(value)
            self.take(seat, 2)

    def finish_turn(self, passed: bool = False) -> tuple[int, ...] | None:
        """The turn passes to the next seat; the round's winners if nobody could play
        nor draw all round (blocked, Q5), else None."""
        self.idle = self.idle + 1 if passed else 0
        self.to_move = (self.to_move + 1) % self.n
        return self.fewest() if self.idle >= self.n else None

    def fewest(self) -> tuple[int, ...]:
        """The seats with the fewest cards in hand (a blocked round's winners)."""
        least = min(len(h) for h in self.hands)
        return tuple(s for s in range(self.n) if len(self.hands[s]) == least)

    # -- the strong policy -------------------------------------------------------------

    def chain(
        self, tops: tuple[int, ...], hand: tuple[int, ...], diagonals: bool
    ) -> tuple[tuple[int, int], ...]:
        """The strong player's chain from here (:func:`strong_chain`), its positions
        counted in :attr:`nodes_spent`."""
        found, spent = strong_chain(tops, hand, diagonals)
        self.nodes_spent += spent
        return found

    def chain_turn(self, seat: int, diagonals: bool, chain: Sequence[tuple[int, int]]) -> bool:
        """``seat`` plays ``chain`` (diagonals counting when ``diagonals``: DIAGO
        announced this turn, or used by all), then on while it can as Q2 demands;
        whether it emptied its hand."""
        if diagonals:
            self.diago_used.add(seat)
        for pile, value in chain:
            self.play(seat, pile, value)
        return self.play_on(seat, diagonals)

    def play_on(self, seat: int, diagonals: bool) -> bool:
        """``seat`` plays on while any card fits (Q2), as the strong player does: the
        first play of the longest chain it finds, searched again after every play;
        whether it emptied its hand."""
        hand = self.hands[seat]
        while hand:
            more = self.chain(tuple(self.tops), tuple(hand), diagonals)
            if not more:
                break
            self.play(seat, *more[0])
        return not hand

    def strong_turn(self) -> tuple[int, ...] | None:
        """The seat to move plays a whole turn as the strong player; the round's winners
        if it ended, else None."""
        seat = self.to_move
        hand = self.hands[seat]
        for_all = self.diagonals_for_all()
        tops = tuple(self.tops)
        chain = self.chain(tops, tuple(hand), for_all)
        diago = False
        if not for_all and seat not in self.diago_used:
            wider = self.chain(tops, tuple(hand), True)
            if len(wider) >= len(chain) + 2 or (wider and len(wider) == len(hand)) or not chain:
                diago, chain = bool(wider), wider if wider else chain
        if chain:
            if self.chain_turn(seat, diago or for_all, chain[:1]):
                return (seat,)
            return self.finish_turn()
        card = self.draw()
        if card is None:
            return self.finish_turn(passed=True)
        self.put_drawn(best_pile(self.tops, hand, card, for_all), card)
        self.exchange(seat, worst_card(hand))
        return self.finish_turn()

    def play_out(self, seat: int, turns: int = 0) -> float:
        """The round played on by the strong policy: ``seat``'s share of its win (1
        alone, 1/k shared with k, 0 lost), to its end or, when ``turns`` is positive,
        for that many turns (at most :data:`MAX_TURNS`) and then estimated from the
        cards in hand (:meth:`estimate`)."""
        for _ in range(turns if 0 < turns < MAX_TURNS else MAX_TURNS):
            winners = self.strong_turn()
            if winners is not None:
                return 1 / len(winners) if seat in winners else 0.0
        return self.estimate(seat)

    def estimate(self, seat: int) -> float:
        """``seat``'s chance of winning the round, estimated from how many cards it holds
        beside the opponent holding the fewest (a logistic of the difference)."""
        mine = len(self.hands[seat])
        theirs = min(len(h) for s, h in enumerate(self.hands) if s != seat)
        return 1 / (1 + math.exp(CARD_WEIGHT * (mine - theirs)))


@lru_cache(maxsize=1 << 15)
def strong_chain(
    tops: tuple[int, ...], hand: tuple[int, ...], diagonals: bool
) -> tuple[tuple[tuple[int, int], ...], int]:
    """The strong player's chain (:func:`~.quattro.longest_chain` with its budget) as
    (pile, value) pairs, and the positions its search took; kept, as the same hand
    meets the same tops in many deals."""
    budget = [CHAIN_NODES]
    found = chain_pairs(tops, hand, diagonals, budget)
    return tuple(found), CHAIN_NODES - budget[0]


def best_pile(tops: Sequence[int], hand: Sequence[int], card: int, diagonals: bool) -> int:
    """The strong player's pile for a drawn ``card``: where it opens the most plays for
    ``hand`` (the first such pile on a tie)."""

    def opened(pile: int) -> int:
        new = list(tops)
        new[pile] = card
        return len(plays_from(new, hand, diagonals))

    return max(range(4), key=lambda p: (opened(p), -p))


def fit(value: int, hand: Sequence[int]) -> int:
    """How many pairs of the hand's other cards make ``value`` (a card's flexibility)."""
    others = list(hand)
    others.remove(value)
    count = 0
    for i, a in enumerate(others):
        for b in others[i + 1 :]:
            if value in pile_accepts((a, b, a, b), 0, False):
                count += 1
    return count


def worst_card(hand: Sequence[int]) -> int:
    """The strong player's card to exchange: the one that fits the fewest equations of
    the rest of the hand (the highest on a tie)."""
    return min(sorted(set(hand)), key=lambda v: (fit(v, hand), -v))
