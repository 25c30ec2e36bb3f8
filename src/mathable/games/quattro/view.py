"""What one player may know of a Quattro match: own hand, the four top cards, counts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from mathable.engine.actions import Cell
from mathable.engine.protocol import View, Words
from mathable.engine.tokens import pieces_text

PILES = "ABCD"
"""Pile names: A B on the top row, C D below (ruling Q1)."""


@dataclass(frozen=True)
class QuattroTurn:
    """One finished turn: the cards played (pile, value) in order, or the stuck-turn
    sequence (the drawn card and its pile, then an exchange or a penalty)."""

    seat: int
    kind: str
    """"play", "stuck" (Q3), "pass" (nothing could be drawn) or "left" (cut short by
    its player leaving the match, local ruling L1)."""
    plays: tuple[tuple[int, int], ...] = ()
    diago: bool = False
    drawn_to: tuple[int, int] | None = None
    exchanged: bool = False
    won_round: bool = False


@dataclass(frozen=True)
class PilesView(View):
    """A Quattro match as ``seat`` sees it: own hand, the four tops (``surface``), counts."""

    pile_sizes: tuple[int, ...]
    trash_size: int
    phase: str
    drawn: int | None
    turn_plays: tuple[tuple[int, int], ...]
    diagonals: bool
    diago_used: tuple[int, ...]
    round: int
    rounds: int
    turns: tuple[QuattroTurn, ...]

    OWN_KEYS: ClassVar[frozenset[str]] = View.OWN_KEYS | {"status", "drawn"}
    """The seat to move sees the card it drew, and a status line that speaks of it."""

    @property
    def tops(self) -> tuple[int, ...]:
        """The top cards of piles A, B, C, D."""
        return self.surface

    @property
    def recent_targets(self) -> tuple[Cell, ...]:
        """The piles the last finished turn and the turn under way played on."""
        piles = {p for p, _ in self.turn_plays}
        if self.turns:
            last = self.turns[-1]
            piles |= {p for p, _ in last.plays}
            if last.drawn_to is not None:
                piles.add(last.drawn_to[0])
        return tuple(sorted(piles))

    @property
    def last_turn_targets(self) -> tuple[tuple[Cell, ...], ...]:
        """Per seat, the piles its last finished turn played on (a stuck turn: the pile
        its drawn card went to)."""
        last: dict[int, tuple[Cell, ...]] = {}
        for turn in self.turns:
            piles = {p for p, _ in turn.plays}
            if turn.drawn_to is not None:
                piles.add(turn.drawn_to[0])
            last[turn.seat] = tuple(sorted(piles))
        return tuple(last.get(seat, ()) for seat in range(len(self.players)))

    @property
    def target_note_texts(self) -> tuple[Words, ...]:
        """How many cards each pile holds (``12 cards``)."""
        return tuple(pieces_text("card", n) for n in self.pile_sizes)

    def own_dict(self) -> dict[str, Any]:
        """The seat's own keys, with its drawn card and its status line."""
        return {**super().own_dict(), "status": self.status, "drawn": self.drawn}

    def to_dict(self, cell_name: Callable[[Cell], Any] | None = None) -> dict[str, Any]:
        """JSON-ready data (piles named A-D)."""

        def play(p: tuple[int, int]) -> dict[str, Any]:
            return {"pile": PILES[p[0]], "value": p[1]}

        common = self.common_dict()
        written = common["summaries"]

        def explained(index: int) -> list[str]:
            """The texts of turn ``index``'s explained placements (issue 18), as the
            summaries wrote them."""
            return list(written[index]["explanations"]) if index < len(written) else []

        return {
            **common,
            "piles": {PILES[i]: top for i, top in enumerate(self.tops)},
            "pile_sizes": {PILES[i]: n for i, n in enumerate(self.pile_sizes)},
            "trash_size": self.trash_size,
            "phase": self.phase,
            "drawn": self.drawn,
            "turn": {"plays": [play(p) for p in self.turn_plays]},
            "diagonals": self.diagonals,
            "diago_used": list(self.diago_used),
            "round": self.round,
            "rounds": self.rounds,
            "turns": [
                {
                    "seat": t.seat,
                    "kind": t.kind,
                    "plays": [play(p) for p in t.plays],
                    "diago": t.diago,
                    "drawn_to": play(t.drawn_to) if t.drawn_to else None,
                    "exchanged": t.exchanged,
                    "won_round": t.won_round,
                    "explanations": explained(index),
                }
                for index, t in enumerate(self.turns)
            ],
        }
