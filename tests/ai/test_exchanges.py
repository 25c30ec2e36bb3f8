"""The expert's voluntary exchanges (C8b, issue 16): at a turn's start it simulates
exchanging the tokens its leave judges worst beside its best placements, and exchanges
when that continuation is worth more."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathable.ai import ExpertBot, get_bot
from mathable.ai.base import board_from_view
from mathable.ai.evaluation import exchange_plans, leave_value
from mathable.ai.leaves import judge
from mathable.ai.search import TurnPlan
from mathable.ai.simulation import simulate
from mathable.ai.strong import first_action
from mathable.engine.actions import Exchange, Pass, Place
from mathable.games.board.game import BoardGame
from mathable.games.board.turns import Setup
from mathable.games.board.variants import CLASSIC
from mathable.games.board.view import BoardView

VALUES = sorted(CLASSIC.tokens)
LEARNED = judge("learned", "classic", 7)


def _hand(leave: tuple[int, ...], bag_size: int) -> float:
    return leave_value(leave, bag_size, 7)


@settings(max_examples=150, deadline=None)
@given(
    rack=st.lists(st.sampled_from(VALUES), min_size=1, max_size=7),
    bag_size=st.integers(0, 30),
    top=st.integers(0, 4),
    learned=st.booleans(),
)
def test_exchange_plans_keep_the_best_tokens_for_each_number_given(
    rack: list[int], bag_size: int, top: int, learned: bool
) -> None:
    value_of = LEARNED if learned else _hand
    plans = exchange_plans(rack, bag_size, value_of, top)
    # brute force: every sub-multiset kept, at least one given, no more than the bag
    best: dict[int, float] = {}
    for size in range(len(rack)):
        if len(rack) - size > bag_size:
            continue
        for kept in combinations(sorted(rack), size):
            best[size] = max(best.get(size, -1e9), value_of(kept, bag_size))
    assert len(plans) == min(top, len(best))
    values = [value for value, _ in plans]
    assert values == sorted(values, reverse=True)
    assert values == sorted(best.values(), reverse=True)[: len(plans)]
    sizes = [len(plan.leave) for _, plan in plans]
    assert len(set(sizes)) == len(sizes)  # one plan per number of tokens given
    for value, plan in plans:
        assert plan.placements == () and plan.total == 0
        assert not Counter(plan.leave) - Counter(rack)  # kept from the rack
        assert 1 <= len(rack) - len(plan.leave) <= bag_size
        assert value == value_of(plan.leave, bag_size) == best[len(plan.leave)]


def _opening(rack: tuple[int, ...]) -> BoardGame:
    """A classic opening with Ann holding ``rack`` and a bag of small tokens."""
    bag = tuple(v for v in range(1, 21) for _ in range(3))
    return BoardGame("classic", ["Ann", "Bob"], setup=Setup((rack, (5, 6, 7, 8, 9, 10, 12)), bag))


def test_a_plan_that_places_nothing_exchanges_the_tokens_it_does_not_keep() -> None:
    game = _opening((1, 56, 63, 72, 80, 81, 90))
    view = game.view(0)
    assert isinstance(view, BoardView)
    action = first_action(view, TurnPlan((), 0, 0, (1, 63)))
    assert action == Exchange((56, 72, 80, 81, 90))
    game.apply(action)  # the game accepts it: C8b
    rack = Counter(game.rack(0))
    assert game.to_move == 1 and sum(rack.values()) == 7
    assert rack[1] >= 1 and rack[63] == 1 and not {56, 72, 80, 81, 90} & set(rack)
    # a plan that keeps every token gives nothing: the old fallback (_no_placement) decides
    kept_all = first_action(view, TurnPlan((), 0, 0, tuple(sorted(view.rack))))
    assert isinstance(kept_all, (Exchange, Pass))


def test_the_expert_exchanges_a_clogged_rack_rather_than_score_a_point() -> None:
    """Six tokens that fit nowhere and a 1 that scores little: the expert exchanges
    (which tokens, its learned leave says); with ``exchanges=0`` it places, as before."""
    game = _opening((1, 56, 63, 72, 80, 81, 90))
    view = game.view(0)
    assert isinstance(view, BoardView)
    places = [a for a in game.legal_placements() if isinstance(a, Place)]
    assert places and all(a.value == 1 for a in places)  # a placement exists
    expert = ExpertBot(0, budget_ms=None)
    action = expert.act(view)
    assert isinstance(action, Exchange), action
    assert len(action.values) >= 3
    game.apply(action)
    assert game.to_move == 1
    plain = ExpertBot(0, budget_ms=None, exchanges=0).act(view)
    assert isinstance(plain, Place) and plain.value == 1


def test_no_exchange_with_an_empty_bag_and_the_setting_is_checked() -> None:
    """No exchange with an empty bag; the setting is checked."""
    with pytest.raises(ValueError, match="exchanges=-1"):
        ExpertBot(0, exchanges=-1)
    expert = get_bot("expert:exchanges=3,budget_ms=none", 1)
    assert isinstance(expert, ExpertBot) and expert.exchanges == 3
    assert exchange_plans((1, 90), 0, _hand) == []


def test_an_exchange_is_simulated_from_the_tokens_kept_and_the_board_as_it_is() -> None:
    """The simulations play an exchange as a plan that places nothing: no points now,
    the opponent's reply on the board left as it is, the player's next turn from the
    tokens kept and as many drawn; the board comes back as it was."""
    game = _opening((1, 56, 63, 72, 80, 81, 90))
    view = game.view(0)
    assert isinstance(view, BoardView)
    variant, board = board_from_view(view)
    before = list(board.history)
    kept = (1, 63)
    plans = [TurnPlan((), 0, 0, kept)]
    pool = [v for v, n in view.unseen.items() for _ in range(n)]
    hands: list[tuple[int, ...]] = []

    def spy(leave: tuple[int, ...], bag_size: int) -> float:
        hands.append(leave)
        return 0.0

    def run(**settings: Any) -> float:
        return simulate(
            variant,
            board,
            view.bag_size,
            plans,
            pool,
            random.Random(5),
            samples=8,
            deadline=None,
            **settings,
        )[0]

    assert run(plies=0) == 0.0  # nothing placed, nothing scored
    assert run(plies=1) < 0.0  # the opponent's reply on the open centre scores
    run(plies=0, leaves=spy)  # the hand the next turn would start from
    assert len(hands) == 8
    for hand in hands:
        assert len(hand) == 7 and not Counter(kept) - Counter(hand)
        assert not Counter(hand) - Counter(kept) - Counter(pool)  # the rest from the bag
    assert list(board.history) == before
