"""Variants as data plus a few hooks: which board, tokens, rack, operations and bonuses.

Shared code (:mod:`mathable.games.board.game`) plays every board variant; a variant only states
what differs, the way python-chess's ``variant.py`` does.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any, Final, TypeVar, cast

from mathable.engine.arithmetic import ALL_OPS, Op
from mathable.engine.errors import IllegalMove
from mathable.engine.protocol import Target, Words
from mathable.engine.tokens import CLASSIC_TOKENS, JUNIOR_TOKENS, TokenCounts, as_list
from mathable.i18n import Text, lazy

from .board import Board, RuleTables
from .geometry import Cell
from .layouts import Layout, Square, packaged_layout

T = TypeVar("T")

_MEMOS: dict[int, tuple[Variant, dict[str, Any]]] = {}
"""What each variant makes once (its tables, its restriction squares...), by the variant's
identity (held: variants are few and live for good; one made afresh, as tests do, is
another key). Not ``cached_property``: under mypyc it is a plain property, and what it
makes was made again at every call (every new board hashed the whole layout)."""


def _made_once(variant: Variant, name: str, make: Callable[[Variant], T]) -> T:
    """``make(variant)``, made once per variant and ``name`` (:data:`_MEMOS`)."""
    found = _MEMOS.get(id(variant))
    if found is None or found[0] is not variant:
        found = _MEMOS[id(variant)] = (variant, {})
    memo = found[1]
    if name not in memo:
        memo[name] = make(variant)
    return cast(T, memo[name])


def _token_values(variant: Variant) -> tuple[int, ...]:
    return tuple(sorted(variant.tokens))


def _every_token(variant: Variant) -> tuple[int, ...]:
    return tuple(as_list(variant.tokens))


def _rule_tables(variant: Variant) -> RuleTables:
    return RuleTables.for_board(variant.layout, variant.ops, frozenset(variant.tokens))


# C7's refusals of the extra token, made once: a computer asks at each placement from a
# short rack, and a text made each time cost as much as a greedy player's choice.
_NOT_A_RESTRICTION_SQUARE: Final = (lazy("not a restriction square: no extra token"), "C7")
_THE_BAG_IS_EMPTY: Final = (lazy("the bag is empty: no extra token"), "C7")


def _start_board(variant: Variant) -> Board:
    """The board at the start of a game (never handed out: :meth:`Variant.new_board`
    copies it)."""
    return Board(variant.rule_tables)


def _restriction_cells(variant: Variant) -> frozenset[Cell]:
    squares = variant.layout.squares
    return frozenset(c for c, sq in enumerate(squares) if sq.restriction is not None)


def _number_cells(variant: Variant) -> dict[int, tuple[Cell, ...]]:
    cells: dict[int, list[Cell]] = {}
    for cell, square in enumerate(variant.layout.squares):
        if square.number is not None:
            cells.setdefault(square.number, []).append(cell)
    return {v: tuple(c) for v, c in cells.items()}


@dataclass(frozen=True)
class Variant:
    """A board game of the family. Subclasses override the hooks below."""

    name: str
    title: Words
    """Its title, a lazy text where it has words to translate."""
    layout_name: str
    tokens: TokenCounts
    rack_size: int
    ops: Op
    bonus: int
    """Points for emptying a full rack in one turn (ruling C9)."""
    deduct_rack_at_end: bool
    """Whether each player loses the values left on the rack at the end (C11)."""
    summary: Words = ""
    min_players: int = 2
    max_players: int = 4
    start_by_draw: bool = True
    """C10: the highest token drawn starts; otherwise the first seat listed starts."""
    extra_draw: bool = True
    """C7/J3: a restriction square lets the player take one more token."""
    partial_turns: bool = True
    """C8a: a turn may end before the rack is placed (K2: the whole rack must be)."""
    pass_and_exchange: bool = True
    """C8b, C8c: a player may pass or exchange instead of placing."""
    ends_on_empty_rack: bool = True
    """C11: the game ends when the bag is empty and a player has placed every token."""
    empty_racks_sit_out: bool = False
    """K3: a seat without tiles is skipped; the game ends when every tile is placed."""
    piece: str = "token"
    """What the players call the pieces (``token``, ``tile``)."""
    open_racks: bool = False
    """Racks lie face up for everyone to see (Junior's back side, K2)."""
    agreed_end: bool = False
    """Players may end the game by agreement (J4)."""
    version: int = 1
    """Bumped whenever this variant's behaviour changes (records name it)."""
    rules: tuple[Words, ...] = ()
    """The rules in a page, in our words, rule numbers in brackets (help screens): one
    lazy text per paragraph, the first its title."""

    @property
    def token_values(self) -> tuple[int, ...]:
        """The values the tokens take, smallest first."""
        return _made_once(self, "token_values", _token_values)

    @property
    def every_token(self) -> tuple[int, ...]:
        """Every token of the set, sorted by value (a game's bag before its shuffle),
        made once per variant."""
        return _made_once(self, "every_token", _every_token)

    @property
    def layout(self) -> Layout:
        """The board this variant is played on."""
        return packaged_layout(self.layout_name)

    @property
    def rule_tables(self) -> RuleTables:
        """Geometry and per-cell operations for this variant's board, made once per
        variant: looking them up by layout hashes every square, and every new board asks
        (a game's, each computer's: issue 35, faster self-play)."""
        return _made_once(self, "rule_tables", _rule_tables)

    def new_board(self, initial: dict[Cell, int] | None = None) -> Board:
        """A board as at the start of a game, or holding ``initial``. The start is a
        copy of one made once per variant (its tables copied, not computed: a game and
        each computer in it start a board; issue 35, faster self-play)."""
        if initial is None:
            return _made_once(self, "start_board", _start_board).copy()
        return Board(self.rule_tables, initial)

    def is_legal(self, board: Board, cell: Cell, value: int, strict: bool = False) -> bool:
        """Whether ``value`` may go on the empty ``cell`` (C3-C5)."""
        return board.accepts(cell, value)

    def legal_cells(self, board: Board, value: int, strict: bool = False) -> Collection[Cell]:
        """The cells where ``value`` may go now, in cell order."""
        return board.cells_accepting(value)

    def can_place(self, board: Board, values: Iterable[int]) -> bool:
        """Whether any of ``values`` may go anywhere (for C8a and C11b)."""
        return board.has_placement(values)

    def check_placement(self, board: Board, cell: Cell, value: int, strict: bool = False) -> None:
        """Raise IllegalMove unless ``value`` may go on the empty ``cell`` (C3-C5)."""
        if self.is_legal(board, cell, value, strict):
            return
        raise IllegalMove(
            explain_refusal(board, cell, value),
            rule=refusal_rule(board, cell),
            where=board.grid.name(cell),
        )

    def placement_points(self, board: Board, cell: Cell, value: int) -> int:
        """Points of a legal placement (C6)."""
        return board.points(cell, value)

    def mistake_points(self, board: Board, cell: Cell, value: int) -> int:
        """C12: what an unchallenged mistake scores, as the player claims it: one
        equation, times the square's award (C6)."""
        return value * board.rules.multipliers[cell]

    def house_rules_offered(self) -> tuple[str, ...]:
        """The house rules this variant offers: undo, hints, and the table referee (C12:
        every game with a board)."""
        return ("allow_undo", "hints", "table_referee")

    @property
    def restriction_cells(self) -> frozenset[Cell]:
        """The restriction squares (C5), where a token may take the extra token (C7)."""
        return _made_once(self, "restriction_cells", _restriction_cells)

    def extra_token_refusal(self, cell: Cell, bag_size: int) -> tuple[Text, str] | None:
        """C7 in one place: why a token placed on ``cell`` may not take the extra token
        (reason, rule), or None when it may."""
        if not self.extra_draw:
            return lazy("{game} has no extra tokens", game=self.title), "K2"
        if cell not in self.restriction_cells:
            return _NOT_A_RESTRICTION_SQUARE
        if bag_size == 0:
            return _THE_BAG_IS_EMPTY
        return None

    def turn_bonus(self, started_with: int, left_on_rack: int) -> int:
        """The bonus for a turn that began with ``started_with`` tokens (C9)."""
        return self.bonus if started_with == self.rack_size and left_on_rack == 0 else 0


@dataclass(frozen=True)
class NumberedVariant(Variant):
    """Junior's back side: each tile goes on a square printed with its number (K2) and
    scores 1 when the two tiles next to it in a line make it by + or -."""

    @property
    def number_cells(self) -> dict[int, tuple[Cell, ...]]:
        """The squares printed with each number."""
        return _made_once(self, "number_cells", _number_cells)

    def house_rules_offered(self) -> tuple[str, ...]:
        return (*super().house_rules_offered(), "strict")  # K2

    def legal_cells(self, board: Board, value: int, strict: bool = False) -> Collection[Cell]:
        free = [c for c in self.number_cells.get(value, ()) if board.is_empty(c)]
        if strict:  # K2 house rule "strict": a scoring square is compulsory if there is one
            scoring = [c for c in free if board.accepts(c, value)]
            return scoring or free
        return free

    def is_legal(self, board: Board, cell: Cell, value: int, strict: bool = False) -> bool:
        return cell in self.legal_cells(board, value, strict)

    def can_place(self, board: Board, values: Iterable[int]) -> bool:
        return any(self.legal_cells(board, v) for v in values)

    def check_placement(self, board: Board, cell: Cell, value: int, strict: bool = False) -> None:
        if self.is_legal(board, cell, value, strict):
            return
        name = board.grid.name(cell)
        printed = board.rules.layout.squares[cell].number
        if printed != value:
            reason = lazy(
                "{value} on {cell}: that square is printed {printed}, not {value}",
                value=value,
                cell=name,
                printed=str(printed),
            )
        else:
            better = ", ".join(board.grid.name(c) for c in self.legal_cells(board, value, True))
            reason = lazy(
                "{value} on {cell}: under the strict house rule a scoring square "
                "comes first ({cells})",
                value=value,
                cell=name,
                cells=better,
            )
        raise IllegalMove(reason, rule="K2", where=name)

    def placement_points(self, board: Board, cell: Cell, value: int) -> int:
        return 1 if board.accepts(cell, value) else 0

    def mistake_points(self, board: Board, cell: Cell, value: int) -> int:
        """C12 on the numbered board: a tile on a square not printed with its number
        scores as this game scores the square (K2: 1 when the two tiles next to it in a
        line make the tile by + or -, else 0), never value x multiplier."""
        return self.placement_points(board, cell, value)


def square_target(name: str, square: Square) -> Target:
    """How a front end draws a square: its kind and printed label."""
    if square.start is not None:
        return Target(name, "centre", "")
    if square.restriction is not None:
        return Target(name, "restriction", square.restriction.symbol)
    if square.number is not None:
        return Target(name, "number", str(square.number))
    if square.multiplier > 1:
        return Target(name, f"x{square.multiplier}", f"{square.multiplier}×")
    return Target(name, "plain", "")


def refusal_rule(board: Board, cell: Cell) -> str:
    """The ruling that refuses a token on ``cell``: C5 on a restriction square, else C3."""
    return "C5" if board.rules.layout.squares[cell].restriction is not None else "C3"


def already_holds(name: str, value: int) -> Text:
    """A placement on a full square refused (C3): ``G7 already holds a 12``."""
    return lazy("{cell} already holds a {value}", cell=name, value=value)


def explain_refusal(board: Board, cell: Cell, value: int) -> Text:
    """Why ``value`` may not go on ``cell``, in words a player understands (a lazy text)."""
    name = board.grid.name(cell)
    if not board.is_empty(cell):
        return already_holds(name, board.values[cell])
    pairs = [
        (board.values[a], board.values[b])
        for a, b in board.grid.pairs[cell]
        if not board.is_empty(a) and not board.is_empty(b)
    ]
    if not pairs:
        return lazy(
            "{value} on {cell}: no two tokens lie in line next to {cell}", value=value, cell=name
        )
    # TRANSLATORS: two tokens' values, listed as "3 and 4, 5 and 7"
    shown = [lazy("{a} and {b}", a=a, b=b) for a, b in pairs]
    square = board.rules.layout.squares[cell]
    if square.restriction is not None:
        allowed = board.rules.cell_ops[cell]
        symbol = square.restriction.sign  # as the board shows it (−, ×, ÷)
        if not allowed:
            return lazy(
                "{value} on {cell}: this variant has no {op} equations",
                value=value,
                cell=name,
                op=symbol,
            )
        return lazy(
            "{value} on {cell}: a {op} square takes only {op} equations, and {pairs} do not "
            "make {value} that way",
            value=value,
            cell=name,
            op=symbol,
            pairs=shown,
        )
    return lazy(
        "{value} on {cell}: no equation of {pairs} makes {value}",
        value=value,
        cell=name,
        pairs=shown,
    )


LEAVING_RULE = lazy(
    "Leaving: a player who resigns (or runs out of time online) leaves the game; their "
    "score is frozen and play goes on while two players remain. Those who leave rank "
    "below those who stay, and leaving takes no one else's right: a challenge still open "
    "stays open [O3]."
)
"""The rules page's paragraph on leaving a game (local ruling L1, ruling O3)."""

CLASSIC = Variant(
    name="classic",
    # 2: C12, a game-ending turn stays open for a challenge, by opponents only;
    # 3: O3, leaving closes no one else's challenge and C11c counts the seats still in
    version=3,
    title="Mathable",
    layout_name="classic",
    tokens=CLASSIC_TOKENS,
    rack_size=7,
    ops=ALL_OPS,
    bonus=50,
    deduct_rack_at_end=True,
    summary=lazy("14x14 board, 106 tokens, + - x /, racks of 7, 50-point bonus."),
    rules=(
        # TRANSLATORS: the title of a rules page: a game's name, then its rule numbers
        lazy("{game}  (rules {rules})", game="Mathable", rules="C1-C13"),
        lazy(
            "Put numbered tokens on the board so that each one is the result of adding, "
            "subtracting, multiplying or dividing the two tokens next to it in a line "
            "(above, below, left or right: two in a row, never diagonal) [C3]. A token "
            "completing several equations at once scores for each [C4]."
        ),
        lazy(
            "Blue squares (+ - x /) accept only their operation [C5]; after placing on one "
            "you may take one extra token from the bag at once [C7]."
        ),
        lazy(
            "Points = the token's value x the equations it completes x 2 or 3 on a purple "
            "or orange square [C6]."
        ),
        lazy(
            "A turn: place tokens one at a time, each legal as the board stands; or "
            "exchange tokens; or pass [C8]. Empty a full rack in one turn: 50 points bonus "
            "[C9]."
        ),
        lazy(
            "End: the bag is empty and a player has used every token; or nobody can place "
            "anything; or, as a safeguard, two full rounds go by in which nobody places a "
            "token (every player still in passes or exchanges twice in a row). Tokens left "
            "on a rack are deducted [C11]. The highest total wins."
        ),
        lazy("The player card lists the tokens you have not seen yet [C13]."),
        LEAVING_RULE,
    ),
)

JUNIOR = Variant(
    name="junior",
    # 2: J4, stop proposes and every other player answers; C12 as classic;
    # 3: J4, a stop is proposed only once the pot is empty; O3 as classic
    version=3,
    title="Mathable Junior",
    layout_name="junior",
    tokens=JUNIOR_TOKENS,
    rack_size=5,
    ops=Op.ADD | Op.SUB,
    bonus=25,
    deduct_rack_at_end=False,
    start_by_draw=False,
    agreed_end=True,
    piece="tile",
    summary=lazy(
        "Front side: 10x10 board (provisional layout), 60 tiles, + and - only, racks of 5, "
        "2X squares, 25-point bonus."
    ),
    rules=(
        # TRANSLATORS: the title of a rules page: a game's name, then its rule numbers
        lazy("{game}, front side  (rules {rules})", game="Mathable Junior", rules="J1-J4"),
        lazy(
            "Like Mathable on a 10x10 board with + and - only: a tile is the sum or "
            "difference of the two tiles next to it in a line. Racks of 5. 2X squares "
            "double the tile's points. After a + or - square you may draw a tile and go "
            "on. Place all 5 in one turn: 25 points bonus."
        ),
        lazy(
            "Exchange any number of tiles as your turn. Once the pot is empty, the game "
            "ends when a player has placed all tiles, when nobody can play, or when all "
            "agree to stop: at the start of your turn you may propose it, and every other "
            "player accepts or declines; one refusal and you play on [J4]. As a safeguard, "
            "two full rounds in which nobody places a tile (every player still in passes "
            "or exchanges twice in a row) also end the game."
        ),
        LEAVING_RULE,
        lazy("(The board layout is provisional: the rulebook does not print it.)"),
    ),
)

JUNIOR_NUMBERS = NumberedVariant(
    name="junior-numbers",
    # 2: C12, the table referee on the numbered board; 3: O3 as classic
    version=3,
    # TRANSLATORS: the title of Mathable Junior played on the back of its board
    title=lazy("{game}, numbered board", game="Mathable Junior"),
    layout_name="junior-numbers",
    tokens=JUNIOR_TOKENS,
    rack_size=3,
    ops=Op.ADD | Op.SUB,
    bonus=0,
    deduct_rack_at_end=False,
    start_by_draw=False,
    extra_draw=False,
    partial_turns=False,
    pass_and_exchange=False,
    ends_on_empty_rack=False,
    empty_racks_sit_out=True,
    open_racks=True,
    piece="tile",
    summary=lazy(
        "Back side: the numbered 10x10 board, 3 tiles face up, place all three on their "
        "numbers, 1 point per tile made by + or -."
    ),
    rules=(
        # TRANSLATORS: the title of a rules page: a game's name, then its rule numbers
        lazy("{game}, numbered board  (rules {rules})", game="Mathable Junior", rules="K1-K3"),
        lazy(
            "Everyone's 3 tiles lie face up. Place all three, one by one, each on an empty "
            "square printed with its number. 1 point when the two tiles next to it in a "
            "line make it by + or -; 0 otherwise. Then draw 3. House rule strict: a "
            "scoring square must be used when there is one. The game ends when the pot is "
            "empty and every tile is placed."
        ),
        LEAVING_RULE,
    ),
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (CLASSIC, JUNIOR, JUNIOR_NUMBERS)}


def get_variant(name: str) -> Variant:
    """The variant called ``name``; raises ValueError listing the known ones."""
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise ValueError(
            lazy("unknown variant {name} (known: {known})", name=repr(name), known=known)
        ) from None
