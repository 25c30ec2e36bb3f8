"""Drawing boards, racks and score tables with Rich, shared by every CLI command."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from mathable.games.board.board import EMPTY
from mathable.games.board.geometry import COLUMN_LETTERS, Cell
from mathable.games.board.layouts import Layout, Square

# Colours of the printed board: restriction squares blue, 2x purple, 3x orange.
_STYLES = {
    "restriction": "bold white on blue",
    "2": "bold white on purple",
    "3": "bold black on dark_orange",
    "centre": "bold black on grey70",
    "number": "black on light_goldenrod2",
    "plain": "",
}


def _square_style(square: Square) -> str:
    if square.start is not None:
        return _STYLES["centre"]
    if square.restriction is not None:
        return _STYLES["restriction"]
    if square.number is not None:
        return _STYLES["number"]
    if square.multiplier > 1:
        return _STYLES[str(square.multiplier)]
    return _STYLES["plain"]


def _square_label(square: Square) -> str:
    if square.restriction is not None:
        return {"x": "×", "/": "÷", "-": "−"}.get(
            square.restriction.symbol, square.restriction.symbol
        )
    if square.number is not None:
        return str(square.number)
    if square.multiplier > 1:
        return f"{square.multiplier}x"
    return "·"


def board_text(
    layout: Layout,
    values: list[int] | tuple[int, ...],
    highlight: Collection[Cell] = (),
    marks: Mapping[Cell, str] | None = None,
    cursor: Cell | None = None,
) -> Text:
    """The board as coloured text: squares in their colours, tokens bold, ``highlight``
    (the last turn) in reverse video, ``marks`` drawn on empty squares (e.g. the legal
    cells of a chosen token), ``cursor`` underlined in yellow (keyboard play).

    Each cell is 4 characters wide after a 4-character row label, below one header
    line: the terminal app maps mouse clicks back to cells with :func:`cell_at`."""
    size = layout.size
    out = Text()
    out.append(
        "    " + "".join(f"{COLUMN_LETTERS[c]:^4}" for c in range(size)) + "\n", style="bold"
    )
    for row in range(size):
        out.append(f"{row + 1:>3} ", style="bold")
        for col in range(size):
            cell = row * size + col
            square = layout.squares[cell]
            value = values[cell]
            if value != EMPTY:
                style = "bold reverse" if cell in highlight else "bold"
                if square.start is not None and cell not in highlight:
                    style = _STYLES["centre"]
                label = f"{value:^4}"
            elif marks and cell in marks:
                label, style = f"{marks[cell]:^4}", "bold black on green3"
            else:
                label, style = f"{_square_label(square):^4}", _square_style(square) or "dim"
            if cell == cursor:
                style = f"{style} underline on yellow" if value == EMPTY else f"{style} underline"
            out.append(label, style=style)
        out.append(f" {row + 1:<3}\n", style="bold")
    return out


def legend() -> Text:
    """What the colours mean."""
    text = Text("squares: ")
    text.append(" + − × ÷ ", style=_STYLES["restriction"])
    text.append(" only that operation  ")
    text.append(" 2x ", style=_STYLES["2"])
    text.append(" ")
    text.append(" 3x ", style=_STYLES["3"])
    text.append(" award")
    return text


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
) -> Table:
    """Scores per player, the one to move marked."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("")
    table.add_column("player")
    table.add_column("score", justify="right")
    if rack_sizes is not None:
        table.add_column("rack", justify="right")
    for seat, name in enumerate(players):
        row = ["▶" if seat == to_move else "", name, str(scores[seat])]
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


def board_group(
    layout: Layout, values: list[int] | tuple[int, ...], highlight: Collection[Cell] = ()
) -> Group:
    """The board with its legend."""
    return Group(board_text(layout, values, highlight), legend())


def cell_at(size: int, x: int, y: int) -> Cell | None:
    """The cell under column ``x``, line ``y`` of :func:`board_text`'s drawing."""
    col, row = (x - 4) // 4, y - 1
    if x < 4 or not (0 <= col < size and 0 <= row < size):
        return None
    return row * size + col


def analysis_view(report: Mapping[str, Any], title: str = "Analysis") -> Group:
    """An analysis report (``bots.analysis.analysis_report``) as a table and a summary."""
    table = Table(title=title, header_style="bold")
    for column in ("#", "player", "played", "points", "best available", "best", "loss"):
        numeric = column in ("#", "points", "best", "loss")
        table.add_column(column, justify="right" if numeric else "left")
    for t in report["turns"]:
        table.add_row(
            str(t["turn"]),
            t["player"],
            t["played"],
            str(t["points"]),
            t["best"],
            str(t["best_points"]),
            str(t["loss"] or ""),
        )
    lines = Text()
    for row in report["players"]:
        misses = "; ".join(
            f"turn {m['turn']}: {m['best']} instead of {m['played']} (-{m['loss']})"
            for m in row["biggest_misses"]
        )
        lines.append(f"{row['player']}", style="bold")
        lines.append(
            f": accuracy {row['accuracy']}%, average loss {row['average_loss']} a turn."
            + (f" Biggest misses: {misses}" if misses else "")
            + "\n"
        )
    return Group(table, lines)
