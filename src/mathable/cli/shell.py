"""What the commands of ``mathable`` share: the consoles, the one-line refusal and its exit
(code 1), help texts kept to be shown in the reader's language, the options and arguments
several commands take, and reading files and folders safely.

Exit codes: 0 for success; 1 for refused input, with one line ``error: …`` on stderr; 2
for usage errors (click's, said in the reader's language: :mod:`.group`). No input ends
in a traceback. Everything a user typed (names, notation, file names) prints exactly as
typed: output is built from rich ``Text`` and the consoles read no markup or emoji codes
in plain strings."""

from __future__ import annotations

import inspect
import json
import os
import stat
import sys
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from mathable import i18n
from mathable.i18n import _, lazy

from . import oserrors
from ._later import later

if TYPE_CHECKING:
    from rich.progress import Progress

    from mathable.engine.protocol import GameType
    from mathable.games import registry
else:
    registry = later("mathable.games.registry")


MAX_FILE = 5_000_000
"""The largest file read, in bytes (a long Quattro match's record is far smaller)."""
MAX_PATH = 4096
"""Longer text is never a file name (Linux's PATH_MAX)."""

console = Console(highlight=False, markup=False, emoji=False)
err = Console(stderr=True, highlight=False, markup=False, emoji=False)


def progress_bar(*, hidden: bool = False) -> Progress:
    """A progress bar on stderr, gone when its work is done; none when ``hidden`` (the
    answer is JSON) or where stderr is no terminal (piped or captured, Rich's transient
    bar still left its last newline there)."""
    from rich.progress import Progress

    return Progress(console=err, transient=True, disable=hidden or not err.is_terminal)


def one_line(text: str) -> str:
    """``text`` with control characters, line and paragraph separators (U+2028, U+2029)
    and invisible format characters (a right-to-left override) written as escapes
    (``\\n``, ``\\x1b``, ``\\u2028``), so that an error stays one line and cannot
    drive the terminal or disguise itself."""
    hidden = ("Cc", "Cs", "Cf", "Zl", "Zp")
    return "".join(repr(c)[1:-1] if unicodedata.category(c) in hidden else c for c in text)


def fail(message: str) -> typer.Exit:
    """Print one error line on stderr and return the exit (code 1) to raise."""
    # TRANSLATORS: the start of every error line of the mathable command: error: …
    said = Text.assemble((_("error:"), "bold red"), f" {one_line(message)}")
    err.print(said, soft_wrap=True)
    return typer.Exit(1)


# -- the reader's language, and help texts shown in it ------------------------------------


# -- help texts, shown in the reader's language ----------------------------------------

HELP_TEXTS: dict[str, tuple[i18n.Text, ...]] = {}
"""Each help text handed to typer (in English), by that English text: its paragraphs as
lazy texts, to show in the reader's language."""


def helps(*paragraphs: i18n.Text) -> str:
    """A help text of a command or option, one lazy text per paragraph: given to typer as
    its English template (its values unfilled: they may need imports that ``--help`` need
    not make), and shown in the reader's language (typer builds the commands before the
    language is known, and shows their help after: :func:`_localize`)."""
    english = inspect.cleandoc("\n\n".join(_key(p) for p in paragraphs))
    HELP_TEXTS[english] = paragraphs
    return english


def _key(paragraph: i18n.Text) -> str:
    """A paragraph's template with its values' forms (two options may share a template:
    ``--variant`` of every game, of the board games)."""
    if not paragraph.values:
        return paragraph.message
    return f"{paragraph.message} {sorted((k, repr(v)) for k, v in paragraph.values.items())}"


def shown_help(text: str | None) -> str | None:
    """A help text in the current language (a text not made by :func:`helps` as it is)."""
    paragraphs = HELP_TEXTS.get(text) if text else None
    if paragraphs is None:
        return text
    return "\n\n".join(str(paragraph) for paragraph in paragraphs)


def tolerant_stdin() -> None:
    """Read typed lines that are not UTF-8 with replacement characters instead of
    failing (the line games: play --plain, learn, practice)."""
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace")


class GameNames:
    """The names of the games (of those on a board, if ``board_only``) in a help text,
    read from the registry only when the help is shown."""

    def __init__(self, *, board_only: bool = False) -> None:
        self.board_only = board_only

    def __repr__(self) -> str:
        return f"GameNames(board_only={self.board_only})"

    def __str__(self) -> str:
        games = registry.GAMES.items()
        return ", ".join(n for n, t in games if not self.board_only or t.surface == "board")


JsonFlag = Annotated[
    bool, typer.Option("--json", help=helps(lazy("Print JSON instead of a table.")))
]
VariantOpt = Annotated[
    str,
    typer.Option(
        "--variant",
        "-v",
        # TRANSLATORS: the help of --variant: the names of the games, then this
        help=helps(lazy("{games} (see 'variants').", games=GameNames())),
    ),
]
BoardVariantOpt = Annotated[
    str,
    typer.Option(
        "--variant",
        "-v",
        help=helps(
            lazy(
                "{games} (see 'variants').",
                games=GameNames(board_only=True),
            )
        ),
    ),
]
"""--variant of the commands for the board games only (score sheets): it offers no game
they would refuse."""


JobsOpt = Annotated[
    int, typer.Option(min=1, max=64, help=helps(lazy("Games played at once (processes).")))
]

RecordArg = Annotated[Path, typer.Argument(help=helps(lazy("A JSON game record.")))]

PositionArg = Annotated[str, typer.Argument(help=helps(lazy("A one-line position, or a file.")))]


def read_file(path: Path) -> str:
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


def game_type(name: str) -> GameType:
    """The game called ``name``; an unknown name fails listing every game."""
    try:
        return registry.game_type(name)
    except ValueError as exc:
        raise fail(str(exc)) from None


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


def in_file(file: Path | str, reason: object) -> str:
    """A refusal of what a file holds: ``game.json: <reason>``."""
    # TRANSLATORS: a file's name, then why what it holds is refused
    return _("{file}: {reason}", file=str(file), reason=reason)


def writable_folder(folder: Path) -> None:
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


def cannot_write(file: Path, reason: str) -> str:
    """Why the file ``file`` cannot be written, in words."""
    # TRANSLATORS: {reason} is why, often the system's own words
    return _("cannot write {file}: {reason}", file=str(file), reason=reason)
