"""Tournaments (issue 38): Swiss, round robin and arena, as a pure engine.

A tournament is a :class:`Spec` plus a log of events (:mod:`.model`); :func:`replay`
rebuilds its :class:`State`, :func:`due` says what the tournament does by itself next
(pair a round, finish), :func:`standings` ranks the players. No web, no database, no
clock reads: the caller passes the instant ``now``. The modules: :mod:`.model` (spec,
events, JSON, state, replay), :mod:`.history` (each player's past, arena scoring),
:mod:`.pairing` (Swiss and Berger tables) with :mod:`.matching` (blossom matching for
exact Swiss pairing), :mod:`.arena` (waves), :mod:`.standings`, :mod:`.schedule` (due).
"""

from mathable.online.tournaments.arena import arena_pairings
from mathable.online.tournaments.model import (
    Board,
    Entrant,
    Event,
    Finished,
    Joined,
    Linked,
    Paired,
    Paused,
    Removed,
    Result,
    Resumed,
    RoundState,
    Spec,
    Started,
    State,
    System,
    TournamentError,
    Withdrew,
    apply,
    check_spec,
    event_from_json,
    event_to_json,
    replay,
    spec_from_json,
    spec_to_json,
)
from mathable.online.tournaments.pairing import berger_round, swiss_pairing
from mathable.online.tournaments.schedule import due, total_rounds
from mathable.online.tournaments.standings import Standing, standings

__all__ = [
    "Board",
    "Entrant",
    "Event",
    "Finished",
    "Joined",
    "Linked",
    "Paired",
    "Paused",
    "Removed",
    "Result",
    "Resumed",
    "RoundState",
    "Spec",
    "Standing",
    "Started",
    "State",
    "System",
    "TournamentError",
    "Withdrew",
    "apply",
    "arena_pairings",
    "berger_round",
    "check_spec",
    "due",
    "event_from_json",
    "event_to_json",
    "replay",
    "spec_from_json",
    "spec_to_json",
    "standings",
    "swiss_pairing",
    "total_rounds",
]
