"""What a tournament does by itself: :func:`due` (issue 38).

The web appends whatever :func:`due` returns to the tournament's log, through its one
writer (as a game's ``seq``), so a round is never paired twice: a second process calling
:func:`due` on the same log gets the same events, and only one append wins.

- Nothing while the tournament is upcoming, paused or finished (the organizer starts and
  resumes it; a start time is the web's to keep).
- Swiss and round robin: the next round's :class:`~.model.Paired` at the start and once
  every board of the current round has a result; :class:`~.model.Finished` once the last
  round has all its results, or when fewer than two active players remain.
- Arena: :class:`~.model.Finished` at its end (start + minutes + time spent paused); before
  it, a wave pairing the waiting players whenever two can meet. Games still running at the
  end do not count: their results are refused once the arena has finished.
"""

from __future__ import annotations

from mathable.online.tournaments.arena import arena_pairings
from mathable.online.tournaments.model import Event, Finished, State
from mathable.online.tournaments.pairing import (
    round_robin_pairing,
    round_robin_rounds,
    swiss_pairing,
)


def total_rounds(state: State) -> int | None:
    """The rounds a Swiss or round robin plays (None for an arena)."""
    if state.spec.system == "swiss":
        return state.spec.rounds
    if state.spec.system == "round-robin":
        return round_robin_rounds(state)
    return None


def due(state: State, now: float) -> list[Event]:
    """The events the tournament owes at instant ``now`` (seconds), oldest first.

    Pure and deterministic: the same state and ``now`` give the same events.
    """
    if state.status != "running":
        return []
    at = max(now, state.last_at)
    if state.spec.system == "arena":
        end = state.ends_at()
        if end is not None and now >= end:
            return [Finished(max(end, state.last_at))]
        wave = arena_pairings(state, state.active(), now)
        return [wave] if wave is not None else []
    if state.rounds and not state.rounds[-1].complete:
        return []
    total = total_rounds(state) or 0
    if len(state.rounds) >= total or len(state.active()) < 2:
        return [Finished(at)]
    if state.spec.system == "round-robin":
        return [round_robin_pairing(state, now)]
    return [swiss_pairing(state, now)]
