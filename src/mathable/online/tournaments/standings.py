"""Standings: points, then the tie-breaks Buchholz, Sonneborn-Berger and spread (issue 38).

- **points**: Swiss and round robin, the games' points plus one per bye; arena, arena points
  (:mod:`.history`).
- **buchholz**: the sum of the opponents' points. A bye counts as a game against a virtual
  opponent with the player's own final points (FIDE Tie-Break Regulations, C.07 (2023),
  article 16: unplayed rounds use a "dummy opponent"), so a bye neither helps nor hurts.
- **sonneborn_berger**: the sum, over games, of the player's points times the opponent's
  points (a bye: 1 × the player's own points, the same virtual opponent).
- **spread**: the sum of the game-score differences, as Scrabble clubs count it (a bye: 0).

Only games with a result count, and players who withdrew keep their place and their
points. Players with equal points and tie-breaks share a rank ("1, 2, 2, 4"); they are
listed by rating, then id.
"""

from __future__ import annotations

from dataclasses import dataclass

from mathable.online.tournaments.history import points_of, records
from mathable.online.tournaments.model import State

TIEBREAKS = ("buchholz", "sonneborn_berger", "spread")


@dataclass(frozen=True)
class Standing:
    """A player's line in the standings."""

    player: str
    points: float
    tiebreaks: dict[str, float]
    games: int
    rank: int


def standings(state: State) -> list[Standing]:
    """Everyone who played (or is still in), best first (see the module's docstring)."""
    table = records(state)
    points = points_of(state, table)
    arena = state.spec.system == "arena"
    lines: list[tuple[str, float, dict[str, float], int]] = []
    for name, record in table.items():
        if not (state.players[name].active or record.games or record.byes):
            continue
        own = points[name]
        byes = 0 if arena else record.byes
        buchholz = sum(points[g.opponent] for g in record.games) + byes * own
        berger = sum(g.points * points[g.opponent] for g in record.games) + byes * own
        spread = float(sum(g.spread for g in record.games))
        breaks = {"buchholz": buchholz, "sonneborn_berger": berger, "spread": spread}
        lines.append((name, own, breaks, len(record.games)))

    def key(line: tuple[str, float, dict[str, float], int]) -> tuple[float, ...]:
        return (-line[1], *(-line[2][k] for k in TIEBREAKS))

    lines.sort(key=lambda line: (*key(line), -state.players[line[0]].rating, line[0]))
    result: list[Standing] = []
    for index, line in enumerate(lines):
        shared = index > 0 and key(lines[index - 1]) == key(line)
        rank = result[-1].rank if shared else index + 1
        result.append(Standing(line[0], line[1], line[2], line[3], rank))
    return result
