"""What the hidden tokens are worth to a simulating player: its simulations told the truth.

The clairvoyant plays as a level (the master by default) whose simulations deal what is
really hidden instead of a sample of it: with ``--sees rack`` the opponent's true rack
(the bag's order still sampled), with ``--sees all`` the true rack and the bag's true
drawing order, with ``--sees nothing`` a uniform deal (the control: the same player,
told nothing, without the inference of what the opponent kept), with ``--sees fair``
the level as it plays (its own inference, told nothing), with ``--sees kept`` the tokens
the opponent kept at the end of its last turn (those it drew since still sampled: what
the best inference from its turns could know, at most). It plays the expert on
paired deals (each deal twice, seats swapped), and the JSON gives its margin and win
rate with 95% intervals over the deals: the ceiling that knowing the hidden tokens puts
on the level (issue 35). Not a player: it reads the game's hidden state.

    .venv/bin/python benchmarks/clairvoyant.py --sees rack --deals 100 --seed 7000000 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from mathable.ai import get_bot
from mathable.ai.arena import paired_figures
from mathable.ai.base import Bot
from mathable.ai.strong import ExpertBot
from mathable.engine.view import View
from mathable.games.board.game import BoardGame
from mathable.games.registry import new_game

SEES = ("fair", "nothing", "kept", "rack", "all")


class TruthfulDeal(random.Random):
    """A decision's random source whose one shuffle of the unseen tokens (the deal of
    :func:`mathable.ai.inference.deal` without a prior: the opponent's rack first, then
    the bag in drawing order) gives what ``sees`` says is true; every other draw is
    random, seeded as the level's own."""

    def __init__(
        self,
        seed: int,
        rack: Sequence[int],
        bag_order: Sequence[int],
        sees: str,
        kept: Sequence[int] = (),
    ):
        super().__init__(seed)
        self.rack, self.bag_order, self.sees = list(rack), list(bag_order), sees
        self.kept = list(kept)

    def sample(self, population: Any, k: int, *, counts: Any = None) -> list[Any]:
        truth = self.rack + self.bag_order
        if self.sees == "nothing" or k != len(truth):
            return super().sample(population, k, counts=counts)
        if sorted(population) != sorted(truth):
            raise AssertionError("the unseen tokens are not the opponent's rack and the bag")
        if self.sees == "rack":
            rest = list(self.bag_order)
            self.shuffle(rest)
            return self.rack + rest
        if self.sees == "kept":
            rest = list(truth)
            for value in self.kept:
                rest.remove(value)
            self.shuffle(rest)
            return self.kept + rest
        return truth


class DrawWatcher:
    """Which tokens each seat drew in its last turn: the first of the bag's drawing
    order at the turn's start, as many as left the bag (after an exchange, which shakes
    the bag, unknown: every token of the rack counts as drawn)."""

    def __init__(self, game: BoardGame) -> None:
        self.game = game
        self.drawn: dict[int, list[int] | None] = {}
        self.mover, self.bag_at_start = -1, list(game.bag_order())

    def before(self) -> None:
        """Call before each action: a new turn starts when the seat to move changes."""
        if self.game.to_move != self.mover:
            self.mover, self.bag_at_start = self.game.to_move, list(self.game.bag_order())

    def after(self) -> None:
        """Call after each action: a turn that ended records what its seat drew."""
        if self.game.to_move != self.mover:
            now = len(self.game.bag_order())
            gone = len(self.bag_at_start) - now
            self.drawn[self.mover] = self.bag_at_start[:gone] if gone > 0 else None

    def kept(self, seat: int) -> list[int]:
        """The tokens on ``seat``'s rack that it kept at the end of its last turn."""
        rack = list(self.game.rack(seat))
        drawn = self.drawn.get(seat)
        if drawn is None:
            return []
        for value in drawn:
            if value in rack:  # not an extra token drawn and placed in the same turn (C7)
                rack.remove(value)
        return rack


def clairvoyant(
    level: str, seed: int, game: BoardGame, sees: str, watcher: DrawWatcher | None = None
) -> Bot:
    """``level`` seeded by ``seed``, its simulations dealt the truth of ``game`` that
    ``sees`` names (two players; ``kept`` needs the ``watcher`` of the game's draws)."""
    bot = get_bot(level, seed)
    if not isinstance(bot, ExpertBot):
        raise ValueError(f"{level} does not simulate: nothing to tell it")
    if sees == "fair":
        return bot
    bot.infer = False  # its deal comes from the truth, not from what the opponent kept
    own_chance = bot.chance

    def chance(view: View, *, at: tuple[object, ...] = ()) -> random.Random:
        opponent = 1 - (view.seat or 0)
        seed = own_chance(view, at=at).getrandbits(64)
        kept = watcher.kept(opponent) if watcher is not None else []
        return TruthfulDeal(seed, game.rack(opponent), game.bag_order(), sees, kept)

    bot.chance = chance  # type: ignore[method-assign]
    return bot


def _classic(seed: int, players: Sequence[str]) -> BoardGame:
    """A classic game of two from ``seed``."""
    game = new_game("classic", list(players), seed=seed)
    if not isinstance(game, BoardGame):
        raise TypeError("a board game has a bag to see")
    return game


def play(job: tuple[str, int, int, str]) -> int:
    """The clairvoyant's margin over the expert in the deal ``seed``, in seat ``seat``."""
    level, seed, seat, sees = job
    game = _classic(seed, ["clairvoyant", "expert"][:: 1 if seat == 0 else -1])
    watcher = DrawWatcher(game)
    bots = {seat: clairvoyant(level, seed * 8 + seat, game, sees, watcher)}
    bots[1 - seat] = get_bot("expert", seed * 8 + 1 - seat)
    while not game.is_over:
        to_move = game.to_move
        watcher.before()
        game.apply(bots[to_move].act(game.view(to_move, explained=False)))
        watcher.after()
    return game.scores[seat] - game.scores[1 - seat]


def summary(level: str, sees: str, margins: Sequence[int]) -> dict[str, Any]:
    """The clairvoyant's margin and win rate over paired deals (margins in pairs)."""
    pairs = [margins[i : i + 2] for i in range(0, len(margins), 2)]
    return {
        "level": level,
        "sees": sees,
        "against": "expert",
        "deals": len(pairs),
        **paired_figures(pairs, digits=2),
    }


def main() -> None:
    """Print the clairvoyant's results against the expert as JSON."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--level", default="master", help="the level told the truth")
    parser.add_argument("--sees", choices=SEES, default="all", help="what its deals are told")
    parser.add_argument("--deals", type=int, default=100, help="paired deals (two games each)")
    parser.add_argument("--seed", type=int, default=7_000_000, help="the first deal's seed")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    args = parser.parse_args()
    try:
        clairvoyant(args.level, 0, _classic(0, ["a", "b"]), args.sees)
    except ValueError as error:
        parser.error(str(error))
    jobs = [
        (args.level, args.seed + d, seat, args.sees) for d in range(args.deals) for seat in (0, 1)
    ]
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        margins = list(pool.map(play, jobs))
    print(json.dumps(summary(args.level, args.sees, margins), indent=2))


if __name__ == "__main__":
    main()
