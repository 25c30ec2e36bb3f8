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
from mathable.i18n import Text as Message
from mathable.i18n import _, command_name, lazy, lazy_context, pgettext
from mathable.render.surface import Surface

_ACTION_KEYS = (
    # TRANSLATORS: what a key does, in the help screen's list of keys
    ("end", "e", lazy_context("key help", "end turn")),
    ("pass", "p", lazy_context("key help", "pass")),
    ("exchange", "x", lazy_context("key help", "exchange")),
    ("challenge", "c", lazy_context("key help", "challenge")),
    ("stop", "t", lazy_context("key help", "propose to stop (all must accept)")),
    # TRANSLATORS: Mathable Quattro's DIAGO call, usually kept as it is
    ("diago", "d", lazy_context("key help", "DIAGO")),
    ("draw", "w", lazy_context("key help", "draw")),
    ("penalty", "n", lazy_context("key help", "penalty")),
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
"""Actions typed as a word (``exchange`` takes the values: ``exchange 3,5``); each is
shown, and may be typed, in the reader's language (:func:`mathable.i18n.command_name`)."""


PLAIN_SIGNS = "+ - x /"
"""The four operations as the rules' texts write them (in every language)..."""
BOARD_SIGNS = "+ − × ÷"
"""...and as the board draws them: the help writes them so."""


def by_piece(piece: str, *, token: Message, tile: Message, card: Message | None = None) -> str:
    """The sentence of a game whose pieces are ``token``s, ``tile``s or ``card``s, in the
    current language: each is a message of its own, as articles and agreement differ
    between languages (``card`` may be left out where no game of cards says it)."""
    if piece == "card" and card is not None:
        return str(card)
    return str(tile if piece == "tile" else token)


def worded(notation: str) -> str:
    """Actions in the notation with their command words in the reader's language, as
    they are typed (``pass`` → ``passer``, ``exchange 3,5`` → ``échanger 3,5``); the
    notation itself (``I8=12``) is the same in every language."""
    return " ".join(command_name(word) for word in notation.split(" "))


def rules_page(
    kind: GameType, house_rules: HouseRules | None = None, leaving: Sequence[str] = ()
) -> Text:
    """The help screen of a game: its rules page (or its summary) and the keys
    (``leaving``: the ways to leave open now, ``resign`` and ``abort``)."""
    if kind.rules:
        # its title, then its paragraphs one a line: the keys stay in sight below; the
        # operations written with the signs the board shows (issue 33)
        rules = str(kind.rules).replace(PLAIN_SIGNS, BOARD_SIGNS)
        title, _blank, body = rules.partition("\n\n")
        page = Text(title)
        if body:
            page.append("\n\n" + "\n".join(body.split("\n\n")))
    else:
        page = Text(str(kind.title), style="bold")
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
    fits 80 columns (in English)."""
    piece = kind.piece
    example = placement_example(kind)
    if kind.has("extra"):
        extra = placement_example(kind, extra=True)
        example = by_piece(
            piece,
            token=lazy("{example}, {extra} with the extra token", example=example, extra=extra),
            tile=lazy("{example}, {extra} with the extra tile", example=example, extra=extra),
        )
    words = [k for k in KEYWORDS if kind.has(k) or (k in ("accept", "decline") and answers(kind))]
    typed = _("or a word: {words}", words=", ".join(command_name(w) for w in words))
    rows = [
        (
            "1-9, 0",
            by_piece(
                piece,
                token=lazy("choose a token of your rack (0: the tenth)"),
                tile=lazy("choose a tile of your rack (0: the tenth)"),
                card=lazy("choose a card of your hand (0: the tenth)"),
            ),
        ),
        (
            ". ,",
            by_piece(
                piece,
                token=lazy("the next / previous token, for a long rack"),
                tile=lazy("the next / previous tile, for a long rack"),
                card=lazy("the next / previous card, for a long hand"),
            ),
        ),
        (
            # TRANSLATORS: a mouse click, in the help screen's list of keys
            pgettext("key", "click"),
            by_piece(
                piece,
                token=lazy("a token chooses it; its legal cells light up in green"),
                tile=lazy("a tile chooses it; its legal cells light up in green"),
                card=lazy("a card chooses it; its legal piles light up in green"),
            ),
        ),
        (
            "",
            by_piece(
                piece,
                token=lazy("a cell places the chosen token there"),
                tile=lazy("a cell places the chosen tile there"),
                card=lazy("a pile places the chosen card there"),
            ),
        ),
        (
            # TRANSLATORS: the arrow keys and the Enter key, in the list of keys
            pgettext("key", "arrows, enter"),
            by_piece(
                piece,
                token=lazy("move the cursor; place the chosen token on it"),
                tile=lazy("move the cursor; place the chosen tile on it"),
                card=lazy("move the cursor; place the chosen card on it"),
            ),
        ),
        (":", _("type a move: {example}", example=example)),
        *(("", line) for line in textwrap.wrap(typed, 58)),
        *((key, str(what)) for name, key, what in _ACTION_KEYS if kind.has(name)),
        *(
            [("y / n", _("accept / decline a pending proposal (shown when asked)"))]
            if answers(kind)
            else []
        ),
    ]
    if house_rules is None or house_rules.hints:
        rows.append(("h", _("hint: the best turns for you now")))
    rows += [
        ("a", _("analysis, once the game is over")),
        ("m", _("scores (full names) and moves")),
    ]
    if house_rules is None or house_rules.allow_undo:
        rows.append(("u", pgettext("key help", "undo")))
    if "resign" in leaving:
        rows.append((f"R, {command_name('resign')}", _("leave the game for good (asks first)")))
    if "abort" in leaving:
        rows.append(
            (f"A, {command_name('abort')}", _("call the game off, nobody wins (before all moved)"))
        )
    rows += [
        ("s", pgettext("key help", "save")),
        ("r", pgettext("key help", "replay")),
        # TRANSLATORS: the help's line of the v key (0 s: the computer's turn at once)
        ("v", _("pace of the computer's placements: 0.3 s, 0.6, 1, 2, 0")),
        ("?", pgettext("key help", "help")),
        ("q", _("quit (saves first)")),
        ("^q", _("quit: asks to save first")),
    ]
    text = Text(pgettext("help screen", "Keys"), style="bold")
    width = max(14, *(len(key) + 1 for key, _what in rows))  # a translated key may be longer
    for key, what in rows:
        text.append(f"\n  {key:<{width}}", style="bold")
        text.append(what)
    return text
