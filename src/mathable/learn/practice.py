"""Practice (issue 18): one learner against the gentle computer player, with free help.

A practice game is an ordinary game of the engine under its printed rules (no invented
scoring): a level only chooses **which game** is dealt and **which help is highlighted**.

- ``plus-minus`` ("+ and − up to 20") deals Mathable Junior's front side: its tiles are 1-20
  and its only operations + and − (J1-J2), exactly the arithmetic of the level;
- ``tables`` ("tables up to 10") deals the classic game and highlights the placements that
  practise a × or ÷ fact of the tables up to 10 (a × b with a, b ≤ 10; a ÷ b with b and the
  quotient ≤ 10), every other legal placement still listed;
- ``everything`` is the classic game, every placement highlighted.

Why against the computer and not alone: every board game of the family needs two players at
least (``min_players``), and a rack-only solo game would change the rules (C8-C11 count
rounds of several players). The gentle player is the weakest rung of the ladder.

The help is the engine's own: the cells each rack token fits are the game's legal
placements (:meth:`~mathable.engine.protocol.Game.legal_placements`), the best turn the
exact whole-turn search of the hints (:func:`mathable.ai.hints.hints`), its explanation the
game's equations and points (C3-C6, :mod:`mathable.engine.explain`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mathable.ai import level_name
from mathable.ai.hints import Hint, hints
from mathable.engine.actions import Place
from mathable.engine.arithmetic import ALL_OPS, Op
from mathable.engine.explain import SYMBOLS, Equation, Explanation, equation
from mathable.engine.protocol import Game, HouseRules
from mathable.games.board.board import EMPTY
from mathable.games.board.game import BoardGame
from mathable.games.registry import new_game
from mathable.i18n import Text, _, lazy, ngettext

_OPS = {symbol: op for op, symbol in SYMBOLS.items()}
"""The operation of each display symbol (``×`` -> ``Op.MUL``)."""

COMPUTER = "gentle"
"""The computer level a learner practises against (the weakest of the ladder)."""


@dataclass(frozen=True)
class Level:
    """A practice level: the game it deals and the arithmetic its help highlights."""

    name: str
    """The keyword (``--level``, the API)."""
    title: Text
    game: str
    """The game dealt (a name of the registry), played under its printed rules."""
    ops: tuple[str, ...]
    """The operations practised (display symbols ``+ − × ÷``)."""
    limit: int | None
    """The largest number of a practised fact (the factors of a table), or no limit."""
    summary: Text

    def practises(self, eq: Equation) -> bool:
        """Whether the equation ``eq`` is a fact of this level's arithmetic."""
        if eq.op not in self.ops:
            return False
        if self.limit is None:
            return True
        if eq.op == "÷":  # a ÷ b = q is the table fact q × b = a
            return eq.right <= self.limit and eq.result <= self.limit
        if eq.op == "×":
            return eq.left <= self.limit and eq.right <= self.limit
        return max(eq.left, eq.right, eq.result) <= self.limit

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data, texts in the current language."""
        return {
            "name": self.name,
            "title": str(self.title),
            "game": self.game,
            "ops": list(self.ops),
            "limit": self.limit,
            "summary": str(self.summary),
        }


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "plus-minus",
            lazy("+ and − up to 20"),
            "junior",
            ("+", "−"),
            20,
            lazy("Mathable Junior's front side: tiles 1 to 20, + and − only."),
        ),
        Level(
            "tables",
            lazy("Tables up to 10"),
            "classic",
            ("×", "÷"),
            10,
            lazy(
                "The classic game; the cells where a token makes a × or ÷ of the tables "
                "up to 10 are marked."
            ),
        ),
        Level(
            "everything",
            lazy("Everything"),
            "classic",
            ("+", "−", "×", "÷"),
            None,
            lazy("The classic game, every operation."),
        ),
    )
}
"""The levels, easiest first."""


def get_level(name: str) -> Level:
    """The level called ``name``; raises ValueError naming the known ones."""
    found = LEVELS.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(
            _(
                "unknown practice level {name} (known: {known})",
                name=repr(name)[:40],
                known=", ".join(LEVELS),
            )
        )
    return found


def new_practice(level: Level, learner: str, seed: int | None = None) -> BoardGame:
    """A new game for ``level``: the learner in seat 0, the gentle computer in seat 1,
    hints on (house rule O2: the learner's help is free)."""
    computer = level_name(COMPUTER)
    if computer == learner:
        computer = f"{computer} 2"
    game = new_game(level.game, [learner, computer], seed=seed, house_rules=HouseRules(hints=True))
    assert isinstance(game, BoardGame)  # every level deals a game on a board
    return game


@dataclass(frozen=True)
class Fit:
    """One value of the rack and the cells where it may go now."""

    value: int
    cells: tuple[str, ...]
    """Every legal cell for it, in the game's order (the engine's legal placements)."""
    practised: tuple[str, ...]
    """Those of ``cells`` where it makes a fact of the level's arithmetic."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"value": self.value, "cells": list(self.cells), "practised": list(self.practised)}


def equations(game: BoardGame, cell: int, value: int, only: Op = ALL_OPS) -> tuple[Equation, ...]:
    """The equations ``value`` would complete on ``cell`` as the board stands: one per
    neighbouring pair in line that makes it (C3, C4), only the square's operation on a
    restriction square (C5); ``only``: by these operations alone (a pair making the
    value both by − and ÷ is shown once, by −, unless ``only`` asks for ÷)."""
    board, variant = game.board, game.variant
    grid = board.grid
    ops = (variant.layout.squares[cell].restriction or variant.ops) & only
    found: list[Equation] = []
    for near, far in grid.pairs[cell]:
        a, b = board.values[near], board.values[far]
        if a == EMPTY or b == EMPTY:
            continue
        first, second = sorted((near, far))
        made = equation(
            value,
            (grid.name(first), board.values[first]),
            (grid.name(second), board.values[second]),
            ops,
        )
        if made is not None:
            found.append(made)
    return tuple(found)


def fits(game: BoardGame, level: Level) -> list[Fit]:
    """Each value on the rack of the player to move with the cells it fits now (none for a
    value that fits nowhere), smallest value first."""
    view = game.view(game.to_move)
    by_value: dict[int, list[int]] = {value: [] for value in sorted(set(view.playable))}
    for place in game.legal_placements():
        by_value.setdefault(place.value, []).append(place.cell)
    names = game.cell_names
    return [
        Fit(
            value,
            tuple(names.name(cell) for cell in cells),
            tuple(names.name(cell) for cell in cells if _practises(game, level, cell, value)),
        )
        for value, cells in sorted(by_value.items())
    ]


def _practises(game: BoardGame, level: Level, cell: int, value: int) -> bool:
    """Whether ``value`` on ``cell`` makes a fact of the level: by any of its operations
    (each asked alone, since one pair may make the value by two operations)."""
    return any(
        level.practises(eq)
        for symbol in level.ops
        for eq in equations(game, cell, value, _OPS[symbol])
    )


def best_turn(game: Game) -> Hint | None:
    """The best whole turn for the player to move (the strong player's exact search,
    points with the bonus), or None when nothing can be placed."""
    if game.is_over:
        return None
    found = hints(game.view(game.to_move), limit=1)
    return found[0] if found else None


def explain_turn(game: Game, hint: Hint) -> tuple[Explanation, ...]:
    """Each placement of ``hint`` explained by the game (:meth:`Game.explain`) as the
    board stands when it is made (on a copy: ``game`` is left as it was)."""
    board = game.copy()
    out: list[Explanation] = []
    for action in hint.actions:
        if isinstance(action, Place):
            out.append(board.explain(action))
        board.apply(action)
    return tuple(out)


@dataclass(frozen=True)
class Review:
    """The learner's finished turn next to the best turn that was available."""

    played: str
    """The learner's turn in the notation (``I8=12 H6=8``, ``pass``)."""
    points: int
    """What the learner's turn scored."""
    best: Hint | None
    """The best turn the search found at the turn's start, or None (nothing placeable)."""
    explanations: tuple[Explanation, ...] = field(default=())

    @property
    def found_best(self) -> bool:
        """Whether the learner scored as much as the best turn."""
        return self.best is None or self.points >= (self.best.points or 0)

    def explanation(self) -> str:
        """The best turn's placements explained, one after the other."""
        return "; ".join(f"{e.target}={e.value}: {e.text()}" for e in self.explanations)

    def text(self) -> str:
        """The review in a line or two, in the current language."""
        if self.best is None:
            return _("No placement was possible this turn.")
        points = self.best.points or 0
        said = ngettext(
            "The best turn was {turn} ({count} point)",
            "The best turn was {turn} ({count} points)",
            points,
            turn=self.best.notation,
        )
        if self.best.bonus:
            # TRANSLATORS: the bonus points of a turn placing a whole rack (C9)
            said += " " + _("(+{bonus} bonus)", bonus=self.best.bonus)
        said += ": " + self.explanation()
        if self.found_best:
            # TRANSLATORS: after a practice turn: the learner's turn scored as much as the best
            verdict = ngettext(
                "You found it: {count} point.", "You found it: {count} points.", self.points
            )
        else:
            verdict = ngettext(
                "You scored {count} point.", "You scored {count} points.", self.points
            )
        return said + "\n" + verdict

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data, texts in the current language."""
        best = self.best
        return {
            "played": self.played,
            "points": self.points,
            "best": None
            if best is None
            else {"turn": best.notation, "points": best.points or 0, "bonus": best.bonus},
            "explanations": [e.to_json() for e in self.explanations],
            "found_best": self.found_best,
            "text": self.text(),
        }


def review(start: Game, after: Game, seat: int) -> Review:
    """The turn ``seat`` played from ``start`` (the game as its turn began) to ``after``
    (the game once the turn is over), next to the best turn available at ``start``."""
    best = best_turn(start)
    played = " ".join(after.format_action(a) for a in after.log[len(start.log) :])
    points = after.scores[seat] - start.scores[seat]
    explained = explain_turn(start, best) if best is not None else ()
    return Review(played, points, best, explained)


class Coach:
    """Follows a practice game and reviews each of the learner's turns when it ends.

    Call :meth:`observe` after every action: it notes the game as the learner's turn begins
    and returns the :class:`Review` once that turn is over."""

    def __init__(self, game: BoardGame, seat: int = 0) -> None:
        self.game = game
        self.seat = seat
        self._start: BoardGame | None = None

    def observe(self) -> Review | None:
        """A review when the learner's turn has just ended, else None."""
        game = self.game
        learner_moves = not game.is_over and game.to_move == self.seat
        if self._start is not None and not learner_moves:
            start, self._start = self._start, None
            return review(start, game, self.seat)
        if self._start is None and learner_moves and _turn_opens(game):
            self._start = game.copy()
        return None


def _turn_opens(game: Game) -> bool:
    """Whether the player to move is at a turn (not answering a question, J4/C12)."""
    available = game.view(game.to_move).available
    return not any(word in available for word in ("accept", "decline", "challenge"))


def positions(fitted: Sequence[Fit]) -> str:
    """The rack with its cells in a line per value: ``7: G9, J5`` (``7: -`` for none)."""
    lines = []
    for fit in fitted:
        cells = ", ".join(f"{c}*" if c in fit.practised else c for c in fit.cells) or "-"
        lines.append(f"{fit.value}: {cells}")
    return "\n".join(lines)


def last_turn(game: Game, seat: int) -> tuple[Game, Game] | None:
    """The game as the last finished turn of ``seat`` began and as it ended (answers to a
    question, J4/C12, are not turns), or None before its first turn is over: the log
    replayed once, action by action."""
    replay = game.fresh()
    found: tuple[int, int] | None = None
    start: int | None = None
    for index, action in enumerate(game.log):
        moves = not replay.is_over and replay.to_move == seat
        if start is None and moves and _turn_opens(replay):
            start = index
        replay.apply(action)
        if start is not None and (replay.is_over or replay.to_move != seat):
            found, start = (start, index + 1), None
    if found is None:
        return None
    return game.replayed(found[0]), game.replayed(found[1])


def report(game: Game, seat: int, level: Level) -> dict[str, Any]:
    """What a practice panel shows to ``seat``: the level, the cells each of its tokens
    fits when it is to move at a turn (else none), and the review of its last finished
    turn (None before one), JSON-ready in the current language."""
    if not isinstance(game, BoardGame) or game.name != level.game:
        raise ValueError(
            _(
                "this game is not a practice game of the level {level}",
                level=level.title,
            )
        )
    to_move = not game.is_over and game.to_move == seat and _turn_opens(game)
    ended = last_turn(game, seat)
    reviewed = review(ended[0], ended[1], seat) if ended is not None else None
    return {
        "level": level.to_json(),
        "fits": [fit.to_json() for fit in fits(game, level)] if to_move else [],
        "review": None if reviewed is None else reviewed.to_json(),
        "turns": len(game.summaries()),
    }
