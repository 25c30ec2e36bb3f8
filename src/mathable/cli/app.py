"""The ``mathable`` command: score sheets, records, positions and the terminal game.

Every command turns bad input into one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console

from mathable.ai import BOTS
from mathable.engine.errors import MathableError
from mathable.engine.notation import Position
from mathable.engine.protocol import Game
from mathable.games import registry
from mathable.games.board.transcript import score_transcript
from mathable.games.board.variants import VARIANTS, Variant, get_variant
from mathable.games.quattro.game import PILES, QuattroGame
from mathable.games.registry import GAMES

from . import render

app = typer.Typer(
    help="Mathable, the crossnumber game: play, score sheets, records and analysis.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)
err = Console(stderr=True, highlight=False)
F = TypeVar("F", bound=Callable[..., Any])

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
VariantOpt = Annotated[
    str, typer.Option("--variant", "-v", help="classic, junior, junior-numbers or quattro.")
]


def fail(message: str) -> typer.Exit:
    """Print one error line and return the exit to raise."""
    err.print(f"[bold red]error:[/] {message}", soft_wrap=True)
    return typer.Exit(2)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise fail(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise fail(f"{path} is not a text file") from None


def _variant(name: str) -> Variant:
    try:
        return get_variant(name)
    except ValueError as exc:
        raise fail(str(exc)) from None


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


@app.command()
def score(
    file: Annotated[Path, typer.Argument(help="A transcript: one line per turn.")],
    json_out: JsonFlag = False,
    variant: VariantOpt = "classic",
) -> None:
    """Score a game played on a real table from its transcript.

    One line per turn: 'Ann: I8=12 H6=8 J8=16+', 'Bob: pass', 'Ann: exchange 3',
    and after the last turn 'Bob: left 3 5' for tokens left on the rack.
    """
    try:
        sheet = score_transcript(_read(file), _variant(variant))
    except MathableError as exc:
        raise fail(f"{file}: {exc}") from None
    if json_out:
        _print_json(sheet.to_dict())
        return
    table = render.Table(title=f"Score sheet: {file.name}", header_style="bold")
    for column, justify in (
        ("#", "right"),
        ("player", "left"),
        ("turn", "left"),
        ("points", "right"),
        ("total", "right"),
    ):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for number, turn in enumerate(sheet.turns, start=1):
        if turn.kind == "place":
            what = " ".join(
                f"{p.cell}={p.value}{'+' if p.extra else ''} ({p.points})" for p in turn.placements
            )
            if turn.bonus:
                what += f"  +{turn.bonus} bonus"
        elif turn.kind == "exchange":
            what = f"exchange {turn.exchanged}"
        elif turn.kind == "left":
            what = "tokens left on the rack"
        else:
            what = "pass"
        table.add_row(str(number), turn.player, what, str(turn.points), str(turn.total))
    console.print(table)
    console.print("Totals: " + ", ".join(f"{p} {t}" for p, t in sheet.totals.items()))


def _load_game(path: Path) -> Game:
    try:
        return registry.from_record(_read(path))
    except MathableError as exc:
        raise fail(f"{path}: {exc}") from None


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(help="A JSON game record.")],
    json_out: JsonFlag = False,
    sheet: Annotated[
        bool, typer.Option("--sheet", help="Print the game as a score sheet instead.")
    ] = False,
) -> None:
    """Replay a game record: final scores, board, racks and bag."""
    game = _load_game(record)
    if sheet:
        from mathable.games.board.transcript import format_transcript

        if isinstance(game, QuattroGame):
            raise fail("score sheets are for the board games")
        sys.stdout.write(format_transcript(game))
        return
    if isinstance(game, QuattroGame):
        _replay_quattro(game, json_out)
        return
    grid = game.board.grid
    if json_out:
        _print_json(
            {
                "variant": game.variant.name,
                "players": list(game.players),
                "actions": len(game.log),
                "over": game.is_over,
                "end_reason": game.end_reason,
                "scores": dict(zip(game.players, game.scores, strict=True)),
                "deductions": dict(zip(game.players, game.deductions, strict=True)),
                "winners": [game.players[s] for s in game.winners()],
                "to_move": game.players[game.to_move],
                "board": {grid.name(c): v for c, v in sorted(game.board.placed().items())},
                "racks": {p: list(game.rack(s)) for s, p in enumerate(game.players)},
                "bag": list(game.bag_order()),
                "position": game.position(game.to_move).format(grid),
            }
        )
        return
    last = game.turns[-1].placements if game.turns else ()
    console.print(
        render.board_group(game.variant.layout, game.board.values, {p.cell for p in last})
    )
    console.print(
        render.scores_table(game.players, game.scores, None if game.is_over else game.to_move)
    )
    for seat, name in enumerate(game.players):
        console.print(f"{name}'s rack: ", render.rack_text(game.rack(seat)))
    console.print(f"bag ({game.bag_size}): {' '.join(map(str, game.bag_order())) or 'empty'}")
    if game.is_over:
        winners = " and ".join(game.players[s] for s in game.winners())
        console.print(f"Game over ({game.end_reason}). Winner: {winners}.")


def _replay_quattro(game: QuattroGame, json_out: bool) -> None:
    data = {
        "variant": game.variant.name,
        "players": list(game.players),
        "actions": len(game.log),
        "over": game.is_over,
        "end_reason": game.end_reason,
        "rounds": game.rounds,
        "round": game.round,
        "scores": dict(zip(game.players, game.scores, strict=True)),
        "winners": [game.players[s] for s in game.winners()],
        "to_move": game.players[game.to_move],
        "piles": dict(zip(PILES, game.tops, strict=True)),
        "racks": {p: list(game.rack(s)) for s, p in enumerate(game.players)},
        "bag": list(game.bag_order()),
    }
    if json_out:
        _print_json(data)
        return
    a, b, c, d = game.tops
    console.print(f"piles  A {a:>3}   B {b:>3}\n       C {c:>3}   D {d:>3}")
    console.print(
        f"round {game.round} of {game.rounds}; rounds won: "
        + ", ".join(f"{p} {w}" for p, w in zip(game.players, game.scores, strict=True))
    )
    for seat, name in enumerate(game.players):
        console.print(f"{name}'s hand: ", render.rack_text(game.rack(seat)))
    console.print(f"reserve ({game.bag_size}): {' '.join(map(str, game.bag_order())) or 'empty'}")
    if game.is_over:
        winners = " and ".join(game.players[s] for s in game.winners())
        console.print(f"Match over ({game.end_reason}). Winner: {winners}.")


def _position(text: str) -> tuple[Position, Variant]:
    """A position given as its one-line text, a file holding it, or a game record."""
    path = Path(text)
    if "|" not in text and path.exists():
        content = _read(path).strip()
        if content.startswith("{"):
            game = _load_game(path)
            if isinstance(game, QuattroGame):
                raise fail("positions are for the board games; use replay for Quattro")
            return game.position(game.to_move), game.variant
        text = content
    grids = {name: v.layout.grid for name, v in VARIANTS.items()}
    try:
        position = Position.parse(text, grids)
    except MathableError as exc:
        raise fail(str(exc)) from None
    variant = VARIANTS[position.variant]
    size = variant.layout.size**2
    if any(not 0 <= c < size for c, _ in position.board):
        raise fail("the position has a cell off the board")
    return position, variant


@app.command()
def show(position: Annotated[str, typer.Argument(help="A one-line position, or a file.")]) -> None:
    """Draw a position's board in the terminal, squares in colour."""
    pos, variant = _position(position)
    board = variant.new_board(dict(pos.board))
    console.print(render.board_group(variant.layout, board.values))
    names = tuple(f"Player {i + 1}" for i in range(len(pos.racks)))
    sizes = tuple(r if isinstance(r, int) else len(r) for r in pos.racks)
    console.print(render.scores_table(names, pos.scores, pos.to_move, sizes))
    rack = pos.racks[pos.to_move]
    if not isinstance(rack, int):
        console.print("rack to move: ", render.rack_text(rack))
    console.print(f"bag: {pos.bag}")


@app.command()
def moves(
    position: Annotated[str, typer.Argument(help="A one-line position, or a file.")],
    json_out: JsonFlag = False,
    limit: Annotated[int, typer.Option(help="Show at most this many (0: all).")] = 0,
) -> None:
    """Every legal single placement for the player to move, with its points, best first.

    When that rack is hidden ('?7'), every token value still in play is tried.
    """
    pos, variant = _position(position)
    board = variant.new_board(dict(pos.board))
    rack = pos.racks[pos.to_move]
    if isinstance(rack, int):
        on_board: dict[int, int] = {}
        start = set(variant.layout.start_cells())
        for cell, value in pos.board:
            if cell not in start:
                on_board[value] = on_board.get(value, 0) + 1
        values = sorted(v for v, n in variant.tokens.items() if n > on_board.get(v, 0))
    else:
        values = sorted(set(rack))
    found = [
        (variant.placement_points(board, cell, value), cell, value, board.equations(cell, value))
        for value in values
        for cell in variant.legal_cells(board, value)
    ]
    found.sort(key=lambda m: (-m[0], m[1], m[2]))
    total = len(found)
    if limit:
        found = found[:limit]
    grid = board.grid
    if json_out:
        _print_json(
            [
                {
                    "placement": f"{grid.name(c)}={v}",
                    "cell": grid.name(c),
                    "value": v,
                    "points": p,
                    "equations": n,
                }
                for p, c, v, n in found
            ]
        )
        return
    if not found:
        console.print("No legal placement.")
        return
    table = render.Table(header_style="bold", box=None)
    table.add_column("placement")
    table.add_column("points", justify="right")
    table.add_column("equations", justify="right")
    for points, cell, value, n in found:
        table.add_row(f"{grid.name(cell)}={value}", str(points), str(n))
    console.print(table)
    shown = f"{len(found)} of {total}" if len(found) < total else str(total)
    console.print(f"{shown} placements")


@app.command()
def variants() -> None:
    """List the games this program plays."""
    for info in GAMES.values():
        console.print(
            f"[bold]{info.name}[/]: {info.title}, {info.min_players}-{info.max_players} "
            f"players. {info.summary}"
        )


@app.command()
def play(
    players: Annotated[
        str, typer.Option(help="Names, comma separated; bot:LEVEL for a computer player.")
    ] = "",
    vs: Annotated[
        str | None, typer.Option(help="Play alone against this computer level (see 'bots').")
    ] = None,
    rounds: Annotated[int, typer.Option(help="Rounds of a Quattro match.")] = 1,
    seed: Annotated[int | None, typer.Option(help="Seed of the shuffle (random if unset).")] = None,
    variant: VariantOpt = "classic",
    referee: Annotated[
        bool, typer.Option("--referee", help="House rule C12: mistakes stand until challenged.")
    ] = False,
    undo: Annotated[bool, typer.Option("--undo", help="House rule: allow taking back.")] = False,
    strict: Annotated[
        bool, typer.Option("--strict", help="House rule K2 (numbered board): scoring first.")
    ] = False,
    resume: Annotated[Path | None, typer.Option(help="Continue a saved game record.")] = None,
    plain: Annotated[
        bool, typer.Option("--plain", help="The line-by-line game instead of the full screen.")
    ] = False,
) -> None:
    """Play a game: the full-screen terminal app (a new-game screen unless --players,
    --vs or --resume say what to play), at one screen or against the computer."""
    from .hotseat import run_hotseat

    if variant not in GAMES:
        raise fail(f"unknown game {variant!r}; choose one of {', '.join(GAMES)}")
    if vs is not None:
        if vs not in BOTS:
            raise fail(f"unknown computer level {vs!r}; choose one of {', '.join(BOTS)}")
        players = f"{players or 'You'},{vs.title()} [bot:{vs}]"
    if not plain and sys.stdin.isatty() and sys.stdout.isatty():
        from mathable.engine.protocol import HouseRules
        from mathable.games.registry import new_game
        from mathable.tui.app import run_app

        game = _load_game(resume) if resume else None
        if game is None and players:
            try:
                game = new_game(
                    variant,
                    [n.strip() for n in players.split(",") if n.strip()],
                    seed=seed,
                    house_rules=HouseRules(table_referee=referee, allow_undo=undo, strict=strict),
                    rounds=rounds,
                )
            except ValueError as exc:
                raise fail(str(exc)) from None
        run_app(game, save_path=resume, seed=seed)
        return
    run_hotseat(
        console,
        players=players,
        seed=seed,
        variant=variant,
        rounds=rounds,
        referee=referee,
        undo=undo,
        strict=strict,
        resume=_load_game(resume) if resume else None,
    )


def main() -> None:
    """Entry point of the console script."""
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)


@app.command()
def bots() -> None:
    """List the computer players, weakest first."""
    for name, (_, description) in BOTS.items():
        console.print(f"[bold]{name}[/]: {description}")


@app.command()
def arena(
    names: Annotated[list[str], typer.Argument(help="2 to 4 bot levels, e.g. greedy strong.")],
    games: Annotated[int, typer.Option(help="How many games.")] = 100,
    seed: Annotated[int, typer.Option(help="Game i is dealt from seed + i.")] = 0,
    jobs: Annotated[int, typer.Option(help="Games played at once (processes).")] = 1,
    records_dir: Annotated[
        Path | None, typer.Option("--records", help="Write every game's record here.")
    ] = None,
    variant: VariantOpt = "classic",
    json_out: JsonFlag = False,
) -> None:
    """Pit computer players against each other: seeded games, seats rotated."""
    from concurrent.futures import ProcessPoolExecutor

    from rich.progress import Progress

    from mathable.ai import arena as match

    if not 2 <= len(names) <= 4:
        raise fail("name 2 to 4 bots")
    unknown = [n for n in names if n not in BOTS]
    if unknown:
        raise fail(f"unknown bot {unknown[0]!r}; choose among {', '.join(BOTS)}")
    if variant not in GAMES:
        raise fail(f"unknown game {variant!r}; choose one of {', '.join(GAMES)}")
    if games < 1 or jobs < 1:
        raise fail("--games and --jobs must be at least 1")
    work = match.jobs_for(names, variant, games, seed, records_dir is not None)
    results = []
    with Progress(console=err, transient=True, disable=json_out) as progress:
        task = progress.add_task(f"{' vs '.join(names)}", total=games)
        if jobs == 1:
            outcomes = map(match.run_one, work)
            for result in outcomes:
                results.append(result)
                progress.advance(task)
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                for result in pool.map(match.run_one, work, chunksize=2):
                    results.append(result)
                    progress.advance(task)
    if records_dir is not None:
        for number, result in enumerate(results):
            match.save_record(result, records_dir, number)
    summary = match.tally(results, names)
    if json_out:
        _print_json({"variant": variant, "games": games, "seed": seed, "bots": summary})
        return
    table = render.Table(title=f"{games} games of {variant}, seed {seed}", header_style="bold")
    for column in ("bot", "wins", "win rate", "95% interval", "mean score", "ms/turn", "p95 ms"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for row in summary:
        low, high = row["win_rate_ci95"]
        table.add_row(
            row["bot"],
            f"{row['wins']:g}",
            f"{100 * row['win_rate']:.1f}%",
            f"{100 * low:.1f}-{100 * high:.1f}%",
            f"{row['mean_score']:.1f}",
            f"{row['mean_ms_per_turn']:.1f}",
            f"{row['p95_ms_per_turn']:.1f}",
        )
    console.print(table)


@app.command()
def analyse(
    record: Annotated[Path, typer.Argument(help="A JSON game record.")],
    json_out: JsonFlag = False,
) -> None:
    """Per turn, the points played against the best turn available, and the loss."""
    from mathable.ai.analysis import analysis_report

    game = _load_game(record)
    if isinstance(game, QuattroGame):
        raise fail("analysis is for the board games (Quattro has no points to compare)")
    report = analysis_report(game)
    if json_out:
        _print_json(report)
        return
    console.print(render.analysis_view(report, f"Analysis: {record.name}"))


@app.command()
def hint(
    position: Annotated[str, typer.Argument(help="A one-line position, a file, or a record.")],
    json_out: JsonFlag = False,
    limit: Annotated[int, typer.Option(help="How many turns to show.")] = 5,
) -> None:
    """The best whole turns for the player to move (exact search), best first."""
    from mathable.ai.search import search_turns

    pos, variant = _position(position)
    rack = pos.racks[pos.to_move]
    if isinstance(rack, int):
        raise fail("the rack to move is hidden ('?N'): a hint needs the rack")
    board = variant.new_board(dict(pos.board))
    plans = search_turns(variant, board, rack, started_with=len(rack))
    ranked = sorted(
        (p for p in plans.values() if p.placements),
        key=lambda p: (-p.total, len(p.placements)),
    )[: max(1, limit)]
    grid = board.grid
    rows = [
        {
            "turn": " ".join(f"{grid.name(c)}={v}" for c, v in p.placements),
            "points": p.points,
            "bonus": p.bonus,
            "total": p.total,
            "leave": list(p.leave),
        }
        for p in ranked
    ]
    if json_out:
        _print_json(rows)
        return
    if not rows:
        console.print("No placement: pass or exchange.")
        return
    for row in rows:
        bonus = f" (+{row['bonus']} bonus)" if row["bonus"] else ""
        keep = " ".join(map(str, row["leave"])) or "nothing"
        console.print(f"{row['total']:>4}{bonus}  {row['turn']}   keeps {keep}")


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
) -> None:
    """Serve the web app (games kept in the SQLite file of DATABASE_URL)."""
    import uvicorn

    from mathable.web.api import Settings, create_app

    settings = Settings()
    console.print(
        f"Mathable is served at [bold]http://{host}:{port}/[/] "
        f"(games in {settings.database_url}; Ctrl-C stops)"
    )
    uvicorn.run(create_app(settings.database_url), host=host, port=port, log_level="warning")
