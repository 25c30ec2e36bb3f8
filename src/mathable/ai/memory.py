"""A computer's searchable board, kept from one action to the next (compiled, issue 35:
a greedy player's decision is mostly bringing it up to date)."""

from __future__ import annotations

from mathable.games.board.board import EMPTY, Board
from mathable.games.board.variants import Variant, get_variant
from mathable.games.board.view import BoardView


def board_from_view(view: BoardView) -> tuple[Variant, Board]:
    """Rebuild a searchable board from the public cells of a view."""
    variant = get_variant(view.variant)
    initial = {c: v for c, v in enumerate(view.surface) if v != EMPTY}
    return variant, variant.new_board(initial)


class BoardMemory:
    """A bot's searchable board kept from one action to the next.

    Building a board fills every cell's tables (about as long as a whole turn's search
    in greedy play); a turn changes a few cells, so the tokens a new view adds are placed
    on the kept board instead. A cell that lost or changed its token (a challenge or an
    undo took a turn back, another game) rebuilds it from the view. The tables are a
    function of the tokens alone, so the result is the board :func:`board_from_view`
    makes, whatever order the tokens came in (tested).
    """

    def __init__(self) -> None:
        self._variant: Variant | None = None
        self._board: Board | None = None

    def board_for(self, view: BoardView) -> tuple[Variant, Board]:
        """The variant and a board holding exactly the view's tokens (the caller may
        place and unplace on it, and must leave it as it found it)."""
        variant = get_variant(view.variant)
        board = self._board
        if board is None or self._variant is not variant:
            board = variant.new_board()  # the start's tables copied, the tokens since placed
        if not board.catch_up(view.surface):  # nothing caught up on is ever taken back
            variant, board = board_from_view(view)
        self._variant, self._board = variant, board
        return variant, board
