"""Where a token may go now: the placements open to the player to move, as a lazy view
(python-chess's ``LegalMoveGenerator``), and a placement explained with its equations
and points, or why the rules refuse it (issue 18).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from mathable.engine.actions import Place
from mathable.engine.errors import IllegalMove, MathableError
from mathable.engine.explain import Explanation, equation
from mathable.engine.notation import Position, parse_placement
from mathable.i18n import lazy

from .board import EMPTY, Board
from .state import BoardState
from .variants import Variant, already_holds, get_variant


def explain_on_board(
    variant: Variant, board: Board, cell: int, value: int, strict: bool = False
) -> Explanation:
    """Explain ``value`` on ``cell`` of ``board`` (issue 18): one equation per pair of
    tokens in line next to it that makes the value (C3, C4), only the square's operation
    on a restriction square (C5), the points as ``variant`` scores them (C6, K2); or why
    it is refused, with the rule (C1, C3, C5, K2)."""
    grid = board.grid
    if not 0 <= cell < len(board.values):
        reason = lazy("cell {cell} is off the board", cell=cell)
        return Explanation(str(cell), value, False, (), 1, 0, str(reason), "C1")
    name, award = grid.name(cell), board.rules.multipliers[cell]
    if not board.is_empty(cell):
        held = already_holds(name, board.values[cell])
        return Explanation(name, value, False, (), award, 0, str(held), "C3")
    if not variant.is_legal(board, cell, value, strict):
        try:
            variant.check_placement(board, cell, value, strict)
        except IllegalMove as refused:
            return Explanation(name, value, False, (), award, 0, refused.reason, refused.rule)
    ops, values = board.rules.cell_ops[cell], board.values
    found = []
    for near, far in grid.pairs[cell]:
        if values[near] == EMPTY or values[far] == EMPTY:
            continue
        first, second = sorted((near, far))
        made = equation(
            value, (grid.name(first), values[first]), (grid.name(second), values[second]), ops
        )
        if made is not None:
            found.append(made)
    points = variant.placement_points(board, cell, value)
    return Explanation(name, value, True, tuple(found), award, points, "", "")


class LegalPlacements:
    """The placements the player to move may make, computed lazily from the board's
    tables (python-chess's ``LegalMoveGenerator``): ``in`` and ``count()`` never list
    them all. Made by :meth:`~.game.BoardGame.legal_placements` from the game's state,
    variant, house rule ``strict`` and its offer of the extra token (C7): it follows that
    state as turns are played (a challenge or an undo makes a new state: ask again)."""

    def __init__(
        self,
        state: BoardState,
        variant: Variant,
        strict: bool,
        offers_extra_token: Callable[[int], bool],
    ) -> None:
        self._state = state
        self._variant = variant
        self._strict = strict
        self._offers = offers_extra_token

    def _rack_values(self) -> list[int]:
        state = self._state
        if state.over or state.question is not None:
            return []
        return sorted(set(state.racks[state.to_move]))

    def __iter__(self) -> Iterator[Place]:
        board, variant, strict = self._state.board, self._variant, self._strict
        for value in self._rack_values():
            for cell in sorted(variant.legal_cells(board, value, strict)):
                yield Place(cell, value)

    def with_extras(self) -> Iterator[Place]:
        """Every placement, and again with the extra token where one may be taken (C7)."""
        offers = self._offers
        for place in self:
            yield place
            if offers(place.cell):
                yield replace(place, extra=True)

    def count(self) -> int:
        """How many placements there are."""
        board, variant, strict = self._state.board, self._variant, self._strict
        return sum(len(variant.legal_cells(board, v, strict)) for v in self._rack_values())

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return self._variant.can_place(self._state.board, self._rack_values())

    def __contains__(self, place: object) -> bool:
        if not isinstance(place, Place):
            return False
        if place.value not in self._rack_values():
            return False
        board = self._state.board
        if not 0 <= place.cell < len(board.values):
            return False
        if not board.is_empty(place.cell) or not self._variant.is_legal(
            board, place.cell, place.value, self._strict
        ):
            return False
        return not place.extra or self._offers(place.cell)


def explain_in_position(position: Position, placement: str) -> Explanation:
    """Explain ``placement`` (``I8=12``) in a board game's one-line ``position`` (issue 18,
    ``/api/explain``); raises a :class:`~mathable.engine.errors.MathableError` with the
    reason when the position holds what its board cannot or the placement cannot be read."""
    variant = get_variant(position.variant)
    size = len(variant.layout.squares)
    for cell, value in position.board:
        if not 0 <= cell < size:
            raise MathableError(lazy("the position has a cell off the board"))
        if value not in variant.tokens:
            raise MathableError(
                lazy("{value} is not a token of {game}", value=value, game=variant.title)
            )
    board = variant.new_board(dict(position.board))
    place = parse_placement(placement, board.grid)
    return explain_on_board(variant, board, place.cell, place.value)
