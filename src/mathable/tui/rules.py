"""The help screen: a game's rules page (its ``GameType.rules``, written with the game)
and the keys of the actions it has. Built as :class:`rich.text.Text`, so no text of a
game is ever read as markup."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from rich.text import Text

from mathable.engine.actions import Place
from mathable.engine.notation import format_action
from mathable.engine.protocol import GameType, HouseRules
from mathable.render.surface import Surface

_ACTION_KEYS = (
    ("end", "e", "end turn"),
    ("pass", "p", "pass"),
    ("exchange", "x", "exchange"),
    ("challenge", "c", "challenge"),
    ("stop", "t", "propose to stop (all must accept)"),
    ("diago", "d", "DIAGO"),
    ("draw", "w", "draw"),
    ("penalty", "n", "penalty"),
)
"""The keys of the actions a game may have, in the order the help lists them."""

KEYWORDS = (
    "end",
    "pass",
    "exchange",
    "challenge",
    "stop",
    "accept",
    "decline",
    "diago",
    "draw",
    "penalty",
)
"""Actions typed as a word (``exchange`` takes the values: ``exchange 3,5``)."""


def rules_page(
    kind: GameType, house_rules: HouseRules | None = None, leaving: Sequence[str] = ()
) -> Text:
    """The help screen of a game: its rules page (or its summary) and the keys
    (``leaving``: the ways to leave open now, ``resign`` and ``abort``)."""
    if kind.rules:
        page = Text(kind.rules)
    else:
        page = Text(kind.title, style="bold")
        page.append(f"\n\n{kind.summary}")
    page.append("\n\n")
    page.append_text(keys_help(kind, house_rules, leaving))
    return page


def placement_example(kind: GameType, *, extra: bool = False) -> str:
    """A placement written in the game's notation, to show how to type one (``G7=12``,
    ``G7=12+`` with the extra token, ``A=12``)."""
    return format_action(Place(Surface(kind).start(), 12, extra), kind.target_names)


def answers(kind: GameType) -> bool:
    """Whether a game may ask its players to accept or decline: a stop proposal (J4) or
    a game-ending turn left open for a challenge (C12)."""
    return any(kind.has(k) for k in ("accept", "decline", "stop", "challenge"))


def keys_help(
    kind: GameType, house_rules: HouseRules | None = None, leaving: Sequence[str] = ()
) -> Text:
    """The keys of the terminal game, one a line, with only the actions this game has
    (and the undo and hint keys only when their house rules are on, if ``house_rules``
    is given; resign and abort only when ``leaving`` says they are open, L1); every line
    fits 80 columns."""
    surface = Surface(kind)
    piece, target = kind.piece, surface.target_word
    holder = "hand" if piece == "card" else "rack"
    example = placement_example(kind)
    if kind.has("extra"):
        example += f", {placement_example(kind, extra=True)} with the extra {piece}"
    words = [k for k in KEYWORDS if kind.has(k) or (k in ("accept", "decline") and answers(kind))]
    rows = [
        ("1-9, 0", f"choose a {piece} of your {holder} (0: the tenth)"),
        (". ,", f"the next / previous {piece}, for a long {holder}"),
        ("click", f"a {piece} chooses it; its legal {target}s light up in green"),
        ("", f"a {target} places the chosen {piece} there"),
        ("arrows, enter", f"move the cursor; place the chosen {piece} on it"),
        (":", f"type a move: {example}"),
        *(("", line) for line in textwrap.wrap("or a word: " + ", ".join(words), 58)),
        *((key, what) for name, key, what in _ACTION_KEYS if kind.has(name)),
        *(
            [("y / n", "accept / decline a pending proposal (shown when asked)")]
            if answers(kind)
            else []
        ),
    ]
    if house_rules is None or house_rules.hints:
        rows.append(("h", "hint: the best turns for you now"))
    rows += [("a", "analysis, once the game is over"), ("m", "scores (full names) and moves")]
    if house_rules is None or house_rules.allow_undo:
        rows.append(("u", "undo"))
    if "resign" in leaving:
        rows.append(("R, resign", "leave the game for good (asks first)"))
    if "abort" in leaving:
        rows.append(("A, abort", "call the game off, nobody wins (before all moved)"))
    rows += [("s", "save"), ("r", "replay"), ("?", "help"), ("q", "quit (saves first)")]
    text = Text("Keys", style="bold")
    for key, what in rows:
        text.append(f"\n  {key:<14}", style="bold")
        text.append(what)
    return text
