"""Issue 33, the command line: the line-by-line game keeps a refusal in sight and takes a
whole turn on one line (practice and puzzles too), exchanges are written unambiguously,
the smaller findings of a new user (saving after a game, ``explain`` of this turn, the
puzzles' and lessons' commands, score sheets no game could make, names, errors in the
user's words), click's and typer's own texts and the system's in the user's language,
``--pace``, and ``mathable --help`` importing none of the engine."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from mathable import i18n
from mathable.ai.hints import hints
from mathable.cli.app import app
from mathable.cli.hotseat import play_line, run_hotseat
from mathable.cli.play import bot_names
from mathable.cli.practice import run_practice
from mathable.engine import records
from mathable.engine.actions import Exchange, Leave, Place
from mathable.engine.protocol import Game, TurnSummary
from mathable.games import registry
from mathable.learn import puzzles as mined
from mathable.learn.practice import get_level
from mathable.render import panels
from mathable.render.typed import explain_cell

runner = CliRunner()


def _typist(game: Game, lines: list[str]) -> Callable[[str], str]:
    """An ``input`` typing ``lines``, then ``quit`` and Enter (no) to saving."""
    script = [*lines, "quit"]

    def typed(prompt: str = "") -> str:
        return "" if game.is_over or not script else script.pop(0)

    return typed


def _two_placement_turn(game: Game) -> str:
    """A hinted turn of at least two placements for the player to move."""
    for hint in hints(game.view(game.to_move), limit=20):
        if len(hint.notation.split()) >= 2 and "=" in hint.notation:
            return hint.notation
    raise AssertionError("no turn of two placements")


def _deal_with_a_long_turn() -> Game:
    """A classic game (Ann against the gentle computer) whose first turn may place two."""
    for seed in range(50):
        game = registry.new_game("classic", ["Ann", "Gentle [bot:gentle]"], seed=seed)
        if any(len(h.notation.split()) >= 2 for h in hints(game.view(0), limit=20)):
            return game
    raise AssertionError("no deal with a turn of two placements")


# -- finding 3: a refusal stays in sight --------------------------------------------------


def test_the_plain_game_prints_a_refusal_after_the_board_and_not_the_board_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = registry.new_game("classic", ["Ann", "Gentle [bot:gentle]"], seed=3)
    monkeypatch.setattr("builtins.input", _typist(game, ["Z99=1", "G6=999", "help"]))
    out = StringIO()
    run_hotseat(Console(file=out, width=80), game, seed=3)
    text = out.getvalue()
    assert text.count("your rack:") == 1  # drawn once: nothing changed after
    assert text.count("refused:") == 2
    after = text.split("refused:", 1)[1]
    assert "your rack:" not in after and "type one action at a time" in after


def test_practice_keeps_a_refusal_in_sight(monkeypatch: pytest.MonkeyPatch) -> None:
    typed = iter(["Z99=1", "help", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    out = StringIO()
    run_practice(Console(file=out, width=80), get_level("tables"), seed=4)
    text = out.getvalue()
    assert text.count("Where your tokens fit") == 1
    assert "refused:" in text.split("Where your tokens fit")[1]


# -- finding 6: a whole turn on one line ------------------------------------------------


@pytest.mark.parametrize("separator", [" ", ",", ", "])
def test_the_plain_game_takes_a_whole_turn_on_one_line(
    separator: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _deal_with_a_long_turn()
    turn = _two_placement_turn(game)
    typed = separator.join(turn.split())
    monkeypatch.setattr("builtins.input", _typist(game, [typed]))
    out = StringIO()
    run_hotseat(Console(file=out, width=100), game, seed=1)
    placed = [game.format_action(a) for a in game.log if isinstance(a, Place)]
    assert placed[: len(turn.split())] == turn.split(), out.getvalue()
    assert "refused:" not in out.getvalue()


def test_a_line_with_a_bad_placement_plays_none_of_it_and_names_it() -> None:
    game = _deal_with_a_long_turn()
    first = _two_placement_turn(game).split()[0]
    said = play_line(game, f"{first} Z99=1")
    assert said is not None and "Z99" in said
    assert game.log == ()  # nothing played, not even the good first placement
    said = play_line(game, f"{first} {first}")
    assert said is not None and first in said and game.log == ()


def test_a_whole_turn_then_end_in_the_players_language() -> None:
    game = _deal_with_a_long_turn()
    turn = _two_placement_turn(game)
    with i18n.language("fr"):
        assert play_line(game, f"{turn} fin") is None
    assert game.to_move == 1 or game.is_over  # the turn ended with it


def test_the_german_ende_ends_a_turn() -> None:
    assert i18n.command_word("ende", "de") == "end"
    assert i18n.command_word("fertig", "de") == "end"
    assert i18n.command_word("ende", "fr") == "ende"


# -- finding 7: exchanges written unambiguously ----------------------------------------


def test_move_lists_write_an_exchange_as_how_many_tokens() -> None:
    kind = registry.game_type("classic")
    turn = TurnSummary(0, "exchange 6", 0)
    assert panels.turn_words(turn, kind) == "exchanged 6 tokens"
    assert panels.summary_text(["Ann"], turn, kind).plain == "Ann exchanged 6 tokens"
    one = TurnSummary(0, "exchange 1", 0)
    assert panels.turn_words(one, registry.game_type("junior")) == "exchanged 1 tile"
    assert panels.turn_words(TurnSummary(0, "I8=12", 12), kind) == "I8=12"


def test_replay_and_score_sheets_write_exchanges_in_words(tmp_path: Path) -> None:
    game = registry.new_game("classic", ["Ann", "Bob"], seed=2)
    seat = game.to_move
    game.apply(Exchange(tuple(game.rack(seat)[:3])))
    record = tmp_path / "game.json"
    record.write_text(records.dumps(game))
    out = runner.invoke(app, ["replay", str(record)])
    assert f"{game.players[seat]} exchanged 3 tokens" in out.output
    sheet = tmp_path / "sheet.txt"
    sheet.write_text("Ann: exchange 3\nBob: pass\n")
    out = runner.invoke(app, ["score", str(sheet)], env={"COLUMNS": "120"})
    assert out.exit_code == 0, out.output
    assert "exchanged 3 tokens" in out.output
    assert "exchange 3 " not in out.output


# -- findings 8 and 9: the smaller ones -------------------------------------------------


def test_after_the_game_the_plain_game_offers_to_save_and_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    game = registry.new_game("classic", ["Ann", "Bob"], seed=6)
    first = game.to_move
    answers = iter(["", "resign", "y", "y"])  # the cover, resign, sure, save: y
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    out = StringIO()
    run_hotseat(Console(file=out, width=100), game, seed=6)
    saved = list(tmp_path.glob("mathable-classic-*.json"))
    assert len(saved) == 1
    assert f"saved to {saved[0].name}" in out.getvalue()
    assert registry.from_record(saved[0].read_text()).log[-1] == Leave(first, "resign")


def test_explain_tells_a_placement_of_the_turn_being_played() -> None:
    game = _deal_with_a_long_turn()
    first = game.parse_action(_two_placement_turn(game).split()[0])
    assert isinstance(first, Place)
    game.apply(first)
    cell = game.cell_names.name(first.cell)
    lines, refused = explain_cell(game, game.view(0), cell)
    assert not refused
    assert "no turn placed it" not in lines[0]
    assert lines[0] == game.replayed(0).explain(first).text()


def _puzzle(band: str = "easy") -> mined.Puzzle:
    return next(p for p in mined.shipped() if p.band == band and p.game == "classic")


def test_puzzles_prompt_and_answer_hint_help_and_quit_without_revealing() -> None:
    puzzle = _puzzle()
    out = runner.invoke(app, ["puzzles", "--id", puzzle.id], input="\nhelp\nhint\n\nquit\n")
    assert out.exit_code == 0, out.output
    assert "turn (0)>" in out.output  # a prompt
    first_cell = puzzle.answer.split()[0].partition("=")[0]
    assert f"on {first_cell}" in out.output  # the hint
    assert "to leave without the answer" in out.output  # the help
    assert "refused" not in out.output and "not a placement" not in out.output
    assert puzzle.answer not in out.output  # quit, empty lines: no answer shown


def test_puzzles_take_a_whole_turn_on_one_line() -> None:
    puzzle = _puzzle()
    out = runner.invoke(app, ["puzzles", "--id", puzzle.id], input=f"{puzzle.answer} end\n")
    assert f"Solved: {puzzle.points} points." in out.output, out.output


def test_the_daily_puzzle_honours_the_band() -> None:
    for band in mined.BANDS:
        out = runner.invoke(app, ["puzzles", "--daily", "--band", band], input="quit\n")
        assert out.exit_code == 0, out.output
        heading = re.search(r"Puzzle (\S+) \((\w+)\)", out.output)
        assert heading is not None and heading[2] == band
        assert heading[1] == mined.daily(puzzles=mined.of_band(band)).id


def test_a_lesson_answers_help() -> None:
    out = runner.invoke(app, ["learn"], input="help\nquit\n")
    assert out.exit_code == 0, out.output
    assert "not a placement" not in out.output and "refused" not in out.output
    assert "Type the move in the notation" in out.output


@pytest.mark.parametrize(
    ("sheet", "said"),
    [
        ("", "there is no turn to score"),
        ("# only a comment\n", "there is no turn to score"),
        ("A: pass\nB: pass\nC: pass\nD: pass\nE: pass\n", "5 players: Mathable is played by 2"),
        ("Ann: pass\nAnn: pass\nAnn: pass\n", "1 player: Mathable is played by 2 to 4"),
        ("Ann: pass\nBob: pass\nBob: pass\n", "line 3: a turn of Bob, but the turn was Ann's"),
    ],
)
def test_score_refuses_a_sheet_no_game_could_make(tmp_path: Path, sheet: str, said: str) -> None:
    path = tmp_path / "sheet.txt"
    path.write_text(sheet)
    out = runner.invoke(app, ["score", str(path)])
    assert out.exit_code == 1
    assert said in out.output


@pytest.mark.parametrize(
    ("players", "said"),
    [
        ("Ann,ann", "Ann and ann are one name"),
        ("Ann, Ann", "Ann and Ann are one name"),
        ("A" * 50 + ",Bob", "the name of player 1: 50 characters: a name has at most 40"),
        ("A,B,C,D,E", "5 players: the game is for 2 to 4"),
    ],
)
def test_players_are_refused_in_the_users_words(players: str, said: str) -> None:
    out = runner.invoke(app, ["play", "--plain", "--players", players], input="")
    assert out.exit_code == 1
    assert said in out.output
    assert "field" not in out.output and "players[" not in out.output


def test_a_seed_out_of_range_is_refused_in_the_users_words() -> None:
    for seed in ("-1", str(2**64)):
        out = runner.invoke(app, ["play", "--plain", "--players", "A,B", "--seed", seed])
        assert out.exit_code == 1
        assert "--seed takes a whole number from 0 to" in out.output
        assert "field" not in out.output and "out of range" not in out.output


def test_computer_seats_are_named_alike_however_asked() -> None:
    assert bot_names(["Ann", "bot:strong"]) == ["Ann", "Strong [bot:strong]"]
    assert bot_names(["bot:strong", "BOT:strong"]) == [
        "Strong [bot:strong]",
        "Strong 2 [bot:strong]",
    ]
    assert bot_names(["Bob [bot:greedy]", "bot:nobody"]) == ["Bob [bot:greedy]", "bot:nobody"]


def test_the_ladder_table_is_written_unwrapped(monkeypatch: pytest.MonkeyPatch) -> None:
    from mathable.ai import ladder

    line = "| classic | gentle < greedy | " + "x" * 150 + " |\n"
    monkeypatch.setattr(ladder, "play", lambda *args: [])
    monkeypatch.setattr(ladder, "table", lambda rungs, deals, seed: line)
    out = runner.invoke(app, ["ladder", "--deals", "1", "--game", "classic"])
    assert out.exit_code == 0, out.output
    assert line in out.output


def test_the_arenas_intervals_are_never_cut() -> None:
    out = runner.invoke(app, ["arena", "gentle", "greedy", "--games", "2", "--seed", "9"])
    assert out.exit_code == 0, out.output
    assert not out.stderr  # its progress bar shows on a terminal only, and leaves nothing
    rows = [r for r in out.output.splitlines() if r.startswith(("│ gentle", "│ greedy"))]
    assert len(rows) == 2
    for row in rows:
        assert re.search(r"\d+\.\d-\d+\.\d%", row), row
        assert "…" not in row


def test_option_types_are_words_not_python_types() -> None:
    for command in (["play", "--help"], ["arena", "--help"], ["ladder", "--help"]):
        out = runner.invoke(app, command, env={"COLUMNS": "100"})
        assert out.exit_code == 0
        for python in ("<bool>", "<int>", "<str>", "<list[str]>", "<path>", "<float>"):
            assert python not in out.output, (command, python)


# -- finding 10: click's, typer's and the system's texts in the user's language --------


@pytest.mark.parametrize(
    ("args", "english"),
    [
        (["nosuch"], "No such command"),
        (["play", "--seed", "x"], "Invalid value for"),
        (["play", "--sed", "1"], "No such option"),
        (["play", "--seed"], "requires an argument"),
        (["score"], "Missing argument"),
        (["arena", "--jobs", "0", "a", "b"], "Input should be"),
    ],
)
def test_usage_errors_speak_the_users_language(args: list[str], english: str) -> None:
    out = runner.invoke(app, ["--lang", "fr", *args])
    assert out.exit_code == 2
    assert english not in out.output
    assert "Try '" not in out.output and "Error" not in out.output
    assert re.search(r"erreur\s:", out.output)


def test_usage_errors_say_what_is_wrong_in_english_too() -> None:
    out = runner.invoke(app, ["arena", "--jobs", "0", "a", "b"])
    assert "error: --jobs takes a whole number from 1 to 64" in out.output
    out = runner.invoke(app, ["nosuch"])
    assert "error: no such command: nosuch" in out.output
    assert "Try 'mathable -h' for help." in out.output or "for help." in out.output


def test_help_defaults_and_types_are_translated() -> None:
    out = runner.invoke(app, ["--lang", "qps", "play", "--help"], env={"COLUMNS": "120"})
    assert out.exit_code == 0
    outside = re.sub(r"⟦[^⟧]*⟧", "", out.output)
    assert "default" not in outside
    assert "NUMBER" not in outside and "TEXT" not in outside


def test_a_missing_file_is_said_in_the_users_language() -> None:
    out = runner.invoke(app, ["--lang", "fr", "score", "/no/such/sheet.txt"])
    assert out.exit_code == 1
    assert "No such file" not in out.output
    assert "aucun fichier" in out.output.lower() or "introuvable" in out.output.lower()


# -- finding 12's flag: the computer's pace ----------------------------------------------


def test_the_plain_game_waits_the_pace_between_the_computers_actions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = registry.new_game("classic", ["Greedy [bot:greedy]", "Ann"], seed=8)
    monkeypatch.setattr("builtins.input", _typist(game, []))
    waits: list[float] = []
    run_hotseat(Console(file=StringIO()), game, seed=8, pace=0.25, sleep=waits.append)
    bot_actions = sum(1 for _ in game.log)
    assert waits and set(waits) == {0.25} and len(waits) == bot_actions


def test_pace_is_refused_below_zero_and_passed_to_the_full_screen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = runner.invoke(app, ["play", "--pace", "-1", "--plain"])
    assert out.exit_code == 2 and "--pace" in out.output
    seen: dict[str, object] = {}
    monkeypatch.setattr("mathable.tui.app.run_app", lambda *a, **k: seen.update(k))
    from mathable.cli import play as cli_app

    class _Tty(StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", _Tty())
    monkeypatch.setattr("sys.stdout", _Tty())
    cli_app.play(pace=0.0, players="", vs=None, rounds=1, seed=None, variant="classic")
    assert seen.get("pace") == 0.0


# -- finding 11: start-up ----------------------------------------------------------------


def test_the_help_imports_none_of_the_engine_games_players_or_web() -> None:
    code = (
        "import sys, runpy\n"
        "sys.argv = ['mathable', '--help']\n"
        "try:\n"
        "    runpy.run_module('mathable', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ('mathable.ai', 'mathable.games', 'mathable.web', 'mathable.engine.protocol',"
        " 'mathable.learn', 'mathable.tui')\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout.strip().splitlines()[-1].replace("'", '"')) == []
