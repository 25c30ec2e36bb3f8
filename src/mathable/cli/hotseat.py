"""A plain terminal game for people sharing one screen, and against computer players.

Each person's turn starts behind a cover prompt so one player never sees another's rack.
Players type actions in the notation (``I8=12``, ``J8=16+``; ``A=32`` on a pile),
``hint``, ``undo``, ``save FILE``, ``help`` or ``quit``; the screen offers exactly the
actions the view says the seat may use now. A seat named ``bot:LEVEL`` is a computer
player. Everything is drawn from the game's type and the seat's view, so any game of
the registry plays here unchanged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from mathable.ai import BOTS, seat_bots
from mathable.ai.hints import hints
from mathable.engine import records
from mathable.engine.actions import action_kind
from mathable.engine.errors import MathableError
from mathable.engine.protocol import Game, GameType, HouseRules, View
from mathable.games.registry import new_game
from mathable.render import panels

_ACTION_HELP = {
    "place": "put your {value} on {target}",
    "extra": "the same, taking the extra {piece} a restriction square allows (rule C7)",
    "end": "end your turn after placing (it ends by itself when you cannot go on)",
    "pass": "pass the whole turn",
    "exchange": "give back {these} for new ones",
    "challenge": "contest the last turn (table-referee house rule, C12)",
    "stop": "end the game, all players agreeing",
    "draw": "when you cannot play: draw a {piece}, then place it",
    "penalty": "after placing a drawn {piece}: take a penalty {piece} instead of exchanging",
    "diago": "announce DIAGO at the start of your turn: diagonals count",
}
"""What each action keyword does, in words filled in per game."""


def help_text(kind: GameType) -> str:
    """The commands of a game: the actions its type has, then the commands of this
    front end."""
    examples = panels.action_examples(kind)
    middle = kind.targets[len(kind.targets) // 2]
    place = f"{'pile ' if middle.kind == 'pile' else ''}{middle.name}"
    pieces = f"{kind.piece}s"
    these = f"this {kind.piece}" if kind.exchange_exactly == 1 else f"these {pieces}"
    words = {"value": 12, "target": place, "piece": kind.piece, "these": these}
    width = max(len(e) for e in (*examples.values(), "save FILE")) + 2
    lines = [f"{kind.title}: type one action at a time:"]
    for keyword, typed in examples.items():
        lines.append(f"  {typed:<{width}} {_ACTION_HELP[keyword].format(**words)}")
    lines += [
        f"  {'hint':<{width}} list your best turns",
        f"  {'undo':<{width}} take back the last action (if the house rule allows it)",
        f"  {'save FILE':<{width}} save the game record;  quit  stop (you are asked to save)",
    ]
    return "\n".join(lines)


def _ask(console: Console, prompt: str) -> str:
    try:
        return console.input(prompt)
    except EOFError:
        raise SystemExit(0) from None


def _ask_players(console: Console) -> list[str]:
    count = _ask(console, "How many players (2-4)? [2] ").strip() or "2"
    if not count.isdigit() or not 2 <= int(count) <= 4:
        console.print("2 players then.")
        count = "2"
    levels = ", ".join(BOTS)
    names = []
    for i in range(int(count)):
        name = _ask(console, f"Player {i + 1}: a name, or a computer level ({levels}): ")
        name = name.strip() or f"Player {i + 1}"
        names.append(f"bot:{name.lower()}" if name.lower() in BOTS else name)
    return names


def _view_extra(view: View, key: str) -> Any:
    """A field a game's view adds to the common ones (its JSON), or None."""
    return view.to_dict().get(key)


def run_hotseat(
    console: Console,
    *,
    players: str,
    seed: int | None,
    variant: str,
    referee: bool,
    undo: bool,
    resume: Game | None,
    strict: bool = False,
    rounds: int = 1,
) -> None:
    """Run a whole game at one screen."""
    if resume is not None:
        game = resume
        bots = seat_bots(list(game.players), seed)
    else:
        names = [n.strip() for n in players.split(",") if n.strip()] or _ask_players(console)
        try:
            bots = seat_bots(names, seed)
            game = new_game(
                variant,
                names,
                seed=seed,
                house_rules=HouseRules(table_referee=referee, allow_undo=undo, strict=strict),
                rounds=rounds,
            )
        except ValueError as exc:
            console.print(Text(str(exc), style="red"))
            return
        notice = game.view(None).notice
        if notice:
            console.print(Text(notice))
    people = len(game.players) - len(bots)
    covered_for: int | None = None
    while not game.is_over:
        seat = game.to_move
        name = escape(game.players[seat])
        if seat in bots:
            action = bots[seat].act(game.view(seat))
            console.print(f"[cyan]{name}[/]: {escape(game.format_action(action))}")
            game.apply(action)
            covered_for = None if people > 1 else covered_for
            continue
        if covered_for != seat and people > 1:
            _ask(console, f"\n[bold]Pass the screen to {name}[/] and press Enter… ")
            console.clear()
            covered_for = seat
        _draw(console, game, seat)
        line = _ask(console, f"{name}> ").strip()
        if not line:
            continue
        word = line.split()[0].lower()
        if word in ("help", "?"):
            console.print(Text(help_text(game.game_type)))
        elif word == "quit":
            file = _ask(console, "Save first? File name (Enter: no) ").strip()
            if file:
                _save(console, game, file)
            return
        elif word == "save":
            _save(console, game, line[4:].strip())
        elif word == "hint":
            _hint(console, game, seat)
        elif word == "undo":
            try:
                game.undo()
            except MathableError as exc:
                console.print(Text(str(exc), style="red"))
        else:
            try:
                game.apply(line)
            except MathableError as exc:
                console.print(Text.assemble(("refused:", "bold red"), f" {exc}"))
    _draw(console, game, None)
    winners = " and ".join(game.players[s] for s in game.winners())
    over = "Match over" if game.game_type.rounds else "Game over"
    console.print(Text.assemble((over, "bold"), f": {game.end_reason}. Winner: {winners}."))
    deducted = _view_extra(game.view(None), "deductions")
    if deducted and any(deducted):
        console.print(
            Text(
                f"Deducted for {game.game_type.piece}s left: "
                + ", ".join(f"{p} −{d}" for p, d in zip(game.players, deducted, strict=True))
            )
        )


def _draw(console: Console, game: Game, seat: int | None) -> None:
    """The surface, scores, last turn and, for a seat, its rack and what it may do."""
    kind = game.game_type
    view = game.view(seat)
    console.print(panels.view_surface(kind, view))
    to_move = None if view.over else view.to_move
    console.print(
        panels.scores_table(
            view.players,
            view.scores,
            to_move,
            view.rack_sizes,
            kind.score_unit,
            panels.holder(kind),
        )
    )
    console.print(f"{panels.supply(kind)}: {view.bag_size}   ", panels.player_card(view.unseen))
    if view.summaries:
        last = panels.summary_text(view.players, view.summaries[-1], kind)
        console.print(Text.assemble("last turn: ", last))
    if view.open_racks and not view.over:
        for other, rack in enumerate(view.open_racks):
            owner = f"{view.players[other]}'s {panels.holder(kind)} (face up): "
            console.print(Text(owner), panels.rack_text(rack))
    if view.status:
        console.print(Text(view.status))
    if seat is None:
        return
    if view.playable != view.rack:
        console.print("to place: ", panels.rack_text(view.playable))
    console.print(f"your {panels.holder(kind)}: ", panels.rack_text(view.rack))
    if view.available:
        console.print(panels.actions_text(view.available, _examples(game)))


def _examples(game: Game) -> dict[str, str]:
    """Per action keyword, the first legal action of that kind as it is typed (a
    reminder of the ``+`` where no extra token is on offer yet)."""
    found: dict[str, str] = {}
    for action in game.legal_actions():
        found.setdefault(action_kind(action), game.format_action(action))
    return {"extra": "extra (…+)", **found}


def _hint(console: Console, game: Game, seat: int) -> None:
    """The best turns for ``seat``, from its view only."""
    view = game.view(seat)
    found = hints(view, limit=5)
    if not found:
        others = [k for k in view.available if k not in ("place", "extra")]
        console.print("No placement possible" + (f": {' or '.join(others)}." if others else "."))
        return
    for hint in found:
        points = f"{hint.points:>4}  " if hint.points is not None else ""
        bonus = f"(+{hint.bonus} bonus) " if hint.bonus else ""
        keep = " ".join(map(str, hint.leave)) or "nothing"
        console.print(Text(f"{points}{bonus}{hint.notation}   keeps {keep}"))


def _save(console: Console, game: Game, name: str) -> None:
    if not name:
        console.print("save FILE: give a file name")
        return
    try:
        Path(name).write_text(records.dumps(game), encoding="utf-8")
        console.print(Text(f"saved to {name}; resume with: mathable play --resume {name}"))
    except OSError as exc:
        console.print(Text(f"cannot save: {exc}", style="red"))
