"""``mathable make-puzzles`` (mine the puzzle set) and ``mathable puzzles`` (solve one).

A puzzle reads the player's turn at a prompt (a placement a line, or a whole turn on one
line), answers ``hint``, ``help`` and ``quit`` (which leaves without showing the answer),
and ignores empty lines. :mod:`.main` registers the commands; the selection rule is
:mod:`mathable.learn.puzzles`'s.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from mathable import i18n
from mathable.i18n import _, lazy, ngettext

from . import oserrors
from ._later import Deferred, later
from .positions import show
from .shell import JobsOpt, console, fail, helps, progress_bar, writable_folder

if TYPE_CHECKING:
    from mathable.learn import puzzles as mined
else:
    mined = later("mathable.learn.puzzles")

MAX_LINE = 200
"""The longest line read from the player, in characters."""


MAKE_PUZZLES_HELP = helps(
    lazy(
        "Mine puzzles from the strong computer player's self-play, in classic and "
        "Junior: positions where the best whole turn is worth at least 1.5 times and "
        "30 points more than the best single placement; writes them as JSON, "
        "reproducible from the seed."
    )
)
"""The help of ``make-puzzles``."""


def make_puzzles(
    games: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=100_000,
            help=helps(
                lazy(
                    "Self-play games per game ({count} by default).",
                    count=Deferred(lambda: mined.DEFAULT_GAMES),
                )
            ),
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            min=0,
            max=10**9,
            help=helps(
                lazy(
                    "Game i is dealt from seed + i ({seed} by default).",
                    seed=Deferred(lambda: mined.DEFAULT_SEED),
                )
            ),
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help=helps(lazy("The file to write (default: the shipped set)."))),
    ] = None,
    jobs: JobsOpt = 1,
) -> None:
    games = mined.DEFAULT_GAMES if games is None else games
    seed = mined.DEFAULT_SEED if seed is None else seed
    target = out or mined.DATA
    writable_folder(target.parent)
    with progress_bar() as progress:
        # TRANSLATORS: a progress bar's label while puzzles are mined from self-play
        task = progress.add_task(_("self-play"), total=games * len(mined.GAMES))
        found = mined.make(games, seed, jobs, lambda: progress.advance(task))
    meta = {
        "command": f"mathable make-puzzles --games {games} --seed {seed}",
        "games": games,
        "seed": seed,
        "player": mined.PLAYER,
    }
    try:
        target.write_text(mined.to_json(found, meta), encoding="utf-8")
    except OSError as exc:
        raise fail(
            _("cannot write {file}: {reason}", file=str(target), reason=oserrors.reason(exc))
        ) from None
    said = ngettext("{count} puzzle", "{count} puzzles", len(found))
    for band in mined.BANDS:
        count = sum(1 for p in found if p.band == band)
        said += f", {mined.BAND_NAMES[band]} {count}"
    # TRANSLATORS: how many puzzles were found (and per band), then the file written
    console.print(Text(_("{puzzles}: wrote {file}", puzzles=said, file=str(target))))


PUZZLES_HELP = helps(
    lazy(
        "Solve a puzzle: find a turn worth at least the target. Type one placement a "
        "line (I8=12), then end; the engine's answer follows."
    )
)
"""The help of ``puzzles``."""


def puzzles(
    band: Annotated[
        str | None,
        typer.Option(help=helps(lazy("easy, medium or hard (any by default)."))),
    ] = None,
    daily: Annotated[
        bool, typer.Option("--daily", help=helps(lazy("Today's puzzle (UTC), the same for all.")))
    ] = False,
    puzzle_id: Annotated[
        str | None, typer.Option("--id", help=helps(lazy("A puzzle by its id.")))
    ] = None,
) -> None:
    if band is not None and band not in mined.BANDS:
        raise fail(
            _(
                "{band} is not a band; choose one of {bands}",
                band=repr(band),
                bands=", ".join(mined.BANDS),
            )
        )
    if puzzle_id is not None:
        chosen = mined.by_id(puzzle_id)
        if chosen is None:
            raise fail(_("no puzzle is called {id}", id=repr(puzzle_id)))
    elif daily:
        chosen = mined.daily(puzzles=mined.of_band(band) if band is not None else None)
    else:
        chosen = random.choice(mined.of_band(band))
    play(chosen)


def play(puzzle: mined.Puzzle) -> None:
    """Show the puzzle, read the player's turn (placements one a line, or several on a
    line: ``F7=2 F8=7``) until ``end`` or the end of input, judge it, then show the
    engine's answer. ``hint`` tells where the answer starts, ``help`` the commands;
    ``quit`` leaves without the answer, and an empty line reveals nothing."""
    from mathable.engine.actions import EndTurn, Place
    from mathable.engine.errors import MathableError
    from mathable.engine.notation import format_action, parse_actions
    from mathable.games import registry

    # TRANSLATORS: a puzzle's heading: its id, its band (easy, medium, hard)
    band = str(mined.BAND_NAMES[puzzle.band])
    console.print(Text(_("Puzzle {id} ({band})", id=puzzle.id, band=band), style="bold"))
    show(puzzle.position)
    target = ngettext(
        "Find a turn worth at least {count} point.",
        "Find a turn worth at least {count} points.",
        puzzle.target,
    )
    console.print(Text(target, style="bold"))
    console.print(Text(_commands()))
    grid = registry.position_grids()[puzzle.game]
    placed: list[str] = []
    while len(placed) < mined.MAX_TURN:
        # TRANSLATORS: the prompt of a puzzle: how many placements the turn holds so far
        console.print(Text(_("turn ({count})>", count=len(placed)) + " "), end="")
        line = sys.stdin.readline()
        if not line:
            break
        text = line.strip()[: MAX_LINE + 1]
        if not text:
            continue
        if len(text) > MAX_LINE:
            console.print(Text(_("a line has at most {most} characters", most=MAX_LINE)))
            continue
        word = i18n.command_word(text.split()[0]).lower()
        if word == "quit":
            said = _(
                "The answer stays hidden; try again with: {command}",
                command=f"mathable puzzles --id {puzzle.id}",
            )
            console.print(Text(said))
            return
        if word == "help":
            console.print(Text(_commands()))
            continue
        if word == "hint":
            first = puzzle.answer.split()[0].partition("=")[0]
            count = len(puzzle.answer.split())
            # TRANSLATORS: a puzzle's hint: how many placements the answer has, and the
            # cell of its first
            said = ngettext(
                "The engine's answer places {count} piece, on {cell}.",
                "The engine's answer places {count} pieces, the first on {cell}.",
                count,
                cell=first,
            )
            console.print(Text(said))
            continue
        try:
            actions = parse_actions(
                " ".join(i18n.command_word(w) for w in text.replace(",", " , ").split()), grid
            )
        except MathableError as exc:
            console.print(Text(_("refused: {reason}", reason=str(exc))))
            continue
        ending = isinstance(actions[-1], EndTurn)
        if ending:
            actions.pop()
        wrong = [a for a in actions if not isinstance(a, Place)]
        if wrong:
            said = _(
                "{action} is not a placement: type placements like I8=12, then {end}",
                action=format_action(wrong[0], grid),
                end=i18n.command_name("end"),
            )
            console.print(Text(_("refused: {reason}", reason=said)))
            continue
        written = [format_action(a, grid) for a in actions]
        if written:
            tried = mined.check(puzzle, [*placed, *written])
            if not tried.legal:
                console.print(Text(_("refused: {reason}", reason=str(tried.reason))))
                continue
            placed += written
            points = tried.points
            console.print(Text(ngettext("{count} point so far", "{count} points so far", points)))
        if ending:
            break
    _verdict(puzzle, placed)


def _commands() -> str:
    """What a puzzle's player may type, in a line."""
    return _(
        "Type placements (like I8=12, or a whole turn: I8=12 H6=8), then {end}; "
        "{hint} for a clue, {help}, or {quit} to leave without the answer.",
        end=i18n.command_name("end"),
        hint=i18n.command_name("hint"),
        help=i18n.command_name("help"),
        quit=i18n.command_name("quit"),
    )


def _verdict(puzzle: mined.Puzzle, placed: list[str]) -> None:
    """The player's turn judged, then the engine's answer and the best single placement."""
    result = mined.check(puzzle, placed) if placed else None
    if result is None:
        console.print(Text(_("No placement.")))
    elif result.solved:
        console.print(
            Text(ngettext("Solved: {count} point.", "Solved: {count} points.", result.points))
        )
    else:
        console.print(
            Text(
                ngettext(
                    "Not yet: {count} point, the target is {target}.",
                    "Not yet: {count} points, the target is {target}.",
                    result.points,
                    target=puzzle.target,
                )
            )
        )
    # TRANSLATORS: the engine's best turn in notation, then its points
    answer = _("The engine's answer: {turn} ({points})", turn=puzzle.answer, points=puzzle.points)
    console.print(Text(answer))
    obvious = _(
        "The best single placement: {placement} ({points})",
        placement=puzzle.obvious,
        points=puzzle.obvious_points,
    )
    console.print(Text(obvious))
