"""What every computer player is: something that picks the next action from a view.

A bot sees only a :class:`~mathable.engine.protocol.View` (its own rack, the public
board or piles, scores and the player card), never the game itself, so hidden
information stays hidden. ``act`` is called once per action; a bot that plans a whole
turn replays its plan from the view each time, so it needs no state between calls.
Each rung of the ladder plays every game family: :class:`FamilyBot` hands the view to
the bot's board play or to its Quattro play by the game's surface.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Protocol

from mathable.engine.actions import Action
from mathable.engine.protocol import View
from mathable.games.board.board import EMPTY, Board
from mathable.games.board.variants import Variant, get_variant
from mathable.games.board.view import BoardView
from mathable.games.quattro.view import PilesView

from .families import by_surface
from .quattro import quattro_act


class Bot(Protocol):
    """A computer player."""

    name: str

    def act(self, view: View) -> Action:
        """The next action for ``view.seat``, who is to move."""
        ...


class FamilyBot(ABC):
    """A rung of the ladder: its own play on a board, and the Quattro play of its level."""

    name: str
    quattro_level: str = ""
    """The Quattro level it plays at (its own name unless it says otherwise)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> Action:
        """The next action for ``view.seat``, who is to move."""
        return by_surface(view, self.act_on_board, self.act_on_piles)

    @abstractmethod
    def act_on_board(self, view: BoardView) -> Action:
        """The next action in a board game."""

    def act_on_piles(self, view: PilesView) -> Action:
        """The next action in Quattro."""
        return quattro_act(view, self.quattro_level or self.name, self.rng)


def board_from_view(view: BoardView) -> tuple[Variant, Board]:
    """Rebuild a searchable board from the public cells of a view."""
    variant = get_variant(view.variant)
    initial = {c: v for c, v in enumerate(view.board) if v != EMPTY}
    return variant, variant.new_board(initial)
