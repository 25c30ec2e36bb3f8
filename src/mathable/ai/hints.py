"""Hints: the best turns for the seat to move, from that seat's view alone.

One hint search per game family, shared by the CLI ``hint``, the terminal's ``h``, the
web's hint and the analysis:

- board games: the exact whole-turn search (:func:`~.search.ranked_turns`), ranked by
  points with the bonus, then the fewest tokens (the analysis's "best turn" is the first);
- Quattro: the strong player's chain search (:func:`~.quattro.strong_plan`), one hint
  with no points (Quattro counts rounds won).

>>> from mathable.games.board.variants import CLASSIC
>>> [h.notation for h in board_hints(CLASSIC, CLASSIC.new_board(), (12, 16, 8),
...                                  started_with=7, limit=1)]
['H6=8 I8=12 J8=16']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mathable.engine.actions import Action, Place
from mathable.engine.notation import CellNames, format_action
from mathable.engine.protocol import View
from mathable.games.board.board import Board
from mathable.games.board.variants import Variant, get_variant
from mathable.games.board.view import BoardView
from mathable.games.quattro.view import PilesView
from mathable.games.registry import game_type

from .base import board_from_view
from .families import by_surface
from .quattro import strong_plan
from .search import TurnPlan, ranked_turns, started_with


@dataclass(frozen=True)
class Hint:
    """A suggested turn (or the rest of one), ready to show or to play."""

    actions: tuple[Action, ...]
    """The turn's actions in order."""
    notation: str
    """The actions as written (``I8=12 H6=8``, ``A=32``, ``diago B=7``)."""
    points: int | None
    """Points with the bonus; None where the game counts rounds, not points."""
    bonus: int = 0
    leave: tuple[int, ...] = ()
    """What stays on the rack or in the hand afterwards, sorted."""
    cells: tuple[int, ...] = ()
    """The cells or piles the turn places on, to highlight."""


def hints(view: View, limit: int = 3) -> list[Hint]:
    """The best turns for the seat of ``view`` when it is to move, best first (at most
    ``limit``; empty when the seat is not to move, the game is over, or nothing can be
    placed: then pass or exchange)."""
    if view.over or view.seat is None or view.seat != view.to_move:
        return []
    return by_surface(
        view,
        lambda board: _board_view_hints(board, limit),
        lambda piles: _piles_hints(piles),
    )


def board_hints(
    variant: Variant | str,
    board: Board,
    rack: Sequence[int],
    *,
    started_with: int,
    strict: bool = False,
    limit: int = 5,
) -> list[Hint]:
    """The best whole turns from a board position and the rack to move, best first
    (``started_with``: the rack's size when the turn began, for the bonus). The board is
    left as it was."""
    rules = get_variant(variant) if isinstance(variant, str) else variant
    plans = ranked_turns(rules, board, rack, started_with=started_with, strict=strict)
    return [_board_hint(plan, board.grid) for plan in plans[: max(1, limit)]]


def _board_hint(plan: TurnPlan, names: CellNames) -> Hint:
    actions = tuple(Place(cell, value) for cell, value in plan.placements)
    return Hint(
        actions=actions,
        notation=_written(actions, names),
        points=plan.total,
        bonus=plan.bonus,
        leave=plan.leave,
        cells=tuple(cell for cell, _ in plan.placements),
    )


def _board_view_hints(view: BoardView, limit: int) -> list[Hint]:
    variant, board = board_from_view(view)
    strict = bool(view.house_rules.get("strict", False))
    return board_hints(
        variant, board, view.rack, started_with=started_with(view), strict=strict, limit=limit
    )


def _piles_hints(view: PilesView) -> list[Hint]:
    actions = strong_plan(view)
    hand = list(view.rack)
    if view.phase == "play":  # the cards played come from the hand (not a drawn card)
        for action in actions:
            if isinstance(action, Place):
                hand.remove(action.value)
    return [
        Hint(
            actions=actions,
            notation=_written(actions, game_type(view.variant).target_names),
            points=None,
            leave=tuple(sorted(hand)),
            cells=tuple(a.cell for a in actions if isinstance(a, Place)),
        )
    ]


def _written(actions: Sequence[Action], names: CellNames) -> str:
    return " ".join(format_action(action, names) for action in actions)
