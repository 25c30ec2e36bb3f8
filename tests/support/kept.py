"""Random engine games entered into the score keeper (issue 37), as a table would enter
them: shared by the keeper's rules, analysis and record tests."""

from __future__ import annotations

import random

from mathable.engine.protocol import Game
from mathable.games.board.keeper import KeptGame
from mathable.games.board.variants import get_variant
from mathable.games.quattro.game import QuattroGame
from mathable.games.quattro.keeper import KeptQuattro
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


def random_quattro(seed: int, players: int, rounds: int) -> QuattroGame:
    """A Quattro match of the engine played by random actions to its end (or a turn's end
    after many actions), announcing DIAGO now and then."""
    names = ["Ann", "Bob", "Cid", "Dee"][:players]
    game, rng = new_game("quattro", names, seed=seed, rounds=rounds), random.Random(seed)
    assert isinstance(game, QuattroGame)
    for step in range(3000):
        if game.is_over or (step > 2000 and not game.turn_plays and game.phase == "play"):
            break
        actions = list(game.legal_actions())
        diago = [a for a in actions if game.format_action(a) == "diago"]
        rest = [a for a in actions if a not in diago] or diago
        game.apply(rng.choice(diago if diago and rng.random() < 0.15 else rest))
    return game


def kept_quattro_copy(game: QuattroGame) -> KeptQuattro:
    """A Quattro match entered into the keeper turn by turn, as a table would: the four
    cards turned up, then each turn in the engine's notation (an exchange without the
    value of the card discarded face down)."""
    start = game.fresh()
    kept = KeptQuattro(game.players, first=start.to_move, rounds=game.rounds)
    kept.play(" ".join(f"{pile}={value}" for pile, value in zip("ABCD", start.tops, strict=True)))
    for turn, summary in zip(game.turns, game.summaries(), strict=True):
        entry = ("diago " if turn.diago else "") + summary.notation
        made = kept.play(entry)
        assert made.seat == summary.seat == turn.seat
    return kept
