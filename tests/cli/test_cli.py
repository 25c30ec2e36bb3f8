"""The ``mathable`` command over every game of the registry: JSON shapes, one-line
errors, and the plain terminal game played to the end."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from mathable.ai.arena import play_game
from mathable.cli.app import app
from mathable.cli.hotseat import run_hotseat
from mathable.cli.linehelp import help_text
from mathable.engine import records
from mathable.engine.protocol import Game
from mathable.games import registry
from mathable.games.board.game import BoardGame
from mathable.games.registry import GAMES

runner = CliRunner()
BOARD_KEYS = ["variant", "players", "actions", "over", "end_reason", "scores", "deductions"]
BOARD_KEYS += ["winners", "to_move", "board", "racks", "bag", "position"]
PILES_KEYS = ["variant", "players", "actions", "over", "end_reason", "rounds", "round"]
PILES_KEYS += ["scores", "winners", "to_move", "piles", "racks", "bag"]


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished game of each game, saved as a record."""
    folder = tmp_path_factory.mktemp("records")
    paths = {}
    for name in GAMES:
        result = play_game(["greedy", "gentle"], name, 3, keep_record=True)
        paths[name] = folder / f"{name}.json"
        paths[name].write_text(json.dumps(result.record))
    return paths


def test_variants_json_lists_every_game_with_its_capabilities() -> None:
    out = runner.invoke(app, ["variants", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert [g["name"] for g in data] == list(GAMES)
    for game in data:
        assert {"surface", "targets", "actions", "columns", "piece", "rounds"} <= set(game)
    text = runner.invoke(app, ["variants"])
    assert all(f"{name}:" in text.output for name in GAMES)


@pytest.mark.parametrize("name", list(GAMES))
def test_replay_keeps_its_json_shape_and_draws_every_game(
    saved: dict[str, Path], name: str
) -> None:
    out = runner.invoke(app, ["replay", str(saved[name]), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    game = registry.from_record(saved[name].read_text())
    expected = BOARD_KEYS if game.game_type.surface == "board" else PILES_KEYS
    assert list(data) == expected
    assert data["scores"] == dict(zip(game.players, game.scores, strict=True))
    if isinstance(game, BoardGame):  # the one-line position, as the board game writes it
        assert data["position"] == game.position(game.to_move).format(game.cell_names)
    text = runner.invoke(app, ["replay", str(saved[name])])
    assert text.exit_code == 0, text.output
    assert "Winner" in text.output and game.players[0] in text.output


@pytest.mark.parametrize("name", list(GAMES))
def test_analyse_covers_every_game(saved: dict[str, Path], name: str) -> None:
    out = runner.invoke(app, ["analyse", str(saved[name]), "--json"])
    assert out.exit_code == 0, out.output
    assert {"turns", "players"} <= set(json.loads(out.stdout))
    assert runner.invoke(app, ["analyse", str(saved[name])]).exit_code == 0


def test_sheets_and_positions_are_refused_in_one_line_where_a_game_has_none(
    saved: dict[str, Path],
) -> None:
    out = runner.invoke(app, ["replay", str(saved["quattro"]), "--sheet"])
    assert out.exit_code == 1 and "no score sheets" in out.output
    out = runner.invoke(app, ["hint", str(saved["quattro"])])
    assert out.exit_code == 1 and "use replay" in out.output
    sheet = runner.invoke(app, ["replay", str(saved["classic"]), "--sheet"])
    assert sheet.exit_code == 0 and sheet.output.startswith("# Mathable")


def test_a_record_of_an_unknown_game_lists_every_game(tmp_path: Path) -> None:
    game = registry.new_game("quattro", ["Ann", "Bob"], seed=1)
    data = json.loads(records.dumps(game))
    data["variant"] = "chess"
    path = tmp_path / "chess.json"
    path.write_text(json.dumps(data))
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 1
    assert all(name in out.output for name in GAMES)


def test_positions_show_moves_and_hint() -> None:
    position = "classic | G7=1 H7=2 G8=3 H8=4 | 1 2 8 12 16 17 42 / ?7 | 0 0 | 92 | 1"
    assert runner.invoke(app, ["show", position]).exit_code == 0
    moves = json.loads(runner.invoke(app, ["moves", position, "--json"]).stdout)
    assert moves[0]["placement"] == f"{moves[0]['cell']}={moves[0]['value']}"
    rows = json.loads(runner.invoke(app, ["hint", position, "--json"]).stdout)
    assert list(rows[0]) == ["turn", "points", "bonus", "total", "leave"]
    assert rows[0]["points"] + rows[0]["bonus"] == rows[0]["total"] >= 39
    hidden = runner.invoke(app, ["hint", position[: position.rindex("|")] + "| 2"])
    assert hidden.exit_code == 1 and "hidden" in hidden.output


def _typist(game: Game, lines: list[str]) -> object:
    """An ``input`` that types a few scripted lines, then at each prompt the first legal
    action."""

    def typed(prompt: str = "") -> str:
        if lines:
            return lines.pop(0)
        if game.is_over:  # asked whether to save: no
            return ""
        return game.format_action(game.legal_actions()[0])

    return typed


@pytest.mark.parametrize("name", list(GAMES))
def test_the_plain_game_plays_every_game_to_the_end(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = registry.new_game(name, ["Ann", "[b]Bob [bot:gentle]"], seed=5)
    monkeypatch.setattr("builtins.input", _typist(game, ["help", "hint", "nonsense"]))
    out = StringIO()
    console = Console(file=out, width=100, force_terminal=False)
    run_hotseat(console, game, seed=5)
    text = out.getvalue()
    assert game.is_over and "over:" in text and "Winner" in text
    assert "[b]Bob" in text  # names printed as typed, not as markup
    assert "refused:" in text and help_text(game.game_type).splitlines()[1] in text
    assert "you may:" in text
