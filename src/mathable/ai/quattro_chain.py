"""The strong Quattro player's chain search: the longest order of plays from a hand
(rulings Q2-Q4). It is most of the time of every Quattro level above greedy (the expert
and the master run it for every seat of every simulated round), so it lives alone in a
module the install compiles with mypyc (:mod:`mathable.compiled`); the source is the
pure-Python fallback and plays exactly alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from mathable.engine.arithmetic import ALL_OPS, pair_results

_MADE: dict[tuple[int, int], frozenset[int]] = {}
"""The results of each pair of tops met so far (few pairs: ~50 card values)."""


def made(a: int, b: int) -> frozenset[int]:
    """The results of + - x / of two top cards (as :func:`pile_accepts
    <mathable.games.quattro.state.pile_accepts>` makes them), kept."""
    key = (a, b)
    found = _MADE.get(key)
    if found is None:
        found = pair_results(a, b, ALL_OPS)
        _MADE[key] = found
    return found


def accepted(tops: Sequence[int], diagonals: bool) -> tuple[frozenset[int], ...]:
    """What each pile takes when the tops are ``tops``, as :func:`pile_accepts
    <mathable.games.quattro.state.pile_accepts>` says (from the results of each pair of
    tops, kept)."""
    a, b, c, d = tops[0], tops[1], tops[2], tops[3]
    ab, ac, bd, cd = made(a, b), made(a, c), made(b, d), made(c, d)
    if not diagonals:
        return (ab | ac, ab | bd, ac | cd, bd | cd)
    ad, bc = made(a, d), made(b, c)
    return (ab | ac | ad, ab | bd | bc, ac | cd | bc, bd | cd | ad)


class _Chains:
    """One search: depth-first over the plays by pile then value, each position
    searched once, at most ``budget[0]`` positions (spent in place)."""

    def __init__(self, diagonals: bool, budget: list[int]) -> None:
        self.diagonals = diagonals
        self.budget = budget
        self.best: list[tuple[int, int]] = []
        self.path: list[tuple[int, int]] = []
        self.seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()

    def search(self, tops: tuple[int, ...], hand: tuple[int, ...]) -> None:
        path, budget = self.path, self.budget
        depth = len(path)
        if depth > len(self.best):
            self.best = list(path)
        best = len(self.best)
        if budget[0] <= 0 or (best == depth + len(hand) and best > depth):
            return
        key = (tops, hand)
        if key in self.seen:
            return
        self.seen.add(key)
        budget[0] -= 1
        taken = accepted(tops, self.diagonals)
        values = sorted(set(hand))
        for pile in range(4):
            accepts = taken[pile]
            for value in values:
                if value not in accepts:
                    continue
                rest = list(hand)
                rest.remove(value)
                new_tops = list(tops)
                new_tops[pile] = value
                path.append((pile, value))
                self.search(tuple(new_tops), tuple(rest))
                path.pop()
                if len(self.best) == depth + len(hand):
                    return  # the whole hand: nothing beats it


def chain_pairs(
    tops: Sequence[int], hand: Sequence[int], diagonals: bool, budget: list[int]
) -> list[tuple[int, int]]:
    """The longest sequence of plays from ``hand`` as (pile, value) pairs (depth-first,
    bounded by ``budget[0]`` positions, spent in place); on equal length the first
    found."""
    chains = _Chains(diagonals, budget)
    chains.search(tuple(tops), tuple(hand))
    return chains.best
