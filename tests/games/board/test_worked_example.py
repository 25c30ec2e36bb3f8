"""The rulebook's worked example (seed 000, part VI) scores 39 then 121, from a score
sheet and as a real game (rulings C3-C9)."""

from __future__ import annotations

import pytest

from mathable.engine import records
from mathable.engine.errors import IllegalMove
from mathable.games import registry
from mathable.games.board.game import BoardGame
from mathable.games.board.transcript import score_transcript
from mathable.games.board.turns import Setup

ANN = "I8=12 H6=8 G9=2 F7=1 J8=16+"
BOB = "F8=7 F9=6 H9=8 G6=4 E9=3 E8=21 E10=7"
SHEET = f"Ann: {ANN}\nBob: {BOB}\n"


def test_score_sheet_gives_39_then_121() -> None:
    sheet = score_transcript(SHEET)
    ann, bob = sheet.turns
    assert [p.points for p in ann.placements] == [12, 8, 2, 1, 16]
    assert (ann.points, ann.bonus) == (39, 0)
    assert [p.points for p in bob.placements] == [7, 6, 16, 4, 3, 21, 14]
    assert (bob.points, bob.bonus) == (121, 50)
    assert sheet.totals == {"Ann": 39, "Bob": 121}
    data = sheet.to_dict()
    assert data["totals"] == {"Ann": 39, "Bob": 121}
    assert data["turns"][1]["placements"][2] == {
        "cell": "H9",
        "value": 8,
        "points": 16,
        "extra": False,
    }


def _example_game() -> BoardGame:
    # The extra token Ann takes on J8 is an 11 in the book; then 4 refill tokens.
    setup = Setup(
        racks=((1, 2, 8, 12, 16, 17, 42), (3, 4, 6, 7, 7, 8, 21)),
        bag=(11, 5, 5, 5, 5, 9, 9, 9, 9, 9, 9, 9, 10, 10),
    )
    return BoardGame("classic", ["Ann", "Bob"], seed=0, setup=setup)


def test_the_example_as_a_game() -> None:
    game = _example_game()
    for placement in ANN.split():
        game.apply(placement)
    # "The player cannot place another token, and so his turn is over" with 11, 17, 42.
    assert game.to_move == 1 and game.scores == (39, 0)
    assert game.turns[0].points == 39
    assert sorted(game.rack(0)) == [5, 5, 5, 5, 11, 17, 42]
    for placement in BOB.split()[:5]:
        game.apply(placement)
    game.apply("E8=21")  # no extra token this time: he fears one he cannot use
    before = game.snapshot()
    with pytest.raises(IllegalMove) as info:
        game.apply("E7=7")  # "He cannot place the token above the 21": E7 is a + square
    assert info.value.rule == "C5" and info.value.where == "E7"
    assert game.snapshot() == before
    game.apply("E10=7")  # the last token ends the turn by itself
    assert game.scores == (39, 121)
    assert game.turns[1].bonus == 50 and game.to_move == 0
    assert len(game.rack(1)) == 7


def test_the_example_record_replays() -> None:
    game = _example_game()
    for placement in (ANN + " " + BOB).split():
        game.apply(placement)
    again = registry.from_record(records.dumps(game))
    assert again.snapshot() == game.snapshot()
    assert again.scores == (39, 121)
