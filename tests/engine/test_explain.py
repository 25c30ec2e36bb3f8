"""Explained placements (issue 18): the rulebook's worked example, and the explanations'
points against the engine's scores over whole games (C4-C6, K2, Q2)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathable.engine.actions import EndTurn, Pass, Place
from mathable.engine.explain import Equation, Explanation
from mathable.games.board.game import BoardGame, explain_on_board
from mathable.games.board.variants import CLASSIC, JUNIOR_NUMBERS
from mathable.games.quattro.game import QuattroGame, QuattroSetup
from mathable.i18n import language

ANN = "I8=12 H6=8 G9=2 F7=1 J8=16"
BOB = "F8=7 F9=6 H9=8 G6=4 E9=3 E8=21 E10=7"


def _worked_example() -> list[list[Explanation]]:
    """The rulebook's part VI turns, each placement explained before it is placed."""
    board = CLASSIC.new_board()
    turns = []
    for turn in (ANN, BOB):
        explained = []
        for written in turn.split():
            name, value = written.split("=")
            cell = board.grid.parse(name)
            explained.append(explain_on_board(CLASSIC, board, cell, int(value)))
            board.place(cell, int(value))
        turns.append(explained)
    return turns


def test_the_worked_example_adds_up_to_the_rulebooks_scores() -> None:
    ann, bob = _worked_example()
    assert sum(e.points for e in ann) == 39  # Ann 39
    assert sum(e.points for e in bob) == 71  # Bob 71 + 50 bonus = 121
    assert all(e.legal and e.rule == "" for e in (*ann, *bob))
    with language("en"):
        assert ann[0].text() == "12 = 3 × 4 (G8, H8): 12"
        assert bob[2].text() == "8 = 2 × 4 (H7, H8) and 8 = 6 + 2 (F9, G9): 2 equations × 8 = 16"
        assert bob[4].text() == "3 = 6 ÷ 2 (F9, G9): 3"  # the dividend first
        assert bob[6].text() == "7 = 21 ÷ 3 (E8, E9): 7 × 2 (award) = 14"
    assert bob[2].equations == (
        Equation(8, 2, "×", 4, ("H7", "H8")),
        Equation(8, 6, "+", 2, ("F9", "G9")),
    )
    assert bob[6].award == 2


def test_the_text_of_two_equations_on_an_award_square() -> None:
    made = (Equation(12, 3, "×", 4, ("I6", "I7")), Equation(12, 8, "+", 4, ("G8", "H8")))
    explained = Explanation("I8", 12, True, made, 2, 48, "", "")
    with language("en"):
        assert explained.text() == (
            "12 = 3 × 4 (I6, I7) and 12 = 8 + 4 (G8, H8): 2 equations × 12 × 2 (award) = 48"
        )
        assert explained.to_json()["equations"][0] == {
            "result": 12,
            "left": 3,
            "op": "×",
            "right": 4,
            "cells": ["I6", "I7"],
        }


def test_refusals_carry_the_reason_and_the_rule() -> None:
    board = CLASSIC.new_board()
    with language("en"):
        far = explain_on_board(CLASSIC, board, board.grid.parse("A1"), 5)
        assert (far.legal, far.rule, far.points) == (False, "C3", 0)
        assert far.text() == far.reason == "5 on A1: no two tokens lie in line next to A1"
        full = explain_on_board(CLASSIC, board, board.grid.parse("G7"), 5)
        assert full.reason == "G7 already holds a 1" and full.rule == "C3"
        wrong = explain_on_board(CLASSIC, board, board.grid.parse("I8"), 13)
        assert not wrong.legal and "I8" in wrong.reason


def test_a_restriction_square_counts_only_its_operation() -> None:
    """C5: on a restriction square only its operation's equations count."""
    layout, grid = CLASSIC.layout, CLASSIC.layout.grid
    made = {"+": 8, "-": 4, "x": 12, "/": 3}  # what 6 and 2 make by each operation
    shown = {"+": "+", "-": "−", "x": "×", "/": "÷"}
    squares = [(c, sq.restriction) for c, sq in enumerate(layout.squares) if sq.restriction]
    assert squares
    for square, restriction in squares:
        near, far = grid.pairs[square][0]
        board = CLASSIC.new_board({near: 6, far: 2})
        for value in (8, 4, 12, 3):
            explained = explain_on_board(CLASSIC, board, square, value)
            assert explained.legal == (value == made[restriction.symbol])
            assert explained.points == board.points(square, value)
            if explained.legal:
                assert [e.op for e in explained.equations] == [shown[restriction.symbol]]
            else:
                assert explained.rule == "C5" and explained.equations == ()


def _play_randomly(game: BoardGame | QuattroGame, seed: int, most: int = 600) -> None:
    """Play a game with random placements while there are some, else end or pass."""
    chooser = random.Random(seed)
    for _step in range(most):
        if game.is_over:
            return
        placements = list(game.legal_placements())
        if placements:
            game.apply(chooser.choice(placements))
            continue
        actions = game.legal_actions()
        for wanted in (EndTurn(), Pass()):
            if wanted in actions:
                game.apply(wanted)
                break
        else:
            game.apply(chooser.choice(actions))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), variant=st.sampled_from(["classic", "junior", "junior-numbers"]))
def test_explanations_add_up_to_every_turn_of_whole_games(seed: int, variant: str) -> None:
    """The explanations' points of each finished turn are the engine's points less the
    bonus (C6, C9, K2), and each says as many equations as the board counts (C4)."""
    game = BoardGame(variant, 2, seed=seed)
    _play_randomly(game, seed)
    explained = game.explain_turns()
    assert len(explained) == len(game.turns) == len(game.summaries())
    for turn, found in zip(game.turns, explained, strict=True):
        assert len(found) == len(turn.placements)
        assert sum(e.points for e in found) == turn.points - turn.bonus
        for placed, explanation in zip(turn.placements, found, strict=True):
            assert explanation.legal
            assert explanation.points == placed.points
            assert explanation.value == placed.value
            assert explanation.target == game.board.grid.name(placed.cell)
            for equation in explanation.equations:
                assert equation.result == placed.value
    assert game.explain_turn(-1) == explained[-1] if explained else True


def test_explaining_changes_nothing_and_needs_no_rack() -> None:
    game = BoardGame("classic", 2, seed=5)
    before = game.snapshot()
    grid = game.board.grid
    explained = game.explain(Place(grid.parse("I8"), 12))
    assert explained.legal and explained.points == 12
    assert game.snapshot() == before


def test_the_numbered_board_scores_one_point() -> None:
    """K2: 1 point when the tiles next to it make it by + or -."""
    game = BoardGame("junior-numbers", 2, seed=3)
    _play_randomly(game, 3)
    scored = [e for turn in game.explain_turns() for e in turn if e.points]
    assert scored and all(e.points == 1 and e.equations for e in scored)
    with language("en"):
        assert scored[0].text().endswith(": 1 point")
    assert JUNIOR_NUMBERS.name == game.name


def test_quattro_explains_the_card_from_the_neighbouring_piles() -> None:
    """Q2: 32 on A is 20 + 12 (A, B); the rulebook's 20/12/32/7/25 deal."""
    game = QuattroGame(
        ["Louis", "Zoé"],
        setup=QuattroSetup(
            hands=((32, 25, 1, 1, 1, 1, 1), (2, 2, 2, 2, 2, 2, 2)),
            piles=(20, 12, 7, 2),
            reserve=(5, 6, 8, 9),
        ),
    )
    explained = game.explain(Place(0, 32))
    assert explained.legal and explained.points == 0
    assert explained.equations == (Equation(32, 20, "+", 12, ("A", "B")),)
    with language("en"):
        assert explained.text() == "32 = 20 + 12 (A, B)"
    refused = game.explain(Place(2, 32))
    assert not refused.legal and refused.rule == "Q2"
    game.apply("A=32")
    _play_randomly(game, 1, most=200)
    for turn, found in zip(game.turns, game.explain_turns(), strict=True):
        assert [(e.target, e.value) for e in found] == [("ABCD"[p], v) for p, v in turn.plays]
        assert all(e.legal and e.equations for e in found)


@pytest.mark.parametrize("variant", ["classic", "quattro"])
def test_views_list_each_turns_explanations(variant: str) -> None:
    from mathable.games.registry import new_game

    game = new_game(variant, 2, seed=11)
    _play_randomly(game, 11, most=40)  # type: ignore[arg-type]
    data = game.view(0).to_dict(game.cell_names.name)
    assert data["turns"] and len(data["summaries"]) == len(data["turns"])
    texts = [t for turn in data["turns"] for t in turn["explanations"]]
    assert texts and all(isinstance(t, str) and " = " in t for t in texts)
    assert [s["explanations"] for s in data["summaries"]] == [
        t["explanations"] for t in data["turns"]
    ]


def _explained_afresh(game: BoardGame) -> tuple[object, ...]:
    """What the views' turns should be: every summary with its explanations, built anew."""
    from dataclasses import replace

    return tuple(
        replace(summary, explanations=found) if found else summary
        for summary, found in zip(game.summaries(), game.explain_turns(), strict=False)
    )


def test_views_explain_each_turn_once_and_stay_right() -> None:
    """A view's turns are the game's turns explained; a finished turn's entry is the
    same object from one view to the next (views are built after every action, and
    rebuilding every turn made a game's views quadratic), in every language, and an
    undo gives the game's turns again."""
    from mathable.engine.protocol import HouseRules

    game = BoardGame("classic", 2, seed=12, house_rules=HouseRules(allow_undo=True))
    rng = random.Random(12)
    previous: tuple[object, ...] = ()
    for _ in range(60):
        if game.is_over:
            break
        shown = game.view(game.to_move).summaries
        assert shown == _explained_afresh(game)
        assert all(a is b for a, b in zip(previous, shown, strict=False))
        previous = shown
        with language("fr"):
            assert game.view(None).summaries == _explained_afresh(game)
        placements = game.legal_placements()
        if placements and len(game.turn_placements) < 2:
            game.apply(rng.choice(list(placements)))
        else:
            game.apply(EndTurn() if game.turn_placements else Pass())
    assert len(previous) > 10
    game.undo()
    game.undo()
    assert game.view(0).summaries == _explained_afresh(game)


def test_a_view_for_self_play_leaves_the_turns_unexplained() -> None:
    """``explained=False`` (computer players never read explanations): the same view,
    its turns' explanations left out, in both kinds of game."""
    from mathable.ai import get_bot

    for game in (BoardGame("classic", 2, seed=5), QuattroGame(2, seed=5)):
        bots = [get_bot("greedy", 1), get_bot("greedy", 2)]
        for _ in range(30):
            if game.is_over:
                break
            game.apply(bots[game.to_move].act(game.view(game.to_move, explained=False)))
        full = game.view(0)
        bare = game.view(0, explained=False)
        assert any(s.explanations for s in full.summaries)
        assert not any(s.explanations for s in bare.summaries)
        assert bare == full  # explanations are not part of a view's comparison
