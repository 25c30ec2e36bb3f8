"""A plain terminal game for people sharing one screen, and against computer players.

Each person's turn starts behind a cover: the screen is cleared (scrolled away when it is
no terminal) as soon as a player's turn ends, and the next player presses Enter, so one
player never sees another's rack. Players type actions in the notation (``I8=12``,
``J8=16+``; ``A=32`` on a pile), ``hint``, ``undo``, ``save [FILE]``, ``help`` or
``quit``, and ``resign`` or ``abort`` (local ruling L1, asked to confirm; any person
still in may, the engine allowing, naming the seat: ``resign 2`` or ``resign Cy``); the
screen offers exactly the actions the view says the seat may use now
(``accept``/``decline`` when a proposal waits for an answer). A seat named ``bot:LEVEL``
is a computer player; each of its actions is shown as it plays. Everything is drawn from
the game's type and the seat's view, so any game of the registry plays here unchanged.
Whatever a player typed is printed as typed (rich ``Text``, never markup).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from mathable.ai import BOTS, Bot, seat_bots
from mathable.ai.hints import hints
from mathable.engine import records
from mathable.engine.actions import LEAVE_REASONS, Abort, Leave, action_kind
from mathable.engine.errors import MathableError
from mathable.engine.protocol import Game, GameType, View, departure_text
from mathable.render import panels

_ACTION_HELP = {
    "place": "put your {value} on {target}",
    "extra": "the same, taking the extra {piece} a restriction square allows (rule C7)",
    "end": "end your turn after placing (it ends by itself when you cannot go on)",
    "pass": "pass the whole turn",
    "exchange": "give back {these} for new ones",
    "challenge": "contest the last turn (table-referee house rule, C12)",
    "stop": "propose to end the game; it ends when every other player accepts",
    "accept": "agree to the proposal (stop the game / let the last turn stand)",
    "decline": "refuse the proposal to stop; play goes on",
    "draw": "when you cannot play: draw a {piece}, then place it",
    "penalty": "after placing a drawn {piece}: take a penalty {piece} instead of exchanging",
    "diago": "announce DIAGO at the start of your turn: diagonals count",
}
"""What each action keyword does, in words filled in per game."""

_ANSWERS = ("accept", "decline")
"""The keywords that answer a question put to the player to move (J4, C12)."""


LEFT_MARKS = {"resign": "resigned", "flag": "out of time", "claim": "claimed"}
"""How a seat that left is marked beside its name (the view's ``left``, local ruling L1)."""

LEAVING_WORDS = (*LEAVE_REASONS, "abort")
"""The typed words that leave a game or call it off (``resign``, ``abort``; ``flag`` and
``claim`` belong to the online clock and are refused at one screen)."""


def left_names(players: Sequence[str], left: Sequence[str]) -> tuple[str, ...]:
    """The players' names, a seat that left marked: ``Ann (resigned)``."""
    return tuple(
        f"{name} ({LEFT_MARKS.get(why, 'left')})" if why else name
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
    words = line.split(maxsplit=1)
    keyword = words[0].lower()
    if keyword not in ("resign", "abort"):
        return f"{keyword} is for online games with a clock: at one screen, type resign"
    if len(words) > 1:
        who = words[1].strip()
        named = [s for s, p in enumerate(game.players) if p.casefold() == who.casefold()]
        if who.isascii() and who.isdigit() and int(who) < len(game.players):
            seat = int(who)
        elif named:
            seat = named[0]
        else:
            return f"no player {clean(who)!r} here: type {keyword}, or {keyword} and a seat from 0"
    if seat is None:
        return f"whose? type {keyword} and the seat from 0, like {keyword} 0"
    name = game.players[seat]
    if seat in computers:
        return f"{name} is a computer player: computers never resign"
    if game.is_over:
        return "the game is over"
    if not game.can_leave(seat):
        return f"{name} has left the game already"
    if keyword == "abort":
        if not game.can_abort(seat):
            return "a game is aborted only before each player has moved: resign instead"
        return Abort(seat)
    return Leave(seat, "resign")


def leave_question(game: Game, action: Leave | Abort) -> str:
    """The question a leaving is confirmed with: ``Ann resigns: sure? y/n``."""
    name = game.players[action.seat]
    if isinstance(action, Abort):
        return f"{name} aborts the game (nobody wins): sure? y/n"
    return f"{name} resigns: sure? y/n"


def left_text(game: Game, action: Leave | Abort) -> str:
    """A leaving in words, once played: ``Ann resigned``, ``Ann aborted the game``."""
    name = game.players[action.seat]
    if isinstance(action, Abort):
        return f"{name} aborted the game"
    return departure_text(name, action.reason)


def over_text(game: Game) -> str:
    """The end of a game in words: how it ended and who won (nobody after an abort)."""
    winners = " and ".join(game.players[s] for s in game.winners())
    over = "Match over" if game.game_type.rounds else "Game over"
    return f"{over}: {game.end_reason}." + (f" Winner: {winners}." if winners else "")


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
    examples.update((k, k) for k in available if k not in examples and k in _ACTION_HELP)
    middle = kind.targets[len(kind.targets) // 2]
    place = f"{'pile ' if middle.kind == 'pile' else ''}{middle.name}"
    pieces = f"{kind.piece}s"
    these = f"this {kind.piece}" if kind.exchange_exactly == 1 else f"these {pieces}"
    words = {"value": 12, "target": place, "piece": kind.piece, "these": these}
    width = max(len(e) for e in (*examples.values(), "save [FILE]")) + 2
    lines = [f"{kind.title}: type one action at a time:"]
    for keyword, typed in examples.items():
        lines.append(f"  {typed:<{width}} {_ACTION_HELP.get(keyword, '').format(**words)}")
    if hints_on:
        lines.append(f"  {'hint':<{width}} list your best turns")
    if "resign" in leaving:
        lines.append(f"  {'resign':<{width}} leave the game for good (asked to confirm)")
    if "abort" in leaving:
        lines.append(f"  {'abort':<{width}} call the game off: nobody wins (before all moved)")
    lines += [
        f"  {'undo':<{width}} take back the last action (if the house rule allows it)",
        f"  {'save [FILE]':<{width}} save the game record (a new file unless you name one)",
        f"  {'quit':<{width}} stop playing (you are asked whether to save first)",
    ]
    return "\n".join(lines)


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
        count = _ask(console, f"How many players ({low}-{high})? [{low}] ").strip() or str(low)
        if not count.isdigit() or not low <= int(count) <= high:
            console.print(Text(f"{low} players then."))
            count = str(low)
        names = []
        for i in range(int(count)):
            name = _ask(console, f"Player {i + 1}: a name, or a computer level ({levels}): ")
            name = name.strip() or f"Player {i + 1}"
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
) -> None:
    """Play ``game`` to its end at one screen (computer players seeded from ``seed``:
    seats named ``bot:LEVEL``, and ``levels`` by seat, as a resumed record's ``bots``)."""
    bots = seat_bots(list(game.players), seed, levels)
    levels = {seat: bot.name for seat, bot in bots.items()}  # written in saved records
    notice = game.view(None).notice
    if notice:
        console.print(Text(notice))
    shown: int | None = None  # the seat whose rack is on screen
    thinking: int | None = None  # the computer seat whose turn is being shown
    while not game.is_over:
        seat = game.to_move
        people = sum(1 for s in game.seats_in if s not in bots)
        if shown is not None and shown != seat and people > 1:
            _hide(console)
        if shown != seat:
            shown = None
        if thinking != seat:
            thinking = None
        name = game.players[seat]
        if seat in bots:
            thinking = _bot_action(console, game, seat, bots[seat], thinking)
            continue
        if shown is None and people > 1:
            _ask(
                console,
                Text.assemble("\nPass the screen to ", (name, "bold"), " and press Enter… "),
            )
        shown = seat
        view = game.view(seat)
        _draw(console, game, view)
        answers = [k for k in view.available if k in _ANSWERS]
        asked = f" ({' / '.join(view.available)})" if answers else ""
        line = _ask(console, Text.assemble((name, "bold"), f"{asked}> ")).strip()
        if not line:
            continue
        word = line.split()[0].lower()
        if word in ("help", "?"):
            hints_on = bool(view.house_rules.get("hints"))
            leaving = leaving_open(game, seat)
            console.print(Text(help_text(game.game_type, hints_on, view.available, leaving)))
        elif word in LEAVING_WORDS:
            _leave(console, game, line, seat, bots)
        elif word == "quit":
            file = _ask(console, "Save first? A file name, 'y' for a new file, Enter: no ")
            if file.strip():
                _save(console, game, "" if file.strip().lower() == "y" else file.strip(), levels)
            return
        elif word == "save":
            _save(console, game, line[4:].strip(), levels)
        elif word == "hint":
            _hint(console, game, view)
        elif word == "undo":
            try:
                game.undo()
            except MathableError as exc:
                console.print(Text(clean(str(exc)), style="red"))
        else:
            try:
                game.apply(line)
            except MathableError as exc:
                console.print(Text.assemble(("refused:", "bold red"), f" {clean(str(exc))}"))
    _draw(console, game, game.view(None))
    _game_over(console, game)


def _leave(console: Console, game: Game, line: str, seat: int, bots: Collection[int]) -> None:
    """A person's ``resign`` or ``abort``: confirmed (y), then played like any action."""
    request = leave_request(game, line, seat, bots)
    if isinstance(request, str):
        console.print(Text.assemble(("refused:", "bold red"), f" {clean(request)}"))
        return
    answer = _ask(console, Text(leave_question(game, request) + " "))
    if answer.strip().lower() not in ("y", "yes"):
        console.print(Text("Play goes on."))
        return
    try:
        game.apply(request)
    except MathableError as exc:
        console.print(Text.assemble(("refused:", "bold red"), f" {clean(str(exc))}"))
        return
    console.print(Text(left_text(game, request) + "."))


def _bot_action(console: Console, game: Game, seat: int, bot: Bot, thinking: int | None) -> int:
    """One action of a computer player, shown as it is played; a "thinking" mark opens
    its turn (a spinner while it searches, on a terminal)."""
    name = game.players[seat]
    if thinking != seat:
        console.print(Text.assemble((name, "bold cyan"), " is thinking…"))
    view = game.view(seat)
    if console.is_terminal:
        with console.status(Text(f"{name} is thinking…")):
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
    over, _, rest = over_text(game).partition(":")
    console.print(Text.assemble((over, "bold"), f":{rest}"))
    racks = view.open_racks or tuple(game.rack(s) for s in range(len(game.players)))
    deducted = _view_extra(view, "deductions") if kind.deducts_rack else None
    console.print(Text(f"{panels.holder(kind).capitalize()}s left:"))
    for seat, name in enumerate(game.players):
        line = Text(f"  {name}: ")
        line.append_text(panels.rack_text(racks[seat]) if racks[seat] else Text("empty"))
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
        Text(f"{panels.supply(kind)}: {view.bag_size}   "), panels.player_card(view.unseen)
    )
    if view.summaries:
        last = panels.summary_text(view.players, view.summaries[-1], kind)
        console.print(Text.assemble("last turn: ", last))
    if view.open_racks and not view.over:
        console.print(Text(f"{panels.holder(kind)}s face up:"))
        for other, rack in enumerate(view.open_racks):
            console.print(Text(f"  {view.players[other]}: "), panels.rack_text(rack))
    if view.status:
        console.print(Text(view.status))
    if view.seat is None:
        return
    if view.playable != view.rack:
        console.print(Text("to place: "), panels.rack_text(view.playable))
    console.print(Text(f"your {panels.holder(kind)}: "), panels.rack_text(view.rack))
    if view.available:
        console.print(panels.actions_text(view.available, _examples(game)))
    leaving = leaving_open(game, view.seat)
    if leaving:
        console.print(Text(f"or: {'   '.join(leaving)}", style="dim"))


def _examples(game: Game) -> dict[str, str]:
    """Per action keyword, the first legal action of that kind as it is typed (a
    reminder of the ``+`` where no extra token is on offer yet)."""
    found: dict[str, str] = {}
    for action in game.legal_actions():
        found.setdefault(action_kind(action), game.format_action(action))
    return {"extra": "extra (…+)", **found}


def _hint(console: Console, game: Game, view: View) -> None:
    """The best turns for the seat of ``view``, from that view only, where the house
    rules allow hints (O2)."""
    if not view.house_rules.get("hints"):
        console.print(Text("No hints in this game: the house rules have them off (O2)."))
        return
    found = hints(view, limit=5)
    if not found:
        others = [k for k in view.available if k not in ("place", "extra")]
        console.print(
            Text("No placement possible" + (f": {' or '.join(others)}." if others else "."))
        )
        return
    for hint in found:
        points = f"{hint.points:>4}  " if hint.points is not None else ""
        bonus = f"(+{hint.bonus} bonus) " if hint.bonus else ""
        keep = " ".join(map(str, hint.leave)) or "nothing"
        console.print(Text(f"{points}{bonus}{hint.notation}   keeps {keep}"))


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
                    console.print(Text(f"cannot save: {clean(name)} is a folder", style="red"))
                    return
                answer = _ask(console, Text(f"{clean(name)} exists: replace it? [y/N] "))
                if answer.strip().lower() not in ("y", "yes"):
                    console.print(Text("not saved"))
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
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        console.print(Text(f"cannot save: {clean(reason)}", style="red"))
        return
    shown = clean(str(path))
    console.print(Text(f"saved to {shown}; resume with: mathable play --resume {shown}"))
