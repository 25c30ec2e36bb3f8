"""Every game of the registry as a PettingZoo AEC environment (issue 36).

One class for all games: the action space comes from the game's type
(:mod:`.codec`), the observation from a seat's view (:mod:`.observation`), the rules and
who is to move from the game protocol (``legal_actions``, ``play``, ``view``, ``scores``,
``winners``). A turn-based game is an AEC environment, as PettingZoo's chess and go are;
there is no parallel one (only one seat acts at a time).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from mathable.engine.actions import Action
from mathable.engine.protocol import Game, HouseRules
from mathable.games.registry import game_type, new_game

from .codec import ActionCodec
from .observation import Layout, Observation, observation_space, observe
from .text import game_text

RewardMode = Literal["score", "turn", "win"]
REWARDS: tuple[RewardMode, ...] = ("score", "turn", "win")
"""The reward options:

- ``score`` (the default): nothing until the end, then each seat's score minus the best
  score among the other seats (two players: the score difference; positive for the sole
  winner, 0 on a tie for first);
- ``turn``: after every step, each seat's change of score (the points of a turn when it
  is scored, the deductions at the end, C11): a game's rewards add up to its scores;
- ``win``: nothing until the end, then 1 for the sole winner, 0 for seats tied for
  first, -1 for the others.
"""


class IllegalAction(ValueError):
    """A step with an action the engine would refuse now (its mask entry is 0)."""


def _agent(seat: int) -> str:
    return f"player_{seat}"


class MathableEnv(AECEnv):  # type: ignore[misc]
    """A game of the registry (``variant``) for ``players`` seats, agents ``player_0``…

    ``reset(seed=s)`` deals the same game for the same ``s``; ``reset()`` deals the next
    game of the sequence the last seed began (the constructor's ``seed``, or fresh
    entropy). ``reward`` is one of :data:`REWARDS`; ``max_steps`` truncates every seat
    after that many steps (games end by their own rules; this is for budgets);
    ``house_rules`` as the game offers them (``{"table_referee": True}``).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "mathable_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "classic",
        players: int = 2,
        seed: int | None = None,
        *,
        reward: RewardMode = "score",
        render_mode: str | None = None,
        house_rules: Mapping[str, bool] | None = None,
        max_steps: int | None = None,
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be ansi, human or None, not {render_mode!r}")
        self.kind = game_type(variant)
        self.house_rules = HouseRules.from_dict(house_rules or {})
        self.reward_mode: RewardMode = reward
        self.render_mode = render_mode
        self.max_steps = max_steps
        probe = new_game(variant, players, seed=0, house_rules=self.house_rules)
        census = probe.census()
        self.codec = ActionCodec.of(self.kind, census)
        self.layout = Layout.of(self.kind, census, players, self.codec.size)
        self.possible_agents = [_agent(s) for s in range(players)]
        self._observation_space = observation_space(self.layout)
        self._action_space = spaces.Discrete(self.codec.size)
        self._seeds = random.Random(seed)
        self.game: Game = probe
        self._legal: tuple[Game | None, int, dict[int, Action]] = (None, -1, {})
        self._steps = 0

    # -- spaces -------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        """The same ``Dict`` space for every agent (see :func:`.observation_space`)."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        """The same ``Discrete`` space for every agent (see :mod:`.codec`)."""
        return self._action_space

    # -- the game -------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: ``seed`` starts a new reproducible sequence of games."""
        if seed is not None:
            self._seeds = random.Random(seed)
        players = len(self.possible_agents)
        self.game = new_game(
            self.kind.name,
            players,
            seed=self._seeds.getrandbits(63),
            house_rules=self.house_rules,
        )
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = _agent(self.game.to_move)
        self._steps = 0

    def legal(self) -> dict[int, Action]:
        """The legal actions of the seat to move, by index (kept until the game moves)."""
        game, moved = self.game, len(self.game.log)
        if self._legal[0] is not game or self._legal[1] != moved:
            rack = game.rack(game.to_move)
            found = {self.codec.encode(a, rack): a for a in game.legal_actions()}
            self._legal = (game, moved, found)
        return self._legal[2]

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """1 for each action ``agent`` may take now (all 0 when it may take none)."""
        mask = np.zeros(self.codec.size, dtype=np.int8)
        if not self.game.is_over and agent == _agent(self.game.to_move):
            mask[list(self.legal())] = 1
        return mask

    def observe(self, agent: str) -> Observation:
        """What ``agent`` may know (its view) as arrays, with its action mask."""
        seat = self.possible_agents.index(agent)
        view = self.game.view(seat, explained=False)
        return observe(self.layout, view, self.action_mask(agent))

    def step(self, action: int | np.integer[Any] | None) -> None:
        """The selected agent plays ``action`` (an index of the action space); raises
        :class:`IllegalAction` naming it when the engine would refuse it now."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} must act: None is only for a finished agent")
        index = int(action)
        legal = self.legal()
        if index not in legal:
            raise IllegalAction(
                f"{agent} may not take action {index} ({self.codec.describe(index)}) now: "
                f"{len(legal)} actions are legal, see the observation's action_mask"
            )
        before = self.game.scores
        self.game.play(self.possible_agents.index(agent), legal[index])
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = self._rewards(before)
        if self.game.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_steps is not None and self._steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = _agent(self.game.to_move)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _rewards(self, before: tuple[int, ...]) -> dict[str, float]:
        """Each agent's reward for the step just played, by :attr:`reward_mode`."""
        scores = self.game.scores
        if self.reward_mode == "turn":
            return {a: float(scores[s] - before[s]) for s, a in enumerate(self.agents)}
        if not self.game.is_over:
            return dict.fromkeys(self.agents, 0.0)
        return {
            a: float(r)
            for a, r in zip(
                self.possible_agents, final_rewards(self.game, self.reward_mode), strict=True
            )
        }

    # -- showing it -------------------------------------------------------------------------

    def render(self) -> str | None:
        """The game as text (the surface, scores, bag and the mover's rack): returned for
        ``render_mode="ansi"``, printed for ``"human"``."""
        if self.render_mode is None:
            return None
        view = self.game.view(None, explained=False)
        text = game_text(self.kind, view, self.game.rack(self.game.to_move))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: a game is plain Python objects."""


def final_rewards(game: Game, mode: RewardMode = "score") -> tuple[int, ...]:
    """Each seat's reward at the end of ``game`` for the ``score`` or ``win`` modes (see
    :data:`REWARDS`); zeros while it runs."""
    if not game.is_over:
        return tuple(0 for _ in game.players)
    scores = game.scores
    if mode == "win":
        won = game.winners()
        return tuple((1 if len(won) == 1 else 0) if s in won else -1 for s in range(len(scores)))
    return tuple(
        score - max(other for o, other in enumerate(scores) if o != seat)
        for seat, score in enumerate(scores)
    )


def raw_env(
    variant: str = "classic", players: int = 2, seed: int | None = None, **options: Any
) -> MathableEnv:
    """The environment without wrappers (see :class:`MathableEnv` for the options)."""
    return MathableEnv(variant, players, seed, **options)


def env(variant: str = "classic", players: int = 2, seed: int | None = None, **options: Any) -> Any:
    """The environment as PettingZoo's classic games come: wrapped so that acting before
    ``reset`` or observing a missing agent is refused (``OrderEnforcingWrapper``)."""
    return wrappers.OrderEnforcingWrapper(raw_env(variant, players, seed, **options))
