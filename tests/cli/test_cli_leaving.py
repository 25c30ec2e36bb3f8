"""Local ruling L1 on the command line: the record of a game a player resigned, ran out of
time in, or aborted replays and is analysed like any other (the leaving is not a turn)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mathable.cli.app import app
from mathable.engine import records
from mathable.engine.actions import Place
from mathable.games.registry import new_game

runner = CliRunner()


def _saved(tmp_path: Path, name: str, ending: str, players: int = 2) -> Path:
    rounds = 5 if name == "quattro" else 1
    game = new_game(name, ["Ann", "Bob", "Cy", "Dee"][:players], seed=9, rounds=rounds)
    rng = random.Random(9)
    while not game.is_over and len(game.summaries()) < (1 if ending == "abort" else 6):
        actions = game.legal_actions()
        places = [a for a in actions if isinstance(a, Place)]
        game.apply(rng.choice(places) if places else rng.choice(actions))
    assert not game.is_over
    seat = game.to_move if ending == "abort" else 1 - game.to_move
    game.apply(f"{ending} {seat}")
    path = tmp_path / f"{name}.json"
    path.write_text(records.dumps(game))
    return path


@pytest.mark.parametrize("name", ["classic", "quattro"])
def test_replay_and_analyse_a_resigned_game(tmp_path: Path, name: str) -> None:
    path = _saved(tmp_path, name, "resign")
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    assert "resigned" in out.output and "Winner:" in out.output
    data = json.loads(runner.invoke(app, ["replay", str(path), "--json"]).stdout)
    assert data["over"] and data["end_reason"].endswith("resigned")
    assert len(data["winners"]) == 1
    report = runner.invoke(app, ["analyse", str(path), "--json"])
    assert report.exit_code == 0, report.output
    turns = json.loads(report.stdout)["turns"]
    assert turns and not any("resign" in t["played"] for t in turns)


def test_replay_an_aborted_and_a_flagged_game(tmp_path: Path) -> None:
    aborted = runner.invoke(app, ["replay", str(_saved(tmp_path, "junior", "abort"))])
    assert aborted.exit_code == 0, aborted.output
    assert "aborted" in aborted.output and "Winner" not in aborted.output
    flagged = runner.invoke(app, ["replay", str(_saved(tmp_path, "classic", "flag")), "--sheet"])
    assert flagged.exit_code == 0, flagged.output
