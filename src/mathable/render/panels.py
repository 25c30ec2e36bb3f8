"""Drawing surfaces, racks, turns, actions and score tables with Rich, shared by every
CLI command and the terminal app.

Everything is drawn from a game's :class:`~mathable.engine.protocol.GameType` (surface,
targets, actions, piece, score unit) and a view, never from the game's class. Surfaces
are drawn by the one surface drawer, :class:`mathable.tui.surface.Surface` (rich only,
no Textual), which the terminal app shares.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from mathable.engine.actions import ACTION_KINDS, Cell, Exchange, Place
from mathable.engine.notation import format_action
from mathable.engine.protocol import GameType, TurnSummary, View

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
    """What a player's pieces are held in: a rack of tokens or tiles, a hand of cards."""
    return "hand" if kind.piece == "card" else "rack"


def supply(kind: GameType) -> str:
    """Where pieces are drawn from: the bag, or the reserve of cards."""
    return "reserve" if kind.piece == "card" else "bag"


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
    rack_word: str = "rack",
) -> Table:
    """Scores per player (``unit`` heads the column: points, rounds) and the size of each
    rack (or hand) if given, the one to move marked."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("")
    table.add_column("player")
    table.add_column(unit, justify="right")
    if rack_sizes is not None:
        table.add_column(rack_word, justify="right")
    for seat, name in enumerate(players):
        row: list[str | Text] = ["▶" if seat == to_move else "", Text(name), str(scores[seat])]
        if rack_sizes is not None:
            row.append(str(rack_sizes[seat]))
        table.add_row(*row)
    return table


def player_card(unseen: Mapping[int, int]) -> Text:
    """C13: how many tokens of each value are still unseen."""
    text = Text("unseen: ", style="bold")
    parts = [f"{v}×{n}" if n > 1 else str(v) for v, n in unseen.items() if n]
    text.append(" ".join(parts) if parts else "none")
    return text


def summary_text(players: Sequence[str], turn: TurnSummary, kind: GameType) -> Text:
    """A finished turn in one line: who, the turn in notation, its points and notes."""
    text = Text()
    text.append(players[turn.seat], style="bold")
    text.append(f" {turn.notation}")
    if kind.score_unit == "points" and turn.points:
        text.append(f" for {turn.points}")
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
    text = Text("you may: ", style="bold")
    text.append("   ".join(examples.get(k, k) for k in available) or "wait")
    return text


def analysis_view(report: Mapping[str, Any], title: str = "Analysis") -> Group:
    """An analysis report (``ai.analysis.analysis_report``) as a table and a summary;
    points that a game does not count (None) are left blank."""
    table = Table(title=Text(title), header_style="bold")
    for column in ("#", "player", "played", "points", "best available", "best", "loss"):
        numeric = column in ("#", "points", "best", "loss")
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
            f"turn {m['turn']}: {m['best']} instead of {m['played']} (-{m['loss']})"
            for m in row.get("biggest_misses") or ()
        )
        lines.append(f"{row['player']}", style="bold")
        said = []
        if row.get("accuracy") is not None:
            said.append(f"accuracy {row['accuracy']}%")
        if row.get("average_loss") is not None:
            said.append(f"average loss {row['average_loss']} a turn")
        lines.append(": " + ", ".join(said) + "." if said else ".")
        lines.append(f" Biggest misses: {misses}\n" if misses else "\n")
    return Group(table, lines)


def _number(value: object) -> str:
    return "" if value is None else str(value)
