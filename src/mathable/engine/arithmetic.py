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
    return frozenset(pair_values(a, b, int(ops)))


_ADD, _SUB, _MUL, _DIV = int(Op.ADD), int(Op.SUB), int(Op.MUL), int(Op.DIV)


def pair_values(a: int, b: int, op_code: int) -> list[int]:
    """:func:`pair_results` with the operations as a plain int (an ``Op``'s value), a
    value listed once per operation that makes it. The board's rule tables ask it on
    every pair they meet first: an ``Op``'s ``&`` runs ``enum``'s Python, ~10 us for a
    pair's four tests, and greedy self-play still met new pairs at most actions after
    dozens of games (issue 35)."""
    out: list[int] = []
    if op_code & _ADD:
        out.append(a + b)
    if op_code & _SUB:
        out.append(abs(a - b))
    if op_code & _MUL:
        out.append(a * b)
    if op_code & _DIV:
        if b != 0 and a % b == 0:
            out.append(a // b)
        if a != 0 and b % a == 0:
            out.append(b // a)
    return out


def ops_making(a: int, b: int, value: int, ops: Op = ALL_OPS) -> Op:
    """Which of ``ops`` make ``value`` from ``a`` and ``b`` (for explanations)."""
    made = NO_OPS
    for op in (Op.ADD, Op.SUB, Op.MUL, Op.DIV):
        if ops & op and value in pair_results(a, b, op):
            made |= op
    return made
