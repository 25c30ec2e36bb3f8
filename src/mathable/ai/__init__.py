"""Computer players, from gentle to very strong. Each decides from a player's view only.

The package by concern: ``families`` (which family a view belongs to, by its game's
surface), ``search`` (the board's exact turn search), ``evaluation`` (leave value,
expected reply, ranking of plans), ``simulation`` (the expert's continuations),
``quattro`` (the card search), ``simple`` and ``strong`` (the rungs of the ladder),
``hints`` (one hint search per family), ``analysis`` (every game, after the fact) and
``arena`` (bots against bots). This module is the ladder.

>>> list(BOTS)
['gentle', 'greedy', 'strong', 'expert']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from .base import Bot, FamilyBot, board_from_view
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


def bot_player_id(level: str) -> str:
    """A computer level as a player (the server's players, seats, ratings, histories):
    ``bot-strong``."""
    return f"bot-{level}"


def level_of_player(player_id: str) -> str | None:
    """The computer level a player id stands for (None: a person)."""
    level = player_id.removeprefix("bot-")
    return level if level != player_id and level in BOTS else None


QUICK_LEVELS = ("gentle", "greedy")
"""Levels that answer in milliseconds whatever the position."""
LOW_TIME_MS = 20_000
"""On a clock with less than this left, a slower level plays as greedy (:func:`in_time`)."""


def in_time(level: str, left_ms: int | None) -> str:
    """The level a computer player plays its next action at, with ``left_ms`` on its clock
    (None: no clock): its own, but greedy -- milliseconds a turn -- once a searching
    level's clock is low, as a person plays faster in time trouble. So a computer player
    moves within its own time, whatever its search would cost in a long endgame."""
    if left_ms is None or left_ms >= LOW_TIME_MS or level in QUICK_LEVELS:
        return level
    return "greedy"


SEAT_BOT = re.compile(r"bot:([a-z]+)")


def seat_levels(names: Sequence[str]) -> dict[int, str]:
    """The computer levels of a game's seats whose name holds ``bot:LEVEL``
    (``bot:greedy``, ``Bob [bot:strong]``), as the terminal games and records name them
    (a record's ``bots`` field is written from it)."""
    levels: dict[int, str] = {}
    for seat, name in enumerate(names):
        match = SEAT_BOT.search(name.lower())
        if match:
            levels[seat] = match.group(1)
    return levels


def seat_bots(
    names: Sequence[str], seed: int | None = None, levels: Mapping[int, str] | None = None
) -> dict[int, Bot]:
    """The computer players of a game by seat: named so (:func:`seat_levels`), or
    given in ``levels`` (a record's ``bots``)."""
    return {
        seat: get_bot(level, None if seed is None else seed + seat)
        for seat, level in sorted({**seat_levels(names), **(levels or {})}.items())
    }


__all__ = [
    "BOTS",
    "Bot",
    "ExpertBot",
    "FamilyBot",
    "GentleBot",
    "GreedyBot",
    "StrongBot",
    "board_from_view",
    "get_bot",
    "seat_bots",
    "seat_levels",
]
