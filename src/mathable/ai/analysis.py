"""After the game: per turn, what was played against the best turn that was available.

The game is replayed from its log; at the start of every turn the view of the seat to
move (after the game every rack may be shown) goes to its family's hint search, the
same one a hint uses, so hint and analysis agree:

- board games: the exact search's best turn (:func:`~.search.best_turn`) from the rack
  the player held; the loss is the difference in points (bonus included). The search
  knows only the rack: a turn that took a restriction square's extra token (C7) may
  score more by the luck of the draw, and is then itself the best (loss 0);
- Quattro: the strong player's chain search (:func:`~.quattro.strong_plan`) from the
  hand held; the loss counts the cards that could have been played and were not.

Accuracy is the share of the best a player actually achieved, over the whole game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mathable.engine.actions import Action, Place
from mathable.engine.explain import Explanation
from mathable.engine.notation import CellNames, format_action
from mathable.engine.protocol import Game, View
from mathable.games.board.game import explain_on_board
from mathable.games.board.view import BoardView
from mathable.games.quattro.view import PilesView

from .base import board_from_view
from .families import by_surface
from .quattro import strong_plan
from .search import best_turn


@dataclass(frozen=True)
class TurnAnalysis:
    """One turn: who, what was played and scored, the best available and the loss.

    ``points`` and ``best_points`` are points in the board games, cards played in
    Quattro."""

    number: int
    seat: int
    played: str
    points: int
    best: str
    best_points: int
    played_explained: Explanation | None = None
    """The played turn's first placement explained (issue 18), if it placed."""
    best_explained: Explanation | None = None
    """The best turn's first placement explained (board games), if it places."""

    @property
    def loss(self) -> int:
        """What was given away (0 when the turn was the best, or better by luck)."""
        return max(0, self.best_points - self.points)


def _turn_starts(game: Game) -> dict[int, View]:
    """The view of the seat to move at the start of every turn, by turn index."""
    replay = game.replayed(0)
    starts: dict[int, View] = {}
    for action in [*game.log, None]:
        index = len(replay.summaries())
        if index not in starts and not replay.is_over:
            view = replay.view(replay.to_move, explained=False)
            if by_surface(view, _board_turn_begins, _piles_turn_begins):
                starts[index] = view
        if action is None:
            break
        replay.apply(action)
    return starts


def _board_turn_begins(view: BoardView) -> bool:
    return not view.turn_placements


def _piles_turn_begins(view: PilesView) -> bool:
    return view.phase == "play" and not view.turn_plays


def _written(actions: tuple[Action, ...], names: CellNames) -> str:
    return " ".join(format_action(a, names) for a in actions) or "pass"


def _best(view: View, names: CellNames) -> tuple[str, int, Explanation | None]:
    """The best turn from the start of a turn in words, what it achieves, and its first
    placement explained (board games: issue 18)."""

    def on_board(board_view: BoardView) -> tuple[str, int, Explanation | None]:
        variant, board = board_from_view(board_view)
        rack = board_view.rack
        strict = bool(board_view.house_rules.get("strict", False))
        plan = best_turn(variant, board, rack, started_with=len(rack), strict=strict)
        actions = tuple(Place(cell, value) for cell, value in plan.placements)
        first = None
        if plan.placements:
            cell, value = plan.placements[0]
            first = explain_on_board(variant, board, cell, value, strict)
        return _written(actions, names), plan.total, first

    def on_piles(piles_view: PilesView) -> tuple[str, int, Explanation | None]:
        actions = strong_plan(piles_view)
        return _written(actions, names), sum(1 for a in actions if isinstance(a, Place)), None

    return by_surface(view, on_board, on_piles)


def _achieved(game: Game) -> list[int]:
    """What every finished turn achieved: its points, or the cards it played."""
    return by_surface(
        game.view(None),
        lambda board: [turn.points for turn in board.turns],
        lambda piles: [len(turn.plays) for turn in piles.turns],
    )


def analyse_game(game: Game) -> list[TurnAnalysis]:
    """Every finished turn of ``game``, replayed from its log."""
    starts = _turn_starts(game)
    achieved = _achieved(game)
    explained = game.explain_turns()
    out = []
    for index, turn in enumerate(game.summaries()):
        if index not in starts:
            continue
        best, best_points, best_first = _best(starts[index], game.cell_names)
        played_first = explained[index][0] if explained[index] else None
        if achieved[index] > best_points:  # C7: the extra token drawn did better
            best, best_points, best_first = turn.notation, achieved[index], played_first
        out.append(
            TurnAnalysis(
                index + 1,
                turn.seat,
                turn.notation,
                achieved[index],
                best,
                best_points,
                played_first,
                best_first,
            )
        )
    return out


def summarise(game: Game, turns: list[TurnAnalysis]) -> list[dict[str, Any]]:
    """Per player: turns, points, best points, average loss, accuracy, biggest misses."""
    out = []
    for seat, name in enumerate(game.players):
        mine = [t for t in turns if t.seat == seat]
        scored = sum(min(t.points, t.best_points) for t in mine)
        best = sum(t.best_points for t in mine)
        misses = sorted(mine, key=lambda t: -t.loss)[:3]
        out.append(
            {
                "player": name,
                "turns": len(mine),
                "points": sum(t.points for t in mine),
                "best_points": best,
                "average_loss": round(sum(t.loss for t in mine) / len(mine), 1) if mine else 0.0,
                "accuracy": round(100 * scored / best, 1) if best else 100.0,
                "biggest_misses": [
                    {"turn": t.number, "played": t.played, "best": t.best, "loss": t.loss}
                    for t in misses
                    if t.loss > 0
                ],
            }
        )
    return out


REPORT_VERSION = 2
"""The version of :func:`analysis_report`'s answer: raise it when the analysis or its JSON
changes, so the reports the web server keeps (by version) are computed again."""


def analysis_report(game: Game) -> dict[str, Any]:
    """The whole analysis as JSON-ready data: the contract of ``mathable analyse --json``
    and of the web API's ``/analysis``, alike for every game."""
    turns = analyse_game(game)
    return {
        "turns": [
            {
                "turn": t.number,
                "player": game.players[t.seat],
                "played": t.played,
                "points": t.points,
                "best": t.best,
                "best_points": t.best_points,
                "loss": t.loss,
                "played_explanation": _explained(t.played_explained),
                "best_explanation": _explained(t.best_explained),
            }
            for t in turns
        ],
        "players": summarise(game, turns),
    }


def _explained(explanation: Explanation | None) -> dict[str, Any] | None:
    """An explanation as JSON (issue 18), its ``text`` in the current language (see
    :func:`with_texts` for a report kept and read in another)."""
    return None if explanation is None else explanation.to_json()


def with_texts(report: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``report`` with its explanations' texts written again in the current
    language: a kept report (the web keeps one per finished game, shared by its readers)
    is read in each reader's."""
    turns = []
    for turn in report.get("turns", ()):
        turn = dict(turn)
        for key in ("played_explanation", "best_explanation"):
            data = turn.get(key)
            if isinstance(data, dict):
                turn[key] = {**data, "text": Explanation.from_json(data).text()}
        turns.append(turn)
    return {**report, "turns": turns}
