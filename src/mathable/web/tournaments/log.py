"""A tournament's storage: its row (:data:`~mathable.web.infra.db.tournaments`) and its
event log (``tournament_events``), in the event store's database.

The log is the authority, as a game's is: an event takes the next sequence number in the
primary key (tournament, seq), so of two processes appending at once one wins and the
other is told (:class:`Conflict`) and replays before it tries again; nothing is paired
twice. The row's ``status`` is a copy kept for the lists (written in the same
transaction as the event that changed it), never read to decide anything.

A board's game is claimed before it is made (``tournament_boards``): the process whose
insert wins makes the game; a claim without a game after :data:`STALE` seconds (its
process died between the two) may be taken over.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import ColumnElement, and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from mathable.web.infra.db import (
    events,
    game_players,
    is_unique_violation,
    results,
    tournament_boards,
    tournament_events,
    tournaments,
)
from mathable.web.infra.store import EventStore

STALE = 60.0
"""Seconds after which a board's claim without a game may be taken over."""


class Conflict(Exception):
    """Another writer took this sequence number first: replay and try again."""


@dataclass(frozen=True)
class StoredTournament:
    """A tournament's row and its log, as stored (each event as ``event_to_json`` made it)."""

    id: str
    created: float
    spec: dict[str, Any]
    organizer: str
    starts: float | None
    events: list[dict[str, Any]]


@dataclass(frozen=True)
class Listed:
    """A tournament as the lists show it (no log read)."""

    id: str
    created: float
    spec: dict[str, Any]
    organizer: str
    status: str
    starts: float | None


@dataclass(frozen=True)
class GameEnd:
    """A finished game as a tournament reads it: its final scores and ranks per seat (rank
    1 first), and its last action (``abort 1``: how an aborted game ended) with the seat
    that stored it (None: the server, as when a first move's time ran out, O4)."""

    scores: list[int]
    ranks: list[int]
    last_action: str
    last_seat: int | None
    players: dict[int, str] = field(default_factory=dict)
    """The player bound to each seat (who moved first is the deal's, C10)."""


class TournamentLog:
    """The tournaments of the database of ``store``; each method one transaction."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    def create(
        self,
        tournament_id: str,
        spec: dict[str, Any],
        organizer: str,
        private: bool,
        starts: float | None,
        at: float,
    ) -> None:
        with self.store.writing() as connection:
            connection.execute(
                insert(tournaments).values(
                    id=tournament_id,
                    created=at,
                    spec=json.dumps(spec, sort_keys=True),
                    organizer=organizer,
                    status="upcoming",
                    private=private,
                    starts=starts,
                    updated=at,
                )
            )

    def load(self, tournament_id: str) -> StoredTournament | None:
        """The tournament and its whole log (None: no such tournament)."""
        with self.store.reading() as connection:
            row = connection.execute(
                select(tournaments).where(tournaments.c.id == tournament_id)
            ).first()
            if row is None:
                return None
            data = connection.execute(
                select(tournament_events.c.data)
                .where(tournament_events.c.tournament_id == tournament_id)
                .order_by(tournament_events.c.seq)
            ).scalars()
            logged = [json.loads(text) for text in data]
        return StoredTournament(
            row.id, row.created, json.loads(row.spec), row.organizer, row.starts, logged
        )

    def append(
        self,
        tournament_id: str,
        seq: int,
        logged: Sequence[tuple[str, dict[str, Any]]],
        status: str,
        at: float,
    ) -> None:
        """Store ``logged`` (each event's kind and JSON) from sequence number ``seq`` on,
        all or none, and the row's status; :class:`Conflict` when another writer has
        taken one of the numbers."""
        if not logged:
            return
        try:
            with self.store.writing() as connection:
                connection.execute(
                    insert(tournament_events),
                    [
                        {
                            "tournament_id": tournament_id,
                            "seq": seq + offset,
                            "kind": kind,
                            "data": json.dumps(data, sort_keys=True),
                            "at": at,
                        }
                        for offset, (kind, data) in enumerate(logged)
                    ],
                )
                connection.execute(
                    update(tournaments)
                    .where(tournaments.c.id == tournament_id)
                    .values(status=status, updated=at)
                )
        except IntegrityError as exc:
            if is_unique_violation(exc):
                raise Conflict(tournament_id) from None
            raise

    def listed(
        self, statuses: Sequence[str], me: str | None, joined: Sequence[str], limit: int
    ) -> list[Listed]:
        """Tournaments of these statuses, newest first: the public ones, and the private
        ones ``me`` (a player id) organizes or has ``joined`` (their ids)."""
        query = select(tournaments).where(tournaments.c.status.in_(list(statuses)))
        visible: ColumnElement[bool] = tournaments.c.private.is_(False)
        if me is not None:
            visible = visible | (tournaments.c.organizer == me)
        if joined:
            visible = visible | tournaments.c.id.in_(list(joined))
        query = query.where(visible).order_by(tournaments.c.created.desc()).limit(limit)
        with self.store.reading() as connection:
            rows = connection.execute(query).all()
        return [
            Listed(r.id, r.created, json.loads(r.spec), r.organizer, r.status, r.starts)
            for r in rows
        ]

    def with_player(self, player_id: str, limit: int) -> list[str]:
        """The tournaments whose log has this player joining (the ids, newest first)."""
        needle = json.dumps(player_id)
        query = (
            select(tournament_events.c.tournament_id)
            .where(
                tournament_events.c.kind == "joined",
                tournament_events.c.data.contains(f'"player": {needle}'),
            )
            .distinct()
            .limit(limit)
        )
        with self.store.reading() as connection:
            return list(connection.execute(query).scalars())

    def running(self) -> list[str]:
        """The tournaments under way (upcoming ones with a planned start too): those the
        periodic check looks at."""
        with self.store.reading() as connection:
            return list(
                connection.execute(
                    select(tournaments.c.id).where(
                        (tournaments.c.status == "running")
                        | ((tournaments.c.status == "upcoming") & tournaments.c.starts.is_not(None))
                    )
                ).scalars()
            )

    # -- the boards' games --------------------------------------------------------------

    def claim(self, tournament_id: str, round_: int, board: int, at: float) -> bool:
        """Whether this caller may make the board's game: its claim inserted, or a stale
        claim without a game taken over."""
        try:
            with self.store.writing() as connection:
                connection.execute(
                    insert(tournament_boards).values(
                        tournament_id=tournament_id, round=round_, board=board, claimed=at
                    )
                )
            return True
        except IntegrityError as exc:
            if not is_unique_violation(exc):
                raise
        key = and_(
            tournament_boards.c.tournament_id == tournament_id,
            tournament_boards.c.round == round_,
            tournament_boards.c.board == board,
        )
        with self.store.writing() as connection:
            taken = connection.execute(
                update(tournament_boards)
                .where(
                    key,
                    tournament_boards.c.game_id.is_(None),
                    tournament_boards.c.claimed < at - STALE,
                )
                .values(claimed=at)
            )
            return bool(taken.rowcount)

    def release(self, tournament_id: str, round_: int, board: int) -> None:
        """Give up a claim whose game could not be made (another process may try)."""
        with self.store.writing() as connection:
            connection.execute(
                tournament_boards.delete().where(
                    tournament_boards.c.tournament_id == tournament_id,
                    tournament_boards.c.round == round_,
                    tournament_boards.c.board == board,
                    tournament_boards.c.game_id.is_(None),
                )
            )

    def made(self, tournament_id: str, round_: int, board: int, game_id: str) -> None:
        """Note the game made for a claimed board."""
        with self.store.writing() as connection:
            connection.execute(
                update(tournament_boards)
                .where(
                    tournament_boards.c.tournament_id == tournament_id,
                    tournament_boards.c.round == round_,
                    tournament_boards.c.board == board,
                )
                .values(game_id=game_id)
            )

    def boards_made(self, tournament_id: str) -> dict[tuple[int, int], str]:
        """The games made for the tournament's boards, by (round, board)."""
        with self.store.reading() as connection:
            rows = connection.execute(
                select(
                    tournament_boards.c.round,
                    tournament_boards.c.board,
                    tournament_boards.c.game_id,
                ).where(
                    tournament_boards.c.tournament_id == tournament_id,
                    tournament_boards.c.game_id.is_not(None),
                )
            ).all()
        return {(r.round, r.board): str(r.game_id) for r in rows}

    # -- the games' ends ----------------------------------------------------------------

    def moved(self, game_ids: Sequence[str]) -> dict[str, set[str]]:
        """The players who have made a move in each of these games (an action stored by
        their seat; an abort is no move), by game: a round's deadline asks (ruling O4)."""
        if not game_ids:
            return {}
        query = (
            select(events.c.game_id, game_players.c.player_id)
            .join(
                game_players,
                and_(
                    game_players.c.game_id == events.c.game_id,
                    game_players.c.seat == events.c.seat,
                ),
            )
            .where(events.c.game_id.in_(list(game_ids)), ~events.c.action.startswith("abort"))
            .distinct()
        )
        found: dict[str, set[str]] = {game_id: set() for game_id in game_ids}
        with self.store.reading() as connection:
            for row in connection.execute(query):
                found[str(row.game_id)].add(str(row.player_id))
        return found

    def stamp(self, tournament_id: str) -> tuple[int, int]:
        """What moves when a tournament changes: its log's length, and how many of its
        boards' games have ended (two indexed reads; a watched page's look, :mod:`.push`)."""
        with self.store.reading() as connection:
            length = connection.execute(
                select(func.count())
                .select_from(tournament_events)
                .where(tournament_events.c.tournament_id == tournament_id)
            ).scalar()
            ended = connection.execute(
                select(func.count())
                .select_from(tournament_boards)
                .join(results, results.c.game_id == tournament_boards.c.game_id)
                .where(tournament_boards.c.tournament_id == tournament_id)
            ).scalar()
        return int(length or 0), int(ended or 0)

    def ended(self, game_ids: Sequence[str]) -> set[str]:
        """Those of these games that have ended (their results row written)."""
        if not game_ids:
            return set()
        with self.store.reading() as connection:
            found = connection.execute(
                select(results.c.game_id).where(results.c.game_id.in_(list(game_ids)))
            ).scalars()
            return {str(game_id) for game_id in found}

    def finished(self, game_ids: Sequence[str]) -> dict[str, GameEnd]:
        """Those of these games that have ended, read from their results and their last
        event (so that this layer needs nothing of the rounds' code)."""
        if not game_ids:
            return {}
        with self.store.reading() as connection:
            rows = connection.execute(
                select(results.c.game_id, results.c.scores, results.c.ranks).where(
                    results.c.game_id.in_(list(game_ids))
                )
            ).all()
            found: dict[str, GameEnd] = {}
            for row in rows:
                last = connection.execute(
                    select(events.c.action, events.c.seat)
                    .where(events.c.game_id == row.game_id)
                    .order_by(events.c.seq.desc())
                    .limit(1)
                ).first()
                bound = connection.execute(
                    select(game_players.c.seat, game_players.c.player_id).where(
                        game_players.c.game_id == row.game_id
                    )
                ).all()
                found[row.game_id] = GameEnd(
                    [int(s) for s in json.loads(row.scores)],
                    [int(r) for r in json.loads(row.ranks)],
                    "" if last is None else str(last.action),
                    None if last is None or last.seat is None else int(last.seat),
                    {int(b.seat): str(b.player_id) for b in bound},
                )
        return found
