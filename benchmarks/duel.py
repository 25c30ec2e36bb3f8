"""Two levels from the same late positions: a screen of a setting in minutes, not the
half hour of whole games (issue 35).

Each deal of an arena's records (one record per seed) is replayed to its first turn
start with the bag at or below ``--bag`` tokens; from there level A plays the seat to
move and level B the other, then the seats are swapped, on the same hidden tokens. A's
margin over B is the mean of the two games' margins, so the luck of the position and of
the seat cancel within it; printed as JSON with its 95% interval over the positions,
A's win rate (a draw counts half) and how many positions the two levels played apart.

    mathable arena expert master --games 600 --seed 60000 --jobs 2 --records DIR
    .venv/bin/python benchmarks/duel.py master:pre_endgame=2 master DIR --bag 2 --jobs 2
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from mathable.ai import get_bot
from mathable.ai.arena import paired_figures
from mathable.engine.protocol import Game
from mathable.engine.records import replay_record
from mathable.games.board.view import BoardView
from mathable.games.registry import game_type


def late_position(record: dict[str, Any], bag: int) -> Game | None:
    """The record's game at its first turn start with ``bag`` tokens or fewer in the
    bag (None: the game ended before)."""
    if len(record["players"]) != 2:
        raise ValueError(f"a duel is between two players, not {record['players']}")
    start = {key: value for key, value in record.items() if key != "result"}
    game = replay_record({**start, "actions": []}, game_type)
    for text in record["actions"]:
        view = game.view(game.to_move, explained=False)
        if not isinstance(view, BoardView):
            raise ValueError("only board games have a bag to start a duel by")
        if view.bag_size <= bag and not view.turn_placements:
            return game
        game.play(game.to_move, text)
    return None


def duel(record: dict[str, Any], first: str, second: str, bag: int) -> list[int] | None:
    """``first``'s margins over ``second`` from the record's late position, ``first``
    to move in the first game and in the other seat in the second (each seat's player
    seeded by the record's seed and the seat); None: no such position."""
    margins = []
    for mover_level, other_level in ((first, second), (second, first)):
        game = late_position(record, bag)
        if game is None:
            return None
        mover = game.to_move
        levels = {mover: mover_level, 1 - mover: other_level}
        bots = {seat: get_bot(level, record["seed"] * 8 + seat) for seat, level in levels.items()}
        while not game.is_over:
            seat = game.to_move
            game.apply(bots[seat].act(game.view(seat, explained=False)))
        own = mover if mover_level == first else 1 - mover
        margins.append(game.scores[own] - game.scores[1 - own])
    return margins


def summary(first: str, second: str, bag: int, margins: Sequence[Sequence[int]]) -> dict[str, Any]:
    """A's mean margin and win rate over the positions, with their 95% intervals."""
    return {
        "a": first,
        "b": second,
        "bag": bag,
        "positions": len(margins),
        **paired_figures(margins, digits=2),
        "played_apart": sum(1 for pair in margins if pair[0] + pair[1] != 0),
    }


def _one(job: tuple[Path, str, str, int]) -> list[int] | None:
    path, first, second, bag = job
    return duel(json.loads(path.read_text()), first, second, bag)


def main() -> None:
    """Print the duel of two levels from the records' late positions as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="level A, with settings (master:pre_endgame=2)")
    parser.add_argument("b", help="level B")
    parser.add_argument("records", type=Path, help="an arena's --records directory")
    parser.add_argument("--bag", type=int, required=True, help="start at this bag size or below")
    parser.add_argument("--limit", type=int, default=None, help="at most this many deals")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    args = parser.parse_args()
    for level in (args.a, args.b):
        try:
            get_bot(level, 0)  # a typo refused before any game
        except ValueError as error:
            parser.error(str(error))
    by_seed: dict[int, Path] = {}
    for path in sorted(args.records.glob("*.json")):
        by_seed.setdefault(json.loads(path.read_text())["seed"], path)
    paths = list(by_seed.values())[: args.limit]
    if not paths:
        parser.error(f"no records in {args.records}")
    jobs = [(path, args.a, args.b, args.bag) for path in paths]
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        found = [m for m in pool.map(_one, jobs) if m is not None]
    if not found:
        parser.error(f"no record reaches a turn start with {args.bag} tokens or fewer in the bag")
    print(json.dumps(summary(args.a, args.b, args.bag, found), indent=2))


if __name__ == "__main__":
    main()
