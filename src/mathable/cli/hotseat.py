"""A plain terminal game for people sharing one screen (before the full-screen app).

Each turn starts behind a cover prompt so one player never sees another's rack. Players
type placements (``I8=12``, ``J8=16+``), ``end``, ``pass``, ``exchange 3,5``, ``hint``,
``undo``, ``save FILE``, ``help`` or ``quit``.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from mathable.core import records
from mathable.core.errors import MathableError
from mathable.core.game import Game, HouseRules
from mathable.core.variants import Variant

from . import render

HELP = """Type one action at a time:
  I8=12      put your 12 on I8 (column letter, row number)
  J8=16+     the same on a restriction square, taking the extra token (rule C7)
  end        end your turn after placing (it ends by itself when you cannot go on)
  pass       pass the whole turn
  exchange 3,5   give back these tokens for new ones (the whole turn)
  challenge  contest the last turn (table-referee house rule, C12)
  stop       end the game, all players agreeing (Mathable Junior, J4)
  hint       list your best placements
  undo       take back the last action (if the house rule allows it)
  save FILE  save the game record;  quit  stop (you are asked to save)"""


def _ask(console: Console, prompt: str) -> str:
    try:
        return console.input(prompt)
    except EOFError:
        raise SystemExit(0) from None


def run_hotseat(
    console: Console,
    *,
    players: str,
    seed: int | None,
    variant: Variant,
    referee: bool,
    undo: bool,
    resume: Game | None,
    strict: bool = False,
) -> None:
    """Run a whole game at one screen."""
    if resume is not None:
        game = resume
    else:
        names = [n.strip() for n in players.split(",") if n.strip()]
        if not names:
            count = _ask(console, "How many players (2-4)? [2] ").strip() or "2"
            if not count.isdigit() or not 2 <= int(count) <= 4:
                console.print("2 players then.")
                count = "2"
            names = [
                _ask(console, f"Name of player {i + 1}: ").strip() or f"Player {i + 1}"
                for i in range(int(count))
            ]
        try:
            game = Game(
                variant,
                names,
                seed=seed,
                house_rules=HouseRules(table_referee=referee, allow_undo=undo, strict=strict),
            )
        except ValueError as exc:
            console.print(f"[red]{exc}[/]")
            return
        draws = ", ".join(f"{game.players[s]} drew {v}" for s, v in game.start_draws)
        console.print(f"Drawing for the start: {draws}. {game.players[game.to_move]} starts.")
    covered_for: int | None = None
    while not game.is_over:
        seat = game.to_move
        if covered_for != seat and len(game.players) > 1:
            _ask(console, f"\n[bold]Pass the screen to {game.players[seat]}[/] and press Enter… ")
            console.clear()
            covered_for = seat
        _draw(console, game, seat)
        line = _ask(console, f"{game.players[seat]}> ").strip()
        if not line:
            continue
        word = line.split()[0].lower()
        if word in ("help", "?"):
            console.print(HELP)
        elif word == "quit":
            name = _ask(console, "Save first? File name (Enter: no) ").strip()
            if name:
                _save(console, game, name)
            return
        elif word == "save":
            _save(console, game, line[4:].strip())
        elif word == "hint":
            _hint(console, game)
        elif word == "undo":
            try:
                game.undo()
            except MathableError as exc:
                console.print(f"[red]{exc}[/]")
        else:
            try:
                game.apply(line)
            except MathableError as exc:
                console.print(f"[bold red]refused:[/] {exc}")
    _draw(console, game, None)
    winners = " and ".join(game.players[s] for s in game.winners())
    console.print(f"[bold]Game over[/]: {game.end_reason}. Winner: {winners}.")
    if any(game.deductions):
        console.print(
            "Deducted for tokens left: "
            + ", ".join(f"{p} −{d}" for p, d in zip(game.players, game.deductions, strict=True))
        )


def _draw(console: Console, game: Game, seat: int | None) -> None:
    view = game.view(seat)
    highlight = {p.cell for p in game.turns[-1].placements} if game.turns else set()
    highlight |= {p.cell for p in view.turn_placements}
    console.print(render.board_text(game.variant.layout, view.board, highlight))
    console.print(render.legend())
    console.print(render.scores_table(view.players, view.scores, view.to_move, view.rack_sizes))
    console.print(f"bag: {view.bag_size}   ", render.player_card(view.unseen))
    if game.turns:
        last = game.turns[-1]
        grid = game.board.grid
        if last.kind == "place":
            what = " ".join(f"{grid.name(p.cell)}={p.value}" for p in last.placements)
            bonus = f" (+{last.bonus} bonus)" if last.bonus else ""
            console.print(f"last turn: {game.players[last.seat]} {what} for {last.points}{bonus}")
        else:
            console.print(
                f"last turn: {game.players[last.seat]} {last.kind}"
                + (f" {last.exchanged}" if last.exchanged else "")
            )
    if view.open_racks and not view.over:
        for other, rack in enumerate(view.open_racks):
            console.print(f"{view.players[other]}'s tiles (face up): ", render.rack_text(rack))
    if seat is not None:
        if view.turn_placements:
            console.print(f"this turn: {view.turn_points} points so far")
        console.print("your rack: ", render.rack_text(view.rack))


def _hint(console: Console, game: Game) -> None:
    board = game.board
    best = sorted(
        ((board.points(p.cell, p.value), p) for p in game.legal_placements()), key=lambda m: -m[0]
    )[:8]
    if not best:
        console.print("No placement possible: pass or exchange.")
        return
    console.print("  ".join(f"{board.grid.name(p.cell)}={p.value} ({pts})" for pts, p in best))


def _save(console: Console, game: Game, name: str) -> None:
    if not name:
        console.print("save FILE: give a file name")
        return
    try:
        Path(name).write_text(records.dumps(game), encoding="utf-8")
        console.print(f"saved to {name}; resume with: mathable play --resume {name}")
    except OSError as exc:
        console.print(f"[red]cannot save: {exc}[/]")
