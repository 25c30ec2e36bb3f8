"""The rules of each game in a page, for the help screen (from the rulebooks and
RULINGS.md; rule numbers in brackets)."""

from __future__ import annotations

import re

from rich.markup import escape

from mathable.engine.actions import Place
from mathable.engine.notation import format_action
from mathable.engine.protocol import GameType
from mathable.render.surface import Surface

RULES: dict[str, str] = {
    "classic": """[b]Mathable[/b]  (rules C1-C13)

Put numbered tokens on the board so that each one is the result of adding, subtracting,
multiplying or dividing the two tokens next to it in a line (above, below, left or
right: two in a row, never diagonal) [C3]. A token completing several equations at once
scores for each [C4].
[b]Blue squares[/b] (+ - x /) accept only their operation [C5]; after placing on one you
may take one extra token from the bag at once [C7].
[b]Points[/b] = the token's value x the equations it completes x 2 or 3 on a purple or
orange square [C6].
[b]A turn[/b]: place tokens one at a time, each legal as the board stands; or exchange
tokens; or pass [C8]. Empty a full rack in one turn: [b]50 points[/b] bonus [C9].
[b]End[/b]: the bag is empty and a player has used every token; or nobody can place
anything. Tokens left on a rack are deducted [C11]. The highest total wins.
The player card lists the tokens you have not seen yet [C13].""",
    "junior": """[b]Mathable Junior[/b], front side  (rules J1-J4)

Like Mathable on a 10x10 board with + and - only: a tile is the sum or difference of the
two tiles next to it in a line. Racks of 5. 2X squares double the tile's points. After a
+ or - square you may draw a tile and go on. Place all 5 in one turn: 25 points bonus.
Exchange any number of tiles as your turn. The game ends when the pot is empty and a
player has placed all tiles, when nobody can play, or when all agree to stop.
(The board layout is provisional: the rulebook does not print it.)""",
    "junior-numbers": """[b]Mathable Junior[/b], numbered board  (rules K1-K3)

Everyone's 3 tiles lie face up. Place all three, one by one, each on an empty square
printed with its number. 1 point when the two tiles next to it in a line make it by + or
-; 0 otherwise. Then draw 3. House rule [i]strict[/i]: a scoring square must be used
when there is one. The game ends when the pot is empty and every tile is placed.""",
    "quattro": """[b]Mathable Quattro[/b], the card game  (rules Q1-Q5)

Four piles lie in a square, A B on top and C D below; only the top cards count. Play a
card on a pile when it is the result of + - x / of that pile's top and the top of a pile
beside it (sideways or up-down) [Q2]. Go on while you can; then the turn passes.
[b]Stuck[/b] at the start of your turn: draw a card and put it on any pile, then discard
one card and draw two, or draw one penalty card [Q3].
[b]DIAGO[/b] (key d): once per round, at the start of your turn, diagonals count too for
that turn; once everyone has used it, diagonals count for all [Q4].
The first to empty the hand wins the round; the match winner wins the most rounds [Q5].""",
}

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
    page = RULES.get(kind.name)
    if page is None:
        page = f"[b]{escape(kind.title)}[/b]\n\n{escape(kind.summary)}"
    # rule numbers in brackets ([C3], [Q2]) are text, not markup tags
    page = re.sub(r"\[([A-Z]\d+[a-z]?)\]", r"\\[\1]", page)
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
