"""Glicko-2 (mathable.online.ratings): the paper's worked example, the volatility step
against a plain bisection, and properties of per-game pairwise rating."""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import pairwise

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mathable.online import ratings
from mathable.online.ratings import (
    MAX_DEVIATION,
    MIN_DEVIATION,
    SCALE,
    Outcome,
    Rating,
    Result,
    changes,
    game_results,
    idle,
    periods_elapsed,
    provisional,
    ranks_from_scores,
    rate,
    rate_game,
    shown,
)

PAPER_OPPONENTS = [Rating(1400, 30), Rating(1550, 100), Rating(1700, 300)]


def test_paper_worked_example() -> None:
    """Glickman's example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300.

    The paper rounds its intermediates (mu' to four places before scaling back) and
    truncates sigma' to 0.05999; exact arithmetic gives 1464.0507 and 0.0599960.
    """
    new = rate(
        Rating(1500, 200, 0.06),
        [Result(o, s) for o, s in zip(PAPER_OPPONENTS, [1, 0, 0], strict=True)],
    )
    assert round((new.rating - 1500) / SCALE, 4) == -0.2069
    assert round(new.deviation / SCALE, 4) == 0.8722
    assert abs(new.rating - 1464.06) < 0.01
    assert round(new.deviation, 2) == 151.52
    assert 0.05999 <= new.volatility < 0.06


def _f(phi: float, sigma: float, v: float, delta: float, tau: float) -> Callable[[float], float]:
    """The paper's f(x) of step 5, whose root is the new volatility's log-square."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    return f


def _bracket(phi: float, sigma: float, v: float, delta: float, tau: float) -> tuple[float, float]:
    """The paper's starting interval [A, B] of step 5 (as the paper builds it)."""
    f = _f(phi, sigma, v, delta, tau)
    a = math.log(sigma * sigma)
    if delta**2 > phi**2 + v:
        return a, math.log(delta**2 - phi**2 - v)
    k = 1
    while f(a - k * tau) < 0:
        k += 1
    return a - k * tau, a


@given(
    phi=st.floats(0.2, 2.1),
    sigma=st.floats(0.03, 0.12),
    v=st.floats(0.5, 30),
    delta=st.floats(-6, 6),
    tau=st.sampled_from([0.3, 0.5, 0.75, 1.2]),
)
@example(phi=0.5, sigma=0.0625, v=0.5, delta=5.0, tau=1.2)  # f has three roots here
def test_illinois_volatility_is_a_root_in_the_papers_interval(
    phi: float, sigma: float, v: float, delta: float, tau: float
) -> None:
    """Step 5 finds a root of f in the paper's interval; where f changes sign there only
    once (on a fine grid), that root is the one plain bisection finds. (With a large tau
    and a surprising result f may cross zero three times: the paper's procedure, which
    this follows, then picks one of them.)"""
    f = _f(phi, sigma, v, delta, tau)
    low, high = sorted(_bracket(phi, sigma, v, delta, tau))
    x = 2 * math.log(ratings._volatility(phi, sigma, v, delta, tau))
    assert low - 1e-6 <= x <= high + 1e-6
    assert abs(f(x)) < 1e-4
    grid = [low + (high - low) * i / 400 for i in range(401)]
    crossings = sum(f(p) * f(q) < 0 for p, q in pairwise(grid))
    if crossings == 1:
        left, right = low, high
        for _ in range(200):
            middle = (left + right) / 2
            if (f(middle) > 0) == (f(left) > 0):
                left = middle
            else:
                right = middle
        assert x == pytest.approx(left, abs=1e-5)


ratings_st = st.builds(
    Rating,
    rating=st.floats(800, 2600),
    deviation=st.floats(MIN_DEVIATION, MAX_DEVIATION),
    volatility=st.floats(0.04, 0.09),
)
results_st = st.lists(
    st.builds(Result, opponent=ratings_st, score=st.sampled_from([0.0, 0.5, 1.0])),
    min_size=1,
    max_size=6,
)


@given(player=ratings_st, results=results_st, shift=st.floats(-700, 700))
def test_only_rating_differences_matter(
    player: Rating, results: list[Result], shift: float
) -> None:
    """Moving everyone by the same amount moves the result by it and nothing else (the
    PyPI glicko2 package fails this: its volatility step reads the rating)."""

    def moved(r: Rating) -> Rating:
        return Rating(r.rating + shift, r.deviation, r.volatility)

    base = rate(player, results)
    shifted = rate(moved(player), [Result(moved(r.opponent), r.score) for r in results])
    assert shifted.rating == pytest.approx(base.rating + shift, abs=1e-6)
    assert shifted.deviation == pytest.approx(base.deviation, rel=1e-9)
    assert shifted.volatility == pytest.approx(base.volatility, rel=1e-9)


@given(player=ratings_st, results=results_st)
def test_deviation_stays_within_bounds(player: Rating, results: list[Result]) -> None:
    new = rate(player, results)
    assert MIN_DEVIATION <= new.deviation <= MAX_DEVIATION
    assert new.deviation <= math.hypot(player.deviation, new.volatility * SCALE) + 1e-9


def test_deviation_floor_and_ceiling_hold_at_the_edges() -> None:
    """A settled player after a busy game would drop below 45, a newcomer who met a
    stranger would rise above 350: the bounds hold both."""
    settled = Rating(1500, MIN_DEVIATION)
    busy = rate(settled, [Result(Rating(1500, MIN_DEVIATION), s) for s in (1, 0, 1, 0, 1, 0)])
    assert busy.deviation == pytest.approx(MIN_DEVIATION)
    stranger = Rating(1500, 10**7)
    assert rate(Rating(), [Result(stranger, 1)]).deviation == pytest.approx(MAX_DEVIATION)


@given(player=ratings_st, opponent=ratings_st)
def test_win_raises_loss_lowers_tie_moves_towards(player: Rating, opponent: Rating) -> None:
    assert rate(player, [Result(opponent, 1)]).rating > player.rating
    assert rate(player, [Result(opponent, 0)]).rating < player.rating
    tied = rate(player, [Result(opponent, 0.5)]).rating
    assert (tied - player.rating) * (opponent.rating - player.rating) >= 0


def test_no_results_is_idle() -> None:
    player = Rating(1700, 80, 0.06)
    assert rate(player, []) == idle(player)


@given(player=ratings_st, periods=st.floats(0, 1000))
def test_idle_grows_only_the_deviation_up_to_the_cap(player: Rating, periods: float) -> None:
    rested = idle(player, periods)
    assert (rested.rating, rested.volatility) == (player.rating, player.volatility)
    assert player.deviation <= rested.deviation <= MAX_DEVIATION
    assert idle(rested, 1).deviation >= rested.deviation


def test_idle_reaches_the_cap_and_periods_follow_time() -> None:
    settled = Rating(1800, MIN_DEVIATION, 0.06)
    assert idle(settled, 1).deviation == pytest.approx(math.hypot(45, 0.06 * SCALE))
    assert idle(settled, 10_000).deviation == MAX_DEVIATION
    year = periods_elapsed(365 * 86_400_000)
    assert year == pytest.approx(365 * 0.21436)
    assert periods_elapsed(-5) == 0
    with pytest.raises(ValueError, match="periods"):
        idle(settled, -1)


def test_game_results_pairs_every_seat_by_rank() -> None:
    assert game_results([2, 1]) == [Outcome(0, 1, 0.0), Outcome(1, 0, 1.0)]
    four = game_results([1, 2, 2, 4])
    assert [o.score for o in four if o.seat == 0] == [1.0, 1.0, 1.0]
    assert [o.score for o in four if o.seat == 1] == [0.0, 0.5, 1.0]
    assert [o.score for o in four if o.seat == 3] == [0.0, 0.0, 0.0]
    for bad in ([1], [1, 2, 3, 4, 5]):
        with pytest.raises(ValueError, match="2 to 4"):
            game_results(bad)
    with pytest.raises(ValueError, match="start at 1"):
        game_results([0, 1])


@given(ranks=st.lists(st.integers(1, 4), min_size=2, max_size=4))
def test_pairwise_scores_are_complementary(ranks: list[int]) -> None:
    outcomes = game_results(ranks)
    assert len(outcomes) == len(ranks) * (len(ranks) - 1)
    score = {(o.seat, o.opponent): o.score for o in outcomes}
    assert all(score[a, b] + score[b, a] == 1 for a, b in score)


def test_ranks_from_scores_share_ties() -> None:
    assert ranks_from_scores([120, 240, 240, 15]) == [3, 1, 1, 4]
    assert ranks_from_scores([50, 50]) == [1, 1]


def test_two_player_game_is_the_plain_update() -> None:
    a, b = Rating(1620, 90, 0.06), Rating(1480, 140, 0.07)
    assert rate_game([a, b], [1, 2]) == [rate(a, [Result(b, 1)]), rate(b, [Result(a, 0)])]


@given(
    players=st.lists(ratings_st, min_size=2, max_size=4),
    data=st.data(),
)
def test_rate_game_does_not_depend_on_seat_order(
    players: list[Rating], data: st.DataObject
) -> None:
    ranks = data.draw(st.lists(st.integers(1, 4), min_size=len(players), max_size=len(players)))
    order = data.draw(st.permutations(range(len(players))))
    after = rate_game(players, ranks)
    permuted = rate_game([players[i] for i in order], [ranks[i] for i in order])
    assert permuted == [after[i] for i in order]


@given(size=st.integers(2, 4), player=ratings_st)
def test_equal_players_better_place_better_rating(size: int, player: Rating) -> None:
    ranks = list(range(1, size + 1))
    after = rate_game([player] * size, ranks)
    assert all(x.rating > y.rating for x, y in pairwise(after))
    assert sum(changes([player] * size, after)) in range(-size, size + 1)
    if size == 2:
        assert after[0].rating - player.rating == pytest.approx(player.rating - after[1].rating)


def test_changes_match_the_shown_ratings() -> None:
    before = [Rating(1500.4), Rating(1499.6)]
    after = [Rating(1510.6), Rating(1489.4)]
    assert changes(before, after) == [11, -11]
    with pytest.raises(ValueError):
        changes(before, after[:1])


def test_provisional_until_the_deviation_settles() -> None:
    newcomer = Rating()
    assert provisional(newcomer)
    assert shown(newcomer) == "1500?"
    player = newcomer
    opponents = [Rating(1500 + 10 * i, 60) for i in range(-5, 5)]
    for i in range(30):
        player = rate(player, [Result(opponents[i % 10], float(i % 2))])
    assert not provisional(player)
    assert shown(player) == str(round(player.rating))


@pytest.mark.parametrize(
    "fields",
    [
        {"rating": math.nan},
        {"deviation": 0.0},
        {"deviation": math.inf},
        {"volatility": -0.1},
    ],
)
def test_rating_rejects_nonsense(fields: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        Rating(**fields)


def test_result_score_is_bounded() -> None:
    with pytest.raises(ValueError, match="score"):
        Result(Rating(), 1.5)
