"""Every game of the family by name: the one place games are found and created.

Adding a game is one package under ``games/`` plus one line in :data:`GAMES`; no front
end changes, for front ends learn all they draw and offer from a game's
:class:`~mathable.engine.protocol.GameType` (``mathable variants --json``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mathable.engine.protocol import Game, GameType, HouseRules
from mathable.engine.records import replay_record

from .board.game import game_type_of
from .board.variants import CLASSIC, JUNIOR, JUNIOR_NUMBERS
from .quattro.game import QUATTRO

GAMES: dict[str, GameType] = {
    t.name: t
    for t in (
        game_type_of(CLASSIC),
        game_type_of(JUNIOR),
        game_type_of(JUNIOR_NUMBERS),
        QUATTRO,
    )
}
"""Every game, by name, in the order menus list them."""


def game_type(name: str) -> GameType:
    """The game called ``name``; raises ValueError listing every known game."""
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(GAMES)
        raise ValueError(f"unknown game {name!r}; choose one of {known}") from None


def new_game(
    name: str,
    players: Sequence[str] | int = 2,
    *,
    seed: int | None = None,
    house_rules: HouseRules | None = None,
    rounds: int = 1,
    setup: Mapping[str, Any] | None = None,
) -> Game:
    """A new game of ``name``; ``rounds`` counts for games played in rounds."""
    kind = game_type(name)
    options = {"rounds": rounds} if kind.rounds else {}
    return kind.create(players, seed=seed, house_rules=house_rules, options=options, setup=setup)


def from_record(data: dict[str, Any] | str) -> Game:
    """Replay a record of any game (data or JSON text); raises RecordError."""
    return replay_record(data, game_type)


def catalog() -> list[dict[str, Any]]:
    """Every game with its capabilities, as JSON-ready data."""
    return [kind.capabilities() for kind in GAMES.values()]
