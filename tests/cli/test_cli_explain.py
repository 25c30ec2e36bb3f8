"""``mathable explain POSITION PLACEMENT`` (issue 18) and ``GET /api/explain``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from mathable.cli.app import app
from mathable.web.api import create_app

runner = CliRunner()
POSITION = "classic | G7=1 H7=2 G8=3 H8=4 I7=9 | 3 4 12 / ?7 | 0 0 | 92 | 1"


def test_explain_prints_each_equation_and_the_points() -> None:
    done = runner.invoke(app, ["--lang", "en", "explain", POSITION, "I8=12"])
    assert done.exit_code == 0, done.output
    assert "12 = 3 × 4 (G8, H8)" in done.output
    assert "points: 12" in done.output


def test_explain_json() -> None:
    done = runner.invoke(app, ["--lang", "en", "explain", POSITION, "H6=8", "--json"])
    assert done.exit_code == 0, done.output
    data = json.loads(done.output)
    assert data["legal"] and data["points"] == 8 and data["award"] == 1
    assert data["equations"] == [
        {"result": 8, "left": 2, "op": "×", "right": 4, "cells": ["H7", "H8"]}
    ]
    assert data["text"] == "8 = 2 × 4 (H7, H8): 8"


def test_explain_refusals_are_one_error_line() -> None:
    for placement, said in [
        ("A1=5", "5 on A1: no two tokens lie in line next to A1 (rule C3)"),
        ("Z9=1", "Z9"),
        ("I8=twelve", "not a placement"),
        ("I8=" + "1" * 60, "too long"),
    ]:
        done = runner.invoke(app, ["--lang", "en", "explain", POSITION, placement])
        assert done.exit_code == 1, done.output
        lines = [line for line in done.output.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:") and said in lines[0]
        assert "Traceback" not in done.output
    done = runner.invoke(app, ["--lang", "en", "explain", "no position", "I8=12"])
    assert done.exit_code == 1 and done.output.startswith("error:")


def test_explain_reads_a_position_file(tmp_path: Path) -> None:
    path = tmp_path / "position.txt"
    path.write_text(POSITION + "\n", encoding="utf-8")
    done = runner.invoke(app, ["--lang", "en", "explain", str(path), "I8=12"])
    assert done.exit_code == 0 and "points: 12" in done.output


def test_the_api_explains_and_refuses(tmp_path: Path) -> None:
    client = TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}"))
    answer = client.get("/api/explain", params={"position": POSITION, "placement": "I8=12"})
    assert answer.status_code == 200
    data = answer.json()
    assert data["legal"] and data["points"] == 12 and data["target"] == "I8"
    assert data["text"] == "12 = 3 × 4 (G8, H8): 12"
    refused = client.get("/api/explain", params={"position": POSITION, "placement": "A1=5"})
    assert refused.status_code == 200 and refused.json()["rule"] == "C3"
    assert not refused.json()["legal"]
    for params in [
        {"position": "nonsense", "placement": "I8=12"},
        {"position": POSITION, "placement": "I8"},
        {"position": POSITION, "placement": "Q99=1"},
        {"position": "x" * 3000, "placement": "I8=12"},
        {"position": POSITION, "placement": "I8=" + "9" * 30},
        {"position": POSITION},
        {"position": POSITION.replace("I7=9", "I7=999"), "placement": "I8=12"},
    ]:
        bad = client.get("/api/explain", params=params)
        assert bad.status_code in (400, 422), (params, bad.text)
        assert bad.json().get("detail") or bad.json().get("error"), bad.text


def test_the_hotseat_game_explains_a_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    """``explain I8`` in the terminal game: what the rack makes on an empty cell, then
    the token placed there once a turn placed it."""
    from io import StringIO

    from rich.console import Console

    from mathable.cli.hotseat import run_hotseat
    from mathable.games.board.game import BoardGame
    from mathable.games.board.turns import Setup
    from mathable.i18n import language

    game = BoardGame(
        "classic",
        ["Ann", "Bob"],
        setup=Setup(racks=((12, 8, 2, 1, 16, 50, 60), (70, 80, 81, 90, 11, 13, 17)), bag=(5,) * 20),
    )
    typed = iter(
        [
            "",
            "explain I8",
            "explain A1",
            "explain Q99",
            "I8=12",
            "end",
            "",
            "explain I8",
            "quit",
            "",
        ]
    )
    monkeypatch.setattr("builtins.input", lambda *_args: next(typed))
    out = StringIO()
    with language("en"):
        run_hotseat(Console(file=out, width=120, force_terminal=False), game)
    text = out.getvalue()
    assert "I8=12: 12 = 3 × 4 (G8, H8): 12" in text  # from the rack, before placing
    assert "None of your pieces goes on A1." in text
    assert "Q99" in text  # refused, as typed
    assert text.count("12 = 3 × 4 (G8, H8): 12") >= 2  # the placed token, after the turn


def test_the_textual_app_explains_a_typed_cell() -> None:
    """``explain I8`` typed in the Textual app answers under the board (issue 18)."""
    import asyncio

    from mathable.games.board.game import BoardGame
    from mathable.games.board.turns import Setup
    from mathable.i18n import language
    from mathable.tui.app import MathableApp

    game = BoardGame(
        "classic",
        ["Ann", "bot:gentle"],
        setup=Setup(racks=((12, 8, 2, 1, 16, 50, 60), (70, 80, 81, 90, 11, 13, 17)), bag=(5,) * 20),
    )
    app = MathableApp(game, bot_delay=0)

    async def run() -> tuple[str, str]:
        async with app.run_test(size=(130, 42)) as pilot:
            await pilot.pause()
            app.play_text("explain I8")
            said = str(app.message)
            app.play_text("explain Q99")
            return said, str(app.message)

    with language("en"):
        said, refused = asyncio.run(run())
    assert "I8=12: 12 = 3 × 4 (G8, H8): 12" in said.splitlines()
    assert "I8=1: 1 = 4 − 3 (H8, G8): 1" in said.splitlines()  # the larger first
    assert "Q99" in refused


def test_analyse_explains_the_played_and_the_best_first_placement(tmp_path: Path) -> None:
    from mathable.engine import records
    from mathable.games.board.game import BoardGame
    from mathable.i18n import language

    game = BoardGame("classic", ["Ann", "Bob"], seed=3)
    first = min(game.legal_placements(), key=lambda p: (p.value, p.cell))  # a modest turn
    game.apply(first)
    if not game.turns:
        game.apply("end")
    path = tmp_path / "game.json"
    path.write_text(records.dumps(game), encoding="utf-8")
    with language("en"):
        played = game.explain_turn(0)[0]
        expected = f"turn 1: {game.format_action(first)}: {played.text()}"
    done = runner.invoke(app, ["--lang", "en", "analyse", str(path)])
    assert done.exit_code == 0, done.output
    line = next(x for x in done.output.splitlines() if x.startswith("turn 1: "))
    assert line.startswith(expected)
    data = json.loads(runner.invoke(app, ["--lang", "en", "analyse", str(path), "--json"]).output)
    turn = data["turns"][0]
    assert turn["played_explanation"]["text"] == played.text()
    best = turn["best_explanation"]
    assert best["legal"] and best["points"] >= 1 and best["text"]
    if turn["loss"]:
        assert "; best " in line
