"""The PettingZoo environment (issue 36) for every game of the registry: PettingZoo's own
API and seed tests, an illegal step refused by name, rewards as documented, text render."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from mathable.engine.actions import EndTurn, Place
from mathable.games.registry import GAMES
from mathable.rl import IllegalAction, MathableEnv, env, final_rewards, raw_env

NAMES = list(GAMES)
SEATS = [(name, n) for name, kind in GAMES.items() for n in (2, kind.max_players)]


def play_out(game: MathableEnv, seed: int) -> dict[str, float]:
    """Random legal play to the end; the rewards each agent was handed by ``last()``."""
    chooser = random.Random(seed)
    handed = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter(100_000):
        observation, reward, terminated, truncated, _ = game.last()
        handed[agent] += reward
        if terminated or truncated:
            game.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        game.step(int(chooser.choice(legal)))
    assert not game.agents, "the game did not end"
    return handed


@pytest.mark.parametrize(("name", "players"), SEATS)
def test_pettingzoo_api_test_passes(name: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's advice on Dict spaces, not errors
        api_test(env(name, players, seed=3, render_mode="ansi"), num_cycles=300)


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_seed_test_passes(name: str) -> None:
    seed_test(lambda: env(name, 2), num_cycles=300)


@pytest.mark.parametrize("name", NAMES)
def test_the_same_seed_deals_the_same_games(name: str) -> None:
    def first_observations(seed: int) -> list[Any]:
        game = raw_env(name, 2)
        game.reset(seed=seed)
        seen = [game.observe(game.agent_selection)]
        game.reset()  # the next game of the sequence the seed began
        seen.append(game.observe(game.agent_selection))
        return seen

    one, again, other = first_observations(7), first_observations(7), first_observations(8)
    for a, b in zip(one, again, strict=True):
        assert all(np.array_equal(a[k], b[k]) for k in a)
    assert any(not np.array_equal(one[0][k], other[0][k]) for k in one[0])
    assert any(not np.array_equal(one[0][k], one[1][k]) for k in one[0])


@pytest.mark.parametrize("name", NAMES)
def test_an_illegal_step_is_refused_naming_the_action(name: str) -> None:
    game = raw_env(name, 2, seed=1)
    game.reset(seed=1)
    mask = game.observe(game.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    log = game.game.log
    with pytest.raises(IllegalAction, match=rf"action {illegal} \(.+\)"):
        game.step(illegal)
    with pytest.raises(IllegalAction, match="outside"):
        game.step(game.codec.size)
    assert game.game.log == log


def test_only_the_seat_to_move_has_legal_actions() -> None:
    game = raw_env("classic", 3, seed=2)
    game.reset(seed=2)
    masks = {a: game.observe(a)["action_mask"] for a in game.agents}
    assert [a for a, m in masks.items() if m.any()] == [game.agent_selection]


@pytest.mark.parametrize(("name", "players"), SEATS)
def test_score_rewards_are_the_difference_to_the_best_other_at_the_end(
    name: str, players: int
) -> None:
    game = raw_env(name, players)
    game.reset(seed=11)
    handed = play_out(game, 11)
    scores = game.game.scores
    for seat, agent in enumerate(game.possible_agents):
        best_other = max(s for o, s in enumerate(scores) if o != seat)
        assert handed[agent] == scores[seat] - best_other
        assert (handed[agent] >= 0) == (seat in game.game.winners())


@pytest.mark.parametrize("name", NAMES)
def test_turn_rewards_add_up_to_the_scores(name: str) -> None:
    game = raw_env(name, 2, reward="turn")
    game.reset(seed=5)
    handed = play_out(game, 5)
    assert [handed[a] for a in game.possible_agents] == list(game.game.scores)


@pytest.mark.parametrize("name", NAMES)
def test_win_rewards_are_one_for_the_sole_winner(name: str) -> None:
    game = raw_env(name, 2, reward="win")
    game.reset(seed=6)
    handed = play_out(game, 6)
    winners = game.game.winners()
    assert list(handed.values()) == list(final_rewards(game.game, "win"))
    if len(winners) == 1:
        assert sorted(handed.values()) == [-1.0, 1.0]
        assert handed[f"player_{winners[0]}"] == 1.0
    else:
        assert list(handed.values()) == [0.0, 0.0]


def test_max_steps_truncates_every_seat() -> None:
    game = raw_env("quattro", 2, max_steps=3)
    game.reset(seed=1)
    steps = 0
    for _ in game.agent_iter(100):
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            assert truncated and not terminated
            game.step(None)
            continue
        game.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps == 3 and not game.agents


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="reward must be one of"):
        raw_env("classic", reward="points")
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("classic", render_mode="rgb_array")
    with pytest.raises(ValueError, match="unknown game"):
        raw_env("chess")
    with pytest.raises(ValueError, match="players"):
        raw_env("classic", 5)


@pytest.mark.parametrize("name", NAMES)
def test_render_shows_the_surface_scores_and_the_movers_rack(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    game = raw_env(name, 2, seed=4, render_mode="ansi")
    game.reset(seed=4)
    text = game.render()
    assert text is not None
    rack = " ".join(map(str, game.game.rack(game.game.to_move)))
    assert f"{game.agent_selection} to move, rack: {rack}" in text
    assert "scores: player_0" in text
    first_target = GAMES[name].targets[0].name
    assert first_target[0] in text.splitlines()[1]
    human = raw_env(name, 2, render_mode="human")
    human.reset(seed=4)
    assert human.render() is None
    assert capsys.readouterr().out.strip() == text
    assert raw_env(name, 2).render() is None


def test_a_table_referee_game_offers_the_challenge_of_an_illegal_turn() -> None:
    game = raw_env("classic", 2, house_rules={"table_referee": True})
    start, _ = game.codec.blocks()["challenge"]
    game.reset(seed=3)
    seat = game.game.to_move
    value = game.game.rack(seat)[-1]
    game.game.play(seat, Place(0, value))  # A1, far from any token: stands until challenged
    game.game.play(seat, EndTurn())
    game.agent_selection = f"player_{game.game.to_move}"  # played past the environment
    assert game.observe(game.agent_selection)["action_mask"][start] == 1
    game.step(start)
    assert game.game.view(None).surface[0] == -1  # the placement is taken back
