"""``mathable analyse`` by equity and chance of winning (issue 35): the table's new
columns in 80 columns, the reasons, and ``--json`` of version 3."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mathable.cli.app import app
from mathable.cli.shell import console
from mathable.engine import records
from mathable.games.board.game import BoardGame
from mathable.games.board.turns import Setup

runner = CliRunner()


@pytest.fixture
def eighty() -> Iterator[None]:
    """The terminal 80 columns wide."""
    before = console._width
    console.width = 80
    yield
    console._width = before


@pytest.fixture
def record(tmp_path: Path) -> Path:
    """Ann places her one small token where exchanging the six big ones was better,
    then Bob plays."""
    game = BoardGame(
        "classic",
        ["Ann", "Bob"],
        setup=Setup(((1, 56, 63, 72, 80, 81, 90), (3, 4, 6, 7, 7, 8, 21)), tuple(range(1, 11)) * 3),
    )
    game.apply(next(p for p in game.legal_placements() if p.value == 1))
    if game.to_move == 0:
        game.apply("end")
    game.apply(next(p for p in game.legal_placements() if p.value == 8))
    if game.to_move == 1:
        game.apply("end")
    path = tmp_path / "game.json"
    path.write_text(records.dumps(game), encoding="utf-8")
    return path


def test_the_table_shows_equity_and_chances_in_80_columns(eighty: None, record: Path) -> None:
    done = runner.invoke(app, ["--lang", "en", "analyse", str(record)])
    assert done.exit_code == 0, done.output
    assert not done.stderr  # no progress bar where stderr is no terminal
    lines = done.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    header = next(line for line in lines if "pts" in line)
    assert "eq. lost" in header and "win %" in header
    first = next(line for line in lines if line.startswith("│1 "))
    assert "→" in first and "exchange" in first
    assert any(line.startswith("turn 1: ") and "exchanging " in line for line in lines)
    assert any("accuracy" in line and "winning chance lost" in line for line in lines)


def test_json_is_version_3_with_the_method(record: Path) -> None:
    done = runner.invoke(app, ["--lang", "en", "analyse", str(record), "--json"])
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert report["version"] == 3 and report["method"]["samples"] > 0
    turn = report["turns"][0]
    assert turn["best"].startswith("exchange") and turn["win_before"] > turn["win_after"]
    assert turn["samples"] == report["method"]["samples"]


def test_depth_master_judges_with_the_masters_budgets(record: Path) -> None:
    done = runner.invoke(
        app, ["--lang", "en", "analyse", str(record), "--json", "--depth", "master"]
    )
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert report["method"]["depth"] == "master" and report["method"]["samples"] == 256
    assert report["turns"][0]["samples"] == 256 and report["turns"][0]["best"].startswith(
        "exchange"
    )


def test_a_depth_it_does_not_know_is_refused_with_the_ones_it_does(record: Path) -> None:
    done = runner.invoke(app, ["--lang", "en", "analyse", str(record), "--depth", "[bold]deep"])
    assert done.exit_code == 1 and not done.stdout
    assert done.stderr.strip() == (
        "error: --depth: [bold]deep is no depth of analysis (expert, master)"
    )


def test_a_card_games_analysis_says_the_depth_changes_nothing(tmp_path: Path) -> None:
    from mathable.ai import get_bot
    from mathable.games.quattro.game import QuattroGame

    game = QuattroGame(["Louis", "Zoé"], seed=3)
    bots = [get_bot("greedy", 1), get_bot("greedy", 2)]
    while not game.is_over:
        game.apply(bots[game.to_move].act(game.view(game.to_move)))
    path = tmp_path / "quattro.json"
    path.write_text(records.dumps(game), encoding="utf-8")
    argv = ["--lang", "en", "analyse", str(path), "--json"]
    expert = runner.invoke(app, argv)
    master = runner.invoke(app, [*argv, "--depth", "master"])
    assert expert.exit_code == master.exit_code == 0, master.output
    assert master.stdout == expert.stdout and json.loads(master.stdout)["method"] is None
    assert not expert.stderr
    assert master.stderr.splitlines() == [
        "note: --depth master changes nothing here: Mathable Quattro's analysis counts the "
        "cards a turn could have played"
    ]
