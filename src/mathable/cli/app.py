"""The ``mathable`` command: score sheets, records, positions and the terminal game.

Exit codes: 0 for success; 1 for refused input, with one line ``error: …`` on stderr; 2
for usage errors (click's own). No input ends in a traceback. Everything a user typed
(names, notation, file names) prints exactly as typed: output is built from rich ``Text``
and the consoles read no markup or emoji codes in plain strings.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import sys
import unicodedata
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text
from typer._click import Context
from typer.core import TyperGroup
from typer.exceptions import TyperException

from mathable import __version__
from mathable.ai import BOTS, SEAT_BOT
from mathable.engine import records
from mathable.engine.actions import Place
from mathable.engine.errors import MathableError
from mathable.engine.notation import CellNames, Position, format_placement
from mathable.engine.protocol import Game, GameType, HouseRules
from mathable.games import registry
from mathable.games.board.transcript import score_transcript
from mathable.games.board.variants import Variant, get_variant
from mathable.games.registry import GAMES
from mathable.render import panels

MAX_FILE = 5_000_000
"""The largest file read, in bytes (a long Quattro match's record is far smaller)."""
MAX_PATH = 4096
"""Longer text is never a file name (Linux's PATH_MAX)."""


def _clean(text: str) -> str:
    """``text`` with control characters, line and paragraph separators (U+2028, U+2029)
    and invisible format characters (a right-to-left override) written as escapes
    (``\\n``, ``\\x1b``, ``\\u2028``), so that an error stays one line and cannot
    drive the terminal or disguise itself."""
    hidden = ("Cc", "Cs", "Cf", "Zl", "Zp")
    return "".join(repr(c)[1:-1] if unicodedata.category(c) in hidden else c for c in text)


def fail(message: str) -> typer.Exit:
    """Print one error line on stderr and return the exit (code 1) to raise."""
    err.print(Text.assemble(("error:", "bold red"), f" {_clean(message)}"), soft_wrap=True)
    return typer.Exit(1)


class _Commands(TyperGroup):
    """The command group: a refusal raised anywhere in a command (every
    :class:`MathableError`) becomes one error line and exit code 1; anything unforeseen
    becomes one line too, named an internal error, instead of a traceback."""

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        for number, arg in enumerate(args, start=1):
            if any(unicodedata.category(c) == "Cs" for c in arg):  # undecodable bytes
                raise fail(f"argument {number} ({_clean(arg)}) is not valid UTF-8 text")
        return super().parse_args(ctx, args)

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, TyperException, EOFError, BrokenPipeError):
            raise  # exits, usage errors, and what the command runner handles itself
        except MathableError as exc:
            raise fail(str(exc)) from None
        except RecursionError:
            raise fail("the input is nested too deeply") from None
        except Exception as exc:
            raise fail(f"internal error ({type(exc).__name__}: {exc}); please report it") from None


app = typer.Typer(
    cls=_Commands,
    help="Mathable, the crossnumber game: play, score sheets, records and analysis.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
console = Console(highlight=False, markup=False, emoji=False)
err = Console(stderr=True, highlight=False, markup=False, emoji=False)


def _print_version(value: bool) -> None:
    if value:
        console.print(Text(f"mathable {__version__}"))
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version."
        ),
    ] = False,
) -> None:
    """Mathable, the crossnumber game: play, score sheets, records and analysis."""


JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
VariantOpt = Annotated[
    str, typer.Option("--variant", "-v", help=f"{', '.join(GAMES)} (see 'variants').")
]


def _read(path: Path) -> str:
    """A text file's content; a missing, unreadable, non-regular, huge or non-UTF-8 file
    is refused in one line."""
    where = str(path)
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise fail(f"{where} is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise fail(f"{where} is not a regular file")
        if info.st_size > MAX_FILE:
            raise fail(f"{where} is too large ({info.st_size} bytes; at most {MAX_FILE})")
        with path.open("rb") as file:
            data = file.read(MAX_FILE + 1)
    except OSError as exc:
        raise fail(f"cannot read {where}: {exc.strerror or exc}") from None
    except ValueError:  # a NUL in the name
        raise fail(f"cannot read {where}: a file name cannot hold a NUL character") from None
    if len(data) > MAX_FILE:
        raise fail(f"{where} is too large (at most {MAX_FILE} bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise fail(
            f"{where} is not UTF-8 text (byte {data[exc.start]:#04x} at offset {exc.start})"
        ) from None


def _game_type(name: str) -> GameType:
    """The game called ``name``; an unknown name fails listing every game."""
    try:
        return registry.game_type(name)
    except ValueError as exc:
        raise fail(str(exc)) from None


def _board_rules(kind: GameType, what: str, advice: str = "") -> Variant:
    """The board family's rules of a game played on a board (score sheets and one-line
    positions are board notions); other games fail, saying so."""
    if kind.surface != "board":
        raise fail(
            f"{what} are for the board games; {kind.title} is played on {kind.surface}{advice}"
        )
    return get_variant(kind.name)


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


def _written(names: CellNames, cell: int, value: int, extra: bool = False) -> str:
    """A placement in the notation: ``I8=12``, ``J8=16+``."""
    return format_placement(Place(cell, value, extra), names)


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
    kind = _game_type(variant)
    rules = _board_rules(kind, "score sheets")
    try:
        sheet = score_transcript(_read(file), rules)
    except MathableError as exc:
        raise fail(f"{file}: {exc}") from None
    if json_out:
        _print_json(sheet.to_dict())
        return
    names = rules.layout.grid
    table = Table(title=Text(f"Score sheet: {file.name}"), header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("player")
    table.add_column("turn")
    table.add_column("points", justify="right")
    table.add_column("total", justify="right")
    for number, turn in enumerate(sheet.turns, start=1):
        if turn.kind == "place":
            what = " ".join(
                f"{_written(names, names.parse(p.cell), p.value, p.extra)} ({p.points})"
                for p in turn.placements
            )
            if turn.bonus:
                what += f"  +{turn.bonus} bonus"
        elif turn.kind == "exchange":
            what = f"exchange {turn.exchanged}"
        elif turn.kind == "left":
            what = "tokens left on the rack"
        else:
            what = "pass"
        table.add_row(str(number), Text(turn.player), Text(what), str(turn.points), str(turn.total))
    console.print(table)
    console.print(Text("Totals: " + ", ".join(f"{p} {t}" for p, t in sheet.totals.items())))


def _load_game(path: Path) -> Game:
    """The game a record file holds; a file that is not a valid record is refused."""
    text = _read(path)
    try:
        return registry.from_record(text)
    except MathableError as exc:
        raise fail(f"{path}: {exc}") from None
    except RecursionError:
        raise fail(f"{path}: not a game record (nested too deeply)") from None


def _position_of(game: Game) -> Position:
    """The one-line position of a game on a board, as the seat to move sees it (other
    racks by their size unless they lie face up or the game is over)."""
    view = game.view(game.to_move)
    racks = tuple(
        view.open_racks[s] if view.open_racks else view.rack if s == view.seat else size
        for s, size in enumerate(view.rack_sizes)
    )
    board = tuple((c, v) for c, v in enumerate(view.surface) if v != panels.EMPTY)
    return Position(game.name, board, racks, view.scores, view.bag_size, view.to_move)


def _replay_data(game: Game) -> dict[str, Any]:
    """``replay --json``: the common fields, then what the game's view adds (rounds,
    deductions), its surface under the surface's name (``board``, ``piles``), the racks
    and the bag, and the one-line position of a board."""
    kind, players = game.game_type, game.players
    view = game.view(None)
    extra = view.to_dict(game.cell_names.name)
    data: dict[str, Any] = {
        "variant": game.name,
        "players": list(players),
        "actions": len(game.log),
        "over": game.is_over,
        "end_reason": game.end_reason,
    }
    if kind.rounds:
        data["rounds"] = extra["rounds"]
        data["round"] = extra["round"]
    data["scores"] = dict(zip(players, game.scores, strict=True))
    if "deductions" in extra:
        data["deductions"] = dict(zip(players, extra["deductions"], strict=True))
    data["winners"] = [players[s] for s in game.winners()]
    data["to_move"] = players[game.to_move]
    data[kind.surface] = {
        t.name: v for t, v in zip(kind.targets, view.surface, strict=True) if v != panels.EMPTY
    }
    data["racks"] = {p: list(game.rack(s)) for s, p in enumerate(players)}
    data["bag"] = list(game.bag_order())
    if kind.surface == "board":
        data["position"] = _position_of(game).format(game.cell_names)
    return data


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(help="A JSON game record.")],
    json_out: JsonFlag = False,
    sheet: Annotated[
        bool, typer.Option("--sheet", help="Print the game as a score sheet instead.")
    ] = False,
) -> None:
    """Replay a game record: its turns, then final scores, board, racks and bag."""
    from mathable.games.board.transcript import format_transcript

    game = _load_game(record)
    kind = game.game_type
    if sheet:
        if not kind.score_sheets:
            raise fail(f"{kind.title} has no score sheets")
        sys.stdout.write(format_transcript(game))
        return
    if json_out:
        _print_json(_replay_data(game))
        return
    view = game.view(None)
    for number, turn in enumerate(view.summaries, start=1):
        console.print(
            Text.assemble(f"{number:>3}. ", panels.summary_text(game.players, turn, kind))
        )
    console.print(panels.view_surface(kind, view))
    to_move = None if game.is_over else game.to_move
    console.print(panels.scores_table(game.players, game.scores, to_move, unit=kind.score_unit))
    if view.status:
        console.print(Text(view.status))
    console.print(Text(f"{panels.holder(kind)}s:"))
    for seat, name in enumerate(game.players):
        console.print(Text(f"  {name}: "), panels.rack_text(game.rack(seat)))
    drawn = " ".join(map(str, game.bag_order())) or "empty"
    console.print(Text(f"{panels.supply(kind)} ({game.bag_size}): {drawn}"))
    if game.is_over:
        winners = " and ".join(game.players[s] for s in game.winners())
        what = "Match" if kind.rounds else "Game"
        won = f" Winner: {winners}." if winners else ""  # none once aborted (L1)
        console.print(Text(f"{what} over ({game.end_reason}).{won}"))


def _rack(rack: tuple[int, ...] | int) -> tuple[tuple[int, ...] | None, int]:
    """A position's rack as its values (None when hidden: ``?7`` is written as its size)
    and its size."""
    if isinstance(rack, int):
        return None, rack
    return rack, len(rack)


def _names_a_file(text: str) -> bool:
    """Whether ``text`` (a command's position argument) names an existing file: text
    with a ``|`` is a position, and text no file name can be is never looked up."""
    if "|" in text or "\0" in text or not text.strip() or len(text) > MAX_PATH:
        return False
    try:
        return Path(text).exists()
    except (OSError, ValueError):  # a name too long for the file system
        return False


def _position(text: str) -> tuple[Position, Variant]:
    """A position given as its one-line text, a file holding it, or a game record."""
    if _names_a_file(text):
        path = Path(text)
        content = _read(path).strip()
        if content.startswith("{"):
            game = _load_game(path)
            rules = _board_rules(game.game_type, "positions", ": use replay")
            return _position_of(game), rules
        text = content
    elif "|" not in text:
        raise fail(
            f"{text!r} is neither a file nor a one-line position "
            "(variant | board | racks | scores | bag | to move)"
        )
    grids: dict[str, CellNames] = {
        name: get_variant(name).layout.grid
        for name, kind in GAMES.items()
        if kind.surface == "board"
    }
    try:
        position = Position.parse(text, grids)
    except MathableError as exc:
        raise fail(str(exc)) from None
    kind = _game_type(position.variant)
    rules = _board_rules(kind, "positions")
    if any(not 0 <= c < len(kind.targets) for c, _ in position.board):
        raise fail("the position has a cell off the board")
    if not kind.min_players <= len(position.racks) <= kind.max_players:
        raise fail(
            f"the position has {len(position.racks)} racks; {kind.title} is played by "
            f"{kind.min_players} to {kind.max_players} players"
        )
    for seat, rack in enumerate(position.racks, start=1):
        values, size = _rack(rack)
        if size > kind.rack_size:
            raise fail(f"rack {seat} holds {size} {kind.piece}s; at most {kind.rack_size}")
        strange = [v for v in values or () if v not in rules.tokens]
        if strange:
            raise fail(f"rack {seat}: {strange[0]} is not a {kind.piece} of {kind.title}")
    return position, rules


@app.command()
def show(position: Annotated[str, typer.Argument(help="A one-line position, or a file.")]) -> None:
    """Draw a position's board in the terminal, squares in colour."""
    pos, rules = _position(position)
    kind = _game_type(pos.variant)
    board = rules.new_board(dict(pos.board))
    console.print(panels.surface_group(kind, board.values))
    names = tuple(f"Player {i + 1}" for i in range(len(pos.racks)))
    sizes = tuple(_rack(r)[1] for r in pos.racks)
    console.print(panels.scores_table(names, pos.scores, pos.to_move, sizes))
    rack, _ = _rack(pos.racks[pos.to_move])
    if rack is not None:
        console.print(Text("rack to move: "), panels.rack_text(rack))
    console.print(Text(f"bag: {pos.bag}"))


@app.command()
def moves(
    position: Annotated[str, typer.Argument(help="A one-line position, or a file.")],
    json_out: JsonFlag = False,
    limit: Annotated[int, typer.Option(min=0, help="Show at most this many (0: all).")] = 0,
) -> None:
    """Every legal single placement for the player to move, with its points, best first.

    When that rack is hidden ('?7'), every token value still in play is tried.
    """
    pos, rules = _position(position)
    board = rules.new_board(dict(pos.board))
    rack, _ = _rack(pos.racks[pos.to_move])
    if rack is None:
        on_board: dict[int, int] = {}
        start = set(rules.layout.start_cells())
        for cell, value in pos.board:
            if cell not in start:
                on_board[value] = on_board.get(value, 0) + 1
        values = sorted(v for v, n in rules.tokens.items() if n > on_board.get(v, 0))
    else:
        values = sorted(set(rack))
    found = [
        (rules.placement_points(board, cell, value), cell, value, board.equations(cell, value))
        for value in values
        for cell in rules.legal_cells(board, value)
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
                    "placement": _written(grid, c, v),
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
        console.print(Text("No legal placement."))
        return
    table = Table(header_style="bold", box=None)
    table.add_column("placement")
    table.add_column("points", justify="right")
    table.add_column("equations", justify="right")
    for points, cell, value, n in found:
        table.add_row(Text(_written(grid, cell, value)), str(points), str(n))
    console.print(table)
    shown = f"{len(found)} of {total}" if len(found) < total else str(total)
    console.print(Text(f"{shown} placements"))


@app.command()
def variants(json_out: JsonFlag = False) -> None:
    """List the games this program plays (--json: with their capabilities)."""
    if json_out:
        _print_json(registry.catalog())
        return
    for info in GAMES.values():
        console.print(
            Text.assemble(
                (info.name, "bold"),
                f": {info.title}, {info.min_players}-{info.max_players} players. {info.summary}",
            )
        )


def _seat_names(players: str, vs: str | None) -> list[str]:
    """The seats ``--players`` and ``--vs`` ask for: ``--vs LEVEL`` seats one person (the
    one name of ``--players``, else "You") against that computer level."""
    names = [n.strip() for n in players.split(",") if n.strip()]
    if vs is None:
        return names
    if vs not in BOTS:
        raise fail(f"unknown computer level {vs!r}; choose one of {', '.join(BOTS)}")
    if len(names) > 1 or any(SEAT_BOT.search(n.lower()) for n in names):
        raise fail(
            "--vs seats one person against the computer: give at most one name with "
            "--players (for more seats, name them all: --players Ann,Bob,bot:strong)"
        )
    return [names[0] if names else "You", f"{vs.title()} [bot:{vs}]"]


def _house_rules(kind: GameType, chosen: dict[str, tuple[str, bool]], hints: bool) -> HouseRules:
    """The house rules switched on by flags (``chosen``: rule -> (flag, on)); a rule the
    game does not offer is refused. Hints (O2) are on where the game offers them unless
    ``--no-hints``."""
    for rule, (flag, on) in chosen.items():
        if on and rule not in kind.house_rules:
            raise fail(f"{kind.title} has no house rule {flag}")
    wanted = {rule for rule, (_, switched) in chosen.items() if switched}
    return HouseRules(
        table_referee="table_referee" in wanted,
        allow_undo="allow_undo" in wanted,
        strict="strict" in wanted,
        hints=hints and "hints" in kind.house_rules,
    )


def _checked_new_game(
    kind: GameType, names: list[str], seed: int | None, rules: HouseRules, rounds: int
) -> Game:
    """A new game, its computer players checked; raises ValueError saying what is wrong."""
    from mathable.ai import seat_bots

    seat_bots(names, seed)
    return registry.new_game(kind.name, names, seed=seed, house_rules=rules, rounds=rounds)


def _new_game(
    kind: GameType, names: list[str], seed: int | None, rules: HouseRules, rounds: int
) -> Game:
    """A new game; names, levels or options the game refuses are refused in one line."""
    try:
        return _checked_new_game(kind, names, seed, rules, rounds)
    except ValueError as exc:  # MathableError included
        raise fail(str(exc)) from None


@app.command()
def play(
    players: Annotated[
        str,
        typer.Option(
            help="Names, comma separated; bot:LEVEL for a computer player "
            "(--players Ann,Bob,bot:strong)."
        ),
    ] = "",
    vs: Annotated[
        str | None,
        typer.Option(
            help="Play one person against this computer level (see 'bots'): you alone, "
            "or the one name given by --players (--players Ann --vs strong)."
        ),
    ] = None,
    rounds: Annotated[int, typer.Option(help="Rounds of a match, in games played in rounds.")] = 1,
    seed: Annotated[int | None, typer.Option(help="Seed of the shuffle (random if unset).")] = None,
    variant: VariantOpt = "classic",
    referee: Annotated[
        bool, typer.Option("--referee", help="House rule C12: mistakes stand until challenged.")
    ] = False,
    undo: Annotated[bool, typer.Option("--undo", help="House rule: allow taking back.")] = False,
    strict: Annotated[
        bool, typer.Option("--strict", help="House rule K2 (numbered board): scoring first.")
    ] = False,
    hints: Annotated[
        bool,
        typer.Option(
            "--hints/--no-hints", help="House rule O2: players may ask for their best turns."
        ),
    ] = True,
    resume: Annotated[Path | None, typer.Option(help="Continue a saved game record.")] = None,
    plain: Annotated[
        bool, typer.Option("--plain", help="The line-by-line game instead of the full screen.")
    ] = False,
) -> None:
    """Play at one screen or against the computer, in the full-screen terminal app.

    Without --players, --vs or --resume the app opens on a new-game screen (--plain:
    asks for the players). A resumed game keeps its own players and house rules.
    """
    from .hotseat import ask_game, run_hotseat

    kind = _game_type(variant)
    names = _seat_names(players, vs)
    if resume is not None and names:
        raise fail("--resume continues a saved game with its own players: leave out --players/--vs")
    house = _house_rules(
        kind,
        {
            "table_referee": ("--referee", referee),
            "allow_undo": ("--undo", undo),
            "strict": ("--strict", strict),
        },
        hints,
    )
    if rounds != 1 and not kind.rounds:
        raise fail(f"{kind.title} is not played in rounds: leave out --rounds")
    game: Game | None = None
    levels: dict[int, str] = {}  # a resumed record's computer seats (its ``bots``)
    if resume is not None:
        game = _load_game(resume)
        levels = records.bots_of(records.loads(_read(resume)))
        for seat, level in levels.items():
            if level not in BOTS:
                raise fail(
                    f"{resume}: seat {seat + 1} was played by the computer level {level!r}, "
                    f"which this program has not ({', '.join(BOTS)})"
                )
    elif names:
        game = _new_game(kind, names, seed, house, rounds)
    else:  # the players are asked for later: refuse bad options now
        _new_game(kind, [f"Player {i + 1}" for i in range(kind.min_players)], seed, house, rounds)
    if not plain and sys.stdin.isatty() and sys.stdout.isatty():
        from mathable.tui.app import run_app

        run_app(
            game, save_path=resume, seed=seed, variant=kind.name, house_rules=house, levels=levels
        )
        return
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:  # a typed line that is not UTF-8 is read, not fatal
        reconfigure(errors="replace")
    if game is None:
        game = ask_game(
            console,
            kind,
            lambda typed: _checked_new_game(kind, typed, seed, house, rounds),
        )
    run_hotseat(console, game, seed=seed, levels=levels)


def main() -> None:
    """Entry point of the console script (and of ``python -m mathable``)."""
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)
    except BrokenPipeError:  # the reader of our output stopped (``| head``): leave quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)


def _writable_folder(folder: Path) -> None:
    """Make ``folder`` if need be; a folder that cannot be made or written is refused."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK):
            raise fail(f"cannot write to {folder}")
    except OSError as exc:
        raise fail(f"cannot make the folder {folder}: {exc.strerror or exc}") from None
    except ValueError:
        raise fail(f"cannot make the folder {folder}: the name holds a NUL") from None


@app.command()
def bots() -> None:
    """List the computer players, weakest first."""
    for name, (_, description) in BOTS.items():
        console.print(Text.assemble((name, "bold"), f": {description}"))


@app.command()
def arena(
    names: Annotated[
        list[str],
        typer.Argument(
            help="2 to 4 bots: levels, or levels with settings (expert:samples=32,budget_ms=500)."
        ),
    ],
    games: Annotated[int, typer.Option(min=1, help="How many games.")] = 100,
    seed: Annotated[
        int, typer.Option(help="Deal i is dealt from seed + i (tune below 100,000).")
    ] = 0,
    jobs: Annotated[int, typer.Option(min=1, max=64, help="Games played at once (processes).")] = 1,
    paired: Annotated[
        bool,
        typer.Option(
            help="Play each deal once per seating (two bots: twice, seats swapped); "
            "--no-paired deals every game afresh, seats rotated."
        ),
    ] = True,
    records_dir: Annotated[
        Path | None, typer.Option("--records", help="Write every game's record here.")
    ] = None,
    variant: VariantOpt = "classic",
    json_out: JsonFlag = False,
) -> None:
    """Pit computer players against each other on seeded deals; with two bots, the score
    margin and the win rate with their 95% intervals over the deals."""
    from concurrent.futures import ProcessPoolExecutor

    from rich.progress import Progress

    from mathable.ai import arena as match
    from mathable.ai import parse_spec

    if not 2 <= len(names) <= 4:
        raise fail("name 2 to 4 bots")
    for name in names:
        try:
            parse_spec(name)
        except ValueError as exc:
            raise fail(str(exc)) from None
    _game_type(variant)
    if records_dir is not None:
        _writable_folder(records_dir)
    keep = records_dir is not None
    if paired:
        deals = -(-games // len(names))
        work = match.paired_jobs(names, variant, deals, seed, keep)
        games = len(work)
    else:
        work = match.jobs_for(names, variant, games, seed, keep)
    results = []
    with Progress(console=err, transient=True, disable=json_out) as progress:
        task = progress.add_task(f"{' vs '.join(names)}", total=games)
        if jobs == 1:
            for result in map(match.run_one, work):
                results.append(result)
                progress.advance(task)
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                for result in pool.map(match.run_one, work, chunksize=2):
                    results.append(result)
                    progress.advance(task)
    if records_dir is not None:
        try:
            for number, result in enumerate(results):
                match.save_record(result, records_dir, number)
        except OSError as exc:
            raise fail(f"cannot write to {records_dir}: {exc.strerror or exc}") from None
    summary = match.tally(results, names)
    pairing = match.paired_summary(results, names) if paired and len(set(names)) == 2 else None
    if json_out:
        out = {"variant": variant, "games": games, "seed": seed, "bots": summary}
        _print_json({**out, "paired": pairing} if paired else out)
        return
    how = "paired deals" if paired else "games"
    table = Table(
        title=Text(f"{games} games of {variant} ({how}), seed {seed}"), header_style="bold"
    )
    columns = (
        "bot",
        "wins",
        "win rate",
        "95% interval",
        "mean score",
        "ms/turn",
        "p95 ms",
        "max ms",
    )
    for column in columns:
        table.add_column(column, justify="left" if column == "bot" else "right")
    for row in summary:
        low, high = row["win_rate_ci95"]
        table.add_row(
            Text(row["bot"]),
            f"{row['wins']:g}",
            f"{100 * row['win_rate']:.1f}%",
            f"{100 * low:.1f}-{100 * high:.1f}%",
            f"{row['mean_score']:.1f}",
            f"{row['mean_ms_per_turn']:.1f}",
            f"{row['p95_ms_per_turn']:.1f}",
            f"{row['max_ms_per_turn']:.1f}",
        )
    console.print(table)
    if pairing is not None:
        low, high = pairing["margin_ci95"]
        rate_low, rate_high = pairing["win_rate_ci95"]
        console.print(
            Text(
                f"Over {pairing['deals']} deals, {pairing['bot']} against {pairing['against']}: "
                f"margin {pairing['margin']:+.1f} points (95%: {low:+.1f} to {high:+.1f}), "
                f"win rate {100 * pairing['win_rate']:.1f}% "
                f"(95%: {100 * rate_low:.1f}-{100 * rate_high:.1f}%)"
            )
        )


@app.command()
def ladder(
    deals: Annotated[
        int, typer.Option(min=1, max=100_000, help="Paired deals per match (two games each).")
    ] = 1000,
    seed: Annotated[
        int,
        typer.Option(help="Deal i is dealt from seed + i (at least 1,000,000: never tuned on)."),
    ] = 1_000_000,
    jobs: Annotated[int, typer.Option(min=1, max=64, help="Games played at once (processes).")] = 1,
    games: Annotated[
        list[str] | None,
        typer.Option("--game", "-g", help="A game to measure (again for more); all by default."),
    ] = None,
    readme: Annotated[
        Path | None,
        typer.Option(
            "--readme", help="Write the table into this file, between its ladder markers."
        ),
    ] = None,
    json_out: JsonFlag = False,
) -> None:
    """Measure the ladder: each computer level against the next one up, in every game, on
    paired deals from seeds no tuning has seen; prints the README's table."""
    from rich.progress import Progress

    from mathable.ai import ladder as rungs_of

    chosen = games or list(GAMES)
    for name in chosen:
        _game_type(name)
    try:
        rungs_of.check_seed(seed)
    except ValueError as exc:
        raise fail(str(exc)) from None
    total = len(chosen) * len(rungs_of.matches()) * 2 * deals
    with Progress(console=err, transient=True, disable=json_out) as progress:
        task = progress.add_task("the ladder", total=total)
        rungs = rungs_of.play(chosen, deals, seed, jobs, lambda: progress.advance(task))
    if json_out:
        _print_json(
            {
                "deals": deals,
                "seed": seed,
                "matches": [
                    {
                        "game": r.game,
                        "weaker": r.weaker,
                        "stronger": r.stronger,
                        **r.paired,
                        "bots": r.bots,
                    }
                    for r in rungs
                ],
            }
        )
        return
    text = rungs_of.table(rungs, deals, seed)
    if readme is None:
        console.print(Text(text))
        return
    try:
        rungs_of.rewrite(readme, text)
    except (OSError, ValueError) as exc:
        raise fail(f"cannot write the ladder into {readme}: {exc}") from None
    console.print(Text(f"wrote the ladder into {readme}"))


@app.command("train-leaves")
def train_leaves(
    variants: Annotated[
        list[str] | None,
        typer.Option("--variant", "-v", help="A game to train (again for more); all with racks."),
    ] = None,
    games: Annotated[
        int, typer.Option(min=1, max=1_000_000, help="Self-play games per game.")
    ] = 3000,
    seed: Annotated[
        int, typer.Option(help="Game i is dealt from seed + i (a tuning seed: below 100,000).")
    ] = 10_000,
    jobs: Annotated[int, typer.Option(min=1, max=64, help="Games played at once (processes).")] = 1,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="A folder for the files (default: the package's, shipped)."),
    ] = None,
) -> None:
    """Learn the value of the tokens kept on the rack from leave-blind self-play (Macondo's
    superleaves, as a linear model): writes leaves-<game>.json, reproducible from its seed
    (every game where the player chooses what to keep, by default)."""
    import functools
    import time

    from rich.progress import Progress

    from mathable.ai import leaves
    from mathable.ai.arena import TUNING_SEEDS_BELOW

    for name in variants or ():
        _game_type(name)
        reason = leaves.unlearnable(name)
        if reason is not None:
            raise fail(f"{reason}: no leave to learn")
    chosen = variants or [name for name in GAMES if leaves.unlearnable(name) is None]
    if seed + games > TUNING_SEEDS_BELOW:
        raise fail(f"train on tuning seeds: seed + games must stay below {TUNING_SEEDS_BELOW:,}")
    folder = out or leaves.DATA
    _writable_folder(folder)
    with Progress(console=err, transient=True) as progress:
        for name in chosen:
            task = progress.add_task(f"self-play, {name}", total=games)
            start = time.perf_counter()
            advance = functools.partial(progress.advance, task)
            model, samples = leaves.train(name, games, seed, jobs, advance)
            spent = time.perf_counter() - start
            meta = {
                "command": f"mathable train-leaves --variant {name} --games {games} --seed {seed}",
                "games": games,
                "seed": seed,
                "samples": samples,
                "players": leaves.TRAINER,
            }
            target = folder / leaves.path_of(name).name
            try:
                target.write_text(model.to_json(meta), encoding="utf-8")
            except OSError as exc:
                raise fail(f"cannot write {target}: {exc.strerror or exc}") from None
            console.print(
                Text(f"{name}: {games} games, {samples} leaves, {spent:.0f} s: wrote {target}")
            )


@app.command("rate-bots")
def rate_bots(
    pairs: Annotated[
        int, typer.Option(min=1, max=10_000, help="Deals per pair of levels (each played twice).")
    ] = 20,
    seed: Annotated[int, typer.Option(help="Deal i is dealt from seed + i.")] = 1_000_000,
    jobs: Annotated[int, typer.Option(min=1, max=64, help="Games played at once (processes).")] = 1,
    variants: Annotated[
        list[str] | None,
        typer.Option("--variant", "-v", help="A game to rate (again for more); all by default."),
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write the JSON to this file.")] = None,
) -> None:
    """Rate the computer levels from games among themselves: their starting ratings on a
    server (the shipped file is made by --out src/mathable/online/bot_ratings.json)."""
    from rich.progress import Progress

    from mathable.online import botratings

    chosen = variants or list(GAMES)
    for name in chosen:
        _game_type(name)
    levels = list(BOTS)
    total = len(chosen) * pairs * len(levels) * (len(levels) - 1)
    rated: dict[str, Any] = {}
    with Progress(console=err, transient=True) as progress:
        task = progress.add_task("computer levels", total=total)
        for name in chosen:
            rated[name] = botratings.calibrate(
                name, levels, pairs, seed, jobs, lambda: progress.advance(task)
            )
    data = {"seed": seed, "pairs": pairs, "levels": levels, "games": rated}
    if out is None:
        _print_json(data)
        return
    try:
        out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise fail(f"cannot write {out}: {exc.strerror or exc}") from None
    console.print(Text(f"wrote {out}"))


@app.command()
def analyse(
    record: Annotated[Path, typer.Argument(help="A JSON game record.")],
    json_out: JsonFlag = False,
) -> None:
    """Per turn, the points played against the best turn available, and the loss."""
    from mathable.ai.analysis import analysis_report

    game = _load_game(record)
    report = analysis_report(game)
    if json_out:
        _print_json(report)
        return
    console.print(panels.analysis_view(report, f"Analysis: {record.name}"))


@app.command()
def hint(
    position: Annotated[str, typer.Argument(help="A one-line position, a file, or a record.")],
    json_out: JsonFlag = False,
    limit: Annotated[int, typer.Option(min=1, help="How many turns to show.")] = 5,
) -> None:
    """The best whole turns for the player to move (exact search), best first."""
    from mathable.ai.hints import board_hints

    pos, rules = _position(position)
    rack, _ = _rack(pos.racks[pos.to_move])
    if rack is None:
        raise fail("the rack to move is hidden ('?N'): a hint needs the rack")
    board = rules.new_board(dict(pos.board))
    found = board_hints(rules, board, rack, started_with=len(rack), limit=max(1, limit))
    if json_out:
        _print_json(
            [
                {
                    "turn": h.notation,
                    "points": (h.points or 0) - h.bonus,
                    "bonus": h.bonus,
                    "total": h.points or 0,
                    "leave": list(h.leave),
                }
                for h in found
            ]
        )
        return
    if not found:
        console.print(Text("No placement: pass or exchange."))
        return
    for h in found:
        bonus = f" (+{h.bonus} bonus)" if h.bonus else ""
        keep = " ".join(map(str, h.leave)) or "nothing"
        console.print(Text(f"{h.points or 0:>4}{bonus}  {h.notation}   keeps {keep}"))


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host`` and ``port`` for the server; an address that cannot be
    resolved or bound is refused in one line."""
    where = f"{host}:{port}"
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, ValueError) as exc:  # UnicodeError: a name no resolver takes
        raise fail(f"cannot listen on {where}: {exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise fail(f"cannot listen on {where}: {exc.strerror or exc}") from None
    return sock


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="Port to listen on (0: any free port).")
    ] = 8000,
) -> None:
    """Serve the web app (games kept in the database of DATABASE_URL: a SQLite file, or
    PostgreSQL for several server processes)."""
    import sqlite3

    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from mathable.web.api import Settings, create_app

    try:
        settings = Settings()  # a bad DATABASE_URL is refused here, in one line
    except ValueError as exc:  # and a bad MATHABLE_* setting
        raise fail(str(exc)) from None
    url, shown_url = settings.database_url, settings.shown_database_url  # no password shown
    sock = _listen(host, port)
    try:
        web = create_app(url)
    except (OSError, ValueError, sqlite3.Error, SQLAlchemyError) as exc:
        sock.close()
        raise fail(f"DATABASE_URL={shown_url}: {exc}") from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    console.print(
        Text.assemble(
            "Mathable is served at ",
            (f"http://{shown}:{bound}/", "bold"),
            f" (games in {_clean(shown_url)}; Ctrl-C stops)",
        )
    )
    # frames over the app's own limit are refused by uvicorn before they are even read
    config = uvicorn.Config(web, log_level="warning", ws_max_size=settings.sockets.max_frame)
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
