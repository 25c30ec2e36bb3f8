"""Each player's past in a tournament, read from its rounds: the one place pairing,
standings and the arena learn who met whom, who moved first, who had a bye, and the points.

**Points.** Swiss and round robin: a game's points (1, ½, 0) plus one point per bye.
Arena (as lichess scores it): a win is 2, a draw 1, a loss 0; after two wins in a row the
player is *on fire* and every further game counts double (a win 4, a draw 2) until a game
that is not a win, which ends the streak (a draw while on fire still scores 2). Games are
taken in the order of their rounds (in an arena each wave of pairings is a round).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from mathable.online.tournaments.model import State

Seat = Literal["first", "second"]

WIN_POINTS = 2
DRAW_POINTS = 1
STREAK = 2
"""Wins in a row that set an arena player on fire (their next games count double)."""


@dataclass
class Game:
    """One finished board from a player's side."""

    round: int
    opponent: str
    seat: Seat
    points: float
    """The player's 1, ½ or 0."""
    spread: int
    """The player's game score minus the opponent's."""


@dataclass
class Record:
    """A player's past: games with a result, byes, meetings, first-player balance."""

    player: str
    games: list[Game] = field(default_factory=list)
    byes: int = 0
    met: Counter[str] = field(default_factory=Counter)
    """Opponents paired with, results or not (a pairing is a meeting)."""
    seats: list[Seat] = field(default_factory=list)
    """The seat of every paired board, in round order."""
    last_round: int = 0
    """The last round the player was paired in (a board or the bye)."""

    @property
    def balance(self) -> int:
        """Games moving first minus games moving second."""
        return self.seats.count("first") - self.seats.count("second")

    @property
    def game_points(self) -> float:
        return sum(g.points for g in self.games)

    @property
    def points(self) -> float:
        """Swiss and round-robin points: the games' points plus one per bye."""
        return self.game_points + self.byes

    @property
    def arena_points(self) -> int:
        """Arena points, streaks counted (see the module's docstring)."""
        total, wins = 0, 0
        for game in sorted(self.games, key=lambda g: g.round):
            factor = 2 if wins >= STREAK else 1
            if game.points == 1:
                total += WIN_POINTS * factor
                wins += 1
            else:
                total += DRAW_POINTS * factor if game.points == 0.5 else 0
                wins = 0
        return total

    @property
    def on_fire(self) -> bool:
        """The arena's streak: the next game counts double."""
        wins = 0
        for game in sorted(self.games, key=lambda g: g.round):
            wins = wins + 1 if game.points == 1 else 0
        return wins >= STREAK


def records(state: State) -> dict[str, Record]:
    """Every player's record (players who joined, active or not), from the rounds."""
    found = {name: Record(name) for name in state.players}
    for played in state.rounds:
        if played.bye is not None:
            found[played.bye].byes += 1
            found[played.bye].last_round = played.number
        for board in played.boards:
            first, second = found[board.first], found[board.second]
            first.met[board.second] += 1
            second.met[board.first] += 1
            first.seats.append("first")
            second.seats.append("second")
            first.last_round = second.last_round = played.number
            result = played.results.get(board.board)
            if result is not None:
                spread = result.scores[0] - result.scores[1]
                first.games.append(
                    Game(played.number, board.second, "first", result.points[0], spread)
                )
                second.games.append(
                    Game(played.number, board.first, "second", result.points[1], -spread)
                )
    return found


def points_of(state: State, table: dict[str, Record]) -> dict[str, float]:
    """The points that rank players in this tournament's system."""
    if state.spec.system == "arena":
        return {name: float(r.arena_points) for name, r in table.items()}
    return {name: r.points for name, r in table.items()}


def rank_order(state: State, points: dict[str, float], names: list[str]) -> list[str]:
    """``names`` by points, then rating (higher first), then player id: the order pairing
    ranks players in."""
    return sorted(names, key=lambda p: (-points[p], -state.players[p].rating, p))
