"""Glicko-2 ratings, one pool per game and pace, updated after every rated game.

The algorithm is Glickman's "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf),
steps 1-8, with the Illinois algorithm for the new volatility (step 5); the tests check the
paper's worked example to its printed precision.

**Why our own code.** PyPI's ``glicko2`` (2.1.0, untyped, mutable players, no release for
years) has a long-standing slip in its volatility step: ``f(x)`` uses the player's rating
``mu**2`` where the paper has the deviation ``phi**2``. Its tests still pass (the paper
prints the new volatility truncated, 0.05999; it gives 0.059993 where the formula gives
0.059996), but the volatility then depends on where the rating sits: after the same upset a
2800 player keeps 0.060000 where the formula gives 0.060194 at any rating. The translation
and bisection tests in ``tests/online/test_ratings.py`` pin that down for this module.

**Why Glicko-2 with pairwise results rather than openskill.** ``openskill`` (maintained,
typed) rates multiplayer results natively (Plackett-Luce), but: its numbers live on a
25 +/- 8.3 scale that players of lichess and Woogles do not read; it has no volatility, so
it adapts more slowly to a player who improves fast; and the issue asks for Glicko-2 in
every pool. With pairwise results a two-player game is exactly the paper's update, and a
three- or four-player game is the same update against every other player, ranked by final
place (the usual "pairwise Glicko" for free-for-all games), so one scale covers all games.

**Instant updates.** Like lichess, each rated game is a rating period of its own: the
ratings change as the game ends, so the change can be shown on the game-over screen. In a
three- or four-player game each player is rated against every other one in that one period
(all against the ratings from before the game): beating three players tells more than
beating one, and the update sees three results. Between games the caller applies
:func:`idle` for the time a player stayed away (:func:`periods_elapsed`), which is how the
deviation grows back for a player who did not play.

**Bounds.** The deviation stays within ``[MIN_DEVIATION, MAX_DEVIATION]``: 350 is the
deviation of a new player, and nothing should be less known than that; the floor of 45 is
lichess's: with instant updates an active player's deviation would otherwise shrink
towards zero and freeze the rating, while 45 keeps a rating moving for a player whose
strength changes. A rating is :func:`provisional` (shown with ``?``) while its deviation is
above 110, as on lichess.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko-2 works on ``(rating - 1500) / SCALE``; the paper's conversion constant."""
DEFAULT_RATING = 1500.0
MAX_DEVIATION = 350.0
MIN_DEVIATION = 45.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5
"""The system constant: how fast volatility may change (the paper suggests 0.3-1.2)."""
PROVISIONAL_DEVIATION = 110.0
PERIOD_DAYS = 1 / 0.21436
"""Length of one rating period for :func:`idle`, in days (lichess's 0.21436 a day)."""
_EPSILON = 0.000001
"""Convergence tolerance of the volatility iteration (the paper's value)."""
_DAY_MS = 86_400_000


@dataclass(frozen=True)
class Rating:
    """A player's rating in one pool (game and pace), on the familiar Glicko scale."""

    rating: float = DEFAULT_RATING
    deviation: float = MAX_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise ValueError(f"rating must be a finite number, not {self.rating}")
        if not (math.isfinite(self.deviation) and self.deviation > 0):
            raise ValueError(f"deviation must be positive, not {self.deviation}")
        if not (math.isfinite(self.volatility) and self.volatility > 0):
            raise ValueError(f"volatility must be positive, not {self.volatility}")


@dataclass(frozen=True)
class Result:
    """One game against ``opponent``: ``score`` 1 for a win, 0.5 a tie, 0 a loss."""

    opponent: Rating
    score: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"score must be from 0 to 1, not {self.score}")


@dataclass(frozen=True)
class Outcome:
    """A pairwise result of a game: what ``seat`` scored against ``opponent``."""

    seat: int
    opponent: int
    score: float


def _clamp(phi: float) -> float:
    return min(max(phi, MIN_DEVIATION / SCALE), MAX_DEVIATION / SCALE)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on ``f``."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        fit = ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)
        return fit - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Sequence[Result], *, tau: float = TAU) -> Rating:
    """The player's rating after one rating period with these results (steps 2-8).

    No results: the deviation grows as for a player who did not play (:func:`idle`).
    The new deviation is kept within the bounds before it scales the rating change, so the
    floor keeps a settled player's rating moving.
    """
    if not results:
        return idle(player)
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    opponents = [
        ((r.opponent.rating - DEFAULT_RATING) / SCALE, r.opponent.deviation / SCALE, r.score)
        for r in results
    ]
    terms = [(_g(phi_j), _expected(mu, mu_j, phi_j), score) for mu_j, phi_j, score in opponents]
    # fsum rounds once, so the order of the results (the seating) cannot change a digit
    v = 1.0 / math.fsum(g * g * e * (1.0 - e) for g, e, _ in terms)
    gain = math.fsum(g * (score - e) for g, e, score in terms)
    sigma = _volatility(phi, player.volatility, v, v * gain, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = _clamp(1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v))
    new_mu = mu + new_phi * new_phi * gain
    return Rating(new_mu * SCALE + DEFAULT_RATING, new_phi * SCALE, sigma)


def idle(player: Rating, periods: float = 1.0) -> Rating:
    """The rating after ``periods`` rating periods without a game (step 6 alone).

    Only the deviation grows, ``phi**2 + periods * sigma**2``, up to ``MAX_DEVIATION``.
    """
    if not (math.isfinite(periods) and periods >= 0):
        raise ValueError(f"periods must be a non-negative number, not {periods}")
    phi = player.deviation / SCALE
    grown = math.sqrt(phi * phi + periods * player.volatility**2)
    deviation = max(player.deviation, min(grown * SCALE, MAX_DEVIATION))
    return Rating(player.rating, deviation, player.volatility)


def periods_elapsed(elapsed_ms: int) -> float:
    """Rating periods in ``elapsed_ms`` (time since the player's last rated game)."""
    return max(elapsed_ms, 0) / (PERIOD_DAYS * _DAY_MS)


def game_results(ranks: Sequence[int]) -> list[Outcome]:
    """The pairwise results of a 2-4 player game from each seat's final rank.

    ``ranks[seat]`` is 1 for the winner; equal ranks are a tie (0.5 each). Every ordered
    pair appears, by seat then opponent, so each seat has one outcome per other seat.
    """
    if not 2 <= len(ranks) <= 4:
        raise ValueError(f"a rated game has 2 to 4 players, not {len(ranks)}")
    if any(rank < 1 for rank in ranks):
        raise ValueError(f"ranks start at 1: {list(ranks)}")
    return [
        Outcome(seat, other, 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
        for seat, mine in enumerate(ranks)
        for other, theirs in enumerate(ranks)
        if other != seat
    ]


def ranks_from_scores(scores: Sequence[float]) -> list[int]:
    """Final ranks from final scores, highest first; equal scores share a rank (1, 2, 2, 4).

    A player who left a three- or four-player game on time keeps the frozen score, and is
    ranked by it like everyone else.
    """
    return [1 + sum(other > mine for other in scores) for mine in scores]


def rate_game(ratings: Sequence[Rating], ranks: Sequence[int], *, tau: float = TAU) -> list[Rating]:
    """Everyone's new rating after one game: each seat against every other, one period.

    All updates use the ratings from before the game, so the order of seats does not matter.
    """
    if len(ratings) != len(ranks):
        raise ValueError(f"{len(ratings)} ratings for {len(ranks)} ranks")
    per_seat: list[list[Result]] = [[] for _ in ratings]
    for outcome in game_results(ranks):
        per_seat[outcome.seat].append(Result(ratings[outcome.opponent], outcome.score))
    return [
        rate(rating, results, tau=tau) for rating, results in zip(ratings, per_seat, strict=True)
    ]


def changes(before: Sequence[Rating], after: Sequence[Rating]) -> list[int]:
    """The rating change per player as shown at the game's end: the difference of the
    rounded ratings, so the shown change always matches the shown ratings."""
    if len(before) != len(after):
        raise ValueError(f"{len(before)} ratings before, {len(after)} after")
    return [round(b.rating) - round(a.rating) for a, b in zip(before, after, strict=True)]


def provisional(player: Rating) -> bool:
    """Too few games to trust the number: shown with ``?`` and kept off leaderboards."""
    return player.deviation > PROVISIONAL_DEVIATION


def shown(player: Rating) -> str:
    """The rating as players read it: ``1500?`` while provisional, else ``1642``."""
    return f"{round(player.rating)}{'?' if provisional(player) else ''}"
