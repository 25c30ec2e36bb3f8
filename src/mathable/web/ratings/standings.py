"""Results, ratings, the leaderboard and the players' histories (issue 15, "Ratings" and
"History").

**Results.** When an event ends a game (a move, a resignation, a flag, a claim, an abort),
the process that stored it writes the game's :data:`~.db.results` row (:meth:`Standings.
settle`, in a thread): variant, pace (``live``, ``correspondence`` or ``untimed``), rated,
when, why, scores and ranks (:meth:`~mathable.engine.protocol.Game.ranks`). The row's key
is the game: the first writer wins, a second one (another process, a catch-up when a
finished game is loaded after a crash between the event and its result) finds it taken
and changes nothing.

**Ratings.** In the same transaction, a rated game that was not aborted and whose every
seat is bound to a distinct known player (a person with an account, or a computer player)
updates each seat's Glicko-2 rating for (variant, pace) with
:func:`~mathable.online.ratings.rate_game` (after :func:`~mathable.online.ratings.idle` for
the time since that player's last rated game) and writes one :data:`~.db.rating_changes`
row per seat. No update is lost when two games of one player end at once: the results
insert comes first (SQLite's write lock from there on), and on PostgreSQL the players'
rating rows are made if missing and locked (``FOR UPDATE``) in the order of their ids.

**Computer levels** start from their calibrated ratings (:mod:`mathable.online.botratings`,
:meth:`Standings.seed_bots` at start-up, one row per game and rated pace), are listed on
the leaderboard from the start (a number for "expert" on the first day), and their
deviation does not grow while they wait (a program does not get rusty): only their games
move them.

Every method is one blocking transaction: callers run them in a thread.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, HTTPException, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field
from sqlalchemy import Connection, and_, exists, insert, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from mathable import i18n
from mathable.ai import BOTS, bot_player_id, level_name, level_of_player
from mathable.engine.protocol import Game
from mathable.games.registry import GAMES
from mathable.i18n import _
from mathable.online.botratings import starting_rating
from mathable.online.clocks import parse_time_control
from mathable.online.ratings import (
    PROVISIONAL_DEVIATION,
    Rating,
    idle,
    periods_elapsed,
    provisional,
    rate_game,
    shown,
)
from mathable.web.infra.db import (
    bot_accounts,
    game_players,
    games,
    is_unique_violation,
    players,
    rating_changes,
    ratings,
    results,
)
from mathable.web.infra.language import html_page
from mathable.web.infra.store import EventStore

PACES = ("live", "correspondence", "untimed")
RATED_PACES = ("live", "correspondence")
BOT = "bot"
PAGE = 20
"""Games per page of a history (and on a profile)."""
MOST = 100


def pace_of(spec: dict[str, Any]) -> str:
    """A game's pace from its spec's clock: ``live``, ``correspondence``, or ``untimed``."""
    clock = spec.get("clock")
    return "untimed" if clock is None else parse_time_control(clock).pace


@dataclass(frozen=True)
class Ending:
    """What a finished game's result row holds (:func:`ending_of`)."""

    game_id: str
    variant: str
    pace: str
    rated: bool
    finished: float
    reason: str
    scores: list[int]
    ranks: list[int]
    bots: dict[int, str]
    """The computer seats' levels (their players ``bot-<level>`` when no seat is bound)."""


def ending_of(
    game_id: str,
    game: Game,
    *,
    variant: str,
    pace: str,
    rated: bool,
    bots: dict[int, str],
    at: float,
) -> Ending:
    """The result of ``game`` (over), ended at ``at``; an aborted game is never rated, nor
    one that ended before every seat still in had made a first move (O4)."""
    return Ending(
        game_id,
        variant,
        pace,
        rated and not game.aborted and game.started and pace in RATED_PACES,
        at,
        i18n.stored(game.end_text),
        list(game.scores),
        list(game.ranks()),
        dict(bots),
    )


def shown_name(player_id: str, name: str, kind: str) -> str:
    """A player's name as shown: a computer level's in the reader's language ("Computer
    (strong)" is "Ordinateur (fort)" to a French reader), a person's as they chose it."""
    level = level_of_player(player_id) if kind == BOT else None
    if level is None:
        return name
    # TRANSLATORS: the name of a computer player: its level (gentle, greedy, strong…)
    return _("Computer ({level})", level=level_name(level))


def _change(before: float, after: float) -> int:
    return round(after) - round(before)


class Standings:
    """The results, ratings and histories of the database of ``store``."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    # -- writing --------------------------------------------------------------------------

    def seed_bots(self, now: float) -> int:
        """Give every computer level its starting rating in every game and rated pace
        where it has none yet (:func:`~mathable.online.botratings.starting_rating`); the
        number of rows made."""
        made = 0
        dialect = self._dialect()
        with self.store.writing() as connection:
            for level in BOTS:
                for variant in GAMES:
                    start = starting_rating(level, variant)
                    if start is None:
                        continue
                    for pace in RATED_PACES:
                        done = connection.execute(
                            dialect.insert(ratings)
                            .values(
                                player_id=bot_player_id(level),
                                game=variant,
                                pace=pace,
                                rating=start.rating,
                                deviation=start.deviation,
                                volatility=start.volatility,
                                games=0,
                                updated=now,
                            )
                            .on_conflict_do_nothing()
                            .returning(ratings.c.player_id)
                        )
                        made += len(done.all())
        return made

    def settle(self, ending: Ending) -> bool:
        """Write the game's result (and, rated, its ratings) unless it is written: True
        if this call wrote it."""
        try:
            with self.store.writing() as connection:
                connection.execute(
                    insert(results).values(
                        game_id=ending.game_id,
                        variant=ending.variant,
                        pace=ending.pace,
                        rated=ending.rated,
                        finished=ending.finished,
                        reason=ending.reason,
                        scores=json.dumps(ending.scores),
                        ranks=json.dumps(ending.ranks),
                    )
                )
                self._bind_bots(connection, ending)
                if ending.rated:
                    self._rate(connection, ending)
        except IntegrityError as exc:
            if is_unique_violation(exc) and self.written(ending.game_id):
                return False
            raise
        return True

    def written(self, game_id: str) -> bool:
        """Whether the game's result is stored."""
        with self.store.reading() as connection:
            return (
                connection.execute(
                    select(results.c.game_id).where(results.c.game_id == game_id)
                ).first()
                is not None
            )

    def _dialect(self) -> Any:
        return postgresql if self.store.postgresql else sqlite

    def _bind_bots(self, connection: Connection, ending: Ending) -> None:
        """The computer seats bound to their players (``bot-<level>``) where no seat
        binding is stored: their games are in their histories like anyone's."""
        wanted = {seat: bot_player_id(level) for seat, level in ending.bots.items()}
        known = set(
            connection.execute(
                select(players.c.id).where(players.c.id.in_(wanted.values()))
            ).scalars()
        )
        for seat, player_id in sorted(wanted.items()):
            if player_id in known:
                connection.execute(
                    self._dialect()
                    .insert(game_players)
                    .values(game_id=ending.game_id, seat=seat, player_id=player_id)
                    .on_conflict_do_nothing()
                )

    def _seated(self, connection: Connection, ending: Ending) -> list[str] | None:
        """The player of each seat, if every seat is bound to a distinct player who may be
        rated (an account or a computer player); else None."""
        bound = dict(
            connection.execute(
                select(game_players.c.seat, game_players.c.player_id).where(
                    game_players.c.game_id == ending.game_id
                )
            ).all()
        )
        seated = [
            bound.get(seat) or (bot_player_id(ending.bots[seat]) if seat in ending.bots else None)
            for seat in range(len(ending.ranks))
        ]
        ids = [p for p in seated if p is not None]
        if len(ids) != len(seated) or len(set(ids)) != len(ids):
            return None
        known = connection.execute(
            select(players.c.id).where(
                players.c.id.in_(ids),
                (players.c.kind == BOT) | players.c.password_hash.is_not(None),
            )
        ).scalars()
        return ids if set(known) == set(ids) else None

    def _rate(self, connection: Connection, ending: Ending) -> None:
        seated = self._seated(connection, ending)
        if seated is None:
            connection.execute(
                update(results).where(results.c.game_id == ending.game_id).values(rated=False)
            )
            return
        key = (ratings.c.game == ending.variant, ratings.c.pace == ending.pace)
        fresh = {
            "game": ending.variant,
            "pace": ending.pace,
            "rating": Rating().rating,
            "deviation": Rating().deviation,
            "volatility": Rating().volatility,
            "games": 0,
            "updated": ending.finished,
        }
        dialect = self._dialect()
        for player_id in sorted(set(seated)):  # the same order everywhere: no deadlock
            connection.execute(
                dialect.insert(ratings)
                .values(player_id=player_id, **fresh)
                .on_conflict_do_nothing()
            )
        rows = {
            row.player_id: row
            for row in connection.execute(
                select(ratings)
                .where(ratings.c.player_id.in_(seated), *key)
                .order_by(ratings.c.player_id)
                .with_for_update()
            )
        }
        before = [
            Rating(rows[p].rating, rows[p].deviation, rows[p].volatility)
            if level_of_player(p)  # a program does not get rusty while it waits
            else idle(
                Rating(rows[p].rating, rows[p].deviation, rows[p].volatility),
                periods_elapsed(int((ending.finished - rows[p].updated) * 1000)),
            )
            for p in seated
        ]
        after = rate_game(before, ending.ranks)
        for seat, player_id in enumerate(seated):
            new = after[seat]
            connection.execute(
                update(ratings)
                .where(ratings.c.player_id == player_id, *key)
                .values(
                    rating=new.rating,
                    deviation=new.deviation,
                    volatility=new.volatility,
                    games=ratings.c.games + 1,
                    updated=ending.finished,
                )
            )
            connection.execute(
                insert(rating_changes).values(
                    game_id=ending.game_id,
                    seat=seat,
                    player_id=player_id,
                    before=before[seat].rating,
                    after=new.rating,
                    deviation_before=before[seat].deviation,
                    deviation_after=new.deviation,
                )
            )

    # -- reading --------------------------------------------------------------------------

    def changes(self, game_id: str) -> list[dict[str, Any]] | None:
        """A rated game's rating changes per seat (None: not rated, or not yet written):
        ``seat``, ``player``, ``before``, ``after`` (rounded) and ``change`` (the difference
        of the rounded ratings, so it matches them)."""
        with self.store.reading() as connection:
            rows = connection.execute(
                select(rating_changes)
                .where(rating_changes.c.game_id == game_id)
                .order_by(rating_changes.c.seat)
            ).all()
        if not rows:
            return None
        return [
            {
                "seat": row.seat,
                "player": row.player_id,
                "before": round(row.before),
                "after": round(row.after),
                "change": _change(row.before, row.after),
                "provisional": provisional(Rating(row.after, row.deviation_after)),
            }
            for row in rows
        ]

    def ratings_of(self, player_id: str) -> list[dict[str, Any]]:
        """A player's ratings, one per game and pace played rated (a computer level:
        every pool, its starting ratings included)."""
        query = select(ratings).where(ratings.c.player_id == player_id)
        if level_of_player(player_id) is None:
            query = query.where(ratings.c.games > 0)
        with self.store.reading() as connection:
            rows = connection.execute(query.order_by(ratings.c.game, ratings.c.pace)).all()
        return [_rating_json(row) for row in rows]

    def leaderboard(self, game: str, pace: str, limit: int) -> dict[str, Any]:
        """The players of a pool by rating, best first: established ones ranked, the
        provisional ones (:func:`~mathable.online.ratings.provisional`) listed apart.
        A bot account's row says so (``bot_account``, issue 36: its name is marked BOT)."""
        bot_account = (
            exists().where(bot_accounts.c.player_id == ratings.c.player_id).label("bot_account")
        )
        query = (
            select(ratings, players.c.name, players.c.kind, bot_account)
            .join(players, players.c.id == ratings.c.player_id)
            .where(
                ratings.c.game == game,
                ratings.c.pace == pace,
                or_(ratings.c.games > 0, players.c.kind == BOT),  # levels from the start
            )
            .order_by(ratings.c.rating.desc(), ratings.c.player_id)
        )
        cut = PROVISIONAL_DEVIATION
        with self.store.reading() as connection:
            ranked = connection.execute(query.where(ratings.c.deviation <= cut).limit(limit)).all()
            unsure = connection.execute(query.where(ratings.c.deviation > cut).limit(limit)).all()

        def entry(row: Any) -> dict[str, Any]:
            return {
                "id": row.player_id,
                "name": shown_name(row.player_id, row.name, row.kind),
                "bot": row.kind == BOT,
                "bot_account": bool(row.bot_account),
                **_rating_json(row),
            }

        return {
            "game": game,
            "pace": pace,
            "players": [{"rank": n, **entry(row)} for n, row in enumerate(ranked, start=1)],
            "provisional": [entry(row) for row in unsure],
        }

    def history(
        self,
        player_id: str,
        *,
        game: str | None = None,
        opponent: str | None = None,
        since: float | None = None,
        until: float | None = None,
        before: float | None = None,
        limit: int = PAGE,
    ) -> dict[str, Any]:
        """A player's finished games, newest first, a page at a time (``before``: the
        ``finished`` of the last one seen; ``next`` gives it for the next page)."""
        mine = game_players.alias("mine")
        query = (
            select(results, games.c.seats, mine.c.seat)
            .join(mine, mine.c.game_id == results.c.game_id)
            .join(games, games.c.id == results.c.game_id)
            .where(mine.c.player_id == player_id)
        )
        if game:
            query = query.where(results.c.variant == game)
        if since is not None:
            query = query.where(results.c.finished >= since)
        if until is not None:
            query = query.where(results.c.finished < until)
        if before is not None:
            query = query.where(results.c.finished < before)
        if opponent:
            them = game_players.alias("them")
            query = query.where(
                exists(
                    select(them.c.seat)
                    .join(players, players.c.id == them.c.player_id)
                    .where(
                        and_(
                            them.c.game_id == results.c.game_id,
                            them.c.player_id != player_id,
                            players.c.name.icontains(opponent.strip(), autoescape=True),
                        )
                    )
                )
            )
        query = query.order_by(results.c.finished.desc(), results.c.game_id).limit(limit + 1)
        with self.store.reading() as connection:
            rows = connection.execute(query).all()[: limit + 1]
            more = len(rows) > limit
            rows = rows[:limit]
            ids = [row.game_id for row in rows]
            bound: dict[str, dict[int, tuple[str, str]]] = {}
            for game_id, seat, pid, kind in connection.execute(
                select(
                    game_players.c.game_id,
                    game_players.c.seat,
                    game_players.c.player_id,
                    players.c.kind,
                )
                .join(players, players.c.id == game_players.c.player_id)
                .where(game_players.c.game_id.in_(ids))
            ):
                bound.setdefault(game_id, {})[seat] = (pid, kind)
            changed = {
                (row.game_id, row.seat): row
                for row in connection.execute(
                    select(rating_changes).where(rating_changes.c.game_id.in_(ids))
                )
            }
        entries = []
        for row in rows:
            seats = json.loads(row.seats)
            at = bound.get(row.game_id, {})
            mine_change = changed.get((row.game_id, row.seat))
            entries.append(
                {
                    "id": row.game_id,
                    "variant": row.variant,
                    "pace": row.pace,
                    "rated": bool(row.rated),
                    "finished": row.finished,
                    "reason": i18n.from_stored(row.reason),  # the reader's language
                    "seat": row.seat,
                    "players": [
                        {
                            "name": s.get("name", ""),
                            "id": at[n][0] if n in at else None,
                            "bot": bool(s.get("bot")) or (n in at and at[n][1] == BOT),
                        }
                        for n, s in enumerate(seats)
                    ],
                    "scores": json.loads(row.scores),
                    "ranks": json.loads(row.ranks),
                    "rating_change": None
                    if mine_change is None
                    else {
                        "before": round(mine_change.before),
                        "after": round(mine_change.after),
                        "change": _change(mine_change.before, mine_change.after),
                    },
                    "links": {
                        "game": f"/g/{row.game_id}",
                        "record": f"/api/games/{row.game_id}/record",
                        "replay": f"/api/games/{row.game_id}/replay",
                    },
                }
            )
        return {"games": entries, "next": rows[-1].finished if more and rows else None}


def _rating_json(row: Any) -> dict[str, Any]:
    rating = Rating(row.rating, row.deviation, row.volatility)
    return {
        "game": row.game,
        "pace": row.pace,
        "rating": round(row.rating),
        "deviation": round(row.deviation),
        "games": row.games,
        "provisional": provisional(rating),
        "shown": shown(rating),
    }


# -- the routes ---------------------------------------------------------------------------


class RatingOut(BaseModel):
    """A player's rating in one pool (game and pace)."""

    game: str
    pace: Literal["live", "correspondence"]
    rating: int
    deviation: int
    games: int = Field(description="rated games played in this pool")
    provisional: bool = Field(description="too few games to trust it: shown with ?")
    shown: str = Field(description='as players read it: "1500?" while provisional')


class BoardEntryOut(RatingOut):
    id: str
    name: str
    bot: bool = Field(description="a computer player")
    bot_account: bool = Field(False, description="a bot account: a program plays for it")
    rank: int | None = None


class LeaderboardOut(BaseModel):
    game: str
    pace: str
    players: list[BoardEntryOut] = Field(description="established ratings, best first")
    provisional: list[BoardEntryOut] = Field(description="provisional ratings, apart")


class SeatOut(BaseModel):
    name: str
    id: str | None = Field(description="the player bound to the seat (null: none)")
    bot: bool


class ChangeOut(BaseModel):
    before: int
    after: int
    change: int


class HistoryEntryOut(BaseModel):
    """A finished game in a player's history."""

    id: str
    variant: str
    pace: Literal["live", "correspondence", "untimed"]
    rated: bool
    finished: float = Field(description="when it ended (Unix time)")
    reason: str
    seat: int = Field(description="the player's seat")
    players: list[SeatOut]
    scores: list[int]
    ranks: list[int]
    rating_change: ChangeOut | None = Field(description="the player's, if rated")
    links: dict[str, str] = Field(description="the game's page, record and replay")


class HistoryOut(BaseModel):
    games: list[HistoryEntryOut]
    next: float | None = Field(description="pass as ``before`` for the next page (null: none)")


def get_standings(request: Request) -> Standings:
    found: Standings = request.app.state.standings
    return found


router = APIRouter(prefix="/api", tags=["ratings and histories"])
page = APIRouter(include_in_schema=False)


@page.get("/leaderboard")
async def leaderboard_page() -> HTMLResponse:
    return html_page()


@page.get("/players/{player_id}")
async def profile_page(player_id: str) -> HTMLResponse:
    return html_page()


def _check_game(game: str | None) -> None:
    if game and game not in GAMES:
        raise HTTPException(400, _("game: one of {games}", games=", ".join(GAMES)))


@router.get("/leaderboard", summary="A pool's players by rating", response_model=LeaderboardOut)
async def leaderboard(
    request: Request,
    game: str = "classic",
    pace: Literal["live", "correspondence"] = "live",
    limit: Annotated[int, Query(ge=1, le=MOST)] = 50,
) -> dict[str, Any]:
    _check_game(game)
    return await asyncio.to_thread(get_standings(request).leaderboard, game, pace, limit)


@router.get(
    "/players/{player_id}/games", summary="A player's finished games", response_model=HistoryOut
)
async def player_games(
    request: Request,
    player_id: str,
    game: str | None = None,
    opponent: Annotated[str | None, Query(max_length=40)] = None,
    since: float | None = None,
    until: float | None = None,
    before: float | None = None,
    limit: Annotated[int, Query(ge=1, le=MOST)] = PAGE,
) -> dict[str, Any]:
    """Newest first; ``opponent`` finds a name in part, whatever its case; ``since`` and
    ``until`` bound when it ended (Unix time); ``before`` pages (the answer's ``next``)."""
    _check_game(game)
    standings = get_standings(request)
    return await asyncio.to_thread(
        lambda: standings.history(
            player_id,
            game=game or None,
            opponent=opponent or None,
            since=since,
            until=until,
            before=before,
            limit=limit,
        )
    )


def install(app: FastAPI, standings: Standings) -> None:
    """The standings (``app.state.standings``: the service's), their pages and routes."""
    app.state.standings = standings
    app.include_router(page)
    app.include_router(router)
