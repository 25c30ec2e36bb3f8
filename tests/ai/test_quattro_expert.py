"""Quattro's own expert (issue 35): rounds judged by simulation on sampled deals. Its
decisions come from the seed alone, its turns are legal in any match, its counted
budgets are respected and a bad one refused by name, its simulated rounds play as the
strong player plays the real game, and the ladder no longer calls it the strong player."""

from __future__ import annotations

import logging
import random
import time
from collections import Counter
from typing import Any, cast

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mathable.ai import get_bot, plays_as, same_player_note
from mathable.ai import quattro_expert as quattro_expert_module
from mathable.ai.arena import play_game
from mathable.ai.ladder import same_player
from mathable.ai.quattro import longest_chain, plays_from, strong_plan
from mathable.ai.quattro_expert import sampled_round, turn_endings
from mathable.ai.quattro_inference import hand_clues, turn_start
from mathable.ai.quattro_levels import QuattroExpertBot, QuattroMasterBot
from mathable.ai.quattro_sim import Round
from mathable.engine.tokens import CLASSIC_TOKENS
from mathable.games.quattro.game import QuattroGame, QuattroSetup
from mathable.games.quattro.view import PilesView
from mathable.games.registry import new_game

QUICK = "expert:quattro_samples=4,quattro_candidates=3,cap_ms=none"
"""The expert with a short Quattro budget for tests, and no clock in its decisions."""
DECK = sorted(v for v, n in CLASSIC_TOKENS.items() for _ in range(n))


def _view(game: Any) -> PilesView:
    """The view of the seat to move (a Quattro game's views are piles views)."""
    return cast(PilesView, game.view(game.to_move, explained=False))


def _views_of_a_match(seed: int, players: int = 2, rounds: int = 1) -> list[PilesView]:
    """The views the seats to move see through a match of quick experts and greedy."""
    game = new_game("quattro", players, seed=seed, rounds=rounds)
    bots = [get_bot(QUICK if s % 2 == 0 else "greedy", seed + s) for s in range(players)]
    views = []
    while not game.is_over:
        view = _view(game)
        views.append(view)
        game.apply(bots[game.to_move].act(view))
    return views


def test_the_expert_and_the_master_are_their_own_players_in_quattro_only() -> None:
    for level in ("expert", "master"):
        assert plays_as(level, "quattro") == level
        assert same_player_note(level, "quattro") is None
        assert plays_as(level, "junior-numbers") == "strong"  # K2: nothing to simulate
    assert not same_player("quattro", "strong", "expert")
    assert not same_player("quattro", "expert", "master")
    assert isinstance(get_bot("expert"), QuattroExpertBot)
    assert isinstance(get_bot("master"), QuattroMasterBot)


def test_the_master_has_larger_quattro_budgets_than_the_expert() -> None:
    expert, master = get_bot("expert"), get_bot("master")
    assert isinstance(expert, QuattroExpertBot) and isinstance(master, QuattroMasterBot)
    assert master.quattro.budget.samples > expert.quattro.budget.samples
    assert master.quattro.budget.candidates >= expert.quattro.budget.candidates


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        ("expert:quattro_samples=-1", "quattro_samples=-1"),
        ("expert:quattro_candidates=0", "quattro_candidates=0"),
        ("master:quattro_horizon=-2", "quattro_horizon=-2"),
        ("expert:quattro_nodes=0", "quattro_nodes=0"),
    ],
)
def test_a_bad_quattro_budget_is_refused_by_its_name(spec: str, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        get_bot(spec)


def test_a_quattro_budget_is_read_as_a_number_and_kept() -> None:
    bot = get_bot(
        "expert:quattro_samples=7,quattro_candidates=2,quattro_horizon=3,quattro_nodes=50,"
        "quattro_infer=no,cap_ms=none"
    )
    assert isinstance(bot, QuattroExpertBot)
    budget = bot.quattro.budget
    assert (budget.samples, budget.candidates, budget.horizon) == (7, 2, 3)
    assert (budget.nodes, budget.infer, budget.cap_ms) == (50, False, None)
    with pytest.raises(ValueError, match="quattro_samples=many: expected int"):
        get_bot("expert:quattro_samples=many")


def test_the_same_seed_plays_the_same_match() -> None:
    """Two matches from one seed, the experts made afresh: the same record."""
    first = play_game([QUICK, "strong"], "quattro", 31, keep_record=True).record
    again = play_game([QUICK, "strong"], "quattro", 31, keep_record=True).record
    assert first is not None and again is not None
    assert first["actions"] == again["actions"]


@pytest.mark.parametrize(
    ("settings", "per_decision"),
    [("quattro_samples=5,quattro_nodes=10000000", 5), ("quattro_samples=5,quattro_nodes=1", 1)],
)
def test_each_decision_plays_out_exactly_its_counted_budget(
    monkeypatch: pytest.MonkeyPatch, settings: str, per_decision: int
) -> None:
    """Every judged decision deals ``quattro_samples`` rounds, never more nor fewer, or
    stops after the deal that spent its ``quattro_nodes``; no decision is
    judged with one candidate alone."""
    dealt: list[int] = []
    judged: list[int] = []
    real_deal, real_judge = sampled_round, quattro_expert_module.QuattroExpert.judge

    def counting_deal(view: PilesView, rng: random.Random, infer: bool) -> Round:
        dealt.append(1)
        return real_deal(view, rng, infer)

    def counting_judge(self: Any, view: PilesView, candidates: Any, rng: random.Random) -> int:
        assert 1 < len(candidates) <= 3
        judged.append(1)
        return real_judge(self, view, candidates, rng)

    monkeypatch.setattr(quattro_expert_module, "sampled_round", counting_deal)
    monkeypatch.setattr(quattro_expert_module.QuattroExpert, "judge", counting_judge)
    spec = f"expert:{settings},quattro_candidates=3,cap_ms=none"
    play_game([spec, "strong"], "quattro", 8)
    assert judged and len(dealt) == per_decision * len(judged)


@pytest.mark.parametrize("seed", [3, 17])
def test_with_no_samples_it_plays_as_the_strong_player(seed: int) -> None:
    game = new_game("quattro", 2, seed=seed)
    bots = [get_bot("expert:quattro_samples=0", seed), get_bot("strong", seed)]
    while not game.is_over:
        view = _view(game)
        action = bots[game.to_move].act(view)
        if game.to_move == 0:
            assert action == strong_plan(view)[0]
        game.apply(action)


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 4),
    rounds=st.sampled_from([1, 2]),
)
def test_every_action_of_the_expert_is_legal(seed: int, players: int, rounds: int) -> None:
    """Matches of 2-4 seats and 1-2 rounds end, the expert's every action accepted
    (apply raises otherwise)."""
    views = _views_of_a_match(seed, players, rounds)
    assert views and any(v.seat == 0 for v in views)


def test_the_cap_when_it_bites_still_plays_and_is_logged_and_counted(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A clock that moves a second a reading and a 1 ms cap: each judged decision stops
    at once, plays its strong choice (nothing judged), says so and counts it."""
    clock = iter(range(10**9))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(clock)))
    expert = get_bot("expert:cap_ms=1", 5)
    game = new_game("quattro", 2, seed=5)
    with caplog.at_level(logging.WARNING, logger="mathable.ai.quattro_expert"):
        while not game.is_over:
            view = _view(game)
            action = expert.act(view) if game.to_move == 0 else strong_plan(view)[0]
            if game.to_move == 0 and view.phase != "play":
                assert action == strong_plan(view)[0]
            game.apply(action)
    assert isinstance(expert, QuattroExpertBot) and expert.capped >= 1
    assert expert.capped == len(caplog.records)
    assert "expert (seat 0, Quattro)" in caplog.records[0].getMessage()
    assert "1 ms" in caplog.records[0].getMessage()


# -- the parts -------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    tops=st.lists(st.sampled_from(sorted(CLASSIC_TOKENS)), min_size=4, max_size=4),
    hand=st.lists(st.sampled_from(DECK), min_size=1, max_size=9),
    diagonals=st.booleans(),
)
def test_every_ending_of_a_turn_is_legal_and_stuck_and_the_longest_is_strongs(
    tops: list[int], hand: list[int], diagonals: bool
) -> None:
    hand.sort()
    endings = turn_endings(tuple(tops), tuple(hand), diagonals, 100_000)
    finals = set()
    for chain in endings:
        now, left = list(tops), list(hand)
        for pile, value in chain:
            assert any(
                p.cell == pile and p.value == value for p in plays_from(now, left, diagonals)
            )
            now[pile] = value
            left.remove(value)
        assert not plays_from(now, left, diagonals)  # Q2: the turn ends only when stuck
        finals.add((tuple(now), tuple(left)))
    assert len(finals) == len(endings)
    longest = longest_chain(tuple(tops), tuple(hand), diagonals, [100_000])
    assert (len(endings[0]) if endings else 0) == len(longest)


@pytest.mark.parametrize("seed", [1, 2, 9])
def test_a_sampled_round_agrees_with_what_the_view_shows(seed: int) -> None:
    views = [v for v in _views_of_a_match(seed, 3) if v.seat == 0][:6]
    for view in views:
        deal = sampled_round(view, random.Random(seed))
        assert deal.hands[0] == list(view.rack) and deal.tops == list(view.tops)
        assert [len(h) for h in deal.hands] == list(view.rack_sizes)
        assert len(deal.reserve) == view.bag_size
        hidden = Counter(c for h in deal.hands[1:] for c in h) + Counter(deal.reserve)
        assert not hidden - Counter(view.unseen)  # dealt from the unseen cards only
        assert len(deal.bodies) == sum(view.pile_sizes) - 4
        everything = Counter(deal.bodies) + Counter(view.unseen) + Counter(view.rack)
        drawn = Counter([] if view.drawn is None else [view.drawn])
        assert everything + Counter(view.tops) + drawn == Counter(CLASSIC_TOKENS)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4))
@example(seed=1058, players=4)  # the reserve rebuilt inside a draw: never seen empty
@example(seed=292847, players=2)  # a round of 45 turns, past play_out's MAX_TURNS
def test_a_simulated_round_plays_as_strong_players_play_the_real_one(
    seed: int, players: int
) -> None:
    """From a known deal, the simulation and the engine with strong players give the
    same winners and hands, while the reserve lasts (its rebuilt order is sampled)."""
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    hands = tuple(tuple(sorted(deck[7 * s : 7 * s + 7])) for s in range(players))
    piles = tuple(deck[7 * players : 7 * players + 4])
    reserve = tuple(deck[7 * players + 4 :])
    setup = QuattroSetup(hands, (piles[0], piles[1], piles[2], piles[3]), reserve)
    game = QuattroGame(players, seed=seed, setup=setup)
    strong = get_bot("strong", seed)
    while not game.is_over:
        before = game.bag_size
        game.apply(strong.act(game.view(game.to_move, explained=False)))
        if game.bag_size == 0 or game.bag_size > before:  # empty, or rebuilt by a draw
            return  # the engine rebuilds its reserve in an order the simulation samples
    simulated = Round(piles, hands, list(reversed(reserve)), [], set(), 0)
    found = None
    for _ in range(1000):  # the whole round (play_out estimates after MAX_TURNS turns)
        found = simulated.strong_turn()
        if found is not None:
            break
    assert found is not None
    share = 1 / len(found) if 0 in found else 0.0
    winners = [s for s, wins in enumerate(game.scores) if wins]
    assert share == (1 / len(winners) if 0 in winners else 0.0)
    assert [sorted(h) for h in simulated.hands] == [sorted(game.rack(s)) for s in range(players)]
    assert simulated.tops == list(game.view(0).tops)


@pytest.mark.parametrize(("players", "rounds"), [(2, 1), (3, 2), (4, 1)])
def test_what_a_last_turn_says_of_a_hand_is_true_of_the_hand_held(
    players: int, rounds: int
) -> None:
    """Through strong players' matches, every clue the expert reads from an opponent's
    last turn holds for that opponent's real hand: at most ``free`` of its cards fit
    the piles the turn left (or found, when it was stuck)."""
    clues_seen = 0
    for seed in range(6):
        game = new_game("quattro", players, seed=seed, rounds=rounds)
        bots = [get_bot("strong", seed + s) for s in range(players)]
        while not game.is_over:
            view = _view(game)
            for seat, clue in hand_clues(view).items():
                assert seat != view.seat
                assert sum(clue.fits(card) for card in game.rack(seat)) <= clue.free
                clues_seen += 1
            game.apply(bots[game.to_move].act(view))
    assert clues_seen > 20


@pytest.mark.parametrize("seed", [4, 12])
def test_an_expert_made_afresh_for_every_action_plays_as_one_kept_all_match(seed: int) -> None:
    """As a server's worker pool may make a player for each action: mid-turn it decides
    from the turn's start, rebuilt from the view, so it follows the same plan."""
    games = []
    for kept in (True, False):
        game = new_game("quattro", 2, seed=seed)
        bot = get_bot(QUICK, seed)
        actions = []
        while not game.is_over:
            view = _view(game)
            if game.to_move == 0:
                action = (bot if kept else get_bot(QUICK, seed)).act(view)
            else:
                action = strong_plan(view)[0]
            actions.append(action)
            game.apply(action)
        games.append(actions)
    assert games[0] == games[1]


def test_the_start_of_a_turn_is_rebuilt_from_a_view_mid_turn() -> None:
    """Every mid-turn view of strong players' matches, rebuilt to its turn's start,
    shows what the view at that start showed (where its tops can be known)."""
    rebuilt = 0
    for seed in range(8):
        game = new_game("quattro", 3, seed=seed)
        bots = [get_bot("strong", seed + s) for s in range(3)]
        at_start: PilesView | None = None
        while not game.is_over:
            view = _view(game)
            if at_start is None or len(at_start.turns) != len(view.turns):
                at_start = view  # a new turn's first view
            start = turn_start(view)
            if start is not None:
                assert at_start is not None
                for field in ("tops", "rack", "rack_sizes", "diagonals", "diago_used"):
                    assert getattr(start, field) == getattr(at_start, field), field
                assert (start.pile_sizes, start.unseen) == (at_start.pile_sizes, at_start.unseen)
                rebuilt += 1
            game.apply(bots[game.to_move].act(view))
    assert rebuilt > 10


def _longest_by_brute_force(tops: list[int], hand: list[int], diagonals: bool) -> int:
    """The longest chain's length, every order of plays tried (no memo, no budget)."""
    best = 0
    for play in plays_from(tops, hand, diagonals):
        now, left = list(tops), list(hand)
        now[play.cell] = play.value
        left.remove(play.value)
        best = max(best, 1 + _longest_by_brute_force(now, left, diagonals))
    return best


@settings(max_examples=60, deadline=None)
@given(
    tops=st.lists(st.sampled_from(DECK), min_size=4, max_size=4),
    hand=st.lists(st.sampled_from(DECK), min_size=1, max_size=6),
    diagonals=st.booleans(),
)
def test_the_chain_search_finds_a_longest_legal_chain(
    tops: list[int], hand: list[int], diagonals: bool
) -> None:
    """Strong's chain search (compiled or not: :mod:`mathable.ai.quattro_chain`) plays
    legally and as long as any order of the hand's plays can, given room to search."""
    budget = [100_000]
    chain = longest_chain(tuple(tops), tuple(hand), diagonals, budget)
    now, left = list(tops), list(hand)
    for play in chain:
        assert play in plays_from(now, left, diagonals)
        now[play.cell] = play.value
        left.remove(play.value)
    assert len(chain) == _longest_by_brute_force(tops, hand, diagonals)
    assert 0 < budget[0] <= 100_000
