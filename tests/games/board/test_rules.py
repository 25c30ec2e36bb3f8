"""One test (or a few) per ruling of the classic game, C1-C13, each checking that an
illegal action is refused with its reason and leaves the game unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from mathable.engine.actions import Action, Challenge, EndTurn, Exchange, Pass, Place
from mathable.engine.arithmetic import ALL_OPS, pair_results
from mathable.engine.errors import IllegalMove
from mathable.engine.protocol import Game, HouseRules
from mathable.engine.records import replay_record, to_record
from mathable.engine.tokens import CLASSIC_TOKENS
from mathable.games.board.board import Board, RuleTables
from mathable.games.board.game import BoardGame
from mathable.games.board.layouts import parse_layout
from mathable.games.board.turns import Setup
from mathable.games.board.variants import CLASSIC
from oracle import makes

SHARED_REFERENCE = (
    Path(__file__).resolve().parents[4] / "shared" / "reference" / "classic-board.txt"
)
REFERENCE = Path(__file__).resolve().parents[2] / "data" / "classic-board.txt"
"""The reference board, copied from ``shared/reference`` (two lines of provenance first)."""
FILL = tuple([9] * 20 + [10] * 7 + [8] * 6)  # a bag of harmless tokens, drawn in order


def game_with(
    rack0: tuple[int, ...],
    rack1: tuple[int, ...] = (90, 81, 80, 72, 70, 64, 63),
    bag: tuple[int, ...] = FILL,
    **house: bool,
) -> BoardGame:
    return BoardGame(
        "classic",
        ["Ann", "Bob"],
        seed=1,
        house_rules=HouseRules(**house),
        setup=Setup((rack0, rack1), bag),
    )


def refused(game: Game, action: Action | str, rule: str, where: str = "") -> IllegalMove:
    before = game.snapshot(), game.log
    with pytest.raises(IllegalMove) as info:
        game.apply(action)
    assert info.value.rule == rule, str(info.value)
    if where:
        assert info.value.where == where
    assert (game.snapshot(), game.log) == before
    return info.value


def board_with(**cells: int) -> Board:
    grid = CLASSIC.layout.grid
    initial = {c: sq.start for c, sq in enumerate(CLASSIC.layout.squares) if sq.start}
    initial.update({grid.parse(k): v for k, v in cells.items()})
    return CLASSIC.new_board(initial)


def test_c1_board_and_centre() -> None:
    layout = CLASSIC.layout
    assert layout.size == 14
    start = {layout.grid.name(c): layout.squares[c].start for c in layout.start_cells()}
    assert start == {"G7": 1, "H7": 2, "G8": 3, "H8": 4}
    kinds = [str(sq) if sq.start is None else "c" for sq in layout.squares]
    n = layout.size
    for turned in (
        [kinds[(n - 1 - c) * n + r] for r in range(n) for c in range(n)],  # quarter turn
        [kinds[r * n + (n - 1 - c)] for r in range(n) for c in range(n)],  # mirror
    ):
        assert [k in "+-x/" for k in kinds] == [k in "+-x/" for k in turned]
        assert [k if k not in "+-x/" else "op" for k in kinds] == [
            k if k not in "+-x/" else "op" for k in turned
        ]
    assert parse_layout("ref", REFERENCE.read_text(encoding="utf-8")) == parse_layout(
        "ref", CLASSIC.layout.to_text()
    )


@pytest.mark.skipif(not SHARED_REFERENCE.exists(), reason="shared/reference is not beside the repo")
def test_c1_the_copied_board_is_the_references_own() -> None:
    copy = REFERENCE.read_text(encoding="utf-8").splitlines()
    assert copy[2:] == SHARED_REFERENCE.read_text(encoding="utf-8").splitlines()


def test_c2_token_set() -> None:
    assert sum(CLASSIC_TOKENS.values()) == 106
    assert all(CLASSIC_TOKENS[v] == 7 for v in range(1, 11))
    assert CLASSIC_TOKENS[0] == 1 and 23 not in CLASSIC_TOKENS and CLASSIC_TOKENS[90] == 1
    assert sorted(BoardGame(seed=3).census().elements()) == sorted(
        v for v, n in CLASSIC_TOKENS.items() for _ in range(n)
    )


def test_c3_pairs_in_line_only_never_diagonal_nor_between() -> None:
    board = board_with()
    grid = board.grid
    assert board.equations(grid.parse("I8"), 12) == 1  # 3 x 4 to the right of the 4
    assert board.equations(grid.parse("F8"), 12) == 1  # and to the left of the 3
    assert board.equations(grid.parse("I9"), 4) == 0  # diagonal to 1..4: never
    between = board_with(G10=5)  # G8=3 . G10=5: G9 lies between, no equation from them
    assert between.equations(grid.parse("G9"), 8) == 0
    assert between.equations(grid.parse("G9"), 2) == 1  # but 3 - 1 above still counts


def test_c3_operand_order_exact_division_and_zero() -> None:
    assert pair_results(2, 6, ALL_OPS) == pair_results(6, 2, ALL_OPS) == {8, 4, 12, 3}
    assert 2 not in pair_results(5, 2, ALL_OPS)  # 5 / 2 is not exact
    assert pair_results(0, 7, ALL_OPS) == {7, 0}  # 0 / 7 = 0; 7 / 0 never
    assert pair_results(0, 0, ALL_OPS) == {0}


def test_c3_the_tables_make_what_the_naive_arithmetic_makes_for_every_pair() -> None:
    """Every pair of token values under every set of operations: the board's memoised
    masks (filled by ``pair_values`` on plain ints, issue 35) hold exactly the values the
    oracle's own arithmetic makes, asked twice (filled, then memoised)."""
    tables = RuleTables.for_board.__wrapped__(CLASSIC.layout)  # its own, empty memo
    values = sorted(set(CLASSIC_TOKENS))
    for code in range(16):
        ops = [op for op in (1, 2, 4, 8) if code & op]
        for a in values:
            for b in values:
                wanted = 0
                for v in values:
                    if any(makes(a, b, v, op) for op in ops):
                        wanted |= tables.bit_of[v]
                assert tables.result_mask(a, b, code) == wanted, (a, b, code)
                assert tables.result_mask(a, b, code) == wanted, (a, b, code)


def test_c4_two_directions_count_twice_and_one_pair_once() -> None:
    board = board_with(F9=6, G9=2)
    h9 = board.grid.parse("H9")
    assert board.equations(h9, 8) == 2  # 6 + 2 across and 2 x 4 down
    assert board.points(h9, 8) == 16
    board2 = board_with(I8=2, J8=2)  # pair (2, 2) beyond K8? K8 is a x square
    assert board2.equations(board2.grid.parse("K8"), 4) == 1  # 2 x 2 (and 2 + 2): once


def test_c5_restriction_squares() -> None:
    game = game_with((7, 1, 12, 16, 2, 8, 42))
    game.apply("I8=12")
    refused(game, "J8=8", "C5", "J8")  # 12 - 4 on the + square J8
    game.apply("J8=16")
    board = board_with(E8=21, E9=3)
    assert board.equations(board.grid.parse("E7"), 7) == 0  # 21 / 3 above the 21: a + square
    assert board.equations(board.grid.parse("E10"), 7) == 1


def test_c6_award_squares_and_zero() -> None:
    board = board_with(E8=21, E9=3)
    assert board.points(board.grid.parse("E10"), 7) == 14  # 2x
    board3 = board_with(B8=0, C8=4)  # A8 is 3x: 0 + 4 = 4 scores 12, and 0 x 4 = 0 scores 0
    a8 = board3.grid.parse("A8")
    assert board3.points(a8, 4) == 12 and board3.points(a8, 0) == 0
    assert board3.equations(a8, 0) == 1


def test_c7_extra_token() -> None:
    game = game_with((12, 16, 1, 2, 3, 5, 6), bag=(11, *FILL))
    game.apply("I8=12")
    refused(game, "F7=1+", "C7", "F7")  # not a restriction square
    game.apply("J8=16+")
    assert 11 in game.rack(0)
    empty_bag = game_with((12, 16, 1, 2, 3, 5, 6), bag=())
    empty_bag.apply("I8=12")
    refused(empty_bag, "J8=16+", "C7")


def test_c8_turn_structure() -> None:
    game = game_with((12, 16, 1, 2, 3, 5, 6), bag=(9, 9, 9))
    refused(game, EndTurn(), "C8")
    refused(game, Exchange((1, 2, 3, 5)), "C8")  # the bag holds only 3
    refused(game, Exchange((7,)), "C8")  # not on the rack
    one_five = refused(game, Exchange((5, 5)), "C8")  # one 5 on the rack, not two
    assert "no 5 on your rack" in str(one_five)
    two_missing = refused(game, Exchange((6, 9, 7)), "C8")  # the smallest missing is named
    assert "no 7 on your rack" in str(two_missing)
    refused(game, "I8=13", "C8")  # not on the rack
    game.apply("I8=12")
    refused(game, Pass(), "C8")
    refused(game, Exchange((1,)), "C8")
    game.apply(EndTurn())
    assert len(game.rack(0)) == 7 and game.bag_size == 2
    game.apply(Exchange((90, 81)))
    assert sorted(game.rack(1)).count(9) == 2 and game.bag_size == 2
    assert sorted(game.bag_order()) == [81, 90]


def test_c9_bonus_only_from_a_full_rack() -> None:
    short = game_with((12, 8), bag=FILL)
    short.apply("I8=12")
    short.apply("H6=8")
    assert short.turns[-1].bonus == 0 and short.scores[0] == 20


def test_c10_start_draws_stay_on_the_racks() -> None:
    ties = 0
    for seed in range(30):
        game = BoardGame("classic", 3, seed=seed)
        draws = list(game.start_draws)
        for seat, value in draws:
            assert value in game.rack(seat)
        contenders = [0, 1, 2]  # everyone draws; the highest starts; ties draw again
        while True:
            round_, draws = draws[: len(contenders)], draws[len(contenders) :]
            assert [seat for seat, _ in round_] == contenders
            best = max(value for _, value in round_)
            contenders = [seat for seat, value in round_ if value == best]
            if len(contenders) == 1:
                break
            ties += 1
        assert draws == [] and game.to_move == contenders[0]
        assert all(len(game.rack(s)) == 7 for s in range(3))
    assert ties > 0  # the seeds include a tie, so the redraw is checked too


def test_c11_end_when_bag_empty_and_rack_emptied_with_deduction() -> None:
    game = game_with((12,), rack1=(5, 3), bag=())
    game.apply("I8=12")
    assert game.is_over and "placed every token" in game.end_reason
    assert game.scores == (12, -8) and game.deductions == (0, 8)
    assert game.winners() == (0,)


def test_c11_end_when_no_token_can_be_placed() -> None:
    game = game_with((90,), rack1=(81,), bag=(72,))
    game.apply(Pass())
    assert game.is_over and "no token" in game.end_reason  # the 72 in the bag fits nowhere
    stuck = BoardGame("classic", 2, setup=Setup(((90, 81), (80, 72)), (70,)))
    assert not stuck.is_over
    stuck.apply(Pass())
    assert stuck.is_over and "no token" in stuck.end_reason
    assert stuck.scores == (-171, -152)


def test_c11_two_idle_rounds_end_the_game() -> None:
    game = game_with((1, 2, 3, 4, 5, 6, 7))
    for _ in range(3):
        game.apply(Pass())
    assert not game.is_over
    game.apply(Pass())
    assert game.is_over and "two full rounds" in game.end_reason
    refused(game, Pass(), "C11")


def test_c12_table_referee() -> None:
    game = game_with((12, 16, 1, 2, 8, 5, 6), table_referee=True)
    refused(game, Challenge(), "C12")
    game.apply("I8=12")
    game.apply("H6=8")
    game.apply("A1=5")  # a mistake, accepted provisionally
    game.apply("F7=1")
    game.apply(EndTurn())
    assert game.scores[0] == 12 + 8 + 5 * 3 + 1
    game.apply(Challenge())
    assert game.scores[0] == 20  # only the points before the mistake
    assert game.board.values[game.board.grid.parse("A1")] == -1
    assert game.board.values[game.board.grid.parse("F7")] == -1
    assert game.turns[-1].challenged and game.to_move == 1
    assert {1, 5} <= set(game.rack(0)) and len(game.rack(0)) == 7
    refused(game, Challenge(), "C12")  # a turn is challenged once


def test_c12_failed_challenge_and_window() -> None:
    game = game_with((12, 16, 1, 2, 8, 5, 6), table_referee=True)
    game.apply("I8=12")
    game.apply(EndTurn())
    refused(game, Challenge(), "C12")  # every placement was legal
    plain = game_with((12, 16, 1, 2, 8, 5, 6))
    refused(plain, Challenge(), "C12")
    game2 = game_with((12, 16, 1, 2, 8, 5, 6), table_referee=True)
    game2.apply("A1=5")
    game2.apply(EndTurn())
    game2.apply(Pass())  # the next player moved: too late
    refused(game2, Challenge(), "C12")


def test_c12_only_opponents_may_challenge() -> None:
    """C12: the player who made the turn may not challenge it; ``by`` names the
    challenger (None: the player to move)."""
    game = game_with((12, 16, 1, 2, 8, 5, 6), table_referee=True)
    game.apply("A1=5")  # a mistake
    game.apply(EndTurn())
    assert game.to_move == 1
    assert "challenge" not in game.view(0).available
    assert "challenge" in game.view(1).available
    error = refused(game, Challenge(by=0), "C12")
    assert "only an opponent" in str(error)
    refused(game, Challenge(by=7), "C12")
    game.apply(Challenge(by=1))
    assert game.turns[-1].challenged and game.to_move == 1
    assert game.format_action(game.log[-1]) == "challenge"  # the notation is unchanged


def three_seats(rack0: tuple[int, ...], bag: tuple[int, ...] = ()) -> BoardGame:
    return BoardGame(
        "classic",
        ["Ann", "Bob", "Cy"],
        seed=1,
        house_rules=HouseRules(table_referee=True, allow_undo=True),
        setup=Setup((rack0, (16, 90, 81), (72, 70, 64)), bag),
    )


def test_c12_a_game_ending_mistake_stays_open_for_a_challenge() -> None:
    """C12: a placement that would end the game (emptied rack, empty bag) leaves it open
    until the next player answers: challenge or accept. Any opponent may challenge; the
    player who made the turn may not."""
    game = three_seats((12, 5))
    game.apply("I8=12")
    game.apply("A1=5")  # a mistake that empties Ann's rack with the bag empty
    assert not game.is_over and game.to_move == 1
    bob, ann, cy = game.view(1), game.view(0), game.view(2)
    assert bob.available == ("challenge", "accept")
    assert ann.available == () and cy.available == ("challenge",)
    assert "challenge or accept" in bob.status and "Ann" in bob.status
    refused(game, "pass", "C12")
    refused(game, Challenge(by=0), "C12")  # not Ann's own turn
    game.apply(Challenge(by=2))  # Cy, not to move, challenges
    assert game.turns[-1].challenged and game.scores[0] == 12
    assert game.board.values[game.board.grid.parse("A1")] == -1
    assert game.rack(0) == (5,) and not game.is_over and game.to_move == 1
    # the record says only ``challenge``: it replays to the same game
    again = replay_record(to_record(game), lambda _: game.game_type)
    assert again.snapshot() == game.snapshot()


def test_c12_an_unchallenged_game_ending_turn_ends_the_game_on_accept() -> None:
    """C12: accepting lets the turn stand; the game then ends as usual, racks deducted
    (C11). A failed challenge leaves the question open."""
    legal = three_seats((12,))
    legal.apply("I8=12")  # a legal placement that empties the rack
    assert not legal.is_over and legal.view(1).available == ("challenge", "accept")
    refused(legal, Challenge(), "C12")  # every placement was legal: the challenge fails
    legal.apply("accept")
    assert legal.is_over and "placed every token" in legal.end_reason
    assert legal.scores == (12, -(16 + 90 + 81), -(72 + 70 + 64))
    assert legal.view(1).available == ()


def test_c13_player_card() -> None:
    game = game_with((1, 2, 8, 12, 16, 17, 42), rack1=(3, 4, 6, 7, 7, 8, 21))
    card = game.unseen(0)
    assert card[12] == 0 and card[7] == 7 and card[1] == 6
    assert sum(card.values()) == 106 - 7
    assert game.view(1).unseen[7] == 5


def test_c13_once_the_game_is_over_every_rack_is_seen() -> None:
    """C13: the player card counts what the seat has not seen; at the end the racks are
    shown (C11), so only the bag stays unseen."""
    game = game_with((90,), rack1=(81,), bag=(72,))
    game.apply(Pass())
    assert game.is_over
    assert game.unseen(0)[81] == CLASSIC_TOKENS[81] - 1  # Bob's 81 lies face up
    assert sum(game.unseen(0).values()) == sum(game.unseen(None).values())


def test_undo_is_a_house_rule() -> None:
    strict = game_with((12, 16, 1, 2, 8, 5, 6))
    strict.apply("I8=12")
    refused(strict, "I8=12", "C3", "I8")
    with pytest.raises(IllegalMove, match="undo is off"):
        strict.undo()
    casual = game_with((12, 16, 1, 2, 8, 5, 6), allow_undo=True)
    before = casual.snapshot()
    casual.apply("I8=12")
    casual.undo()
    assert casual.snapshot() == before and casual.log == ()


def test_every_refusal_names_the_cell() -> None:
    game = game_with((12, 16, 1, 2, 8, 5, 6))
    error = refused(game, Place(CLASSIC.layout.grid.parse("N14"), 12), "C3", "N14")
    assert "N14" in str(error) and "rule C3" in str(error)


def test_a_refusal_counts_in_words_that_agree() -> None:
    """'the bag holds only 1 token', never '1 tokens' (issue 14)."""
    game = BoardGame("classic", 2, setup=Setup(((90, 81), (80, 72)), (70,)))
    with pytest.raises(IllegalMove, match=r"only 1 token, fewer than the 2 to exchange"):
        game.apply(Exchange((90, 81)))


def test_a_placed_token_made_without_its_init_is_the_one_its_init_makes() -> None:
    """The state makes each placed token without its dataclass ``__init__`` (issue 35,
    faster self-play): the same fields, equal, hashed and written alike."""
    from mathable.games.board.state import _placed
    from mathable.games.board.turns import PlacedToken

    for cell, value, points, extra in [(0, 1, 2, False), (195, 100, 0, True)]:
        made, plain = _placed(cell, value, points, extra), PlacedToken(cell, value, points, extra)
        assert vars(made) == vars(plain)
        assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
