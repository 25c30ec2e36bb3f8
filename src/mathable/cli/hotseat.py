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
import unicodedata
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from mathable import i18n
from mathable.ai import BOTS, Bot, seat_bots
from mathable.ai.hints import hints
from mathable.engine import records
from mathable.engine.actions import (
    LEAVE_REASONS,
    Abort,
    Action,
    Challenge,
    EndTurn,
    Leave,
    Place,
    Shake,
    action_kind,
)
from mathable.engine.errors import MathableError
from mathable.engine.notation import parse_actions
from mathable.engine.protocol import Game, GameType, View, departure_text
from mathable.i18n import Text as Message
from mathable.i18n import (
    _,
    command_name,
    lazy,
    lazy_context,
    ngettext,
    pgettext,
    typed_command,
)
from mathable.render import panels

from . import oserrors

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


_ANSWERS = ("accept", "decline")
"""The keywords that answer a question put to the player to move (J4, C12)."""


LEFT_MARKS: dict[str, Message] = {
    # TRANSLATORS: beside a player's name in the scores: the player resigned
    "resign": lazy("resigned"),
    # TRANSLATORS: beside a player's name in the scores: the player's clock ran out
    "flag": lazy("out of time"),
    # TRANSLATORS: beside a player's name in the scores: an opponent claimed the game
    # after this player was gone too long
    "claim": lazy("claimed"),
}
"""How a seat that left is marked beside its name (the view's ``left``, local ruling L1),
translated when shown."""

# TRANSLATORS: beside a player's name in the scores: the player left the game
LEFT_MARK = lazy("left")
"""The mark of a seat that left for a reason :data:`LEFT_MARKS` does not know."""

LEAVING_WORDS = (*LEAVE_REASONS, "abort")
"""The typed words that leave a game or call it off (``resign``, ``abort``; ``flag`` and
``claim`` belong to the online clock and are refused at one screen)."""


def left_names(players: Sequence[str], left: Sequence[str]) -> tuple[str, ...]:
    """The players' names, a seat that left marked: ``Ann (resigned)``."""
    return tuple(
        # TRANSLATORS: a player's name and why they left the game: Ann (resigned)
        _("{name} ({mark})", name=name, mark=LEFT_MARKS.get(why, LEFT_MARK)) if why else name
        for name, why in zip(players, left, strict=True)
    )


def leaving_open(game: Game, seat: int | None) -> tuple[str, ...]:
    """What ``seat`` may type to leave now: ``resign``, and ``abort`` while the engine
    allows it (L1); nothing for a computer seat's turn or a seat out of the game."""
    if not game.can_leave(seat):
        return ()
    return ("resign", "abort") if game.can_abort(seat) else ("resign",)


def leave_request(
    game: Game, line: str, seat: int | None, computers: Collection[int]
) -> Leave | Abort | str:
    """The :class:`Leave` or :class:`Abort` a person typed (``resign``, ``abort``, for
    ``seat`` or for the seat or name after the word), or why it is refused."""
    words = typed_command(line).split(maxsplit=1)
    keyword = words[0].lower()
    if keyword not in ("resign", "abort"):
        return _(
            "{word} is for online games with a clock: at one screen, type {resign}",
            word=keyword,
            resign=command_name("resign"),
        )
    word = command_name(keyword)
    found = _whose(game, words, seat, word)
    if isinstance(found, str):
        return found
    seat = found
    name = game.players[seat]
    if seat in computers:
        return _("{name} is a computer player: computers never resign", name=name)
    if game.is_over:
        return _("the game is over")
    if not game.can_leave(seat):
        return _("{name} has left the game already", name=name)
    if keyword == "abort":
        if not game.can_abort(seat):
            return _(
                "a game is aborted only before each player has moved: {resign} instead",
                resign=command_name("resign"),
            )
        return Abort(seat)
    return Leave(seat, "resign")


def _whose(game: Game, words: Sequence[str], seat: int | None, word: str) -> int | str:
    """The seat a typed command is for: the seat or name after the command word (in
    ``words``), else ``seat``; or why none is (``word``: the command as typed)."""
    if len(words) > 1:
        who = words[1].strip()
        named = [s for s, p in enumerate(game.players) if p.casefold() == who.casefold()]
        if who.isascii() and who.isdigit() and int(who) < len(game.players):
            return int(who)
        if named:
            return named[0]
        # TRANSLATORS: {word} is resign, abort or challenge, as the player types it
        return _(
            "no player {name} here: type {word}, or {word} and a seat from 0",
            name=repr(clean(who)),
            word=word,
        )
    if seat is None:
        # TRANSLATORS: {word} is resign, abort or challenge, as the player types it
        return _("whose? type {word} and the seat from 0, like {word} 0", word=word)
    return seat


def challenge_request(
    game: Game, line: str, seat: int | None, computers: Collection[int]
) -> Challenge | str:
    """The :class:`Challenge` a person typed at one screen (C12: any opponent of the
    player who made the turn may challenge it, whoever is to move, as on the web): for
    ``seat`` (the person at the screen), or for the seat or name after the word
    (``challenge 2``, ``challenge Cy``); or why it is refused. The engine says the rest
    (the maker, a seat that left, nothing to challenge)."""
    words = typed_command(line).split(maxsplit=1)
    found = _whose(game, words, seat, command_name("challenge"))
    if isinstance(found, str):
        return found
    if not game.house_rules.table_referee:
        return _("there are no challenges without the table-referee house rule (C12)")
    if found in computers:
        return _(
            "{name} is a computer player: it challenges on its own when asked",
            name=game.players[found],
        )
    return Challenge(by=found)


def leave_question(game: Game, action: Leave | Abort) -> str:
    """The question a leaving is confirmed with: ``Ann resigns: sure? y/n``."""
    name = game.players[action.seat]
    if isinstance(action, Abort):
        # TRANSLATORS: y/n: the answers yes and no (see the answer "y")
        return _("{name} aborts the game (nobody wins): sure? y/n", name=name)
    # TRANSLATORS: y/n: the answers yes and no (see the answer "y")
    return _("{name} resigns: sure? y/n", name=name)


def left_text(game: Game, action: Leave | Abort) -> str:
    """A leaving in words, once played: ``Ann resigned``, ``Ann aborted the game``."""
    name = game.players[action.seat]
    if isinstance(action, Abort):
        return _("{name} aborted the game", name=name)
    return departure_text(name, action.reason)


def names_and(names: Sequence[str]) -> str:
    """Names in a sentence: ``Ann``, ``Ann and Bob``, ``Ann and Bob and Cy``."""
    said = ""
    for name in names:
        # TRANSLATORS: two names (or a list of names and one more) joined: Ann and Bob
        said = _("{first} and {second}", first=said, second=name) if said else name
    return said


def winners_text(game: Game) -> str:
    """`` Winner: Ann.`` after the end of a game, or '' when nobody won (an abort)."""
    winners = [game.players[s] for s in game.winners()]
    return " " + _("Winner: {names}.", names=names_and(winners)) if winners else ""


def over_text(game: Game) -> str:
    """The end of a game in words: how it ended and who won (nobody after an abort)."""
    if game.game_type.rounds:
        # TRANSLATORS: the end of a match of several rounds, then why it ended
        over = _("Match over: {reason}.", reason=game.end_reason)
    else:
        # TRANSLATORS: the end of a game, then why it ended
        over = _("Game over: {reason}.", reason=game.end_reason)
    return over + winners_text(game)


def clean(text: str) -> str:
    """``text`` with control characters written as escapes (``\\n``, ``\\x1b``): an
    echo of typed text stays on its line and cannot drive the terminal."""
    return "".join(repr(c)[1:-1] if unicodedata.category(c) in ("Cc", "Cs") else c for c in text)


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


_NAME = "\0"
"""What a message's ``{name}`` is filled with where the name is shown in its own style
(:func:`_named`)."""


def _named(message: str, name: str, style: str) -> Text:
    """A message whose ``{name}`` was filled with :data:`_NAME`, the name put in its
    place in ``style`` (the name as typed, never read as markup)."""
    before, _mark, after = message.partition(_NAME)
    return Text.assemble(before, (name, style), after)


def _ask(console: Console, prompt: str | Text) -> str:
    """A line typed at ``prompt``; the end of input ends the game as ``quit`` would."""
    try:
        return console.input(Text(prompt) if isinstance(prompt, str) else prompt)
    except EOFError:
        raise SystemExit(0) from None


def ask_game(console: Console, kind: GameType, start: Callable[[list[str]], Game]) -> Game:
    """Ask for the players, then start the game with ``start(names)``; names the game
    refuses are asked for again, with the reason."""
    low, high = kind.min_players, kind.max_players
    levels = ", ".join(BOTS)
    while True:
        # TRANSLATORS: {low}-{high}: the fewest and the most players; [{low}]: the number
        # taken when Enter is pressed
        asked = _("How many players ({low}-{high})? [{low}]", low=low, high=high) + " "
        count = _ask(console, asked).strip() or str(low)
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
            name = _ask(console, prompt + " ")
            name = name.strip() or _("Player {number}", number=i + 1)
            names.append(f"bot:{name.lower()}" if name.lower() in BOTS else name)
        try:
            return start(names)
        except ValueError as exc:  # MathableError included
            console.print(Text(clean(str(exc)), style="red"))


def _view_extra(view: View, key: str) -> Any:
    """A field a game's view adds to the common ones (its JSON), or None."""
    return view.to_dict().get(key)


def _hide(console: Console) -> None:
    """Take the last player's rack off the screen: clear a terminal and its scrollback,
    scroll anything else a screen's height."""
    if console.is_terminal:
        console.clear()
        console.file.write("\x1b[3J")  # the scrollback too
        console.file.flush()
    else:
        console.print("\n" * console.height, end="")


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
            _hide(console)
        if shown != seat:
            shown = drawn = None
        if thinking != seat:
            thinking = None
        name = game.players[seat]
        if seat in bots:
            thinking = _bot_action(console, game, seat, bots[seat], thinking)
            if pace > 0 and not game.is_over:
                sleep(pace)
            continue
        if shown is None and people > 1:
            # TRANSLATORS: {name} is a player's name, shown in bold
            cover = _("Pass the screen to {name} and press Enter…", name=_NAME)
            _ask(console, Text.assemble("\n", _named(cover, name, "bold"), " "))
        shown = seat
        view = game.view(seat)
        if drawn != (len(game.log), seat):  # a refusal, help or hint stays in sight
            _draw(console, game, view)
            drawn = (len(game.log), seat)
        answers = [k for k in view.available if k in _ANSWERS]
        words = " / ".join(command_name(k) for k in view.available)
        asked = f" ({words})" if answers else ""
        line = typed_command(_ask(console, Text.assemble((name, "bold"), f"{asked}> ")).strip())
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
            file = _ask(console, asked + " ").strip()
            if file:
                _save(console, game, "" if _is_yes(file, short=True) else file, levels)
            return
        elif word == "save":
            _save(console, game, line[4:].strip(), levels)
        elif word == "hint":
            _hint(console, game, view)
        elif word == "explain":
            _explain(console, game, view, line.partition(" ")[2])
        elif word == "undo":
            try:
                game.undo(Shake.fresh().entropy)  # O5: the bag shaken, nothing drawn again
            except MathableError as exc:
                console.print(Text(clean(str(exc)), style="red"))
        else:
            refusal = play_line(game, line)
            if refusal is not None:
                _refused(console, refusal)
    _draw(console, game, game.view(None))
    _game_over(console, game)
    if any(s not in bots for s in range(len(game.players))):
        # TRANSLATORS: asked when a game is over; 'y' is the answer yes (see the answer "y")
        asked = _("Save the game? A file name, 'y' for a new file, Enter: no")
        file = _ask(console, asked + " ").strip()
        if file:
            _save(console, game, "" if _is_yes(file, short=True) else file, levels)


def typed_actions(game: Game, line: str) -> list[Action]:
    """The actions of a typed line: one action, or a whole turn on one line (``F7=2
    F8=7``, ``F7=2,F8=7 fin``: :func:`~mathable.engine.notation.parse_actions`), command
    words in the player's language or in English. Raises NotationError."""
    line = typed_command(line)
    words = line.split(None, 1)
    if words and words[0].lower() not in ("exchange", *LEAVING_WORDS, "shake"):
        line = " ".join(i18n.command_word(word) for word in line.replace(",", " , ").split())
    return parse_actions(line, game.cell_names)


def play_line(game: Game, line: str) -> str | None:
    """Play what a player typed (:func:`typed_actions`): every action of the line, or
    none of them; None when played, else why the line is refused (the action at fault
    named when the line holds several)."""
    try:
        actions = typed_actions(game, line)
    except MathableError as exc:
        return str(exc)
    if len(actions) > 1:  # tried on a copy first: a line is played whole or not at all
        trial, seat = game.copy(), game.to_move
        for number, action in enumerate(list(actions)):
            written = game.format_action(action)
            over = trial.is_over or trial.to_move != seat
            if over and isinstance(action, EndTurn) and number == len(actions) - 1:
                actions.pop()  # ``end`` after a turn that ended by itself: done already
                break
            if number and over:
                # TRANSLATORS: a turn typed on one line went on after the turn had ended
                return _(
                    "the turn was over before {action}: nothing of the line was played",
                    action=written,
                )
            try:
                trial.apply(action)
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
            game.apply(action)
    except MathableError as exc:
        return str(exc)
    return None


def _leave(console: Console, game: Game, line: str, seat: int, bots: Collection[int]) -> None:
    """A person's ``resign`` or ``abort``: confirmed (y), then played like any action."""
    request = leave_request(game, line, seat, bots)
    if isinstance(request, str):
        _refused(console, request)
        return
    answer = _ask(console, Text(leave_question(game, request) + " "))
    if not _is_yes(answer):
        console.print(Text(_("Play goes on.")))
        return
    try:
        game.apply(request)
    except MathableError as exc:
        _refused(console, str(exc))
        return
    console.print(Text(left_text(game, request) + "."))


def _challenge(console: Console, game: Game, line: str, seat: int, bots: Collection[int]) -> None:
    """A person's ``challenge`` (``challenge 2``, ``challenge Cy``: any opponent, C12)."""
    request = challenge_request(game, line, seat, bots)
    if isinstance(request, str):
        _refused(console, request)
        return
    finished = game.summaries()
    try:
        game.apply(request)
    except MathableError as exc:
        _refused(console, str(exc))
        return
    assert request.by is not None and finished  # a challenge is of the last finished turn
    # TRANSLATORS: a successful challenge (C12): who challenged, whose turn was cut short
    said = _(
        "{name} challenged: {maker}'s turn is cut short at its first mistake",
        name=game.players[request.by],
        maker=game.players[finished[-1].seat],
    )
    console.print(Text(said))


def _refused(console: Console, reason: str) -> None:
    """A refusal of what a player typed, with its reason: ``refused: …``."""
    # TRANSLATORS: before the reason a typed action is refused
    console.print(Text.assemble((_("refused:"), "bold red"), f" {clean(reason)}"))


def _is_yes(answer: str, short: bool = False) -> bool:
    """Whether a typed answer says yes: ``y`` or ``yes`` (only ``y`` if ``short``), in
    English or in the player's language."""
    said = i18n.folded(answer)
    # TRANSLATORS: the one-letter answer yes, typed to confirm (y/n)
    yes = {"y", i18n.folded(pgettext("answer", "y"))}
    if not short:
        # TRANSLATORS: the answer yes, typed to confirm
        yes |= {"yes", i18n.folded(pgettext("answer", "yes"))}
    return said in yes


def _bot_action(console: Console, game: Game, seat: int, bot: Bot, thinking: int | None) -> int:
    """One action of a computer player, shown as it is played; a "thinking" mark opens
    its turn (a spinner while it searches, on a terminal)."""
    name = game.players[seat]
    if thinking != seat:
        # TRANSLATORS: a computer player's name, shown in bold, then this
        thinking_text = _("{name} is thinking…", name=_NAME)
        console.print(_named(thinking_text, name, "bold cyan"))
    view = game.view(seat)
    if console.is_terminal:
        with console.status(Text(_("{name} is thinking…", name=name))):
            action = bot.act(view)
    else:
        action = bot.act(view)
    console.print(Text.assemble((name, "cyan"), f": {game.format_action(action)}"))
    game.apply(action)
    return seat


def _game_over(console: Console, game: Game) -> None:
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


def _draw(console: Console, game: Game, view: View) -> None:
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


def explain_cell(game: Game, view: View, typed: str) -> tuple[list[str], bool]:
    """Issue 18, ``explain I8``: the explanation of the piece on that cell or pile (the
    most recent finished turn that placed it) or, on an empty cell (or a pile whose top
    no turn explains), what each piece the seat places from now would make there
    (equations and points, C3-C6, Q2). Lines to show, and whether the target was refused.
    The terminal game and the Textual app both answer with it."""
    try:
        cell = game.cell_names.parse(typed[:20])
    except MathableError as exc:
        return [str(exc)], True
    name, here = game.cell_names.name(cell), view.surface[cell]
    for turn in reversed(game.explain_turns()):
        for explained in turn:
            if explained.target == name and explained.value == here:
                return [explained.text()], False
    log = game.log
    for index in range(len(log) - 1, -1, -1):  # placed in the turn still being played
        action = log[index]
        if isinstance(action, Place) and action.cell == cell and action.value == here:
            try:
                return [game.replayed(index).explain(action).text()], False
            except NotImplementedError:
                break
    if here != -1 and game.game_type.surface == "board":
        # TRANSLATORS: a cell's name, and its value: no turn placed it (a printed token)
        return [_("{cell} holds {value}: no turn placed it", cell=name, value=here)], False
    found = [game.explain(Place(cell, value)) for value in sorted(set(view.playable))]
    legal = [e for e in found if e.legal]
    if not legal:
        return [_("None of your pieces goes on {cell}.", cell=name)], False
    # TRANSLATORS: a placement in the notation (I8=12), then its explanation
    return [
        _("{placement}: {explanation}", placement=f"{name}={e.value}", explanation=e.text())
        for e in legal
    ], False


def _explain(console: Console, game: Game, view: View, typed: str) -> None:
    """Print :func:`explain_cell`'s answer (a refusal as refusals are shown)."""
    lines, refused = explain_cell(game, view, typed)
    if refused:
        _refused(console, lines[0])
        return
    for line in lines:
        console.print(Text(line))


def _hint(console: Console, game: Game, view: View) -> None:
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
    for hint in found:
        console.print(Text(_hint_line(hint.points, hint.bonus, hint.notation, hint.leave)))


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


def _save(console: Console, game: Game, name: str, levels: Mapping[int, str]) -> None:
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
                answer = _ask(console, Text(asked + " "))
                if not _is_yes(answer):
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
