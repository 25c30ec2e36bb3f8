"""The expert's opponent-rack inference and its racing simulations (issue 16)."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathable.ai import get_bot
from mathable.ai.base import board_from_view
from mathable.ai.evaluation import rank_plans
from mathable.ai.inference import (
    BLOCKED_WEIGHT,
    FITS_WEIGHT,
    RackPrior,
    deal,
    holding_chances,
    infer_opponent,
)
from mathable.ai.search import TurnPlan
from mathable.ai.simulation import (
    RACE_FROM,
    REPLY_NODES,
    _still_racing,
    _sure_margin,
    simulate,
)
from mathable.games.board.board import EMPTY, Board
from mathable.games.board.game import BoardGame
from mathable.games.board.variants import Variant
from mathable.games.board.view import BoardView
from mathable.games.registry import new_game


def test_what_a_strong_opponent_kept_fits_nowhere() -> None:
    """The inference's premise, on real games: at each turn start after a strong
    player's turn, the opponent's true rack holds at least ``kept`` tokens of values
    that fit nowhere on the board (the tokens it kept), and the prior names them."""
    checked = 0
    for seed in range(500, 506):
        game = new_game("classic", ["a", "b"], seed=seed)
        bots = [get_bot("strong", seed * 8), get_bot("strong", seed * 8 + 1)]
        while not game.is_over:
            seat = game.to_move
            view = game.view(seat)
            assert isinstance(view, BoardView)
            if not view.turn_placements and view.turns:
                variant, board = board_from_view(view)
                prior = infer_opponent(view, variant, board)
                if prior is not None:
                    theirs = game.rack(1 - seat)
                    fitting_nowhere = [v for v in theirs if v not in prior.fits]
                    assert len(fitting_nowhere) >= prior.kept, (seed, view.turns[-1])
                    assert prior.fits_weight == FITS_WEIGHT
                    weighed = infer_opponent(view, variant, board, fits_weight=0.004)
                    assert weighed == replace(prior, fits_weight=0.004)
                    checked += 1
            game.apply(bots[seat].act(view))
    assert checked > 100


def test_no_inference_without_a_hidden_rack_or_a_last_turn() -> None:
    game = new_game("classic", ["a", "b", "c"], seed=3)
    view = game.view(0)
    assert isinstance(view, BoardView)
    variant, board = board_from_view(view)
    assert infer_opponent(view, variant, board) is None  # three players, no turn yet
    two = new_game("classic", ["a", "b"], seed=3)
    first = two.view(two.to_move)
    assert isinstance(first, BoardView)
    assert infer_opponent(first, *board_from_view(first)) is None  # nothing played yet


@settings(max_examples=200, deadline=None)
@given(
    pool=st.lists(st.integers(0, 30), min_size=1, max_size=60),
    kept=st.integers(0, 7),
    fits=st.frozensets(st.integers(0, 30)),
    weight=st.sampled_from([0.0, 0.1, 1.0]),
    seed=st.integers(0, 10_000),
)
def test_a_dealt_rack_is_drawn_from_the_pool(
    pool: list[int], kept: int, fits: frozenset[int], weight: float, seed: int
) -> None:
    """Rack and bag together are the unseen pool; the rack is full while the pool
    lasts; with weight 0, the kept tokens are values that fit nowhere while any are
    left."""
    prior = RackPrior(kept, fits, weight)
    rack, rest = deal(pool, 7, prior, random.Random(seed))
    assert Counter(rack) + Counter(rest) == Counter(pool)
    assert len(rack) == min(7, len(pool))
    if weight == 0.0:
        nowhere = sum(1 for v in pool if v not in fits)
        assert sum(1 for v in rack if v not in fits) >= min(kept, nowhere, len(rack))


def test_the_prior_shifts_the_sampled_racks() -> None:
    """Over many deals a value that fits weighs less in the kept share of the rack."""
    pool = [5] * 20 + [77] * 20
    prior = RackPrior(kept=4, fits=frozenset({5}))
    rng = random.Random(1)
    fives = sum(deal(pool, 7, prior, rng)[0].count(5) for _ in range(2_000)) / 2_000
    uniform = sum(deal(pool, 7, None, rng)[0].count(5) for _ in range(2_000)) / 2_000
    assert 3.2 < uniform < 3.8  # half of 7
    # Kept: 4 picks at 2/22 each (0.36 fives); drawn: 3 from what is left, 55% fives.
    assert 1.8 < fives < 2.3


def test_the_race_drops_only_what_is_clearly_behind() -> None:
    n = RACE_FROM
    rng = random.Random(4)
    noise = [rng.gauss(0, 10) for _ in range(n)]
    leader = [100 + x for x in noise]
    close = [99 + x + rng.gauss(0, 1) for x in noise]  # 1 point behind, paired noise small
    tied = [100 + rng.gauss(0, 30) for _ in range(n)]  # level, very noisy
    far = [60 + x for x in noise]
    values = [leader, close, tied, far]
    offsets = [0.0, 0.0, 0.0, 0.0]
    kept = _still_racing(values, [0, 1, 2, 3], offsets, 1.0, n)
    assert 0 in kept and 2 in kept and 3 not in kept
    # The static part of the judgement counts: a big offset keeps the far one in.
    assert 3 in _still_racing(values, [0, 1, 2, 3], [0.0, 0.0, 0.0, 45.0], 1.0, n)


def test_holding_chances_without_a_prior_are_the_strong_players() -> None:
    """No prior: the threat estimate's own chances (7 blind draws); with a prior whose
    fitting values weigh 0, such a value can only come from the blind draws."""
    unseen = {2: 3, 9: 1, 72: 2}
    total = 6
    blind = holding_chances(None, unseen, 7)
    for value, count in unseen.items():
        assert blind[value] == pytest.approx(1 - (1 - count / total) ** 7)
    prior = RackPrior(kept=4, fits=frozenset({2}), fits_weight=0.0)
    informed = holding_chances(prior, unseen, 7)
    assert informed[2] == pytest.approx(1 - (1 - 3 / total) ** 3)
    assert informed[72] > blind[72] or blind[72] == pytest.approx(1.0)


def _history_positions(
    seeds: range,
) -> Iterator[tuple[BoardView, list[tuple[tuple[int, ...], int]], list[int]]]:
    """Turn starts of strong self-play after the opponent's turn of placements, the bag
    not empty: the view, each turn start so far (its board and bag size, from the game
    itself) and the tokens the opponent truly kept at its last turn's end."""
    for seed in seeds:
        game = new_game("classic", ["a", "b"], seed=seed)
        bots = [get_bot("strong", seed * 8), get_bot("strong", seed * 8 + 1)]
        assert isinstance(game, BoardGame)
        starts: list[tuple[tuple[int, ...], int]] = []
        bag_at_start: list[int] = []
        while not game.is_over:
            seat = game.to_move
            view = game.view(seat)
            assert isinstance(view, BoardView)
            if not view.turn_placements and len(starts) == len(view.turns):
                starts.append((view.board, view.bag_size))
                last = view.turns[-1] if view.turns else None
                if last and last.seat != seat and last.kind == "place" and view.bag_size:
                    # its rack less what it drew in its turn (placed or on the rack now)
                    drawn = bag_at_start[: len(bag_at_start) - len(game.bag_order())]
                    kept = Counter(game.rack(1 - seat)) - Counter(drawn)
                    yield view, starts, list(kept.elements())
                bag_at_start = list(game.bag_order())
            game.apply(bots[seat].act(view))


def _fits(variant: Variant, cells: tuple[int, ...], value: int) -> bool:
    board = variant.new_board({c: v for c, v in enumerate(cells) if v != EMPTY})
    return bool(variant.legal_cells(board, value))


def test_history_weights_sum_the_draws_since_a_value_last_fit() -> None:
    """Each value's weight, worked out forward from the game's own turn starts (boards
    and bag sizes, not the view's turns walked back): the chance of each draw of the
    opponent's since which the value has fit nowhere before or after its turns, an
    exchange or pass ending the walk; a value that fits now weighs ``fits_weight``
    times the last draw's chance, one that fit only before the last turn
    BLOCKED_WEIGHT times its own."""
    checked = 0
    for view, starts, _ in _history_positions(range(520, 523)):
        variant, board = board_from_view(view)
        assert view.seat is not None
        opponent = 1 - view.seat
        prior = infer_opponent(view, variant, board, history=True)
        assert prior is not None and prior.weights is not None
        turns = view.turns
        ends = [starts[k + 1] for k in range(len(turns) - 1)] + [(view.board, view.bag_size)]

        # the chance a given token came with the draw after each turn (an exchange's
        # from the bag it left)
        draw_chances = [
            record.exchanged / bag_after
            if record.kind == "exchange"
            else (drawn := len(record.placements) - sum(t.extra for t in record.placements))
            / (bag_after + drawn)
            for record, (_, bag_after) in zip(turns, ends, strict=True)
        ]
        first_rack = 7 / (starts[0][1] + 14)
        theirs = [k for k, record in enumerate(turns) if record.seat == opponent]
        for value, count in view.unseen.items():
            if not count:
                continue
            if _fits(variant, view.board, value):
                previous = theirs[-2] if len(theirs) > 1 else None
                chance = draw_chances[previous] if previous is not None else first_rack
                assert prior.weights[value] == pytest.approx(FITS_WEIGHT * chance)
                continue
            blocked = _fits(variant, starts[theirs[-1]][0], value)
            expected = 0.0
            for position, k in reversed(list(enumerate(theirs))):
                if k != theirs[-1] and (
                    _fits(variant, ends[k][0], value) or _fits(variant, starts[k][0], value)
                ):
                    break
                previous = theirs[position - 1] if position else None
                expected += draw_chances[previous] if previous is not None else first_rack
                if previous is None or turns[previous].kind != "place":
                    break
            if blocked:
                expected *= BLOCKED_WEIGHT
            assert prior.weights[value] == pytest.approx(expected), (value, turns[-1])
        checked += 1
    assert checked > 40


def test_history_weights_make_the_kept_tokens_likelier() -> None:
    """The premise, on real games: the tokens a strong opponent truly kept are likelier
    under the history's weights than under the fits-nowhere prior alone (log-likelihood
    a token; 0.2 nats more in self-play on other seeds, 2026-11-30)."""
    gains: list[float] = []
    for view, _, kept in _history_positions(range(540, 550)):
        variant, board = board_from_view(view)
        plain = infer_opponent(view, variant, board)
        weighed = infer_opponent(view, variant, board, history=True)
        if plain is None:  # it kept nothing
            assert weighed is None and not kept
            continue
        assert weighed is not None and weighed.weights is not None
        by_fit = {v: n * (FITS_WEIGHT if v in plain.fits else 1.0) for v, n in view.unseen.items()}
        by_history = {v: n * weighed.weights[v] for v, n in view.unseen.items() if n}
        for value in kept:
            gains.append(
                math.log(by_history[value] / sum(by_history.values()))
                - math.log(by_fit[value] / sum(by_fit.values()))
            )
    assert len(gains) > 300
    assert sum(gains) / len(gains) > 0.1


def test_a_weighted_deal_draws_the_kept_tokens_by_their_weights() -> None:
    """Kept tokens come by the values' weights (a value of weight 0 only when nothing
    else is left); the rack and bag are still the pool."""
    pool = [5] * 10 + [40] * 10 + [77] * 10
    prior = RackPrior(kept=3, fits=frozenset(), weights={5: 0.0, 40: 1.0, 77: 3.0})
    rng = random.Random(2)
    kept_counts: Counter[int] = Counter()
    for _ in range(3_000):
        rack, rest = deal(pool, 7, prior, rng)
        assert Counter(rack) + Counter(rest) == Counter(pool)
        assert len(rack) == 7
        kept_counts.update(rack[:3])
    assert kept_counts[5] == 0
    # Without replacement the heavier value is drawn a little less than 3:1.
    assert 2.0 < kept_counts[77] / kept_counts[40] < 3.2
    everything_weighs_nothing = RackPrior(kept=2, fits=frozenset(), weights={5: 0.0})
    rack, rest = deal([5, 5, 5], 7, everything_weighs_nothing, rng)
    assert sorted(rack) == [5, 5, 5] and rest == []


def test_holding_chances_follow_the_history_weights() -> None:
    unseen = {2: 3, 9: 1, 72: 2}
    prior = RackPrior(kept=2, fits=frozenset(), weights={2: 0.0, 9: 1.0, 72: 1.0})
    chances = holding_chances(prior, unseen, 7)
    assert chances[2] == pytest.approx(1 - (1 - 3 / 6) ** 5)  # only the blind draws
    assert chances[9] == pytest.approx(1 - (1 - 1 / 3) ** 2 * (1 - 1 / 6) ** 5)


def test_history_is_a_setting_off_by_default() -> None:
    """``expert:history=true`` turns it on; the expert plays without it."""
    assert get_bot("expert").history is False  # type: ignore[attr-defined]
    assert get_bot("expert:history=true").history is True  # type: ignore[attr-defined]


@dataclass
class _Start:
    """A turn start ready to simulate: the view, its board, the strong player's best
    four turns and the unseen tokens."""

    view: BoardView
    variant: Variant
    board: Board
    shortlist: list[TurnPlan]
    pool: list[int]

    def simulate(self, seed: int, samples: int = 6, **settings: Any) -> list[float]:
        """:func:`simulate` of the shortlist, its samples drawn from ``seed``."""
        return simulate(
            self.variant,
            self.board,
            self.view.bag_size,
            self.shortlist,
            self.pool,
            random.Random(seed),
            samples=samples,
            deadline=None,
            **settings,
        )


def _simulation_start(
    seed: int, bots_seed: int, *, actions: int = 0, bag_at_most: int | None = None
) -> _Start:
    """A turn start of a strong-versus-strong classic game after at least ``actions``
    actions (and with 1 to ``bag_at_most`` tokens in the bag)."""
    game = new_game("classic", ["a", "b"], seed=seed)
    bots = [get_bot("strong", bots_seed), get_bot("strong", bots_seed + 1)]
    done = 0
    while True:
        view = game.view(game.to_move, explained=False)
        assert isinstance(view, BoardView) and not game.is_over
        late = bag_at_most is None or 0 < view.bag_size <= bag_at_most
        if done >= actions and not view.turn_placements and late:
            break
        game.apply(bots[game.to_move].act(view))
        done += 1
    variant, board = board_from_view(view)
    shortlist = [plan for _, plan in rank_plans(view, board=board)[:4]]
    pool = [v for v, n in view.unseen.items() for _ in range(n)]
    return _Start(view, variant, board, shortlist, pool)


def test_a_searched_own_turn_is_never_worth_less_than_a_greedy_one() -> None:
    """``searched_own`` plays the simulations' own next turn by the exact search, which
    tries the greedy order among all others: on the same samples, every candidate's
    average is at least the greedy one's."""
    start = _simulation_start(21, 1, actions=12)
    greedy, searched = (start.simulate(3, samples=8, searched_own=own) for own in (False, True))
    assert all(s >= g for g, s in zip(greedy, searched, strict=True))
    assert searched != greedy or all(not p.leave for p in start.shortlist)


def test_a_searched_turn_of_the_simulations_is_bounded_by_rollout_nodes() -> None:
    """``rollout_nodes`` bounds each searched turn of the simulations (issue 35): the
    search with a larger bound looks at a superset of the turns, so on the same samples
    no candidate is worth less with the default bound than with 1 (a single placement),
    and some are worth more; a bound below 1 is refused by name."""
    start = _simulation_start(21, 1, actions=12)
    narrow, wide = (
        start.simulate(3, samples=8, searched_own=True, rollout_nodes=nodes)
        for nodes in (1, REPLY_NODES)
    )
    assert all(w >= n for n, w in zip(narrow, wide, strict=True))
    assert wide != narrow
    with pytest.raises(ValueError, match="rollout_nodes=0"):
        get_bot("master:rollout_nodes=0", 1)


def test_the_simulations_value_the_tokens_left_after_each_sides_last_turn() -> None:
    """With ``leaves`` each continuation ends by valuing the rack left after the
    player's own next turn, with the bag as the two turns leave it: the judge sees
    exactly those tokens (never more than a rack) and a bag no larger than now, and a
    judge worth a constant shifts every average by that constant; with
    ``opponent_leaves``, the opponent's kept tokens, taken off."""
    start = _simulation_start(33, 5, actions=10)
    before = start.board.history[:]
    seen: list[tuple[tuple[int, ...], int]] = []

    def constant(leave: tuple[int, ...], bag_size: int) -> float:
        seen.append((leave, bag_size))
        return 25.0

    plain, judged = start.simulate(9), start.simulate(9, leaves=constant)
    assert judged == pytest.approx([p + 25.0 for p in plain])
    assert len(seen) == 6 * len(start.shortlist)
    for leave, bag_size in seen:
        assert leave == tuple(sorted(leave)) and len(leave) <= start.variant.rack_size
        assert 0 <= bag_size <= start.view.bag_size
        assert Counter(leave) <= Counter(start.pool) + Counter(start.view.rack)
    # ``opponent_leaves`` (``opp_leave=true``, research: measured no better) takes off
    # the value of what the opponent kept after its reply, from unseen tokens alone;
    # with the player's own worth the same, the two cancel.
    seen.clear()
    theirs = start.simulate(9, opponent_leaves=constant)
    assert theirs == pytest.approx([p - 25.0 for p in plain])
    assert len(seen) == 6 * len(start.shortlist)
    for leave, bag_size in seen:
        assert leave == tuple(sorted(leave)) and len(leave) <= start.variant.rack_size
        assert 0 <= bag_size <= start.view.bag_size
        assert Counter(leave) <= Counter(start.pool)
    both = start.simulate(9, leaves=constant, opponent_leaves=constant)
    assert both == pytest.approx(plain)
    assert start.board.history == before  # every continuation taken back
    assert get_bot("master:opp_leave=true", 1).opp_leave  # type: ignore[attr-defined]


def test_the_simulations_play_as_many_turns_as_asked() -> None:
    """``plies`` is the number of turns played after the plan: none leaves each plan
    its own points, one subtracts the opponent's reply (never negative), and more turns
    change the averages; the board comes back as it was."""
    start = _simulation_start(41, 41, bag_at_most=60)
    before = start.board.history[:]
    assert start.simulate(4, plies=0) == [float(p.total) for p in start.shortlist]
    replied = start.simulate(4, plies=1)
    assert all(v <= p.total for v, p in zip(replied, start.shortlist, strict=True))
    assert start.simulate(4, plies=4) != start.simulate(4, plies=2)
    assert start.board.history == before


def test_near_the_end_the_simulations_play_the_game_out() -> None:
    """With ``to_end`` and no more than that many tokens left in the bag after the
    plan, every continuation is played to the end of the game (C11's deductions, not a
    leave value: the leave judge is never asked); with more in the bag, or without
    ``to_end``, it stops after the set turns and the leave is valued."""
    start = _simulation_start(42, 42, bag_at_most=6)
    before = start.board.history[:]
    asked: list[int] = []

    def judge(leave: tuple[int, ...], bag_size: int) -> float:
        asked.append(bag_size)
        return 0.0

    played_out = start.simulate(8, leaves=judge, to_end=start.view.bag_size)
    assert asked == [] and start.board.history == before
    stopped = start.simulate(8, leaves=judge)
    assert stopped != played_out and len(asked) == 6 * len(start.shortlist)
    assert start.simulate(8, leaves=judge, to_end=-1) == stopped  # no bag is that small


def test_an_even_horizon_plays_every_candidate_out_or_none() -> None:
    """``even_horizon`` counts the bag at the turn's start: with one token more in it
    than ``to_end`` no candidate is played out (as without ``to_end``), though the
    candidates that draw are when the bag is counted after their draw; with ``to_end``
    the bag's size, every candidate is played out either way (issue 35)."""
    start = _simulation_start(44, 44, bag_at_most=12)
    assert start.view.bag_size >= 2 and any(p.placements for p in start.shortlist)
    asked: list[int] = []

    def judge(leave: tuple[int, ...], bag_size: int) -> float:
        asked.append(bag_size)
        return 0.0

    below = start.view.bag_size - 1
    stopped = start.simulate(8, leaves=judge)
    assert start.simulate(8, leaves=judge, to_end=below, even_horizon=True) == stopped
    assert len(asked) == 2 * 6 * len(start.shortlist)  # every continuation stopped
    asked.clear()
    mixed = start.simulate(8, leaves=judge, to_end=below)
    assert mixed != stopped and len(asked) < 6 * len(start.shortlist)
    asked.clear()
    whole = start.view.bag_size
    played_out = start.simulate(8, leaves=judge, to_end=whole, even_horizon=True)
    assert played_out == start.simulate(8, leaves=judge, to_end=whole) and asked == []


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-300, 300), min_size=2, max_size=12),
    st.floats(-400, 400),
    st.floats(20, 400),
)
def test_the_chance_of_winning_prefers_spread_when_behind_and_safety_when_ahead(
    margins: list[int], lead: float, spread: float
) -> None:
    """``win_chance``: the sure margin worth the same chance of winning is the plain
    average for a sure thing, below it when ahead and above it when behind (a gamble
    helps only the one who trails), and never outside the margins' range."""
    mean = sum(margins) / len(margins)
    sure = _sure_margin(margins, lead, spread)
    assert min(margins) - 1e-6 <= sure <= max(margins) + 1e-6
    assert _sure_margin([margins[0]] * 3, lead, spread) == pytest.approx(margins[0], abs=1e-6)
    if len(set(margins)) > 1 and abs(lead + mean) < 2 * spread:
        if lead + max(margins) < 0:  # behind whatever happens: the spread is hope
            assert sure > mean
        if lead + min(margins) > 0:  # ahead whatever happens: the spread is risk
            assert sure < mean


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-300, 300), min_size=2, max_size=12),
    st.integers(-200, 200),
    st.floats(20, 400),
    st.integers(1, 100),
)
def test_a_continuation_played_out_counts_only_as_won_drawn_or_lost(
    margins: list[int], lead: int, spread: float, more: int
) -> None:
    """``win_chance`` near the end: a continuation played out to the game's end (no
    noise left to come, 0) wins, draws or loses for sure, so widening a win or a loss
    changes nothing while the game is still open, and an even share of wins and losses
    is worth a draw (issue 35)."""
    played_out = [0.0] * len(margins)
    sure = _sure_margin(margins, lead, spread, played_out)
    widened = [x + more if lead + x > 0 else x - more if lead + x < 0 else x for x in margins]
    wins = sum(1 for x in margins if lead + x > 0)
    losses = sum(1 for x in margins if lead + x < 0)
    if wins and losses:  # not settled whatever happens: the chance alone counts
        assert _sure_margin(widened, lead, spread, played_out) == pytest.approx(sure)
        if wins == losses:
            assert sure == pytest.approx(-lead)
    # Still to be played, the same margins count by how far they go.
    assert _sure_margin(margins, lead, spread, [1.0] * len(margins)) == pytest.approx(
        _sure_margin(margins, lead, spread)
    )


def test_the_chance_of_winning_with_a_wide_spread_is_the_average_margin() -> None:
    """Over a spread far wider than the continuations differ the chance of winning
    moves as the margin does, so it judges as the average; a close game does not."""
    start = _simulation_start(33, 5, actions=10)
    plain = start.simulate(9)
    assert start.simulate(9, risk=(25.0, 1e5)) == pytest.approx(plain, abs=0.05)
    assert start.simulate(9, risk=(-60.0, 40.0)) != pytest.approx(plain, abs=0.05)
