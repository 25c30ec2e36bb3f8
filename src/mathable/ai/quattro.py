"""How the ladder plays Mathable Quattro, from the view alone (rulings Q2-Q4).

Every level plays legally; they differ in foresight:
- gentle plays a random playable card, and draws when stuck;
- greedy plays the highest playable card first and exchanges its highest card;
- strong searches the order of plays that empties the most cards this turn (announcing
  DIAGO when it plays more), puts a drawn card where it opens the most plays for its own
  hand, and exchanges the card that fits the fewest equations;
- the expert and the master judge the ways a turn can end by rounds simulated on
  sampled deals, every seat playing as strong (:mod:`.quattro_expert`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from mathable.engine.actions import Action, Diago, Draw, Exchange, Pass, Penalty, Place
from mathable.engine.arithmetic import ALL_OPS, pair_results
from mathable.games.quattro.game import PilesView, pile_accepts

CHAIN_NODES = 4000
"""The strong player's node budget for its chain search, per action."""


@cache
def _made(a: int, b: int) -> frozenset[int]:
    """The results of + - x / of two top cards (as :func:`pile_accepts` makes them)."""
    return pair_results(a, b, ALL_OPS)


def accepted(tops: Sequence[int], diagonals: bool) -> tuple[frozenset[int], ...]:
    """What each pile takes when the tops are ``tops``, as :func:`pile_accepts` says
    (from the results of each pair of tops, kept: ~50 values, so few pairs)."""
    a, b, c, d = tops
    ab, ac, bd, cd = _made(a, b), _made(a, c), _made(b, d), _made(c, d)
    if not diagonals:
        return (ab | ac, ab | bd, ac | cd, bd | cd)
    ad, bc = _made(a, d), _made(b, c)
    return (ab | ac | ad, ab | bd | bc, ac | cd | bc, bd | cd | ad)


def plays_from(tops: Sequence[int], hand: Sequence[int], diagonals: bool) -> list[Place]:
    """Every legal play of ``hand`` on the piles whose tops are ``tops``."""
    values = set(hand)
    taken = accepted(tops, diagonals)
    return [Place(p, v) for p in range(4) for v in sorted(values & taken[p])]


def longest_chain(
    tops: tuple[int, ...], hand: tuple[int, ...], diagonals: bool, budget: list[int]
) -> list[Place]:
    """The longest sequence of plays from ``hand`` (depth-first, bounded by ``budget``
    nodes); on equal length the one ending with the most plays left open."""
    return [Place(pile, value) for pile, value in chain_pairs(tops, hand, diagonals, budget)]


def chain_pairs(
    tops: Sequence[int], hand: Sequence[int], diagonals: bool, budget: list[int]
) -> list[tuple[int, int]]:
    """:func:`longest_chain` as (pile, value) pairs: the search itself, depth-first
    over the plays by pile then value, each position searched once, ``budget[0]``
    positions at most (spent in place)."""
    best: list[tuple[int, int]] = []
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    path: list[tuple[int, int]] = []

    def search(tops: tuple[int, ...], hand: tuple[int, ...]) -> None:
        nonlocal best
        depth = len(path)
        if depth > len(best):
            best = list(path)
        if budget[0] <= 0 or (len(best) == depth + len(hand) and len(best) > depth):
            return
        key = (tops, hand)
        if key in seen:
            return
        seen.add(key)
        budget[0] -= 1
        taken = accepted(tops, diagonals)
        values = set(hand)
        for pile in range(4):
            fitting = values & taken[pile]
            if not fitting:
                continue
            for value in sorted(fitting):
                rest = list(hand)
                rest.remove(value)
                new_tops = list(tops)
                new_tops[pile] = value
                path.append((pile, value))
                search(tuple(new_tops), tuple(rest))
                path.pop()
                if len(best) == depth + len(hand):
                    return  # the whole hand: nothing beats it

    search(tuple(tops), tuple(hand))
    return best


def _fit(value: int, hand: Sequence[int]) -> int:
    """How many pairs of other cards of the hand make ``value`` (a card's flexibility)."""
    others = list(hand)
    others.remove(value)
    count = 0
    for i, a in enumerate(others):
        for b in others[i + 1 :]:
            if value in pile_accepts((a, b, a, b), 0, False):
                count += 1
    return count


def quattro_act(view: PilesView, level: str, rng: random.Random) -> Action:
    """The next action of a bot of ``level`` in a Quattro view."""
    if level not in ("gentle", "greedy"):
        return strong_plan(view)[0]
    hand, tops = view.rack, view.tops
    if view.phase == "drawn":
        assert view.drawn is not None
        if level == "gentle":
            return Place(rng.randrange(4), view.drawn)
        return Place(_best_pile(view, view.drawn), view.drawn)
    if view.phase == "after":
        if level == "gentle":
            return Penalty() if rng.random() < 0.5 else Exchange((rng.choice(hand),))
        return Exchange((max(hand),))
    plays = plays_from(tops, hand, view.diagonals)
    if plays:
        if level == "gentle":
            return rng.choice(plays)
        return max(plays, key=lambda p: (p.value, -p.cell))
    if not view.turn_plays:
        can_diago = level != "gentle" and _may_announce_diago(view) and plays_from(tops, hand, True)
        if can_diago:
            return Diago()
        return _draw_or_pass(view)
    raise AssertionError("a bot was asked to act with nothing to do")  # pragma: no cover


def strong_plan(view: PilesView) -> tuple[Action, ...]:
    """What the strong player does from ``view`` until its turn may change course: the
    chain of plays that empties the most cards (after announcing DIAGO when that plays
    two more, or the whole hand), or the stuck turn's next step (draw, the pile for a
    drawn card, the card to exchange). Its first action is the strong bot's."""
    hand, tops = view.rack, view.tops
    if view.phase == "drawn":
        assert view.drawn is not None
        return (Place(_best_pile(view, view.drawn), view.drawn),)
    if view.phase == "after":
        worst = min(sorted(set(hand)), key=lambda v: (_fit(v, hand), -v))
        return (Exchange((worst,)),)
    plays = plays_from(tops, hand, view.diagonals)
    if plays or not view.turn_plays:
        chain = longest_chain(tuple(tops), tuple(hand), view.diagonals, [CHAIN_NODES])
        wider: list[Place] = []
        if not view.turn_plays and _may_announce_diago(view):
            wider = longest_chain(tuple(tops), tuple(hand), True, [CHAIN_NODES])
            if len(wider) >= len(chain) + 2 or (wider and len(wider) == len(hand)):
                return (Diago(), *wider)
        if chain:
            return tuple(chain)
        if wider:  # nothing to play unless diagonals count: announce DIAGO
            return (Diago(), *wider)
        return (_draw_or_pass(view),)
    raise AssertionError("a bot was asked to act with nothing to do")  # pragma: no cover


def _may_announce_diago(view: PilesView) -> bool:
    """Q4: DIAGO may be announced now (diagonals do not count yet, and this seat has
    not used its DIAGO this round)."""
    return (
        not view.diagonals
        and view.seat not in view.diago_used
        and len(view.diago_used) < len(view.players)
    )


def _best_pile(view: PilesView, card: int) -> int:
    """The pile where a drawn ``card`` opens the most plays for the hand."""
    rest = tuple(view.rack)

    def opened(pile: int) -> int:
        new = list(view.tops)
        new[pile] = card
        return len(plays_from(new, rest, view.diagonals))

    return max(range(4), key=lambda p: (opened(p), -p))


def _draw_or_pass(view: PilesView) -> Action:
    """Stuck at the start of a turn: draw a card, or pass when none can be drawn."""
    return Draw() if view.bag_size or view.trash_size or max(view.pile_sizes) > 1 else Pass()
