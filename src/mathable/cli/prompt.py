"""Asking and answering at the line-by-line terminal: a prompt that ends the game at the
end of input, a refusal with its reason, a yes typed in any language, a name in its own
style, and the screen cleared between two people. The plain game, the guided lessons and
practice (:mod:`.hotseat`, :mod:`.learn`, :mod:`.practice`) share them."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from mathable import i18n
from mathable.i18n import _, pgettext
from mathable.render.words import clean

NAME = "\0"
"""What a message's ``{name}`` is filled with where the name is shown in its own style
(:func:`named`)."""


def named(message: str, name: str, style: str) -> Text:
    """A message whose ``{name}`` was filled with :data:`NAME`, the name put in its
    place in ``style`` (the name as typed, never read as markup)."""
    before, _mark, after = message.partition(NAME)
    return Text.assemble(before, (name, style), after)


def ask(console: Console, prompt: str | Text) -> str:
    """A line typed at ``prompt``; the end of input ends the game as ``quit`` would."""
    try:
        return console.input(Text(prompt) if isinstance(prompt, str) else prompt)
    except EOFError:
        raise SystemExit(0) from None


def hide(console: Console) -> None:
    """Take the last player's rack off the screen: clear a terminal and its scrollback,
    scroll anything else a screen's height."""
    if console.is_terminal:
        console.clear()
        console.file.write("\x1b[3J")  # the scrollback too
        console.file.flush()
    else:
        console.print("\n" * console.height, end="")


def refused(console: Console, reason: str) -> None:
    """A refusal of what a player typed, with its reason: ``refused: …``."""
    # TRANSLATORS: before the reason a typed action is refused
    console.print(Text.assemble((_("refused:"), "bold red"), f" {clean(reason)}"))


def is_yes(answer: str, short: bool = False) -> bool:
    """Whether a typed answer says yes: ``y`` or ``yes`` (only ``y`` if ``short``), in
    English or in the player's language."""
    said = i18n.folded(answer)
    # TRANSLATORS: the one-letter answer yes, typed to confirm (y/n)
    yes = {"y", i18n.folded(pgettext("answer", "y"))}
    if not short:
        # TRANSLATORS: the answer yes, typed to confirm
        yes |= {"yes", i18n.folded(pgettext("answer", "yes"))}
    return said in yes
