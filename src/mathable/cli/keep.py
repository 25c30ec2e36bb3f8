"""``mathable keep``: the score keeper in the terminal (issue 37), a game on a real board
or a Quattro match kept one line per turn, with the same checks and answers as
``/api/keeper``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from mathable.i18n import _, lazy

from ._later import later
from .shell import VariantOpt, console, err, fail, helps

if TYPE_CHECKING:
    from mathable.ai import kept_analysis, kept_jobs
    from mathable.engine import errors
    from mathable.games import registry
    from mathable.render import panels
else:
    errors = later("mathable.engine.errors")
    registry = later("mathable.games.registry")
    kept_analysis = later("mathable.ai.kept_analysis")
    kept_jobs = later("mathable.ai.kept_jobs")
    panels = later("mathable.render.panels")

KEEP_HELP = helps(
    lazy("Keep the score of a game played on a real board, one turn per line."),
    # TRANSLATORS: the notation between quotes is typed as it is, in every language
    lazy(
        "Quattro: first the four cards turned up, 'A=20 B=12 C=7 D=2'; then each turn: "
        "the cards played, 'A=32 B=5' ('diago A=32' after DIAGO), or a stuck turn, "
        "'draw C=7 exchange' or 'draw C=7 penalty', or 'pass'."
    ),
    # TRANSLATORS: the notation between quotes is typed as it is, in every language
    lazy(
        "Type the turn of the player to move: 'I8=12 J8=16+' ('+': an extra token taken), "
        "'pass', 'exchange 3', 'challenge' (the last turn), 'undo', and at the end "
        "'end 5,7 / -' (each player's tokens left, in seat order): the analysis follows "
        "(or type 'analyse'). An empty line or 'quit' stops."
    ),
)
"""The help of ``keep``."""


def keep(
    players: Annotated[
        str,
        typer.Option(
            "--players", help=helps(lazy("The players in seat order, separated by commas."))
        ),
    ],
    variant: VariantOpt = "classic",
    first: Annotated[
        str | None,
        typer.Option(
            "--first", help=helps(lazy("Who starts (default: the first listed); 'draw': draw."))
        ),
    ] = None,
    referee: Annotated[
        bool,
        typer.Option(
            "--referee", help=helps(lazy("Table referee: mistakes stand until challenged (C12)."))
        ),
    ] = False,
    rounds: Annotated[
        int,
        typer.Option("--rounds", help=helps(lazy("The rounds agreed (Quattro, Q5)."))),
    ] = 1,
    save: Annotated[
        Path | None,
        typer.Option("--save", help=helps(lazy("Write the score sheet to this file."))),
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record",
            help=helps(
                lazy("Write a game record (mathable replay reads it) to this file at the end.")
            ),
        ),
    ] = None,
) -> None:
    names = [" ".join(p.split()) for p in players.split(",")]
    try:
        seat = registry.first_seat(variant, names, first)
        game = registry.kept_game(variant, names, first=seat, referee=referee, rounds=rounds)
    except errors.MathableError as exc:
        raise fail(str(exc)) from None
    console.print(Text(_("{name} starts.", name=names[seat])))
    prompt(game)
    for raw in sys.stdin:
        line = raw.strip()
        if not line or line.lower() in ("quit", "q"):
            break
        if line.lower() in ("analyse", "analyze"):
            show_analysis(game)
            continue
        was_over = game.is_over
        try:
            turn = game.play(line)
        except errors.MathableError as exc:
            # TRANSLATORS: an entry the score keeper refuses; nothing is recorded
            err.print(Text(_("refused: {reason}", reason=str(exc))))
            continue
        show(game, turn, line)
        if game.is_over and not was_over:  # the end entered, or a match's last round won
            show_analysis(game)
        if save is not None:
            save.write_text(game.sheet(), encoding="utf-8")
    if save is not None:
        save.write_text(game.sheet(), encoding="utf-8")
        console.print(Text(_("Score sheet written to {file}", file=str(save))))
    if record is not None:
        write_record(game, record)


def prompt(game: registry.Kept) -> None:
    """What the table enters first, when it is not a turn: Quattro's four cards turned up."""
    if not registry.kept_table(game)["started"]:
        # TRANSLATORS: the notation between quotes is typed as it is, in every language
        console.print(Text(_("Turn up four cards and type them, like 'A=20 B=12 C=7 D=2'.")))


def show_analysis(game: registry.Kept) -> None:
    """Per placement turn, the best turn its tokens could have made on the board as it
    stood (the racks are unknown, R1), in the game analysis's table; for Quattro, the
    longest chain of the turn's own cards on the piles as they stood (counted in cards);
    or why there is none."""
    try:
        analysed = kept_jobs.analysed(game)
    except errors.MathableError as exc:
        err.print(Text(str(exc)))
        return
    report = kept_analysis.kept_analysis_report(analysed)
    turns = [{**t, "loss": t["lost"]} for t in report["turns"]]
    players = []
    for row in report["players"]:
        mine = [t for t in turns if t["player"] == row["player"]]
        worst = sorted((t for t in mine if t["lost"]), key=lambda t: -t["lost"])[:3]
        players.append(
            {
                "player": row["player"],
                "average_loss": round(row["lost"] / len(mine), 1) if mine else 0.0,
                "biggest_misses": worst,
            }
        )
    if report.get("unit") == "cards":
        # TRANSLATORS: the title of a kept Quattro match's analysis: each turn against the
        # best turn the same cards could have made (the hands are unknown)
        title = _("Analysis: the best turn of the same cards")
    else:
        # TRANSLATORS: the title of a kept game's analysis: each turn against the best turn
        # the same tokens could have made (the racks are unknown)
        title = _("Analysis: the best turn of the same tokens")
    console.print(panels.analysis_view({"turns": turns, "players": players}, title))


def write_record(game: registry.Kept, path: Path) -> None:
    """The kept game's record (racks reconstructed, R1) to ``path``, or why it has none."""
    try:
        data = registry.kept_record(game)
    except errors.MathableError as exc:
        # TRANSLATORS: the kept game cannot be written as a game record, then why
        err.print(Text(_("no record: {reason}", reason=str(exc))))
        return
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    console.print(Text(_("Game record written to {file}", file=str(path))))


def show(game: registry.Kept, turn: registry.KeptAnyTurn, line: str) -> None:
    """What an entry did: the turn's points explained, the scores, who is to move, the
    player card; for Quattro, the piles, the hands and the round."""
    keyword = line.split()[0].lower()
    if keyword not in ("undo", "end") and game.turns and turn.kind != "piles":
        for index, explained in enumerate(turn.explanations):
            placed = turn.placements[index]
            if placed.mistake:
                # TRANSLATORS: a placement accepted as a mistake (C12), then why
                console.print(
                    Text(f"  {placed.cell}={placed.value}: " + _("mistake") + f" ({placed.points})")
                )
            else:
                console.print(Text(f"  {explained.text()}"))
        if turn.bonus:
            console.print(Text("  " + _("+{bonus} bonus", bonus=turn.bonus)))
        for note in getattr(turn, "notes", ()):
            console.print(Text(f"  {note}"))
        name = game.players[turn.seat]
        if "piles" in registry.kept_table(game):  # Quattro scores rounds (the notes say)
            console.print(Text(f"{name}: {turn.notation}"))
        else:
            # TRANSLATORS: a kept turn: who played it, what, and its points
            console.print(
                Text(
                    _(
                        "{name}: {turn}: {points} points",
                        name=name,
                        turn=turn.notation,
                        points=turn.points,
                    )
                )
            )
    scores = ", ".join(f"{n} {s}" for n, s in zip(game.players, game.scores, strict=True))
    console.print(Text(_("Totals: {scores}", scores=scores)))
    if game.is_over:
        # TRANSLATORS: the kept game has ended (C11)
        console.print(Text(_("The game is over.")))
        return
    show_piles(game)
    if game.ending:
        console.print(Text(_("The bag is empty and a rack too: type 'end' and the tokens left.")))
    card = " ".join(f"{v}×{n}" for v, n in game.unseen().items() if n)
    # TRANSLATORS: the player card (C13): the values not yet seen, then how many
    console.print(Text(_("Unseen: {card}", card=card)))
    console.print(Text(_("{name} to move.", name=game.players[game.to_move])))


def show_piles(game: registry.Kept) -> None:
    """Quattro's table (Q1-Q5): the piles' top cards, the cards in each hand and in the
    reserve, the round; nothing for a game on a board (its board is the table's)."""
    table = registry.kept_table(game)
    if "piles" not in table or not table["started"]:
        return
    piles = "  ".join(f"{name} {top}" for name, top in zip("ABCD", table["piles"], strict=True))
    hands = ", ".join(f"{n} {c}" for n, c in zip(game.players, table["racks"], strict=True))
    # TRANSLATORS: Quattro's table: the piles' top cards, the cards in each hand, the
    # reserve's cards, the round being played of those agreed
    line = _(
        "Piles: {piles} · hands: {hands} · reserve: {reserve} · round {round} of {rounds}",
        piles=piles,
        hands=hands,
        reserve=table["reserve"],
        round=table["round"],
        rounds=table["rounds"],
    )
    console.print(Text(line + (" · DIAGO" if table["diagonals"] else "")))
