"""The analysis by equity and chance of winning (issue 35): exchanges judged like any
turn, the reasons said, accuracy from the winning chance lost, old reports readable."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathable.ai import simulation
from mathable.ai.analysis import (
    REPORT_VERSION,
    analyse_game,
    analysis_report,
    readable,
    turn_chance,
    with_texts,
)
from mathable.ai.base import board_from_view
from mathable.ai.equity import EXPERT_DEPTH, MASTER_DEPTH, judge_turn, turn_accuracy, win_chance
from mathable.ai.evaluation import rank_plans
from mathable.ai.master import MasterBot
from mathable.ai.reasons import computer_turn_notes, why_not_placed
from mathable.ai.search import TurnPlan
from mathable.engine.actions import Action, Exchange, Pass, Place
from mathable.engine.protocol import Game
from mathable.games.board.game import BoardGame
from mathable.games.board.turns import Setup
from mathable.games.board.view import BoardView
from mathable.games.registry import new_game
from mathable.i18n import language

BIG_RACK = (1, 56, 63, 72, 80, 81, 90)


def _big_rack_game() -> BoardGame:
    """Ann holds one small token and six that fit almost nowhere. The seed is fixed: the
    analysis draws its simulated continuations from the game's seed, so two games of the
    same seed judge the same position alike (a random seed made the best exchange of one
    game lose a point in another's samples)."""
    return BoardGame(
        "classic",
        ["Ann", "Bob"],
        seed=35,
        setup=Setup((BIG_RACK, (3, 4, 6, 7, 7, 8, 21)), tuple(range(1, 40))),
    )


def test_placing_the_one_small_token_is_a_miss_the_exchange_was_better() -> None:
    """Points alone called this turn the best (it was the only placement); by equity
    exchanging the tokens that fit nowhere is far better, and the report says why."""
    game = _big_rack_game()
    one = next(p for p in game.legal_placements() if p.value == 1)
    game.apply(one)
    if game.to_move == 0:
        game.apply("end")
    with language("en"):
        turn = analysis_report(game)["turns"][0]
    assert turn["best"].startswith("exchange")
    assert turn["equity_loss"] > 10 and turn["loss"] == round(turn["equity_loss"])
    assert turn["win_before"] > turn["win_after"]
    assert turn["accuracy"] < 100
    assert turn["why"].startswith("exchanging ") and "next turn" in turn["why"]
    assert turn["samples"] > 0


def test_the_best_exchange_loses_nothing_and_says_why_it_exchanged() -> None:
    game = _big_rack_game()
    with language("en"):
        best = analysis_report(_placed_one())["turns"][0]["best"]
    given = tuple(int(v) for v in best.removeprefix("exchange ").split(","))
    game.apply(Exchange(given))
    with language("en"):
        report = analysis_report(game)
    (turn,) = report["turns"]
    assert turn["loss"] == 0 and turn["equity_loss"] == 0
    assert turn["win_before"] == turn["win_after"] and turn["accuracy"] == 100
    assert turn["why"].startswith("exchanging " + " ".join(map(str, given)))
    assert report["players"][0]["accuracy"] == 100


def test_the_master_depth_judges_with_the_masters_budgets_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--depth master``: the master's samples, candidates and exchanges, continuations
    played out to the end late in the game, and the report names the depth."""
    bot = MasterBot(0)
    budgets = (bot.samples, bot.candidates, bot.threat_top, bot.exchanges, bot.to_end)
    depth = MASTER_DEPTH
    assert (depth.samples, depth.candidates, depth.threat_top, depth.exchanges, depth.to_end) == (
        budgets
    )
    simulated: list[tuple[int, int, int | None]] = []
    real = simulation.simulate

    def spy(*args: Any, **options: Any) -> list[float]:
        simulated.append((len(args[3]), options["samples"], options["to_end"]))
        return real(*args, **options)

    monkeypatch.setattr("mathable.ai.equity.simulate", spy)
    with language("en"):
        reports = [analysis_report(_placed_one(), depth) for depth in (EXPERT_DEPTH, MASTER_DEPTH)]
    expert, master = simulated
    assert expert[1:] == (EXPERT_DEPTH.samples, None) and master[1:] == (256, 10)
    assert master[0] == expert[0] + 2  # two more exchanges judged (4, not 2)
    for report, depth in zip(reports, (EXPERT_DEPTH, MASTER_DEPTH), strict=True):
        assert report["method"]["depth"] == depth.name
        assert report["method"]["samples"] == report["turns"][0]["samples"] == depth.samples
        assert report["turns"][0]["best"].startswith("exchange")


def test_the_analysis_counts_every_turn_it_judges() -> None:
    """``progress`` (the terminal's bar) is called once a turn, Quattro's too."""
    for game in (_short_game(5, actions=12), _short_quattro()):
        calls, judged = _counted(game)
        assert calls == len(game.summaries()) >= judged > 0


def _counted(game: Game) -> tuple[int, int]:
    """How often the analysis of ``game`` called its progress, and the turns it judged."""
    calls: list[None] = []
    turns = analyse_game(game, progress=lambda: calls.append(None))
    return len(calls), len(turns)


def _short_quattro() -> Game:
    from mathable.ai import get_bot

    game = new_game("quattro", ["Ann", "Bob"], seed=3)
    bots = [get_bot("greedy", 3), get_bot("greedy", 4)]
    while not game.is_over and len(game.summaries()) < 6:
        game.apply(bots[game.to_move].act(game.view(game.to_move)))
    return game


def _placed_one() -> BoardGame:
    game = _big_rack_game()
    game.apply(next(p for p in game.legal_placements() if p.value == 1))
    if game.to_move == 0:
        game.apply("end")
    return game


def test_the_same_game_gives_the_same_report() -> None:
    """Seeded by the game's seed and the turn's number, budgets in samples and nodes: no
    wall clock anywhere, so two runs agree to the last figure."""
    game = _short_game(5)
    assert json.dumps(analysis_report(game)) == json.dumps(analysis_report(game))


def _short_game(seed: int, actions: int = 30) -> BoardGame:
    from mathable.ai import get_bot

    game = new_game("classic", ["Ann", "Bob"], seed=seed)
    assert isinstance(game, BoardGame)
    bots = [get_bot("strong", seed), get_bot("greedy", seed + 1)]
    for _ in range(actions):
        if game.is_over:
            break
        game.apply(bots[game.to_move].act(game.view(game.to_move)))
    return game


def _best_actions(game: BoardGame) -> list[Action]:
    """The turn the analysis will judge best from here, as actions (no extra tokens)."""
    view = game.view(game.to_move)
    assert isinstance(view, BoardView)
    variant, board = board_from_view(view)
    ranked = rank_plans(view, board=board)  # a real candidate to stand for the turn played
    placeholder = ranked[0][1] if ranked else TurnPlan((), 0, 0, tuple(sorted(view.rack)))
    chance = turn_chance(game.seed, len(game.summaries()) + 1)
    best = judge_turn(view, variant, board, placeholder, (), chance).best
    if best.plan.placements:
        return [Place(cell, value) for cell, value in best.plan.placements]
    if best.given:
        return [Exchange(best.given)]
    from mathable.ai import get_bot

    return [get_bot("greedy", 0).act(view)]  # nothing fits: as the rules allow (C8, J)


def test_playing_the_analysis_best_turn_every_time_loses_nothing() -> None:
    """The analysis agrees with itself: a player who always plays the turn it judges
    best (exchanges included) shows no loss, whatever the others played."""
    for name in ("classic", "junior", "junior-numbers"):
        game = new_game(name, ["Ann", "Bob"], seed=11)
        assert isinstance(game, BoardGame)
        while not game.is_over and len(game.summaries()) < 12:
            seat = game.to_move
            for action in _best_actions(game):
                game.apply(action)
                if game.is_over or game.to_move != seat:
                    break
            else:
                if not game.is_over and "end" in game.view(seat).available:
                    game.apply("end")
        losses = [(t.number, t.played, t.best, t.loss) for t in analyse_game(game) if t.loss]
        assert losses == [], (name, losses)


@given(st.floats(0, 100), st.floats(0, 100))
def test_accuracy_falls_with_the_winning_chance_lost(a: float, b: float) -> None:
    low, high = sorted((a, b))
    assert 0 <= turn_accuracy(high) <= turn_accuracy(low) <= 100


def test_accuracy_is_lichess_formula() -> None:
    assert round(turn_accuracy(0), 2) == 100.0
    assert round(turn_accuracy(10), 2) == round(103.1668 * 0.647_001_5 - 3.1669, 2)
    assert turn_accuracy(100) == 0.0  # clamped


@given(st.floats(-500, 500), st.integers(1, 120))
def test_the_winning_chance_is_symmetric_and_rises_with_the_margin(m: float, tokens: int) -> None:
    assert abs(win_chance(m, tokens) + win_chance(-m, tokens) - 1) < 1e-9
    assert win_chance(m + 10, tokens) >= win_chance(m, tokens)


def test_with_no_tokens_left_the_margin_decides() -> None:
    assert (win_chance(1, 0), win_chance(0, 0), win_chance(-1, 0)) == (1.0, 0.5, 0.0)


V2_REPORT = {  # as the web kept it before issue 35 (version 2: no "version" key)
    "turns": [
        {
            "turn": 1,
            "player": "Ann",
            "played": "I8=12",
            "points": 12,
            "best": "I8=12 H6=8",
            "best_points": 20,
            "loss": 8,
            "played_explanation": None,
            "best_explanation": None,
            "step": 0,
            "best_placements": [{"cell": "I8", "value": 12}, {"cell": "H6", "value": 8}],
        }
    ],
    "players": [
        {
            "player": "Ann",
            "turns": 1,
            "points": 12,
            "best_points": 20,
            "average_loss": 8.0,
            "accuracy": 60.0,
            "biggest_misses": [{"turn": 1, "played": "I8=12", "best": "I8=12 H6=8", "loss": 8}],
        }
    ],
}


def test_a_kept_version_2_report_stays_readable() -> None:
    """The web keeps reports by version; one of version 2 read now has the new keys as
    None (no chances), the rest as it was, and the terminal's table shows it."""
    from rich.console import Console

    from mathable.render.panels import analysis_view

    kept = json.loads(json.dumps(V2_REPORT))
    report = with_texts(kept)
    (turn,) = report["turns"]
    assert report["version"] == 2 < REPORT_VERSION
    assert turn["loss"] == 8 and turn["best_placements"][1]["value"] == 8
    assert turn["win_before"] is None and turn["equity_loss"] is None and turn["why"] is None
    assert report["players"][0]["accuracy"] == 60.0 and report["players"][0]["win_loss"] is None
    assert readable(report) is report
    console = Console(width=80, record=True)
    console.print(analysis_view(report))
    assert "I8=12 H6=8" in console.export_text()


def test_the_reasons_are_kept_and_read_in_each_readers_language() -> None:
    with language("en"):
        report = analysis_report(_placed_one())
    kept = json.loads(json.dumps(report))
    with language("fr"):
        french = with_texts(kept)["turns"][0]["why"]
    with language("en"):
        english = with_texts(kept)["turns"][0]["why"]
    assert english == report["turns"][0]["why"]
    assert french and french != english


def test_a_computer_exchange_says_why_in_words_that_show_no_token() -> None:
    game = _big_rack_game()
    view = game.view(0)
    assert isinstance(view, BoardView)
    action = Exchange((56, 63, 72, 81, 90))
    with language("en"):
        said = why_not_placed(view, action)
        assert said is not None and str(said).startswith("exchanged")
        assert not any(str(v) in str(said).split() for v in action.values)
    game.apply(action)
    notes = computer_turn_notes(game, {0})
    assert len(notes) == 1 and notes[0] is not None
    assert computer_turn_notes(game, {1}) == [None]  # a person's turn: nothing said
    assert why_not_placed(view, Place(89, 1)) is None


def test_a_pass_with_nothing_that_fits_says_so() -> None:
    game = BoardGame(
        "classic", ["Ann", "Bob"], setup=Setup(((81, 90, 80, 72, 70, 64, 63), (3,) * 7), ())
    )
    view = game.view(0)
    assert isinstance(view, BoardView)
    with language("en"):
        said = why_not_placed(view, Pass())
    assert said is not None and "fits" in str(said)
