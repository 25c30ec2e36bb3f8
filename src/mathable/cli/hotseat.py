"""A plain terminal game for people sharing one screen, and against computer players.

Each person's turn starts behind a cover: the screen is cleared (scrolled away when it is
no terminal) as soon as a player's turn ends, and the next player presses Enter, so one
player never sees another's rack. Players type actions in the notation (``I8=12``,
``J8=16+``; ``A=32`` on a pile; a whole turn on one line, ``F7=2 F8=7`` or ``F7=2,F8=7``,
played whole or not at all), ``hint``, ``undo``, ``save [FILE]``, ``help`` or
``quit``, and ``resign`` or ``abort`` (local ruling L1, asked to confirm; any person
still in may, the engine allowing, naming the seat: ``resign 2`` or ``resign Cy``), and
``challenge`` (C12: any opponent may, naming the seat as well: ``challenge 2``); the
screen offers exactly the actions the view says the seat may use now
(``accept``/``decline`` when a proposal waits for an answer). A seat named ``bot:LEVEL``
is a computer player; each of its actions is shown as it plays. Everything is drawn from
the game's type and the seat's view, so any game of the registry plays here unchanged.
The board is drawn again only when the game changed, so a refusal, a hint or the help
stays on screen under it (at 80×24 the board fills the screen). When the game is over
the players are asked whether to save it, and a save names its file. ``pace`` seconds
pass between the computer's actions. Whatever a player typed is printed as typed (rich
``Text``, never markup). Everything
else is in the player's language (:mod:`mathable.i18n`), and a command word may be typed in
it as well as in English (``passer`` for ``pass`` in French).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping

from rich.console import Console
from rich.text import Text

from mathable import i18n
from mathable.ai import BOTS, seat_bots
from mathable.engine.actions import Action, EndTurn, Shake
from mathable.engine.errors import MathableError
from mathable.engine.notation import parse_actions
from mathable.engine.protocol import ActionRefused, Game, GameType
from mathable.i18n import _, command_name, ngettext, typed_command
from mathable.render.typed import (
    LEAVING_WORDS,
    challenge_refusal,
    challenge_request,
    leave_request,
    leaving_open,
)
from mathable.render.words import clean, leave_question, left_text

from .linehelp import help_text
from .prompt import NAME, ask, hide, is_yes, named, refused
from .saving import save
from .screen import bot_action, draw, explain, game_over, hint

_ANSWERS = ("accept", "decline")
"""The keywords that answer a question put to the player to move (J4, C12)."""


def ask_game(console: Console, kind: GameType, start: Callable[[list[str]], Game]) -> Game:
    """Ask for the players, then start the game with ``start(names)``; names the game
    refuses are asked for again, with the reason."""
    low, high = kind.min_players, kind.max_players
    levels = ", ".join(BOTS)
    while True:
        # TRANSLATORS: {low}-{high}: the fewest and the most players; [{low}]: the number
        # taken when Enter is pressed
        asked = _("How many players ({low}-{high})? [{low}]", low=low, high=high) + " "
        count = ask(console, asked).strip() or str(low)
        if not count.isascii() or not count.isdigit() or not low <= int(count) <= high:
            console.print(Text(ngettext("{count} player then.", "{count} players then.", low)))
            count = str(low)
        names = []
        for i in range(int(count)):
            prompt = _(
                "Player {number}: a name, or a computer level ({levels}):",
                number=i + 1,
                levels=levels,
            )
            name = ask(console, prompt + " ")
            name = name.strip() or _("Player {number}", number=i + 1)
            names.append(f"bot:{name.lower()}" if name.lower() in BOTS else name)
        try:
            return start(names)
        except ValueError as exc:  # MathableError included
            console.print(Text(clean(str(exc)), style="red"))


def run_hotseat(
    console: Console,
    game: Game,
    *,
    seed: int | None = None,
    levels: Mapping[int, str] | None = None,
    pace: float = 0.0,
    sleep: Callable[[float], object] = time.sleep,
) -> None:
    """Play ``game`` to its end at one screen (computer players seeded from ``seed``:
    seats named ``bot:LEVEL``, and ``levels`` by seat, as a resumed record's ``bots``),
    ``pace`` seconds between the computer's actions (``sleep``: waits that long)."""
    bots = seat_bots(list(game.players), seed, levels)
    levels = {seat: bot.name for seat, bot in bots.items()}  # written in saved records
    notice = game.view(None).notice
    if notice:
        console.print(Text(notice))
    shown: int | None = None  # the seat whose rack is on screen
    thinking: int | None = None  # the computer seat whose turn is being shown
    drawn: tuple[int, int] | None = None  # the log's length and seat last drawn for
    while not game.is_over:
        seat = game.to_move
        people = sum(1 for s in game.seats_in if s not in bots)
        if shown is not None and shown != seat and people > 1:
            hide(console)
        if shown != seat:
            shown = drawn = None
        if thinking != seat:
            thinking = None
        name = game.players[seat]
        if seat in bots:
            thinking = bot_action(console, game, seat, bots[seat], thinking)
            if pace > 0 and not game.is_over:
                sleep(pace)
            continue
        if shown is None and people > 1:
            # TRANSLATORS: {name} is a player's name, shown in bold
            cover = _("Pass the screen to {name} and press Enter…", name=NAME)
            ask(console, Text.assemble("\n", named(cover, name, "bold"), " "))
        shown = seat
        view = game.view(seat)
        if drawn != (len(game.log), seat):  # a refusal, help or hint stays in sight
            draw(console, game, view)
            drawn = (len(game.log), seat)
        answers = [k for k in view.available if k in _ANSWERS]
        words = " / ".join(command_name(k) for k in view.available)
        asked = f" ({words})" if answers else ""
        line = typed_command(ask(console, Text.assemble((name, "bold"), f"{asked}> ")).strip())
        if not line:
            continue
        word = line.split()[0].lower()
        if word in ("help", "?"):
            hints_on = bool(view.house_rules.get("hints"))
            leaving = leaving_open(game, seat)
            console.print(Text(help_text(game.game_type, hints_on, view.available, leaving)))
        elif word in LEAVING_WORDS:
            _leave(console, game, line, seat, bots)
        elif word == "challenge":
            _challenge(console, game, line, seat, bots)
        elif word == "quit":
            # TRANSLATORS: 'y' is the answer yes (see the answer "y")
            asked = _("Save first? A file name, 'y' for a new file, Enter: no")
            file = ask(console, asked + " ").strip()
            if file:
                save(console, game, "" if is_yes(file, short=True) else file, levels)
            return
        elif word == "save":
            save(console, game, line[4:].strip(), levels)
        elif word == "hint":
            hint(console, game, view)
        elif word == "explain":
            explain(console, game, view, line.partition(" ")[2])
        elif word == "undo":
            try:
                game.undo(Shake.fresh().entropy)  # O5: the bag shaken, nothing drawn again
            except MathableError as exc:
                console.print(Text(clean(str(exc)), style="red"))
        else:
            refusal = play_line(game, line, seat)
            if refusal is not None:
                refused(console, refusal)
    draw(console, game, game.view(None))
    game_over(console, game)
    if any(s not in bots for s in range(len(game.players))):
        # TRANSLATORS: asked when a game is over; 'y' is the answer yes (see the answer "y")
        asked = _("Save the game? A file name, 'y' for a new file, Enter: no")
        file = ask(console, asked + " ").strip()
        if file:
            save(console, game, "" if is_yes(file, short=True) else file, levels)


def typed_actions(game: Game, line: str) -> list[Action]:
    """The actions of a typed line: one action, or a whole turn on one line (``F7=2
    F8=7``, ``F7=2,F8=7 fin``: :func:`~mathable.engine.notation.parse_actions`), command
    words in the player's language or in English. Raises NotationError."""
    line = typed_command(line)
    words = line.split(None, 1)
    if words and words[0].lower() not in ("exchange", *LEAVING_WORDS, "shake"):
        line = " ".join(i18n.command_word(word) for word in line.replace(",", " , ").split())
    return parse_actions(line, game.cell_names)


def play_line(game: Game, line: str, seat: int | None = None) -> str | None:
    """Play what ``seat`` (None: the seat to move) typed (:func:`typed_actions`): every
    action of the line, or none of them; None when played, else why the line is refused
    (the action at fault named when the line holds several). The engine decides who may
    act (:meth:`Game.play <mathable.engine.protocol.Game.play>`)."""
    try:
        actions = typed_actions(game, line)
    except MathableError as exc:
        return str(exc)
    if seat is None:
        seat = game.to_move
    if len(actions) > 1:  # tried on a copy first: a line is played whole or not at all
        trial = game.copy()
        for number, action in enumerate(list(actions)):
            written = game.format_action(action)
            try:
                trial.play(seat, action)
            except ActionRefused as exc:
                if not number or exc.kind not in ("over", "turn"):
                    return _(
                        "{action}: {reason} (nothing of the line was played)",
                        action=written,
                        reason=str(exc),
                    )
                if isinstance(action, EndTurn) and number == len(actions) - 1:
                    actions.pop()  # ``end`` after a turn that ended by itself: done already
                    break
                # TRANSLATORS: a turn typed on one line went on after the turn had ended
                return _(
                    "the turn was over before {action}: nothing of the line was played",
                    action=written,
                )
            except MathableError as exc:
                # TRANSLATORS: an action of a turn typed on one line (F8=7), then why it
                # is refused
                return _(
                    "{action}: {reason} (nothing of the line was played)",
                    action=written,
                    reason=str(exc),
                )
    try:
        for action in actions:
            game.play(seat, action)
    except MathableError as exc:
        return str(exc)
    return None


def _leave(console: Console, game: Game, line: str, seat: int, bots: Collection[int]) -> None:
    """A person's ``resign`` or ``abort``: confirmed (y), then played like any action."""
    request = leave_request(game, line, seat, bots)
    if isinstance(request, str):
        refused(console, request)
        return
    answer = ask(console, Text(leave_question(game, request) + " "))
    if not is_yes(answer):
        console.print(Text(_("Play goes on.")))
        return
    try:
        game.apply(request)
    except MathableError as exc:
        refused(console, str(exc))
        return
    console.print(Text(left_text(game, request) + "."))


def _challenge(console: Console, game: Game, line: str, seat: int, bots: Collection[int]) -> None:
    """A person's ``challenge`` (``challenge 2``, ``challenge Cy``: any opponent, C12)."""
    request = challenge_request(game, line, seat, bots)
    if isinstance(request, str):
        refused(console, request)
        return
    assert request.by is not None  # the seat typed, or the person at the screen
    finished = game.summaries()
    try:
        game.play(request.by, request)  # the engine decides whether that seat may (C12)
    except ActionRefused as exc:
        refused(console, challenge_refusal(game, request.by, exc))
        return
    except MathableError as exc:
        refused(console, str(exc))
        return
    assert finished  # a challenge is of the last finished turn
    # TRANSLATORS: a successful challenge (C12): who challenged, whose turn was cut short
    said = _(
        "{name} challenged: {maker}'s turn is cut short at its first mistake",
        name=game.players[request.by],
        maker=game.players[finished[-1].seat],
    )
    console.print(Text(said))
