"""Variants as data plus a few hooks: which board, tokens, rack, operations and bonuses.

Shared code (:mod:`mathable.core.game`) plays every board variant; a variant only states
what differs, the way python-chess's ``variant.py`` does.
"""

from __future__ import annotations

from dataclasses import dataclass

from .arithmetic import ALL_OPS, Op
from .board import Board, RuleTables
from .errors import IllegalMove
from .geometry import Cell
from .layouts import Layout, packaged_layout
from .tokens import CLASSIC_TOKENS, TokenCounts


@dataclass(frozen=True)
class Variant:
    """A board game of the family. Subclasses override the hooks below."""

    name: str
    title: str
    layout_name: str
    tokens: TokenCounts
    rack_size: int
    ops: Op
    bonus: int
    """Points for emptying a full rack in one turn (ruling C9)."""
    deduct_rack_at_end: bool
    """Whether each player loses the values left on the rack at the end (C11)."""
    summary: str = ""
    min_players: int = 2
    max_players: int = 4

    @property
    def layout(self) -> Layout:
        """The board this variant is played on."""
        return packaged_layout(self.layout_name)

    @property
    def rule_tables(self) -> RuleTables:
        """Geometry and per-cell operations for this variant's board."""
        return RuleTables.for_board(self.layout, self.ops, frozenset(self.tokens))

    def new_board(self, initial: dict[Cell, int] | None = None) -> Board:
        """A board as at the start of a game, or holding ``initial``."""
        return Board(self.rule_tables, initial)

    def check_placement(self, board: Board, cell: Cell, value: int) -> None:
        """Raise IllegalMove unless ``value`` may go on the empty ``cell`` (C3-C5)."""
        if board.equations(cell, value):
            return
        raise IllegalMove(explain_refusal(board, cell, value), rule=refusal_rule(board, cell),
                          where=board.grid.name(cell))

    def placement_points(self, board: Board, cell: Cell, value: int) -> int:
        """Points of a legal placement (C6)."""
        return board.points(cell, value)

    def turn_bonus(self, started_with: int, left_on_rack: int) -> int:
        """The bonus for a turn that began with ``started_with`` tokens (C9)."""
        return self.bonus if started_with == self.rack_size and left_on_rack == 0 else 0


def refusal_rule(board: Board, cell: Cell) -> str:
    """The ruling that refuses a token on ``cell``: C5 on a restriction square, else C3."""
    return "C5" if board.rules.layout.squares[cell].restriction is not None else "C3"


def explain_refusal(board: Board, cell: Cell, value: int) -> str:
    """Why ``value`` may not go on ``cell``, in words a player understands."""
    name = board.grid.name(cell)
    if not board.is_empty(cell):
        return f"{name} already holds a {board.values[cell]}"
    pairs = [
        (board.values[a], board.values[b])
        for a, b in board.grid.pairs[cell]
        if not board.is_empty(a) and not board.is_empty(b)
    ]
    if not pairs:
        return f"{value} on {name}: no two tokens lie in line next to {name}"
    shown = ", ".join(f"{a} and {b}" for a, b in pairs)
    square = board.rules.layout.squares[cell]
    if square.restriction is not None:
        allowed = board.rules.cell_ops[cell]
        if not allowed:
            return f"{value} on {name}: this variant has no {square.restriction.symbol} equations"
        return (
            f"{value} on {name}: a {square.restriction.symbol} square takes only "
            f"{square.restriction.symbol} equations, and {shown} do not make {value} that way"
        )
    return f"{value} on {name}: no equation of {shown} makes {value}"


CLASSIC = Variant(
    name="classic",
    title="Mathable",
    layout_name="classic",
    tokens=CLASSIC_TOKENS,
    rack_size=7,
    ops=ALL_OPS,
    bonus=50,
    deduct_rack_at_end=True,
    summary="14x14 board, 106 tokens, + - x /, racks of 7, 50-point bonus.",
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (CLASSIC,)}


def get_variant(name: str) -> Variant:
    """The variant called ``name``; raises ValueError listing the known ones."""
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise ValueError(f"unknown variant {name!r} (known: {known})") from None
