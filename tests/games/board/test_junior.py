"""Mathable Junior, both sides of the board (seed 001; rulings J1-J4 and K1-K3)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from mathable.engine.actions import Accept, Decline, EndGame, EndTurn, Exchange, Pass, Place
from mathable.engine.errors import IllegalMove
from mathable.engine.protocol import HouseRules
from mathable.engine.records import RecordError, replay_record, to_record
from mathable.games.board.game import BoardGame, game_type_of
from mathable.games.board.transcript import score_transcript
from mathable.games.board.turns import Setup
from mathable.games.board.variants import JUNIOR, JUNIOR_NUMBERS

SEED_001 = Path(__file__).resolve().parents[4] / "shared" / "seeds" / "001_34cd087df32c6baf.txt"


def _board(variant, **cells: int):  # type: ignore[no-untyped-def]
    grid = variant.layout.grid
    initial = {c: sq.start for c, sq in enumerate(variant.layout.squares) if sq.start}
    initial.update({grid.parse(name): value for name, value in cells.items()})
    return variant.new_board(initial)


# -- front side ---------------------------------------------------------------------


def test_seven_completing_4_plus_3_and_9_minus_2_scores_14() -> None:
    """The rulebook's picture: (4 + 3 = 7) + (9 - 2 = 7) scores 2 x 7 = 14 (J2, C4)."""
    board = _board(JUNIOR, E2=4, F2=3, D3=9, D4=2)
    d2 = board.grid.parse("D2")
    assert JUNIOR.layout.squares[d2].multiplier == 1
    assert board.equations(d2, 7) == 2
    assert JUNIOR.placement_points(board, d2, 7) == 14


def test_six_on_a_2x_square_scores_12() -> None:
    """Bonus 1: 'Score 12 points for a 6 tile placed' on a 2X square (J2, C6)."""
    board = _board(JUNIOR, C2=4, D2=2)
    b2 = board.grid.parse("B2")
    assert JUNIOR.layout.squares[b2].multiplier == 2
    assert JUNIOR.placement_points(board, b2, 6) == 12


def test_junior_counts_only_addition_and_subtraction() -> None:
    """J2: 3 x 4 = 12 makes no equation in Junior; 3 + 4 and 4 - 3 do."""
    board = _board(JUNIOR, C2=3, D2=4)
    b2 = board.grid.parse("B2")
    assert board.equations(b2, 12) == 0
    assert board.equations(b2, 7) == 1 and board.equations(b2, 1) == 1
    game = BoardGame("junior", 2, setup=Setup(((12, 7, 1, 2, 3), (5, 5, 5, 5, 5)), (9,) * 10))
    before = game.snapshot()
    with pytest.raises(IllegalMove) as info:
        game.apply("G6=12")  # G6, a '-' square beside 3 4: 12 would need x
    assert info.value.where == "G6" and info.value.rule == "C5"
    assert game.snapshot() == before
    game.apply("G6=1")  # 4 - 3 on a '-' square is fine
    assert game.turn_points == 1


def test_junior_layout_is_symmetric_and_provisional() -> None:
    """J1: 10x10, the four numbered centre squares, + - and 2X squares, symmetric under
    quarter turns (the layout is our design, marked provisional in its data file)."""
    layout = JUNIOR.layout
    n = layout.size
    assert n == 10
    kinds = ["c" if sq.start else str(sq) for sq in layout.squares]
    turned = [kinds[(n - 1 - col) * n + row] for row in range(n) for col in range(n)]
    assert kinds == turned
    assert {str(sq) for sq in layout.squares} >= {"+", "-", "2", "c1", "c2", "c3", "c4"}
    assert [layout.grid.name(c) for c in layout.start_cells()] == ["E5", "F5", "E6", "F6"]


def test_junior_bonus_is_25_for_five_tiles() -> None:
    """J2: 25 points when the turn started with 5 tiles and all were placed."""
    sheet = score_transcript("Ann: F4=2 E4=4 G5=3 E7=2 F7=6", JUNIOR)
    assert sheet.turns[0].bonus == 25
    assert sheet.totals["Ann"] == sum(p.points for p in sheet.turns[0].placements) + 25


def test_junior_first_seat_starts_and_extra_tile_after_restriction() -> None:
    """J3: after a + or - square the player may draw a tile and go on; seat 0 starts."""
    game = BoardGame("junior", ["Ann", "Bob"], seed=4)
    assert game.to_move == 0 and len(game.rack(0)) == 5
    game2 = BoardGame("junior", 2, setup=Setup(((2, 9, 9, 9, 9), (5,) * 5), (7, 8, 8)))
    game2.apply("F4=2+")  # 4 - 2 on F4, a '-' square, taking the extra tile
    assert sorted(game2.rack(0)) == [7, 9, 9, 9, 9]


RACKS = ((1, 3, 5, 7, 9), (1, 3, 5, 7, 9), (1, 3, 5, 7, 9))


def _empty_pot(players: list[str] | int, **rules: bool) -> BoardGame:
    """A Junior game whose pot is empty from the start (J4: only then may a player
    propose to stop)."""
    seats = players if isinstance(players, int) else len(players)
    return BoardGame(
        "junior", players, setup=Setup(RACKS[:seats], ()), house_rules=HouseRules(**rules)
    )


def test_j4_a_stop_is_proposed_only_once_the_pot_is_empty() -> None:
    """J4 (issue 31): "NO MORE TILES IN THE POT?" stands before the three ends in every
    language: while the pot holds tiles no stop is offered nor accepted (a stop at the
    start ended a game 0-0-0); once it is empty, at the start of a turn, it is."""
    game = BoardGame("junior", ["Ann", "Bob", "Cy"], seed=1)
    assert game.bag_size == 45
    assert "stop" not in game.view(0).available
    assert not any(isinstance(a, EndGame) for a in game.legal_actions())
    before = game.snapshot()
    with pytest.raises(IllegalMove, match="once the pot is empty: 45 tiles") as info:
        game.apply("stop")
    assert info.value.rule == "J4" and game.snapshot() == before
    emptied = _empty_pot(["Ann", "Bob", "Cy"])
    assert "stop" in emptied.view(0).available
    assert EndGame() in emptied.legal_actions()
    emptied.apply("stop")
    assert emptied.to_move == 1 and emptied.view(1).available == ("accept", "decline")


def test_j4_a_record_of_rules_version_2_may_still_stop_at_the_start() -> None:
    """A record written by rules version 2 (a stop at any time) replays as it was played
    and is written again as version 2."""
    game = BoardGame("junior", ["Ann", "Bob"], seed=1)
    data = {k: v for k, v in to_record(game).items() if k != "result"}
    data.update(variant_version=2, actions=["stop", "accept"])
    old = replay_record(data, lambda _: game_type_of(JUNIOR))
    assert old.is_over and old.scores == (0, 0) and old.rules_version == 2
    assert to_record(old)["variant_version"] == 2
    with pytest.raises(RecordError, match="once the pot is empty"):
        replay_record({**data, "variant_version": 3}, lambda _: game_type_of(JUNIOR))


def test_junior_stop_by_agreement_without_deduction() -> None:
    """J4: the players may agree to stop; no deduction of tiles left."""
    game = _empty_pot(2)
    game.apply(EndGame())
    assert not game.is_over  # a proposal: the other player answers first
    game.apply(Accept())
    assert game.is_over and game.scores == (0, 0) and game.deductions == (0, 0)
    assert game.end_reason == "the players agreed to stop"
    classic = BoardGame("classic", 2, seed=1)
    with pytest.raises(IllegalMove):
        classic.apply(EndGame())


def test_j4_stop_is_a_proposal_every_other_player_answers_in_turn() -> None:
    """J4: ``stop`` proposes; the others answer in seat order from the next one, each as
    the player to move, with exactly accept and decline open; all must accept."""
    game = _empty_pot(["Ann", "Bob", "Cy"], allow_undo=True)
    game.apply("stop")
    assert not game.is_over and game.to_move == 1
    bob = game.view(1)
    assert bob.available == ("accept", "decline")
    assert bob.status == "Ann proposes to stop the game: Bob, accept or decline?"
    assert game.view(0).available == () and game.view(2).available == ()
    assert game.view(None).status == bob.status  # every seat sees the question
    assert {type(a) for a in game.legal_actions()} == {Accept, Decline}
    for refused in ("pass", "stop", "challenge", "exchange 1"):
        with pytest.raises(IllegalMove):
            game.apply(refused)
    game.apply("accept")
    assert not game.is_over and game.to_move == 2
    assert game.view(2).status == "Ann proposes to stop the game: Cy, accept or decline?"
    game.apply("accept")
    assert game.is_over and game.end_reason == "the players agreed to stop"
    assert [game.format_action(a) for a in game.log] == ["stop", "accept", "accept"]
    before = game.snapshot()
    game.undo()  # undo works on answers as on any action
    assert not game.is_over and game.to_move == 2
    game.apply("accept")
    assert game.snapshot() == before


def test_j4_a_decline_gives_the_turn_back_to_the_proposer_once() -> None:
    """J4: any refusal continues the game; the proposer plays on with the same turn and
    may not propose again that turn (nobody can loop)."""
    game = _empty_pot(["Ann", "Bob", "Cy"])
    rack = game.rack(0)
    game.apply("stop")
    game.apply("accept")
    game.apply("decline")
    assert not game.is_over and game.to_move == 0 and game.rack(0) == rack
    view = game.view(0)
    assert "stop" not in view.available and "pass" in view.available
    assert view.status == "Cy declined to stop: Ann plays on"
    assert not any(isinstance(a, EndGame) for a in game.legal_actions())
    with pytest.raises(IllegalMove) as info:
        game.apply("stop")
    assert info.value.rule == "J4"
    game.apply("pass")
    assert game.to_move == 1 and "stop" in game.view(1).available  # a new turn
    with pytest.raises(IllegalMove):
        game.apply("accept")  # nothing to answer


def test_j4_proposals_round_trip_through_records() -> None:
    """J4: the proposal and its answers are in the log, so records replay them."""
    game = _empty_pot(["Ann", "Bob"])
    for text in ("stop", "decline", "pass", "stop", "accept"):
        game.apply(text)
    assert game.is_over and game.end_reason == "the players agreed to stop"
    again = replay_record(to_record(game), lambda _: game_type_of(JUNIOR))
    assert again.snapshot() == game.snapshot() and again.log == game.log
    record = {k: v for k, v in to_record(game).items() if k != "result"}
    halfway = replay_record(
        {**record, "actions": record["actions"][:4]}, lambda _: game_type_of(JUNIOR)
    )
    assert halfway.view(0).available == ("accept", "decline")


# -- back side ------------------------------------------------------------------------


PRINTED_COPY = Path(__file__).resolve().parents[2] / "data" / "junior-numbers-printed.txt"


def _printed_grids(source: Path = PRINTED_COPY) -> list[list[list[int]]]:
    lines = source.read_text(encoding="utf-8").splitlines()
    grids, rows = [], []
    for line in [*lines, ""]:
        if re.fullmatch(r"\d+(\t\d+){9}", line.strip()):
            rows.append([int(v) for v in line.split()])
        else:
            if len(rows) == 10:
                grids.append(rows)
            rows = []
    return grids


@pytest.mark.skipif(not SEED_001.exists(), reason="shared/seeds is not beside the repo")
def test_the_copied_grids_are_the_seeds_own() -> None:
    assert _printed_grids(SEED_001) == _printed_grids(PRINTED_COPY)


def test_numbered_board_is_the_per_cell_majority_of_the_printed_copies() -> None:
    """K1: six printed copies differing in a few cells; the board is their majority."""
    grids = _printed_grids()
    assert len(grids) == 6
    squares = JUNIOR_NUMBERS.layout.squares
    for row in range(10):
        for col in range(10):
            votes = Counter(g[row][col] for g in grids)
            assert squares[row * 10 + col].number == votes.most_common(1)[0][0]
    assert sum(g != grids[0] for g in grids) > 0  # the copies really do differ


def test_numbered_board_counts() -> None:
    """K1: each of 1-10 eight times, each of 11-20 twice."""
    counts = Counter(sq.number for sq in JUNIOR_NUMBERS.layout.squares)
    assert counts == {**{v: 8 for v in range(1, 11)}, **{v: 2 for v in range(11, 21)}}


def test_numbered_tile_goes_on_its_number_and_all_three_are_placed() -> None:
    """K2: a tile goes on a square printed with its number; all 3 must be placed."""
    game = BoardGame("junior-numbers", ["Ann", "Bob"], seed=2)
    rack = game.rack(0)
    assert len(rack) == 3
    wrong = next(c for c, sq in enumerate(game.variant.layout.squares) if sq.number != rack[0])
    before = game.snapshot()
    with pytest.raises(IllegalMove) as info:
        game.apply(Place(wrong, rack[0]))
    assert info.value.rule == "K2" and "printed" in str(info.value)
    for refused in (EndTurn(), Pass(), Exchange((rack[0],))):
        with pytest.raises(IllegalMove, match="place every tile"):
            game.apply(refused)
    assert game.snapshot() == before
    for _ in range(3):
        game.apply(next(iter(game.legal_placements())))
    assert game.to_move == 1 and len(game.rack(0)) == 3


def test_numbered_scoring_one_point_for_plus_or_minus() -> None:
    """K2: 1 point when the two tiles next to it in a line make it by + or -, else 0."""
    # Row 1 reads 20 4 2 12 ...: a 2 on C1 next to D1=12? No: C1 is printed 2 and takes a
    # 2; with D1=12 and E1=14 beside it, 14 - 12 = 2 scores 1.
    board = _board(JUNIOR_NUMBERS, D1=12, E1=14)
    c1 = board.grid.parse("C1")
    assert JUNIOR_NUMBERS.placement_points(board, c1, 2) == 1
    board2 = _board(JUNIOR_NUMBERS, D1=12, E1=15)
    assert JUNIOR_NUMBERS.placement_points(board2, c1, 2) == 0


def test_numbered_strict_house_rule_forces_the_scoring_square() -> None:
    """K2 house rule 'strict': a scoring square is compulsory when one exists."""
    rules = HouseRules(strict=True)
    racks = ((12, 14, 2), (1, 1, 1))
    bag = (3,) * 10
    game = BoardGame("junior-numbers", 2, house_rules=rules, setup=Setup(racks, bag))
    game.apply("D1=12")
    game.apply("E1=14")
    two_squares = JUNIOR_NUMBERS.number_cells[2]
    c1 = game.board.grid.parse("C1")
    other = next(c for c in two_squares if c != c1)
    with pytest.raises(IllegalMove) as info:
        game.apply(Place(other, 2))
    assert "scoring square" in str(info.value)
    game.apply(Place(c1, 2))
    assert game.scores[0] == 1


def test_numbered_game_ends_when_every_tile_is_placed() -> None:
    """K3: the game ends when the pot is empty and every tile has been placed."""
    game = BoardGame("junior-numbers", 3, seed=9)
    while not game.is_over:
        game.apply(next(iter(game.legal_placements())))
    assert game.bag_size == 0 and all(not game.rack(s) for s in range(3))
    assert sum(1 for v in game.board.values if v > 0) == 60
    assert "every tile" in game.end_reason


def _refereed(racks: tuple[tuple[int, ...], ...], bag: tuple[int, ...]) -> BoardGame:
    rules = HouseRules(table_referee=True, allow_undo=True)
    return BoardGame("junior-numbers", ["Ann", "Bob"], house_rules=rules, setup=Setup(racks, bag))


def test_c12_the_table_referee_on_the_numbered_board() -> None:
    """C12 on the numbered board: the house rule is offered; a tile on a square not
    printed with its number is a mistake that scores as K2 scores the square (1 when the
    two tiles next to it in a line make it by + or -, else 0), never value x multiplier;
    an opponent's challenge cuts the turn at the mistake."""
    assert "table_referee" in game_type_of(JUNIOR_NUMBERS).house_rules
    game = _refereed(((4, 2, 6), (1, 1, 1)), (3,) * 10)
    game.apply("A7=4")
    game.apply("B7=2")
    game.apply("C7=6")  # C7 is printed 2: a mistake; 4 + 2 = 6 beside it
    assert game.scores == (1, 0) and game.to_move == 1
    assert game.view(1).available[0] == "challenge"
    game.apply("challenge")
    assert game.turns[-1].challenged and game.scores == (0, 0)
    assert game.board.values[game.board.grid.parse("C7")] == -1
    assert game.board.values[game.board.grid.parse("B7")] == 2
    assert game.rack(0) == (3, 3, 6) and game.to_move == 1
    nothing = _refereed(((4, 2, 9), (1, 1, 1)), (3,) * 10)
    for text in ("A7=4", "B7=2", "C7=9"):  # no + or - of 2 and 4 makes 9
        nothing.apply(text)
    assert nothing.scores == (0, 0)


def test_c12_the_numbered_board_stays_open_for_a_challenge_at_the_end() -> None:
    """C12 and K3: the last turn stays open for the next seat (though it sits out) to
    challenge or accept; after a challenge the player whose tile came back plays on."""
    game = _refereed(((4, 2, 6), ()), ())
    for text in ("A7=4", "B7=2", "C7=6"):
        game.apply(text)
    assert not game.is_over and game.to_move == 1
    assert game.view(1).available == ("challenge", "accept")
    assert game.view(0).available == ()
    game.apply("challenge")
    assert not game.is_over and game.to_move == 0 and game.rack(0) == (6,)
    game.apply("E7=6")  # a square printed 6
    assert not game.is_over and game.view(1).available == ("challenge", "accept")
    game.apply("accept")
    assert game.is_over and "every tile" in game.end_reason and game.scores == (0, 0)


def test_c12_others_sitting_out_may_challenge_before_the_player_goes_again() -> None:
    """C12 and K3: when the others sit out the player who made the turn would move next;
    the turn first stays open for an opponent to challenge or accept."""
    game = _refereed(((4, 2, 6), ()), (5,) * 6)
    for text in ("A7=4", "B7=2", "C7=6"):
        game.apply(text)
    assert game.to_move == 1 and game.view(1).available == ("challenge", "accept")
    assert game.view(1).status == (
        "Ann's turn may be challenged before Ann plays again: Bob, challenge or accept?"
    )
    game.apply("accept")
    assert game.to_move == 0 and game.scores == (1, 0) and game.rack(0) == (5, 5, 5)


def test_numbered_racks_are_face_up() -> None:
    """K2: tiles lie face up, so every view shows every rack."""
    game = BoardGame("junior-numbers", 2, seed=3)
    assert game.view(0).open_racks == (game.rack(0), game.rack(1))
    assert game.position(0).racks == (game.rack(0), game.rack(1))
