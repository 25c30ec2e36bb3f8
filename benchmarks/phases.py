"""Where a level's edge comes from: the margin it gains over its opponent between bag
sizes, from an arena's records (issue 35).

Each record is replayed; at the first turn start with the bag at or below each mark the
score margin (the level's score less its opponent's) is read, and each phase's gain is
the margin's change since the mark before (the last phase ends with the game, C11's
deductions included). The phases' gains sum to the final margin, game by game. Printed
as JSON: per phase the mean gain and its 95% interval over the games.

    mathable arena expert master --games 600 --seed 60000 --jobs 2 --records DIR
    .venv/bin/python benchmarks/phases.py DIR --level master
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mathable.ai.arena import mean_interval
from mathable.engine.records import replay_record
from mathable.games.board.view import BoardView
from mathable.games.registry import game_type

MARKS = (80, 60, 40, 20, 10, 0)
"""The bag sizes that end each phase before the last (the game's end)."""


def phase_gains(record: dict[str, Any], level: str, marks: Sequence[int] = MARKS) -> list[int]:
    """The margin ``level`` (a player label's start, as ``master`` in ``master#2``)
    gains in each phase of one two-player board game's ``record``: one figure per mark,
    then the last phase's, summing to its final margin."""
    seats = [i for i, name in enumerate(record["players"]) if name.startswith(level)]
    if len(seats) != 1 or len(record["players"]) != 2:
        raise ValueError(f"{level!r} is not one of the two players {record['players']}")
    seat = seats[0]
    start = {key: value for key, value in record.items() if key != "result"}
    game = replay_record({**start, "actions": []}, game_type)  # its house rules, its setup
    margins: list[int] = []
    for text in [*record["actions"], None]:
        view = game.view(seat, explained=False)
        if not isinstance(view, BoardView):
            raise ValueError("only board games have a bag to count phases by")
        margin = view.scores[seat] - view.scores[1 - seat]
        if not view.turn_placements or text is None:
            while len(margins) < len(marks) and (view.bag_size <= marks[len(margins)]):
                margins.append(margin)
        if text is None:
            break
        game.play(game.to_move, text)
    result = record.get("result")
    if result is not None and list(game.scores) != list(result["scores"]):
        raise ValueError(f"the record's result {result['scores']} differs from its replay")
    final = game.scores[seat] - game.scores[1 - seat]
    margins += [final] * (len(marks) - len(margins))
    ends = [*margins, final]
    return [after - before for before, after in zip([0, *ends[:-1]], ends, strict=True)]


def summary(gains: Sequence[Sequence[int]], marks: Sequence[int] = MARKS) -> dict[str, Any]:
    """Per phase the mean gain and its 95% interval over the games."""
    names = [f"to bag {mark}" for mark in marks] + ["to the end"]
    phases = {}
    for index, name in enumerate(names):
        mean, low, high = mean_interval([game[index] for game in gains])
        phases[name] = {"mean": round(mean, 1), "ci95": [round(low, 1), round(high, 1)]}
    total = sum(sum(game) for game in gains) / len(gains)
    return {"games": len(gains), "phases": phases, "final_margin": round(total, 1)}


def main() -> None:
    """Print the phases' gains of the records in a directory as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path, help="an arena's --records directory")
    parser.add_argument("--level", required=True, help="the level whose gains are counted")
    args = parser.parse_args()
    paths = sorted(args.records.glob("*.json"))
    if not paths:
        parser.error(f"no records in {args.records}")
    gains = [phase_gains(json.loads(path.read_text()), args.level) for path in paths]
    print(json.dumps({"level": args.level, **summary(gains)}, indent=2))


if __name__ == "__main__":
    main()
