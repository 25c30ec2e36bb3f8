"""Puzzles: positions from computer games where the best whole turn beats the obvious one.

How they are made (``mathable make-puzzles``): the strong computer player plays itself,
game ``i`` dealt from ``seed + i`` (its players seeded from the game's seed, so a set is
reproducible from its seed). At the start of every turn the exact whole-turn search
(:func:`~mathable.ai.search.best_turn`, rulings C6, C8, C9) gives the best turn, and the
obvious turn is the best single placement (what the greedy player takes first: its
points, with the bonus only if that one token empties a full rack, C9). The position is
kept as a puzzle when

- the best turn places at least 2 tokens,
- it is worth at least :data:`RATIO` (1.5) times the obvious turn, and
- at least :data:`MARGIN` (30) points more.

The margin (best minus obvious) and the best turn's length give the band, margins
counted in the game's scale (classic's; Junior's, whose full-rack bonus is 25 and not
50, at half):

- **easy**: a margin under 50 (Junior 25), or a turn of at most 3 tokens;
- **hard**: a margin of at least 100 (Junior 50) and a turn of at least 5 tokens;
- **medium**: every other.

The target is the best turn's points: any legal turn worth at least that many solves the
puzzle (:func:`check`), not only the engine's. Turns take no extra token (C7: an extra
token is a draw from the bag, which a puzzle has not got). Rating puzzles and solvers
(Glicko-2) is left for when accounts exist.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, cast

from mathable.engine.actions import Place
from mathable.engine.errors import MathableError, NotationError, message_of
from mathable.engine.notation import Position, format_placement, parse_placement
from mathable.games.board.board import EMPTY, Board
from mathable.games.board.variants import Variant, get_variant
from mathable.i18n import Text, lazy, lazy_context

RATIO = 1.5
"""The best turn is worth at least this many times the obvious one."""
MARGIN = 30
"""... and at least this many points more."""
EASY_MARGIN = 50
"""Below this margin (or with at most :data:`EASY_LENGTH` tokens) a puzzle is easy."""
EASY_LENGTH = 3
HARD_MARGIN = 100
"""From this margin, with at least :data:`HARD_LENGTH` tokens, a puzzle is hard."""
HARD_LENGTH = 5
BANDS = ("easy", "medium", "hard")
BAND_NAMES: dict[str, Text] = {
    # TRANSLATORS: a puzzle's difficulty band
    "easy": lazy_context("puzzle band", "easy"),
    # TRANSLATORS: a puzzle's difficulty band
    "medium": lazy_context("puzzle band", "medium"),
    # TRANSLATORS: a puzzle's difficulty band
    "hard": lazy_context("puzzle band", "hard"),
}
"""Each band's name as players read it, by its keyword (``--band hard``)."""
GAMES = ("classic", "junior")
"""The games puzzles are mined from (those with a rack and partial turns)."""
PLAYER = "strong"
"""The computer player that plays the games puzzles are mined from."""
MAX_TURN = 16
"""The most placements a checked turn may hold (a rack holds at most 7)."""
DATA = Path(__file__).parent / "data" / "puzzles.json"
"""The shipped set."""
DEFAULT_SEED = 200_000
DEFAULT_GAMES = 40


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the position (one line, as ``mathable show`` reads it), the seat to
    move (from 1), its rack, the target, the answer and where it came from."""

    id: str
    game: str
    position: str
    seat: int
    rack: tuple[int, ...]
    target: int
    answer: str
    """The engine's best turn, its placements in order (``I8=12 J8=16``)."""
    points: int
    """The answer's points, bonus included (the target)."""
    bonus: int
    obvious: str
    """The best single placement (``I8=12``)."""
    obvious_points: int
    band: str
    seed: int
    """The game's seed (``mathable make-puzzles`` game ``i`` is dealt from ``seed + i``)."""
    turn: int
    """The turn of that game the position starts (from 1)."""

    @property
    def margin(self) -> int:
        """How many points the answer beats the obvious turn by."""
        return self.points - self.obvious_points

    @property
    def length(self) -> int:
        """How many tokens the answer places."""
        return len(self.answer.split())

    def to_dict(self, *, answer: bool = True) -> dict[str, Any]:
        """The puzzle as JSON; without ``answer``, none of what gives it away."""
        data = asdict(self)
        data["rack"] = list(self.rack)
        if not answer:
            for key in ("answer", "points", "bonus", "obvious", "obvious_points"):
                del data[key]
        return data

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Puzzle:
        """A puzzle from :meth:`to_dict`'s JSON."""
        return Puzzle(**{**data, "rack": tuple(data["rack"])})


SCALE_BONUS = 50
"""The bonus of the game whose scale the band margins are written in (classic's, C9)."""


def band_of(margin: int, length: int, bonus: int = SCALE_BONUS) -> str:
    """The band of a puzzle by the answer's margin over the obvious turn and its length,
    in a game whose full-rack bonus is ``bonus`` (the margins scale with it)."""
    scale = bonus / SCALE_BONUS
    if margin < EASY_MARGIN * scale or length <= EASY_LENGTH:
        return "easy"
    if margin >= HARD_MARGIN * scale and length >= HARD_LENGTH:
        return "hard"
    return "medium"


def selected(best: int, obvious: int, length: int) -> bool:
    """The selection rule: a turn of at least 2 tokens, worth at least :data:`RATIO`
    times and :data:`MARGIN` points more than the best single placement."""
    return length >= 2 and best >= RATIO * obvious and best - obvious >= MARGIN


def obvious_move(variant: Variant, board: Board, rack: Sequence[int]) -> tuple[int, Place] | None:
    """The best single placement and its points (bonus included if it empties a full
    rack, C9); ties go to the first cell, then the lowest value. None if none is legal."""
    found: tuple[int, Place] | None = None
    size = len(rack)
    for value in sorted(set(rack)):
        for cell in sorted(variant.legal_cells(board, value)):
            points = variant.placement_points(board, cell, value)
            points += variant.turn_bonus(size, size - 1)
            if found is None or points > found[0]:
                found = (points, Place(cell, value))
    return found


def judge_position(variant: Variant, board: Board, rack: Sequence[int]) -> dict[str, Any] | None:
    """The best turn and the obvious turn of a position, with the band, if it makes a
    puzzle by :func:`selected`; else None. The board is left as it was."""
    from mathable.ai.search import best_turn

    obvious = obvious_move(variant, board, rack)
    if obvious is None:
        return None
    best = best_turn(variant, board, rack, started_with=len(rack))
    length = len(best.placements)
    if not selected(best.total, obvious[0], length):
        return None
    grid = board.grid
    return {
        "answer": " ".join(format_placement(Place(c, v), grid) for c, v in best.placements),
        "points": best.total,
        "bonus": best.bonus,
        "obvious": format_placement(obvious[1], grid),
        "obvious_points": obvious[0],
        "band": band_of(best.total - obvious[0], length, variant.bonus),
    }


def mine_game(job: tuple[str, int]) -> list[Puzzle]:
    """Play one self-play game of ``game`` from ``seed`` and return its puzzles (a
    top-level function, for process pools)."""
    from mathable.ai import get_bot
    from mathable.ai.base import board_from_view, share_board
    from mathable.games.board.view import BoardView
    from mathable.games.registry import new_game

    game_name, seed = job
    game = new_game(game_name, ["a", "b"], seed=seed)
    if game.game_type.surface != "board":  # a puzzle is a position on a board
        return []
    bots = [get_bot(PLAYER, seed * 2 + seat) for seat in range(2)]
    share_board(bots)
    found: list[Puzzle] = []
    for _ in range(5000):
        if game.is_over:
            break
        seat = game.to_move
        view = cast(BoardView, game.view(seat, explained=False))  # a board's (above)
        if not view.turn_placements and view.rack:
            variant, board = board_from_view(view)
            judged = judge_position(variant, board, view.rack)
            if judged is not None:
                turn = len(view.turns) + 1
                racks = tuple(
                    view.rack if s == seat else size for s, size in enumerate(view.rack_sizes)
                )
                cells = tuple((c, v) for c, v in enumerate(view.board) if v != EMPTY)
                line = Position(game_name, cells, racks, view.scores, view.bag_size, seat)
                found.append(
                    Puzzle(
                        id=f"{game_name}-{seed}-{turn}",
                        game=game_name,
                        position=line.format(board.grid),
                        seat=seat + 1,
                        rack=tuple(sorted(view.rack)),
                        target=judged["points"],
                        seed=seed,
                        turn=turn,
                        **judged,
                    )
                )
        game.apply(bots[seat].act(view))
    return found


def make(
    games: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[], None] | None = None,
    variants: Sequence[str] = GAMES,
) -> list[Puzzle]:
    """Mine ``games`` self-play games of each of ``variants`` (game ``i`` from
    ``seed + i``) across ``jobs`` processes; the puzzles in game, seed, turn order."""
    work = [(name, seed + i) for name in variants for i in range(games)]
    puzzles: list[Puzzle] = []
    for found in _mined(work, jobs):
        puzzles.extend(found)
        if progress is not None:
            progress()
    return puzzles


def _mined(work: list[tuple[str, int]], jobs: int) -> Iterator[list[Puzzle]]:
    if jobs == 1:
        yield from map(mine_game, work)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(mine_game, work, chunksize=2)


def to_json(puzzles: Sequence[Puzzle], meta: dict[str, Any]) -> str:
    """The set as written to a file: its meta (the command, the rule) and the puzzles."""
    rule = {
        "ratio": RATIO,
        "margin": MARGIN,
        "easy": {"margin_below": EASY_MARGIN, "or_length_at_most": EASY_LENGTH},
        "hard": {"margin_at_least": HARD_MARGIN, "and_length_at_least": HARD_LENGTH},
    }
    counts = Counter(f"{p.game} {p.band}" for p in puzzles)
    data = {
        "meta": {**meta, "rule": rule, "counts": dict(sorted(counts.items()))},
        "puzzles": [p.to_dict() for p in puzzles],
    }
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


@functools.cache
def shipped() -> tuple[Puzzle, ...]:
    """The shipped set, in its file's order."""
    return load(DATA)


def load(path: Path) -> tuple[Puzzle, ...]:
    """A set written by :func:`to_json`."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return tuple(Puzzle.from_dict(p) for p in data["puzzles"])


def by_id(puzzle_id: str) -> Puzzle | None:
    """The shipped puzzle called ``puzzle_id``, or None."""
    return _index().get(puzzle_id)


@functools.cache
def _index() -> dict[str, Puzzle]:
    return {p.id: p for p in shipped()}


DAILY_STRIDE = 7919
"""A prime: day ``d`` gets puzzle ``d * stride mod n``, so two days in a row never share
one (while the set holds fewer than 7,919 puzzles)."""


def daily(day: dt.date | None = None, puzzles: Sequence[Puzzle] | None = None) -> Puzzle:
    """The puzzle of the UTC day ``day`` (today by default): the same for everyone."""
    chosen = shipped() if puzzles is None else puzzles
    when = day or dt.datetime.now(dt.UTC).date()
    return chosen[(when.toordinal() * DAILY_STRIDE) % len(chosen)]


def of_band(band: str | None, puzzles: Sequence[Puzzle] | None = None) -> list[Puzzle]:
    """The puzzles of ``band`` (all for None); raises ValueError for an unknown band."""
    if band is not None and band not in BANDS:
        raise ValueError(band)
    chosen = shipped() if puzzles is None else puzzles
    return [p for p in chosen if band is None or p.band == band]


# -- checking a player's turn ---------------------------------------------------------


@dataclass(frozen=True)
class Checked:
    """A player's turn, judged: legal (or why not), its points, whether it solves."""

    legal: bool
    points: int
    solved: bool
    reason: str | Text | None = None
    """Why the turn is not legal (None when it is)."""


THEMES = ("+", "−", "×", "÷")
"""A puzzle's themes (issue 32): the kinds of equation its answer needs, by operation
(the notation's symbols, the same in every language)."""


@functools.cache
def themes(puzzle: Puzzle) -> tuple[str, ...]:
    """The operations of the equations the answer's placements make, in :data:`THEMES`
    order: a learner practises the kind they find hard (``×`` and ``÷`` in a row)."""
    from mathable.games.board.game import explain_on_board

    variant, board = board_of(puzzle)
    found: set[str] = set()
    for text in puzzle.answer.split():
        place = parse_placement(text, board.grid)
        explained = explain_on_board(variant, board, place.cell, place.value)
        found.update(equation.op for equation in explained.equations)
        board.place(place.cell, place.value)
    return tuple(op for op in THEMES if op in found)


def of_theme(theme: str | None, puzzles: Sequence[Puzzle]) -> list[Puzzle]:
    """The puzzles whose answer needs an equation of ``theme`` (all for None)."""
    return [p for p in puzzles if theme is None or theme in themes(p)]


def board_of(puzzle: Puzzle) -> tuple[Variant, Board]:
    """The variant and a searchable board of the puzzle's position."""
    variant = get_variant(puzzle.game)
    position = Position.parse(puzzle.position, variant.layout.grid)
    return variant, variant.new_board(dict(position.board))


def check(puzzle: Puzzle, placements: Sequence[str]) -> Checked:
    """Play ``placements`` (notation, ``I8=12``, in order) from the puzzle's position:
    each must be a token of the rack, legal as the board then stands (C3-C5), and is
    scored then (C6), plus the bonus for emptying a full rack (C9). Solved when legal and
    worth at least the target."""
    if not placements:
        return Checked(False, 0, False, lazy("place at least one token"))
    if len(placements) > MAX_TURN:
        return Checked(False, 0, False, lazy("a turn has at most {most} placements", most=MAX_TURN))
    variant, board = board_of(puzzle)
    grid = board.grid
    left = list(puzzle.rack)
    points = 0
    for text in placements:
        try:
            place = parse_placement(text, grid)
        except NotationError as exc:
            return Checked(False, points, False, message_of(exc))
        if place.extra:
            return Checked(
                False, points, False, lazy("a puzzle takes no extra token (C7): drop the +")
            )
        if place.value not in left:
            return Checked(
                False,
                points,
                False,
                lazy("{value} is not on the rack", value=place.value),
            )
        if board.values[place.cell] != EMPTY:
            return Checked(
                False, points, False, lazy("{cell} is taken", cell=grid.name(place.cell))
            )
        try:
            variant.check_placement(board, place.cell, place.value)
        except MathableError as exc:
            return Checked(False, points, False, message_of(exc))
        points += variant.placement_points(board, place.cell, place.value)
        board.place(place.cell, place.value)
        left.remove(place.value)
    points += variant.turn_bonus(len(puzzle.rack), len(left))
    return Checked(True, points, points >= puzzle.target)
