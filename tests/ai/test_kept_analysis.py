"""The analysis of a kept game (issue 37): per placement turn, the best turn the same
tokens could have made on the board as it stood, found by the engine's search; checked
to be legal, never worse than the turn played, and against brute force on small turns."""

from __future__ import annotations

from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from mathable.ai.kept_analysis import analyse_kept, best_with, kept_analysis_report
from mathable.games.board.board import Board
from mathable.games.board.keeper import KeptGame
from mathable.games.board.variants import CLASSIC, Variant
from support.kept import kept_copy, random_game

WORKED = ["I8=12 H6=8 G9=2 F7=1 J8=16+", "F8=7 F9=6 H9=8 G6=4 E9=3 E8=21 E10=7"]


def oracle(variant: Variant, board: Board, tokens: tuple[int, ...], held: int) -> int:
    """Brute force over every ordered subset, each a sequence of legal placements; the
    bonus when every token is placed from a full rack; K2 turns end only when stuck."""
    best = -1
    for size in range(1, len(tokens) + 1):
        for order in set(permutations(tokens, size)):
            rest = list(tokens)
            for v in order:
                rest.remove(v)
            best = max(best, _sequence(variant, board, list(order), rest, held))
    return best


def _sequence(variant: Variant, board: Board, order: list[int], rest: list[int], held: int) -> int:
    if not order:
        if not variant.partial_turns and any(
            variant.legal_cells(board, v, False) for v in set(rest)
        ):
            return -1  # K2: the turn goes on while a tile fits
        return variant.turn_bonus(held, len(rest))
    best = -1
    value = order[0]
    for cell in range(len(board.values)):
        if not board.is_empty(cell) or not variant.is_legal(board, cell, value, False):
            continue
        points = variant.placement_points(board, cell, value)
        board.place(cell, value)
        after = _sequence(variant, board, order[1:], rest, held)
        board.unplace()
        if after >= 0:
            best = max(best, points + after)
    return best


def replay_checks(kept: KeptGame, oracle_tokens: int = 0) -> None:
    """Every analysed turn: the best turn legal on the board before it, never below the
    turn played, equal to it when nothing is better; on turns of at most
    ``oracle_tokens`` tokens, the best points equal brute force's."""
    variant = kept.variant
    board = variant.new_board()
    analysed = {t.number: t for t in analyse_kept(kept)}
    for number, turn in enumerate(kept.turns, start=1):
        if turn.kind != "place" or not turn.placements:
            assert number not in analysed
            continue
        found = analysed[number]
        assert found.best_points >= found.points or any(p.mistake for p in turn.placements)
        assert found.lost == max(0, found.best_points - found.points)
        if found.best == found.played:
            assert found.best_points == found.points and found.lost == 0
        else:
            assert found.best_points > found.points
        scratch, total = board.copy(), 0
        tokens = sorted(p.value for p in turn.placements)
        held = turn.held if len(tokens) >= turn.held else 0  # the rack's rest unknown
        used: list[int] = []
        for word in found.best.split() if found.best != found.played else ():
            cell_name, written = word.split("=")
            cell, value = scratch.grid.parse(cell_name), int(written)
            variant.check_placement(scratch, cell, value)  # legal, or raises
            total += variant.placement_points(scratch, cell, value)
            scratch.place(cell, value)
            used.append(value)
        if found.best != found.played:
            left = list(tokens)
            for taken in used:
                left.remove(taken)  # only the turn's own tokens
            assert total + variant.turn_bonus(held, len(left)) == found.best_points
        if len(tokens) <= oracle_tokens and not any(p.mistake for p in turn.placements):
            expected = oracle(variant, board, tuple(tokens), held)
            assert max(found.best_points, found.points) == expected
        for placed in turn.placements:
            board.place(board.grid.parse(placed.cell), placed.value)


def test_the_worked_example() -> None:
    kept = KeptGame(CLASSIC, ["Ann", "Bob"])
    for entry in WORKED:
        kept.play(entry)
    first, second = analyse_kept(kept)
    assert (first.points, second.points) == (39, 121)
    # the rulebook's turns are the best of their tokens: nothing lost
    assert (first.best, first.lost, second.best, second.lost) == (WORKED[0], 0, WORKED[1], 0)
    replay_checks(kept, oracle_tokens=2)
    report = kept_analysis_report(kept)
    assert [t["lost"] for t in report["turns"]] == [0, 0]
    assert report["players"][1] == {"player": "Bob", "points": 121, "best_points": 121, "lost": 0}


def test_a_game_with_turns_that_lose_points() -> None:
    kept = kept_copy(random_game("classic", 0, 2))
    analysed = analyse_kept(kept)
    losing = [t for t in analysed if t.lost]
    assert losing, "random play leaves points on the board"
    assert all(len(t.best_explained) == len(t.best.split()) for t in losing)
    replay_checks(kept, oracle_tokens=2)


def test_best_with_agrees_with_brute_force_on_the_first_turn() -> None:
    board = CLASSIC.new_board()
    for tokens in [(12, 16, 8), (1, 2, 3), (5, 30, 6), (4, 4, 2)]:
        plan = best_with(CLASSIC, board, tokens, 7)
        expected = oracle(CLASSIC, board, tokens, 7)
        assert (plan.total if plan else -1) == expected


@settings(max_examples=15, deadline=None)
@given(
    variant=st.sampled_from(["classic", "junior", "junior-numbers"]),
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
)
def test_random_kept_games(variant: str, seed: int, players: int) -> None:
    kept = kept_copy(random_game(variant, seed, players))
    replay_checks(kept, oracle_tokens=2)
