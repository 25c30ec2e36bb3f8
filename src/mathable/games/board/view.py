"""What one player may know of a board game: the only thing that leaves a server or
reaches a bot.

A view holds the player's own rack, the public board, scores and turns, the size of the
bag and the player card (C13); never another player's rack nor the order of the bag.
Once the game is over the racks are shown, as players do when they deduct them (C11).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from mathable.engine.actions import Cell
from mathable.engine.kept import Kept, kept, kept_run, named_cells, naming_key, where_not
from mathable.engine.protocol import View, Words
from mathable.i18n import current as current_language
from mathable.i18n import lazy

from .board import EMPTY
from .turns import PlacedToken, TurnRecord


@dataclass(frozen=True)
class BoardView(View):
    """A board game as ``seat`` sees it (``seat`` is None for a spectator).

    ``surface`` holds the value on every cell, row by row; -1 where empty.
    """

    turn_placements: tuple[PlacedToken, ...]
    turn_points: int
    turns: tuple[TurnRecord, ...]
    start_draws: tuple[tuple[int, int], ...]
    can_challenge: bool
    deductions: tuple[int, ...]

    LATER: ClassVar[frozenset[str]] = frozenset({"summaries", "status_text"})
    """A computer's view (``explained=False``) makes these only if read: the finished
    turns in words and the status line (:meth:`View.of`)."""

    @property
    def board(self) -> tuple[int, ...]:
        """The value on every cell, row by row; -1 where empty."""
        return self.surface

    @property
    def notice_text(self) -> Words:
        """How the first player was drawn (C10), until the first turn begins."""
        if not self.start_draws or self.turns or self.turn_placements:
            return ""
        # TRANSLATORS: one draw for the start, listed as "Ann drew 12, Bob drew 7"
        draws = [
            lazy("{name} drew {value}", name=self.players[s], value=v) for s, v in self.start_draws
        ]
        return lazy(
            "Drawing for the start: {draws}. {name} starts.",
            draws=draws,
            name=self.players[self.to_move],
        )

    @property
    def recent_targets(self) -> tuple[Cell, ...]:
        """The cells of the last finished turn and of the turn under way."""
        last = self.turns[-1].placements if self.turns else ()
        return tuple(sorted({p.cell for p in (*last, *self.turn_placements)}))

    @property
    def last_turn_targets(self) -> tuple[tuple[Cell, ...], ...]:
        """Per seat, the cells its last finished turn placed on."""
        last: dict[int, tuple[Cell, ...]] = {}
        seats = len(self.players)
        for turn in reversed(self.turns):  # from the newest, until every seat is found
            if turn.seat not in last:
                last[turn.seat] = tuple(sorted({p.cell for p in turn.placements}))
                if len(last) == seats:
                    break
        return tuple(last.get(seat, ()) for seat in range(seats))

    def to_dict(self, cell_name: Callable[[Cell], Any] | None = None) -> dict[str, Any]:
        """JSON-ready data; ``cell_name`` turns cell numbers into names if given."""
        name: Callable[[Cell], Any] = cell_name or (lambda c: c)

        def placed(p: PlacedToken) -> dict[str, Any]:
            return {"cell": name(p.cell), "value": p.value, "points": p.points, "extra": p.extra}

        common = self.common_dict()
        written = common["summaries"]

        def explained(index: int) -> list[str]:
            """The texts of turn ``index``'s explained placements (issue 18), as the
            summaries wrote them."""
            return list(written[index]["explanations"]) if index < len(written) else []

        def turn_dict(index: int, t: TurnRecord) -> dict[str, Any]:
            return {
                "seat": t.seat,
                "kind": t.kind,
                "points": t.points,
                "bonus": t.bonus,
                "exchanged": t.exchanged,
                "challenged": t.challenged,
                "placements": [placed(p) for p in t.placements],
                "explanations": explained(index),
            }

        # a finished turn reads the same in every view after it: made once per language,
        # naming and explanations, and shared (:mod:`mathable.engine.kept`); a naming
        # other than a game's own is made afresh
        naming = naming_key(cell_name)
        lang = current_language()

        turns = self.turns

        def turn(index: int) -> Kept:
            t = turns[index]
            texts = tuple(written[index]["explanations"]) if index < len(written) else ()
            return kept(t, (lang, naming, texts), lambda: turn_dict(index, t))

        if naming is None:
            turns_data: list[Any] = [turn_dict(i, t) for i, t in enumerate(turns)]
        elif len(written) >= len(turns):  # each turn's part is made of it and its summary
            turns_data = kept_run(("turns", lang, naming), turn, turns, written[: len(turns)])
        else:
            turns_data = [turn(index) for index in range(len(turns))]
        names = None if cell_name is None else named_cells(cell_name, len(self.surface))
        return {
            **common,
            "board": (
                {name(c): v for c, v in enumerate(self.surface) if v != EMPTY}
                if names is None
                else where_not(self.surface, names, EMPTY)
            ),
            "turn": {
                "placements": [placed(p) for p in self.turn_placements],
                "points": self.turn_points,
            },
            "turns": turns_data,
            "start_draws": [list(d) for d in self.start_draws],
            "can_challenge": self.can_challenge,
            "deductions": list(self.deductions),
        }
