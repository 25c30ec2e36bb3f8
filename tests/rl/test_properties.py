"""Properties of the environment over random games of every game of the registry: the
mask is the engine's legal actions, the codec is one-to-one on them, and an observation
never depends on what the seat may not see."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathable.engine.actions import Exchange, Pass, action_kind
from mathable.engine.protocol import Game
from mathable.games.registry import GAMES, new_game
from mathable.rl import MathableEnv, raw_env
from mathable.rl.observation import Observation

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

games = st.sampled_from(list(GAMES))
seeds = st.integers(0, 2**32)


def seats_of(name: str) -> st.SearchStrategy[int]:
    kind = GAMES[name]
    return st.integers(kind.min_players, kind.max_players)


def lively(chooser: random.Random) -> Callable[[Game], Any]:
    """A random legal player that mostly places, so games reach full boards (a uniform
    choice exchanges and passes: classic's 127 exchanges outnumber its placements)."""

    def choose(game: Game) -> Any:
        legal = game.legal_actions()
        placing = [a for a in legal if not isinstance(a, Exchange | Pass)]
        return chooser.choice(placing if placing and chooser.random() < 0.9 else legal)

    return choose


def walk(game: MathableEnv, seed: int, steps: int) -> None:
    """Play ``steps`` lively actions through the environment (fewer if the game ends)."""
    choose = lively(random.Random(seed))
    for _ in range(steps):
        if game.game.is_over:
            return
        action = choose(game.game)
        game.step(game.codec.encode(action, game.game.rack(game.game.to_move)))


@FAST
@given(data=st.data(), name=games, seed=seeds, steps=st.integers(0, 60))
def test_the_mask_is_the_engines_legal_actions_mapped_one_to_one(
    data: st.DataObject, name: str, seed: int, steps: int
) -> None:
    players = data.draw(seats_of(name))
    referee = data.draw(st.booleans()) and "table_referee" in GAMES[name].house_rules
    game = raw_env(name, players, house_rules={"table_referee": referee})
    game.reset(seed=seed)
    walk(game, seed, steps)
    if game.game.is_over:
        return
    seat = game.game.to_move
    legal = game.game.legal_actions()
    rack = game.game.rack(seat)
    indices = [game.codec.encode(a, rack) for a in legal]
    assert len(set(indices)) == len(legal)
    mask = game.observe(game.agent_selection)["action_mask"]
    assert set(np.flatnonzero(mask)) == set(indices)
    for action, index in zip(legal, indices, strict=True):
        assert game.codec.decode(index, rack) == action
        assert action_kind(action) in game.kind.actions
    for index in np.flatnonzero(mask)[:: max(1, len(indices) // 5)]:
        game.game.copy().play(seat, game.codec.decode(int(index), rack))  # the engine takes it


@FAST
@given(name=games, seed=seeds)
def test_lively_legal_play_always_ends_with_the_right_winners_and_rewards(
    name: str, seed: int
) -> None:
    game = raw_env(name, 2, reward="score")
    game.reset(seed=seed)
    walk(game, seed, 10_000)
    assert game.game.is_over and all(game.terminations.values())
    scores = game.game.scores
    rewards = [game._cumulative_rewards[a] for a in game.possible_agents]
    assert rewards == [scores[0] - scores[1], scores[1] - scores[0]]
    assert {s for s, r in enumerate(rewards) if r >= 0} == set(game.game.winners())


def dealt(name: str, players: int, seed: int, swap: int) -> Game:
    """The game ``seed`` deals, dealt again with seat 1's ``swap``-th piece traded for the
    first piece of another value in the bag: a deal that differs only in a hidden rack."""
    kind, game = GAMES[name], new_game(name, players, seed=seed)
    racks = [list(game.rack(s)) for s in range(players)]
    bag = list(game.bag_order())
    slot = swap % len(racks[1])
    other = next(i for i, v in enumerate(bag) if v != racks[1][slot])
    racks[1][slot], bag[other] = bag[other], racks[1][slot]
    if kind.surface == "piles":
        piles = [v for v in game.view(None).surface]
        setup = {"hands": racks, "piles": piles, "reserve": bag, "to_move": game.to_move}
    else:
        setup = {"racks": racks, "bag": bag, "to_move": game.to_move}
    return new_game(name, players, setup=setup)


def observed(game: Game, seat: int) -> Observation:
    holder = raw_env(game.name, len(game.players))
    holder.reset(seed=0)
    holder.game = game
    return holder.observe(holder.possible_agents[seat])


@FAST
@given(
    name=st.sampled_from([n for n, k in GAMES.items() if not k.open_racks]),
    seed=seeds,
    swap=st.integers(0, 10),
)
def test_observations_hide_the_other_racks(name: str, seed: int, swap: int) -> None:
    one, other = dealt(name, 2, seed, 0), dealt(name, 2, seed, swap + 1)
    if one.rack(1) == other.rack(1):
        return  # the trade gave the same rack back: nothing to compare
    assert one.rack(0) == other.rack(0)
    a, b = observed(one, 0), observed(other, 0)
    assert a.keys() == b.keys()
    for key in a:
        assert np.array_equal(a[key], b[key]), key
    assert not np.array_equal(observed(one, 1)["rack"], observed(other, 1)["rack"])


@FAST
@given(name=games, seed=seeds, steps=st.integers(0, 40))
def test_every_observation_lies_in_the_observation_space(name: str, seed: int, steps: int) -> None:
    game = raw_env(name, GAMES[name].max_players)
    game.reset(seed=seed)
    walk(game, seed, steps)
    space = game.observation_space(game.agent_selection)
    for agent in game.agents:
        seen = game.observe(agent)
        assert space.contains(seen), agent
        assert seen["scores"][0] == game.game.scores[game.possible_agents.index(agent)]
