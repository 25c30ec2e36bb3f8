"""Issue 12 on the command line: user text printed as typed, exit codes and one-line
errors, the plain game's cover between seats, saves that never overwrite, ``--vs`` with
``--players``, the end of a game, computer turns, hints as a house rule (O2) and J4's
proposal to stop answered in the plain game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from mathable.cli.app import app
from mathable.cli.hotseat import run_hotseat
from mathable.engine import records
from mathable.engine.protocol import Game
from mathable.games import registry
from mathable.games.registry import GAMES

runner = CliRunner()
HOSTILE_NAMES = ["[/]", "[bold]Eve", "[link=x]a[/link]", ":smile:"]
"""Markup, a closing tag, a link and an emoji code: each must print as typed."""
POSITION = "classic | G7=1 H7=2 G8=3 H8=4 | 1 2 8 12 16 17 42 / ?7 | 0 0 | 92 | 1"


def _finished(name: str, players: list[str], seed: int) -> Game:
    """A game played to its end by always taking the first legal action."""
    game = registry.new_game(name, players, seed=seed)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    return game


def _refused(out: Result) -> None:
    """Exit 1 with exactly one line on stderr, ``error: …``, and no traceback."""
    assert out.exit_code == 1, (out.exit_code, out.output, out.exception)
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
    assert "Traceback" not in out.output and "internal error" not in out.output


# -- 1: user text prints as typed ----------------------------------------------------


def test_names_and_typed_text_print_exactly_as_typed_in_every_command(tmp_path: Path) -> None:
    game = _finished("classic", HOSTILE_NAMES, seed=4)
    record = tmp_path / "[bold]game[red].json"
    record.write_text(records.dumps(game))
    for command in (["replay", str(record)], ["analyse", str(record)]):
        out = runner.invoke(app, command)
        assert out.exit_code == 0, out.output
        assert all(name in out.stdout for name in HOSTILE_NAMES), command
    assert "[bold]game[red].json" in runner.invoke(app, ["analyse", str(record)]).stdout
    sheet = tmp_path / "sheet.txt"
    sheet.write_text(runner.invoke(app, ["replay", str(record), "--sheet"]).stdout)
    out = runner.invoke(app, ["score", str(sheet)])
    assert out.exit_code == 0 and all(name in out.stdout for name in HOSTILE_NAMES)
    # the plain game: names in prompts and the cover, typed text echoed in a refusal
    out = runner.invoke(
        app,
        ["play", "--plain", "--players", ":smile:,[bold]Eve", "--seed", "1"],
        input="\nbogus[/x]\nquit\n\n",
    )
    assert out.exit_code == 0, out.output
    assert ":smile:" in out.stdout and "[bold]Eve" in out.stdout
    assert "'bogus[/x]'" in out.stdout
    first = registry.new_game("classic", [":smile:", "[bold]Eve"], seed=1)
    assert f"{first.players[first.to_move]}> " in out.stdout


# -- 2: exit codes, one-line errors, --version, -h, python -m --------------------------


def test_version_short_help_and_python_dash_m() -> None:
    out = runner.invoke(app, ["--version"])
    assert out.exit_code == 0 and out.stdout.strip().startswith("mathable ")
    assert out.stdout.split()[1][0].isdigit()
    commands = ["score", "replay", "show", "moves", "variants", "play", "bots", "arena"]
    for command in [[], *([c] for c in [*commands, "analyse", "hint", "serve"])]:
        short = runner.invoke(app, [*command, "-h"])
        assert short.exit_code == 0 and "Usage" in short.stdout, command
    module = subprocess.run(
        [sys.executable, "-m", "mathable", "--version"], capture_output=True, text=True
    )
    assert module.returncode == 0 and module.stdout.startswith("mathable ")


def _bad_file(case: str, folder: Path) -> str:
    """A file argument each command must refuse in one line."""
    if case == "too-long":
        return str(folder / ("x" * 300 + ".json"))
    if case == "directory":
        return str(folder)
    if case == "fifo":
        os.mkfifo(folder / "fifo")
        return str(folder / "fifo")
    path = folder / "file.json"
    contents = {
        "invalid-utf-8": b"\xff\xfe{\x80}",
        "not-json": b"hello, world",
        "random-json": b'{"format": "mathable-record", "version": 1, "players": 7}',
        "deep-json": b"[" * 200_000,
        "huge": b" " * 5_000_001,
    }
    path.write_bytes(contents[case])
    return str(path)


FILE_COMMANDS = [
    ["replay"],
    ["analyse"],
    ["score"],
    ["show"],
    ["moves"],
    ["hint"],
    ["play", "--plain", "--resume"],
]
BAD_FILES = ["too-long", "directory", "fifo", "invalid-utf-8", "not-json"]
BAD_FILES += ["random-json", "deep-json", "huge"]


@pytest.mark.parametrize("case", BAD_FILES)
def test_bad_files_are_refused_in_one_line_by_every_command(case: str, tmp_path: Path) -> None:
    argument = _bad_file(case, tmp_path)
    for command in FILE_COMMANDS:
        _refused(runner.invoke(app, [*command, argument]))


def test_long_positions_names_and_values_are_refused_in_one_line() -> None:
    for command in ("show", "moves", "hint"):
        _refused(runner.invoke(app, [command, "a" * 300]))
        _refused(runner.invoke(app, [command, "x\n[/]" * 100]))
        _refused(runner.invoke(app, [command, POSITION.replace("| 92 |", "| 9" * 100 + " |")]))
    refused = runner.invoke(app, ["replay", "no\nsuch\x1b[2J file"])
    _refused(refused)
    assert "no\\nsuch\\x1b[2J file" in refused.stderr  # one line, no terminal codes
    _refused(runner.invoke(app, ["play", "--plain", "--players", "Ann,bot:nobody"]))
    _refused(runner.invoke(app, ["play", "--plain", "--variant", "[/]"]))
    _refused(runner.invoke(app, ["play", "--plain", "--players", "Ann,Bob", "--rounds", "3"]))
    _refused(runner.invoke(app, ["arena", "greedy", "[bold]x"]))


def test_serve_refuses_bad_ports_hosts_and_database_urls(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for port in ("99999", "-1"):
        out = runner.invoke(app, ["serve", "--port", port])
        assert out.exit_code == 2 and "Traceback" not in out.output
    _refused(runner.invoke(app, ["serve", "--host", "[/]", "--port", "0"]))
    _refused(runner.invoke(app, ["serve", "--host", "a" * 300, "--port", "0"]))
    for url in ("postgres://nobody", f"sqlite:///{tmp_path}", "sqlite:////proc/none/x.db"):
        monkeypatch.setenv("DATABASE_URL", url)
        _refused(runner.invoke(app, ["serve", "--port", "0"]))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/games.db")
    monkeypatch.setenv("MATHABLE_WORKERS", "many")
    _refused(runner.invoke(app, ["serve", "--port", "0"]))


# -- 5: the plain game ---------------------------------------------------------------


def _typist(game: Game, script: Callable[[str, Game], str | None]) -> Callable[[str], str]:
    """An ``input`` that answers each prompt with ``script(prompt, game)``, or else the
    cover's Enter and the first legal action."""

    def typed(prompt: str = "") -> str:
        answer = script(prompt, game)
        if answer is not None:
            return answer
        if "Pass the screen" in prompt:
            return ""
        if game.is_over:  # asked whether to save: no
            return ""
        return game.format_action(game.legal_actions()[0])

    return typed


def test_the_plain_game_hides_each_rack_before_the_next_player_comes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = registry.new_game("classic", ["Ann", "Bob"], seed=1)
    turns = {"n": 0}

    def script(prompt: str, game: Game) -> str | None:
        if prompt.endswith("> "):
            turns["n"] += 1
            return "quit" if turns["n"] > 12 else None
        return "" if "Save first" in prompt else None

    monkeypatch.setattr("builtins.input", _typist(game, script))
    out = StringIO()
    run_hotseat(Console(file=out, width=100, force_terminal=True), game)
    text = out.getvalue()
    covers = text.split("Pass the screen to")
    assert len(covers) > 4
    for before in covers[1:-1]:  # what each player saw, up to the next player's cover
        seen = before[before.index("your rack") :]
        assert "\x1b[2J" in seen, "the rack stays on screen for the next player"


def test_saves_pick_a_free_name_and_never_replace_a_file_unasked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("mathable-classic-1.json").write_text("an older game")
    Path("mine.json").write_text("mine")
    game = registry.new_game("classic", ["Ann", "Bob [bot:gentle]"], seed=1)
    script = ["save", "save", "save mine.json", "n", "save mine.json", "y", "quit", ""]
    monkeypatch.setattr("builtins.input", lambda prompt="": script.pop(0))
    out = StringIO()
    run_hotseat(Console(file=out, width=100), game, seed=1)
    text = out.getvalue()
    assert Path("mathable-classic-1.json").read_text() == "an older game"
    for name in ("mathable-classic-1-2.json", "mathable-classic-1-3.json", "mine.json"):
        assert registry.from_record(Path(name).read_text()).players == game.players
        assert json.loads(Path(name).read_text())["bots"] == [None, "gentle"]  # the computer
    assert "mine.json exists" in text and "not saved" in text


def test_a_resumed_record_keeps_its_computer_seats(tmp_path: Path) -> None:
    game = registry.new_game("classic", ["Ann", "Robo"], seed=5)
    while game.to_move != 1:  # the computer's turn, as a record from the web app saves it
        game.apply(game.parse_action("pass"))
    record = {**records.to_record(game), "bots": [None, "greedy"]}
    path = tmp_path / "web.json"
    path.write_text(json.dumps(record))
    out = runner.invoke(app, ["play", "--plain", "--resume", str(path)], input="quit\n\n")
    assert out.exit_code == 0, out.output
    assert "Pass the screen to Robo" not in out.stdout and "last turn: Robo" in out.stdout
    path.write_text(json.dumps({**record, "bots": [None, "grandmaster"]}))
    _refused(runner.invoke(app, ["play", "--plain", "--resume", str(path)]))


def test_vs_with_players_seats_that_person_against_the_computer() -> None:
    out = runner.invoke(
        app, ["play", "--plain", "--players", "Ann", "--vs", "greedy"], input="quit\n\n"
    )
    assert out.exit_code == 0, out.output
    assert "Ann" in out.stdout and "[bot:greedy]" in out.stdout and "You" not in out.stdout
    _refused(runner.invoke(app, ["play", "--plain", "--players", "Ann,Bob", "--vs", "greedy"]))
    _refused(
        runner.invoke(app, ["play", "--plain", "--players", "Ann,bot:strong", "--vs", "gentle"])
    )
    helped = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"})
    assert "--players Ann --vs strong" in helped.stdout and "--no-hints" in helped.stdout


@pytest.mark.parametrize("name", list(GAMES))
def test_computer_turns_are_shown_action_by_action_and_the_end_shows_what_was_left(
    name: str,
) -> None:
    game = registry.new_game(name, ["Ann [bot:greedy]", "Bob [bot:gentle]"], seed=2)
    out = StringIO()
    run_hotseat(Console(file=out, width=120), game, seed=2)
    text = out.getvalue()
    assert game.is_over and "is thinking…" in text
    lines = [line for line in text.splitlines() if line.startswith(game.players)]
    played = [f"{game.players[s]}: {a}" for s, a in _actions_by_seat(game)]
    assert [line for line in lines if line in played] == played
    view = game.view(None)
    end = text[text.index("over:") :]
    deducted = view.to_dict().get("deductions") if game.game_type.deducts_rack else None
    for seat, player in enumerate(game.players):
        row = next(line for line in end.splitlines() if line.strip().startswith(f"{player}:"))
        left = row.split(f"{player}:", 1)[1].split()
        assert [int(v) for v in left if v.isdigit()] == list(view.open_racks[seat])
        if deducted:
            assert row.endswith(f"−{deducted[seat]}")


def _actions_by_seat(game: Game) -> list[tuple[int, str]]:
    """Every action of a finished game with the seat that took it."""
    replay = game.fresh()
    done = []
    for action in game.log:
        done.append((replay.to_move, replay.format_action(action)))
        replay.apply(action)
    return done


def test_hints_are_on_in_the_plain_game_unless_no_hints() -> None:
    command = ["play", "--plain", "--players", "Ann,Bob", "--seed", "3"]
    on = runner.invoke(app, command, input="\nhint\nquit\n\n")
    assert on.exit_code == 0 and "keeps" in on.stdout
    off = runner.invoke(app, [*command, "--no-hints"], input="\nhint\nquit\n\n")
    assert off.exit_code == 0 and "keeps" not in off.stdout
    assert "house rules have them off (O2)" in off.stdout


# -- J4 in the plain game ------------------------------------------------------------


def test_j4_stop_is_a_proposal_the_other_player_accepts_or_declines(tmp_path: Path) -> None:
    empty_pot = {"racks": [[1, 3, 5, 7, 9], [1, 3, 5, 7, 9]], "bag": [], "to_move": 0}  # J4
    first = registry.new_game("junior", ["Ann", "Bob"], setup=empty_pot)
    path = tmp_path / "junior.json"
    path.write_text(records.dumps(first), encoding="utf-8")
    command = ["play", "--plain", "--resume", str(path)]
    proposer, asked = first.players[first.to_move], first.players[1 - first.to_move]
    out = runner.invoke(app, command, input="\nstop\n\nhelp\naccept\n")
    assert out.exit_code == 0, out.output
    assert f"{asked} (accept / decline)>" in out.stdout
    words = " ".join(out.stdout.split())
    assert "agree to the proposal (stop the game / let the last turn stand)" in words
    assert "refuse the proposal to stop; play goes on" in words
    assert "propose to end the game; it ends when every other player accepts" in words
    assert "Game over" in out.stdout
    out = runner.invoke(app, command, input="\nstop\n\ndecline\n")
    assert out.exit_code == 0, out.output
    after = out.stdout[out.stdout.index(f"{asked} (accept / decline)>") :]
    assert f"Pass the screen to {proposer}" in after and "Game over" not in out.stdout
