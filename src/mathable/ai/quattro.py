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

from mathable.engine.actions import Action, Diago, Draw, Exchange, Pass, Penalty, Place
from mathable.games.quattro.game import PilesView, pile_accepts

from .quattro_chain import accepted, chain_pairs

CHAIN_NODES = 4000
"""The strong player's node budget for its chain search, per action."""


def plays_from(tops: Sequence[int], hand: Sequence[int], diagonals: bool) -> list[Place]:
    """Every legal play of ``hand`` on the piles whose tops are ``tops``."""
    values = set(hand)
    taken = accepted(tops, diagonals)
    return [Place(p, v) for p in range(4) for v in sorted(values & taken[p])]


def longest_chain(
    tops: tuple[int, ...], hand: tuple[int, ...], diagonals: bool, budget: list[int]
) -> list[Place]:
    """The longest sequence of plays from ``hand`` (depth-first, bounded by ``budget``
    nodes; :func:`~.quattro_chain.chain_pairs`); on equal length the first found."""
    return [Place(pile, value) for pile, value in chain_pairs(tops, hand, diagonals, budget)]


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
