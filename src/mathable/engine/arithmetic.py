"""The four operations and what a pair of tokens can make (rulings C3 and C4).

Operand order never matters: a pair ``(a, b)`` makes ``a+b``, ``|a-b|``, ``a*b`` and
``a/b`` or ``b/a`` when the division is exact with a non-zero divisor.

>>> sorted(pair_results(3, 4, ALL_OPS))
[1, 7, 12]
>>> sorted(pair_results(6, 2, Op.DIV))
[3]
>>> sorted(pair_results(0, 5, ALL_OPS))
[0, 5]
"""

from __future__ import annotations

import enum
from functools import cache


class Op(enum.IntFlag):
    """An operation; a set of them is a bit mask (``Op.ADD | Op.SUB``)."""

    ADD = 1
    SUB = 2
    MUL = 4
    DIV = 8

    @property
    def symbol(self) -> str:
        """``+``, ``-``, ``x`` or ``/`` for a single operation."""
        return _SYMBOLS[self]

    @property
    def sign(self) -> str:
        """``+``, ``−``, ``×`` or ``÷``: a single operation as printed for people (the
        board's squares, explanations, refusals), where notation is typed with ``symbol``."""
        return _SIGNS[self]


ALL_OPS = Op.ADD | Op.SUB | Op.MUL | Op.DIV
NO_OPS = Op(0)
_SYMBOLS = {Op.ADD: "+", Op.SUB: "-", Op.MUL: "x", Op.DIV: "/"}
_SIGNS = {Op.ADD: "+", Op.SUB: "−", Op.MUL: "×", Op.DIV: "÷"}
SYMBOL_OPS = {"+": Op.ADD, "-": Op.SUB, "x": Op.MUL, "/": Op.DIV, "*": Op.MUL, "÷": Op.DIV}


@cache
def pair_results(a: int, b: int, ops: Op) -> frozenset[int]:
    """The values a token may take to complete an equation with ``a`` and ``b``."""
    out: set[int] = set()
    if ops & Op.ADD:
        out.add(a + b)
    if ops & Op.SUB:
        out.add(abs(a - b))
    if ops & Op.MUL:
        out.add(a * b)
    if ops & Op.DIV:
        if b != 0 and a % b == 0:
            out.add(a // b)
        if a != 0 and b % a == 0:
            out.add(b // a)
    return frozenset(out)


def ops_making(a: int, b: int, value: int, ops: Op = ALL_OPS) -> Op:
    """Which of ``ops`` make ``value`` from ``a`` and ``b`` (for explanations)."""
    made = NO_OPS
    for op in (Op.ADD, Op.SUB, Op.MUL, Op.DIV):
        if ops & op and value in pair_results(a, b, op):
            made |= op
    return made
