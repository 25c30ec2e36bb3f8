"""The ``mathable`` command in the reader's language (issue 17): ``--lang``, else the
environment; every line a person reads translated (the test language ``qps`` shows each
translated text as ``⟦text⟧``: English outside brackets escaped translation), the help
texts included; command words typed in the player's language in the plain game."""

from __future__ import annotations

import gettext
import json
import re
from collections.abc import Callable, Iterable, Sequence
from io import StringIO
from pathlib import Path

import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner, Result

from mathable import i18n
from mathable.ai import BOTS
from mathable.ai.arena import play_game
from mathable.cli.app import app
from mathable.cli.hotseat import run_hotseat
from mathable.cli.linehelp import help_text
from mathable.engine.protocol import Game
from mathable.games import registry
from mathable.games.registry import GAMES

runner = CliRunner()
POSITION = "classic | G7=1 H7=2 G8=3 H8=4 | 1 2 8 12 16 17 42 / ?7 | 0 0 | 92 | 1"
NO_LOCALE = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}
"""An environment naming no language (the variables removed for the run)."""

PRODUCTS = {"Mathable", "Junior", "Quattro"}
"""The product names, never translated."""
NOTATION = {"pass", "end", "exchange", "left", "diago", "DIAGO", "resign", "abort", "save"}
NOTATION |= {"challenge", "stop", "accept", "decline", "draw", "penalty"}
"""Keywords of the notation: turns as a score sheet writes them (``Ann pass``)."""
_WORD = re.compile(r"[A-Za-z]{2,}")
GAME_WORDS = {word for name in GAMES for word in _WORD.findall(name)}
"""The games' names (``junior-numbers``): notation."""
HELP_WORDS = {"OPTIONS", "COMMAND", "ARGS", "bool", "str", "int", "path", "default"}
HELP_WORDS |= {"required", "root", "file", "record", "position", "names", "range", "list"}
HELP_WORDS |= {"hints", "paired"}  # the defaults of --hints/--no-hints, --paired/--no-paired
HELP_WORDS |= set(i18n.LANGUAGES) | GAME_WORDS
HELP_WORDS |= {word for name in typer.main.get_group(app).commands for word in _WORD.findall(name)}
"""What typer writes in a help screen besides our texts: the program and command names
(``root`` in tests), metavars, argument names, its ``[default: …]`` and ``[required]``,
and defaults (game names, language codes)."""

_SPAN = re.compile(r"⟦[^⟦⟧]*⟧")
_CUT = re.compile(r"⟦[^⟦⟧\n]*?(?=  |\n|$)")
_OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")


def escaped(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The English words of ``text`` outside the ⟦ ⟧ of the test language: words of two
    ASCII letters or more, but for ``allowed`` ones (names typed, notation, product
    names), command-line options (``--json``) and cell names (``I8``: one letter); a
    text cut to fit its place (a pile's note under its card) counts as translated."""
    while True:  # the innermost spans first: a text's values may be texts too
        stripped = _SPAN.sub(" ", text)
        if stripped == text:
            break
        text = stripped
    text = _OPTION.sub(" ", _CUT.sub(" ", text))
    keep = {*allowed, *PRODUCTS}
    return [word for word in _WORD.findall(text) if word not in keep]


def _qps(args: list[str], **kwargs: object) -> Result:
    """``mathable --lang qps ARGS``."""
    out = runner.invoke(app, ["--lang", "qps", *args], **kwargs)  # type: ignore[arg-type]
    assert "Traceback" not in out.output, out.output
    return out


def test_the_checker_finds_english_outside_brackets() -> None:
    assert escaped("⟦Score sheet: ⟦x⟧⟧ I8=12 (12)") == []
    assert escaped("⟦Totals:⟧ Ann 12", allowed=["Ann"]) == []
    assert escaped("⟦error:⟧ no such file") == ["no", "such", "file"]
    assert escaped("⟦a⟧ tokens ⟦b⟧") == ["tokens"]


# -- choosing the language ----------------------------------------------------------------


def test_lang_chooses_the_language_and_the_environment_is_the_default() -> None:
    english = runner.invoke(app, ["show", POSITION], env=NO_LOCALE)
    assert english.exit_code == 0 and "rack to move:" in english.stdout
    assert "⟦" not in english.stdout
    for args, env in (
        (["--lang", "qps"], NO_LOCALE),
        (["--lang=qps"], NO_LOCALE),
        ([], {**NO_LOCALE, "LANGUAGE": "qps"}),
        ([], {**NO_LOCALE, "LC_ALL": "qps"}),
    ):
        out = runner.invoke(app, [*args, "show", POSITION], env=env)
        assert out.exit_code == 0, (args, env, out.output)
        assert "⟦rack to move:⟧" in out.stdout, (args, env)
    # --lang before the environment
    out = runner.invoke(app, ["--lang", "en", "show", POSITION], env={"LANGUAGE": "qps"})
    assert "rack to move:" in out.stdout and "⟦" not in out.stdout
    assert i18n.current() == i18n.DEFAULT  # nothing left behind after a run


def test_lang_in_the_environment_selects_french(monkeypatch: pytest.MonkeyPatch) -> None:
    """The French catalog may still be empty: the language asked of the catalogs tells."""
    asked: list[str] = []
    found = i18n.translations

    def spy(lang: str) -> gettext.NullTranslations:
        asked.append(lang)
        return found(lang)

    monkeypatch.setattr(i18n, "translations", spy)
    out = runner.invoke(app, ["show", POSITION], env={**NO_LOCALE, "LANG": "fr_FR.UTF-8"})
    assert out.exit_code == 0, out.output
    assert "fr" in asked and "qps" not in asked
    asked.clear()
    env = {**NO_LOCALE, "LANG": "fr_FR.UTF-8", "LANGUAGE": "de:fr"}  # LANGUAGE first
    assert runner.invoke(app, ["show", POSITION], env=env).exit_code == 0
    assert "de" in asked and "fr" not in asked
    asked.clear()
    env = {**NO_LOCALE, "LANG": "fr_FR.UTF-8"}
    assert runner.invoke(app, ["--lang", "nl", "show", POSITION], env=env).exit_code == 0
    assert "nl" in asked and "fr" not in asked


def test_an_unknown_language_is_a_usage_error_naming_the_languages() -> None:
    for args in (["--lang", "xx", "bots"], ["--lang=klingon", "bots"], ["--lang", "", "bots"]):
        out = runner.invoke(app, args, env={**NO_LOCALE, "COLUMNS": "200"})
        assert out.exit_code == 2, (args, out.output)
        assert "en, fr, es, de, it, nl" in out.output and "qps" not in out.output
        assert "Traceback" not in out.output


# -- every line translated -----------------------------------------------------------------


@pytest.mark.parametrize("command", [[], ["score"], ["play"], ["hint"], ["arena"], ["serve"]])
def test_help_texts_are_shown_in_the_chosen_language(command: list[str]) -> None:
    out = _qps([*command, "--help"], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    assert "⟦Usage:⟧" in out.stdout and "⟦Options⟧" in out.stdout
    assert "⟦Show this message and exit.⟧" in out.stdout
    assert escaped(out.stdout, HELP_WORDS) == [], out.stdout
    english = runner.invoke(app, [*command, "--help"], env={**NO_LOCALE, "COLUMNS": "200"})
    assert "⟦" not in english.stdout and "Show this message and exit." in english.stdout


def test_help_follows_lang_wherever_it_is_given() -> None:
    out = runner.invoke(app, ["--help", "--lang", "qps"], env={"COLUMNS": "200"})
    assert "⟦Commands⟧" in out.stdout and "⟦Print the version.⟧" in out.stdout
    assert escaped(out.stdout, HELP_WORDS) == [], out.stdout


def test_position_commands_speak_the_chosen_language() -> None:
    for command in (["show"], ["moves", "--limit", "5"], ["hint", "--limit", "2"]):
        out = _qps([*command, POSITION])
        assert out.exit_code == 0, (command, out.output)
        assert escaped(out.stdout) == [], (command, out.stdout)
    hidden = _qps(["hint", POSITION[: POSITION.rindex("|")] + "| 2"])
    assert hidden.exit_code == 1 and hidden.stderr.startswith("⟦error:⟧ ⟦")
    assert escaped(hidden.stderr) == []
    for command in (["variants"], ["bots"]):
        out = _qps(command)
        assert out.exit_code == 0
        assert escaped(out.stdout, [*GAME_WORDS, *BOTS]) == []  # the levels' own keys


def test_errors_keep_their_prefix_translated() -> None:
    missing = _qps(["replay", "no-such-file.json"])
    assert missing.exit_code == 1 and missing.stderr.startswith("⟦error:⟧ ")
    assert escaped(missing.stderr) == [], missing.stderr
    refused = _qps(["play", "--plain", "--vs", "nobody"])
    assert refused.exit_code == 1 and escaped(refused.stderr) == [], refused.stderr
    english = runner.invoke(app, ["replay", "no-such-file.json"], env=NO_LOCALE)
    assert english.stderr.startswith("error: cannot read no-such-file.json")


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished game of each game, saved as a record (players ``Ann``, ``Bob``)."""
    folder = tmp_path_factory.mktemp("records")
    paths = {}
    for name in GAMES:
        record = play_game(["greedy", "gentle"], name, 3, keep_record=True).record
        assert record is not None
        record["players"] = ["Ann", "Bob"]
        paths[name] = folder / f"{name}.json"
        paths[name].write_text(json.dumps(record))
    return paths


def test_score_sheets_speak_the_chosen_language(records: dict[str, Path], tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.txt"
    sheet.write_text(runner.invoke(app, ["replay", str(records["classic"]), "--sheet"]).stdout)
    out = _qps(["score", str(sheet)])
    assert out.exit_code == 0, out.output
    assert escaped(out.stdout, ["Ann", "Bob", "sheet", "txt"]) == [], out.stdout
    quattro = _qps(["score", str(sheet), "--variant", "quattro"])
    assert quattro.exit_code == 1 and escaped(quattro.stderr) == [], quattro.stderr


@pytest.mark.parametrize("name", list(GAMES))
def test_replay_and_analysis_speak_the_chosen_language(records: dict[str, Path], name: str) -> None:
    allowed = ["Ann", "Bob", *GAME_WORDS, "json", *NOTATION]
    for command in (["replay"], ["analyse"]):
        out = _qps([*command, str(records[name])])
        assert out.exit_code == 0, out.output
        assert escaped(out.stdout, allowed) == [], out.stdout


# -- the plain game ------------------------------------------------------------------------


def _typist(game: Game, lines: list[str]) -> Callable[[str], str]:
    """An ``input`` typing ``lines``, then the first legal action at each prompt."""

    def typed(prompt: str = "") -> str:
        if lines:
            return lines.pop(0)
        if game.is_over:  # asked whether to save: no
            return ""
        return game.format_action(game.legal_actions()[0])

    return typed


def test_the_plain_game_speaks_the_chosen_language() -> None:
    command = ["play", "--plain", "--players", "Ann,Bob", "--seed", "3"]
    typed = "\n⟦help⟧\n⟦hint⟧\nbogus\n⟦pass⟧\n\n⟦resign⟧\nn\n⟦quit⟧\n\n"
    out = _qps(command, input=typed)
    assert out.exit_code == 0, out.output
    assert "⟦Pass the screen to Bob and press Enter…⟧" in out.stdout
    assert "⟦refused:⟧" in out.stdout and "⟦keeps " in out.stdout
    assert "⟦Play goes on.⟧" in out.stdout
    assert escaped(out.stdout, ["Ann", "Bob", *NOTATION]) == [], out.stdout


@pytest.mark.parametrize("name", list(GAMES))
def test_a_whole_game_speaks_the_chosen_language(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = registry.new_game(name, ["Ann", "Bob [bot:gentle]"], seed=5)
    monkeypatch.setattr("builtins.input", _typist(game, ["⟦help⟧", "⟦hint⟧", "nonsense"]))
    out = StringIO()
    with i18n.language("qps"):
        run_hotseat(Console(file=out, width=200, force_terminal=False), game, seed=5)
    text = out.getvalue()
    assert game.is_over and "⟦Winner: " in text
    allowed = ["Ann", "Bob", "bot", "gentle", *NOTATION]
    assert escaped(text, allowed) == [], text


def test_command_words_are_typed_in_the_players_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = registry.new_game("classic", ["Ann", "Bob"], seed=3)
    first = game.to_move
    lines = ["", "⟦pass⟧", "", "⟦exchange⟧ " + str(game.rack(1 - first)[0]), "", "⟦quit⟧", ""]
    monkeypatch.setattr("builtins.input", _typist(game, lines))
    with i18n.language("qps"):
        run_hotseat(Console(file=StringIO(), width=100), game, seed=3)
    assert [game.format_action(action).split()[0] for action in game.log] == ["pass", "exchange"]
    # English words are still understood in any language
    game = registry.new_game("classic", ["Ann", "Bob"], seed=3)
    monkeypatch.setattr("builtins.input", _typist(game, ["", "pass", "", "quit", ""]))
    with i18n.language("qps"):
        run_hotseat(Console(file=StringIO(), width=100), game, seed=3)
    assert [game.format_action(action) for action in game.log] == ["pass"]


def test_the_help_screen_lists_the_words_of_the_players_language() -> None:
    kind = registry.game_type("classic")
    with i18n.language("qps"):
        shown = help_text(kind, True, (), ("resign", "abort"))
    for word in ("end", "pass", "hint", "resign", "abort", "undo", "quit"):
        assert f"  ⟦{word}⟧ " in shown, word
    assert "⟦exchange⟧ 3,5" in shown and "  A8=12 " in shown
    assert escaped(shown, ["save"]) == [], shown  # save: not a command word yet
    english = help_text(kind, True, (), ("resign", "abort"))
    assert "  end " in english and "⟦" not in english


def _english_only_words(lang: str) -> set[str]:
    """Words of the English texts that no translation into ``lang`` uses: seen in that
    language's output, they are English left over."""
    from babel.messages.pofile import read_po

    with i18n.catalog_path(lang).open("rb") as source:
        catalog = read_po(source, locale=lang)
    english: set[str] = set()
    translated: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        # babel types an id or a translation as a string, or plural forms as a tuple or list
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        forms: Sequence[str | None] = (
            message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        )
        for text in ids:
            english |= set(re.findall(r"[A-Za-z]{3,}", i18n._FIELD.sub(" ", text)))
        for form in forms:
            translated |= set(re.findall(r"[A-Za-z]{3,}", i18n._FIELD.sub(" ", str(form))))
    return english - translated - {"Ann", "Bob", "bot", "gentle", *PRODUCTS}


@pytest.mark.parametrize("lang", ["fr", "es", "de", "it", "nl"])
def test_a_whole_game_in_each_language_has_no_english_word(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A child who reads only ``lang`` plays a whole game in the terminal: every line is
    in their language (no word that only the English texts use), from the help screen to
    the winner, and their words for hint and help are understood."""
    game = registry.new_game("classic", ["Ann", "Bob [bot:gentle]"], seed=5)
    with i18n.language(lang):
        words = [i18n.command_name("help"), i18n.command_name("hint")]
    monkeypatch.setattr("builtins.input", _typist(game, [*words, "nonsense"]))
    out = StringIO()
    with i18n.language(lang):
        run_hotseat(Console(file=out, width=200, force_terminal=False), game, seed=5)
    text = out.getvalue()
    assert game.is_over
    left = sorted(set(re.findall(r"[A-Za-z]{3,}", text)) & _english_only_words(lang))
    assert left == [], left


def test_the_terminal_game_starts_in_french_with_lang_fr() -> None:
    with i18n.language("fr"):
        expected = i18n._("Pass the screen to {name} and press Enter…", name="Bob")
        word = i18n.command_name("pass")
    command = ["--lang", "fr", "play", "--plain", "--players", "Ann,Bob", "--seed", "3"]
    out = runner.invoke(app, command, input=f"\n{word}\n\nquit\n\n")
    assert out.exit_code == 0, out.output
    assert expected in out.stdout and expected != "Pass the screen to Bob and press Enter…"
