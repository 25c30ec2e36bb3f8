"""``mathable score``, ``replay``, ``analyse`` and ``variants``: score sheets of games played
on a real table, game records replayed and analysed, and the games this program plays."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from mathable.i18n import _, lazy, ngettext, pgettext

from ._later import later
from .games import load_game, on_a_board, position_of, written
from .shell import (
    BoardVariantOpt,
    JsonFlag,
    RecordArg,
    console,
    err,
    fail,
    game_type,
    helps,
    in_file,
    print_json,
    progress_bar,
    read_file,
)

if TYPE_CHECKING:
    from mathable.engine import errors
    from mathable.engine.protocol import Game, GameType
    from mathable.games import registry
    from mathable.render import panels
else:
    errors = later("mathable.engine.errors")
    registry = later("mathable.games.registry")
    panels = later("mathable.render.panels")


SCORE_HELP = helps(
    lazy("Score a game played on a real table from its transcript."),
    # TRANSLATORS: the notation between quotes is typed as it is, in every language
    lazy(
        "One line per turn: 'Ann: I8=12 H6=8 J8=16+', 'Bob: pass', 'Ann: exchange 3', "
        "and after the last turn 'Bob: left 3 5' for tokens left on the rack."
    ),
)
"""The help of ``score``."""


def score(
    file: Annotated[Path, typer.Argument(help=helps(lazy("A transcript: one line per turn.")))],
    json_out: JsonFlag = False,
    variant: BoardVariantOpt = "classic",
) -> None:
    kind = game_type(variant)
    on_a_board(kind, "score sheets")
    try:  # the game type scores its own sheets: no board-family import here (issue 34)
        sheet = registry.score_sheet(kind.name, read_file(file))
    except errors.MathableError as exc:
        raise fail(in_file(file, exc)) from None
    problem = sheet_problem(sheet, kind)
    if problem is not None:
        raise fail(in_file(file, problem))
    if json_out:
        print_json(sheet)
        return
    names = registry.position_grids()[kind.name]
    # TRANSLATORS: the title of a scored transcript's table, then the file's name
    table = Table(title=Text(_("Score sheet: {file}", file=file.name)), header_style="bold")
    table.add_column("#", justify="right")
    table.add_column(pgettext("column", "player"))
    # TRANSLATORS: a column heading of a score sheet: what the turn was
    table.add_column(pgettext("column", "turn"))
    table.add_column(pgettext("column", "points"), justify="right")
    # TRANSLATORS: a column heading of a score sheet: the player's total so far
    table.add_column(pgettext("column", "total"), justify="right")
    for number, turn in enumerate(sheet["turns"], start=1):
        if turn["kind"] == "place":
            what = " ".join(
                f"{written(names, names.parse(p['cell']), p['value'], p['extra'])} ({p['points']})"
                for p in turn["placements"]
            )
            if turn["bonus"]:
                # TRANSLATORS: the bonus points of a turn placing a whole rack (C9)
                what += "  " + _("+{bonus} bonus", bonus=turn["bonus"])
        elif turn["kind"] == "exchange":
            what = panels.exchanged_text(kind, turn["exchanged"])
        elif turn["kind"] == "left":
            # TRANSLATORS: the last line of a score sheet: what a player had left
            what = _("tokens left on the rack")
        else:
            # TRANSLATORS: a turn of a score sheet: the player passed
            what = pgettext("turn", "pass")
        table.add_row(
            str(number), Text(turn["player"]), Text(what), str(turn["points"]), str(turn["total"])
        )
    console.print(table)
    totals = ", ".join(f"{p} {t}" for p, t in sheet["totals"].items())
    # TRANSLATORS: then each player's name and total score
    console.print(Text(_("Totals: {scores}", scores=totals)))


def sheet_problem(sheet: Mapping[str, Any], kind: GameType) -> str | None:
    """What makes a scored transcript (``score --json``'s data) no game of ``kind``, or
    None: no turn at all, too few or too many players, or a player out of turn (turns go
    round in the order the players first appear)."""
    turns = sheet["turns"]
    if not turns:
        return _("there is no turn to score: write one line per turn, like 'Ann: I8=12'")
    players = list(sheet["totals"])
    if not kind.min_players <= len(players) <= kind.max_players:
        return ngettext(
            "{count} player: {game} is played by {fewest} to {most} players",
            "{count} players: {game} is played by {fewest} to {most} players",
            len(players),
            game=kind.title,
            fewest=kind.min_players,
            most=kind.max_players,
        )
    played = [turn for turn in turns if turn["kind"] != "left"]
    for number, turn in enumerate(played):
        due = players[number % len(players)]
        if turn["player"] != due:
            # TRANSLATORS: a score sheet's line number, who wrote a turn there, and whose
            # turn it was
            return _(
                "line {line}: a turn of {name}, but the turn was {due}'s",
                line=turn["line"],
                name=turn["player"],
                due=due,
            )
    return None


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
        data["position"] = position_of(game).format(game.cell_names)
    return data


REPLAY_HELP = helps(
    lazy("Replay a game record: its turns, then final scores, board, racks and bag.")
)
"""The help of ``replay``."""


def replay(
    record: RecordArg,
    json_out: JsonFlag = False,
    sheet: Annotated[
        bool,
        typer.Option("--sheet", help=helps(lazy("Print the game as a score sheet instead."))),
    ] = False,
) -> None:
    game = load_game(record)
    kind = game.game_type
    if sheet:
        if not kind.score_sheets:
            raise fail(_("{game} has no score sheets", game=kind.title))
        sys.stdout.write(game.score_sheet())  # the game type writes it (issue 34)
        return
    if json_out:
        print_json(_replay_data(game))
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
    # TRANSLATORS: then each player's name and rack (or hand)
    console.print(Text(_("hands:") if kind.piece == "card" else _("racks:")))
    for seat, name in enumerate(game.players):
        console.print(Text(f"  {name}: "), panels.rack_text(game.rack(seat)))
    # TRANSLATORS: an empty bag (or reserve of cards)
    drawn = " ".join(map(str, game.bag_order())) or pgettext("bag", "empty")
    if kind.piece == "card":
        # TRANSLATORS: the cards still to draw: how many, then their values in order
        supply = _("reserve ({count}): {values}", count=game.bag_size, values=drawn)
    else:
        # TRANSLATORS: the bag: how many tokens, then their values in the order drawn
        supply = _("bag ({count}): {values}", count=game.bag_size, values=drawn)
    console.print(Text(supply))
    if game.is_over:
        from mathable.render.words import winners_text

        won = winners_text(game)  # none once aborted (L1)
        if kind.rounds:
            over = _("Match over ({reason}).", reason=game.end_reason)
        else:
            over = _("Game over ({reason}).", reason=game.end_reason)
        console.print(Text(over + won))


VARIANTS_HELP = helps(lazy("List the games this program plays (--json: with their capabilities)."))
"""The help of ``variants``."""


def variants(json_out: JsonFlag = False) -> None:
    if json_out:
        print_json(registry.catalog())
        return
    for info in registry.GAMES.values():
        # TRANSLATORS: a game's title, how many play it, then a line on it
        said = _(
            "{game}, {fewest}-{most} players. {summary}",
            game=info.title,
            fewest=info.min_players,
            most=info.max_players,
            summary=info.summary,
        )
        console.print(Text.assemble((info.name, "bold"), f": {said}"))


ANALYSE_HELP = helps(
    lazy(
        "Per turn, the turn played against the best available, judged by equity and "
        "the chance of winning: the points, the equity lost and the chance before and "
        "after."
    )
)
"""The help of ``analyse``."""


DepthOpt = Annotated[
    str,
    typer.Option(
        "--depth",
        help=helps(
            lazy(
                "How deep each turn is judged: expert (the default, a few seconds a game) "
                "or master (the master's budgets, some ten times longer)."
            )
        ),
    ),
]


def analyse(record: RecordArg, json_out: JsonFlag = False, depth: DepthOpt = "expert") -> None:
    from mathable.ai.analysis import analysis_report
    from mathable.ai.equity import DEPTHS, EXPERT_DEPTH

    chosen = DEPTHS.get(depth.strip().lower())
    if chosen is None:
        raise fail(
            _(
                "--depth: {depth} is no depth of analysis ({depths})",
                depth=depth,
                depths=", ".join(DEPTHS),
            )
        )
    game = load_game(record)
    with progress_bar(hidden=json_out) as progress:
        # TRANSLATORS: a progress bar's label while a game's turns are analysed
        task = progress.add_task(_("analysing"), total=len(game.summaries()))
        report = analysis_report(game, chosen, progress=lambda: progress.advance(task))
    if report["method"] is None and chosen is not EXPERT_DEPTH:  # a card game: one judgement
        err.print(
            Text(
                # TRANSLATORS: {game} is a game's title (Mathable Quattro)
                _(
                    "note: --depth {depth} changes nothing here: {game}'s analysis counts "
                    "the cards a turn could have played",
                    depth=chosen.name,
                    game=game.game_type.title,
                )
            ),
            soft_wrap=True,
        )
    if json_out:
        print_json(report)
        return
    # TRANSLATORS: the title of a game's analysis, then the record's file name
    title = _("Analysis: {file}", file=record.name)
    console.print(panels.analysis_view(report, title))
    for turn in report["turns"]:  # issue 18: each turn's first placement explained
        played, best = turn.get("played_explanation"), turn.get("best_explanation")
        if played is None:
            if turn.get("why"):
                console.print(Text(_("turn {turn}: {why}", turn=turn["turn"], why=turn["why"])))
            continue
        # TRANSLATORS: a turn's number, its first placement (I8=12), then its explanation
        line = _(
            "turn {turn}: {placement}: {explanation}",
            turn=turn["turn"],
            placement=f"{played['target']}={played['value']}",
            explanation=played["text"],
        )
        if best is not None and turn.get("loss"):
            # TRANSLATORS: the best turn's first placement (I8=12), then its explanation
            line += "; " + _(
                "best {placement}: {explanation}",
                placement=f"{best['target']}={best['value']}",
                explanation=best["text"],
            )
        if turn.get("why"):
            line += ". " + turn["why"]
        console.print(Text(line))
