"""What the lessons' page draws (issue 32): the scores follow the steps (the open turn's
points counted, not "Ann 0 · Bob 0" after "12 points"), each step says where each value
of the rack may go (the engine's legal placements, lit when a number is picked), and the
end step's board is a game near its end, as its text says, not a fresh start."""

from __future__ import annotations

from mathable.engine.actions import Place
from mathable.learn.lessons import CLASSIC, LESSONS, check, running_scores
from mathable.web.learning.lessons import _checked, _steps

START = {"G7": 1, "H7": 2, "G8": 3, "H8": 4}


def test_the_scores_follow_the_steps() -> None:
    steps = _steps(CLASSIC)["steps"]
    assert steps[0]["scores"] == [0, 0]
    assert steps[1]["scores"] == [12, 0]  # after I8=12, Ann's turn still open
    assert steps[5]["scores"] == [39, 0]  # Ann's turn: 39, as the book says
    after = _checked(CLASSIC, 0, "I8=12")["after"]
    assert after["scores"] == [12, 0]


def test_running_scores_bank_a_finished_turn_once() -> None:
    game = CLASSIC.game_before(6)  # Bob's turn: Ann's 39 banked
    assert running_scores(game) == [39, 7]
    assert game.scores[0] == 39


def test_each_step_says_where_each_value_may_go() -> None:
    for lesson in LESSONS.values():
        for index, shown in enumerate(_steps(lesson)["steps"]):
            game = lesson.game_before(index)
            legal: dict[str, set[str]] = {}
            for action in game.legal_placements():
                if isinstance(action, Place):
                    name = game.cell_names.name(action.cell)
                    legal.setdefault(str(action.value), set()).add(name)
            assert {v: set(c) for v, c in shown["legal"].items()} == legal, (lesson.name, index)
    first = _steps(CLASSIC)["steps"][0]["legal"]
    assert "I8" in first["12"] and "F8" in first["12"]  # the step's cell and another


def test_the_end_step_shows_a_game_near_its_end() -> None:
    end = _steps(CLASSIC)["steps"][-1]
    assert end["bag"] == 0 and end["rack"] == [12]
    assert len(end["board"]) > len(START) and end["board"].items() >= START.items()
    assert end["scores"] == [11, 17]  # both players' turns played from an empty bag
    answer = check(CLASSIC, len(CLASSIC.steps) - 1, "I8=12")
    assert answer.correct and answer.game is not None and answer.game.is_over
