"""mathable: the Mathable family of crossnumber games in Python.

Games are found by name (:data:`GAMES`, :func:`new_game`) and all speak one protocol
(:class:`Game`): apply actions or their notation, views per seat, records. Each name is
imported when first used, so a program needing one corner starts fast.

>>> from mathable import new_game
>>> game = new_game("classic", ["Ann", "Bob"], seed=1)
>>> game.game_type.has("exchange"), new_game("quattro").game_type.surface
(True, 'piles')
"""

import os as _os

from . import _source_only

if _os.environ.get("MATHABLE_PURE"):  # the compiled modules from their source (tests)
    _source_only.install()
else:
    _source_only.use_source_if_stale()

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine.actions import (
        Accept,
        Action,
        Challenge,
        Decline,
        Diago,
        Draw,
        EndGame,
        EndTurn,
        Exchange,
        Pass,
        Penalty,
        Place,
    )
    from .engine.errors import IllegalMove, MathableError, NotationError
    from .engine.protocol import Game, GameType, HouseRules, View
    from .engine.records import RecordError, dumps, to_record
    from .games.registry import GAMES, from_record, game_type, new_game

_HOMES = {
    **dict.fromkeys(
        ("Accept", "Action", "Challenge", "Decline", "Diago", "Draw", "EndGame", "EndTurn"),
        "engine.actions",
    ),
    **dict.fromkeys(("Exchange", "Pass", "Penalty", "Place"), "engine.actions"),
    **dict.fromkeys(("IllegalMove", "MathableError", "NotationError"), "engine.errors"),
    **dict.fromkeys(("Game", "GameType", "HouseRules", "View"), "engine.protocol"),
    **dict.fromkeys(("RecordError", "dumps", "to_record"), "engine.records"),
    **dict.fromkeys(("GAMES", "from_record", "game_type", "new_game"), "games.registry"),
}
"""Where each name of the façade lives: imported on first use (PEP 562), so a program
that only needs a corner of the package (``mathable --help``) does not load every game."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "Accept",
    "Action",
    "Challenge",
    "Decline",
    "Diago",
    "Draw",
    "EndGame",
    "EndTurn",
    "Exchange",
    "Game",
    "GameType",
    "HouseRules",
    "IllegalMove",
    "MathableError",
    "NotationError",
    "Pass",
    "Penalty",
    "Place",
    "RecordError",
    "View",
    "dumps",
    "from_record",
    "game_type",
    "new_game",
    "to_record",
]
