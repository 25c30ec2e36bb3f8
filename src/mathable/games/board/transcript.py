"""Score sheets: score a game played on a real table from its list of turns.

A transcript has one line per turn: ``NAME: I8=12 H6=8 J8=16+``, ``NAME: pass``,
``NAME: exchange N`` or, after the last turn, ``NAME: left 3 5`` for the tokens left on
a rack (deducted, ruling C11). ``#`` starts a comment; blank lines are ignored.

A placement marked ``!`` (``I8=5!``) is a mistake that stood unchallenged under the table
referee (C12): it scores as the game scores a mistake. Racks are unknown, so every turn
is taken to start with a full rack: the bonus (C9)
applies when a turn places the rack size plus one token per extra token taken (``+``).
Everything else is checked against the board as it stands: the cell, the equation and
the square's operation (C3-C5), and the token supply (C2).

>>> sheet = score_transcript("Ann: I8=12 H6=8 G9=2 F7=1 J8=16+")
>>> sheet.totals
{'Ann': 39}
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mathable.engine.errors import IllegalMove, MathableError, NotationError
from mathable.engine.notation import parse_placement
from mathable.engine.protocol import Game, Words
from mathable.engine.tokens import pieces_text
from mathable.i18n import lazy, lazy_plural

from .variants import CLASSIC, Variant, already_holds

_DIGITS = re.compile(r"\d{1,3}", re.ASCII)
_COMMENT = re.compile(r"(?:^|\s)#")
"""A comment starts with ``#`` at the start of a line or after a space (``Ann#2`` is a name)."""
"""A number on a score sheet: ASCII digits, at most 3 (no token is worth more)."""


class TranscriptError(MathableError):
    """A transcript line that cannot be scored; the message names line, cell and rule."""


@dataclass(frozen=True)
class ScoredPlacement:
    """One token of a turn and its points."""

    cell: str
    value: int
    points: int
    extra: bool = False
    mistake: bool = False
    """A mistake accepted under the table referee (C12), scored as one (``I8=5!``)."""


@dataclass(frozen=True)
class ScoredTurn:
    """One line of the transcript, scored."""

    line: int
    player: str
    kind: str
    """``place``, ``pass``, ``exchange`` or ``left`` (end-of-game deduction)."""
    placements: tuple[ScoredPlacement, ...]
    points: int
    """All the turn's points, the bonus included (negative for ``left``)."""
    bonus: int
    total: int
    """The player's running total after this turn."""
    exchanged: int = 0


@dataclass
class Scoresheet:
    """Every turn scored, and the totals per player in order of first appearance."""

    turns: list[ScoredTurn] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract of ``mathable score --json``."""
        return {
            "turns": [
                {
                    "line": t.line,
                    "player": t.player,
                    "kind": t.kind,
                    "points": t.points,
                    "bonus": t.bonus,
                    "total": t.total,
                    "exchanged": t.exchanged,
                    "placements": [
                        {
                            "cell": p.cell,
                            "value": p.value,
                            "points": p.points,
                            "extra": p.extra,
                            **({"mistake": True} if p.mistake else {}),
                        }
                        for p in t.placements
                    ],
                }
                for t in self.turns
            ],
            "totals": dict(self.totals),
        }


def score_transcript(text: str, variant: Variant = CLASSIC) -> Scoresheet:
    """Score every line of ``text``; raises TranscriptError at the first bad line."""
    table = TableBoard(variant)
    sheet = Scoresheet()
    finished: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _COMMENT.split(raw, 1)[0].strip()
        if not line:
            continue

        def fail(message: Words, *, _number: int = number) -> TranscriptError:
            # TRANSLATORS: a score sheet's line number, then why it cannot be scored
            return TranscriptError(
                lazy("line {number}: {problem}", number=_number, problem=message)
            )

        player, sep, body = line.rpartition(":")  # a name may hold ':' (moves never do)
        player, body = player.strip(), body.strip()
        if not sep or not player:
            raise fail(
                lazy(
                    "{line} should look like 'NAME: I8=12 H6=8', 'NAME: pass' or "
                    "'NAME: exchange N'",
                    line=repr(line),
                )
            )
        if player in finished:
            raise fail(lazy("{name} already counted the tokens left at the end", name=player))
        total = sheet.totals.get(player, 0)
        words = body.split()
        keyword = words[0].lower() if words else ""
        if not words:
            raise fail(
                lazy(
                    "{name}'s turn is empty: write placements, 'pass' or 'exchange N'",
                    name=player,
                )
            )
        if keyword == "pass" and len(words) == 1:
            turn = ScoredTurn(number, player, "pass", (), 0, 0, total)
        elif keyword == "exchange":
            if (
                len(words) != 2
                or not _DIGITS.fullmatch(words[1])
                or not 1 <= int(words[1]) <= variant.rack_size
            ):
                raise fail(
                    lazy(
                        "write 'exchange N' with N from 1 to {most} (rule C8)",
                        most=variant.rack_size,
                    )
                )
            turn = ScoredTurn(number, player, "exchange", (), 0, 0, total, exchanged=int(words[1]))
        elif keyword == "left":
            values = [w for w in " ".join(words[1:]).replace(",", " ").split()]
            if not all(_DIGITS.fullmatch(v) for v in values):
                raise fail(lazy("write 'left' then the values left on the rack, like 'left 3 5'"))
            left = [int(v) for v in values]
            try:
                table.count_left(left)
            except IllegalMove as exc:
                raise fail(exc.text) from None
            deduction = sum(left) if variant.deduct_rack_at_end else 0
            finished.add(player)
            turn = ScoredTurn(number, player, "left", (), -deduction, 0, total - deduction)
        else:
            turn = _score_placements(number, player, words, table, fail, total)
        sheet.turns.append(turn)
        sheet.totals[player] = turn.total
    return sheet


def _score_placements(
    number: int,
    player: str,
    words: list[str],
    table: TableBoard,
    fail: Any,
    total: int,
) -> ScoredTurn:
    try:
        placed, bonus = table.score_turn(words)
    except (IllegalMove, NotationError) as exc:
        raise fail(exc.text) from None
    points = sum(p.points for p in placed) + bonus
    return ScoredTurn(number, player, "place", placed, points, bonus, total + points)


MISTAKE_MARK = "!"
"""After a placement on a sheet (``I8=5!``): a mistake accepted under the table referee
that stood unchallenged (C12); it scores as the game scores a mistake, unchecked."""


def sheet_placement(placement: ScoredPlacement) -> str:
    """A scored placement in the sheet's notation: ``J8=16+``, ``I8=5!`` (a mistake)."""
    extra = "+" if placement.extra else ""
    mistake = MISTAKE_MARK if placement.mistake else ""
    return f"{placement.cell}={placement.value}{extra}{mistake}"


class TableBoard:
    """The board of a game on a real table and the tokens seen so far, scored one turn
    at a time: the one scorer of paper score sheets (:func:`score_transcript`) and of the
    live score keeper (:mod:`.keeper`), so both score alike.

    Racks are unknown (ruling R1): any value still unseen may be placed, and the token
    supply is enforced per value (C2). A refused turn raises IllegalMove (the rule, the
    cell) or NotationError and leaves the board and the counts as they were."""

    def __init__(self, variant: Variant = CLASSIC) -> None:
        self.variant = variant
        self.board = variant.new_board()
        self.used: Counter[int] = Counter()
        """Per value, the tokens placed or counted left on a rack."""

    def unseen(self) -> dict[int, int]:
        """Per value, how many tokens are not yet on the board nor counted left (the
        player card, C13, as the whole table sees it)."""
        tokens = self.variant.tokens
        return {v: tokens[v] - self.used[v] for v in sorted(tokens)}

    def score_turn(
        self,
        words: Sequence[str],
        *,
        rack: int | None = None,
        bag: int | None = None,
        referee: bool = False,
    ) -> tuple[tuple[ScoredPlacement, ...], int]:
        """Place one turn's placements (``I8=12``, ``J8=16+``; ``I8=5!`` a mistake that
        stood, C12) in order, each checked on the board as it stands (C3-C5) and against
        the supply (C2); returns them scored and the turn's bonus (C9).

        ``rack``: the tokens the player held at the turn's start (None: a full rack, the
        sheet's assumption); ``bag``: the tokens in the bag (None: unknown, extra tokens
        always possible); ``referee``: an illegal placement is accepted as a mistake
        (C12, the table referee) instead of refused."""
        variant, board = self.variant, self.board
        placed: list[ScoredPlacement] = []
        try:
            for word in words:
                placed.append(self._place(word, bag, referee))
                if placed[-1].extra and bag is not None:
                    bag -= 1
            extras = sum(p.extra for p in placed)
            held = variant.rack_size if rack is None else rack
            most = held + extras
            if len(placed) > most:
                raise IllegalMove(
                    lazy(
                        "{tokens} in one turn: the rack held {most}, plus one per extra token "
                        "taken ({extras})",
                        tokens=pieces_text(variant.piece, len(placed)),
                        most=held,
                        extras=extras,
                    ),
                    rule="C8",
                )
            if rack is not None and not variant.partial_turns and len(placed) < most:
                raise IllegalMove(
                    lazy(
                        "{tokens} in this turn: every one of the {most} must be placed",
                        tokens=pieces_text(variant.piece, len(placed)),
                        most=most,
                    ),
                    rule="K2",
                )
        except (IllegalMove, NotationError):
            for scored in reversed(placed):
                board.unplace()
                self.used[scored.value] -= 1
            raise
        bonus = variant.turn_bonus(held, most - len(placed))
        return tuple(placed), bonus

    def _place(self, word: str, bag: int | None, referee: bool) -> ScoredPlacement:
        """One placement checked, placed and scored (see :meth:`score_turn`)."""
        variant, board = self.variant, self.board
        grid = board.grid
        marked = word.endswith(MISTAKE_MARK)
        place = parse_placement(word[: -len(MISTAKE_MARK)] if marked else word, grid)
        name = grid.name(place.cell)
        if not board.is_empty(place.cell):
            raise IllegalMove(already_holds(name, board.values[place.cell]), rule="C3", where=name)
        self.check_supply(Counter([place.value]), where=name)
        mistake = marked
        if not marked:
            try:
                variant.check_placement(board, place.cell, place.value)
            except IllegalMove:
                if not referee:
                    raise
                mistake = True
        if place.extra:
            if place.cell not in variant.restriction_cells:
                raise IllegalMove(
                    lazy(
                        "{cell} is not a restriction square, so no extra token ('+')",
                        cell=name,
                    ),
                    rule="C7",
                    where=name,
                )
            refusal = variant.extra_token_refusal(place.cell, 1 if bag is None else bag)
            if refusal is not None:
                raise IllegalMove(refusal[0], rule=refusal[1], where=name)
        if mistake:
            points = variant.mistake_points(board, place.cell, place.value)
        else:
            points = variant.placement_points(board, place.cell, place.value)
        board.place(place.cell, place.value)
        self.used[place.value] += 1
        return ScoredPlacement(name, place.value, points, place.extra, mistake)

    def count_left(self, values: Sequence[int]) -> None:
        """Count the tokens left on a rack at the end (C11) against the supply (C2)."""
        self.check_supply(Counter(values))
        self.used.update(values)

    def check_supply(self, more: Counter[int], where: str = "") -> None:
        """Raise IllegalMove (C2) unless the set still has ``more`` tokens unseen."""
        for value, n in more.items():
            have = self.variant.tokens.get(value, 0)
            if self.used[value] + n <= have:
                continue
            problem: Words
            if have == 0:
                problem = lazy("there is no {value} token in the game", value=value)
            else:
                problem = lazy_plural(
                    "the game has only {count} token of {value} and all are already counted",
                    "the game has only {count} tokens of {value} and all are already counted",
                    have,
                    value=value,
                )
            reason = lazy("{cell}: {reason}", cell=where, reason=problem) if where else problem
            raise IllegalMove(reason, rule="C2", where=where)


def format_transcript(game: Game) -> str:
    """A finished or running game as a score sheet that :func:`score_transcript` reads
    back to the same totals: one line per turn, then the tokens left (C11). Only games
    whose type has ``score_sheets`` have one (ValueError otherwise).

    Names are kept as typed, ':' included (a line splits at its last ':'), but for a '#'
    that would start a comment: see :func:`sheet_name`."""
    kind = game.game_type
    if not kind.score_sheets:
        raise ValueError(lazy("{game} has no score sheets", game=kind.title_text))
    names = [sheet_name(p) for p in game.players]
    lines = [f"# {kind.title}, seed {game.seed}"]
    lines += [f"{names[turn.seat]}: {turn.notation}" for turn in game.summaries()]
    if game.is_over and kind.deducts_rack:
        for seat, name in enumerate(names):
            left = game.rack(seat)
            if left:
                lines.append(f"{name}: left {' '.join(map(str, left))}")
    return "\n".join(lines) + "\n"


def sheet_name(name: str) -> str:
    """A player's name as a score sheet can hold it: as typed, but for a '#' at its start
    or after a space (it would start a comment) and spaces at its ends."""
    return _COMMENT.sub(lambda m: m.group(0)[:-1], name).strip() or "?"


@dataclass(frozen=True, eq=False)
class BoardSheets:
    """The paper score sheets of a board variant, as its game type offers them
    (:class:`~mathable.engine.protocol.ScoreSheets`): front ends write and score sheets
    through the game, never importing this family."""

    variant: Variant

    def write(self, game: Game) -> str:
        """The game as a score sheet (:func:`format_transcript`)."""
        return format_transcript(game)

    def score(self, text: str) -> dict[str, Any]:
        """A sheet scored turn by turn (:func:`score_transcript`), as JSON-ready data;
        raises TranscriptError at the first bad line."""
        return score_transcript(text, self.variant).to_dict()
