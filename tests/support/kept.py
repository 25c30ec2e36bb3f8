"""Random engine games entered into the score keeper (issue 37), as a table would enter
them: shared by the keeper's rules, analysis and record tests."""

from __future__ import annotations

import random

from mathable.engine.protocol import Game
from mathable.games.board.keeper import KeptGame
from mathable.games.board.variants import get_variant
from mathable.games.registry import new_game


def random_game(variant: str, seed: int, players: int) -> Game:
    """A game of the engine played to its end by random actions, placing mostly."""
    names = ["Ann", "Bob", "Cid", "Dee"][:players]
    game, rng = new_game(variant, names, seed=seed), random.Random(seed)
    for _ in range(600):
        if game.is_over:
            break
        actions = list(game.legal_actions())
        places = [a for a in actions if "=" in game.format_action(a)]
        others = [a for a in actions if "=" not in game.format_action(a)]
        moving = places and (rng.random() < 0.85 or not others)
        game.apply(rng.choice(places if moving else others))
    return game


def kept_copy(game: Game) -> KeptGame:
    """The game entered into the keeper turn by turn, as a table would (exchanges by
    their count only: the keeper never sees the values)."""
    turns = game.summaries()
    kept = KeptGame(get_variant(game.name), game.players, first=turns[0].seat)
    for turn in turns:
        entry = turn.notation
        if entry.startswith("exchange"):
            entry = f"exchange {len(entry.split(' ', 1)[1].split(','))}"
        kept.play(entry)
        assert kept.turns[-1].seat == turn.seat
    if game.is_over:
        left = [",".join(map(str, game.rack(s))) or "-" for s in range(len(game.players))]
        kept.play("end " + " / ".join(left))
    return kept
