"""How long ``mathable --help`` takes to start against a bare Typer + Rich program (issue
33: within 2×), printed as JSON.

Usage: ``python benchmarks/startup.py [--runs 15] [--src DIR]``. Each command is run
``--runs`` times, interleaved (the machines are shared: the ratio is measured in the same
minutes); the figure is the median wall time of a fresh process. ``--src`` runs another
version's ``src`` (``git archive HEAD src | tar -x -C /tmp/before``) to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BARE = '''
import typer
from rich.console import Console

app = typer.Typer()
console = Console()


@app.command()
def hello(name: str = "world") -> None:
    """Say hello."""
    console.print(f"hello {name}")


@app.command()
def bye() -> None:
    """Say goodbye."""
    console.print("bye")


app()
'''
"""A bare Typer + Rich program of two commands: the floor a Typer command starts from."""


def _timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parent.parent / "src")
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(args.src), "PYTHONWARNINGS": "ignore"}
    with tempfile.TemporaryDirectory() as folder:
        bare = Path(folder) / "bare.py"
        bare.write_text(BARE)
        commands = {
            "bare typer+rich --help": [sys.executable, str(bare), "--help"],
            "mathable --help": [sys.executable, "-m", "mathable", "--help"],
            "mathable play --help": [sys.executable, "-m", "mathable", "play", "--help"],
        }
        for command in commands.values():  # warm the file cache
            _timed(command, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                times[name].append(_timed(command, env))
    medians = {name: round(statistics.median(t), 3) for name, t in times.items()}
    floor = medians["bare typer+rich --help"]
    report = {
        "runs": args.runs,
        "src": str(args.src),
        "median_s": medians,
        "ratio_to_bare": {n: round(m / floor, 2) for n, m in medians.items()},
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
