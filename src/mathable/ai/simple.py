"""The first rungs of the ladder: gentle (for children) and greedy."""

from __future__ import annotations

from mathable.engine.actions import Action, EndTurn, Exchange, Pass, placing
from mathable.games.board.view import BoardView

from .base import FamilyBot
from .search import best_placement


class GentleBot(FamilyBot):
    """Plays legal, modest turns with some randomness: a kind opponent for children.

    It places one or two tokens a turn, picked at random among its lower-scoring
    placements, and never hunts for bonuses.
    """

    name = "gentle"

    def act_on_board(self, view: BoardView) -> Action:
        variant, board = self.memory.board_for(view)
        strict = view.house_rules.get("strict", False)
        options = sorted(
            (variant.placement_points(board, cell, value), cell, value)
            for value in sorted(set(view.rack))
            for cell in sorted(variant.legal_cells(board, value, strict))
        )
        placed = len(view.turn_placements)
        chance = self.chance(view)
        if options and (
            placed == 0 or (not variant.partial_turns) or (placed < 2 and chance.random() < 0.5)
        ):
            modest = options[: max(1, len(options) // 2)]
            _, cell, value = chance.choice(modest)
            return placing(cell, value)
        if placed:
            return EndTurn()
        return _stuck(view)


class GreedyBot(FamilyBot):
    """Plays the best-scoring single placement, again and again while it can."""

    name = "greedy"

    def act_on_board(self, view: BoardView) -> Action:
        variant, board = self.memory.board_for(view)
        rack = view.rack
        best = best_placement(variant, board, rack, view.house_rules.get("strict", False))
        if best is not None:
            cell, value = best
            extra = len(rack) <= 3 and variant.extra_token_refusal(cell, view.bag_size) is None
            return placing(cell, value, extra)
        if view.turn_placements:
            return EndTurn()
        return _stuck(view)


def _stuck(view: BoardView) -> Action:
    """No placement at the start of a turn: swap the highest tokens if the bag allows."""
    if view.bag_size >= 1 and view.rack:
        k = min(len(view.rack), view.bag_size, 3)
        return Exchange(tuple(sorted(view.rack)[-k:]))
    return Pass()
