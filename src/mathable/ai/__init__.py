"""Computer players, from gentle to very strong. Each decides from a player's view only.

The package by concern: ``families`` (which family a view belongs to, by its game's
surface), ``search`` (the board's exact turn search), ``evaluation`` (leave value,
expected reply, ranking of plans), ``simulation`` (the expert's continuations),
``quattro`` (the card search), ``simple``, ``strong`` and ``master`` (the rungs of the ladder),
``hints`` (one hint search per family), ``analysis`` (every game, after the fact) and
``arena`` (bots against bots). This module is the ladder.

>>> list(BOTS)
['gentle', 'greedy', 'strong', 'expert', 'master']
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from mathable.i18n import Text, lazy, lazy_context

from .base import Bot, FamilyBot, board_from_view
from .master import MasterBot
from .quattro_levels import QuattroExpertBot, QuattroMasterBot
from .simple import GentleBot, GreedyBot
from .strong import ExpertBot, StrongBot

BOT_CLASSES: dict[str, type[FamilyBot]] = {
    kind.name: kind
    for kind in (GentleBot, GreedyBot, StrongBot, QuattroExpertBot, QuattroMasterBot)
}
"""The ladder, weakest first, by name (the expert and the master with their own Quattro
play: :mod:`.quattro_levels`)."""

DESCRIPTIONS: dict[str, Text] = {
    "gentle": lazy("Plays legal, modest turns with some randomness: a kind opponent for children."),
    "greedy": lazy("Plays the best-scoring single placement, again and again while it can."),
    "strong": lazy(
        "Finds the best-scoring whole turn by exact search over the order of placements, "
        "then weighs what it keeps and what it opens for the opponent."
    ),
    "expert": lazy(
        "Tries the strong player's best few turns, and exchanging the tokens it would "
        "rather not keep, in simulated continuations (Quackle's method): opponent racks "
        "and draws sampled from the tokens it has not seen, the "
        "opponent's reply and its own next turn played out, judged together with the "
        "strong player's own estimate. In Quattro it plays out the round on sampled "
        "deals after each way its turn can end; on Junior's numbered side it plays as "
        "the strong player."
    ),
    "master": lazy(
        "Plays as the expert, with a larger budget: more simulated continuations of more "
        "candidate turns and exchanges, played out to the end late in the game, for "
        "correspondence games and analysis (its turns take up to a second or two). On "
        "Junior's numbered side it plays as the strong player."
    ),
}
"""What a player should expect of each level (the first sentence of its class's
docstring, and the games where it is another level's very player: :func:`plays_as`), as
lazy texts."""

LEVEL_NAMES: dict[str, Text] = {
    # TRANSLATORS: a computer player's level, shown to players (the weakest)
    "gentle": lazy_context("computer level", "gentle"),
    # TRANSLATORS: a computer player's level: it takes the most points it sees at once
    "greedy": lazy_context("computer level", "greedy"),
    # TRANSLATORS: a computer player's level
    "strong": lazy_context("computer level", "strong"),
    # TRANSLATORS: a computer player's level (the second strongest)
    "expert": lazy_context("computer level", "expert"),
    # TRANSLATORS: a computer player's level (the strongest: slow, for correspondence games)
    "master": lazy_context("computer level", "master"),
}
"""Each level's name as players read it, by its keyword (``bot:greedy``, ``bot-strong``
and records keep the keyword)."""

BOTS: dict[str, tuple[Callable[[int | None], Bot], Text]] = {
    name: (kind, DESCRIPTIONS[name]) for name, kind in BOT_CLASSES.items()
}
"""The ladder, weakest first: name -> (factory taking a seed, one-line description, a
lazy text: ``str()`` shows it in the current language)."""


def level_name(level: str) -> str:
    """A computer level's name in the current language (the keyword for an unknown one)."""
    found = LEVEL_NAMES.get(level)
    return level if found is None else str(found)


def plays_as(level: str, game: str) -> str:
    """The weakest level that plays exactly as ``level`` in ``game``: ``level`` itself,
    but on Junior's numbered side, where the expert and the master play as the strong
    player (:meth:`~.strong.ExpertBot.plays_as`; in Quattro they have their own play,
    :mod:`.quattro_levels`).

    >>> plays_as("master", "quattro"), plays_as("master", "junior-numbers")
    ('master', 'strong')
    """
    kind = BOT_CLASSES[level]
    return kind.plays_as(game) if issubclass(kind, ExpertBot) else level


def same_player_note(level: str, game: str) -> str | None:
    """What to say of ``level`` in ``game`` when it is another level's very player
    (``"expert = strong in this game"``), else None."""
    alike = plays_as(level, game)
    return None if alike == level else f"{level} = {alike} in this game"


QUICK_LEVELS = ("gentle", "greedy")
"""Levels that decide in less CPU than it takes to hand a decision to a worker process
and back (gentle ~50 µs, greedy ~30 µs a decision on average on the CI machine, a
quarter of a millisecond at most): a web server decides them on a thread of its own
(issue 34, cheaper actions)."""

SLOW_LEVELS = ("master",)
"""Levels whose turns may take a second or more: for correspondence games and analysis,
and a game a person chooses to wait in. A server runs their decisions in its long jobs'
pool with a cap of their own (:mod:`mathable.web.infra.workers`), and its pages do not
offer them for clocked lobby games or tournaments."""


def is_slow(spec: str) -> bool:
    """Whether a level, or a spec (``master:samples=64``), is one of :data:`SLOW_LEVELS`.

    >>> is_slow("master"), is_slow("master:samples=64"), is_slow("expert")
    (True, True, False)
    """
    return spec.partition(":")[0].strip() in SLOW_LEVELS


def get_bot(spec: str, seed: int | None = None) -> Bot:
    """The bot a spec names: a level (``strong``) or a level with settings
    (``expert:samples=32,cap_ms=500``, see :func:`parse_spec`); raises ValueError
    naming what is wrong."""
    level, settings = parse_spec(spec)
    factory, _ = BOTS[level]
    return factory(seed, **settings)


CAP_SETTINGS = ("cap_ms", "budget_ms")
"""The settings that set a level's wall-clock safety cap (``budget_ms``: its former name)."""


@functools.lru_cache(maxsize=256)
def with_cap(spec: str, cap_ms: int) -> str:
    """``spec`` with the wall-clock safety cap ``cap_ms`` (a server's lower one), where
    its level has a cap and the spec does not set it already: ``"expert"`` ->
    ``"expert:cap_ms=1000"``; a level without a cap, or a cap already set, as it is.
    Kept per spec (a server asks at every computer decision; reading a level's
    settings costs more than a quick level's decision).

    >>> with_cap("expert", 1000), with_cap("expert:budget_ms=500", 1000), with_cap("greedy", 1000)
    ('expert:cap_ms=1000', 'expert:budget_ms=500', 'greedy')
    """
    level, settings = parse_spec(spec)
    if "cap_ms" not in settings_of(level) or any(name in settings for name in CAP_SETTINGS):
        return spec
    _, _, rest = spec.strip().partition(":")
    items = [part.strip() for part in rest.split(",") if part.strip()]
    return f"{level}:{','.join([*items, f'cap_ms={cap_ms}'])}"


@functools.cache
def settings_of(level: str) -> Mapping[str, inspect.Parameter]:
    """The settings a level takes (its constructor's keyword arguments but the seed).
    Read once per level (reading a signature costs more than a quick level's decision,
    and every bot made, one per seat and game in self-play, asks)."""
    kind = BOT_CLASSES[level]
    parameters = inspect.signature(kind.__init__).parameters
    return MappingProxyType(
        {name: p for name, p in parameters.items() if name not in ("self", "seed")}
    )


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """A bot spec split into its level and its settings, each converted to the type its
    default has (``none`` for None): ``"expert:samples=32"`` -> ``("expert",
    {"samples": 32})``. The settings are the level's constructor's keyword arguments,
    read from its signature, so a new knob needs nothing here."""
    level, _, rest = spec.strip().partition(":")
    if level not in BOTS:
        raise ValueError(
            lazy("unknown bot {level} (known: {known})", level=repr(level), known=", ".join(BOTS))
        )
    known = settings_of(level)
    settings: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        name, equals, text = item.partition("=")
        name = name.strip()
        if name not in known:
            offered = ", ".join(known) or "none"
            raise ValueError(
                lazy(
                    "{level} has no setting {name} (settings: {offered})",
                    level=level,
                    name=repr(name),
                    offered=offered,
                )
            )
        if not equals:
            raise ValueError(lazy("{name} needs a value: {name}=...", name=name))
        settings[name] = _convert(name, text.strip(), known[name].default)
    return level, settings


def _convert(name: str, text: str, default: object) -> object:
    """``text`` as the type of ``default`` (bool, int, float or str; ``none``: None,
    except where the setting is text)."""
    if isinstance(default, str):
        return text
    if text.lower() == "none":
        return None
    try:
        if isinstance(default, bool):
            if text.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise ValueError
            return text.lower() in ("true", "yes", "1")
        if isinstance(default, float):
            return float(text)
        if isinstance(default, int) or default is None:
            return int(text)
    except ValueError:
        kind = "true or false" if isinstance(default, bool) else type(default or 0).__name__
        raise ValueError(f"{name}={text}: expected {kind}") from None
    return text


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
    "DESCRIPTIONS",
    "LEVEL_NAMES",
    "QUICK_LEVELS",
    "SLOW_LEVELS",
    "Bot",
    "ExpertBot",
    "FamilyBot",
    "GentleBot",
    "GreedyBot",
    "MasterBot",
    "StrongBot",
    "board_from_view",
    "get_bot",
    "is_slow",
    "level_name",
    "parse_spec",
    "plays_as",
    "same_player_note",
    "seat_bots",
    "seat_levels",
    "with_cap",
]
