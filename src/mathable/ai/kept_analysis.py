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
from mathable.engine.notation import format_turn
from mathable.games.board.board import Board
from mathable.games.board.keeper import KeptGame, KeptTurn
from mathable.games.board.placements import explain_on_board
from mathable.games.board.variants import CLASSIC, Variant
from mathable.games.quattro.game import PILE_NAMES
from mathable.games.quattro.keeper import KeptQuattro

from .quattro import longest_chain
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


CHAIN_BUDGET = 20_000
"""Positions the longest-chain search walks per Quattro turn at most (bounded work)."""


def analyse_kept_quattro(kept: KeptQuattro) -> list[KeptTurnAnalysis]:
    """Every turn of a kept Quattro match that played cards, judged by the game's own
    measure (:mod:`.analysis`: cards played): the longest chain of the same cards on
    the piles as they stood, with the diagonals the turn had (Q4), by the strong
    player's own search (:func:`~.quattro.longest_chain`). The hands are unknown, so
    the turn's cards are all that is known of its hand: the best plays them all too,
    never more (a kept turn played every card it shows); where the turn announced DIAGO
    and the same cards play without it, the best turn keeps the DIAGO for later."""
    if kept.match is None:
        return []
    assert kept.match.setup is not None  # a kept match is a chosen deal: its cards turned up
    tops = list(kept.match.setup.piles)
    used: set[int] = set()
    round_now = 1
    out = []
    everyone = set(range(len(kept.players)))
    for number, (turn, made) in enumerate(zip(kept.turns, kept.match.turns, strict=True), 1):
        if turn.round != round_now:
            used, round_now = set(), turn.round
        diagonals = made.diago or used == everyone
        used |= {turn.seat} if made.diago else set()
        cards = tuple(value for _, value in made.plays)
        if cards:
            best = longest_chain(tuple(tops), cards, diagonals, [CHAIN_BUDGET])
            announce = made.diago
            if made.diago:  # the same cards without DIAGO keep it for later (Q4)
                plain = longest_chain(tuple(tops), cards, False, [CHAIN_BUDGET])
                if len(plain) >= len(best):
                    best, announce = plain, False
            written = ("diago " if announce else "") + format_turn(list(best), PILE_NAMES)
            if len(best) == len(cards) and announce == made.diago:
                written = turn.notation  # as good as played: the turn played is the best
            out.append(
                KeptTurnAnalysis(number, turn.seat, turn.notation, len(cards), written, len(best))
            )
        for pile, value in ([made.drawn_to] if made.drawn_to else []) + list(made.plays):
            tops[pile] = value
    return out


def kept_analysis_report(kept: KeptGame | KeptQuattro) -> dict[str, Any]:
    """The analysis as JSON-ready data (``GET /api/keeper/{id}/analysis``): per turn,
    then per player the points scored (cards played, in Quattro), the best points and
    the points lost."""
    quattro = isinstance(kept, KeptQuattro)
    turns = analyse_kept_quattro(kept) if isinstance(kept, KeptQuattro) else analyse_kept(kept)
    method = (
        "the longest chain of the same cards on the same piles (hands unknown, R1)"
        if quattro
        else "the best turn of the same tokens on the same board (racks unknown, R1)"
    )
    return {
        "version": KEPT_ANALYSIS_VERSION,
        "method": method,
        "unit": "cards" if quattro else "points",
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
    "analyse_kept_quattro",
    "best_with",
    "kept_analysis_report",
]
