"""Mathable for reinforcement learning: every game of the registry as a PettingZoo AEC
environment (issue 36; ``pip install mathable[rl]``; docs/rl.md).

>>> from mathable.rl import env
>>> game = env("junior", players=2, seed=1)
>>> game.reset(seed=1)
>>> observation, reward, terminated, truncated, info = game.last()
>>> int(observation["action_mask"].sum()) > 0, game.agent_selection in game.agents
(True, True)
"""

from .codec import ActionCodec, UnencodableAction
from .env import REWARDS, IllegalAction, MathableEnv, env, final_rewards, raw_env

__all__ = [
    "REWARDS",
    "ActionCodec",
    "IllegalAction",
    "MathableEnv",
    "UnencodableAction",
    "env",
    "final_rewards",
    "raw_env",
]
