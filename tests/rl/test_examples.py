"""The two reinforcement-learning examples run on a small budget and print what their
docstrings say they print."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from mathable.games.registry import GAMES

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(script: str, *flags: str) -> Any:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *flags],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)


def test_rl_random_prints_the_speed_of_every_game() -> None:
    report = run("rl_random.py", "--games", "2", "--runs", "1")
    assert list(report) == list(GAMES)
    for found in report.values():
        assert found["games"] == 2 and found["runs"] == 1
        assert found["steps_per_game"] >= 1
        assert found["steps_per_second"] > 0 and found["games_per_second"] > 0


def test_rl_random_plays_one_variant_when_asked() -> None:
    report = run("rl_random.py", "--games", "1", "--runs", "1", "--variant", "quattro")
    assert list(report) == ["quattro"]


def test_rl_greedy_vs_learned_reports_a_win_rate_with_its_interval() -> None:
    flags = ["--iterations", "2", "--population", "4", "--games", "2", "--eval-games", "6"]
    report = run("rl_greedy_vs_learned.py", *flags, "--variant", "junior")
    assert report["variant"] == "junior" and report["opponent"] == "greedy"
    assert report["eval_games"] == 6 and 0 <= report["wins"] <= 6
    low, high = report["win_rate_95"]
    assert 0 <= low <= report["win_rate"] <= high <= 1
    assert len(report["best_fitness_per_iteration"]) == 2
    assert set(report["weights"]) >= {"points", "exchange", "place"}
