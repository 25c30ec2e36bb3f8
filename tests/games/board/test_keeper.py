"""The score keeper's rules (issue 37, ruling R1): a kept game scores every turn as the
game itself and its score sheet do, refuses what the game refuses and changes nothing
then, and never counts more tokens of a value than the set holds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathable.engine.errors import IllegalMove, MathableError
from mathable.games.board.keeper import KeptGame
from mathable.games.board.transcript import score_transcript
from mathable.games.board.variants import CLASSIC, get_variant
from support.kept import kept_copy, random_game


@settings(max_examples=12, deadline=None)
@given(
    variant=st.sampled_from(["classic", "junior", "junior-numbers"]),
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
)
def test_the_keeper_scores_as_the_game_and_its_sheet(variant: str, seed: int, players: int) -> None:
    game = random_game(variant, seed, players)
    kept = kept_copy(game)
    assert list(kept.scores) == list(game.scores)  # the bonus (R1) and deductions (C11) alike
    totals = score_transcript(kept.sheet(), get_variant(variant)).totals
    assert [totals.get(name, 0) for name in game.players] == list(kept.scores)
    assert all(0 <= n <= kept.variant.tokens[v] for v, n in kept.unseen().items())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), cell=st.integers(0, 195), value=st.integers(0, 120))
def test_a_refused_entry_changes_nothing(seed: int, cell: int, value: int) -> None:
    game = random_game("classic", seed, 2)
    kept = KeptGame(CLASSIC, game.players, first=game.summaries()[0].seat)
    for turn in game.summaries()[:6]:
        if not turn.notation.startswith("exchange"):
            kept.play(turn.notation)
    before = (kept.sheet(), list(kept.scores), kept.unseen(), kept.to_move, kept.bag)
    name = kept.table.board.grid.name(cell)
    try:
        kept.play(f"{name}={value}")
    except MathableError:
        assert (kept.sheet(), list(kept.scores), kept.unseen(), kept.to_move, kept.bag) == before
    else:
        assert kept.unseen()[value] >= 0  # accepted: legal there, and a token was unseen


def test_an_eighth_one_is_refused() -> None:
    kept = KeptGame(CLASSIC, ["Ann", "Bob"])
    kept.play("end 1,1,1,1,1,1,1 / 2,2,2,2,2,2,2")
    with pytest.raises(IllegalMove, match="game is over"):
        kept.play("pass")
    kept.play("undo")
    kept.play("I8=12 H6=8 G9=2 F7=1")  # a first 1 on the board
    with pytest.raises(IllegalMove) as refused:
        kept.play("end 1,1,1,1,1,1,1 / 2,2,2,2,2,2,2")
    assert refused.value.rule == "C2" and "only 7 tokens of 1" in str(refused.value)


def test_racks_and_bag_follow_the_turns() -> None:
    """C8, C10, R1: racks are counted (never their values) and refilled while the bag
    lasts: the bonus and the exchanges follow from them."""
    kept = KeptGame(CLASSIC, ["Ann", "Bob"])
    assert kept.racks == [7, 7] and kept.bag == 106 - 14
    kept.play("I8=12 H6=8 G9=2 F7=1 J8=16+")
    assert kept.racks == [7, 7] and kept.bag == 106 - 14 - 5
    with pytest.raises(MathableError, match="exchange N"):
        kept.play("exchange 8")


def test_challenges_and_undo() -> None:
    kept = KeptGame(CLASSIC, ["Ann", "Bob"], referee=True)
    kept.play("I8=12 A1=5")
    assert kept.turns[-1].placements[1].mistake and kept.scores == [12 + 15, 0]
    kept.play("challenge")
    assert kept.scores == [12, 0] and kept.turns[-1].challenged and kept.to_move == 1
    with pytest.raises(IllegalMove, match="challenge fails"):
        kept.play("challenge")
    kept.play("undo")
    assert kept.scores == [12 + 15, 0]  # the challenge taken back: the mistake stands
    assert score_transcript(kept.sheet()).totals == {"Ann": 27}
    kept.play("undo")
    with pytest.raises(IllegalMove, match="nothing to undo"):
        kept.play("undo")
    with pytest.raises(MathableError):
        kept.play("cut I8=12")  # a cut turn is the challenge's, never typed
