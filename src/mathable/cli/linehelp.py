"""The help of the line-by-line game (``help``): what each word a player may type does,
in words agreeing with the game's pieces (a token, a tile, a card)."""

from __future__ import annotations

from collections.abc import Sequence

from mathable.engine.protocol import GameType
from mathable.i18n import Text as Message
from mathable.i18n import _, command_name, lazy, lazy_context
from mathable.render import panels

_ACTION_HELP: dict[str, Message] = {
    "end": lazy("end your turn after placing (it ends by itself when you cannot go on)"),
    "pass": lazy("pass the whole turn"),
    "challenge": lazy(
        "contest the last turn (table-referee house rule, C12); any opponent may: "
        "{word} and a seat from 0 or a name",
        word=lazy_context("command", "challenge"),
    ),
    "stop": lazy("propose to end the game; it ends when every other player accepts"),
    "accept": lazy("agree to the proposal (stop the game / let the last turn stand)"),
    "decline": lazy("refuse the proposal to stop; play goes on"),
    # TRANSLATORS: DIAGO is a word of Mathable Quattro's rules, said aloud
    "diago": lazy("announce DIAGO at the start of your turn: diagonals count"),
}
"""What each action keyword does, in words (``place`` and those naming a piece: in
:func:`_action_help`)."""

_HELPED = frozenset({*_ACTION_HELP, "place", "extra", "exchange", "draw", "penalty"})
"""The action keywords the help explains."""


def _action_help(keyword: str, kind: GameType, place: str) -> str:
    """What an action does, in words in the current language ('' for one the help does
    not know); ``place`` names a target to place on (``I8``, ``pile A``)."""
    if keyword == "place":
        # TRANSLATORS: the help of the terminal game; {value} is a number, {target} a cell
        # (I8) or a pile (pile A)
        return _("put your {value} on {target}", value=12, target=place)
    said = _piece_help(keyword, kind) or _ACTION_HELP.get(keyword)
    return "" if said is None else str(said)


def _piece_help(keyword: str, kind: GameType) -> Message | None:
    """What an action naming the game's pieces does, in words agreeing with the piece
    (a token, a tile, a card); None for other actions."""
    card, tile = kind.piece == "card", kind.piece == "tile"
    if keyword == "extra":
        if card:
            return lazy("the same, taking the extra card a restriction square allows (rule C7)")
        if tile:
            return lazy("the same, taking the extra tile a restriction square allows (rule C7)")
        return lazy("the same, taking the extra token a restriction square allows (rule C7)")
    if keyword == "exchange":
        if kind.exchange_exactly == 1:
            if card:
                return lazy("give back this card for new ones")
            if tile:
                return lazy("give back this tile for new ones")
            return lazy("give back this token for new ones")
        if card:
            return lazy("give back these cards for new ones")
        if tile:
            return lazy("give back these tiles for new ones")
        return lazy("give back these tokens for new ones")
    if keyword == "draw":
        if card:
            return lazy("when you cannot play: draw a card, then place it")
        if tile:
            return lazy("when you cannot play: draw a tile, then place it")
        return lazy("when you cannot play: draw a token, then place it")
    if keyword == "penalty":
        if card:
            return lazy("after placing a drawn card: take a penalty card instead of exchanging")
        if tile:
            return lazy("after placing a drawn tile: take a penalty tile instead of exchanging")
        return lazy("after placing a drawn token: take a penalty token instead of exchanging")
    return None


def help_text(
    kind: GameType,
    hints_on: bool = True,
    available: Sequence[str] = (),
    leaving: Sequence[str] = (),
) -> str:
    """The commands of a game: the actions its type has and those ``available`` now
    (``accept``/``decline`` while a question waits), then the commands of this front end
    (``hint`` where the house rules allow hints; ``resign``, ``abort`` when ``leaving``
    says they are open)."""
    examples = panels.action_examples(kind)
    examples.update((k, k) for k in available if k not in examples and k in _HELPED)
    middle = kind.targets[len(kind.targets) // 2]
    # TRANSLATORS: a pile of Mathable Quattro named by its letter: pile A
    place = _("pile {name}", name=middle.name) if middle.kind == "pile" else middle.name
    # TRANSLATORS: the word FILE of "save [FILE]" in the help: a file name to type
    save = f"{command_name('save')} [{_('FILE')}]"
    rows: list[tuple[str, str]] = []
    for keyword, typed in examples.items():
        rows.append((panels.typed_in_language(typed), _action_help(keyword, kind, place)))
    if hints_on:
        rows.append((command_name("hint"), _("list your best turns")))
    # TRANSLATORS: the help of the command "explain I8" (issue 18)
    explain = _("explain the piece there, or what yours would make there")
    rows.append((f"{command_name('explain')} {middle.name}", explain))
    if "resign" in leaving:
        rows.append((command_name("resign"), _("leave the game for good (asked to confirm)")))
    if "abort" in leaving:
        rows.append((command_name("abort"), _("call the game off: nobody wins (before all moved)")))
    rows += [
        (command_name("undo"), _("take back the last action (if the house rule allows it)")),
        (save, _("save the game record (a new file unless you name one)")),
        (command_name("quit"), _("stop playing (you are asked whether to save first)")),
    ]
    width = max(len(typed) for typed, _what in rows) + 2
    lines = [_("{game}: type one action at a time:", game=kind.title)]
    lines += [f"  {typed:<{width}} {what}" for typed, what in rows]
    return "\n".join(lines)
