"""Arena pairing (lichess-style): a fixed length, and whoever is waiting meets someone at once.

Each wave of pairings is a round of the log. The waiting players are ranked by arena points
(:mod:`.history` scores them: 2 a win, 1 a draw, streaks double), then rating, then id, and
neighbours in that ranking meet, so players meet others of their strength. Nobody meets
the opponent of their last game again while another pairing of the wave avoids it. With an
odd count, the player whose last game was paired most recently waits for the next wave
(on ties, the lowest-ranked): a player who has waited longest plays first. Within a board,
the player with the lower first-player balance moves first.
"""

from __future__ import annotations

from collections.abc import Sequence

from mathable.online.tournaments.history import Record, points_of, rank_order, records
from mathable.online.tournaments.model import Board, Paired, State
from mathable.online.tournaments.pairing import first_and_second

BUDGET = 20_000
"""Search steps before giving in to an immediate rematch."""
NEAR = 8
"""How far down the ranking a player looks for an opponent before backtracking."""


def last_opponent(record: Record) -> str | None:
    """The opponent of the player's latest board, if any."""
    latest = max(record.games, key=lambda g: g.round, default=None)
    return latest.opponent if latest is not None else None


def _match(
    order: list[str], last: dict[str, str | None], steps: list[int]
) -> list[tuple[str, str]] | None:
    """Pair ``order`` neighbours first, no immediate rematch; None if impossible (or too long)."""
    pairs: list[tuple[str, str]] = []
    stack: list[tuple[list[str], int]] = [(order, 0)]
    # An explicit stack: a wave of 500 is deeper than Python's recursion limit.
    while stack:
        left, tried = stack[-1]
        if not left:
            return pairs
        steps[0] += 1
        if steps[0] > BUDGET:
            return None
        top, rest = left[0], left[1:]
        reach = len(rest) if len(rest) <= 2 * NEAR else NEAR  # small fields: exhaustive
        nxt = next(
            (i for i in range(tried, reach) if last[top] != rest[i] and last[rest[i]] != top),
            None,
        )
        if nxt is None:
            stack.pop()
            if not stack:
                return None
            pairs.pop()
            continue
        stack[-1] = (left, nxt + 1)
        pairs.append((top, rest[nxt]))
        stack.append((rest[:nxt] + rest[nxt + 1 :], 0))
    return None


def arena_pairings(state: State, waiting: Sequence[str], now: float) -> Paired | None:
    """A wave pairing the ``waiting`` players (those active and not playing), or None when
    fewer than two can meet."""
    busy = state.playing()
    ready = [p for p in dict.fromkeys(waiting) if p in state.players]
    ready = [p for p in ready if state.players[p].active and p not in busy]
    if len(ready) < 2:
        return None
    table = records(state)
    ranked = rank_order(state, points_of(state, table), ready)
    last = {p: last_opponent(table[p]) for p in ranked}
    # With an odd count, who waits: the latest paired first, then the lowest-ranked.
    sitters: list[str | None] = [None]
    if len(ranked) % 2:
        latest_first = sorted(ranked[::-1], key=lambda p: -table[p].last_round)
        sitters = list(latest_first)
    steps = [0]
    pairs = None
    for sitter in sitters:
        pairs = _match([p for p in ranked if p != sitter], last, steps)
        if pairs is not None or steps[0] > BUDGET:
            break
    if pairs is None:
        order = [p for p in ranked if p != sitters[0]]
        pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    boards = tuple(
        Board(number, *first_and_second(a, b, table, number))
        for number, (a, b) in enumerate(pairs, start=1)
    )
    return Paired(len(state.rounds) + 1, boards, None, max(now, state.last_at))
