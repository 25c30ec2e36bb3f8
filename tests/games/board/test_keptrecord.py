"""The record of a kept game (issue 37): random engine games -- passes, exchanges and
extra tokens among them -- entered into the keeper as a table would (an exchange by its
count only), then written as a record, replay by the engine to the same board, the same
scores and the same winners; the racks' unseen tokens are reconstructed (ruling R1)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathable.engine.protocol import Game
from mathable.games.board.game import BoardGame
from mathable.games.board.keeper import KeptGame
from mathable.games.board.keptrecord import KeptRecordError, kept_record
from mathable.games.board.variants import CLASSIC
from mathable.games.registry import from_record
from support.kept import kept_copy, random_game


def on_board(game: Game) -> dict[int, int]:
    assert isinstance(game, BoardGame)
    return game.board.placed()


@settings(max_examples=30, deadline=None)
@given(
    variant=st.sampled_from(["classic", "junior", "junior-numbers"]),
    seed=st.integers(0, 100_000),
    players=st.integers(2, 4),
)
def test_a_kept_game_replays_as_the_game_it_kept(variant: str, seed: int, players: int) -> None:
    game = random_game(variant, seed, players)
    kept = kept_copy(game)
    record = kept_record(kept)
    replayed = from_record(record)  # the result (scores, winners) is checked on load too
    assert list(replayed.scores) == list(kept.scores) == list(game.scores)
    assert on_board(replayed) == on_board(game)
    assert replayed.is_over == game.is_over and replayed.winners() == game.winners()
    dealt = [v for rack in record["setup"]["racks"] for v in rack] + record["setup"]["bag"]
    assert Counter(dealt) == Counter(kept.variant.tokens)  # the whole set, each count kept


def test_exchanges_draw_what_the_table_placed_next() -> None:
    """The bag is shaken after every exchange (C8); the deal is worked out so that the
    tokens drawn after it are the ones the table placed."""
    game = random_game("classic", 2, 2)
    exchanges = sum(t.notation.startswith("exchange") for t in game.summaries())
    assert exchanges >= 10
    replayed = from_record(kept_record(kept_copy(game)))
    assert list(replayed.scores) == list(game.scores)


def test_the_worked_example_unfinished_has_no_result() -> None:
    kept = KeptGame(CLASSIC, ["Ann", "Bob"])
    kept.play("I8=12 H6=8 G9=2 F7=1 J8=16+")
    kept.play("F8=7 F9=6 H9=8 G6=4 E9=3 E8=21 E10=7")
    record = kept_record(kept)
    assert "result" not in record and record["setup"]["to_move"] == 0
    assert list(from_record(record).scores) == [39, 121]


def test_mistakes_that_stood_and_a_challenge_replay_under_the_table_referee() -> None:
    kept = KeptGame(CLASSIC, ["Ann", "Bob"], referee=True)
    for entry in ["I8=12 A1=5", "H6=8", "G9=2 A14=6", "challenge", "F7=1"]:
        kept.play(entry)
    record = kept_record(kept)
    assert record["house_rules"]["table_referee"]
    replayed = from_record(record)
    assert list(replayed.scores) == list(kept.scores) and on_board(replayed)[0] == 5  # A1


def test_an_end_the_rules_do_not_know_is_refused_with_the_reason() -> None:
    kept = KeptGame(CLASSIC, ["Ann", "Bob"])
    kept.play("I8=12")
    kept.play("end 5,5,5,5,5,5,5 / 6,6,6,6,6,6,6")
    with pytest.raises(KeptRecordError, match="C11"):
        kept_record(kept)
