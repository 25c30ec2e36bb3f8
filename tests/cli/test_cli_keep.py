"""``mathable keep`` (issue 37): the worked example kept in the terminal, a refusal that
records nothing, and the sheet it saves, which ``mathable score`` totals identically."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from mathable.cli.app import app
from mathable.games import registry
from support.kept import kept_quattro_copy, random_game, random_quattro

TURNS = "I8=12 H6=8 G9=2 F7=1 J8=16+\nA1=5\nF8=7 F9=6 H9=8 G6=4 E9=3 E8=21 E10=7\n"


def test_keep_the_worked_example_and_save_its_sheet(tmp_path: Path) -> None:
    sheet = tmp_path / "kept.txt"
    runner = CliRunner()
    kept = runner.invoke(
        app, ["keep", "--players", "Ann,Bob", "--save", str(sheet)], input=TURNS + "quit\n"
    )
    assert kept.exit_code == 0, kept.output
    assert "Totals: Ann 39, Bob 121" in kept.output
    assert "+50 bonus" in kept.output and "7 = 21 ÷ 3 (E8, E9)" in kept.output
    assert "refused: 5 on A1" in kept.output and "rule C3" in kept.output
    scored = runner.invoke(app, ["score", str(sheet), "--json"])
    assert json.loads(scored.output)["totals"] == {"Ann": 39, "Bob": 121}


def test_keep_starts_with_the_player_named_first() -> None:
    kept = CliRunner().invoke(
        app, ["keep", "--players", "Ann,Bob", "--first", "Bob"], input="pass\n"
    )
    assert "Bob starts." in kept.output and "Ann to move." in kept.output
    wrong = CliRunner().invoke(app, ["keep", "--players", "Ann,Bob", "--first", "Cid"])
    assert wrong.exit_code == 1


def test_keep_a_game_with_exchanges_then_its_analysis_and_record(tmp_path: Path) -> None:
    game = random_game("classic", 11, 3)
    lines = []
    for turn in game.summaries():
        entry = turn.notation
        if entry.startswith("exchange"):
            entry = f"exchange {len(entry.split(' ', 1)[1].split(','))}"
        lines.append(entry)
    left = [",".join(map(str, game.rack(s))) or "-" for s in range(len(game.players))]
    lines.append("end " + " / ".join(left))
    record = tmp_path / "kept.json"
    first = game.players[game.summaries()[0].seat]
    runner = CliRunner()
    kept = runner.invoke(
        app,
        ["keep", "--players", ",".join(game.players), "--first", first, "--record", str(record)],
        input="\n".join(lines) + "\n",
    )
    assert kept.exit_code == 0, kept.output
    assert "refused" not in kept.output
    assert "Analysis: the best turn of the same tokens" in kept.output
    assert any(line.startswith("exchange") for line in lines)
    replayed = runner.invoke(app, ["replay", str(record), "--json"])
    assert replayed.exit_code == 0, replayed.output
    shown = json.loads(replayed.output)
    assert list(shown["scores"].values()) == list(game.scores)


def test_keep_analyses_when_asked() -> None:
    kept = CliRunner().invoke(
        app, ["keep", "--players", "Ann,Bob"], input=TURNS.replace("A1=5\n", "") + "analyse\n"
    )
    assert kept.exit_code == 0, kept.output
    assert "Analysis: the best turn of the same tokens" in kept.output
    assert "121" in kept.output.split("Analysis")[-1]


def test_keep_a_quattro_match_in_the_terminal() -> None:
    """The four cards turned up, a play explained, a refusal naming its rule (Q2), a stuck
    turn, and the round won by the hand emptied (Q5)."""
    turns = "A=1 B=1 C=1 D=1\nA=5\nA=1 A=0 A=1 A=1 A=2 A=3 A=4\n"
    kept = CliRunner().invoke(
        app, ["keep", "--players", "Louis,Zoé", "--variant", "quattro"], input=turns
    )
    assert kept.exit_code == 0, kept.output
    assert "Turn up four cards" in kept.output
    assert "refused: 5 on pile A (1)" in kept.output and "rule Q2" in kept.output
    assert "0 = 1 − 1 (A, B)" in kept.output and "won the round" in kept.output
    assert "Totals: Louis 1, Zoé 0" in kept.output and "The game is over." in kept.output
    assert "round 1 of 1" in kept.output
    wrong = CliRunner().invoke(
        app, ["keep", "--players", "Ann,Bob", "--rounds", "3"], input="quit\n"
    )
    assert wrong.exit_code == 1 and "rounds" in wrong.output


def test_keep_a_quattro_match_to_its_record_and_analysis(tmp_path: Path) -> None:
    """An engine's match entered line by line: the analysis follows its last round, and
    the record written replays to the same piles and rounds won (hands reconstructed)."""
    game = random_quattro(3, 2, 1)
    copy = kept_quattro_copy(game)
    lines = [copy.log[0], *(t.notation for t in copy.turns)]
    path = tmp_path / "kept.json"
    kept = CliRunner().invoke(
        app,
        ["keep", "--players", "Ann,Bob", "--variant", "quattro", "--record", str(path)],
        input="\n".join(lines) + "\nquit\n",
    )
    assert kept.exit_code == 0, kept.output
    assert "Analysis: the best turn of the same cards" in kept.output
    assert "Game record written to" in kept.output
    replayed = registry.from_record(json.loads(path.read_text(encoding="utf-8")))
    assert list(replayed.scores) == list(game.scores) and replayed.is_over
