"""What the line-by-line game prints: the surface, the scores and the seat's rack and
choices, a computer's action as it plays, the hints, a cell explained, and the end of the
game. The plain game and practice (:mod:`.hotseat`, :mod:`.practice`) draw with it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from mathable.ai import Bot
from mathable.ai.hints import hints
from mathable.engine.actions import action_kind
from mathable.engine.protocol import Game, View
from mathable.i18n import _, command_name, pgettext
from mathable.render import panels
from mathable.render.typed import explain_cell, leaving_open
from mathable.render.words import left_names, over_text

from .prompt import NAME, named, refused


def _view_extra(view: View, key: str) -> Any:
    """A field a game's view adds to the common ones (its JSON), or None."""
    return view.to_dict().get(key)


def bot_action(console: Console, game: Game, seat: int, bot: Bot, thinking: int | None) -> int:
    """One action of a computer player, shown as it is played; a "thinking" mark opens
    its turn (a spinner while it searches, on a terminal)."""
    name = game.players[seat]
    if thinking != seat:
        # TRANSLATORS: a computer player's name, shown in bold, then this
        thinking_text = _("{name} is thinking…", name=NAME)
        console.print(named(thinking_text, name, "bold cyan"))
    view = game.view(seat)
    if console.is_terminal:
        with console.status(Text(_("{name} is thinking…", name=name))):
            action = bot.act(view)
    else:
        action = bot.act(view)
    console.print(Text.assemble((name, "cyan"), f": {game.format_action(action)}"))
    game.apply(action)
    return seat


def game_over(console: Console, game: Game) -> None:
    """Who won, and what each player had left (and lost for it)."""
    kind = game.game_type
    view = game.view(None)
    over, colon, rest = over_text(game).partition(":")
    console.print(Text.assemble((over, "bold"), f"{colon}{rest}"))
    racks = view.open_racks or tuple(game.rack(s) for s in range(len(game.players)))
    deducted = _view_extra(view, "deductions") if kind.deducts_rack else None
    # TRANSLATORS: then each player's name and the pieces still on their rack (or, for
    # cards, in their hand) at the end of the game
    left = _("Hands left:") if kind.piece == "card" else _("Racks left:")
    console.print(Text(left))
    for seat, name in enumerate(game.players):
        line = Text(f"  {name}: ")
        # TRANSLATORS: a rack or hand with nothing left on it
        empty = Text(pgettext("rack", "empty"))
        line.append_text(panels.rack_text(racks[seat]) if racks[seat] else empty)
        if deducted:
            line.append(f"  −{deducted[seat]}", style="bold")
        console.print(line)


def draw(console: Console, game: Game, view: View) -> None:
    """The surface, scores, last turn and, for a seat, its rack and what it may do."""
    kind = game.game_type
    console.print(panels.view_surface(kind, view))
    to_move = None if view.over else view.to_move
    console.print(
        panels.scores_table(
            left_names(view.players, view.left),
            view.scores,
            to_move,
            view.rack_sizes,
            kind.score_unit,
            panels.holder(kind),
        )
    )
    console.print(
        Text(panels.supply_count(kind, view.bag_size) + "   "), panels.player_card(view.unseen)
    )
    if view.summaries:
        last = panels.summary_text(view.players, view.summaries[-1], kind)
        # TRANSLATORS: the last turn played follows (Ann I8=12 for 12)
        console.print(Text.assemble(_("last turn:") + " ", last))
    if view.open_racks and not view.over:
        # TRANSLATORS: then every player's rack (or hand), which all may see
        face_up = _("hands face up:") if kind.piece == "card" else _("racks face up:")
        console.print(Text(face_up))
        for other, rack in enumerate(view.open_racks):
            console.print(Text(f"  {view.players[other]}: "), panels.rack_text(rack))
    if view.status:
        console.print(Text(view.status))
    if view.seat is None:
        return
    if view.playable != view.rack:
        # TRANSLATORS: the pieces the player must place now follow (a card just drawn)
        console.print(Text(_("to place:") + " "), panels.rack_text(view.playable))
    # TRANSLATORS: the player's own rack (or hand) follows
    yours = _("your hand:") if kind.piece == "card" else _("your rack:")
    console.print(Text(yours + " "), panels.rack_text(view.rack))
    if view.available:
        console.print(panels.actions_text(view.available, _examples(game)))
    leaving = leaving_open(game, view.seat)
    if leaving:
        typed = "   ".join(command_name(word) for word in leaving)
        # TRANSLATORS: more words the player may type follow (resign   abort)
        console.print(Text(_("or:") + f" {typed}", style="dim"))


def _examples(game: Game) -> dict[str, str]:
    """Per action keyword, the first legal action of that kind as it is typed (a
    reminder of the ``+`` where no extra token is on offer yet)."""
    found: dict[str, str] = {}
    for action in game.legal_actions():
        found.setdefault(action_kind(action), game.format_action(action))
    # TRANSLATORS: a reminder that a placement may take the extra token: I8=12+
    return {"extra": _("extra (…+)"), **found}


def explain(console: Console, game: Game, view: View, typed: str) -> None:
    """Print :func:`explain_cell`'s answer (a refusal as refusals are shown)."""
    lines, was_refused = explain_cell(game, view, typed)
    if was_refused:
        refused(console, lines[0])
        return
    for line in lines:
        console.print(Text(line))


def hint(console: Console, game: Game, view: View) -> None:
    """The best turns for the seat of ``view``, from that view only, where the house
    rules allow hints (O2)."""
    if not view.house_rules.get("hints"):
        console.print(Text(_("No hints in this game: the house rules have them off (O2).")))
        return
    found = hints(view, limit=5)
    if not found:
        others = [command_name(k) for k in view.available if k not in ("place", "extra")]
        if others:
            # TRANSLATORS: {words} are the words the player may type instead: pass or exchange
            said = _("No placement possible: {words}.", words=_or(others))
        else:
            said = _("No placement possible.")
        console.print(Text(said))
        return
    for turn in found:
        console.print(Text(_hint_line(turn.points, turn.bonus, turn.notation, turn.leave)))


def _or(words: Sequence[str]) -> str:
    """Words offered as a choice: ``pass``, ``pass or exchange``."""
    said = ""
    for word in words:
        # TRANSLATORS: two words the player may type (or a list and one more): pass or end
        said = _("{first} or {second}", first=said, second=word) if said else word
    return said


def _hint_line(points: int | None, bonus: int, notation: str, leave: Sequence[int]) -> str:
    """A hinted turn in one line: its points (with the bonus), the turn in the notation
    and the rack it keeps: ``  42  (+50 bonus) I8=12 H6=8   keeps 3 5``."""
    shown = f"{points:>4}  " if points is not None else ""
    if bonus:
        # TRANSLATORS: the bonus points of a turn placing a whole rack (C9)
        shown += _("(+{bonus} bonus)", bonus=bonus) + " "
    # TRANSLATORS: a rack keeping no token after a hinted turn
    kept = " ".join(map(str, leave)) or pgettext("kept", "nothing")
    # TRANSLATORS: then the values of the tokens left on the rack after a hinted turn
    return f"{shown}{notation}   " + _("keeps {values}", values=kept)
