"""What a computer player keeps between actions (issue 16): its board, brought up to
date from each view, and its turn plan, followed while the views are where it leads.
Both are for speed only: these tests hold them to deciding exactly as planning afresh."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mathable.ai import ExpertBot, StrongBot, get_bot
from mathable.ai.base import board_from_view, share_board
from mathable.ai.memory import BoardMemory
from mathable.ai.strong import PlanningBot
from mathable.engine.actions import Action, Place
from mathable.engine.protocol import HouseRules
from mathable.games.board.board import Board
from mathable.games.board.game import BoardGame
from mathable.games.board.variants import Variant
from mathable.games.board.view import BoardView
from mathable.games.registry import new_game


def tables(board: Board) -> tuple[object, ...]:
    """Every incremental table of a board, as comparable data."""
    return (list(board.values), list(board.masks), list(board.twice), list(board.cells_by_bit))


@settings(max_examples=12, deadline=None)
@given(
    variant=st.sampled_from(["classic", "junior", "junior-numbers"]),
    seed=st.integers(0, 10_000),
)
def test_a_kept_board_equals_one_built_from_the_view(variant: str, seed: int) -> None:
    """Through a whole game (every level's kind of play, random turns), the kept board
    holds exactly the tables a board built from the view holds."""
    game = new_game(variant, ["a", "b"], seed=seed)
    memory = BoardMemory()
    players = [get_bot("gentle", seed), get_bot("greedy", seed + 1)]
    checked = 0
    while not game.is_over:
        view = game.view(game.to_move)
        assert isinstance(view, BoardView)
        _, kept = memory.board_for(view)
        assert tables(kept) == tables(board_from_view(view)[1])
        checked += 1
        game.apply(players[game.to_move].act(view))
    # every action's view was checked; a game may be short (hypothesis found a Junior
    # game of 10 actions ended by C11c after two rounds of exchanges)
    assert checked == len(game.log) and game.is_over


def test_a_board_changed_since_its_catch_up_is_compared_cell_by_cell() -> None:
    """A catch-up skips the cells holding the very objects of the last one's tuple; a
    token placed since (a search that did not take it back) is still found."""
    game = new_game("classic", ["a", "b"], seed=11)
    players = [get_bot("greedy", 1), get_bot("greedy", 2)]
    for _ in range(12):
        game.apply(players[game.to_move].act(game.view(game.to_move, explained=False)))
    view = game.view(game.to_move)
    assert isinstance(view, BoardView)
    board = board_from_view(view)[0].new_board()  # the start, caught up to the view
    assert board.catch_up(view.board)
    assert tables(board) == tables(board_from_view(view)[1])
    cell = next(c for c in range(len(view.board)) if view.board[c] < 0 and board.masks[c])
    board.place(cell, board.accepted(cell)[0])
    assert not board.catch_up(view.board)  # the cell holds a token the view does not
    board.unplace()
    assert board.catch_up(view.board)
    for _ in range(6):  # and on, from the kept tuple, as a computer does
        game.apply(players[game.to_move].act(game.view(game.to_move, explained=False)))
        later = game.view(game.to_move)
        assert isinstance(later, BoardView)
        assert board.catch_up(later.board)
        assert tables(board) == tables(board_from_view(later)[1])


def test_computers_sharing_one_board_play_as_with_their_own() -> None:
    """Self-play's computers keep one board between them (``share_board``, issue 35):
    the strong player searches on it and the greedy one reads it, and the games are
    those they play with a board each; after every decision the board is the view's."""
    for seed in (21, 22):
        played: list[list[Action]] = []
        for shared in (False, True):
            game = new_game("classic", ["a", "b"], seed=seed)
            bots = [get_bot("strong", seed), get_bot("greedy", seed + 1)]
            if shared:
                share_board(bots)
                assert bots[0].memory is bots[1].memory  # type: ignore[attr-defined]
            actions: list[Action] = []
            while not game.is_over:
                view = game.view(game.to_move, explained=False)
                assert isinstance(view, BoardView)
                actions.append(bots[game.to_move].act(view))
                memory = bots[game.to_move].memory  # type: ignore[attr-defined]
                assert tables(memory.board_for(view)[1]) == tables(board_from_view(view)[1])
                game.apply(actions[-1])
            played.append(actions)
        assert played[0] == played[1] and len(played[0]) > 50


def test_a_token_taken_back_rebuilds_the_kept_board() -> None:
    """C12: a challenged turn leaves the board; the kept board must lose its tokens too."""
    game = new_game("classic", ["Ann", "Bot"], seed=5, house_rules=HouseRules(table_referee=True))
    if game.to_move == 1:
        game.apply("pass")
    memory = BoardMemory()
    view = game.view(0)
    assert isinstance(view, BoardView)
    memory.board_for(view)
    legal = game.legal_placements()
    value = view.rack[0]
    wrong = next(
        c for c in range(len(view.surface)) if view.surface[c] < 0 and (c, value) not in legal
    )
    game.apply(f"{game.cell_names.name(wrong)}={value}")
    game.apply("end")
    during = game.view(1)
    assert isinstance(during, BoardView)
    assert tables(memory.board_for(during)[1]) == tables(board_from_view(during)[1])
    game.apply("challenge")
    after = game.view(game.to_move)
    assert isinstance(after, BoardView) and after.board[wrong] < 0
    assert tables(memory.board_for(after)[1]) == tables(board_from_view(after)[1])


class Counting(StrongBot):
    """The strong player, counting its decisions."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.decisions = 0

    def choose(self, view: BoardView, variant: Variant, board: Board):  # type: ignore[no-untyped-def]
        self.decisions += 1
        return super().choose(view, variant, board)


def test_the_strong_player_kept_decides_as_one_made_afresh_for_each_action() -> None:
    """The server's workers may make a computer player afresh for every action: on these
    deals the game is the same either way (a near-tie of the threat shortlist could part
    them), and the kept one plans once a turn plus once per extra token."""
    for seed in (11, 12):
        kept = Counting(seed)
        moves: list[list[Action]] = [[], []]
        turns = 0
        for afresh, record in ((False, moves[0]), (True, moves[1])):
            game = new_game("classic", ["a", "b"], seed=seed)
            while not game.is_over:
                view = game.view(game.to_move)
                assert isinstance(view, BoardView)
                bot = StrongBot(seed) if afresh else kept
                action = bot.act(view)
                record.append(action)
                if not afresh and not view.turn_placements:
                    turns += 1
                game.apply(action)
        assert moves[0] == moves[1]
        placements = sum(isinstance(a, Place) for a in moves[0])
        assert kept.decisions < placements  # it did not plan again at every placement
        assert kept.decisions <= turns + sum(
            1 for a in moves[0] if isinstance(a, Place) and a.extra
        )


def test_an_extra_token_plans_the_turn_once_more_not_at_every_action() -> None:
    """Issue 16's slow turns: after a placement took the extra token (C7) the expert
    planned again at every later action of the turn. Now: at most once more per extra
    token drawn, however many actions follow."""
    seen_extra = 0
    for seed in range(40, 52):
        rng = random.Random(seed)
        classic = new_game("classic", ["a", "b"], seed=seed)
        assert isinstance(classic, BoardGame)
        game = BoardGame(classic.variant, 2, seed=seed)
        expert = CountingExpert(seed)
        while not game.is_over:
            seat = game.to_move
            view = game.view(seat)
            assert isinstance(view, BoardView)
            if seat == 1:
                game.apply(get_bot("greedy", rng.randrange(100)).act(view))
                continue
            if not view.turn_placements:
                expert.decisions = 0
                extras = 0
            action = expert.act(view)
            if isinstance(action, Place) and action.extra:
                extras += 1
                seen_extra += 1
            assert expert.decisions <= 1 + extras
            game.apply(action)
    assert seen_extra >= 3  # the situation of the finding did occur


class CountingExpert(ExpertBot):
    """A quick expert, counting its decisions, without even the safety cap (its seed
    alone decides: no test depends on the machine's speed)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed, samples=2, cap_ms=None)  # its seed alone decides
        self.decisions = 0

    def choose(self, view: BoardView, variant: Variant, board: Board):  # type: ignore[no-untyped-def]
        self.decisions += 1
        return super().choose(view, variant, board)


def test_planning_levels_are_planning_bots() -> None:
    assert isinstance(get_bot("strong"), PlanningBot)
    assert isinstance(get_bot("expert"), PlanningBot)


def test_a_bot_made_afresh_mid_turn_resumes_the_plan_of_the_turn_start() -> None:
    """A bot made afresh for every action with the turn's seed (as a server's worker
    pool may) plays the very game a bot kept all turn plays: it plans from the turn's
    start and follows. The expert too, whose samples come from its seed."""
    for level, factory in (("strong", StrongBot), ("expert", CountingExpert)):
        for seed in (21, 22, 23):
            games = []
            for afresh in (False, True):
                game = new_game("classic", ["a", "b"], seed=seed)
                moves: list[Action] = []
                kept: dict[int, PlanningBot] = {}
                while not game.is_over:
                    view = game.view(game.to_move)
                    assert isinstance(view, BoardView)
                    turn_seed = seed * 1000 + len(view.turns)
                    if afresh or not view.turn_placements:
                        kept[game.to_move] = factory(turn_seed)
                    action = kept[game.to_move].act(view)
                    moves.append(action)
                    game.apply(action)
                games.append(moves)
            assert games[0] == games[1], (level, seed)
