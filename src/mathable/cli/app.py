"""The ``mathable`` command: score sheets, records, positions and the terminal game.

Exit codes: 0 for success; 1 for refused input, with one line ``error: …`` on stderr; 2
for usage errors (click's, said in the reader's language: :func:`_usage_error`). No input
ends in a traceback. Everything a user typed (names, notation, file names) prints exactly
as typed: output is built from rich ``Text`` and the consoles read no markup or emoji codes
in plain strings.

Everything else speaks the reader's language (:mod:`mathable.i18n`): ``--lang``, else the
environment (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), chosen before anything
is printed; help texts are kept as lazy texts and shown in it (:func:`_help`), typer's own
words too (``[default: …]``), and a value's kind in words (``NUMBER``), not a Python type.

The engine, the games, the computer players and the web are imported when a command first
needs them (:func:`._later.later`): ``mathable --help`` loads none of them.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import socket
import stat
import sys
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text
from typer import rich_utils
from typer._click import Command, Context, HelpFormatter
from typer._click.exceptions import (
    BadOptionUsage,
    BadParameter,
    ClickException,
    MissingParameter,
    NoSuchOption,
)
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption
from typer.exceptions import TyperException

from mathable import __version__, i18n
from mathable.i18n import _, lazy, ngettext, pgettext

from . import oserrors
from ._later import later

if TYPE_CHECKING:
    from mathable import ai
    from mathable.engine import actions, errors, notation, protocol, records
    from mathable.engine.notation import CellNames, Position
    from mathable.engine.protocol import Game, GameType, HouseRules
    from mathable.games import registry
    from mathable.games.board.transcript import Scoresheet
    from mathable.games.board.variants import Variant
    from mathable.render import panels
else:
    ai = later("mathable.ai")
    actions = later("mathable.engine.actions")
    errors = later("mathable.engine.errors")
    notation = later("mathable.engine.notation")
    protocol = later("mathable.engine.protocol")
    records = later("mathable.engine.records")
    registry = later("mathable.games.registry")
    panels = later("mathable.render.panels")

MAX_FILE = 5_000_000
"""The largest file read, in bytes (a long Quattro match's record is far smaller)."""
MAX_PATH = 4096
"""Longer text is never a file name (Linux's PATH_MAX)."""


def _clean(text: str) -> str:
    """``text`` with control characters, line and paragraph separators (U+2028, U+2029)
    and invisible format characters (a right-to-left override) written as escapes
    (``\\n``, ``\\x1b``, ``\\u2028``), so that an error stays one line and cannot
    drive the terminal or disguise itself."""
    hidden = ("Cc", "Cs", "Cf", "Zl", "Zp")
    return "".join(repr(c)[1:-1] if unicodedata.category(c) in hidden else c for c in text)


def fail(message: str) -> typer.Exit:
    """Print one error line on stderr and return the exit (code 1) to raise."""
    # TRANSLATORS: the start of every error line of the mathable command: error: …
    said = Text.assemble((_("error:"), "bold red"), f" {_clean(message)}")
    err.print(said, soft_wrap=True)
    return typer.Exit(1)


# -- the reader's language, and help texts shown in it ------------------------------------

_HELP: dict[str, tuple[i18n.Text, ...]] = {}
"""Each help text handed to typer (in English), by that English text: its paragraphs as
lazy texts, to show in the reader's language."""


def _help(*paragraphs: i18n.Text) -> str:
    """A help text of a command or option, one lazy text per paragraph: given to typer as
    its English template (its values unfilled: they may need imports that ``--help`` need
    not make), and shown in the reader's language (typer builds the commands before the
    language is known, and shows their help after: :func:`_localize`)."""
    english = inspect.cleandoc("\n\n".join(_key(p) for p in paragraphs))
    _HELP[english] = paragraphs
    return english


def _key(paragraph: i18n.Text) -> str:
    """A paragraph's template with its values' forms (two options may share a template:
    ``--variant`` of every game, of the board games)."""
    if not paragraph.values:
        return paragraph.message
    return f"{paragraph.message} {sorted((k, repr(v)) for k, v in paragraph.values.items())}"


def _shown_help(text: str | None) -> str | None:
    """A help text in the current language (a text not made by :func:`_help` as it is)."""
    paragraphs = _HELP.get(text) if text else None
    if paragraphs is None:
        return text
    return "\n\n".join(str(paragraph) for paragraph in paragraphs)


def _localize(command: Command, ctx: Context) -> None:
    """Put ``command``'s help texts, its parameters' and (for the group) its commands' in
    the current language, and the titles of the help's panels, just before its help is
    shown (the commands are made afresh for each run)."""
    command.help = _shown_help(command.help)
    command.short_help = _shown_help(command.short_help)
    _typer_texts()
    for param in command.get_params(ctx):
        if isinstance(param, TyperArgument):
            param.help = _shown_help(param.help)
            word = _value_word(param.display_type(ctx))
            setattr(param, "display_type_rich", lambda ctx, word=word: word)  # noqa: B010
            if not param.rich_help_panel:  # unset (None, or typer's placeholder)
                # TRANSLATORS: the title of the help's panel of a command's arguments
                param.rich_help_panel = _("Arguments")
        elif isinstance(param, TyperOption):
            param.help = _shown_help(param.help)
            param.metavar = _metavar(param, ctx)
            if not param.rich_help_panel:  # unset (None, or typer's placeholder)
                # TRANSLATORS: the title of the help's panel of a command's options
                param.rich_help_panel = _("Options")
    if isinstance(command, TyperGroup):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if isinstance(sub, (TyperCommand, TyperGroup)):
                sub.help = _shown_help(sub.help)
                sub.short_help = _shown_help(sub.short_help)
                if not sub.rich_help_panel:  # unset (None, or typer's placeholder)
                    # TRANSLATORS: the title of the help's panel listing the commands
                    sub.rich_help_panel = _("Commands")


def _typer_texts() -> None:
    """Typer's own words in its help panels in the current language (it takes them
    from gettext's default domain when imported, so English: they are put in here)."""
    from typer import rich_utils

    # TRANSLATORS: after an option's help: its value when not given; {} is that value
    rich_utils.DEFAULT_STRING = _("[default: {}]")
    # TRANSLATORS: after an option's help: the environment variable it reads; {} its name
    rich_utils.ENVVAR_STRING = _("[env var: {}]")
    # TRANSLATORS: after the help of an option or argument that must be given
    rich_utils.REQUIRED_LONG_STRING = _("[required]")
    rich_utils.DEPRECATED_STRING = _("(deprecated)") + " "


def _metavar(option: TyperOption, ctx: Context) -> str | None:
    """What an option's value is, in words of the help (``NUMBER``, ``TEXT``, ``FILE``),
    instead of typer's Python types (``<int>``, ``<list[str]>``); nothing for a flag."""
    if option.is_flag:
        return ""
    if option.metavar and not option.metavar.startswith("<"):
        return option.metavar  # chosen by the command (--lang's languages)
    return _value_word(option.display_type(ctx))


def _value_word(typed: str) -> str:
    """A value's kind in the help's words, from typer's ``<int>``, ``<int range>``,
    ``<path>``, ``<list[str]>``."""
    many = typed.startswith("<list[")
    if typed.startswith(("<int", "<float", "<list[int", "<list[float")):
        # TRANSLATORS: in the help, what an option's value is: a number
        word = _("NUMBER")
    elif typed.startswith(("<path", "<file", "<dir", "<list[path")):
        # TRANSLATORS: in the help, what an option's value is: a file or folder name
        word = _("FILE")
    else:
        # TRANSLATORS: in the help, what an option's value is: any text
        word = _("TEXT")
    return f"{word}…" if many else word


def _usage_error(self: ClickException) -> None:
    """A usage error (an unknown command or option, a bad value) in the reader's
    language: the usage line, where to find help, and one ``error: …`` line (typer's
    own, which it prints in English, is replaced by this: see :data:`_Commands`)."""
    error = self  # typer calls it as a method of the error
    if type(error).__name__ == "NoArgsIsHelpError":
        return  # the help was shown
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        err.print(Text(ctx.get_usage()), soft_wrap=True)
        if ctx.command.get_help_option(ctx) is not None:
            command = f"{ctx.command_path} {ctx.help_option_names[0]}"
            # TRANSLATORS: after a usage error; {command} is typed as it is
            err.print(Text(_("Try '{command}' for help.", command=command)), soft_wrap=True)
    said = Text.assemble((_("error:"), "bold red"), f" {_clean(_usage_words(error))}")
    err.print(said, soft_wrap=True)


def _usage_words(error: ClickException) -> str:
    """What a usage error says, in the reader's language (click's own message where it
    is not one of those known)."""
    message = error.message
    if isinstance(error, NoSuchOption):
        said = _("no such option: {option}", option=error.option_name)
        if error.possibilities:
            options = ", ".join(sorted(error.possibilities))
            said += " " + _("(did you mean {options}?)", options=options)
        return said
    if isinstance(error, BadOptionUsage):
        if "requires" in message:
            return _("{option} needs a value", option=error.option_name)
        if "does not take a value" in message:
            return _("{option} takes no value", option=error.option_name)
        return message
    if isinstance(error, MissingParameter):
        name = error.param.get_error_hint() if error.param is not None else ""
        return _("{name} is missing", name=name.strip("'"))
    if isinstance(error, BadParameter):
        param = error.param
        name = param.get_error_hint().strip("'") if param is not None else ""
        if isinstance(param, TyperOption | TyperArgument) and _is_number(param):
            low, high = getattr(param, "min", None), getattr(param, "max", None)
            if low is not None and high is not None:
                return _(
                    "{option} takes a whole number from {low} to {high}",
                    option=name,
                    low=low,
                    high=high,
                )
            if low is not None:
                return _("{option} takes a whole number, at least {low}", option=name, low=low)
            return _("{option} takes a whole number", option=name)
        # TRANSLATORS: a bad value given to an option or argument, then why
        return _("invalid value for {option}: {reason}", option=name, reason=message)
    unknown = re.fullmatch(r"No such command '(.*)'\.", message, re.DOTALL)
    if unknown:
        return _("no such command: {name}", name=unknown[1])
    extra = re.fullmatch(r"Got unexpected extra arguments? \((.*)\)", message, re.DOTALL)
    if extra:
        return _("unexpected extra argument: {arguments}", arguments=extra[1])
    if message == "Missing command.":
        return _("a command is missing")
    return message


def _is_number(param: TyperOption | TyperArgument) -> bool:
    """Whether ``param`` takes a whole number."""
    return param.type_descriptor.annotation is int


def _format_usage(command: Command, ctx: Context, formatter: HelpFormatter) -> None:
    """The usage line, its ``Usage:`` in the current language."""
    pieces = " ".join(command.collect_usage_pieces(ctx))
    # TRANSLATORS: the start of a command's usage line: Usage: mathable [OPTIONS] COMMAND
    formatter.write_usage(ctx.command_path, pieces, prefix=_("Usage:") + " ")


def _help_option(option: TyperOption | None) -> TyperOption | None:
    """The ``--help`` option, its help in the current language."""
    if option is not None:
        # TRANSLATORS: the help of the --help option
        option.help = _("Show this message and exit.")
    return option


def _language_asked(args: list[str]) -> str | None:
    """The language ``--lang`` asks for among the group's own options (before the
    command's name), or None."""
    expects_value = False
    for arg in args:
        if expects_value:
            return arg
        if arg == "--lang":
            expects_value = True
        elif arg.startswith("--lang="):
            return arg.partition("=")[2]
        elif not arg.startswith("-"):
            return None  # the command's name: its own arguments follow
    return None


def _choose_language(value: str | None) -> str | None:
    """``--lang``: speak ``value`` from now on; a language not offered is a usage error."""
    if value is None:
        return value
    if not i18n.known(value):
        raise typer.BadParameter(
            _(
                "{lang} is not a language offered; choose one of {languages}",
                lang=repr(_clean(value)),
                languages=", ".join(i18n.LANGUAGES),
            )
        )
    i18n.set_language(value, everywhere=True)
    return value


def tolerant_stdin() -> None:
    """Read typed lines that are not UTF-8 with replacement characters instead of
    failing (the line games: play --plain, learn, practice)."""
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace")


class _Localized(Command):
    """Help shown in the reader's language: the texts, the usage line and the help
    option (mixed into the commands and the group)."""

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        _localize(self, ctx)
        super().format_help(ctx, formatter)

    def format_usage(self, ctx: Context, formatter: HelpFormatter) -> None:
        _format_usage(self, ctx, formatter)

    def get_help_option(self, ctx: Context) -> TyperOption | None:
        return _help_option(super().get_help_option(ctx))


class _Command(_Localized, TyperCommand):
    """A command whose help is shown in the reader's language."""


class _Commands(_Localized, TyperGroup):
    """The command group: it speaks the reader's language (``--lang``, else the
    environment's) from the start of a run to its end; a refusal raised anywhere in a
    command (every :class:`MathableError`) becomes one error line and exit code 1;
    anything unforeseen becomes one line too, named an internal error, instead of a
    traceback."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        with i18n.language(i18n.from_environment(), everywhere=True):
            return super().main(*args, **kwargs)

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        for number, arg in enumerate(args, start=1):
            if any(unicodedata.category(c) == "Cs" for c in arg):  # undecodable bytes
                raise fail(
                    _(
                        "argument {number} ({argument}) is not valid UTF-8 text",
                        number=number,
                        argument=_clean(arg),
                    )
                )
        asked = _language_asked(args)
        if asked is not None and i18n.known(asked):
            i18n.set_language(asked, everywhere=True)  # before any message, --help's too
        return super().parse_args(ctx, args)

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, TyperException, EOFError, BrokenPipeError):
            raise  # exits, usage errors, and what the command runner handles itself
        except errors.MathableError as exc:
            raise fail(str(exc)) from None
        except RecursionError:
            raise fail(_("the input is nested too deeply")) from None
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"
            # TRANSLATORS: {error} is the program's own error, as Python names it
            raise fail(_("internal error ({error}); please report it", error=error)) from None


rich_utils.rich_format_error = _usage_error  # typer's own is in English, always

app = typer.Typer(
    cls=_Commands,
    help=_help(lazy("Mathable, the crossnumber game: play, score sheets, records and analysis.")),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
console = Console(highlight=False, markup=False, emoji=False)
err = Console(stderr=True, highlight=False, markup=False, emoji=False)


def _print_version(value: bool) -> None:
    if value:
        console.print(Text(f"mathable {__version__}"))
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help=_help(lazy("Print the version.")),
        ),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            callback=_choose_language,
            is_eager=True,
            metavar="|".join(i18n.LANGUAGES),
            help=_help(
                # TRANSLATORS: the help of the --lang option; the variables are named as
                # they are
                lazy(
                    "The language of messages: {languages} (else the environment's: "
                    "LANGUAGE, LC_ALL, LC_MESSAGES, LANG).",
                    languages=", ".join(i18n.LANGUAGES),
                )
            ),
        ),
    ] = None,
) -> None:
    """The options of every command: the version, and the language (set by their
    callbacks)."""


class _GameNames:
    """The names of the games (of those on a board, if ``board_only``) in a help text,
    read from the registry only when the help is shown."""

    def __init__(self, *, board_only: bool = False) -> None:
        self.board_only = board_only

    def __repr__(self) -> str:
        return f"_GameNames(board_only={self.board_only})"

    def __str__(self) -> str:
        games = registry.GAMES.items()
        return ", ".join(n for n, t in games if not self.board_only or t.surface == "board")


JsonFlag = Annotated[
    bool, typer.Option("--json", help=_help(lazy("Print JSON instead of a table.")))
]
VariantOpt = Annotated[
    str,
    typer.Option(
        "--variant",
        "-v",
        # TRANSLATORS: the help of --variant: the names of the games, then this
        help=_help(lazy("{games} (see 'variants').", games=_GameNames())),
    ),
]
BoardVariantOpt = Annotated[
    str,
    typer.Option(
        "--variant",
        "-v",
        help=_help(
            lazy(
                "{games} (see 'variants').",
                games=_GameNames(board_only=True),
            )
        ),
    ),
]
"""--variant of the commands for the board games only (score sheets): it offers no game
they would refuse."""


def _read(path: Path) -> str:
    """A text file's content; a missing, unreadable, non-regular, huge or non-UTF-8 file
    is refused in one line."""
    where = str(path)
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise fail(_("{file} is a directory, not a file", file=where))
        if not stat.S_ISREG(info.st_mode):
            raise fail(_("{file} is not a regular file", file=where))
        if info.st_size > MAX_FILE:
            raise fail(
                _(
                    "{file} is too large ({size} bytes; at most {most})",
                    file=where,
                    size=info.st_size,
                    most=MAX_FILE,
                )
            )
        with path.open("rb") as file:
            data = file.read(MAX_FILE + 1)
    except OSError as exc:
        raise fail(_cannot_read(where, oserrors.reason(exc))) from None
    except ValueError:  # a NUL in the name
        raise fail(_cannot_read(where, _("a file name cannot hold a NUL character"))) from None
    if len(data) > MAX_FILE:
        raise fail(_("{file} is too large (at most {most} bytes)", file=where, most=MAX_FILE))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise fail(
            _(
                "{file} is not UTF-8 text (byte {byte} at offset {offset})",
                file=where,
                byte=f"{data[exc.start]:#04x}",
                offset=exc.start,
            )
        ) from None


def _cannot_read(where: str, reason: str) -> str:
    """Why the file ``where`` cannot be read, in words."""
    # TRANSLATORS: {reason} is why, often the system's own words
    return _("cannot read {file}: {reason}", file=where, reason=reason)


def _game_type(name: str) -> GameType:
    """The game called ``name``; an unknown name fails listing every game."""
    try:
        return registry.game_type(name)
    except ValueError as exc:
        raise fail(str(exc)) from None


def _board_rules(
    kind: GameType, what: Literal["score sheets", "positions"], replay: bool = False
) -> Variant:
    """The board family's rules of a game played on a board (score sheets and one-line
    positions are board notions); other games fail, saying so (and that ``replay`` shows
    a record of them, if ``replay``)."""
    if kind.surface != "board":
        game = kind.title
        if what == "score sheets":
            raise fail(
                _("score sheets are for the board games; {game} is played on piles", game=game)
            )
        if replay:
            raise fail(
                _(
                    "positions are for the board games; {game} is played on piles: use replay",
                    game=game,
                )
            )
        raise fail(_("positions are for the board games; {game} is played on piles", game=game))
    from mathable.games.board.variants import get_variant

    return get_variant(kind.name)


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


def _written(names: CellNames, cell: int, value: int, extra: bool = False) -> str:
    """A placement in the notation: ``I8=12``, ``J8=16+``."""
    return notation.format_placement(actions.Place(cell, value, extra), names)


def _in_file(file: Path | str, reason: object) -> str:
    """A refusal of what a file holds: ``game.json: <reason>``."""
    # TRANSLATORS: a file's name, then why what it holds is refused
    return _("{file}: {reason}", file=str(file), reason=reason)


@app.command(
    cls=_Command,
    help=_help(
        lazy("Score a game played on a real table from its transcript."),
        # TRANSLATORS: the notation between quotes is typed as it is, in every language
        lazy(
            "One line per turn: 'Ann: I8=12 H6=8 J8=16+', 'Bob: pass', 'Ann: exchange 3', "
            "and after the last turn 'Bob: left 3 5' for tokens left on the rack."
        ),
    ),
)
def score(
    file: Annotated[Path, typer.Argument(help=_help(lazy("A transcript: one line per turn.")))],
    json_out: JsonFlag = False,
    variant: BoardVariantOpt = "classic",
) -> None:
    from mathable.games.board.transcript import score_transcript

    kind = _game_type(variant)
    rules = _board_rules(kind, "score sheets")
    try:
        sheet = score_transcript(_read(file), rules)
    except errors.MathableError as exc:
        raise fail(_in_file(file, exc)) from None
    problem = sheet_problem(sheet, kind)
    if problem is not None:
        raise fail(_in_file(file, problem))
    if json_out:
        _print_json(sheet.to_dict())
        return
    names = rules.layout.grid
    # TRANSLATORS: the title of a scored transcript's table, then the file's name
    table = Table(title=Text(_("Score sheet: {file}", file=file.name)), header_style="bold")
    table.add_column("#", justify="right")
    table.add_column(pgettext("column", "player"))
    # TRANSLATORS: a column heading of a score sheet: what the turn was
    table.add_column(pgettext("column", "turn"))
    table.add_column(pgettext("column", "points"), justify="right")
    # TRANSLATORS: a column heading of a score sheet: the player's total so far
    table.add_column(pgettext("column", "total"), justify="right")
    for number, turn in enumerate(sheet.turns, start=1):
        if turn.kind == "place":
            what = " ".join(
                f"{_written(names, names.parse(p.cell), p.value, p.extra)} ({p.points})"
                for p in turn.placements
            )
            if turn.bonus:
                # TRANSLATORS: the bonus points of a turn placing a whole rack (C9)
                what += "  " + _("+{bonus} bonus", bonus=turn.bonus)
        elif turn.kind == "exchange":
            what = panels.exchanged_text(kind, turn.exchanged)
        elif turn.kind == "left":
            # TRANSLATORS: the last line of a score sheet: what a player had left
            what = _("tokens left on the rack")
        else:
            # TRANSLATORS: a turn of a score sheet: the player passed
            what = pgettext("turn", "pass")
        table.add_row(str(number), Text(turn.player), Text(what), str(turn.points), str(turn.total))
    console.print(table)
    totals = ", ".join(f"{p} {t}" for p, t in sheet.totals.items())
    # TRANSLATORS: then each player's name and total score
    console.print(Text(_("Totals: {scores}", scores=totals)))


def sheet_problem(sheet: Scoresheet, kind: GameType) -> str | None:
    """What makes a scored transcript no game of ``kind``, or None: no turn at all, too
    few or too many players, or a player out of turn (turns go round in the order the
    players first appear)."""
    if not sheet.turns:
        return _("there is no turn to score: write one line per turn, like 'Ann: I8=12'")
    players = list(sheet.totals)
    if not kind.min_players <= len(players) <= kind.max_players:
        return ngettext(
            "{count} player: {game} is played by {fewest} to {most} players",
            "{count} players: {game} is played by {fewest} to {most} players",
            len(players),
            game=kind.title,
            fewest=kind.min_players,
            most=kind.max_players,
        )
    played = [turn for turn in sheet.turns if turn.kind != "left"]
    for number, turn in enumerate(played):
        due = players[number % len(players)]
        if turn.player != due:
            # TRANSLATORS: a score sheet's line number, who wrote a turn there, and whose
            # turn it was
            return _(
                "line {line}: a turn of {name}, but the turn was {due}'s",
                line=turn.line,
                name=turn.player,
                due=due,
            )
    return None


def _load_game(path: Path) -> Game:
    """The game a record file holds; a file that is not a valid record is refused."""
    text = _read(path)
    try:
        return registry.from_record(text)
    except errors.MathableError as exc:
        raise fail(_in_file(path, exc)) from None
    except RecursionError:
        raise fail(_in_file(path, _("not a game record (nested too deeply)"))) from None


def _position_of(game: Game) -> Position:
    """The one-line position of a game on a board, as the seat to move sees it (other
    racks by their size unless they lie face up or the game is over)."""
    view = game.view(game.to_move)
    racks = tuple(
        view.open_racks[s] if view.open_racks else view.rack if s == view.seat else size
        for s, size in enumerate(view.rack_sizes)
    )
    board = tuple((c, v) for c, v in enumerate(view.surface) if v != panels.EMPTY)
    return notation.Position(game.name, board, racks, view.scores, view.bag_size, view.to_move)


def _replay_data(game: Game) -> dict[str, Any]:
    """``replay --json``: the common fields, then what the game's view adds (rounds,
    deductions), its surface under the surface's name (``board``, ``piles``), the racks
    and the bag, and the one-line position of a board."""
    kind, players = game.game_type, game.players
    view = game.view(None)
    extra = view.to_dict(game.cell_names.name)
    data: dict[str, Any] = {
        "variant": game.name,
        "players": list(players),
        "actions": len(game.log),
        "over": game.is_over,
        "end_reason": game.end_reason,
    }
    if kind.rounds:
        data["rounds"] = extra["rounds"]
        data["round"] = extra["round"]
    data["scores"] = dict(zip(players, game.scores, strict=True))
    if "deductions" in extra:
        data["deductions"] = dict(zip(players, extra["deductions"], strict=True))
    data["winners"] = [players[s] for s in game.winners()]
    data["to_move"] = players[game.to_move]
    data[kind.surface] = {
        t.name: v for t, v in zip(kind.targets, view.surface, strict=True) if v != panels.EMPTY
    }
    data["racks"] = {p: list(game.rack(s)) for s, p in enumerate(players)}
    data["bag"] = list(game.bag_order())
    if kind.surface == "board":
        data["position"] = _position_of(game).format(game.cell_names)
    return data


RecordArg = Annotated[Path, typer.Argument(help=_help(lazy("A JSON game record.")))]


@app.command(
    cls=_Command,
    help=_help(lazy("Replay a game record: its turns, then final scores, board, racks and bag.")),
)
def replay(
    record: RecordArg,
    json_out: JsonFlag = False,
    sheet: Annotated[
        bool,
        typer.Option("--sheet", help=_help(lazy("Print the game as a score sheet instead."))),
    ] = False,
) -> None:
    from mathable.games.board.transcript import format_transcript

    game = _load_game(record)
    kind = game.game_type
    if sheet:
        if not kind.score_sheets:
            raise fail(_("{game} has no score sheets", game=kind.title))
        sys.stdout.write(format_transcript(game))
        return
    if json_out:
        _print_json(_replay_data(game))
        return
    view = game.view(None)
    for number, turn in enumerate(view.summaries, start=1):
        console.print(
            Text.assemble(f"{number:>3}. ", panels.summary_text(game.players, turn, kind))
        )
    console.print(panels.view_surface(kind, view))
    to_move = None if game.is_over else game.to_move
    console.print(panels.scores_table(game.players, game.scores, to_move, unit=kind.score_unit))
    if view.status:
        console.print(Text(view.status))
    # TRANSLATORS: then each player's name and rack (or hand)
    console.print(Text(_("hands:") if kind.piece == "card" else _("racks:")))
    for seat, name in enumerate(game.players):
        console.print(Text(f"  {name}: "), panels.rack_text(game.rack(seat)))
    # TRANSLATORS: an empty bag (or reserve of cards)
    drawn = " ".join(map(str, game.bag_order())) or pgettext("bag", "empty")
    if kind.piece == "card":
        # TRANSLATORS: the cards still to draw: how many, then their values in order
        supply = _("reserve ({count}): {values}", count=game.bag_size, values=drawn)
    else:
        # TRANSLATORS: the bag: how many tokens, then their values in the order drawn
        supply = _("bag ({count}): {values}", count=game.bag_size, values=drawn)
    console.print(Text(supply))
    if game.is_over:
        from .hotseat import winners_text

        won = winners_text(game)  # none once aborted (L1)
        if kind.rounds:
            over = _("Match over ({reason}).", reason=game.end_reason)
        else:
            over = _("Game over ({reason}).", reason=game.end_reason)
        console.print(Text(over + won))


def _rack(rack: tuple[int, ...] | int) -> tuple[tuple[int, ...] | None, int]:
    """A position's rack as its values (None when hidden: ``?7`` is written as its size)
    and its size."""
    if isinstance(rack, int):
        return None, rack
    return rack, len(rack)


def _names_a_file(text: str) -> bool:
    """Whether ``text`` (a command's position argument) names an existing file: text
    with a ``|`` is a position, and text no file name can be is never looked up."""
    if "|" in text or "\0" in text or not text.strip() or len(text) > MAX_PATH:
        return False
    try:
        return Path(text).exists()
    except (OSError, ValueError):  # a name too long for the file system
        return False


def _position(text: str) -> tuple[Position, Variant]:
    """A position given as its one-line text, a file holding it, or a game record."""
    if _names_a_file(text):
        path = Path(text)
        content = _read(path).strip()
        if content.startswith("{"):
            game = _load_game(path)
            rules = _board_rules(game.game_type, "positions", replay=True)
            return _position_of(game), rules
        text = content
    elif "|" not in text:
        # TRANSLATORS: the fields of a one-line position between brackets, separated by |
        raise fail(
            _(
                "{text} is neither a file nor a one-line position "
                "(variant | board | racks | scores | bag | to move)",
                text=repr(text),
            )
        )
    grids = registry.position_grids()
    try:
        position = notation.Position.parse(text, grids)
    except errors.MathableError as exc:
        raise fail(str(exc)) from None
    kind = _game_type(position.variant)
    rules = _board_rules(kind, "positions")
    if any(not 0 <= c < len(kind.targets) for c, _value in position.board):
        raise fail(_("the position has a cell off the board"))
    if not kind.min_players <= len(position.racks) <= kind.max_players:
        raise fail(
            ngettext(
                "the position has {count} rack; {game} is played by {fewest} to {most} players",
                "the position has {count} racks; {game} is played by {fewest} to {most} players",
                len(position.racks),
                game=kind.title,
                fewest=kind.min_players,
                most=kind.max_players,
            )
        )
    for seat, rack in enumerate(position.racks, start=1):
        values, size = _rack(rack)
        if size > kind.rack_size:
            raise fail(_rack_too_full(kind, seat, size))
        strange = [v for v in values or () if v not in rules.tokens]
        if strange:
            raise fail(_not_a_piece(kind, seat, strange[0]))
    return position, rules


def _rack_too_full(kind: GameType, seat: int, size: int) -> str:
    """A rack of a position holding more pieces than the game allows, in words."""
    values = {"rack": seat, "count": size, "most": kind.rack_size}
    if kind.piece == "card":
        return ngettext(
            "rack {rack} holds {count} card; at most {most}",
            "rack {rack} holds {count} cards; at most {most}",
            size,
            **values,
        )
    if kind.piece == "tile":
        return ngettext(
            "rack {rack} holds {count} tile; at most {most}",
            "rack {rack} holds {count} tiles; at most {most}",
            size,
            **values,
        )
    return ngettext(
        "rack {rack} holds {count} token; at most {most}",
        "rack {rack} holds {count} tokens; at most {most}",
        size,
        **values,
    )


def _not_a_piece(kind: GameType, seat: int, value: int) -> str:
    """A value on a position's rack that no piece of the game has, in words."""
    values = {"rack": seat, "value": value, "game": kind.title}
    if kind.piece == "card":
        return _("rack {rack}: {value} is not a card of {game}", **values)
    if kind.piece == "tile":
        return _("rack {rack}: {value} is not a tile of {game}", **values)
    return _("rack {rack}: {value} is not a token of {game}", **values)


PositionArg = Annotated[str, typer.Argument(help=_help(lazy("A one-line position, or a file.")))]


@app.command(
    cls=_Command,
    help=_help(lazy("Draw a position's board in the terminal, squares in colour.")),
)
def show(position: PositionArg) -> None:
    pos, rules = _position(position)
    kind = _game_type(pos.variant)
    board = rules.new_board(dict(pos.board))
    console.print(panels.surface_group(kind, board.values))
    names = tuple(_("Player {number}", number=i + 1) for i in range(len(pos.racks)))
    sizes = tuple(_rack(r)[1] for r in pos.racks)
    console.print(panels.scores_table(names, pos.scores, pos.to_move, sizes))
    rack, _size = _rack(pos.racks[pos.to_move])
    if rack is not None:
        # TRANSLATORS: the rack of the player to move follows
        console.print(Text(_("rack to move:") + " "), panels.rack_text(rack))
    console.print(Text(panels.supply_count(kind, pos.bag)))


@app.command(
    cls=_Command,
    help=_help(
        lazy("Every legal single placement for the player to move, with its points, best first."),
        lazy("When that rack is hidden ('?7'), every token value still in play is tried."),
    ),
)
def moves(
    position: PositionArg,
    json_out: JsonFlag = False,
    limit: Annotated[
        int, typer.Option(min=0, help=_help(lazy("Show at most this many (0: all).")))
    ] = 0,
) -> None:
    pos, rules = _position(position)
    board = rules.new_board(dict(pos.board))
    rack, _size = _rack(pos.racks[pos.to_move])
    if rack is None:
        on_board: dict[int, int] = {}
        start = set(rules.layout.start_cells())
        for cell, value in pos.board:
            if cell not in start:
                on_board[value] = on_board.get(value, 0) + 1
        values = sorted(v for v, n in rules.tokens.items() if n > on_board.get(v, 0))
    else:
        values = sorted(set(rack))
    found = [
        (rules.placement_points(board, cell, value), cell, value, board.equations(cell, value))
        for value in values
        for cell in rules.legal_cells(board, value)
    ]
    found.sort(key=lambda m: (-m[0], m[1], m[2]))
    total = len(found)
    if limit:
        found = found[:limit]
    grid = board.grid
    if json_out:
        _print_json(
            [
                {
                    "placement": _written(grid, c, v),
                    "cell": grid.name(c),
                    "value": v,
                    "points": p,
                    "equations": n,
                }
                for p, c, v, n in found
            ]
        )
        return
    if not found:
        console.print(Text(_("No legal placement.")))
        return
    table = Table(header_style="bold", box=None)
    # TRANSLATORS: a column heading: a placement in the notation (I8=12)
    table.add_column(pgettext("column", "placement"))
    table.add_column(pgettext("column", "points"), justify="right")
    # TRANSLATORS: a column heading: how many equations a placement makes
    table.add_column(pgettext("column", "equations"), justify="right")
    for points, cell, value, n in found:
        table.add_row(Text(_written(grid, cell, value)), str(points), str(n))
    console.print(table)
    if len(found) < total:
        # TRANSLATORS: how many legal placements are shown, of how many there are
        said = ngettext(
            "{shown} of {count} placement", "{shown} of {count} placements", total, shown=len(found)
        )
    else:
        said = ngettext("{count} placement", "{count} placements", total)
    console.print(Text(said))


@app.command(
    cls=_Command,
    help=_help(lazy("List the games this program plays (--json: with their capabilities).")),
)
def variants(json_out: JsonFlag = False) -> None:
    if json_out:
        _print_json(registry.catalog())
        return
    for info in registry.GAMES.values():
        # TRANSLATORS: a game's title, how many play it, then a line on it
        said = _(
            "{game}, {fewest}-{most} players. {summary}",
            game=info.title,
            fewest=info.min_players,
            most=info.max_players,
            summary=info.summary,
        )
        console.print(Text.assemble((info.name, "bold"), f": {said}"))


def _seat_names(players: str, vs: str | None) -> list[str]:
    """The seats ``--players`` and ``--vs`` ask for: ``--vs LEVEL`` seats one person (the
    one name of ``--players``, else "You") against that computer level."""
    names = [n.strip() for n in players.split(",") if n.strip()]
    if vs is None:
        return names
    if vs not in ai.BOTS:
        raise fail(
            _(
                "unknown computer level {level}; choose one of {levels}",
                level=repr(vs),
                levels=", ".join(ai.BOTS),
            )
        )
    if len(names) > 1 or any(ai.SEAT_BOT.search(n.lower()) for n in names):
        raise fail(
            _(
                "--vs seats one person against the computer: give at most one name with "
                "--players (for more seats, name them all: --players Ann,Bob,bot:strong)"
            )
        )
    # TRANSLATORS: the name of the one person playing against the computer (--vs)
    return [names[0] if names else _("You"), f"{vs.title()} [bot:{vs}]"]


def _house_rules(kind: GameType, chosen: dict[str, tuple[str, bool]], hints: bool) -> HouseRules:
    """The house rules switched on by flags (``chosen``: rule -> (flag, on)); a rule the
    game does not offer is refused. Hints (O2) are on where the game offers them unless
    ``--no-hints``."""
    for rule, (flag, on) in chosen.items():
        if on and rule not in kind.house_rules:
            raise fail(_("{game} has no house rule {flag}", game=kind.title, flag=flag))
    wanted = {rule for rule, (_flag, switched) in chosen.items() if switched}
    return protocol.HouseRules(
        table_referee="table_referee" in wanted,
        allow_undo="allow_undo" in wanted,
        strict="strict" in wanted,
        hints=hints and "hints" in kind.house_rules,
    )


def _checked_new_game(
    kind: GameType, names: list[str], seed: int | None, rules: HouseRules, rounds: int
) -> Game:
    """A new game, its computer players checked (and named as the terminal app names
    them: ``bot:strong`` seats ``Strong [bot:strong]``); raises ValueError saying what is
    wrong, in the player's words (never a record's field names)."""
    from mathable.ai import seat_bots
    from mathable.engine.validation import FieldError

    names = bot_names(names)
    seen: dict[str, str] = {}
    for name in names:
        twin = seen.setdefault(name.strip().casefold(), name)
        if twin != name or names.count(name) > 1:
            raise ValueError(
                _(
                    "{first} and {second} are one name: give each player a different one",
                    first=twin,
                    second=name,
                )
            )
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise ValueError(_("--seed takes a whole number from 0 to {most}", most=MAX_SEED))
    seat_bots(names, seed)
    try:
        return registry.new_game(kind.name, names, seed=seed, house_rules=rules, rounds=rounds)
    except FieldError as exc:
        raise ValueError(_in_words(exc)) from None


MAX_SEED = 2**63 - 1
"""The largest seed of a shuffle (records keep it as a 64-bit integer)."""


def bot_names(names: list[str]) -> list[str]:
    """Seats typed ``bot:LEVEL`` named as every front end names a computer player:
    ``Strong [bot:strong]`` (``Strong 2 [bot:strong]`` for a second of one level)."""
    named: list[str] = []
    for name in names:
        level = name.strip().lower().removeprefix("bot:")
        if name.strip().lower().startswith("bot:") and level in ai.BOTS:
            title, number = level.title(), 1
            while f"{title} [bot:{level}]" in named:
                number += 1
                title = f"{level.title()} {number}"
            name = f"{title} [bot:{level}]"
        named.append(name)
    return named


def _in_words(exc: Exception) -> str:
    """A refusal of a new game's settings in the player's words: the option or the
    player it is about, not the field of a record (``field 'players[0]'``)."""
    from mathable.engine.validation import FieldError

    if not isinstance(exc, FieldError):
        return str(exc)
    field, problem = exc.field, str(exc.problem)
    seat = re.fullmatch(r"players\[(\d+)\]", field)
    if seat:
        # TRANSLATORS: a player's name refused: which player, then why
        return _("the name of player {number}: {problem}", number=int(seat[1]) + 1, problem=problem)
    if field == "players":
        return problem
    if field == "seed":
        return _("--seed takes a whole number from 0 to {most}", most=MAX_SEED)
    if field in ("rounds", "house_rules"):
        # TRANSLATORS: an option of the command line, then why its value is refused
        return _("{option}: {problem}", option=f"--{field.replace('_', '-')}", problem=problem)
    return str(exc)


def _new_game(
    kind: GameType, names: list[str], seed: int | None, rules: HouseRules, rounds: int
) -> Game:
    """A new game; names, levels or options the game refuses are refused in one line."""
    try:
        return _checked_new_game(kind, names, seed, rules, rounds)
    except ValueError as exc:  # MathableError included
        raise fail(str(exc)) from None


@app.command(
    cls=_Command,
    help=_help(
        lazy("Play at one screen or against the computer, in the full-screen terminal app."),
        lazy(
            "Without --players, --vs or --resume the app opens on a new-game screen (--plain: "
            "asks for the players). A resumed game keeps its own players and house rules."
        ),
    ),
)
def play(
    players: Annotated[
        str,
        typer.Option(
            help=_help(
                lazy(
                    "Names, comma separated; bot:LEVEL for a computer player "
                    "(--players Ann,Bob,bot:strong)."
                )
            )
        ),
    ] = "",
    vs: Annotated[
        str | None,
        typer.Option(
            help=_help(
                lazy(
                    "Play one person against this computer level (see 'bots'): you alone, "
                    "or the one name given by --players (--players Ann --vs strong)."
                )
            )
        ),
    ] = None,
    rounds: Annotated[
        int, typer.Option(help=_help(lazy("Rounds of a match, in games played in rounds.")))
    ] = 1,
    seed: Annotated[
        int | None, typer.Option(help=_help(lazy("Seed of the shuffle (random if unset).")))
    ] = None,
    variant: VariantOpt = "classic",
    referee: Annotated[
        bool,
        typer.Option(
            "--referee", help=_help(lazy("House rule C12: mistakes stand until challenged."))
        ),
    ] = False,
    undo: Annotated[
        bool, typer.Option("--undo", help=_help(lazy("House rule: allow taking back.")))
    ] = False,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict", help=_help(lazy("House rule K2 (numbered board): scoring first."))
        ),
    ] = False,
    hints: Annotated[
        bool,
        typer.Option(
            "--hints/--no-hints",
            help=_help(lazy("House rule O2: players may ask for their best turns.")),
        ),
    ] = True,
    resume: Annotated[
        Path | None, typer.Option(help=_help(lazy("Continue a saved game record.")))
    ] = None,
    plain: Annotated[
        bool,
        typer.Option(
            "--plain", help=_help(lazy("The line-by-line game instead of the full screen."))
        ),
    ] = False,
    pace: Annotated[
        float | None,
        typer.Option(
            min=0,
            max=10,
            help=_help(
                lazy(
                    "Seconds between the computer's placements, 0 for none (the full "
                    "screen's own pace if unset; none in --plain)."
                )
            ),
        ),
    ] = None,
) -> None:
    from .hotseat import ask_game, run_hotseat

    kind = _game_type(variant)
    names = _seat_names(players, vs)
    if resume is not None and names:
        raise fail(
            _("--resume continues a saved game with its own players: leave out --players/--vs")
        )
    house = _house_rules(
        kind,
        {
            "table_referee": ("--referee", referee),
            "allow_undo": ("--undo", undo),
            "strict": ("--strict", strict),
        },
        hints,
    )
    if rounds != 1 and not kind.rounds:
        raise fail(_("{game} is not played in rounds: leave out --rounds", game=kind.title))
    game: Game | None = None
    levels: dict[int, str] = {}  # a resumed record's computer seats (its ``bots``)
    if resume is not None:
        game = _load_game(resume)
        levels = records.bots_of(records.loads(_read(resume)))
        for seat, level in levels.items():
            if level not in ai.BOTS:
                said = _(
                    "seat {seat} was played by the computer level {level}, which this "
                    "program has not ({levels})",
                    seat=seat + 1,
                    level=repr(level),
                    levels=", ".join(ai.BOTS),
                )
                raise fail(_in_file(resume, said))
    elif names:
        game = _new_game(kind, names, seed, house, rounds)
    else:  # the players are asked for later: refuse bad options now
        seats = [_("Player {number}", number=i + 1) for i in range(kind.min_players)]
        _new_game(kind, seats, seed, house, rounds)
    if not plain and sys.stdin.isatty() and sys.stdout.isatty():
        from mathable.tui.app import run_app

        paced = {} if pace is None else {"pace": pace}  # the app's own pace if unset
        run_app(
            game,
            save_path=resume,
            seed=seed,
            variant=kind.name,
            house_rules=house,
            levels=levels,
            **paced,
        )
        return
    tolerant_stdin()
    if game is None:
        game = ask_game(
            console,
            kind,
            lambda typed: _checked_new_game(kind, typed, seed, house, rounds),
        )
    run_hotseat(console, game, seed=seed, levels=levels, pace=pace or 0.0)


def main() -> None:
    """Entry point of the console script (and of ``python -m mathable``)."""
    try:
        app()
    except KeyboardInterrupt:
        with i18n.language(i18n.from_environment()):
            err.print(_("interrupted"))
        sys.exit(130)
    except BrokenPipeError:  # the reader of our output stopped (``| head``): leave quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)


def _writable_folder(folder: Path) -> None:
    """Make ``folder`` if need be; a folder that cannot be made or written is refused."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK):
            raise fail(_("cannot write to {folder}", folder=str(folder)))
    except OSError as exc:
        raise fail(_cannot_make(folder, oserrors.reason(exc))) from None
    except ValueError:
        raise fail(_cannot_make(folder, _("the name holds a NUL"))) from None


def _cannot_make(folder: Path, reason: str) -> str:
    """Why the folder ``folder`` cannot be made, in words."""
    # TRANSLATORS: {reason} is why, often the system's own words
    return _("cannot make the folder {folder}: {reason}", folder=str(folder), reason=reason)


@app.command(cls=_Command, help=_help(lazy("List the computer players, weakest first.")))
def bots() -> None:
    for name, (_bot, description) in ai.BOTS.items():
        console.print(Text.assemble((name, "bold"), f": {description}"))


JobsOpt = Annotated[
    int, typer.Option(min=1, max=64, help=_help(lazy("Games played at once (processes).")))
]


@app.command(
    cls=_Command,
    help=_help(
        lazy(
            "Pit computer players against each other on seeded deals; with two bots, the score "
            "margin and the win rate with their 95% intervals over the deals."
        )
    ),
)
def arena(
    names: Annotated[
        list[str],
        typer.Argument(
            help=_help(
                # TRANSLATORS: the levels and settings between brackets are typed as they are
                lazy(
                    "2 to 4 bots: levels, or levels with settings "
                    "(expert:samples=32,budget_ms=500)."
                )
            )
        ),
    ],
    games: Annotated[int, typer.Option(min=1, help=_help(lazy("How many games.")))] = 100,
    seed: Annotated[
        int,
        typer.Option(help=_help(lazy("Deal i is dealt from seed + i (tune below 100,000)."))),
    ] = 0,
    jobs: JobsOpt = 1,
    paired: Annotated[
        bool,
        typer.Option(
            help=_help(
                lazy(
                    "Play each deal once per seating (two bots: twice, seats swapped); "
                    "--no-paired deals every game afresh, seats rotated."
                )
            )
        ),
    ] = True,
    records_dir: Annotated[
        Path | None,
        typer.Option("--records", help=_help(lazy("Write every game's record here."))),
    ] = None,
    variant: VariantOpt = "classic",
    json_out: JsonFlag = False,
) -> None:
    from concurrent.futures import ProcessPoolExecutor

    from rich.progress import Progress

    from mathable.ai import arena as match
    from mathable.ai import get_bot

    if not 2 <= len(names) <= 4:
        raise fail(_("name 2 to 4 bots"))
    for name in names:
        try:  # made once here, so a setting its level refuses is told before any game
            get_bot(name, 0)
        except ValueError as exc:
            raise fail(str(exc)) from None
    _game_type(variant)
    if records_dir is not None:
        _writable_folder(records_dir)
    keep = records_dir is not None
    if paired:
        deals = -(-games // len(names))
        work = match.paired_jobs(names, variant, deals, seed, keep)
        games = len(work)
    else:
        work = match.jobs_for(names, variant, games, seed, keep)
    results = []
    with Progress(console=err, transient=True, disable=json_out) as progress:
        # TRANSLATORS: a progress bar's label: the bots playing, "greedy vs strong"
        task = progress.add_task(pgettext("versus", " vs ").join(names), total=games)
        if jobs == 1:
            for result in map(match.run_one, work):
                results.append(result)
                progress.advance(task)
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                for result in pool.map(match.run_one, work, chunksize=2):
                    results.append(result)
                    progress.advance(task)
    if records_dir is not None:
        try:
            for number, result in enumerate(results):
                match.save_record(result, records_dir, number)
        except OSError as exc:
            raise fail(
                _(
                    "cannot write to {folder}: {reason}",
                    folder=str(records_dir),
                    reason=oserrors.reason(exc),
                )
            ) from None
    summary = match.tally(results, names)
    pairing = match.paired_summary(results, names) if paired and len(set(names)) == 2 else None
    if json_out:
        out = {"variant": variant, "games": games, "seed": seed, "bots": summary}
        _print_json({**out, "paired": pairing} if paired else out)
        return
    if paired:
        title = ngettext(
            "{count} game of {game} (paired deals), seed {seed}",
            "{count} games of {game} (paired deals), seed {seed}",
            games,
            game=variant,
            seed=seed,
        )
    else:
        title = ngettext(
            "{count} game of {game} (games), seed {seed}",
            "{count} games of {game} (games), seed {seed}",
            games,
            game=variant,
            seed=seed,
        )
    table = Table(title=Text(title), header_style="bold")
    columns = (
        # TRANSLATORS: a column heading: a computer player
        pgettext("column", "bot"),
        pgettext("column", "wins"),
        pgettext("column", "win rate"),
        pgettext("column", "95% interval"),
        pgettext("column", "mean score"),
        # TRANSLATORS: a column heading: milliseconds per turn
        pgettext("column", "ms/turn"),
        # TRANSLATORS: a column heading: the 95th percentile of a turn's milliseconds
        pgettext("column", "p95 ms"),
        # TRANSLATORS: a column heading: the most milliseconds a turn took
        pgettext("column", "max ms"),
    )
    for number, column in enumerate(columns):
        # figures never cut: a column too narrow folds its heading, not its numbers
        table.add_column(
            column,
            justify="left" if number == 0 else "right",
            no_wrap=number > 0,
            overflow="fold",
        )

    for row in summary:
        low, high = row["win_rate_ci95"]
        table.add_row(
            Text(row["bot"]),
            f"{row['wins']:g}",
            f"{100 * row['win_rate']:.1f}%",
            f"{100 * low:.1f}-{100 * high:.1f}%",
            f"{row['mean_score']:.1f}",
            f"{row['mean_ms_per_turn']:.1f}",
            f"{row['p95_ms_per_turn']:.1f}",
            f"{row['max_ms_per_turn']:.1f}",
        )
    if console.is_terminal:
        console.print(table)
    else:  # to a file or a pipe: as wide as the table needs, never at 80 columns
        wide = Console(file=console.file, width=200, highlight=False, markup=False, emoji=False)
        wide.print(table)
    if pairing is not None:
        low, high = pairing["margin_ci95"]
        rate_low, rate_high = pairing["win_rate_ci95"]
        said = ngettext(
            "Over {count} deal, {bot} against {against}: margin {margin} points "
            "(95%: {low} to {high}), win rate {rate}% (95%: {rate_low}-{rate_high}%)",
            "Over {count} deals, {bot} against {against}: margin {margin} points "
            "(95%: {low} to {high}), win rate {rate}% (95%: {rate_low}-{rate_high}%)",
            pairing["deals"],
            bot=pairing["bot"],
            against=pairing["against"],
            margin=f"{pairing['margin']:+.1f}",
            low=f"{low:+.1f}",
            high=f"{high:+.1f}",
            rate=f"{100 * pairing['win_rate']:.1f}",
            rate_low=f"{100 * rate_low:.1f}",
            rate_high=f"{100 * rate_high:.1f}",
        )
        console.print(Text(said))


@app.command(
    cls=_Command,
    help=_help(
        lazy(
            "Measure the ladder: each computer level against the next one up, in every game, "
            "on paired deals from seeds no tuning has seen; prints the README's table."
        )
    ),
)
def ladder(
    deals: Annotated[
        int,
        typer.Option(
            min=1, max=100_000, help=_help(lazy("Paired deals per match (two games each)."))
        ),
    ] = 1000,
    seed: Annotated[
        int,
        typer.Option(
            help=_help(lazy("Deal i is dealt from seed + i (at least 1,000,000: never tuned on)."))
        ),
    ] = 1_000_000,
    jobs: JobsOpt = 1,
    games: Annotated[
        list[str] | None,
        typer.Option(
            "--game", "-g", help=_help(lazy("A game to measure (again for more); all by default."))
        ),
    ] = None,
    readme: Annotated[
        Path | None,
        typer.Option(
            "--readme",
            help=_help(lazy("Write the table into this file, between its ladder markers.")),
        ),
    ] = None,
    json_out: JsonFlag = False,
) -> None:
    from rich.progress import Progress

    from mathable.ai import ladder as rungs_of

    chosen = games or list(registry.GAMES)
    for name in chosen:
        _game_type(name)
    try:
        rungs_of.check_seed(seed)
    except ValueError as exc:
        raise fail(str(exc)) from None
    total = len(chosen) * len(rungs_of.matches()) * 2 * deals
    with Progress(console=err, transient=True, disable=json_out) as progress:
        # TRANSLATORS: a progress bar's label while the ladder is measured
        task = progress.add_task(_("the ladder"), total=total)
        rungs = rungs_of.play(chosen, deals, seed, jobs, lambda: progress.advance(task))
    if json_out:
        _print_json(
            {
                "deals": deals,
                "seed": seed,
                "matches": [
                    {
                        "game": r.game,
                        "weaker": r.weaker,
                        "stronger": r.stronger,
                        **r.paired,
                        "bots": r.bots,
                    }
                    for r in rungs
                ],
            }
        )
        return
    text = rungs_of.table(rungs, deals, seed)
    if readme is None:
        sys.stdout.write(text)  # markdown: its lines as they are, never wrapped
        return
    try:
        rungs_of.rewrite(readme, text)
    except (OSError, ValueError) as exc:
        raise fail(
            _("cannot write the ladder into {file}: {reason}", file=str(readme), reason=exc)
        ) from None
    console.print(Text(_("wrote the ladder into {file}", file=str(readme))))


@app.command(
    "train-leaves",
    cls=_Command,
    help=_help(
        # TRANSLATORS: Macondo is a program's name; leaves-<game>.json is a file name
        lazy(
            "Learn the value of the tokens kept on the rack from leave-blind self-play "
            "(Macondo's superleaves, as a linear model): writes leaves-<game>.json, "
            "reproducible from its seed (every game where the player chooses what to keep, "
            "by default)."
        )
    ),
)
def train_leaves(
    variants: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-v",
            help=_help(lazy("A game to train (again for more); all with racks.")),
        ),
    ] = None,
    games: Annotated[
        int, typer.Option(min=1, max=1_000_000, help=_help(lazy("Self-play games per game.")))
    ] = 3000,
    seed: Annotated[
        int,
        typer.Option(
            help=_help(lazy("Game i is dealt from seed + i (a tuning seed: below 100,000)."))
        ),
    ] = 10_000,
    jobs: JobsOpt = 1,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", help=_help(lazy("A folder for the files (default: the package's, shipped)."))
        ),
    ] = None,
) -> None:
    import functools
    import time

    from rich.progress import Progress

    from mathable.ai import leaves
    from mathable.ai.arena import TUNING_SEEDS_BELOW

    for name in variants or ():
        _game_type(name)
        reason = leaves.unlearnable(name)
        if reason is not None:
            raise fail(_("{reason}: no leave to learn", reason=reason))
    chosen = variants or [name for name in registry.GAMES if leaves.unlearnable(name) is None]
    if seed + games > TUNING_SEEDS_BELOW:
        raise fail(
            _(
                "train on tuning seeds: seed + games must stay below {most}",
                most=f"{TUNING_SEEDS_BELOW:,}",
            )
        )
    folder = out or leaves.DATA
    _writable_folder(folder)
    with Progress(console=err, transient=True) as progress:
        for name in chosen:
            # TRANSLATORS: a progress bar's label: self-play games of a game
            task = progress.add_task(_("self-play, {game}", game=name), total=games)
            start = time.perf_counter()
            advance = functools.partial(progress.advance, task)
            model, samples = leaves.train(name, games, seed, jobs, advance)
            spent = time.perf_counter() - start
            meta = {
                "command": f"mathable train-leaves --variant {name} --games {games} --seed {seed}",
                "games": games,
                "seed": seed,
                "samples": samples,
                "players": leaves.TRAINER,
            }
            target = folder / leaves.path_of(name).name
            try:
                target.write_text(model.to_json(meta), encoding="utf-8")
            except OSError as exc:
                raise fail(_cannot_write(target, oserrors.reason(exc))) from None
            played = ngettext("{count} game", "{count} games", games)
            learned = ngettext("{count} leave", "{count} leaves", samples)
            # TRANSLATORS: a game's name, the games played, the leaves learned, the seconds
            # spent and the file written
            said = _(
                "{game}: {games}, {leaves}, {seconds} s: wrote {file}",
                game=name,
                games=played,
                leaves=learned,
                seconds=f"{spent:.0f}",
                file=str(target),
            )
            console.print(Text(said))


@app.command(
    "rate-bots",
    cls=_Command,
    help=_help(
        lazy(
            "Rate the computer levels from games among themselves: their starting ratings on "
            "a server (the shipped file is made by --out "
            "src/mathable/online/bot_ratings.json)."
        )
    ),
)
def rate_bots(
    pairs: Annotated[
        int,
        typer.Option(
            min=1, max=10_000, help=_help(lazy("Deals per pair of levels (each played twice)."))
        ),
    ] = 20,
    seed: Annotated[
        int, typer.Option(help=_help(lazy("Deal i is dealt from seed + i.")))
    ] = 1_000_000,
    jobs: JobsOpt = 1,
    variants: Annotated[
        list[str] | None,
        typer.Option(
            "--variant", "-v", help=_help(lazy("A game to rate (again for more); all by default."))
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help=_help(lazy("Write the JSON to this file.")))
    ] = None,
) -> None:
    from rich.progress import Progress

    from mathable.online import botratings

    chosen = variants or list(registry.GAMES)
    for name in chosen:
        _game_type(name)
    levels = list(ai.BOTS)
    total = len(chosen) * pairs * len(levels) * (len(levels) - 1)
    rated: dict[str, Any] = {}
    with Progress(console=err, transient=True) as progress:
        # TRANSLATORS: a progress bar's label while the computer levels are rated
        task = progress.add_task(_("computer levels"), total=total)
        for name in chosen:
            rated[name] = botratings.calibrate(
                name, levels, pairs, seed, jobs, lambda: progress.advance(task)
            )
    data = {"seed": seed, "pairs": pairs, "levels": levels, "games": rated}
    if out is None:
        _print_json(data)
        return
    try:
        out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise fail(_cannot_write(out, oserrors.reason(exc))) from None
    console.print(Text(_("wrote {file}", file=str(out))))


def _cannot_write(file: Path, reason: str) -> str:
    """Why the file ``file`` cannot be written, in words."""
    # TRANSLATORS: {reason} is why, often the system's own words
    return _("cannot write {file}: {reason}", file=str(file), reason=reason)


@app.command(
    cls=_Command,
    help=_help(lazy("Per turn, the points played against the best turn available, and the loss.")),
)
def analyse(record: RecordArg, json_out: JsonFlag = False) -> None:
    from mathable.ai.analysis import analysis_report

    game = _load_game(record)
    report = analysis_report(game)
    if json_out:
        _print_json(report)
        return
    # TRANSLATORS: the title of a game's analysis, then the record's file name
    console.print(panels.analysis_view(report, _("Analysis: {file}", file=record.name)))
    for turn in report["turns"]:  # issue 18: each turn's first placement explained
        played, best = turn.get("played_explanation"), turn.get("best_explanation")
        if played is None:
            continue
        # TRANSLATORS: a turn's number, its first placement (I8=12), then its explanation
        line = _(
            "turn {turn}: {placement}: {explanation}",
            turn=turn["turn"],
            placement=f"{played['target']}={played['value']}",
            explanation=played["text"],
        )
        if best is not None and turn.get("loss"):
            # TRANSLATORS: the best turn's first placement (I8=12), then its explanation
            line += "; " + _(
                "best {placement}: {explanation}",
                placement=f"{best['target']}={best['value']}",
                explanation=best["text"],
            )
        console.print(Text(line))


@app.command(
    cls=_Command,
    help=_help(lazy("The best whole turns for the player to move (exact search), best first.")),
)
def hint(
    position: Annotated[
        str, typer.Argument(help=_help(lazy("A one-line position, a file, or a record.")))
    ],
    json_out: JsonFlag = False,
    limit: Annotated[int, typer.Option(min=1, help=_help(lazy("How many turns to show.")))] = 5,
) -> None:
    from mathable.ai.hints import board_hints

    pos, rules = _position(position)
    rack, _size = _rack(pos.racks[pos.to_move])
    if rack is None:
        raise fail(_("the rack to move is hidden ('?N'): a hint needs the rack"))
    board = rules.new_board(dict(pos.board))
    found = board_hints(rules, board, rack, started_with=len(rack), limit=max(1, limit))
    if json_out:
        _print_json(
            [
                {
                    "turn": h.notation,
                    "points": (h.points or 0) - h.bonus,
                    "bonus": h.bonus,
                    "total": h.points or 0,
                    "leave": list(h.leave),
                }
                for h in found
            ]
        )
        return
    if not found:
        console.print(Text(_("No placement: pass or exchange.")))
        return
    for h in found:
        # TRANSLATORS: the bonus points of a turn placing a whole rack (C9)
        bonus = " " + _("(+{bonus} bonus)", bonus=h.bonus) if h.bonus else ""
        # TRANSLATORS: a rack keeping no token after a hinted turn
        kept = " ".join(map(str, h.leave)) or pgettext("kept", "nothing")
        # TRANSLATORS: then the values of the tokens left on the rack after a hinted turn
        keeps = _("keeps {values}", values=kept)
        console.print(Text(f"{h.points or 0:>4}{bonus}  {h.notation}   {keeps}"))


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host`` and ``port`` for the server; an address that cannot be
    resolved or bound is refused in one line."""
    where = f"{host}:{port}"
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, ValueError) as exc:  # UnicodeError: a name no resolver takes
        raise fail(_cannot_listen(where, str(exc))) from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise fail(_cannot_listen(where, oserrors.reason(exc))) from None
    return sock


def _cannot_listen(where: str, reason: str) -> str:
    """Why the server cannot listen on the address ``where``, in words."""
    # TRANSLATORS: {address} is a host and a port; {reason} is why, often the system's words
    return _("cannot listen on {address}: {reason}", address=where, reason=reason)


@app.command(
    cls=_Command,
    help=_help(
        lazy(
            "Serve the web app (games kept in the database of DATABASE_URL: a SQLite file, or "
            "PostgreSQL for several server processes)."
        )
    ),
)
def serve(
    host: Annotated[str, typer.Option(help=_help(lazy("Address to listen on.")))] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option(min=0, max=65535, help=_help(lazy("Port to listen on (0: any free port)."))),
    ] = 8000,
) -> None:
    import sqlite3

    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from mathable.web.api import Settings, create_app

    try:
        settings = Settings()  # a bad DATABASE_URL is refused here, in one line
    except ValueError as exc:  # and a bad MATHABLE_* setting
        raise fail(str(exc)) from None
    url, shown_url = settings.database_url, settings.shown_database_url  # no password shown
    sock = _listen(host, port)
    try:
        web = create_app(url)
    except (OSError, ValueError, sqlite3.Error, SQLAlchemyError) as exc:
        sock.close()
        raise fail(f"DATABASE_URL={shown_url}: {exc}") from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    # TRANSLATORS: {address} is the web address shown in bold, {database} where the games
    # are kept; Ctrl-C is the key that stops the server
    said = _(
        "Mathable is served at {address} (games in {database}; Ctrl-C stops)",
        address="\0",
        database=_clean(shown_url),
    )
    before, _mark, after = said.partition("\0")
    console.print(Text.assemble(before, (f"http://{shown}:{bound}/", "bold"), after))
    # frames over the app's own limit are refused by uvicorn before they are even read
    config = uvicorn.Config(web, log_level="warning", ws_max_size=settings.sockets.max_frame)
    server = uvicorn.Server(config)
    server.run(sockets=[sock])


from . import explain as _explain  # noqa: E402, F401  (declares explain)
from . import learn as _learn  # noqa: E402, F401  (declares learn)
from . import practice as _practice  # noqa: E402, F401  (declares practice)
from . import puzzles as _puzzles  # noqa: E402, F401  (declares make-puzzles and puzzles)
