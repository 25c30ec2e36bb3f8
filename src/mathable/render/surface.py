"""Drawing any game's surface from its capabilities, and mapping clicks back to targets.

A game says what it is played on (``GameType.surface``: a board of cells or a square of
piles), how many targets a row holds and each target's kind and label; a view says what
lies on each target. This module turns those into coloured text and back: a board as a
grid of small squares under column letters, piles as cards. It never asks which game it
draws.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from rich.text import Text

from mathable.engine.protocol import GameType, Target
from mathable.i18n import Text as Message
from mathable.i18n import _, lazy

EMPTY = -1
"""What a view's ``surface`` holds on an empty target."""

KIND_STYLES = {
    "restriction": "bold white on blue",
    "x2": "bold white on purple",
    "x3": "bold black on dark_orange",
    "centre": "bold black on grey70",
    "number": "black on light_goldenrod2",
    "plain": "dim",
    "pile": "bold",
}
"""Colours of the printed boards: restriction squares blue, 2x purple, 3x orange."""

KIND_MEANINGS: dict[str, Message] = {
    # TRANSLATORS: the legend of a board's squares: a restriction square (+ − × ÷) takes
    # only an equation of that operation
    "restriction": lazy("only that operation"),
    # TRANSLATORS: the legend of a board's squares: the 2× and 3× squares multiply points
    "x2": lazy("award"),
    "x3": lazy("award"),
    # TRANSLATORS: the legend of a numbered board's squares: each takes only its number
    "number": lazy("only that number"),
}
"""What the legend says of a square kind (kinds not here need no word), translated when
shown."""

_SYMBOLS = str.maketrans({"x": "×", "/": "÷", "-": "−"})
_OPERATORS = "+−×÷"
MARKED = "bold black on green3"
"""Targets a chosen piece may go on, or a hint's."""

SQUARE_WIDTH = 4
"""Characters per board square; a row label of the same width comes first."""
CARD_WIDTH, CARD_GAP, CARD_MARGIN = 7, 2, 2
"""A pile's card, the space between cards, the space before the first."""


def _label(target: Target) -> str:
    """What an empty target shows (operators as printed: × ÷ −)."""
    if target.kind == "restriction":
        return target.label.translate(_SYMBOLS)
    return target.label or "·"


def _span(labels: list[str]) -> str:
    """Many printed labels in a few characters: ``1–20`` for numbers (a numbered board
    prints every one of them), else the first and the last."""
    if all(label.isdigit() for label in labels):
        numbers = sorted(int(label) for label in labels)
        return f"{numbers[0]}–{numbers[-1]}"
    return f"{labels[0]}…{labels[-1]}"


def _split(name: str) -> tuple[str, str]:
    """A cell name's column letters and row number (``G7`` -> ``G``, ``7``)."""
    match = re.fullmatch(r"([A-Za-z]*)(\d*)", name)
    return (match.group(1), match.group(2)) if match else (name, "")


@dataclass(frozen=True)
class Surface:
    """How one game's targets are laid out on screen."""

    kind: GameType

    @property
    def columns(self) -> int:
        return self.kind.columns

    @property
    def rows(self) -> int:
        return -(-len(self.kind.targets) // self.columns)

    @property
    def target_word(self) -> str:
        """What one target is called in messages: a cell of a board, a pile."""
        return "pile" if self.cards else "cell"

    @property
    def cards(self) -> bool:
        """Whether targets are drawn as cards (piles) rather than board squares."""
        return self.kind.surface == "piles"

    def start(self) -> int:
        """Where the keyboard cursor starts: the first centre square, else the first."""
        for index, target in enumerate(self.kind.targets):
            if target.kind == "centre":
                return index
        return 0

    def moved(self, cursor: int, dx: int, dy: int) -> int:
        """The cursor moved by ``dx`` columns and ``dy`` rows, kept on the surface."""
        row, col = divmod(cursor, self.columns)
        row = max(0, min(self.rows - 1, row + dy))
        col = max(0, min(self.columns - 1, col + dx))
        return min(row * self.columns + col, len(self.kind.targets) - 1)

    def card_height(self, notes: Collection[str]) -> int:
        """Lines per row of cards: the card, and a line of notes if there are any."""
        return 5 if notes else 4

    def target_at(self, x: int, y: int, notes: Collection[str] = ()) -> int | None:
        """The target under column ``x``, line ``y`` of :meth:`draw`'s drawing."""
        if self.cards:
            pitch = CARD_WIDTH + CARD_GAP
            col, offset = divmod(x - CARD_MARGIN, pitch)
            row = y // self.card_height(notes)
            if x < CARD_MARGIN or offset >= CARD_WIDTH:
                return None
        else:
            col, row = (x - SQUARE_WIDTH) // SQUARE_WIDTH, y - 1
            if x < SQUARE_WIDTH:
                return None
        if not (0 <= col < self.columns and 0 <= row < self.rows):
            return None
        index = row * self.columns + col
        return index if index < len(self.kind.targets) else None

    def draw(
        self,
        values: tuple[int, ...],
        *,
        recent: Collection[int] = (),
        marks: Mapping[int, str] | None = None,
        cursor: int | None = None,
        notes: tuple[str, ...] = (),
    ) -> Text:
        """The surface as coloured text: pieces bold, ``recent`` (the last turn) in
        reverse video, ``marks`` on green (a chosen piece's legal targets, a hint),
        ``cursor`` underlined, ``notes`` under each card."""
        marks = marks or {}
        if self.cards:
            return self._cards(values, recent, marks, cursor, notes)
        return self._squares(values, recent, marks, cursor)

    def _squares(
        self,
        values: tuple[int, ...],
        recent: Collection[int],
        marks: Mapping[int, str],
        cursor: int | None,
    ) -> Text:
        targets = self.kind.targets
        out = Text()
        header = "".join(
            f"{_split(targets[c].name)[0]:^{SQUARE_WIDTH}}" for c in range(self.columns)
        )
        out.append(" " * SQUARE_WIDTH + header + "\n", style="bold")
        for row in range(self.rows):
            first = row * self.columns
            number = _split(targets[first].name)[1]
            out.append(f"{number:>3} ", style="bold")
            for cell in range(first, min(first + self.columns, len(targets))):
                target, value = targets[cell], values[cell]
                if value != EMPTY:
                    style = "bold reverse" if cell in recent else "bold"
                    if target.kind == "centre" and cell not in recent:
                        style = KIND_STYLES["centre"]
                    label = str(value)
                elif cell in marks:
                    label, style = marks[cell], MARKED
                else:
                    label, style = _label(target), KIND_STYLES.get(target.kind, "")
                if cell == cursor:
                    style += " underline on yellow" if value == EMPTY else " underline"
                out.append(f"{label:^{SQUARE_WIDTH}}", style=style)
            out.append(f" {number:<3}\n", style="bold")
        return out

    def _cards(
        self,
        values: tuple[int, ...],
        recent: Collection[int],
        marks: Mapping[int, str],
        cursor: int | None,
        notes: tuple[str, ...],
    ) -> Text:
        targets = self.kind.targets
        inner = CARD_WIDTH - 2
        out = Text()
        for row in range(self.rows):
            piles = range(row * self.columns, min((row + 1) * self.columns, len(targets)))
            for line in range(self.card_height(notes)):
                out.append(" " * CARD_MARGIN)
                for pile in piles:
                    value = "" if values[pile] == EMPTY else str(values[pile])
                    body = [
                        "┌" + "─" * inner + "┐",
                        f"│{_label(targets[pile]):<{inner}}│",
                        f"│{value:^{inner}}│",
                        "└" + "─" * inner + "┘",
                        f"{notes[pile] if notes else '':^{CARD_WIDTH}}"[:CARD_WIDTH],
                    ][line]
                    if line == 4:
                        out.append(body, style="dim")
                    else:
                        style = MARKED if pile in marks else "bold"
                        if pile in recent and pile not in marks:
                            style += " reverse"
                        if pile == cursor:
                            style += " underline"
                        out.append(body, style=style)
                    out.append(" " * CARD_GAP)
                out.append("\n")
        return out

    def legend(self) -> Text:
        """What the colours mean, for the kinds of target this game has."""
        kinds: dict[str, list[str]] = {}
        for target in self.kind.targets:
            labels = kinds.setdefault(target.kind, [])
            if _label(target) not in labels:
                labels.append(_label(target))
        text = Text()
        meanings: dict[Message, list[str]] = {}
        for kind, meaning in KIND_MEANINGS.items():
            if kind in kinds:
                meanings.setdefault(meaning, []).append(kind)
        for meaning, group in meanings.items():
            for kind in group:
                labels = sorted(kinds[kind], key=_OPERATORS.find)  # + − × ÷ as printed
                shown = " ".join(labels) if len(labels) <= 6 else _span(labels)
                text.append(f" {shown} ", style=KIND_STYLES[kind])
                text.append(" ")
            text.append(f"{meaning}  ")
        # TRANSLATORS: before the legend of a board's coloured squares
        return Text(_("squares:") + " ") + text if text else text
