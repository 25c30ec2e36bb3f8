"""Saving a game record from the line-by-line game: to a file the player names (an
existing one only once confirmed), else to a new file of the default name."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from rich.console import Console
from rich.text import Text

from mathable.engine import records
from mathable.engine.protocol import Game
from mathable.i18n import _
from mathable.render.words import clean

from . import oserrors
from .prompt import ask, is_yes


def default_save_name(game: Game, folder: Path = Path()) -> Path:
    """``mathable-<variant>-<seed>.json`` in ``folder``, or with ``-2``, ``-3``… the first
    such name no file has."""
    stem = f"mathable-{game.name}-{game.seed}"
    path = folder / f"{stem}.json"
    number = 1
    while path.exists():
        number += 1
        path = folder / f"{stem}-{number}.json"
    return path


def save(console: Console, game: Game, name: str, levels: Mapping[int, str]) -> None:
    """Save the record (with the computer players' ``levels``): to ``name`` (an
    existing file only once the player confirms), else to a new file of the default name."""
    text = records.dumps(game, levels)
    try:
        if name:
            path = Path(name)
            if path.exists() or path.is_symlink():
                if path.is_dir():
                    said = _("cannot save: {name} is a folder", name=clean(name))
                    console.print(Text(said, style="red"))
                    return
                # TRANSLATORS: [y/N]: the answers yes and no, no if Enter is pressed
                asked = _("{name} exists: replace it? [y/N]", name=clean(name))
                answer = ask(console, Text(asked + " "))
                if not is_yes(answer):
                    console.print(Text(_("not saved")))
                    return
            path.write_text(text, encoding="utf-8")
        else:
            while True:
                path = default_save_name(game)
                try:
                    with path.open("x", encoding="utf-8") as file:  # never an existing file
                        file.write(text)
                    break
                except FileExistsError:
                    continue
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        reason = oserrors.reason(exc) if isinstance(exc, OSError) else str(exc)
        console.print(Text(_("cannot save: {reason}", reason=clean(reason)), style="red"))
        return
    shown = clean(str(path))
    # TRANSLATORS: {command} is a command to type as it is
    said = _(
        "saved to {file}; resume with: {command}",
        file=shown,
        command=f"mathable play --resume {shown}",
    )
    console.print(Text(said))
