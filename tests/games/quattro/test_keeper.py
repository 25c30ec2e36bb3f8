"""The score keeper for Quattro (issue 37): a match entered turn by turn, hands unknown,
has the engine's piles, rounds and round winners; what the rules refuse is refused by
the rule's name, and changes nothing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathable.engine.errors import IllegalMove, MathableError, NotationError
from mathable.games.quattro.keeper import KeptQuattro
from support.kept import kept_quattro_copy, random_quattro


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), rounds=st.integers(1, 3))
def test_the_keeper_keeps_the_engines_match(seed: int, players: int, rounds: int) -> None:
    game = random_quattro(seed, players, rounds)
    kept = kept_quattro_copy(game)
    assert kept.scores == list(game.scores)
    assert kept.round_winners == [list(w) for w in game.round_winners]
    assert (kept.round, kept.is_over, kept.to_move) == (game.round, game.is_over, game.to_move)
    assert kept.piles == list(game.tops) and kept.pile_sizes == list(game.pile_sizes)
    assert kept.reserve == game.bag_size
    assert kept.hands == [len(game.rack(s)) for s in range(players)]
    if not game.is_over:
        assert kept.unseen() == game.unseen(None)
    assert sum(t.points for t in kept.turns) == sum(game.scores)


def entered(*entries: str, players: int = 2, rounds: int = 1) -> KeptQuattro:
    kept = KeptQuattro(["Louis", "Zoé", "Cid", "Dee"][:players], rounds=rounds)
    for entry in entries:
        kept.play(entry)
    return kept


def state(kept: KeptQuattro) -> tuple[object, ...]:
    return (kept.sheet(), kept.scores, kept.unseen(), kept.to_move, kept.hands, kept.piles)


@pytest.mark.parametrize(
    ("entry", "rule", "words"),
    [
        ("A=25", "Q2", "not a result"),  # 20 with 12 or 7: 32, 8, 240, 27, 13, 140
        ("D=25", "Q2", "not a result"),
        ("A=32 A=28", "Q2", "not a result"),  # the second card, on the piles the first left
        ("A=33", "Q1", "no card 33"),
        ("A=32+", "Q2", "no extra cards"),
        ("draw A=7 penalty", "Q3", "you can play"),  # no: nothing known of the hand
        ("A=32 A=32 A=32 A=32 A=32 A=32 A=32 A=32", "Q2", "holds 7 cards"),
        ("pass", "Q3", "draw a card"),
        ("end 5,7 / -", "Q5", "ends by its rounds"),  # the board games' end: no tokens here
    ],
)
def test_refusals_name_the_rule(entry: str, rule: str, words: str) -> None:
    kept = entered("A=20 B=12 C=7 D=2")
    before = state(kept)
    try:
        kept.play(entry)
    except IllegalMove as refused:
        assert refused.rule == rule and words in str(refused)
        assert state(kept) == before
    else:
        assert rule == "Q3" and words == "you can play"  # drawing is the table's call
        assert kept.turns[-1].kind == "stuck" and kept.hands == [8, 7]


def test_a_value_no_more_often_than_the_deck_holds_it() -> None:
    """Q1: the deck has one 32 (classic distribution): a second is refused."""
    kept = entered("A=20 B=12 C=7 D=2", "A=32")
    with pytest.raises(IllegalMove) as refused:
        kept.play("B=32")  # 32 is 20 + 12 again on B... but the one 32 is on pile A
    assert refused.value.rule == "Q1" and "1 card of 32" in str(refused.value)
    assert kept.unseen()[32] == 0 and kept.unseen()[20] == 0
    with pytest.raises(IllegalMove, match="no card 99"):
        entered("A=99 B=12 C=7 D=2")


def test_a_round_is_won_by_the_hand_emptied_and_the_next_is_dealt() -> None:
    kept = entered("A=1 B=1 C=1 D=1", rounds=2)
    assert kept.hands == [7, 7] and kept.reserve == 106 - 4 - 14
    turn = kept.play("A=1 A=0 A=1 A=1 A=2 A=3 A=4")  # each the top ± × ÷ 1
    assert turn.points == 1 and turn.round_won_by == (0,) and kept.scores == [1, 0]
    assert kept.round == 2 and kept.hands == [7, 7] and kept.to_move == 1  # Q5: left of the winner
    assert "# round 1: Louis" in kept.sheet()
    kept.play("undo")
    assert kept.round == 1 and kept.scores == [0, 0] and kept.hands == [7, 7]


def test_a_stuck_turn_exchanges_or_takes_a_penalty() -> None:
    """Q3: the drawn card on any pile with no equation, then two cards for one, or one."""
    kept = entered("A=20 B=12 C=7 D=2", "draw D=50 exchange")
    assert kept.hands == [8, 7] and kept.piles == [20, 12, 7, 50] and kept.to_move == 1
    assert kept.turns[-1].exchanged == 1 and kept.turns[-1].notation == "draw D=50 exchange"
    kept.play("diago draw B=4 penalty")
    assert kept.hands == [8, 8] and kept.diago_used == [1]
    with pytest.raises(NotationError, match="draw C=7 penalty"):
        kept.play("draw B=4")
    assert kept.reserve == 106 - 4 - 14 - 3 - 2  # a card drawn, two more; one, one


def test_diago_opens_the_diagonals_for_the_turn() -> None:
    kept = entered("A=20 B=12 C=7 D=2")
    with pytest.raises(IllegalMove, match="not a result"):
        kept.play("A=40")  # 20 × 2 takes D, diagonal to A
    turn = kept.play("diago A=40")
    assert turn.diago and turn.notation == "diago A=40"
    assert "40 = 20 × 2" in turn.explanations[0].text()
    kept.play("draw B=4 penalty")
    with pytest.raises(IllegalMove) as refused:
        kept.play("diago A=44")  # Louis has used his DIAGO this round
    assert refused.value.rule == "Q4" and "used your DIAGO" in str(refused.value)


def test_the_match_ends_with_its_last_round() -> None:
    kept = entered("A=1 B=1 C=1 D=1", "A=1 A=0 A=1 A=1 A=2 A=3 A=4")
    assert kept.is_over and kept.end_text()
    with pytest.raises(IllegalMove) as refused:
        kept.play("B=2")
    assert refused.value.rule == "Q5"
    with pytest.raises(MathableError, match="four cards"):
        entered("A=1 B=1 C=1")
    with pytest.raises(IllegalMove, match="nothing to undo"):
        entered().play("undo")
