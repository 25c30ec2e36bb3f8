"""A tournament as JSON (``GET /api/tournaments/{id}`` and the lists): the issue's
fields (``status``, ``round``, ``rounds`` with their pairings and bye, ``standings``),
extended with names, the organizer, the spec, the results of each board, the crosstable
and what the reader may do, never renamed."""

from __future__ import annotations

import json
from typing import Any

from mathable.online.tournaments import Spec, State, spec_to_json, standings
from mathable.web.tournaments.log import Listed
from mathable.web.tournaments.service import Loaded, clock_of, late_join_open, round_deadline


def spec_data(spec: Spec) -> dict[str, Any]:
    """The spec as the API shows it: its clock as the JSON the games take."""
    return {**spec_to_json(spec), "clock": clock_of(spec)}


def rounds_data(state: State) -> list[dict[str, Any]]:
    """Each round: its pairings (game, players first to move first, result) and bye."""
    shown = []
    for played in state.rounds:
        pairings = []
        for board in played.boards:
            result = played.results.get(board.board)
            pairings.append(
                {
                    "board": board.board,
                    "game": played.games.get(board.board),
                    "players": [board.first, board.second],
                    "result": None
                    if result is None
                    else {
                        "points": list(result.points),
                        "scores": list(result.scores),
                        "how": result.how,
                    },
                }
            )
        shown.append({"number": played.number, "pairings": pairings, "bye": played.bye})
    return shown


def crosstable(state: State) -> list[dict[str, Any]]:
    """Each player's rounds: the opponent, who moved first, the points (None: not yet),
    or a bye (a point)."""
    rows = []
    for player in state.players:
        cells: list[dict[str, Any]] = []
        for played in state.rounds:
            cell: dict[str, Any] = {"round": played.number, "opponent": None, "points": None}
            if played.bye == player:
                cell.update(points=1.0, bye=True)
            for board in played.boards:
                if player not in (board.first, board.second):
                    continue
                first = board.first == player
                result = played.results.get(board.board)
                cell.update(
                    opponent=board.second if first else board.first,
                    first=first,
                    game=played.games.get(board.board),
                    points=None if result is None else result.points[0 if first else 1],
                )
            cells.append(cell)
        rows.append({"player": player, "rounds": cells})
    return rows


def tournament_data(loaded: Loaded, me: str | None, names: dict[str, str]) -> dict[str, Any]:
    """The whole tournament for the reader ``me`` (a player id, or None)."""
    state = loaded.state
    ranked = standings(state)
    mine = state.players.get(me) if me is not None else None
    next_game = None
    if mine is not None:
        for played in reversed(state.rounds):
            for board in played.boards:
                waiting = board.board not in played.results and board.board in played.games
                if waiting and me in (board.first, board.second):
                    next_game = played.games[board.board]
    status = state.status
    return {
        "id": loaded.id,
        "name": state.spec.name,
        "spec": {**spec_data(state.spec), "fill_bye": loaded.fill_bye},
        "organizer": {
            "id": loaded.stored.organizer,
            "name": names.get(loaded.stored.organizer, ""),
        },
        "status": status,
        "created": loaded.stored.created,
        "starts": loaded.stored.starts,
        "started": state.started_at,
        "finished": state.finished_at,
        "ends": state.ends_at(),
        "deadline": round_deadline(state, loaded.events) if status == "running" else None,
        "round": len(state.rounds),
        "rounds": rounds_data(state),
        "players": [
            {
                "player": e.player,
                "name": e.name,
                "rating": round(e.rating),
                "computer": e.computer,
                "active": e.active,
            }
            for e in state.players.values()
        ],
        "standings": [
            {
                "player": s.player,
                "name": state.players[s.player].name,
                "points": s.points,
                "tiebreaks": dict(s.tiebreaks),
                "games": s.games,
                "rank": s.rank,
            }
            for s in ranked
        ],
        "crosstable": crosstable(state),
        "me": {
            "player": me,
            "joined": mine is not None and mine.active,
            "organizer": me is not None and me == loaded.stored.organizer,
            "next_game": next_game,
        },
        "joinable": status != "finished"
        and (status == "upcoming" or late_join_open(state))
        and not (mine is not None and (mine.active or mine.removed)),
    }


def listed_data(item: Listed, me: str | None, joined: set[str]) -> dict[str, Any]:
    """A tournament as the lists show it."""
    spec = item.spec
    return {
        "id": item.id,
        "name": spec["name"],
        "variant": spec["variant"],
        "system": spec["system"],
        "rounds": spec["rounds"],
        "minutes": spec["minutes"],
        "clock": clock_of_json(spec.get("clock", "")),
        "rated": spec["rated"],
        "private": spec["private"],
        "status": item.status,
        "created": item.created,
        "starts": item.starts,
        "mine": me is not None and (item.organizer == me or item.id in joined),
        "organizer": item.organizer,
    }


def clock_of_json(text: str) -> dict[str, Any] | None:
    """A stored spec's clock (its JSON text; empty: untimed) as an object."""
    return None if not text else dict(json.loads(text))
