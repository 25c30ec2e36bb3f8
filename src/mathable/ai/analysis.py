"""After the game: per turn, what was played against the best turn that was available.

The best turn is found by the exact search of the strong player from the rack the
player actually held when the turn began (after the game every rack may be shown). The
loss is the difference in points (bonus included); accuracy is the share of the best
points a player actually scored, over the whole game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mathable.engine.protocol import Game
from mathable.games.board.board import Board
from mathable.games.board.game import BoardGame

from .search import TurnPlan, best_turn


@dataclass(frozen=True)
class TurnAnalysis:
    """One turn: who, what was played and scored, the best available and the loss."""

    number: int
    seat: int
    played: str
    points: int
    best: str
    best_points: int

    @property
    def loss(self) -> int:
        """Points given away (0 when the turn was the best, or better by luck of a draw)."""
        return max(0, self.best_points - self.points)


def _notation(game: Game, plan: TurnPlan) -> str:
    grid = game.board.grid
    return " ".join(f"{grid.name(c)}={v}" for c, v in plan.placements) or "pass"


def analyse_game(game: Game) -> list[TurnAnalysis]:
    """Every finished turn of ``game`` (a board game), replayed from its log."""
    replay = BoardGame(
        game.variant,
        game.players,
        seed=game.seed,
        house_rules=game.house_rules,
        setup=game.setup,
    )
    starts: dict[int, tuple[Board, tuple[int, ...], int]] = {}
    for action in [*game.log, None]:
        index = len(replay.turns)
        if not replay.turn_placements and index not in starts and not replay.is_over:
            seat = replay.to_move
            starts[index] = (replay.board.copy(), replay.rack(seat), seat)
        if action is None:
            break
        replay.apply(action)
    strict = game.house_rules.strict
    out = []
    grid = game.board.grid
    for index, turn in enumerate(replay.turns):
        if index not in starts:
            continue
        board, rack, _ = starts[index]
        plan = best_turn(game.variant, board, rack, started_with=len(rack), strict=strict)
        if turn.kind == "place":
            played = " ".join(
                f"{grid.name(p.cell)}={p.value}{'+' if p.extra else ''}" for p in turn.placements
            )
        else:
            played = turn.kind + (f" {turn.exchanged}" if turn.exchanged else "")
        out.append(
            TurnAnalysis(
                index + 1, turn.seat, played, turn.points, _notation(game, plan), plan.total
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


def analysis_report(game: Game) -> dict[str, Any]:
    """The whole analysis as JSON-ready data: the contract of ``mathable analyse --json``
    and of the web API's ``/analysis``."""
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
            }
            for t in turns
        ],
        "players": summarise(game, turns),
    }
