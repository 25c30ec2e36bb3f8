"""Instructions per self-play action, counted by valgrind's callgrind: a figure that does
not move with the machine's load, for before/after comparisons of the rules' and the
computers' speed (issue 35: timings on the shared machines vary ~3x from day to day and
~10% from one minute to the next; a count of instructions repeats within ~0.1%).

Usage::

    python benchmarks/instructions.py [--level greedy] [--few 5] [--many 45]

It plays ``--few`` and then ``--many`` seeded classic games of ``--level`` against
itself (``play_game``, as ``run.py``'s self-play does), each in a fresh interpreter under
callgrind, and divides the difference of the two counts by the actions of the games
between: the start (imports, the rule tables' first fill) cancels out. Prints JSON.
Instructions are not time (cache misses, branch mispredictions), but a change that
removes instructions from every action is one a timing can then confirm. Needs valgrind,
a developer's tool the project does not install: without it, says so and exits 2.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys

FIRST_SEED = 30_000
"""The games' first seed (``run.py``'s self-play starts there too)."""

_COLLECTED = re.compile(r"Collected\s*:\s*([0-9]+)")


def collected(report: str) -> int:
    """The instruction count in callgrind's closing report (``==123== Collected : 456``)."""
    found = _COLLECTED.findall(report)
    if not found:
        raise ValueError("no 'Collected' line in callgrind's report")
    return int(found[-1])


def count(level: str, games: int) -> int:
    """Instructions of a fresh interpreter that plays ``games`` games, under callgrind."""
    program = (
        "from mathable.ai.arena import play_game\n"
        f"for seed in range({FIRST_SEED}, {FIRST_SEED + games}):\n"
        f"    play_game([{level!r}, {level!r}], 'classic', seed)\n"
    )
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            program,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return collected(done.stderr)


def actions(level: str, first: int, last: int) -> int:
    """The actions of the games from seed ``first`` to ``last`` (excluded)."""
    from mathable.ai.arena import play_game

    total = 0
    for seed in range(first, last):
        record = play_game([level, level], "classic", seed, keep_record=True).record
        assert record is not None
        total += len(record["actions"])
    return total


def main(argv: list[str] | None = None) -> int:
    """Print the instructions per action and per game as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="greedy")
    parser.add_argument("--few", type=int, default=5)
    parser.add_argument("--many", type=int, default=45)
    args = parser.parse_args(argv)
    if args.many <= args.few:
        parser.error("--many must be more than --few")
    if shutil.which("valgrind") is None:
        print(json.dumps({"error": "valgrind is not installed (apt-get install valgrind)"}))
        return 2
    few, many = count(args.level, args.few), count(args.level, args.many)
    played = actions(args.level, FIRST_SEED + args.few, FIRST_SEED + args.many)
    games = args.many - args.few
    print(
        json.dumps(
            {
                "level": args.level,
                "games": games,
                "actions": played,
                "instructions_per_action": round((many - few) / played),
                "instructions_per_game": round((many - few) / games),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
