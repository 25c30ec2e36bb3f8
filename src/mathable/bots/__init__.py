"""Computer players, from gentle to very strong. Each decides from a player's view only.

>>> sorted(BOTS)[:2]
['gentle', 'greedy']
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, board_from_view
from .simple import GentleBot, GreedyBot

BOTS: dict[str, tuple[Callable[[int | None], Bot], str]] = {
    "gentle": (GentleBot, GentleBot.__doc__.split("\n")[0] if GentleBot.__doc__ else ""),
    "greedy": (GreedyBot, GreedyBot.__doc__.split("\n")[0] if GreedyBot.__doc__ else ""),
}
"""The ladder, weakest first: name -> (factory taking a seed, one-line description)."""


def get_bot(name: str, seed: int | None = None) -> Bot:
    """The bot called ``name``; raises ValueError listing the known ones."""
    try:
        factory, _ = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOTS)})") from None
    return factory(seed)


__all__ = ["BOTS", "Bot", "GentleBot", "GreedyBot", "board_from_view", "get_bot"]
