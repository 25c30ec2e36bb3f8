"""The record and the analysis of a kept Quattro match (issue 37): the engine's own
matches entered turn by turn into the keeper (hands unknown) come back as records that
replay to the same piles, rounds and winners, their hands reconstructed (R1); a table the
rules cannot replay is refused with the reason; the analysis's best turn of a turn's
cards is legal and never worse than the turn played."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathable.ai.kept_analysis import analyse_kept_quattro, kept_analysis_report
from mathable.engine.notation import parse_placement
from mathable.engine.tokens import CLASSIC_TOKENS
from mathable.games import registry
from mathable.games.quattro.game import PILE_NAMES, QuattroGame, pile_accepts
from mathable.games.quattro.keeper import KeptQuattro
from mathable.games.quattro.keptrecord import KeptRecordError, kept_quattro_record
from support.kept import kept_quattro_copy, random_quattro


def test_nearly_every_kept_match_gets_its_record() -> None:
    """The reconstruction is a bounded search, not a complete one: over 120 engine
    matches (2-4 players, 1-3 rounds) at most 3 are refused (1 of 1,200 was, measured)."""
    refused = 0
    for seed in range(40):
        for players in (2, 3, 4):
            kept = kept_quattro_copy(random_quattro(seed, players, 1 + seed % 3))
            try:
                registry.kept_record(kept)
            except KeptRecordError:
                refused += 1
    assert refused <= 3


@pytest.mark.parametrize(("seed", "players"), [(193, 4), (203, 4), (248, 4), (280, 3), (304, 3)])
def test_the_search_finds_the_records_the_first_ways_missed(seed: int, players: int) -> None:
    """Five random matches whose cards neither of the first two ways could follow (the
    most constrained card played and discarded first, then the freest discarded): the
    search over the other choices finds a deal that replays them exactly."""
    game = random_quattro(seed, players, 1 + seed % 3)
    record = kept_quattro_record(kept_quattro_copy(game))
    replayed = registry.from_record(record)
    assert isinstance(replayed, QuattroGame)
    assert replayed.snapshot()[1] == game.snapshot()[1]  # every pile, card by card
    assert replayed.round_winners == game.round_winners and replayed.is_over == game.is_over


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), rounds=st.integers(1, 3))
def test_a_kept_match_replays_to_the_same_piles_rounds_and_winners(
    seed: int, players: int, rounds: int
) -> None:
    game = random_quattro(seed, players, rounds)
    kept = kept_quattro_copy(game)
    try:
        record = registry.kept_record(kept)
    except KeptRecordError as refused:  # the search found no deal (1 match in 1,200)
        assert "cannot be reconstructed" in str(refused)  # refused with its reason,
        return  # never a record that replays otherwise
    replayed = registry.from_record(record)
    assert isinstance(replayed, QuattroGame)
    assert replayed.snapshot()[1] == game.snapshot()[1]  # every pile, card by card
    assert list(replayed.scores) == list(game.scores) == kept.scores
    assert replayed.round_winners == game.round_winners
    assert replayed.is_over == game.is_over
    assert list(replayed.winners()) == list(game.winners())
    assert [s.notation for s in replayed.summaries()] == [
        t.notation.removeprefix("diago ") for t in kept.turns
    ]
    setup = record["setup"]
    cards = [c for hand in setup["hands"] for c in hand] + setup["piles"] + setup["reserve"]
    assert Counter(cards) == Counter(CLASSIC_TOKENS)  # the whole deck, reconstructed (Q1)


def test_the_record_of_a_worked_match_replays_and_says_its_result() -> None:
    kept = kept_quattro_copy(random_quattro(3, 2, 1))
    record = kept_quattro_record(kept)
    assert record["variant"] == "quattro" and record["rounds"] == 1
    assert record["result"]["scores"] == kept.scores
    assert registry.from_record(record).is_over


def test_a_table_the_rules_cannot_replay_is_refused_with_the_reason() -> None:
    kept = KeptQuattro(["Louis", "Zoé"], rounds=2)
    for entry in ("A=1 B=1 C=1 D=1", "A=2 A=3", "draw C=50 exchange", "A=4 A=5 A=4 A=3 A=2"):
        kept.play(entry)
    # Louis's turn ended on A=3 holding a 4, a 2 and a 3 that fitted: the rules (Q2)
    # would have had them played then
    with pytest.raises(KeptRecordError, match="would have been played earlier"):
        registry.kept_record(kept)


def test_no_record_before_the_cards_are_turned_up() -> None:
    with pytest.raises(KeptRecordError):
        kept_quattro_record(KeptQuattro(["Louis", "Zoé"]))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), rounds=st.integers(1, 2))
def test_the_best_turn_of_a_turns_cards_is_legal_and_never_worse(
    seed: int, players: int, rounds: int
) -> None:
    game = random_quattro(seed, players, rounds)
    kept = kept_quattro_copy(game)
    analysed = analyse_kept_quattro(kept)
    assert [t.number for t in analysed] == [n for n, t in enumerate(kept.turns, 1) if t.placements]
    starts = _tops_at_each_turn(game)
    for turn in analysed:
        made = game.turns[turn.number - 1]
        assert turn.best_points >= turn.points == len(made.plays) and turn.lost == 0
        words = turn.best.split()
        diagonals = words[0] == "diago" or _all_used_diago(kept, turn.number)
        tops = list(starts[turn.number - 1])
        played = []
        for word in words[1:] if words[0] == "diago" else words:
            place = parse_placement(word, PILE_NAMES)
            assert place.value in pile_accepts(tops, place.cell, diagonals)  # Q2, Q4
            tops[place.cell] = place.value
            played.append(place.value)
        assert Counter(played) <= Counter(v for _, v in made.plays)  # the turn's own cards
        assert len(played) == turn.best_points


def _tops_at_each_turn(game: QuattroGame) -> list[tuple[int, int, int, int]]:
    """The four tops at the start of each turn of ``game`` (replayed on a fresh copy)."""
    fresh = game.fresh()
    out: list[tuple[int, int, int, int]] = []
    for action in game.log:
        if fresh.phase == "play" and not fresh.turn_plays and len(out) == len(fresh.turns):
            out.append(fresh.tops)
        fresh.apply(action)
    return out


def _all_used_diago(kept: KeptQuattro, number: int) -> bool:
    """Q4: every player used DIAGO in this turn's round before the turn."""
    turn = kept.turns[number - 1]
    used = {t.seat for t in kept.turns[: number - 1] if t.round == turn.round and t.diago}
    return used == set(range(len(kept.players)))


def test_the_report_counts_cards_per_player() -> None:
    kept = kept_quattro_copy(random_quattro(5, 3, 1))
    report = kept_analysis_report(kept)
    assert report["unit"] == "cards"
    assert [p["player"] for p in report["players"]] == list(kept.players)
    played = sum(len(t.placements) for t in kept.turns)
    assert sum(p["points"] for p in report["players"]) == played
    assert all(p["lost"] == 0 for p in report["players"])
