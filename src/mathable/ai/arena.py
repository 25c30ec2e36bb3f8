"""Bots against bots: seeded games, and the statistics of a match.

Paired deals (the default, :func:`paired_jobs`): each deal is played once per seating,
the bots rotated through the seats (two bots: each deal twice, seats swapped), so luck
of the draw and of the seat cancels within a deal and the deals are the independent
units of the statistics (:func:`paired_summary`: the score margin and the win rate,
each with its 95% interval). Unpaired (:func:`jobs_for`): game ``i`` is dealt from
``seed + i`` with the seats rotated by one per game. Either way any game can be
replayed alone from its seed.

Every level decides from its seed and counted budgets, so a seeded match plays the same
games on any machine under any load; the one exception, a decision the expert's
wall-clock safety cap cut short, is counted per bot (``capped``) and reported (issue 35).

Seeds: tuning (choosing a setting by its results) uses seeds below
:data:`TUNING_SEEDS_BELOW`; reported strength (the README's ladder) comes from seeds at
or above :data:`REPORTING_SEEDS_FROM`, which no tuning has seen (issue 16).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mathable.engine import records
from mathable.games.registry import new_game

from . import get_bot, parse_spec
from .base import share_board
from .strong import PlanningBot

TUNING_SEEDS_BELOW = 100_000
"""Seeds a setting may be tuned on."""
REPORTING_SEEDS_FROM = 1_000_000
"""Seeds reported strength comes from: never tuned on."""


@dataclass
class GameResult:
    """One arena game: the bots by seat, their scores, winners, per-turn times, and how
    many decisions of each bot the wall-clock safety cap cut short."""

    seed: int
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    times: dict[str, list[float]] = field(default_factory=dict)
    record: dict[str, Any] | None = None
    capped: dict[str, int] = field(default_factory=dict)


def play_game(
    names: Sequence[str], variant: str, seed: int, *, keep_record: bool = False
) -> GameResult:
    """Play one game between bots named ``names`` (seat order) from ``seed``."""
    labels = [f"{parse_spec(name)[0]}#{seat + 1}" for seat, name in enumerate(names)]
    game = new_game(variant, labels, seed=seed)
    bots = [get_bot(name, seed * 8 + seat) for seat, name in enumerate(names)]
    share_board(bots)
    times: dict[str, list[float]] = {name: [] for name in names}
    turn_seat, turn_time = game.to_move, 0.0
    for _ in range(20_000):
        if game.is_over:
            break
        seat = game.to_move
        if seat != turn_seat:  # a turn is every action of a seat until the next seat's
            times[names[turn_seat]].append(turn_time)
            turn_seat, turn_time = seat, 0.0
        start = time.perf_counter()
        action = bots[seat].act(game.view(seat, explained=False))
        turn_time += time.perf_counter() - start
        game.apply(action)
    else:  # pragma: no cover - every variant's games end (conformance tests)
        raise RuntimeError(f"game {seed} did not end")
    times[names[turn_seat]].append(turn_time)
    capped = dict.fromkeys(names, 0)
    for name, bot in zip(names, bots, strict=True):
        if isinstance(bot, PlanningBot):
            capped[name] += bot.capped
    return GameResult(
        seed,
        tuple(names),
        game.scores,
        game.winners(),
        times,
        records.to_record(game, _levels(names)) if keep_record else None,
        capped,
    )


def _levels(names: Sequence[str]) -> dict[int, str]:
    """The record's ``bots`` field: each seat's bot, with its settings where they fit in
    the field's 40 characters, else its level alone."""
    return {
        seat: name if len(name) <= 40 else parse_spec(name)[0] for seat, name in enumerate(names)
    }


def seating(bots: Sequence[str], game_number: int) -> list[str]:
    """The seat order of game ``game_number``: the bots rotated by one per game."""
    k = game_number % len(bots)
    return [*bots[k:], *bots[:k]]


def run_one(args: tuple[list[str], str, int, bool]) -> GameResult:
    """Play one game of :func:`jobs_for` (a top-level function, for process pools)."""
    names, variant, seed, keep = args
    return play_game(names, variant, seed, keep_record=keep)


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (ties count half)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class BotStats:
    """A bot's results over a match."""

    name: str
    games: int = 0
    wins: float = 0.0
    points: int = 0
    times: list[float] = field(default_factory=list)
    capped: int = 0

    def summary(self) -> dict[str, Any]:
        low, high = wilson(self.wins, self.games)
        ordered = sorted(self.times)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0
        longest = ordered[-1] if ordered else 0.0
        return {
            "bot": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 4) if self.games else 0.0,
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "mean_score": round(self.points / self.games, 1) if self.games else 0.0,
            "mean_ms_per_turn": round(1000 * sum(ordered) / len(ordered), 2) if ordered else 0,
            "p95_ms_per_turn": round(1000 * p95, 2),
            "max_ms_per_turn": round(1000 * longest, 2),
            "turns": len(ordered),
            "capped": self.capped,
        }


def tally(results: Sequence[GameResult], bots: Sequence[str]) -> list[dict[str, Any]]:
    """Per distinct bot: wins (a shared win split between the winners), win rate with
    its 95% interval, mean score, thinking time per turn (mean and p95) and
    ``capped``, its decisions the wall-clock safety cap cut short."""
    stats = {name: BotStats(name) for name in dict.fromkeys(bots)}
    for result in results:
        for seat, name in enumerate(result.seats):
            entry = stats[name]
            entry.games += 1
            entry.points += result.scores[seat]
            if seat in result.winners:
                entry.wins += 1 / len(result.winners)
        for name, times in result.times.items():
            stats[name].times.extend(times)
        for name, count in result.capped.items():
            stats[name].capped += count
    return [s.summary() for s in stats.values()]


def save_record(result: GameResult, directory: Path, number: int) -> None:
    """Write a game's record as ``game-NNNN-seedS.json``."""
    import json

    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"game-{number:04d}-seed{result.seed}.json"
    path.write_text(json.dumps(result.record, indent=1) + "\n", encoding="utf-8")


def jobs_for(
    bots: Sequence[str], variant: str, games: int, seed: int, keep: bool
) -> list[tuple[list[str], str, int, bool]]:
    """The arguments of every game of a match."""
    return [(seating(bots, i), variant, seed + i, keep) for i in range(games)]


def paired_seatings(bots: Sequence[str]) -> list[list[str]]:
    """The seatings a deal is played in: the bots rotated through the seats (two bots:
    both orders)."""
    return [seating(bots, k) for k in range(len(bots))]


def paired_jobs(
    bots: Sequence[str], variant: str, deals: int, seed: int, keep: bool
) -> list[tuple[list[str], str, int, bool]]:
    """Every game of a paired match: deal ``i`` (from ``seed + i``) in every seating."""
    return [
        (names, variant, seed + deal, keep)
        for deal in range(deals)
        for names in paired_seatings(bots)
    ]


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval (normal approximation: the matches
    this serves have hundreds of deals, where it equals Student's t to 1%)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = z * spread / math.sqrt(n)
    return (mean, mean - half, mean + half)


def paired_figures(deals: Sequence[Sequence[float]], digits: int = 1) -> dict[str, Any]:
    """From deals each given as its games' score margins from one side: the mean margin
    and the mean result (1 a win, 0.5 a shared win, 0 a loss) a deal, then the mean of
    each over the deals with its 95% interval (``digits`` for the margins). The deals,
    not the games, are the independent units: the games of a deal share its tokens."""
    margins = [sum(games) / len(games) for games in deals]
    outcomes = [
        sum(1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in games) / len(games) for games in deals
    ]
    margin_mean, margin_low, margin_high = mean_interval(margins)
    rate, rate_low, rate_high = mean_interval(outcomes)
    return {
        "margin": round(margin_mean, digits),
        "margin_ci95": [round(margin_low, digits), round(margin_high, digits)],
        "win_rate": round(rate, 4),
        "win_rate_ci95": [round(max(0.0, rate_low), 4), round(min(1.0, rate_high), 4)],
    }


def paired_summary(results: Sequence[GameResult], bots: Sequence[str]) -> dict[str, Any]:
    """Two bots over paired deals, from the first bot's side (:func:`paired_figures`):
    treating the two games of a deal as independent would make the intervals too narrow
    (or too wide, when the seat matters)."""
    first, second = bots
    by_deal: dict[int, list[float]] = {}
    for result in results:
        mine = result.scores[result.seats.index(first)]
        theirs = result.scores[result.seats.index(second)]
        by_deal.setdefault(result.seed, []).append(mine - theirs)
    return {
        "deals": len(by_deal),
        "games": len(results),
        "bot": first,
        "against": second,
        **paired_figures(list(by_deal.values())),
    }
