"""The analysis of a kept game (issue 37): what was on the board, turn by turn.

A game kept at a real table has no known racks (ruling R1), so a turn cannot be judged
against the rack its player held. What is known is the tokens the turn placed: each
placement turn is judged against the best turn those same tokens could have made on the
board as it stood before it, found by the engine's own whole-turn search
(:func:`~.search.search_turns`, the one the computer players and the game's analysis use:
no second scorer). The bonus counts as the game counts it (C9, R1): only a turn that
empties the rack held at the turn's start (counted by the keeper) earns it, so the best
turn may earn it only where the turn played placed that many tokens (the rack's other
tokens are unknown, and stay on it).

The best turn never scores less than the turn played when the turn played was legal: the
search walks every order of every subset of the tokens, the played order among them.
When nothing scores more, the best turn *is* the turn played (as written), and nothing is
lost. A turn with a mistake that stood (C12, table referee) may score more than any legal
turn: then nothing is lost either.

>>> from mathable.games.board.keeper import KeptGame
>>> kept = KeptGame(CLASSIC, ["Ann", "Bob"])
>>> _ = kept.play("I8=12 H6=8")
>>> [(t.played, t.points, t.best, t.best_points) for t in analyse_kept(kept)]
[('I8=12 H6=8', 20, 'I8=12 H6=8', 20)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mathable.engine.explain import Explanation
from mathable.games.board.board import Board
from mathable.games.board.keeper import KeptGame, KeptTurn
from mathable.games.board.placements import explain_on_board
from mathable.games.board.variants import CLASSIC, Variant

from .search import TurnPlan, search_turns, turn_rank

NODE_LIMIT = 200_000
"""Positions searched per turn at most (the search's own bound): a kept game's analysis
is bounded work, whatever the table entered."""

KEPT_ANALYSIS_VERSION = 1
"""The version of :func:`kept_analysis_report`'s answer: raise it when its JSON changes."""


@dataclass(frozen=True)
class KeptTurnAnalysis:
    """One placement turn of a kept game: what was played, the best turn the same tokens
    could have made on that board, and the points lost."""

    number: int
    """The turn's number among all the kept turns (passes and exchanges counted)."""
    seat: int
    played: str
    points: int
    best: str
    best_points: int
    best_explained: tuple[Explanation, ...] = ()
    """Each placement of the best turn explained as the board stood when it was made
    (empty when the best turn is the turn played: the turn's own explanations hold)."""

    @property
    def lost(self) -> int:
        """The points the best turn scores over the turn played (never below 0)."""
        return max(0, self.best_points - self.points)


def _written(board: Board, plan: TurnPlan) -> str:
    """A plan in the sheet's notation (``H6=8 I8=12``)."""
    return " ".join(f"{board.grid.name(cell)}={value}" for cell, value in plan.placements)


def best_with(
    variant: Variant, board: Board, tokens: tuple[int, ...], held: int
) -> TurnPlan | None:
    """The best-scoring turn (bonus included, :func:`~.search.turn_rank`) that places
    some of ``tokens`` on ``board`` from a rack that held ``held`` at the turn's start
    (the bonus when every token is placed from a full one; 0: no bonus); None when none
    can be placed. The board is restored."""
    plans = search_turns(variant, board, tokens, started_with=held, node_limit=NODE_LIMIT)
    placing = [plan for plan in plans if plan.placements]
    return max(placing, key=turn_rank) if placing else None


def _explained(variant: Variant, board: Board, plan: TurnPlan) -> tuple[Explanation, ...]:
    """Each placement of ``plan`` explained in order, on a copy of ``board``."""
    scratch = board.copy()
    out = []
    for cell, value in plan.placements:
        out.append(explain_on_board(variant, scratch, cell, value))
        scratch.place(cell, value)
    return tuple(out)


def _judged(variant: Variant, board: Board, number: int, turn: KeptTurn) -> KeptTurnAnalysis:
    """One placement turn against the best of its own tokens on ``board`` (before it)."""
    tokens = tuple(p.value for p in turn.placements)
    emptied = len(tokens) >= turn.held  # the rack's every token among them (C9)
    plan = best_with(variant, board, tokens, turn.held if emptied else 0)
    if plan is None or plan.total <= turn.points:
        return KeptTurnAnalysis(
            number, turn.seat, turn.notation, turn.points, turn.notation, turn.points
        )
    return KeptTurnAnalysis(
        number,
        turn.seat,
        turn.notation,
        turn.points,
        _written(board, plan),
        plan.total,
        _explained(variant, board, plan),
    )


def analyse_kept(kept: KeptGame) -> list[KeptTurnAnalysis]:
    """Every placement turn of ``kept`` judged (see the module's docstring), in order."""
    variant = kept.variant
    board = variant.new_board()
    out = []
    for number, turn in enumerate(kept.turns, start=1):
        if turn.kind != "place" or not turn.placements:
            continue
        out.append(_judged(variant, board, number, turn))
        for placed in turn.placements:
            board.place(board.grid.parse(placed.cell), placed.value)
    return out


def kept_analysis_report(kept: KeptGame) -> dict[str, Any]:
    """The analysis as JSON-ready data (``GET /api/keeper/{id}/analysis``): per turn,
    then per player the points scored, the best points and the points lost."""
    turns = analyse_kept(kept)
    return {
        "version": KEPT_ANALYSIS_VERSION,
        "method": "the best turn of the same tokens on the same board (racks unknown, R1)",
        "turns": [
            {
                "turn": t.number,
                "seat": t.seat,
                "player": kept.players[t.seat],
                "played": t.played,
                "points": t.points,
                "best": t.best,
                "best_points": t.best_points,
                "lost": t.lost,
                "best_explanations": [e.to_json() for e in t.best_explained],
            }
            for t in turns
        ],
        "players": [
            {
                "player": name,
                "points": sum(t.points for t in turns if t.seat == seat),
                "best_points": sum(max(t.points, t.best_points) for t in turns if t.seat == seat),
                "lost": sum(t.lost for t in turns if t.seat == seat),
            }
            for seat, name in enumerate(kept.players)
        ],
    }


__all__ = [
    "CLASSIC",
    "KeptTurnAnalysis",
    "analyse_kept",
    "best_with",
    "kept_analysis_report",
]
