"""A game as plain text for :meth:`MathableEnv.render <mathable.rl.env.MathableEnv.render>`:
the surface as a grid (a board's empty squares show what is printed on them), the scores,
the bag, and the rack of the seat to move.

Plain text with no colours, drawn from the game's type and a view as the terminal game's
board is (:mod:`mathable.render` draws the coloured one, a floor above this package).
"""

from __future__ import annotations

import re

from mathable.engine.protocol import GameType, View

WIDTH = 4
"""Characters per target."""


def _cell(value: int, label: str) -> str:
    """A piece's value, or an empty target's printed label in brackets (``[+]``,
    ``[12]`` on Junior's numbered board, so it never reads as a piece), or ``.``."""
    shown = str(value) if value >= 0 else (f"[{label}]" if label else ".")
    return shown.rjust(WIDTH)


def surface_text(kind: GameType, surface: tuple[int, ...]) -> list[str]:
    """The surface as lines: column letters above, each row under its number (a square
    of piles: each pile by its name)."""
    columns = kind.columns
    rows = [kind.targets[i : i + columns] for i in range(0, len(kind.targets), columns)]
    if kind.surface == "piles":
        return [
            "  ".join(f"{t.name}:{_cell(surface[kind.targets.index(t)], '-')}" for t in row)
            for row in rows
        ]
    letters = [re.sub(r"\d", "", t.name) for t in rows[0]]
    lines = ["   " + "".join(letter.rjust(WIDTH) for letter in letters)]
    for r, row in enumerate(rows):
        number = re.sub(r"\D", "", row[0].name)
        start = r * columns
        cells = "".join(_cell(surface[start + c], target.label) for c, target in enumerate(row))
        lines.append(number.rjust(3) + cells)
    return lines


def game_text(kind: GameType, view: View, to_move_rack: tuple[int, ...]) -> str:
    """The whole picture: the surface, then who has what and whose turn it is."""
    lines = [f"{kind.name}: " + ("over: " + view.end_reason if view.over else "in play")]
    lines += surface_text(kind, view.surface)
    scores = "  ".join(
        f"player_{seat}{'*' if seat == view.to_move and not view.over else ''}={score}"
        for seat, score in enumerate(view.scores)
    )
    lines.append(f"scores: {scores}   bag: {view.bag_size}")
    if not view.over:
        rack = " ".join(map(str, to_move_rack))
        lines.append(f"player_{view.to_move} to move, rack: {rack}")
    if view.summaries:
        last = view.summaries[-1]
        lines.append(f"last turn: player_{last.seat} {last.notation} ({last.points})")
    return "\n".join(lines)
