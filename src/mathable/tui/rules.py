"""The help screen: a game's rules page (its ``GameType.rules``, written with the game)
and the keys of the actions it has."""

from __future__ import annotations

from rich.markup import escape

from mathable.engine.actions import Place
from mathable.engine.notation import format_action
from mathable.engine.protocol import GameType
from mathable.render.surface import Surface

_ACTION_KEYS = (
    ("end", "e", "end turn"),
    ("pass", "p", "pass"),
    ("exchange", "x", "exchange"),
    ("challenge", "c", "challenge"),
    ("stop", "t", "stop (all agree)"),
    ("diago", "d", "DIAGO"),
    ("draw", "w", "draw"),
    ("penalty", "n", "penalty"),
)
"""The keys of the actions a game may have, in the order the help lists them."""

KEYWORDS = ("end", "pass", "exchange", "challenge", "stop", "diago", "draw", "penalty")
"""Actions typed as a word (``exchange`` takes the values: ``exchange 3,5``)."""


def rules_page(kind: GameType) -> str:
    """The help screen of a game: its rules page (or its summary) and the keys."""
    page = (
        escape(kind.rules)
        if kind.rules
        else f"[b]{escape(kind.title)}[/b]\n\n{escape(kind.summary)}"
    )
    return page + "\n\n" + keys_help(kind)


def placement_example(kind: GameType, *, extra: bool = False) -> str:
    """A placement written in the game's notation, to show how to type one (``G7=12``,
    ``G7=12+`` with the extra token, ``A=12``)."""
    return format_action(Place(Surface(kind).start(), 12, extra), kind.target_names)


def keys_help(kind: GameType) -> str:
    """The keys of the terminal game, with only the actions this game has."""
    surface = Surface(kind)
    piece, target = kind.piece, surface.target_word
    example = placement_example(kind)
    if kind.has("extra"):
        example += f", {placement_example(kind, extra=True)} (extra {piece})"
    typed = ", ".join(k for k in KEYWORDS if kind.has(k))
    if typed:
        example += f"; {typed}"
    keys = "   ".join(f"{key} {what}" for name, key, what in _ACTION_KEYS if kind.has(name))
    return "\n".join(
        [
            "[b]Keys[/b]",
            f"  1-9 or click a rack {piece:<7} choose it: its legal {target}s light up in green",
            f"  arrows / click a {target:<10} move the cursor / place the chosen {piece} there",
            f"  enter                       place the chosen {piece} on the cursor",
            f"  or type notation below      {example}",
            *([f"  {keys}"] if keys else []),
            "  h hint   a analysis   m move list   u undo   s save   r replay   ? help   q quit",
        ]
    )
