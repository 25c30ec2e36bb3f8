"""The worker keeps a computer player between its actions (issue 16): speed only, the
decisions are those of a player made afresh for every action."""

from __future__ import annotations

from mathable.ai import get_bot
from mathable.games.registry import new_game
from mathable.web.infra import workers


def test_a_kept_player_plays_as_one_made_afresh_for_every_action() -> None:
    # No time budget: a busy machine must not cut one player's simulations shorter.
    for level in ("strong", "expert:samples=4,budget_ms=none"):
        games = []
        for kept in (True, False):
            workers._kept.clear()
            game = new_game("classic", ["a", "b"], seed=31)
            moves = []
            for _ in range(60):
                if game.is_over:
                    break
                seat = game.to_move
                view = game.view(seat)
                if kept:
                    action = workers.bot_move(level, 31 * 8 + seat, view)
                else:
                    action = get_bot(level, 31 * 8 + seat).act(view)
                moves.append(action)
                game.apply(action)
            games.append(moves)
            if kept:
                assert set(workers._kept) == {(level, 31 * 8), (level, 31 * 8 + 1)}
        assert games[0] == games[1], level


def test_the_workers_keep_a_bounded_number_of_players() -> None:
    workers._kept.clear()
    view = new_game("classic", ["a", "b"], seed=1).view(0)
    for seed in range(workers.KEPT_BOTS + 20):
        workers.bot_move("greedy", seed, view)
    assert len(workers._kept) == workers.KEPT_BOTS
    assert ("greedy", 0) not in workers._kept  # the least recently used went first
