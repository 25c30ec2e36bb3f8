"""Drawing surfaces, racks, turns, actions and score tables with Rich, shared by every
CLI command and the terminal app.

Everything is drawn from a game's :class:`~mathable.engine.protocol.GameType` (surface,
targets, actions, piece, score unit) and a view, never from the game's class. Surfaces
are drawn by the one surface drawer, :class:`mathable.tui.surface.Surface` (rich only,
no Textual), which the terminal app shares.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from mathable.engine.actions import ACTION_KINDS, Cell, Exchange, Place
from mathable.engine.notation import format_action
from mathable.engine.protocol import GameType, TurnSummary, View
from mathable.i18n import Text as Message
from mathable.i18n import _, command_name, lazy_context, ngettext, pgettext

from . import surface

EMPTY = surface.EMPTY
"""What a view's ``surface`` holds on an empty target."""


def surface_group(
    kind: GameType,
    values: Sequence[int],
    recent: Collection[Cell] = (),
    notes: tuple[str, ...] = (),
) -> Group:
    """A game's surface (a board, piles) with what lies on it, ``recent`` targets (the
    last turn) highlighted, ``notes`` under piles, and the legend of its colours."""
    drawing = surface.Surface(kind)
    drawn = drawing.draw(tuple(values), recent=recent, notes=notes)
    key = drawing.legend()
    return Group(drawn, key) if key.plain else Group(drawn)


def view_surface(kind: GameType, view: View) -> Group:
    """A view's surface, its recent targets highlighted and its target notes shown."""
    return surface_group(kind, view.surface, view.recent_targets, view.target_notes)


# -- racks, players, turns -----------------------------------------------------------


def holder(kind: GameType) -> str:
    """What a player's pieces are held in, in the current language: a rack of tokens or
    tiles, a hand of cards."""
    if kind.piece == "card":
        # TRANSLATORS: the cards a player holds (Mathable Quattro), a column heading
        return pgettext("holder", "hand")
    # TRANSLATORS: the stand a player's tokens or tiles stand on, a column heading
    return pgettext("holder", "rack")


def supply(kind: GameType) -> str:
    """Where pieces are drawn from, in the current language: the bag, or the reserve of
    cards."""
    if kind.piece == "card":
        # TRANSLATORS: the cards still to draw (Mathable Quattro)
        return pgettext("supply", "reserve")
    # TRANSLATORS: the bag the tokens or tiles are drawn from
    return pgettext("supply", "bag")


def supply_count(kind: GameType, count: int) -> str:
    """How many pieces are left to draw, in the current language: ``bag: 92``."""
    if kind.piece == "card":
        # TRANSLATORS: how many cards are left to draw (Mathable Quattro)
        return _("reserve: {count}", count=count)
    # TRANSLATORS: how many tokens (or tiles) are left in the bag
    return _("bag: {count}", count=count)


SCORE_UNITS: dict[str, Message] = {
    # TRANSLATORS: a column heading of the scores
    "score": lazy_context("column", "score"),
    # TRANSLATORS: a column heading of the scores: points scored
    "points": lazy_context("column", "points"),
    # TRANSLATORS: a column heading of the scores: rounds won (Mathable Quattro)
    "rounds": lazy_context("column", "rounds"),
}
"""The heading of a score column, by a game's ``score_unit``."""


def rack_text(rack: Collection[int]) -> Text:
    """A rack as tiles."""
    text = Text()
    for value in rack:
        text.append(f" {value} ", style="bold black on bright_white")
        text.append(" ")
    return text


def scores_table(
    players: tuple[str, ...],
    scores: tuple[int, ...],
    to_move: int | None,
    rack_sizes: tuple[int, ...] | None = None,
    unit: str = "score",
    rack_word: str | None = None,
) -> Table:
    """Scores per player (``unit`` heads the column: a game's ``score_unit``, points or
    rounds, shown in the current language) and the size of each rack (or hand: the
    heading ``rack_word``) if given, the one to move marked."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("")
    # TRANSLATORS: a column heading: the players' names
    table.add_column(pgettext("column", "player"))
    table.add_column(str(SCORE_UNITS.get(unit, unit)), justify="right")
    if rack_sizes is not None:
        table.add_column(
            pgettext("holder", "rack") if rack_word is None else rack_word, justify="right"
        )
    for seat, name in enumerate(players):
        row: list[str | Text] = ["▶" if seat == to_move else "", Text(name), str(scores[seat])]
        if rack_sizes is not None:
            row.append(str(rack_sizes[seat]))
        table.add_row(*row)
    return table


def player_card(unseen: Mapping[int, int]) -> Text:
    """C13: how many tokens of each value are still unseen."""
    # TRANSLATORS: the player card (C13): the values of the pieces not seen yet follow
    text = Text(_("unseen:") + " ", style="bold")
    parts = [f"{v}×{n}" if n > 1 else str(v) for v, n in unseen.items() if n]
    # TRANSLATORS: the player card (C13) when every piece has been seen
    text.append(" ".join(parts) if parts else pgettext("unseen", "none"))
    return text


_EXCHANGED = re.compile(r"exchange (\d{1,3})", re.ASCII)
"""A score sheet's exchange (``exchange 6``: how many pieces, not which)."""


def exchanged_text(kind: GameType, count: int) -> str:
    """An exchange of ``count`` pieces in words: ``exchanged 6 tokens`` (never ``exchange
    6``, which reads as giving back the token 6)."""
    if kind.piece == "card":
        return ngettext("exchanged {count} card", "exchanged {count} cards", count)
    if kind.piece == "tile":
        return ngettext("exchanged {count} tile", "exchanged {count} tiles", count)
    return ngettext("exchanged {count} token", "exchanged {count} tokens", count)


def turn_words(turn: TurnSummary, kind: GameType) -> str:
    """A finished turn as a move list shows it: its notation (``I8=12 H6=8``,
    ``pass``), an exchange in words (:func:`exchanged_text`)."""
    exchanged = _EXCHANGED.fullmatch(turn.notation)
    if exchanged:
        return exchanged_text(kind, int(exchanged[1]))
    return turn.notation


def summary_text(players: Sequence[str], turn: TurnSummary, kind: GameType) -> Text:
    """A finished turn in one line: who, the turn (:func:`turn_words`), its points and
    notes."""
    text = Text()
    text.append(players[turn.seat], style="bold")
    text.append(f" {turn_words(turn, kind)}")
    if kind.score_unit == "points" and turn.points:
        # TRANSLATORS: after a turn in the notation: the points it scored
        text.append(" " + _("for {points}", points=turn.points))
    if turn.note:
        text.append(f" ({turn.note})")
    return text


def action_examples(kind: GameType) -> dict[str, str]:
    """Per action keyword of ``kind``, in :data:`ACTION_KINDS` order, how it is typed:
    ``A8=12``, ``F3=12+`` (on a restriction square), ``A=12``, ``exchange 3,5``."""
    names, targets = kind.target_names, kind.targets
    middle = len(targets) // 2
    special = next((i for i, t in enumerate(targets) if t.kind == "restriction"), middle)
    swap = (3, 5, 7, 9)[: kind.exchange_exactly or 2]
    typed = {
        "place": format_action(Place(middle, 12), names),
        "extra": format_action(Place(special, 12, extra=True), names),
        "exchange": format_action(Exchange(swap), names),
    }
    return {k: typed.get(k, k) for k in ACTION_KINDS if kind.has(k)}


def actions_text(available: Sequence[str], examples: Mapping[str, str]) -> Text:
    """The actions a seat may take now (a view's ``available``), each as an example of
    how it is typed where one is given (``G6=8``, ``exchange 3``), else its keyword."""
    # TRANSLATORS: what the player may type now follows (G6=8   pass   exchange 3)
    text = Text(_("you may:") + " ", style="bold")
    typed = (
        typed_in_language(examples[k]) if k in examples else command_name(k) for k in available
    )
    # TRANSLATORS: instead of the actions a player may take, when there are none now
    text.append("   ".join(typed) or _("wait"))
    return text


def typed_in_language(typed: str) -> str:
    """An action as typed (``exchange 3,5``, ``pass``, ``G6=8``) with its command word in
    the current language (``échanger 3,5``): the notation itself is the same in every
    language, and the word in either language is accepted."""
    first, space, rest = typed.partition(" ")
    return f"{command_name(first)}{space}{rest}"


def analysis_view(report: Mapping[str, Any], title: str | None = None) -> Group:
    """An analysis report (``ai.analysis.analysis_report``) as a table and a summary: a
    board game's by equity and chances of winning (version 3, issue 35), a card game's
    (no ``method``) by the cards it could have played; points that a game does not count
    (None) are left blank."""
    # TRANSLATORS: the title of a game's analysis (each turn against the best one)
    title = _("Analysis") if title is None else title
    if report.get("method") is not None:
        return Group(_equity_table(report, title), _equity_summary(report))
    table = Table(title=Text(title), header_style="bold")
    columns = (
        ("#", True),
        (pgettext("column", "player"), False),
        # TRANSLATORS: a column heading of an analysis: the turn played
        (pgettext("column", "played"), False),
        (pgettext("column", "points"), True),
        # TRANSLATORS: a column heading of an analysis: the best turn there was
        (pgettext("column", "best available"), False),
        # TRANSLATORS: a column heading of an analysis: the points of the best turn
        (pgettext("column", "best"), True),
        # TRANSLATORS: a column heading of an analysis: points lost against the best turn
        (pgettext("column", "loss"), True),
    )
    for column, numeric in columns:
        table.add_column(column, justify="right" if numeric else "left")
    for t in report["turns"]:
        table.add_row(
            str(t["turn"]),
            Text(str(t["player"])),
            Text(str(t["played"])),
            _number(t.get("points")),
            Text(str(t.get("best") or "")),
            _number(t.get("best_points")),
            _number(t.get("loss") or None),
        )
    lines = Text()
    for row in report["players"]:
        misses = "; ".join(
            # TRANSLATORS: a missed turn: its number, the best turn, the turn played and
            # the points lost
            _(
                "turn {turn}: {best} instead of {played} (-{loss})",
                turn=m["turn"],
                best=m["best"],
                played=m["played"],
                loss=m["loss"],
            )
            for m in row.get("biggest_misses") or ()
        )
        lines.append(f"{row['player']}", style="bold")
        said = []
        if row.get("accuracy") is not None:
            said.append(_("accuracy {percent}%", percent=row["accuracy"]))
        if row.get("average_loss") is not None:
            said.append(_("average loss {points} a turn", points=row["average_loss"]))
        lines.append(": " + ", ".join(said) + "." if said else ".")
        lines.append(" " + _("Biggest misses: {misses}", misses=misses) + "\n" if misses else "\n")
    return Group(table, lines)


def _equity_table(report: Mapping[str, Any], title: str) -> Table:
    """The turns of a board game's analysis (version 3) in 80 columns: points, the best
    turn, the equity lost and the chance of winning before and after."""
    table = Table(title=Text(title), header_style="bold", pad_edge=False)
    columns = (
        ("#", True),
        (pgettext("column", "player"), False),
        (pgettext("column", "played"), False),
        # TRANSLATORS: a column heading of an analysis: points scored (short)
        (pgettext("column", "pts"), True),
        # TRANSLATORS: a column heading of an analysis: the best turn there was
        (pgettext("column", "best available"), False),
        # TRANSLATORS: a column heading of an analysis: equity lost against the best (short)
        (pgettext("column", "eq. lost"), True),
        # TRANSLATORS: a column heading of an analysis: chance of winning, before -> after
        (pgettext("column", "win %"), True),
    )
    for column, numeric in columns:
        table.add_column(
            column,
            justify="right" if numeric else "left",
            overflow="fold",
            no_wrap=numeric,
            ratio=None if numeric else 1,
        )
    for t in report["turns"]:
        before, after = t.get("win_before"), t.get("win_after")
        chances = "" if before is None or after is None else f"{before:.0f}→{after:.0f}"
        lost = t.get("equity_loss")
        table.add_row(
            str(t["turn"]),
            Text(str(t["player"])),
            Text(str(t["played"])),
            "" if t.get("points") is None else str(t["points"]),
            Text("" if t.get("best") == t.get("played") else str(t.get("best") or "")),
            "" if not lost else f"{lost:.0f}",
            chances,
        )
    return table


def _equity_summary(report: Mapping[str, Any]) -> Text:
    """Each player's accuracy (from the chance of winning lost) and biggest misses, and
    how the analysis judged (the samples simulated per turn)."""
    lines = Text()
    for row in report["players"]:
        lines.append(f"{row['player']}", style="bold")
        # TRANSLATORS: a player's accuracy, then the percentage points of winning chance lost
        said = _(
            "accuracy {percent}%, {lost} points of winning chance lost.",
            percent=row["accuracy"],
            lost=row.get("win_loss") or 0,
        )
        lines.append(": " + said)
        misses = "; ".join(
            _(
                "turn {turn}: {best} instead of {played} (-{loss})",
                turn=m["turn"],
                best=m["best"],
                played=m["played"],
                loss=m["loss"],
            )
            for m in row.get("biggest_misses") or ()
        )
        lines.append(" " + _("Biggest misses: {misses}", misses=misses) + "\n" if misses else "\n")
    method = report.get("method") or {}
    if method.get("samples"):
        # TRANSLATORS: how an analysis judged; {samples} is a number of simulated games
        lines.append(
            _(
                "Judged by equity (points, the tokens kept, the board opened) and {samples} "
                "simulated replies per turn; chances of winning from the margin and the "
                "tokens left.",
                samples=method["samples"],
            )
        )
        lines.append("\n" + depth_words(method))
    return lines


def depth_words(method: Mapping[str, Any]) -> str:
    """The depth a board game's analysis judged at, said with its samples (a report kept
    before the depths was the expert's); the web's page says the same words."""
    said = {"samples": method.get("samples")}
    if method.get("depth") == "master":
        # TRANSLATORS: how deep the analysis judged each turn; {samples} counts the racks
        # and replies simulated
        return _("Judged at the master's depth: {samples} samples a turn.", **said)
    return _("Judged at the expert's depth: {samples} samples a turn.", **said)


def _number(value: object) -> str:
    return "" if value is None else str(value)
