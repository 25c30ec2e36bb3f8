"""mathable: the Mathable family of crossnumber games in Python.

Games are found by name (:data:`GAMES`, :func:`new_game`) and all speak one protocol
(:class:`Game`): apply actions or their notation, views per seat, records.

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
