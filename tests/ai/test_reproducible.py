"""Reproducible decisions (issue 35): every level decides from its seed and counted
budgets (nodes, samples), so the same seeded arena plays the same games on a busy
machine as on a quiet one; the wall clock is only the expert's safety cap, which,
when it bites, still gives a legal turn, and is logged and counted."""

from __future__ import annotations

import logging
import multiprocessing
import time
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.synchronize import Event
from typing import Any

import pytest

from mathable.ai import get_bot, parse_spec, with_cap
from mathable.ai.arena import GameResult, paired_jobs, run_one, tally
from mathable.ai.base import board_from_view
from mathable.ai.ladder import Rung, cap_line
from mathable.ai.search import TurnPlan, search_turns
from mathable.ai.simulation import Cap, EndgameSearch
from mathable.ai.strong import DEFAULT_CAP_MS, ExpertBot
from mathable.games.board.board import Board
from mathable.games.board.variants import Variant
from mathable.games.board.view import BoardView
from mathable.games.registry import new_game

LEVELS = ["strong", "expert:samples=6,candidates=4"]
"""Quick levels with every part of a decision in play: the exact search, simulations,
exchanges and the end-game search (classic games reach an empty bag)."""


def _arena() -> list[GameResult]:
    """Two paired classic deals of strong against a quick expert, with their records."""
    return [run_one(job) for job in paired_jobs(LEVELS, "classic", 2, 4_242, True)]


def _burn(stop: Event) -> None:
    """Keep a core busy until ``stop`` is set."""
    spins = 0
    while not stop.is_set():
        for _ in range(100_000):
            spins += 1


@contextmanager
def _cpu_load(processes: int) -> Iterator[None]:
    """``processes`` busy loops beside the test, stopped (and reaped) after it."""
    context = multiprocessing.get_context("fork")
    stop = context.Event()
    burners = [context.Process(target=_burn, args=(stop,), daemon=True) for _ in range(processes)]
    for burner in burners:
        burner.start()
    try:
        yield
    finally:
        stop.set()
        for burner in burners:
            burner.join(timeout=10)
            if burner.is_alive():
                burner.kill()
                burner.join()


def _played(results: list[GameResult]) -> list[tuple[Any, ...]]:
    """What a match decided: each game's records (every action) and scores."""
    return [(r.seed, r.seats, r.scores, r.record) for r in results]


def test_the_same_seeded_arena_plays_the_same_games_under_cpu_load() -> None:
    """Quiet, then with busy loops on every core (and one more): the very same games."""
    quiet = _arena()
    with _cpu_load(max(2, multiprocessing.cpu_count()) + 1):
        busy = _arena()
    capped = [bot["capped"] for bot in tally(quiet + busy, LEVELS)]
    assert _played(busy) == _played(quiet), f"decisions cut by the safety cap: {capped}"
    assert all(r.record is not None and r.record["actions"] for r in quiet)


def _racing_clock(monkeypatch: pytest.MonkeyPatch, step: float) -> None:
    """Make every reading of ``time.perf_counter`` ``step`` seconds after the last: a
    machine as slow as can be, as far as any clock can tell."""
    now = [time.perf_counter()]

    def reading() -> float:
        now[0] += step
        return now[0]

    monkeypatch.setattr(time, "perf_counter", reading)


def test_without_its_cap_no_decision_reads_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the safety cap off, a clock that races an hour a reading changes no game:
    the budgets are counts, not time (the expert's former 250 ms budget would have
    stopped its simulations after one sample)."""
    levels = ["strong", "expert:samples=6,candidates=4,cap_ms=none"]
    jobs = paired_jobs(levels, "classic", 1, 4_343, True)
    steady = [run_one(job) for job in jobs]
    _racing_clock(monkeypatch, 3_600.0)
    raced = [run_one(job) for job in jobs]
    assert _played(raced) == _played(steady)


def _opening() -> BoardView:
    game = new_game("classic", ["a", "b"], seed=7)
    view = game.view(game.to_move)
    assert isinstance(view, BoardView)
    return view


def test_a_cap_that_bites_still_gives_a_legal_turn_logged_and_counted(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A 1 ms cap on a clock that moves 1 s a reading bites at once: the expert plays a
    legal turn from what it judged by then, says so at WARNING naming its level and
    seat, and counts the decision."""
    game = new_game("classic", ["a", "b"], seed=7)
    seat = game.to_move
    expert = ExpertBot(3, cap_ms=1)
    _racing_clock(monkeypatch, 1.0)
    with caplog.at_level(logging.WARNING, logger="mathable.ai.strong"):
        action = expert.act(game.view(seat))
    game.apply(action)  # legal, or this raises
    assert expert.capped == 1
    [warning] = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert "expert" in warning.getMessage() and f"seat {seat}" in warning.getMessage()
    assert "1 ms" in warning.getMessage()


def test_a_cap_never_reached_leaves_nothing_logged_or_counted(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _racing_clock(monkeypatch, 1e-9)
    expert = ExpertBot(3, samples=4)
    with caplog.at_level(logging.WARNING, logger="mathable.ai.strong"):
        expert.act(_opening())
    assert expert.capped == 0 and not caplog.records


def test_a_cap_bites_once_its_deadline_is_past_and_remembers_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _racing_clock(monkeypatch, 1.0)
    cap = Cap(time.perf_counter() + 0.5)
    assert not cap.bit and cap.passed() and cap.bit
    assert not Cap(None).passed()


def endgame_positions(count: int) -> list[BoardView]:
    """Turn starts with the bag empty, both racks holding tokens and the mover able to
    place, from greedy games."""
    found: list[BoardView] = []
    seed = 300
    while len(found) < count:
        game = new_game("classic", ["a", "b"], seed=seed)
        bots = [get_bot("greedy", seed), get_bot("greedy", seed + 1)]
        while not game.is_over:
            view = game.view(game.to_move)
            assert isinstance(view, BoardView)
            if view.bag_size == 0 and not view.turn_placements and all(view.rack_sizes):
                if _endgame(view)[2]:
                    found.append(view)
                break
            game.apply(bots[game.to_move].act(view))
        seed += 1
    return found


def _endgame(view: BoardView) -> tuple[Variant, Board, list[TurnPlan], tuple[int, ...]]:
    """An end-game position's board, the mover's turns that place, the opponent's rack."""
    variant, board = board_from_view(view)
    opponent = tuple(v for v, n in view.unseen.items() for _ in range(n))
    plans = [
        p
        for p in search_turns(variant, board, view.rack, started_with=len(view.rack))
        if p.placements
    ]
    return variant, board, plans, opponent


def test_the_end_game_search_deepens_by_its_node_budget_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The depth reached is a function of the position and the budget: the same values
    under any clock, and never more positions expanded than the budget plus the last
    one tried."""
    for view in endgame_positions(3):
        variant, board, plans, opponent = _endgame(view)
        for budget in (1, 12, 60, None):
            first = EndgameSearch(variant, board, None, 20_000, budget=budget)
            values = first.root_values(plans, opponent)
            assert values, budget
            if budget is not None:
                assert first.expanded <= budget + 1
            with monkeypatch.context() as patched:
                _racing_clock(patched, 3_600.0)
                again = EndgameSearch(variant, board, Cap(None), 20_000, budget=budget)
                assert again.root_values(plans, opponent) == values


def test_a_capped_end_game_search_still_judges_the_first_candidate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    [view] = endgame_positions(1)
    variant, board, plans, opponent = _endgame(view)
    _racing_clock(monkeypatch, 1.0)
    cap = Cap(time.perf_counter())
    values = EndgameSearch(variant, board, cap, 20_000).root_values(plans, opponent)
    assert len(values) >= 1 and cap.bit


def test_budget_ms_is_still_accepted_and_now_sets_the_cap() -> None:
    """``expert:budget_ms=500`` (a public spec) keeps working: it is the safety cap."""
    assert get_bot("expert:budget_ms=500", 1).cap_ms == 500  # type: ignore[attr-defined]
    assert get_bot("expert:budget_ms=none", 1).cap_ms is None  # type: ignore[attr-defined]
    assert get_bot("expert", 1).cap_ms == DEFAULT_CAP_MS  # type: ignore[attr-defined]
    assert get_bot("expert:cap_ms=70", 1).cap_ms == 70  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="cap_ms=-5"):
        get_bot("expert:cap_ms=-5")
    with pytest.raises(ValueError, match="budget_ms=-5"):
        get_bot("expert:budget_ms=-5")


@pytest.mark.parametrize(
    ("spec", "capped"),
    [
        ("expert", "expert:cap_ms=900"),
        ("expert:samples=4,", "expert:samples=4,cap_ms=900"),
        ("expert:budget_ms=none", "expert:budget_ms=none"),
        ("expert:cap_ms=50", "expert:cap_ms=50"),
        ("strong", "strong"),
        ("greedy", "greedy"),
    ],
)
def test_a_server_lowers_the_cap_of_levels_that_have_one(spec: str, capped: str) -> None:
    assert with_cap(spec, 900) == capped
    parse_spec(capped)  # still a spec the levels accept


def test_the_ladder_says_how_often_the_cap_bit() -> None:
    bots: list[dict[str, Any]] = [
        {"bot": "strong", "turns": 120, "capped": 0},
        {"bot": "expert", "turns": 118, "capped": 2},
    ]
    rung = Rung("classic", "strong", "expert", {}, bots)
    line = cap_line([rung, rung])
    assert "expert 4 (in 236 turns)" in line and "strong 0 (in 240 turns)" in line
    assert cap_line([]) == ""


def test_the_arena_counts_capped_decisions_per_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cap that always bites is counted in the game's result and the match's tally."""
    _racing_clock(monkeypatch, 1.0)
    names = ["greedy", "expert:samples=2,cap_ms=1"]
    [result] = [run_one((names, "classic", 5, False))]
    assert result.capped["greedy"] == 0 and result.capped[names[1]] >= 1
    rows = {row["bot"]: row for row in tally([result], names)}
    assert rows[names[1]]["capped"] == result.capped[names[1]]
    assert rows[names[1]]["turns"] == len(result.times[names[1]])
