"""The expert's end-game search (issue 16): bag empty, two players, both racks known."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from mathable.ai import get_bot
from mathable.ai.base import board_from_view
from mathable.ai.search import TurnPlan, search_turns
from mathable.ai.simulation import EndgameSearch
from mathable.games.board.board import Board
from mathable.games.board.variants import Variant
from mathable.games.board.view import BoardView
from mathable.games.registry import new_game


def turn_starts(count: int, seed: int, wanted: Callable[[BoardView], bool]) -> list[BoardView]:
    """The first turn start ``wanted`` of each greedy game from ``seed`` on (a game
    that never reaches one is skipped), ``count`` of them."""
    found: list[BoardView] = []
    while len(found) < count:
        game = new_game("classic", ["a", "b"], seed=seed)
        bots = [get_bot("greedy", seed), get_bot("greedy", seed + 1)]
        while not game.is_over:
            view = game.view(game.to_move)
            assert isinstance(view, BoardView)
            if not view.turn_placements and wanted(view):
                found.append(view)
                break
            game.apply(bots[game.to_move].act(view))
        seed += 1
    return found


def endgame_positions(count: int) -> list[BoardView]:
    """Turn starts with the bag empty and both racks holding tokens, from greedy games."""
    return turn_starts(count, 300, lambda view: view.bag_size == 0 and all(view.rack_sizes))


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


def pre_endgame_positions(count: int) -> list[BoardView]:
    """Turn starts with 1 to 3 tokens in the bag, from greedy games."""
    return turn_starts(count, 400, lambda view: 1 <= view.bag_size <= 3)


def brute_value_with_bag(
    variant: Variant,
    board: Board,
    mine: tuple[int, ...],
    theirs: tuple[int, ...],
    bag: tuple[int, ...],
    plan: TurnPlan,
) -> float:
    """My ``plan`` and the opponent's every reply by hand, each side refilling its rack
    from ``bag`` in order (no one goes out while it can draw), half of each rack left
    counted as lost at the horizon; an exchange puts the tokens given at the bag's end."""
    size = variant.rack_size
    if plan.placements or len(plan.leave) == len(mine):
        drawn = min(size - len(plan.leave), len(bag))
        after, rest = plan.leave + bag[:drawn], bag[drawn:]
    else:
        given = list(mine)
        for value in plan.leave:
            given.remove(value)
        drawn = min(len(given), len(bag))
        after, rest = plan.leave + bag[:drawn], bag[drawn:] + tuple(given)
    if not after:
        return plan.total + sum(theirs)
    for cell, value in plan.placements:
        board.place(cell, value)
    replies = []
    for reply in search_turns(variant, board, theirs, started_with=len(theirs)):
        if not reply.placements:
            continue
        taken = min(size - len(reply.leave), len(rest))
        kept = reply.leave + rest[:taken]
        replies.append(reply.total + (sum(after) if not kept else 0.5 * (sum(after) - sum(kept))))
    if not replies:
        replies = [
            0.5 * (sum(after) - sum(theirs))
            if variant.can_place(board, after)
            else float(sum(after) - sum(theirs))
        ]
    for _ in plan.placements:
        board.unplace()
    return plan.total - max(replies)


def test_with_tokens_in_the_bag_each_side_refills_and_only_an_empty_rack_goes_out() -> None:
    """The pre-end game's search (issue 35): two turns of it, with a bag in a known
    order, equal every turn and reply tried by hand, an exchange (C8b) among them."""
    rng = random.Random(5)
    checked, drew = 0, 0
    for view in pre_endgame_positions(8):
        variant, board = board_from_view(view)
        pool = [v for v, n in view.unseen.items() for _ in range(n)]
        rng.shuffle(pool)
        theirs, bag = tuple(pool[: variant.rack_size]), tuple(pool[variant.rack_size :])
        assert len(bag) == view.bag_size
        placing = [
            p
            for p in search_turns(variant, board, view.rack, started_with=len(view.rack))
            if p.placements
        ]
        plans = placing[:12]
        kept = tuple(sorted(view.rack)[1:])
        plans.append(TurnPlan((), 0, 0, kept))  # exchange the smallest token
        search = EndgameSearch(variant, board, None, 200_000, width=10**6)
        values = search.root_values(plans, theirs, max_turns=2, bag=bag, rack=tuple(view.rack))
        for plan, value in zip(plans, values, strict=True):
            assert value == brute_value_with_bag(variant, board, view.rack, theirs, bag, plan)
        # A rack of one token that fits: placing it empties the rack, but with tokens
        # in the bag the player draws and is not out (C11a).
        if placing:
            single = (placing[0].placements[0][1],)
            last = [p for p in search_turns(variant, board, single, started_with=1) if p.placements]
            values = search.root_values(last, theirs, max_turns=2, bag=bag, rack=single)
            for plan, value in zip(last, values, strict=True):
                assert not plan.leave
                assert value == brute_value_with_bag(variant, board, single, theirs, bag, plan)
                assert value != plan.total + sum(theirs)
                drew += 1
        checked += 1
    assert checked == 8
    assert drew >= 1
