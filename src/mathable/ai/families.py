"""The one place ``ai/`` learns which family a view belongs to.

Computer players, hints and analysis differ by game family (a board of cells or a
square of piles), not by game name. A view says its game's name; the registry's
:class:`~mathable.engine.protocol.GameType` says the surface it is played on, and that
decides the family: no ``isinstance`` on view or game classes. The family's code then
needs the family's own view type (a board, or the piles' phase): :func:`by_surface`
hands it over, the one narrowing in ``ai/`` (a ``typing.cast`` guarded by the surface,
which is what each family's ``view()`` returns).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

from mathable.engine.protocol import View
from mathable.games.board.view import BoardView
from mathable.games.quattro.view import PilesView
from mathable.games.registry import game_type

T = TypeVar("T")


_SURFACES: dict[str, str] = {}
"""Each game's surface by its name, as :func:`surface_of` found it (asked per decision)."""


def surface_of(view: View) -> str:
    """What the view's game is played on: ``board`` or ``piles``."""
    surface = _SURFACES.get(view.variant)
    if surface is None:
        surface = _SURFACES[view.variant] = game_type(view.variant).surface
    return surface


def by_surface(
    view: View,
    board: Callable[[BoardView], T],
    piles: Callable[[PilesView], T],
) -> T:
    """``board(view)`` for a game played on a board, ``piles(view)`` for one played on
    piles: the view handed to its family's code with its family's type."""
    surface = surface_of(view)
    if surface == "board":
        return board(cast(BoardView, view))
    if surface == "piles":
        return piles(cast(PilesView, view))
    raise ValueError(f"no computer player knows a game played on {surface!r}")
