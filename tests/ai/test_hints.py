"""Hints: one search per game family, from the seat's view alone; the board's first hint
is the best turn, Quattro's hint is the strong player's legal plan."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from mathable.ai import get_bot
from mathable.ai.base import board_from_view
from mathable.ai.hints import Hint, board_hints, hints
from mathable.ai.search import best_turn, started_with
from mathable.engine.actions import Place
from mathable.engine.protocol import Game
from mathable.games.board.game import BoardGame
from mathable.games.board.turns import Setup
from mathable.games.board.variants import CLASSIC, get_variant
from mathable.games.quattro.game import QuattroGame, QuattroSetup
from mathable.games.registry import new_game


def _board_positions(variant: str, count: int, seed: int) -> Iterator[BoardGame]:
    """Positions from seeded greedy games, some in the middle of a turn."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        game = BoardGame(variant, 2, seed=rng.randrange(2**40))
        bots = [get_bot("greedy", 1), get_bot("greedy", 2)]
        for _ in range(rng.randint(0, 60)):
            if game.is_over:
                break
            game.apply(bots[game.to_move].act(game.view(game.to_move)))
        if not game.is_over:
            yield game
            found += 1


@pytest.mark.parametrize("variant", ["classic", "junior", "junior-numbers"])
def test_the_first_board_hint_is_the_best_turn(variant: str) -> None:
    checked = 0
    for game in _board_positions(variant, 25, seed=len(variant)):
        view = game.view(game.to_move)
        found = hints(view, limit=3)
        rules, board = board_from_view(view)
        plan = best_turn(
            rules,
            board,
            view.rack,
            started_with=started_with(view),
            strict=game.house_rules.strict,
        )
        if not plan.placements:
            assert not found or found[0].points == plan.total
            continue
        first = found[0]
        assert first.actions == tuple(Place(c, v) for c, v in plan.placements)
        assert (first.points, first.bonus, first.leave) == (plan.total, plan.bonus, plan.leave)
        assert first.cells == tuple(c for c, _ in plan.placements)
        points = [h.points or 0 for h in found]
        assert points == sorted(points, reverse=True) and len(found) <= 3
        # the notation is the game's own, and reads back to the same placements
        assert [game.parse_action(w) for w in first.notation.split()] == list(first.actions)
        checked += 1
    assert checked >= 10


def test_board_hints_from_a_position_leave_the_board_as_it_was() -> None:
    board = CLASSIC.new_board()
    placed = board.placed()
    found = board_hints("classic", board, (1, 2, 8, 12, 16, 17, 42), started_with=7, limit=4)
    assert board.placed() == placed and not board.history
    assert len(found) == 4 and found[0].points is not None and found[0].points >= 39
    plan = best_turn(CLASSIC, board, (1, 2, 8, 12, 16, 17, 42), started_with=7)
    assert found[0].actions == tuple(Place(c, v) for c, v in plan.placements)
    assert board_hints(get_variant("classic"), board, (), started_with=0) == []


def _pair_with_hidden_difference(seed: int) -> tuple[Game, Game]:
    """Two games alike in all Ann may know, differing in Bob's rack and the bag order."""
    rng = random.Random(seed)
    bag = [v for v, n in CLASSIC.tokens.items() for _ in range(n)]
    rng.shuffle(bag)
    ann, bob, rest = bag[:7], bag[7:14], bag[14:]
    other = rest[:7]
    rest2 = bob + rest[7:]
    rng.shuffle(rest2)
    first = BoardGame("classic", ["Ann", "Bob"], setup=Setup((tuple(ann), tuple(bob)), tuple(rest)))
    second = BoardGame(
        "classic", ["Ann", "Bob"], setup=Setup((tuple(ann), tuple(other)), tuple(rest2))
    )
    return first, second


@pytest.mark.parametrize("seed", range(4))
def test_hints_come_from_the_view_alone(seed: int) -> None:
    first, second = _pair_with_hidden_difference(seed)
    assert first.rack(1) != second.rack(1) and first.bag_order() != second.bag_order()
    assert first.view(0) == second.view(0)
    assert hints(first.view(0), limit=5) == hints(second.view(0), limit=5)
    # and in Quattro: another hand and another reserve give the same hint
    a = QuattroGame(
        ["Ann", "Bob"],
        setup=QuattroSetup(((8, 8, 8, 16), (1, 1, 5, 9)), (6, 2, 3, 4), (5, 6, 7, 9)),
    )
    b = QuattroGame(
        ["Ann", "Bob"],
        setup=QuattroSetup(((8, 8, 8, 16), (2, 3, 10, 12)), (6, 2, 3, 4), (9, 7, 6, 5)),
    )
    assert a.rack(1) != b.rack(1) and a.bag_order() != b.bag_order()
    assert a.view(0) == b.view(0)
    assert hints(a.view(0)) == hints(b.view(0))


def test_no_hint_for_a_seat_not_to_move_nor_a_spectator() -> None:
    for name in ("classic", "quattro"):
        game = new_game(name, 2, seed=5)
        assert hints(game.view(1 - game.to_move)) == []
        assert hints(game.view(None)) == []
        assert hints(game.view(game.to_move))


def test_the_quattro_hint_is_the_strong_plan_and_it_is_legal() -> None:
    game = QuattroGame(
        ["Ann", "Bob"],
        setup=QuattroSetup(
            ((8, 8, 8, 16), (1, 1, 1, 5, 9, 10, 12)), (6, 2, 3, 4), (5, 6, 7, 9, 10, 11)
        ),
    )
    (hint,) = hints(game.view(0), limit=3)
    assert hint == Hint(
        actions=tuple(game.parse_action(w) for w in ["diago", "A=8", "A=16", "A=8", "B=8"]),
        notation="diago A=8 A=16 A=8 B=8",
        points=None,
        leave=(),
        cells=(0, 0, 0, 1),
    )
    for action in hint.actions:
        game.apply(action)  # every action of the plan is accepted, in order
    assert game.is_over and game.winners() == (0,)


@pytest.mark.parametrize("seed", range(3))
def test_following_quattro_hints_plays_legal_games(seed: int) -> None:
    """Every seat plays the first action of its hint, in every phase of a turn."""
    game = new_game("quattro", 2 + seed % 3, seed=seed, rounds=2)
    for _ in range(5000):
        if game.is_over:
            break
        (hint,) = hints(game.view(game.to_move))
        assert hint.points is None and hint.actions
        assert hint.actions[0] in game.legal_actions()
        assert hint.notation.startswith(game.format_action(hint.actions[0]))
        game.apply(hint.actions[0])
    assert game.is_over


def test_ai_never_asks_which_view_class_it_holds() -> None:
    """Families are told apart by the game's surface, in ai/families.py alone."""
    root = Path(__file__).resolve().parents[2] / "src" / "mathable" / "ai"
    asks = re.compile(r"isinstance\((view|game)\b|isinstance\([^)]*(View|Game)\b")
    for path in root.glob("*.py"):
        assert not asks.search(path.read_text(encoding="utf-8")), path.name
