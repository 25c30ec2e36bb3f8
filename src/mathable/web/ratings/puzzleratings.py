"""Puzzle ratings (issue 18): Glicko-2 for puzzles and their solvers, as lichess rates its
puzzles.

**A first attempt is a rated game.** When an account checks a puzzle for the first time,
the solver plays the puzzle: solved is a win for the solver, anything else (a turn short
of the target, or an illegal one) a win for the puzzle, since every check shows the
engine's answer and a free look would spoil the puzzle. Both ratings move by
:func:`mathable.online.ratings.rate`, one rating period per attempt (lichess's instant
updates), each against the other's rating from before; the time since a rating last moved
grows its deviation first (:func:`~mathable.online.ratings.idle`), as in the games' pools.
Later checks of the same puzzle by the same player are not rated.

**Accounts only.** A guest is an anonymous cookie on one device: a cleared cookie is a
fresh 1500, so a guest's number would mean nothing and would let anyone farm the
puzzles' ratings with new guests. Lichess likewise rates only logged-in solvers.

**Starting ratings.** A puzzle starts at its band's rating (:data:`BAND_START`: easy
1300, medium 1600, hard 1900), a solver at 1500, both with the default deviation (350)
and volatility.

**Once, whatever the processes.** The attempt's key is (player, puzzle): of two processes
rating the same first attempt at once, one inserts it and the other finds it taken and
changes nothing. The rating rows are made first and then locked (``FOR UPDATE`` on
PostgreSQL; SQLite's write lock is taken by the first insert), always puzzle before
solver, so two attempts never lose an update and never deadlock.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select, update
from sqlalchemy.dialects import postgresql, sqlite

from mathable.learn.puzzles import Puzzle
from mathable.online.ratings import (
    Rating,
    Result,
    idle,
    periods_elapsed,
    provisional,
    rate,
    shown,
)
from mathable.web.infra.db import puzzle_attempts, puzzle_ratings, puzzle_solvers
from mathable.web.infra.store import EventStore

BAND_START = {"easy": 1300.0, "medium": 1600.0, "hard": 1900.0}
"""A puzzle's rating before anyone tried it, by its band (the middle one above 1500:
a puzzle is mined where the obvious turn falls short, so it is never trivial)."""


def start_of(puzzle: Puzzle) -> Rating:
    """The rating a puzzle starts at: its band's, with the default deviation."""
    return Rating(BAND_START.get(puzzle.band, 1500.0))


def rating_out(rating: Rating) -> dict[str, Any]:
    """A rating as the API shows it: rounded, ``?`` while provisional."""
    return {
        "rating": round(rating.rating),
        "deviation": round(rating.deviation),
        "provisional": provisional(rating),
        "shown": shown(rating),
    }


@dataclass(frozen=True)
class Rated:
    """What a rated attempt changed: the solver's and the puzzle's ratings."""

    solver_before: Rating
    solver_after: Rating
    puzzle_before: Rating
    puzzle_after: Rating

    def out(self) -> dict[str, Any]:
        """The check's ``rating``: the solver's new rating and change, and the puzzle's."""
        change = round(self.solver_after.rating) - round(self.solver_before.rating)
        puzzle_change = round(self.puzzle_after.rating) - round(self.puzzle_before.rating)
        return {
            **rating_out(self.solver_after),
            "change": change,
            "puzzle": {**rating_out(self.puzzle_after), "change": puzzle_change},
        }


def _aged(row: Any, now: float) -> Rating:
    """A stored rating, its deviation grown for the time since it last moved."""
    stored = Rating(row.rating, row.deviation, row.volatility)
    return idle(stored, periods_elapsed(int((now - row.updated) * 1000)))


class PuzzleRatings:
    """The puzzle ratings of the database of ``store``."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    def _insert(self) -> Any:
        return (postgresql if self.store.postgresql else sqlite).insert

    def attempt(self, player_id: str, puzzle: Puzzle, solved: bool) -> Rated | None:
        """Rate ``player_id``'s attempt of ``puzzle`` if it is their first (None if not)."""
        now = time.time()
        insert = self._insert()
        with self.store.writing() as connection:
            start = start_of(puzzle)
            connection.execute(
                insert(puzzle_ratings)
                .values(
                    puzzle_id=puzzle.id,
                    rating=start.rating,
                    deviation=start.deviation,
                    volatility=start.volatility,
                    attempts=0,
                    updated=now,
                )
                .on_conflict_do_nothing()
            )
            new = Rating()
            connection.execute(
                insert(puzzle_solvers)
                .values(
                    player_id=player_id,
                    rating=new.rating,
                    deviation=new.deviation,
                    volatility=new.volatility,
                    attempts=0,
                    solved=0,
                    updated=now,
                )
                .on_conflict_do_nothing()
            )
            puzzle_row = connection.execute(
                select(puzzle_ratings)
                .where(puzzle_ratings.c.puzzle_id == puzzle.id)
                .with_for_update()
            ).one()
            solver_row = connection.execute(
                select(puzzle_solvers)
                .where(puzzle_solvers.c.player_id == player_id)
                .with_for_update()
            ).one()
            solver, target = _aged(solver_row, now), _aged(puzzle_row, now)
            score = 1.0 if solved else 0.0
            rated = Rated(
                solver,
                rate(solver, [Result(target, score)]),
                target,
                rate(target, [Result(solver, 1.0 - score)]),
            )
            taken = connection.execute(
                insert(puzzle_attempts)
                .values(
                    player_id=player_id,
                    puzzle_id=puzzle.id,
                    solved=solved,
                    before=solver.rating,
                    after=rated.solver_after.rating,
                    puzzle_before=target.rating,
                    puzzle_after=rated.puzzle_after.rating,
                    created=now,
                )
                .on_conflict_do_nothing()
                .returning(puzzle_attempts.c.player_id)
            ).all()
            if not taken:  # tried before (perhaps a moment ago, in another process)
                return None
            self._store_solver(connection, player_id, rated.solver_after, solved, now)
            connection.execute(
                update(puzzle_ratings)
                .where(puzzle_ratings.c.puzzle_id == puzzle.id)
                .values(
                    rating=rated.puzzle_after.rating,
                    deviation=rated.puzzle_after.deviation,
                    volatility=rated.puzzle_after.volatility,
                    attempts=puzzle_ratings.c.attempts + 1,
                    updated=now,
                )
            )
        return rated

    @staticmethod
    def _store_solver(
        connection: Connection, player_id: str, after: Rating, solved: bool, now: float
    ) -> None:
        connection.execute(
            update(puzzle_solvers)
            .where(puzzle_solvers.c.player_id == player_id)
            .values(
                rating=after.rating,
                deviation=after.deviation,
                volatility=after.volatility,
                attempts=puzzle_solvers.c.attempts + 1,
                solved=puzzle_solvers.c.solved + int(solved),
                updated=now,
            )
        )

    def of_puzzle(self, puzzle: Puzzle) -> dict[str, Any]:
        """The puzzle's rating (its band's start until a first rated attempt) and how many
        rated attempts it had."""
        with self.store.reading() as connection:
            row = connection.execute(
                select(puzzle_ratings).where(puzzle_ratings.c.puzzle_id == puzzle.id)
            ).first()
        if row is None:
            return {**rating_out(start_of(puzzle)), "attempts": 0}
        return {**rating_out(_aged(row, time.time())), "attempts": row.attempts}

    def of_solver(self, player_id: str) -> dict[str, Any]:
        """An account's puzzle rating (1500 before any rated attempt) and its counts."""
        with self.store.reading() as connection:
            row = connection.execute(
                select(puzzle_solvers).where(puzzle_solvers.c.player_id == player_id)
            ).first()
        if row is None:
            return {**rating_out(Rating()), "attempts": 0, "solved": 0}
        rating = _aged(row, time.time())
        return {**rating_out(rating), "attempts": row.attempts, "solved": row.solved}
