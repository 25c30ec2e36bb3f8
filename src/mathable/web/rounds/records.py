"""After the game, and the lists of games (:class:`Records`): records, transcripts,
replays, analyses and score sheets.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from mathable import i18n
from mathable.ai.analysis import REPORT_VERSION, with_texts
from mathable.ai.equity import EXPERT_DEPTH
from mathable.engine import records
from mathable.engine.actions import Exchange
from mathable.engine.errors import MathableError
from mathable.engine.protocol import Game
from mathable.games import registry
from mathable.games.registry import sheet_games
from mathable.i18n import _
from mathable.web.infra.errors import ServiceError
from mathable.web.infra.workers import (
    analyse_record,
    summarise,
    turn_steps,
)
from mathable.web.rounds.live import LiveGame, Seated
from mathable.web.rounds.rematches import Rematches
from mathable.web.rounds.views import view_data, with_reasons

log = logging.getLogger(__name__)


class Records(Rematches):
    """After the game (and the lists of games): records, transcripts, replays, analyses and
    score sheets."""

    async def _stored_summary(self, game_id: str, head: int | None = None) -> dict[str, Any] | None:
        """A game's summary at ``head`` actions (None: as stored now): from memory if
        current, else replayed in the worker pool (not kept in memory as a live game)."""
        live = self.live.get(game_id)
        if live is not None and (head is None or live.events == head):
            return self._keep_summary(live)
        known = self._summaries.get(game_id)
        if known is not None and head is not None and known[0] == head:
            return known[1]
        stored = await asyncio.to_thread(self.store.load, game_id)
        if stored is None:
            return None
        summary = await self.workers.run(
            summarise, stored.id, stored.created, stored.spec, stored.seats, stored.actions
        )
        return self._keep(summary)

    async def games(
        self, limit: int, live: bool = False, player: str | None = None, mine: bool = False
    ) -> list[dict[str, Any]]:
        """The newest games first, from memory and the kept summaries: a game is
        replayed (in the worker pool) only when nothing current is known of it.

        Who sees what (issue 30): the online games, which anyone may watch, and the games
        ``player`` (the session cookie's) sits at; never another person's game at one
        screen. ``live``: only online games being played (the lobby's games to watch);
        ``mine``: only ``player``'s own games, finished or not."""
        scan = min(4 * limit, 500)  # online games among the newest of all
        own = await asyncio.to_thread(self.store.player_game_ids, player, limit) if player else []
        mine_ids = {game_id for game_id, _ in own}
        listed = [] if mine else await asyncio.to_thread(self.store.list_ids, scan, live)
        if not live:
            merged = {game_id: created for game_id, created in [*listed, *own]}
            listed = sorted(merged.items(), key=lambda g: (-g[1], g[0]))
        heads = await asyncio.to_thread(self.store.heads, [game_id for game_id, _ in listed])
        found = await asyncio.gather(
            *(self._stored_summary(game_id, heads.get(game_id, 0)) for game_id, _ in listed)
        )
        summaries = [
            {**summary, "created": created}  # the store's clock, not a live copy's
            for (_, created), summary in zip(listed, found, strict=True)
            if summary is not None
            and (
                (not live and summary["id"] in mine_ids)
                or (summary["mode"] == "online" and not (live and summary["over"]))
            )
        ]
        return summaries[:limit]

    async def player_games(self, player_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The games ``player_id`` sits at and that are not over (:data:`~.db.game_players`),
        those where it is their turn first, then newest first: each with its stored
        creation (``spec``, ``seats``), the player's ``seat`` and ``your_turn``."""
        rows = await asyncio.to_thread(self.store.player_games, player_id, limit)
        found: list[dict[str, Any]] = []
        for stored, seat in rows:
            live = await asyncio.to_thread(self.get, stored.id)
            if live.over:
                continue  # its result not written yet
            found.append(
                {
                    "id": stored.id,
                    "created": stored.created,
                    "spec": stored.spec,
                    "seats": live.seats,
                    "seat": seat,
                    "your_turn": live.game.to_move == seat,
                }
            )
        found.sort(key=lambda g: not g["your_turn"])  # stable: newest first within
        return found

    # -- after the game ---------------------------------------------------------------

    @staticmethod
    def record_for(seated: Seated) -> str:
        """The game's record (its computer seats in ``bots``): whole once over, for all;
        during the game (save and continue) for a seat of a game at one screen, where
        every rack is at that screen anyway. An online game's record holds its seed,
        which deals every rack and the bag: secret until the end (O1), so it is saved
        once over."""
        live, seat = seated.live, seated.seat
        if not live.game.is_over:
            if seat is None:
                raise ServiceError(
                    409,
                    _(
                        "the game is still being played: its record opens to all at the end "
                        "(at one screen, a player saves it with their own link)"
                    ),
                )
            if live.mode == "online" or live.rated:  # a rated game: whoever sits in it
                raise ServiceError(
                    409,
                    _(
                        "the game is still being played online: its record holds the deal "
                        "(the seed: every rack and the bag), secret until the end (O1); it is "
                        "saved once the game is over"
                    ),
                )
        return records.dumps(live.game, live.bots)

    def finished(self, game_id: str) -> Game:
        """The game, once over (records, replays and analysis reveal every rack)."""
        live = self.get(game_id)
        if not live.game.is_over:
            raise ServiceError(
                409, _("the game is still being played: its record and replay open at the end")
            )
        return live.game

    @staticmethod
    def transcript(game: Game) -> str:
        """The game's score sheet, for games that have them."""
        kind = game.game_type
        if kind.sheets is None:
            raise ServiceError(
                400,
                _(
                    "score sheets are for {games}: {game} has none",
                    games=", ".join(sheet_games()),
                    game=kind.title,
                ),
            )
        return game.score_sheet()

    @staticmethod
    def replay(
        game: Game,
        step: int,
        seat: int | None = None,
        reasons: Mapping[int, i18n.Text] | None = None,
    ) -> dict[str, Any]:
        """The public view after the first ``step`` actions, the last of them, and the
        racks then: all of them once the game is over; in a game still played only the
        viewer's ``seat`` (and racks that lie face up), and an exchange without the
        pieces exchanged, for they are hidden until the end (O1). ``reasons``: the
        computers' reasons by turn, as the game's views give them (issue 35)."""
        reasons = reasons or {}
        total = len(game.log)
        step = min(step, total)
        past = game.replayed(step)
        public = past.view(None)
        last = game.log[step - 1] if step else None
        face_up = [list(rack) for rack in public.open_racks]
        shown: list[list[int] | None] = [*face_up] if face_up else [None for _seat in game.players]
        racks = [
            list(past.rack(i)) if game.is_over or i == seat else shown[i]
            for i in range(len(game.players))
        ]
        if isinstance(last, Exchange) and not game.is_over:
            action: str | None = f"exchange ({len(last.values)})"
        else:
            action = game.format_action(last) if last is not None else None
        steps = turn_steps(game)
        turns = [
            {"seat": t.seat, "notation": t.notation, "points": t.points, "note": str(t.note)}
            | {"explanations": [e.text() for e in t.explanations]}
            | ({"reason": str(reasons[i])} if i in reasons else {})
            | {"start": steps[i], "step": steps[i + 1]}
            for i, t in enumerate(game.view(seat).summaries)
        ]
        data = view_data(past, public)
        with_reasons(data, public, dict(reasons))
        return {
            "step": step,
            "total": total,
            "action": action,
            "view": data,
            "racks": racks,
            "turns": turns,
        }

    def replay_for(self, seated: Seated, step: int) -> dict[str, Any]:
        """The replay: open to all once the game is over; during the game to a seat
        (its token), which sees its own rack at each step and no other hidden one."""
        if not seated.live.game.is_over and seated.seat is None:
            raise ServiceError(
                409,
                _(
                    "the game is still being played: its replay opens to all at the end "
                    "(during the game to a seat, with its own link)"
                ),
            )
        if not seated.live.game.is_over and seated.live.rated:
            raise ServiceError(
                409,
                _(
                    "a rated game is played without aids: its replay opens at the end "
                    "(fair play, O2)"
                ),
            )
        known = self._reasons(seated.live)  # as far as worked out: never on this loop
        reasons = known.reasons if known is not None else None
        return self.replay(seated.live.game, step, seated.seat, reasons)

    async def analysis(self, game: Game, depth: str = EXPERT_DEPTH.name) -> dict[str, Any]:
        """Per turn, what was played against the best turn available, judged at
        ``depth`` (in the worker pool, from the game's record)."""
        return await self.workers.run(analyse_record, records.dumps(game), depth)

    ANALYSES = 64
    """The most finished games' analyses kept in memory (tens of KB each)."""

    async def finished_analysis(
        self, live: LiveGame, depth: str = EXPERT_DEPTH.name
    ) -> dict[str, Any]:
        """A finished game's analysis at ``depth``, computed once and kept: in the
        database (for every process and restart) and in memory (by game, number of
        actions and depth, the newest :data:`ANALYSES`); requests that arrive while it is
        being computed wait for that one computation. By the number of stored events,
        which only grows (an undo is one), so an analysis never answers for another
        ending of the same game."""
        key = (live.id, live.events, depth)
        pending = self._analyses.get(key)
        if (
            pending is None
            or (pending.done() and (pending.cancelled() or pending.exception() is not None))
            or (not pending.done() and pending.get_loop() is not asyncio.get_running_loop())
        ):
            pending = asyncio.ensure_future(
                self._kept_analysis(live.id, live.events, live.game, depth)
            )
            self._analyses[key] = pending
            while len(self._analyses) > self.ANALYSES:
                self._analyses.popitem(last=False)
        self._analyses.move_to_end(key)
        return await asyncio.shield(pending)

    async def _kept_analysis(
        self, game_id: str, actions: int, game: Game, depth: str
    ) -> dict[str, Any]:
        """The analysis the database keeps, else computed (in the worker pool) and kept."""
        version = REPORT_VERSION
        kept = await asyncio.to_thread(self.store.analysis, game_id, actions, version, depth)
        if kept is not None:
            return kept
        report = await self.analysis(game, depth)
        await asyncio.to_thread(self.store.keep_analysis, game_id, actions, version, depth, report)
        return report

    async def analysis_for(self, seated: Seated, depth: str = EXPERT_DEPTH.name) -> dict[str, Any]:
        """The analysis at ``depth``: of the whole game for everyone once it is over;
        during the game only with the house rule hints (O2), for a seat and of its own
        turns (the others' would show their racks)."""
        game, seat = seated.live.game, seated.seat
        if game.is_over:  # kept once for every reader: its explanations in the reader's words
            return with_texts(await self.finished_analysis(seated.live, depth))
        if not game.house_rules.hints:
            raise ServiceError(
                409,
                _(
                    "the game is still being played: its analysis opens to all at the end "
                    "(during the game it needs the house rule hints, O2)"
                ),
            )
        if seat is None:
            raise ServiceError(
                409,
                _(
                    "the game is still being played: during the game a seat sees the "
                    "analysis of its own turns, with its own link; all of it opens at the end"
                ),
            )
        report = await self.analysis(game, depth)
        seats = [summary.seat for summary in game.summaries()]
        report["turns"] = [t for t in report["turns"] if seats[t["turn"] - 1] == seat]
        report["players"] = [report["players"][seat]]
        return with_texts(report)

    @staticmethod
    def score_sheet(text: str, variant: str) -> dict[str, Any]:
        """A paper score sheet scored turn by turn."""
        if variant not in sheet_games():
            raise ServiceError(
                400, _("score sheets are for {games}", games=", ".join(sheet_games()))
            )
        try:
            return registry.score_sheet(variant, text)
        except MathableError as exc:
            raise ServiceError(422, str(exc)) from None
