"""Every game of the family by name: the one place front ends create games from.

The board games (classic, Junior, the numbered board) are :class:`~.game.Game` over a
:class:`~.variants.Variant`; Quattro, a card game, is :class:`~.quattro.QuattroGame` with
the same interface (apply, undo, legal actions, views, records), so the CLI, the bots'
arena and the web app treat them alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .game import Game, HouseRules
from .quattro import QUATTRO, QuattroGame
from .variants import VARIANTS

AnyGame = Game | QuattroGame


@dataclass(frozen=True)
class GameInfo:
    """A game's name, title, one-line summary and seat range, for menus."""

    name: str
    title: str
    summary: str
    min_players: int
    max_players: int
    rack_size: int


CATALOG: dict[str, GameInfo] = {
    **{
        v.name: GameInfo(v.name, v.title, v.summary, v.min_players, v.max_players, v.rack_size)
        for v in VARIANTS.values()
    },
    QUATTRO.name: GameInfo(QUATTRO.name, QUATTRO.title, QUATTRO.summary, 2, 4, 7),
}


def new_game(
    name: str,
    players: Sequence[str] | int = 2,
    *,
    seed: int | None = None,
    house_rules: HouseRules | None = None,
    rounds: int = 1,
) -> AnyGame:
    """A new game of ``name`` (see :data:`CATALOG`); ``rounds`` is for Quattro only."""
    if name == QUATTRO.name:
        return QuattroGame(players, seed=seed, rounds=rounds, house_rules=house_rules)
    if name not in VARIANTS:
        known = ", ".join(sorted(CATALOG))
        raise ValueError(f"unknown game {name!r}; choose one of {known}")
    return Game(name, players, seed=seed, house_rules=house_rules)
