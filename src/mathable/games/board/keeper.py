"""The score keeper (issue 37): a game on a real board, kept turn by turn as it is played.

The racks are unknown (ruling R1): any value still unseen may be placed, the token supply
is enforced per value (C2), and every placement is checked and scored by the same rules
and refusals as the game, through the score sheets' own scorer
(:class:`~.transcript.TableBoard`): a kept game is a score sheet written live. What the
keeper adds is the table: whose turn it is, how many tokens each rack and the bag hold
(counts only: they follow from the turns, C8, C10), hence the 50-point bonus (C9, R1) and
the extra tokens a bag can still give (C7), challenges (C12), undo, and the end with each
player's tokens left (C11).

A kept game is its setup plus a log of entries, one line each (the sheet's notation):
``I8=12 J8=16+`` (placements, ``+`` an extra token taken), ``pass``, ``exchange 3``,
``challenge`` (the last turn, C12), ``undo`` (the last entry) and ``end 5,7 / -`` (each
player's tokens left, in seat order, ``-`` for none). The state is the log replayed.

>>> kept = KeptGame(CLASSIC, ["Ann", "Bob"])
>>> kept.play("I8=12 H6=8 G9=2 F7=1 J8=16+").points
39
>>> kept.play("F8=7 F9=6 H9=8 G6=4 E9=3 E8=21 E10=7").bonus
50
>>> kept.scores
[39, 121]
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field

from mathable.engine.entries import EntryLog, check_table
from mathable.engine.errors import IllegalMove, NotationError
from mathable.engine.explain import Explanation
from mathable.engine.tokens import pieces_text
from mathable.i18n import lazy

from .placements import explain_on_board
from .transcript import ScoredPlacement, TableBoard, sheet_name, sheet_placement
from .variants import CLASSIC, Variant

_EXCHANGE = re.compile(r"exchange\s+(\d{1,2})", re.ASCII | re.IGNORECASE)
_VALUE = re.compile(r"\d{1,3}", re.ASCII)


@dataclass(frozen=True)
class KeptTurn:
    """One turn as kept: who played it, what, and its points."""

    seat: int
    kind: str
    """``place``, ``pass`` or ``exchange``."""
    words: tuple[str, ...] = ()
    """The placements as entered (``J8=16+``)."""
    placements: tuple[ScoredPlacement, ...] = ()
    points: int = 0
    """The turn's points, the bonus included."""
    bonus: int = 0
    exchanged: int = 0
    challenged: bool = False
    """Cut short at its first mistake by a successful challenge (C12)."""
    held: int = 0
    """The tokens on the player's rack at the turn's start (counted, R1)."""
    explanations: tuple[Explanation, ...] = field(default=(), compare=False)
    """Each placement explained as the board stood when it was made."""

    @property
    def notation(self) -> str:
        """The turn in the sheet's notation (``I8=12 J8=16+``, ``pass``, ``exchange 3``)."""
        if self.kind == "exchange":
            return f"exchange {self.exchanged}"
        if not self.placements:
            return "pass"
        return " ".join(sheet_placement(p) for p in self.placements)


class KeptGame(EntryLog):
    """A game on a real table, kept turn by turn (see the module's docstring).

    ``players`` in seat order (clockwise); ``first`` the seat that starts (C10: the
    table's draw); ``referee``: the table-referee house rule (C12), an illegal placement is
    accepted as a mistake that an opponent may challenge before the next turn, instead of
    refused. Every refusal is an IllegalMove (rule, cell) or a NotationError, and leaves
    the game as it was."""

    def __init__(
        self,
        variant: Variant,
        players: Sequence[str],
        first: int = 0,
        referee: bool = False,
    ) -> None:
        check_players(variant, players)
        if not 0 <= first < len(players):
            raise IllegalMove(lazy("there is no seat {seat} in this game", seat=first))
        self.variant = variant
        self.players = tuple(players)
        self.first = first
        self.referee = referee
        EntryLog.__init__(self)
        self._rebuild()

    # -- the state, derived from the entries -----------------------------------------------

    def _rebuild(self) -> None:
        """The state from scratch, replaying the effective entries (after undo and cuts)."""
        variant, count = self.variant, len(self.players)
        self.table = TableBoard(variant)
        self.turns: list[KeptTurn] = []
        self.scores = [0] * count
        self.left: list[tuple[int, ...]] | None = None
        self.racks = [0] * count
        self.bag = sum(variant.tokens.values())
        for offset in range(count):  # C10: racks filled from the starting player on
            self._refill((self.first + offset) % count)
        self.to_move = self.first
        for entry in self._entries:
            self._apply(entry)

    def _refill(self, seat: int) -> None:
        drawn = min(self.bag, self.variant.rack_size - self.racks[seat])
        self.racks[seat] += drawn
        self.bag -= drawn

    @property
    def is_over(self) -> bool:
        """Whether the end (C11) has been entered."""
        return self.left is not None

    def unseen(self) -> dict[int, int]:
        """The player card as the table sees it (C13, R1): per value, the tokens not yet
        on the board nor counted left at the end."""
        return self.table.unseen()

    # -- playing ---------------------------------------------------------------------

    def play(self, text: str) -> KeptTurn:
        """Enter one line (see the module's docstring); returns the turn it made or
        changed (for ``undo`` the turn now last, for ``end`` the last turn). Refused with
        IllegalMove or NotationError, the game unchanged."""
        entry = self.entered(text)
        if entry.lower() == "undo":
            self._undo()
        elif entry.lower() == "challenge":
            saved = list(self._entries)
            self._challenge()  # refused before it changes anything
            self._before.append(saved)
        else:
            self._enter(entry, lambda made: self._apply(made, typed=True))
        self.log.append(entry)
        return self.turns[-1] if self.turns else KeptTurn(self.first, "pass")

    def _challenge(self) -> None:
        """C12: the last turn cut at its first mistake, or the challenge fails."""
        if self.is_over or not self.turns or self.turns[-1].kind != "place":
            raise IllegalMove(
                lazy("only the turn just ended can be challenged, before the next player moves"),
                rule="C12",
            )
        turn = self.turns[-1]
        first = next((i for i, p in enumerate(turn.placements) if p.mistake), None)
        if first is None:
            raise IllegalMove(
                lazy("every placement of the last turn was legal: the challenge fails"),
                rule="C12",
            )
        kept = " ".join(turn.words[:first])
        self._entries[-1] = f"cut {kept}".rstrip()
        self._rebuild()

    def _apply(self, entry: str, typed: bool = False) -> None:
        """Apply one effective entry to the state (raises, possibly half-applied: the
        caller rebuilds). ``cut``, a turn cut by a challenge, is never ``typed``."""
        if self.is_over:
            raise IllegalMove(lazy("the game is over"), rule="C11")
        words = entry.split()
        keyword = words[0].lower() if words else ""
        seat = self.to_move
        if not words:
            raise NotationError(
                lazy("an empty entry: write placements like I8=12, 'pass' or 'exchange N'")
            )
        if keyword == "end":
            self._end(entry[len("end") :])
            return
        if keyword == "pass" and len(words) == 1:
            self._no_placement(seat)
            turn = KeptTurn(seat, "pass", held=self.racks[seat])
        elif keyword == "exchange":
            turn = self._exchange(seat, entry)
        else:
            challenged = keyword == "cut" and not typed
            turn = self._place(seat, words[1:] if challenged else words, challenged)
        self.turns.append(turn)
        self.scores[seat] += turn.points
        self._advance()

    def _no_placement(self, seat: int) -> None:
        if not self.variant.pass_and_exchange:
            raise IllegalMove(
                lazy(
                    "{game} has no passing nor exchanging: every tile is placed",
                    game=self.variant.title,
                ),
                rule="K2",
            )

    def _exchange(self, seat: int, entry: str) -> KeptTurn:
        self._no_placement(seat)
        match = _EXCHANGE.fullmatch(entry)
        rack = self.racks[seat]
        if match is None or not 1 <= int(match.group(1)) <= rack:
            raise NotationError(
                lazy("write 'exchange N' with N from 1 to {most}", most=max(rack, 1))
            )
        count = int(match.group(1))
        if self.bag < count:
            raise IllegalMove(
                lazy(
                    "the bag holds {tokens}: no exchange of {count}",
                    tokens=pieces_text(self.variant.piece, self.bag),
                    count=count,
                ),
                rule="C8",
            )
        return KeptTurn(seat, "exchange", exchanged=count, held=rack)

    def _place(self, seat: int, words: Sequence[str], challenged: bool) -> KeptTurn:
        variant = self.variant
        held = self.racks[seat]
        before = self.table.board.copy()
        placed, bonus = self.table.score_turn(
            words, rack=held, bag=self.bag, referee=self.referee and not challenged
        )
        explanations = []
        for scored in placed:
            cell = before.grid.parse(scored.cell)
            explanations.append(explain_on_board(variant, before, cell, scored.value))
            before.place(cell, scored.value)
        extras = sum(p.extra for p in placed)
        self.bag -= extras
        self.racks[seat] = held + extras - len(placed)
        self._refill(seat)
        points = sum(p.points for p in placed) + bonus
        return KeptTurn(
            seat,
            "place",
            tuple(words),
            placed,
            points,
            bonus,
            challenged=challenged,
            held=held,
            explanations=tuple(explanations),
        )

    def _advance(self) -> None:
        """The next seat clockwise (on the numbered board, K3, past empty racks)."""
        count = len(self.players)
        seat = self.to_move
        for _ in range(count):
            seat = (seat + 1) % count
            if not self.variant.empty_racks_sit_out or self.racks[seat]:
                break
        self.to_move = seat

    def _end(self, text: str) -> None:
        """C11: each player's tokens left, in seat order (``5,7 / -``), deducted."""
        groups = [g.strip() for g in text.split("/")]
        if len(groups) != len(self.players):
            raise NotationError(
                lazy(
                    "write 'end' then each player's tokens left, in seat order, separated "
                    "by '/' ('-' for none), like 'end 5,7 / -'"
                )
            )
        left: list[tuple[int, ...]] = []
        for seat, group in enumerate(groups):
            values = [] if group in ("", "-") else group.replace(",", " ").split()
            if not all(_VALUE.fullmatch(v) for v in values):
                raise NotationError(
                    lazy("{name}'s tokens left: values like 5,7", name=self.players[seat])
                )
            held = self.racks[seat]
            if len(values) != held:
                raise IllegalMove(
                    lazy(
                        "{name} holds {tokens}: list every one (rule C11)",
                        name=self.players[seat],
                        tokens=pieces_text(self.variant.piece, held),
                    ),
                    rule="C11",
                )
            left.append(tuple(int(v) for v in values))
        for counted in left:
            self.table.count_left(counted)
        if self.variant.deduct_rack_at_end:
            for seat, counted in enumerate(left):
                self.scores[seat] -= sum(counted)
        self.left = left

    # -- what the table reads ------------------------------------------------------------

    @property
    def ending(self) -> bool:
        """C11a: the bag is empty and the last turn emptied its player's rack: the table
        enters the tokens left (``end``). Other ends (C11b, c) are the table's to see."""
        if self.is_over or self.bag or not self.turns:
            return False
        last = self.turns[-1]
        return last.kind == "place" and self.racks[last.seat] == 0

    def deductions(self) -> list[int]:
        """Each player's deduction at the end (C11; none before it, none in Junior)."""
        if self.left is None or not self.variant.deduct_rack_at_end:
            return [0] * len(self.players)
        return [sum(values) for values in self.left]

    def sheet(self) -> str:
        """The game as a score sheet that ``mathable score`` totals identically: one line
        per turn, then the tokens left (C11)."""
        names = [sheet_name(p) for p in self.players]
        lines = [f"# {self.variant.title}: kept at the table (mathable keep)"]
        lines += [f"{names[t.seat]}: {t.notation}" for t in self.turns]
        for seat, values in enumerate(self.left or ()):
            if values:
                lines.append(f"{names[seat]}: left {' '.join(map(str, values))}")
        return "\n".join(lines) + "\n"


def check_players(variant: Variant, players: Sequence[str]) -> None:
    """Refuse a table of players the game cannot seat: their number, empty, too long or
    equal names (as a sheet writes them)."""
    check_table(
        players,
        variant.title,
        variant.min_players,
        variant.max_players,
        sheet_name,
        lambda name, shown: not name.strip() or "\n" in name or shown == "?",
    )


def drawn_first(variant: Variant, players: Sequence[str]) -> int:
    """C10: each player draws a token, the highest starts, ties draw again (the table's
    draw, made here for a table that asks the keeper to draw)."""
    seats = list(range(len(players)))
    values = [v for v in variant.token_values for _ in range(variant.tokens[v])]
    while len(seats) > 1:
        pool = list(values)
        drawn = {}
        for seat in seats:
            drawn[seat] = pool.pop(secrets.randbelow(len(pool)))
        best = max(drawn.values())
        seats = [seat for seat in seats if drawn[seat] == best]
    return seats[0]


__all__ = ["CLASSIC", "KeptGame", "KeptTurn", "check_players", "drawn_first"]
