"""The rules core: standard library only, shared by every front end, bot and test."""

from .actions import Action, Challenge, EndGame, EndTurn, Exchange, Pass, Place
from .errors import IllegalMove, MathableError, NotationError
from .game import Game, HouseRules, LegalPlacements, PlacedToken, Setup, TurnRecord
from .geometry import Cell, Grid
from .variants import VARIANTS, Variant, get_variant
from .view import PlayerView

__all__ = [
    "VARIANTS",
    "Action",
    "Cell",
    "Challenge",
    "EndGame",
    "EndTurn",
    "Exchange",
    "Game",
    "Grid",
    "HouseRules",
    "IllegalMove",
    "LegalPlacements",
    "MathableError",
    "NotationError",
    "Pass",
    "Place",
    "PlacedToken",
    "PlayerView",
    "Setup",
    "TurnRecord",
    "Variant",
    "get_variant",
]
