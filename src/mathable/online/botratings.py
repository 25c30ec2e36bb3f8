"""The computer players' starting ratings (issue 15, "Ratings": "computer levels rated on
the same scale from their games, so expert gets a number").

A server's rating pools start empty: every player, computer levels too, would start at
1500 with a deviation of 350, and "expert" would read as 1500? until people had played it
many times. So each level gets a starting rating from games among the levels
themselves (:func:`calibrate`, the ``mathable rate-bots`` command): a round robin of
paired deals (each deal played twice, seats swapped) rated game by game exactly as the
server rates (:func:`~.ratings.rate_game`, one period a game). The pool is anchored by
its start (everyone at 1500), so a new person at 1500 starts level with the middle of
the ladder. The result ships as ``bot_ratings.json`` beside this module and is
reproducible from its seed; a server uses it for a level that has no rating of its own
yet (:func:`starting_rating`), then rates the level from its games with people like
anyone. The shipped deviation is :data:`SHIPPED_DEVIATION` for every level: games
between computers say how the levels compare, less how people fare against them, so
the first games with people may move the numbers (and a level that loses nearly every
game, whose own deviation stays high, still gets a number).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

from mathable.ai import arena

from .ratings import Rating, ranks_from_scores, rate_game

SHIPPED = Path(__file__).with_name("bot_ratings.json")
SHIPPED_DEVIATION = 110.0
"""The deviation shipped (the most that is not provisional: a number, yet free to move)."""


def deals(levels: Sequence[str], pairs_per_match: int, seed: int) -> list[tuple[list[str], int]]:
    """Every game of the round robin, in rating order: for each deal, each pair of levels
    plays it twice with seats swapped (``seed`` + deal number deals it)."""
    games: list[tuple[list[str], int]] = []
    for deal in range(pairs_per_match):
        for pair in combinations(levels, 2):
            games.extend((names, seed + deal) for names in arena.paired_seatings(pair))
    return games


def held_deals(
    level: str, others: Sequence[str], pairs_per_match: int, seed: int
) -> list[tuple[list[str], int]]:
    """Every game of ``level`` against each of ``others``, in rating order: for each
    deal, against each other level, played twice with seats swapped."""
    games: list[tuple[list[str], int]] = []
    for deal in range(pairs_per_match):
        for other in others:
            pair = (level, other)
            games.extend((names, seed + deal) for names in arena.paired_seatings(pair))
    return games


def _play(job: tuple[list[str], str, int]) -> tuple[int, ...]:
    names, variant, seed = job
    return arena.play_game(names, variant, seed).scores


def calibrate(
    variant: str,
    levels: Sequence[str],
    pairs_per_match: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[], None] | None = None,
) -> dict[str, dict[str, Any]]:
    """Each level's rating after the round robin (:func:`deals`), rated in deal order
    whatever order the games finish in: ``{level: {rating, deviation, volatility,
    games}}``."""
    games = deals(levels, pairs_per_match, seed)
    ratings = {level: Rating() for level in levels}
    return _played_and_rated(variant, games, ratings, jobs, progress)


def calibrate_held(
    variant: str,
    level: str,
    held: Mapping[str, Rating],
    pairs_per_match: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """``level``'s rating from games against each level of ``held``, whose ratings stay as
    they are (:func:`held_deals`; rated game by game from 1500 as :func:`calibrate`
    rates): a level added to a rated ladder, or rated again once it plays otherwise,
    without moving the others' numbers (every server's anchor)."""
    games = held_deals(level, [other for other in held if other != level], pairs_per_match, seed)
    ratings = {**held, level: Rating()}
    return _played_and_rated(variant, games, ratings, jobs, progress, {level})[level]


def _played_and_rated(
    variant: str,
    games: Sequence[tuple[list[str], int]],
    ratings: dict[str, Rating],
    jobs: int,
    progress: Callable[[], None] | None,
    moving: set[str] | None = None,
) -> dict[str, dict[str, Any]]:
    """``games`` played (``jobs`` at once) and rated in their order, whatever order they
    finish in."""
    work = [(names, variant, game_seed) for names, game_seed in games]
    played = dict.fromkeys(ratings, 0)
    if jobs == 1:
        return _rate(games, map(_play, work), ratings, played, progress, moving)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        scores = pool.map(_play, work, chunksize=2)
        return _rate(games, scores, ratings, played, progress, moving)


def _rate(
    games: Sequence[tuple[list[str], int]],
    scores: Iterator[tuple[int, ...]],
    ratings: dict[str, Rating],
    played: dict[str, int],
    progress: Callable[[], None] | None,
    moving: set[str] | None = None,
) -> dict[str, dict[str, Any]]:
    """Rate the games in order; only the levels in ``moving`` (None: all) change."""
    for (names, _), final in zip(games, scores, strict=True):
        after = rate_game([ratings[name] for name in names], ranks_from_scores(final))
        for name, rating in zip(names, after, strict=True):
            if moving is None or name in moving:
                ratings[name] = rating
            played[name] += 1
        if progress is not None:
            progress()
    return {
        level: {
            "rating": round(rating.rating, 1),
            "deviation": SHIPPED_DEVIATION,
            "volatility": round(rating.volatility, 6),
            "games": played[level],
        }
        for level, rating in ratings.items()
    }


@cache
def _shipped() -> dict[str, dict[str, dict[str, Any]]]:
    if not SHIPPED.exists():
        return {}
    data: dict[str, Any] = json.loads(SHIPPED.read_text(encoding="utf-8"))
    found: dict[str, dict[str, dict[str, Any]]] = data.get("games", {})
    return found


def rating_of(entry: Mapping[str, Any]) -> Rating:
    """The rating of one level's entry as a ratings file holds it (``{rating, deviation,
    volatility, games}``)."""
    return Rating(entry["rating"], entry["deviation"], entry["volatility"])


def ratings_of(entries: Mapping[str, Mapping[str, Any]]) -> dict[str, Rating]:
    """The ratings of one game's entries (``{level: entry}``)."""
    return {level: rating_of(entry) for level, entry in entries.items()}


def starting_rating(level: str, variant: str) -> Rating | None:
    """The shipped starting rating of computer level ``level`` at ``variant`` (the same
    for every pace: a computer plays alike at any clock); None when not calibrated."""
    entry = _shipped().get(variant, {}).get(level)
    return None if entry is None else rating_of(entry)
