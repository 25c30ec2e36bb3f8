"""Issue 32's words from the rules engine: a turn that ends by itself says so in its
summary (``no_fit``, in the view's JSON too), and Junior's end says "tile", as its page
does, where the classic game says "token"."""

from __future__ import annotations

import random

from mathable.engine.protocol import Game
from mathable.games.registry import new_game


def random_game(variant: str, seed: int) -> Game:
    """A game played to its end by random placements (a pass or exchange when none)."""
    game, rng = new_game(variant, ["A", "B"], seed=seed), random.Random(seed)
    for _ in range(400):
        if game.is_over:
            break
        actions = list(game.legal_actions())
        places = [a for a in actions if "=" in game.format_action(a)]
        game.apply(rng.choice(places) if places else actions[0])
    return game


def test_junior_ends_with_its_own_word_for_its_pieces() -> None:
    game = random_game("junior", 0)
    assert game.is_over
    assert game.end_reason == "no tile in play can be placed anywhere"


def test_a_turn_that_ends_by_itself_says_so() -> None:
    game = random_game("junior", 0)
    summaries = game.view(None).summaries
    ended = [s for s in summaries if s.no_fit]
    assert ended and len(ended) < len(summaries)
    assert all(s.notation != "pass" for s in ended)  # it placed, then nothing more fitted
    shown = game.view(None).to_dict()["summaries"]
    assert [s["no_fit"] for s in shown] == [s.no_fit for s in summaries]
