"""The expert's end-game search (issue 16): bag empty, two players, both racks known."""

from __future__ import annotations

import math

from mathable.ai import get_bot
from mathable.ai.base import board_from_view
from mathable.ai.search import search_turns
from mathable.ai.simulation import EndgameSearch
from mathable.games.board.board import Board
from mathable.games.board.variants import Variant
from mathable.games.board.view import BoardView
from mathable.games.registry import new_game


def endgame_positions(count: int) -> list[BoardView]:
    """Turn starts with the bag empty and both racks holding tokens, from greedy games."""
    found: list[BoardView] = []
    seed = 300
    while len(found) < count:
        game = new_game("classic", ["a", "b"], seed=seed)
        bots = [get_bot("greedy", seed), get_bot("greedy", seed + 1)]
        while not game.is_over:
            view = game.view(game.to_move)
            assert isinstance(view, BoardView)
            if view.bag_size == 0 and not view.turn_placements and all(view.rack_sizes):
                found.append(view)
                break
            game.apply(bots[game.to_move].act(view))
        seed += 1
    return found


def brute_reply_value(
    variant: Variant, board: Board, mine: tuple[int, ...], theirs: tuple[int, ...]
) -> float:
    """Two turns by hand: my every turn, then the opponent's every reply, C11 at the end
    and half of each rack left counted as lost at the horizon."""
    values: list[float] = []
    for plan in search_turns(variant, board, mine, started_with=len(mine)):
        if not plan.placements:
            continue
        if not plan.leave:
            values.append(plan.total + sum(theirs))
            continue
        for cell, value in plan.placements:
            board.place(cell, value)
        replies = [
            reply.total
            + (sum(plan.leave) if not reply.leave else 0.5 * (sum(plan.leave) - sum(reply.leave)))
            for reply in search_turns(variant, board, theirs, started_with=len(theirs))
            if reply.placements
        ]
        if not replies:
            can_reply = variant.can_place(board, plan.leave)
            replies = [
                0.5 * (sum(plan.leave) - sum(theirs))
                if can_reply
                else float(sum(plan.leave) - sum(theirs))
            ]
        for _ in plan.placements:
            board.unplace()
        values.append(plan.total - max(replies))
    return max(values)


def test_two_turns_of_the_search_equal_every_turn_and_reply_tried_by_hand() -> None:
    checked = 0
    for view in endgame_positions(6):
        variant, board = board_from_view(view)
        opponent = tuple(v for v, n in view.unseen.items() for _ in range(n))
        plans = [
            p
            for p in search_turns(variant, board, view.rack, started_with=len(view.rack))
            if p.placements
        ]
        if not plans:
            continue
        search = EndgameSearch(variant, board, None, 200_000, width=10**6)
        values = search.root_values(plans, opponent, max_turns=2)
        assert max(values) == brute_reply_value(variant, board, view.rack, opponent)
        checked += 1
    assert checked >= 3


def test_going_out_wins_the_opponents_rack_and_deeper_search_stays_in_bounds() -> None:
    view = endgame_positions(1)[0]
    variant, board = board_from_view(view)
    opponent = tuple(v for v, n in view.unseen.items() for _ in range(n))
    plans = [
        p
        for p in search_turns(variant, board, view.rack, started_with=len(view.rack))
        if p.placements
    ]
    before = list(board.values)
    values = EndgameSearch(variant, board, None, 200_000).root_values(plans, opponent, max_turns=6)
    assert board.values == before  # the board is left as it was found
    for plan, value in zip(plans, values, strict=True):
        if not plan.leave:
            assert value == plan.total + sum(opponent)
        assert math.isfinite(value)
