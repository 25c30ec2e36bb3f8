"""Computer players answer the questions a game puts to them (J4 proposals, C12)."""

from __future__ import annotations

from mathable.ai import get_bot
from mathable.engine.actions import Accept, Challenge, Decline
from mathable.engine.protocol import Game, HouseRules
from mathable.games.registry import new_game

EMPTY_POT = {"racks": [[1, 3, 18, 19, 20], [2, 4, 16, 17, 15]], "bag": [], "to_move": 0}
"""J4: a stop is proposed once the pot is empty (issue 31)."""


def _junior_with_a_proposal(ann_scores_first: bool) -> Game:
    game = new_game("junior", ["Ann", "Bot"], setup=EMPTY_POT)
    if ann_scores_first:
        best = get_bot("greedy", 1)
        while game.to_move == 0:
            game.apply(best.act(game.view(0)))
        game.apply("pass")  # the bot's turn
    game.apply("stop")
    return game


def test_a_bot_behind_declines_a_proposal_to_stop() -> None:
    game = _junior_with_a_proposal(ann_scores_first=True)
    view = game.view(1)
    assert set(view.available) == {"accept", "decline"}
    assert view.scores[1] < view.scores[0]
    for level in ("gentle", "greedy", "strong"):
        assert get_bot(level, 1).act(view) == Decline()


def test_a_bot_level_or_ahead_accepts_a_proposal_to_stop() -> None:
    game = _junior_with_a_proposal(ann_scores_first=False)
    view = game.view(1)
    assert set(view.available) == {"accept", "decline"}
    assert view.scores[1] >= view.scores[0]
    assert get_bot("strong", 1).act(view) == Accept()
    game.apply(get_bot("strong", 1).act(view))
    assert game.is_over


def test_a_bot_challenges_a_mistake_and_not_a_legal_turn() -> None:
    """C12 under the table referee: a wrong token on the board is challenged by the bot
    to move; a legal turn is not."""
    game = new_game("classic", ["Ann", "Bot"], seed=5, house_rules=HouseRules(table_referee=True))
    if game.to_move == 1:
        game.apply("pass")
    view = game.view(0)
    legal = game.legal_placements()
    value = view.rack[0]
    wrong = next(
        c for c in range(len(view.surface)) if view.surface[c] < 0 and (c, value) not in legal
    )
    game.apply(f"{game.cell_names.name(wrong)}={value}")
    game.apply("end")
    assert "challenge" in game.view(1).available
    assert get_bot("greedy", 2).act(game.view(1)) == Challenge()

    fair = new_game("classic", ["Ann", "Bot"], seed=5, house_rules=HouseRules(table_referee=True))
    if fair.to_move == 1:
        fair.apply("pass")
    fair.apply(get_bot("greedy", 1).act(fair.view(0)))
    while fair.to_move == 0:
        fair.apply(get_bot("greedy", 1).act(fair.view(0)))
    assert "challenge" in fair.view(1).available
    assert get_bot("greedy", 2).act(fair.view(1)) != Challenge()
