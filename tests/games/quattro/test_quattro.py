"""Mathable Quattro (seed 004, rulings Q1-Q5): the rulebook's example, every rule's
refusals (game unchanged), rounds, the reserve rebuilt, and the conformance harness."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathable.engine import records
from mathable.engine.actions import Diago, Draw, Exchange, Pass, Penalty, Place
from mathable.engine.conformance import random_sim_test
from mathable.engine.errors import IllegalMove
from mathable.engine.notation import format_action, parse_action
from mathable.engine.protocol import HouseRules
from mathable.engine.tokens import CLASSIC_TOKENS
from mathable.games import registry
from mathable.games.quattro.game import (
    PILE_NAMES,
    QuattroGame,
    QuattroSetup,
)
from mathable.games.registry import new_game

A, B, C, D = range(4)


def louis(hand: tuple[int, ...] = (32, 25, 1, 1, 1, 1, 1), **kw: Any) -> QuattroGame:
    """The rulebook's table: 20 and 12 side by side, the 7 below the 20 (seed 004)."""
    setup = QuattroSetup(
        hands=(hand, (3, 3, 3, 3, 3, 3, 3)),
        piles=(20, 12, 7, 2),
        reserve=tuple(range(40, 60)),
    )
    return QuattroGame(["Louis", "Zoé"], setup=setup, house_rules=HouseRules(allow_undo=True), **kw)


def refused(game: QuattroGame, action: Any, rule: str, where: str = "") -> IllegalMove:
    before = game.snapshot()
    with pytest.raises(IllegalMove) as info:
        game.apply(action)
    assert info.value.rule == rule
    if where:
        assert info.value.where == where
    assert game.snapshot() == before
    return info.value


def test_rulebook_example_32_on_20_or_12_then_25_on_32_or_7() -> None:
    game = louis()
    assert set(game.legal_placements()) == {Place(A, 32), Place(B, 32)}  # 20 + 12 = 32
    game.apply("A=32")
    assert game.tops == (32, 12, 7, 2)
    assert set(game.legal_placements()) == {Place(A, 25), Place(C, 25)}  # 32 - 7 = 25
    game.apply("C=25")
    assert game.to_move == 1 and game.turns[-1].plays == ((A, 32), (C, 25))


def test_the_32_on_the_12_instead_leaves_the_25_stuck() -> None:
    """Why the rulebook puts the 32 on the 20: on the 12 the turn ends at once."""
    game = louis()
    game.apply("B=32")
    assert game.to_move == 1
    assert game.rack(0) == (1, 1, 1, 1, 1, 25)


def test_q2_a_card_must_be_a_result_of_two_adjacent_tops() -> None:
    game = louis()
    error = refused(game, "C=32", "Q2", "pile C")
    assert "7" in str(error)
    refused(game, "D=32", "Q2", "pile D")
    refused(game, "A=99", "Q2")  # not in the hand
    refused(game, "A=25", "Q2")  # 20-12=8, 20-7=13: no 25 yet


def test_q2_no_diagonal_without_diago() -> None:
    game = louis(hand=(27, 1, 1, 1, 1, 1, 1))  # 20 + 7 is up-down (A above C): legal
    assert Place(A, 27) in game.legal_placements()
    game2 = louis(hand=(22, 1, 1, 1, 1, 1, 1))  # 20 + 2 is the diagonal A-D
    assert not game2.legal_placements()
    refused(game2, "A=22", "Q2", "pile A")


def test_q4_diago_opens_the_diagonals_for_that_turn_only() -> None:
    game = louis(hand=(22, 1, 1, 1, 1, 1, 1))
    game.apply(Diago())
    assert game.diagonals and Place(A, 22) in game.legal_placements()
    game.apply("A=22")
    assert game.to_move == 1 and not game.diagonals  # Zoé has not used hers


def test_q4_diago_only_at_the_start_once_per_round_then_for_everyone() -> None:
    game2 = louis(hand=(32, 25, 1, 1, 1, 1, 1))
    game2.apply("A=32")
    refused(game2, Diago(), "Q4")  # not at the start of the turn any more
    game3 = louis()
    game3.apply(Diago())
    refused(game3, Diago(), "Q4")  # once per round
    assert game3.diago_used == (0,)


def test_q4_once_everyone_has_used_diago_diagonals_count_for_all() -> None:
    game = louis(hand=(32, 1, 1, 1, 1, 1, 1))
    game.apply(Diago())
    game.apply("A=32")  # Louis's turn ends (no more plays)
    assert game.to_move == 1 and not game.diagonals
    game.apply(Diago())  # Zoé, holding only 3s: diagonals now count for everyone
    assert game.diagonals
    refused(game, Diago(), "Q4")


def test_q3_stuck_player_draws_places_anywhere_then_exchanges() -> None:
    game = louis(hand=(99, 98, 97, 96, 95, 94, 93))
    refused(game, Penalty(), "Q3")
    refused(game, Exchange((99,)), "Q3")
    refused(game, Pass(), "Q3")  # a card can be drawn
    game.apply(Draw())
    assert game.phase == "drawn" and game.drawn == 40
    assert game.view(1).drawn is None and game.view(0).drawn == 40
    refused(game, "A=41", "Q3", "pile A")  # only the drawn card
    game.apply("D=40")  # any pile, no equation needed
    assert game.tops == (20, 12, 7, 40) and game.phase == "after"
    refused(game, "A=99", "Q3")
    refused(game, Exchange((99, 98)), "Q3")  # exactly one card
    refused(game, Exchange((5,)), "Q3")
    game.apply(Exchange((99,)))  # discard one, draw two
    assert sorted(game.rack(0)) == [41, 42, 93, 94, 95, 96, 97, 98]
    assert game.to_move == 1 and game.turns[-1].exchanged


def test_q3_penalty_draws_one_and_drawing_is_refused_when_a_play_exists() -> None:
    game = louis()
    error = refused(game, Draw(), "Q3")
    assert "A=32" in str(error)
    stuck = louis(hand=(99, 98, 97, 96, 95, 94, 93))
    stuck.apply(Draw())
    stuck.apply("B=40")
    stuck.apply(Penalty())
    assert len(stuck.rack(0)) == 8 and stuck.rack(0)[-1] == 99


def test_q5_the_first_empty_hand_wins_the_round_and_the_next_is_dealt() -> None:
    game = louis(hand=(32, 25), rounds=2)
    game.apply("A=32")
    game.apply("C=25")  # Louis's hand is empty: he wins round 1
    assert game.scores == (1, 0) and game.round == 2 and not game.is_over
    assert game.to_move == 1  # the player on the winner's left starts
    assert len(game.rack(0)) == len(game.rack(1)) == 7
    assert game.tops == (32, 12, 25, 2)  # the piles stay
    assert game.diago_used == ()
    assert game.setup is not None  # louis() deals an explicit setup
    assert +game.census() == Counter(game.setup.hands[0] + game.setup.hands[1]) + Counter(
        (20, 12, 7, 2, *range(40, 60))
    )


def _rebuild_after_a_trashed_90(version: int | None = None) -> QuattroGame:
    """A stuck Ann draws the reserve's last card onto pile A and trashes her 90: the
    exchange's two cards come from a rebuilt reserve."""
    setup = QuattroSetup(
        hands=((90, 81, 80, 72, 70, 64, 63), (3, 3, 3, 3, 3, 3, 3)),
        piles=(20, 12, 7, 2),
        reserve=(50,),
    )
    game = QuattroGame(2, setup=setup, version=version)
    game.apply(Draw())
    game.apply("A=50")  # pile A: 20 then 50; the reserve is empty
    game.apply(Exchange((90,)))
    return game


def test_q5_the_reserve_is_rebuilt_unshuffled_from_the_piles_only() -> None:
    """Q5 (issue 31): "on prend les cartes du centre ..., sans les brasser ..., pour
    former, avec ces 4 paquets, une nouvelle réserve": the piles but their top cards, not
    the trash, which stays out of play. The rebuild holds only the 20 from pile A."""
    game = _rebuild_after_a_trashed_90()
    assert sorted(game.rack(0)) == [20, 63, 64, 70, 72, 80, 81]
    assert game.pile_sizes == (1, 1, 1, 1) and game.bag_size == 0
    assert game.view(0).to_dict()["trash_size"] == 1  # the 90 stays in the trash
    assert game.census()[90] == 1 and sum(game.census().values()) == 7 + 7 + 4 + 1


def test_q5_a_record_of_rules_version_1_rebuilt_the_reserve_with_the_trash() -> None:
    """Quattro's rules version 1 took the trash into the new reserve: its records replay
    as they were played, and are written again as version 1."""
    game = _rebuild_after_a_trashed_90(version=1)
    assert sorted(game.rack(0)) == [20, 63, 64, 70, 72, 80, 81, 90]
    assert game.rules_version == 1 and game.fresh().rules_version == 1
    again = registry.from_record(records.dumps(game))
    assert again.snapshot() == game.snapshot() and again.rules_version == 1
    assert json.loads(records.dumps(again))["variant_version"] == 1


def _diago_would_play(version: int | None = None) -> QuattroGame:
    """Issue 31's table: hand 18, 60; piles 20/12/7/2; no reserve, nothing to rebuild;
    18 = 20 - 2 on the diagonal A-D."""
    setup = QuattroSetup(hands=((18, 60), (90, 81)), piles=(20, 12, 7, 2), reserve=())
    return QuattroGame(["Ann", "Bob"], setup=setup, version=version)


def test_q5_a_play_after_diago_counts_no_pass_is_offered() -> None:
    """Q5 (issue 31): a round is blocked only when nobody can play, DIAGO included: a
    player whose DIAGO opens a play is not offered a pass (which could block the round)
    and is refused one; announcing it, the play is there."""
    game = _diago_would_play()
    assert not game.legal_placements()
    assert [game.format_action(a) for a in game.legal_actions()] == ["diago"]
    assert game.view(0).available == ("diago",)
    error = refused(game, Pass(), "Q5")
    assert "DIAGO" in str(error)
    game.apply(Diago())
    assert {game.format_action(a) for a in game.legal_placements()} == {"A=18", "D=18"}
    nothing = QuattroGame(  # 90, 81: no pair makes them, diagonals included: pass
        ["Ann", "Bob"],
        setup=QuattroSetup(hands=((90, 81), (18, 60)), piles=(20, 12, 7, 2), reserve=()),
    )
    assert nothing.view(0).available == ("pass", "diago")
    nothing.apply(Pass())
    assert nothing.to_move == 1


def test_q5_a_record_of_rules_version_1_could_pass_with_a_diago_play() -> None:
    """Quattro's rules version 1 offered the pass: its records replay as played."""
    game = _diago_would_play(version=1)
    assert [game.format_action(a) for a in game.legal_actions()] == ["diago", "pass"]
    game.apply(Pass())
    again = registry.from_record(records.dumps(game))
    assert again.snapshot() == game.snapshot()


def _blocked(hands: tuple[tuple[int, ...], ...], rounds: int = 1) -> QuattroGame:
    """Piles of one card each, no reserve, no trash: nobody can play, draw or rebuild."""
    setup = QuattroSetup(hands=hands, piles=(20, 12, 7, 2), reserve=())
    return QuattroGame(["Ann", "Bob", "Cy"][: len(hands)], setup=setup, rounds=rounds)


def test_q5_a_blocked_round_says_so_and_who_won_it_with_the_fewest_cards() -> None:
    """Q5: a round where nobody can play, draw or rebuild the reserve is blocked; the end
    reason says so and names who won it by the fewest cards."""
    game = _blocked(((51, 53), (55, 57, 59)))
    game.apply(Pass())
    game.apply(Pass())
    assert game.is_over and game.scores == (1, 0)
    assert game.end_reason == (
        "round 1 blocked: nobody could play, draw or rebuild the reserve; "
        "Ann won it with the fewest cards (2)"
    )
    assert "played every card" not in game.end_reason
    tie = _blocked(((51, 53), (55, 57), (59, 61, 63)))
    for _ in range(3):
        tie.apply(Pass())
    assert tie.scores == (1, 1, 0)
    assert tie.end_reason.endswith("Ann and Bob share it with the fewest cards (2)")


def test_q5_a_blocked_round_mid_match_is_told_in_the_turns() -> None:
    """Q5: a blocked round that is not the last is written on the turn that blocked it,
    and the match goes on to the next round; so it is when the turns are written after
    every action, as views are (each turn written once)."""
    blocked = (
        "round 1 blocked: nobody could play, draw or rebuild the reserve; "
        "Bob won it with the fewest cards (2)"
    )
    for seen_after_each_action in (False, True):
        game = _blocked(((51, 53, 61), (55, 57)), rounds=2)
        for _ in range(2):
            game.apply(Pass())
            if seen_after_each_action:
                game.view(0)
        assert not game.is_over and game.round == 2 and game.scores == (0, 1)
        assert [s.note for s in game.summaries()] == ["", blocked]


def test_c13_a_card_the_player_drew_is_not_unseen_by_that_player() -> None:
    """C13: the player card counts only cards the seat has not seen; a card it has drawn
    (Q3) is seen by it, not by the others."""
    game = louis(hand=(99, 98, 97, 96, 95, 94, 93))
    before = game.unseen(0)
    game.apply(Draw())
    assert game.drawn == 40
    assert game.unseen(0)[40] == before[40] - 1
    assert game.view(0).unseen[40] == before[40] - 1
    assert game.unseen(1)[40] == game.unseen(None)[40] == before[40]


def test_the_match_winner_has_won_the_most_rounds() -> None:
    game = louis(hand=(32, 25))
    game.apply("A=32")
    game.apply("C=25")
    assert game.is_over and game.winners() == (0,)
    refused(game, Draw(), "Q5")


def test_records_replay_quattro_matches() -> None:
    # the reserve holds real cards: a record's deal is drawn from the deck (Q1)
    setup = QuattroSetup(
        hands=((32, 25, 1, 1, 1, 1, 1), (3, 3, 3, 3, 3, 3, 3)),
        piles=(20, 12, 7, 2),
        reserve=(40, 42, 45, 48, 49, 50, 54, 56, 60, 63),
    )
    game = QuattroGame(["Louis", "Zoé"], setup=setup, rounds=2)
    game.apply("A=32")
    data = records.to_record(game)
    assert data["variant"] == "quattro" and data["rounds"] == 2 and data["actions"] == ["A=32"]
    again = registry.from_record(json.loads(json.dumps(data)))
    assert again.snapshot() == game.snapshot()


@given(st.sampled_from(["A=32", "d=7", "draw", "penalty", "diago", "pass", "exchange 12"]))
def test_notation_round_trips(text: str) -> None:
    action = parse_action(text, PILE_NAMES)
    assert parse_action(format_action(action, PILE_NAMES), PILE_NAMES) == action


def _secrets(game: Any, viewer: int | None) -> list[list[Any]]:
    hidden = [list(game.bag_order())]
    hidden += [list(game.rack(s)) for s in range(len(game.players)) if s != viewer]
    return hidden


@pytest.mark.slow
def test_conformance_harness_on_hundreds_of_quattro_matches() -> None:
    def make(seed: int) -> QuattroGame:
        game = new_game(
            "quattro",
            2 + seed % 3,
            seed=seed,
            rounds=1 + seed % 3,
            house_rules=HouseRules(allow_undo=True),
        )
        assert isinstance(game, QuattroGame)
        return game

    report = random_sim_test(
        make,
        lambda g: registry.from_record(records.to_record(g)),
        CLASSIC_TOKENS,
        _secrets,
        lambda g, seat: g.view(seat).to_dict(),
        games=300,
        seed=4,
        check_every=0.03,
    )
    assert report.games == 300 and report.view_checks > 0
