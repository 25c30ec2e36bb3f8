"""What every computer player is: something that picks the next action from a view.

A bot sees only :class:`~mathable.core.view.PlayerView` (its own rack, the public
board, scores and the player card), never the game itself, so hidden information stays
hidden. ``act`` is called once per action; a bot that plans a whole turn replays its
plan from the view each time, so it needs no state between calls.
"""

from __future__ import annotations

from typing import Protocol

from mathable.core.actions import Action
from mathable.core.board import EMPTY, Board
from mathable.core.quattro import QuattroView
from mathable.core.variants import Variant, get_variant
from mathable.core.view import PlayerView

AnyView = PlayerView | QuattroView


class Bot(Protocol):
    """A computer player."""

    name: str

    def act(self, view: AnyView) -> Action:
        """The next action for ``view.seat``, who is to move."""
        ...


def board_from_view(view: PlayerView) -> tuple[Variant, Board]:
    """Rebuild a searchable board from the public cells of a view."""
    variant = get_variant(view.variant)
    initial = {c: v for c, v in enumerate(view.board) if v != EMPTY}
    return variant, variant.new_board(initial)
