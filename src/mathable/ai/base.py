"""What every computer player is: something that picks the next action from a view.

A bot sees only :class:`~mathable.games.board.view.BoardView` (its own rack, the public
board, scores and the player card), never the game itself, so hidden information stays
hidden. ``act`` is called once per action; a bot that plans a whole turn replays its
plan from the view each time, so it needs no state between calls.
"""

from __future__ import annotations

from typing import Protocol

from mathable.engine.actions import Action
from mathable.games.board.board import EMPTY, Board
from mathable.games.board.variants import Variant, get_variant
from mathable.games.board.view import BoardView
from mathable.games.quattro.game import PilesView

AnyView = BoardView | PilesView


class Bot(Protocol):
    """A computer player."""

    name: str

    def act(self, view: AnyView) -> Action:
        """The next action for ``view.seat``, who is to move."""
        ...


def board_from_view(view: BoardView) -> tuple[Variant, Board]:
    """Rebuild a searchable board from the public cells of a view."""
    variant = get_variant(view.variant)
    initial = {c: v for c, v in enumerate(view.board) if v != EMPTY}
    return variant, variant.new_board(initial)
