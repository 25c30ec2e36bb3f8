"""Computer players, from gentle to very strong. Each decides from a player's view only.

>>> sorted(BOTS)[:2]
['gentle', 'greedy']
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, board_from_view
from .simple import GentleBot, GreedyBot
from .strong import ExpertBot, StrongBot


def _describe(kind: type) -> str:
    """The first sentence of a bot's docstring: what a player should expect of it."""
    text = " ".join((kind.__doc__ or "").split())
    return text.split(". ")[0].rstrip(".") + "."


BOTS: dict[str, tuple[Callable[[int | None], Bot], str]] = {
    kind.name: (kind, _describe(kind)) for kind in (GentleBot, GreedyBot, StrongBot, ExpertBot)
}
"""The ladder, weakest first: name -> (factory taking a seed, one-line description)."""


def get_bot(name: str, seed: int | None = None) -> Bot:
    """The bot called ``name``; raises ValueError listing the known ones."""
    try:
        factory, _ = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOTS)})") from None
    return factory(seed)


__all__ = [
    "BOTS",
    "Bot",
    "ExpertBot",
    "GentleBot",
    "GreedyBot",
    "StrongBot",
    "board_from_view",
    "get_bot",
]
