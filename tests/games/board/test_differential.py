"""The incremental tables against the naive full scan (tests/oracle.py), on at least
10,000 positions taken along random games of every board variant (rulings C3-C6)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from mathable.engine.actions import Place
from mathable.games.board.board import Board, RuleTables
from mathable.games.board.game import BoardGame
from mathable.games.board.layouts import classic_layout
from mathable.games.board.variants import CLASSIC, JUNIOR
from oracle import naive_equations, naive_placements

POSITIONS = 10_000


def _positions(count: int, seed: int = 0) -> Iterator[BoardGame]:
    """Yield ``count`` games at successive positions of seeded random playouts."""
    rng = random.Random(seed)
    produced = 0
    while produced < count:
        variant = rng.choice([CLASSIC, CLASSIC, JUNIOR])
        game = BoardGame(variant, rng.randint(2, 4), seed=rng.randrange(2**40))
        while not game.is_over and produced < count:
            yield game
            produced += 1
            actions = game.legal_actions()
            places = [a for a in actions if isinstance(a, Place)]
            game.apply(
                rng.choice(places) if places and rng.random() < 0.93 else rng.choice(actions)
            )


@pytest.mark.slow
def test_rack_placements_agree_with_the_oracle_on_10000_positions() -> None:
    checked = 0
    for game in _positions(POSITIONS):
        rack = game.rack(game.to_move)
        fast = {
            (p.cell, p.value): game.board.points(p.cell, p.value) for p in game.legal_placements()
        }
        asked = "accept" in game.available(game.to_move)  # J4: only an answer is open
        expected = {} if asked else naive_placements(game.board, rack)
        assert fast == expected, f"{game!r} rack {rack}"
        assert game.legal_placements().count() == len(fast)
        checked += 1
    assert checked >= POSITIONS


@pytest.mark.slow
def test_full_tables_agree_for_every_value_and_cell() -> None:
    """Every token value on every cell, not only the rack's (fewer positions)."""
    checked = 0
    for game in _positions(400, seed=1):
        board = game.board
        values = sorted(game.variant.tokens)
        for cell in range(len(board.values)):
            for value in values:
                assert board.equations(cell, value) == naive_equations(board, cell, value), (
                    f"{board.grid.name(cell)}={value} in {game!r}"
                )
        checked += 1
    assert checked == 400


def test_membership_agrees_with_the_oracle_for_random_placements() -> None:
    rng = random.Random(2)
    for game in _positions(2000, seed=2):
        rack = game.rack(game.to_move)
        if not rack:
            continue
        cell = rng.randrange(len(game.board.values))
        value = rng.choice(rack)
        expected = naive_equations(game.board, cell, value) > 0
        assert (Place(cell, value) in game.legal_placements()) == expected


def test_unplace_restores_the_tables() -> None:
    """Make/unmake: placing then taking back leaves every table as it was."""
    undone = changed = 0
    for game in _positions(300, seed=3):
        board = game.board.copy()
        before = _tables(board)
        moves = list(game.legal_placements())[:5]
        for move in moves:
            board.place(move.cell, move.value)
            changed += _tables(board) != before  # a placement does change the tables
            board.unplace()
            assert _tables(board) == before, f"{board.grid.name(move.cell)}={move.value}"
            undone += 1
    assert undone >= 3 * 300 and changed == undone  # most positions had 5 to try


def _tables(board: Board) -> tuple[list[int], list[int], list[int], list[int]]:
    """Every incremental table of ``board``, as comparable data."""
    return (
        list(board.values),
        list(board.masks),
        list(board.twice),
        list(board.cells_by_bit),
    )


def test_a_mask_holds_at_most_62_values() -> None:
    """A mask is a native 64-bit integer (``Board.masks``): a set of more token values
    than its bits is refused when the tables are made, not wrapped round in play."""
    widest = RuleTables.for_board(classic_layout(), values=frozenset(range(62)))
    board = Board(widest, {0: 60, 1: 1})  # 60 + 1 = 61: the highest bit, in a mask
    assert 61 in board.accepted(2) and board.cells_accepting(61) == [2]
    with pytest.raises(ValueError, match="at most 62 token values"):
        RuleTables.for_board(classic_layout(), values=frozenset(range(63)))
