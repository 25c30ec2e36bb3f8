"""After the game: per turn, what was played against the best turn that was available.

The game is replayed from its log; at the start of every turn the view of the seat to
move (after the game every rack may be shown) is judged by its family:

- board games (issue 35): by equity and chance of winning, with the expert's own
  valuation (:mod:`.equity`): every turn -- a placement, an exchange, a pass alike -- is
  worth the points it scores plus the tokens it keeps less the board it opens, refined by
  simulated replies (seeded by the game's seed and the turn's number: the same report on
  any machine); the best turn is the candidate of highest equity, the loss the equity
  given away (in points). The chance of winning before (with the best turn) and after
  (with the turn played) comes from a model of the margin and the tokens still to play
  (:func:`~.equity.win_chance`); a turn's accuracy is lichess's formula of the winning
  chance it lost (:func:`~.equity.turn_accuracy`), a player's the mean over its turns.
  The budgets are a depth (:class:`~.equity.Depth`): the expert's by default, the
  master's on request (``mathable analyse --depth master``), and the report says which;
- Quattro: the strong player's chain search (:func:`~.quattro.strong_plan`) from the
  hand held, as before: the loss counts the cards that could have been played and were
  not, the accuracy is the share of those played (no equity: a hand is played out, there
  is no leave to weigh), and no chance of winning is given.

Reports carry :data:`REPORT_VERSION`; one of version 2 (points against the highest-scoring
turn, no equity nor chances) stays readable: :func:`readable` fills what it lacks.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, cast

from mathable.engine.actions import Action, Exchange, Place
from mathable.engine.explain import Explanation
from mathable.engine.notation import CellNames, format_action
from mathable.engine.protocol import Game, View
from mathable.games.board.game import explain_on_board
from mathable.games.board.turns import TurnRecord
from mathable.games.board.view import BoardView
from mathable.games.quattro.view import PilesView
from mathable.i18n import Text, from_stored, stored

from .base import board_from_view
from .equity import (
    EXPERT_DEPTH,
    Depth,
    TurnJudgement,
    judge_turn,
    turn_accuracy,
    why_better,
    why_not_placed,
)
from .families import by_surface, surface_of
from .quattro import strong_plan
from .search import TurnPlan


@dataclass(frozen=True)
class TurnAnalysis:
    """One turn: who, what was played and scored, the best available and the loss.

    ``points`` and ``best_points`` are points in the board games, cards played in
    Quattro; ``judgement`` (board games) holds the equities and chances of winning."""

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
    judgement: TurnJudgement | None = None
    """The turn by equity and chance of winning (board games: issue 35)."""
    why: Text | None = None
    """Why the best turn is better, or why the turn played exchanged or passed."""

    @property
    def loss(self) -> int:
        """What was given away: equity in points (board games), cards (Quattro); 0 when
        the turn was the best."""
        if self.judgement is not None:
            return round(self.judgement.equity_loss)
        return max(0, self.best_points - self.points)

    @property
    def accuracy(self) -> float | None:
        """The turn's accuracy from the chance of winning it lost (board games)."""
        if self.judgement is None:
            return None
        return turn_accuracy(self.judgement.win_loss)


@dataclass(frozen=True)
class _Start:
    """A turn's start: the view of the seat to move, and the actions of its turn."""

    view: View
    actions: list[Action]


def _turn_starts(game: Game) -> dict[int, _Start]:
    """The start of every turn (the view of the seat to move, the turn's actions), by
    turn index."""
    replay = game.replayed(0)
    starts: dict[int, _Start] = {}
    for action in [*game.log, None]:
        index = len(replay.summaries())
        if index not in starts and not replay.is_over:
            view = replay.view(replay.to_move, explained=False)
            if by_surface(view, _board_turn_begins, _piles_turn_begins):
                starts[index] = _Start(view, [])
        if action is None:
            break
        if index in starts:
            starts[index].actions.append(action)
        replay.apply(action)
    return starts


def _board_turn_begins(view: BoardView) -> bool:
    return not view.turn_placements


def _piles_turn_begins(view: PilesView) -> bool:
    return view.phase == "play" and not view.turn_plays


def _written(actions: tuple[Action, ...], names: CellNames) -> str:
    return " ".join(format_action(a, names) for a in actions) or "pass"


def _written_plan(plan: TurnPlan, rack: tuple[int, ...], names: CellNames) -> str:
    """A board plan as a turn is written: its placements, else the exchange or the pass."""
    if plan.placements:
        return _written(tuple(Place(cell, value) for cell, value in plan.placements), names)
    given = list(rack)
    for value in plan.leave:
        given.remove(value)
    return format_action(Exchange(tuple(sorted(given))), names) if given else "pass"


def _played_plan(view: BoardView, record: TurnRecord, actions: list[Action]) -> TurnPlan:
    """The turn played as a plan from its start: its placements (none when a challenge
    took them back), points and the tokens it kept."""
    rack = list(view.rack)
    for action in actions:
        if isinstance(action, Exchange):
            for value in action.values:
                rack.remove(value)
            return TurnPlan((), 0, 0, tuple(sorted(rack)))
    if record.challenged or not record.placements:
        return TurnPlan((), 0, 0, tuple(sorted(rack)))
    placements = tuple((p.cell, p.value) for p in record.placements)
    for _, value in placements:
        if value in rack:  # an extra token drawn (C7) was never on the rack
            rack.remove(value)
    return TurnPlan(placements, record.points - record.bonus, record.bonus, tuple(sorted(rack)))


def _given(actions: list[Action]) -> tuple[int, ...]:
    return next((tuple(sorted(a.values)) for a in actions if isinstance(a, Exchange)), ())


def turn_chance(seed: int, number: int) -> random.Random:
    """Where the simulations of turn ``number`` of the game dealt from ``seed`` draw
    their samples: the same report on any machine, and a turn's judgement is the same
    whatever the other turns were."""
    return random.Random(f"analysis|{seed}|{number}")


def _board_turn(
    game: Game, index: int, start: _Start, record: TurnRecord, notation: str, depth: Depth
) -> TurnAnalysis:
    """A board turn judged by equity (:func:`~.equity.judge_turn`) at ``depth``."""
    view = cast(BoardView, start.view)  # a board game's (the caller checked its surface)
    variant, board = board_from_view(view)
    strict = bool(view.house_rules.get("strict", False))
    played = _played_plan(view, record, start.actions)
    rng = turn_chance(game.seed, index + 1)
    judged = judge_turn(view, variant, board, played, _given(start.actions), rng, depth)
    best_plan = judged.best.plan
    if judged.best is judged.played:
        best = notation
    else:
        best = _written_plan(best_plan, view.rack, game.cell_names)
    best_first = None
    if best_plan.placements:
        cell, value = best_plan.placements[0]
        best_first = explain_on_board(variant, board, cell, value, strict)
    why = why_better(judged, best) or why_not_placed(judged)
    return TurnAnalysis(
        index + 1,
        record.seat,
        notation,
        record.points,
        best,
        judged.best.plan.total,
        None,
        best_first,
        judged,
        why,
    )


def _piles_best(view: PilesView, names: CellNames) -> tuple[str, int]:
    """Quattro's best turn from the start of a turn in words, and the cards it plays."""
    actions = strong_plan(view)
    return _written(actions, names), sum(1 for a in actions if isinstance(a, Place))


def _analysed(
    game: Game, index: int, notation: str, seat: int, start: _Start, final: View, depth: Depth
) -> TurnAnalysis:
    """Turn ``index`` judged from its start: by equity on a board, by cards in Quattro."""
    if surface_of(final) == "board":
        record = cast(BoardView, final).turns[index]
        return _board_turn(game, index, start, record, notation, depth)
    best, best_points = _piles_best(cast(PilesView, start.view), game.cell_names)
    cards = len(cast(PilesView, final).turns[index].plays)
    if cards >= best_points:
        best, best_points = notation, cards
    return TurnAnalysis(index + 1, seat, notation, cards, best, best_points)


def analyse_game(
    game: Game, depth: Depth = EXPERT_DEPTH, progress: Callable[[], None] | None = None
) -> list[TurnAnalysis]:
    """Every finished turn of ``game``, replayed from its log; a board game's judged at
    ``depth``. ``progress`` is called after each turn (for a progress bar)."""
    starts = _turn_starts(game)
    final = game.view(None)
    explained = game.explain_turns()
    out = []
    for index, turn in enumerate(game.summaries()):
        start = starts.get(index)
        if start is not None:
            judged = _analysed(game, index, turn.notation, turn.seat, start, final, depth)
            played_first = explained[index][0] if explained[index] else None
            out.append(replace(judged, played_explained=played_first))
        if progress is not None:
            progress()
    return out


def summarise(game: Game, turns: list[TurnAnalysis]) -> list[dict[str, Any]]:
    """Per player: turns, points, best points, average loss, accuracy, biggest misses.

    Board games: the accuracy is the mean of the turns' accuracies (lichess's formula of
    the winning chance each lost), the misses the turns that lost the most winning
    chance; Quattro: the share of the cards that could have been played."""
    out = []
    for seat, name in enumerate(game.players):
        mine = [t for t in turns if t.seat == seat]
        judged = [t.judgement for t in mine if t.judgement is not None]
        if judged:
            accuracy = round(sum(t.accuracy or 0.0 for t in mine) / len(mine), 1)
            misses = sorted(
                mine, key=lambda t: (-(t.judgement.win_loss if t.judgement else 0), -t.loss)
            )
        else:
            scored = sum(min(t.points, t.best_points) for t in mine)
            best_total = sum(t.best_points for t in mine)
            accuracy = round(100 * scored / best_total, 1) if best_total else 100.0
            misses = sorted(mine, key=lambda t: -t.loss)
        out.append(
            {
                "player": name,
                "turns": len(mine),
                "points": sum(t.points for t in mine),
                "best_points": sum(t.best_points for t in mine),
                "average_loss": round(sum(t.loss for t in mine) / len(mine), 1) if mine else 0.0,
                "accuracy": accuracy,
                "win_loss": round(sum(j.win_loss for j in judged), 1) if judged else None,
                "biggest_misses": [
                    {"turn": t.number, "played": t.played, "best": t.best, "loss": t.loss}
                    for t in misses[:3]
                    if t.loss > 0
                ],
            }
        )
    return out


REPORT_VERSION = 3
"""The version of :func:`analysis_report`'s answer: raise it when the analysis or its JSON
changes, so the reports the web server keeps (by version) are computed again. 3 (issue
35): equity, chances of winning, accuracy from them, the reasons; 2: points alone."""


def method(depth: Depth) -> dict[str, Any]:
    """How a version-3 report was made at ``depth``, said in the report (for readers and
    tools; ``depth`` is new beside the rest, and a report without it was the expert's)."""
    return {
        "equity": "points + leave - threat, blended with simulated replies (the expert's)",
        "depth": depth.name,
        "samples": depth.samples,
        "win_chance": "model: Phi(margin / (40 * sqrt(tokens still to play)))",
        "accuracy": "mean over turns of 103.1668 * exp(-0.04354 * win% lost) - 3.1669",
    }


def _percent(chance: float) -> float:
    return round(100 * chance, 1)


def _turn_json(game: Game, t: TurnAnalysis) -> dict[str, Any]:
    j = t.judgement
    return {
        "turn": t.number,
        "player": game.players[t.seat],
        "played": t.played,
        "points": t.points,
        "best": t.best,
        "best_points": t.best_points,
        "loss": t.loss,
        "equity": None if j is None else round(j.played.equity, 1),
        "best_equity": None if j is None else round(j.best.equity, 1),
        "equity_loss": None if j is None else round(j.equity_loss, 1),
        "win_before": None if j is None else _percent(j.win_before),
        "win_after": None if j is None else _percent(j.win_after),
        "win_loss": None if j is None else round(j.win_loss, 1),
        "accuracy": None if t.accuracy is None else round(t.accuracy, 1),
        "samples": None if j is None else j.samples,
        "why": None if t.why is None else str(t.why),
        "why_text": None if t.why is None else stored(t.why),
        "played_explanation": _explained(t.played_explained),
        "best_explanation": _explained(t.best_explained),
    }


def analysis_report(
    game: Game, depth: Depth = EXPERT_DEPTH, progress: Callable[[], None] | None = None
) -> dict[str, Any]:
    """The whole analysis as JSON-ready data: the contract of ``mathable analyse --json``
    and of the web API's ``/analysis``, alike for every game; a board game's turns judged
    at ``depth`` (the web's: the default), ``progress`` called after each."""
    turns = analyse_game(game, depth, progress)
    board = surface_of(game.view(None)) == "board"
    return {
        "version": REPORT_VERSION,
        "method": method(depth) if board else None,
        "turns": [_turn_json(game, t) for t in turns],
        "players": summarise(game, turns),
    }


def _explained(explanation: Explanation | None) -> dict[str, Any] | None:
    """An explanation as JSON (issue 18), its ``text`` in the current language (see
    :func:`with_texts` for a report kept and read in another)."""
    return None if explanation is None else explanation.to_json()


V3_TURN = (
    "equity",
    "best_equity",
    "equity_loss",
    "win_before",
    "win_after",
    "win_loss",
    "accuracy",
    "samples",
    "why",
    "why_text",
)
"""What a version-3 report adds to each turn (None in a version-2 report read now)."""


def readable(report: dict[str, Any]) -> dict[str, Any]:
    """``report`` in the shape of this version: a version-2 report (no ``version`` key:
    points against the highest-scoring turn) gets what it lacks as None, so every reader
    shows it (without the chances of winning); a version-3 report kept before the depths
    says it was the expert's."""
    if report.get("version", 2) >= REPORT_VERSION or "method" in report:  # or read already
        made = report.get("method")
        if isinstance(made, dict) and "depth" not in made:  # kept before depths: the expert's
            return {**report, "method": {**made, "depth": EXPERT_DEPTH.name}}
        return report
    turns = [{**{key: None for key in V3_TURN}, **turn} for turn in report.get("turns", ())]
    players = [{"win_loss": None, **p} for p in report.get("players", ())]
    return {
        **report,
        "version": report.get("version", 2),
        "method": None,
        "turns": turns,
        "players": players,
    }


def with_texts(report: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``report`` (any version: :func:`readable`) with its explanations' texts
    written again in the current language: a kept report (the web keeps one per finished
    game, shared by its readers) is read in each reader's."""
    report = readable(report)
    turns = []
    for turn in report.get("turns", ()):
        turn = dict(turn)
        for key in ("played_explanation", "best_explanation"):
            data = turn.get(key)
            if isinstance(data, dict):
                turn[key] = {**data, "text": Explanation.from_json(data).text()}
        if isinstance(turn.get("why_text"), str):
            turn["why"] = from_stored(turn["why_text"])
        turns.append(turn)
    return {**report, "turns": turns}
