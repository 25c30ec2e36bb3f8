"""Explained placements (issue 18): the equations that make a token legal and how its
points add up, for every front end and the API.

A game explains a placement with :meth:`~.protocol.Game.explain`; the result is data
(:class:`Explanation`) that reads as one line in the current language (:meth:`text`)
or as JSON (:meth:`to_json`). Equations follow the rulings: one per neighbouring pair
that makes the value (C3, C4), only the square's operation on a restriction square (C5),
points as the game scores them (C6, K2; Quattro scores rounds, not points, Q2).

>>> eq = Equation(12, 3, "×", 4, ("I6", "I7"))
>>> Explanation("I8", 12, True, (eq,), 2, 24, "", "").text()
'12 = 3 × 4 (I6, I7): 12 × 2 (award) = 24'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mathable.i18n import _, ngettext

from .arithmetic import Op, pair_results

SYMBOLS: dict[Op, str] = {op: op.sign for op in (Op.ADD, Op.SUB, Op.MUL, Op.DIV)}
"""The display symbols of the operations (notation: never translated)."""


@dataclass(frozen=True)
class Equation:
    """One equation a placed value completes: ``result = left op right``."""

    result: int
    """The placed value."""
    left: int
    op: str
    """``+``, ``−``, ``×`` or ``÷`` (display symbols)."""
    right: int
    cells: tuple[str, str]
    """The names of the cells (or piles) holding ``left`` and ``right``."""

    def text(self) -> str:
        """``12 = 3 × 4 (I6, I7)`` (notation and numbers: the same in every language)."""
        return (
            f"{self.result} = {self.left} {self.op} {self.right} ({self.cells[0]}, {self.cells[1]})"
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "result": self.result,
            "left": self.left,
            "op": self.op,
            "right": self.right,
            "cells": list(self.cells),
        }


@dataclass(frozen=True)
class Explanation:
    """Why placing ``value`` on ``target`` is legal and what it scores, or why not."""

    target: str
    """The cell or pile name placed on (``I8``, ``A``)."""
    value: int
    legal: bool
    equations: tuple[Equation, ...]
    award: int
    """The square's multiplier (1 if none)."""
    points: int
    """What the placement scores, as the game scores it (C6, K2; 0 in Quattro)."""
    reason: str
    """When not legal: why, in the current language ('' when legal)."""
    rule: str
    """The rule refusing it, or ''."""

    def text(self) -> str:
        """The explanation in a line, in the current language: ``12 = 3 × 4 (I6, I7) and
        12 = 8 + 4 (G8, H8): 2 equations × 12 × 2 (award) = 48``; when illegal, the
        reason."""
        if not self.legal:
            return self.reason
        value, points = self.value, self.points
        if not self.equations:
            return ngettext(
                "{value} on {target}: no equation, {count} point",
                "{value} on {target}: no equation, {count} points",
                points,
                value=value,
                target=self.target,
            )
        shown = equations_text(self.equations)
        if points == 0:  # a game that scores rounds, not points (Quattro)
            return shown
        # TRANSLATORS: the equations a token completes, then how its points add up
        return _("{equations}: {points}", equations=shown, points=self.points_text())

    def points_text(self) -> str:
        """How the points add up, in the current language: ``2 equations × 12 × 2
        (award) = 48``, ``12 × 2 (award) = 24``, ``12``; ``1 point`` on the numbered
        board (K2); '' when illegal."""
        if not self.legal:
            return ""
        count, value, award, points = len(self.equations), self.value, self.award, self.points
        if not count or points != value * count * award:  # not C6: the numbered board (K2)
            return ngettext("{count} point", "{count} points", points)
        if count > 1 and award > 1:
            # TRANSLATORS: C6: equations × value × the square's award = points
            return _(
                "{count} equations × {value} × {award} (award) = {points}",
                count=count,
                value=value,
                award=award,
                points=points,
            )
        if count > 1:
            # TRANSLATORS: C6: equations × value = points
            return _(
                "{count} equations × {value} = {points}", count=count, value=value, points=points
            )
        if award > 1:
            # TRANSLATORS: C6: value × the square's award = points
            return _(
                "{value} × {award} (award) = {points}", value=value, award=award, points=points
            )
        return str(points)

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Explanation:
        """An explanation back from :meth:`to_json` (its ``text`` is written anew)."""
        equations = tuple(
            Equation(
                int(e["result"]),
                int(e["left"]),
                str(e["op"]),
                int(e["right"]),
                (str(e["cells"][0]), str(e["cells"][1])),
            )
            for e in data["equations"]
        )
        return Explanation(
            str(data["target"]),
            int(data["value"]),
            bool(data["legal"]),
            equations,
            int(data["award"]),
            int(data["points"]),
            str(data["reason"]),
            str(data["rule"]),
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data, its texts in the current language."""
        return {
            "target": self.target,
            "value": self.value,
            "legal": self.legal,
            "equations": [e.to_json() for e in self.equations],
            "award": self.award,
            "points": self.points,
            "reason": self.reason,
            "rule": self.rule,
            "text": self.text(),
        }


def equations_text(equations: Sequence[Equation]) -> str:
    """Equations in a line: ``12 = 3 × 4 (I6, I7) and 12 = 8 + 4 (G8, H8)``."""
    line = equations[0].text() if equations else ""
    for equation in equations[1:]:
        # TRANSLATORS: two equations a token completes, one after the other
        line = _("{first} and {then}", first=line, then=equation.text())
    return line


def equation(value: int, a: tuple[str, int], b: tuple[str, int], ops: Op) -> Equation | None:
    """The equation ``value = a op b`` for the first of ``ops`` (+ − × ÷) that makes it
    from the tokens ``a`` and ``b`` (name, value), or None; ``a`` is the first in reading
    order; for − the larger operand and for ÷ the dividend come first (C3: order never matters)."""
    for op in (Op.ADD, Op.SUB, Op.MUL, Op.DIV):
        if not ops & op or value not in pair_results(a[1], b[1], op):
            continue
        first, second = a, b
        if op is Op.SUB and b[1] > a[1]:
            first, second = b, a
        elif op is Op.DIV and not (b[1] != 0 and b[1] * value == a[1]):
            first, second = b, a  # the dividend first: 12 ÷ 3, 0 ÷ 5
        return Equation(value, first[1], SYMBOLS[op], second[1], (first[0], second[0]))
    return None
