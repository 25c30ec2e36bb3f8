"""The computer players' turns (:class:`Computers`), thought in the worker pools off the
event loop (one task per game; games between computers in a lane of their own), and the
hints.

Each decision's cost is logged at DEBUG on :data:`TIMES` (off unless a deployment or a
benchmark turns that logger on: ``benchmarks/load.py --person`` does), one line a
decision in :data:`TIME_LINE`'s form. A computer's placements are shown one at a time,
``MATHABLE_BOT_PACE_MS`` apart (:func:`bot_pace_ms`), or by default its turn at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from mathable.ai import QUICK_LEVELS, in_time, is_slow
from mathable.engine.actions import Action, Place
from mathable.engine.errors import IllegalMove
from mathable.engine.protocol import Game
from mathable.i18n import _, lazy
from mathable.web.infra.errors import ServiceError
from mathable.web.infra.store import ConflictError
from mathable.web.infra.workers import (
    Decision,
    bot_decision,
    computers_decision,
    hint_turns,
    slow_decision,
)
from mathable.web.rounds.finisher import Finisher
from mathable.web.rounds.live import LiveGame, Seated

log = logging.getLogger(__name__)

TIMES = logging.getLogger(__name__ + ".times")
"""Where each computer decision's cost is logged, at DEBUG (:data:`TIME_LINE`)."""

TIME_LINE = (
    "bot-time seed=%d seat=%d turn=%d level=%s lane=%s wait_ms=%.1f think_ms=%.1f "
    "total_ms=%.1f capped=%d"
)
"""One decision: its player's seed (from its game's and its seat: ``_bot_seed``), seat,
turn (the finished turns before it), level, lane (``person``: a person's opponent;
``computers``: a game between computers only), the worker's queue wait and thinking, the
whole round trip as the server awaited it, and whether the safety cap bit (1)."""

PACE_SETTING = "MATHABLE_BOT_PACE_MS"
DEFAULT_PACE_MS = 0
"""The pause between two placements of one computer turn as they are shown (none by
default: a turn reaches the page whole, in one view, once its placements are decided,
and the page marks the latest ones)."""
MAX_PACE_MS = 5_000


def bot_pace_ms(environ: Mapping[str, str] = os.environ) -> int:
    """The milliseconds between two shown placements of one computer turn, from
    ``MATHABLE_BOT_PACE_MS`` (0: all at once; :data:`DEFAULT_PACE_MS` unset); a value
    that is not a whole number from 0 to :data:`MAX_PACE_MS` is refused."""
    text = environ.get(PACE_SETTING, "").strip()
    if not text:
        return DEFAULT_PACE_MS
    if not text.isdigit() or int(text) > MAX_PACE_MS:
        raise ValueError(
            f"{PACE_SETTING}={text!r}: expected a whole number of ms, 0 to {MAX_PACE_MS}"
        )
    return int(text)


HINTS_OFF = lazy(
    "hints are off in this game: the computer's help is a house rule (hints) that every "
    "seat can see, chosen when the game is created (O2)"
)
"""The refusal of a hint in a game without the house rule (a text: ``str()`` it)."""


class Computers(Finisher):
    """The computer players' turns, thought in the worker pools off the event loop (one task
    per game), and the hints."""

    pause: Callable[[float], Awaitable[None]] = staticmethod(asyncio.sleep)
    """How the pace between shown placements is waited (a test puts a recorder here)."""

    _pace_ms: int | None = None

    @property
    def pace_ms(self) -> int:
        """:func:`bot_pace_ms`, read from the environment at its first use (a bad value
        is logged as an error and the default used: a typo never stops the computers)."""
        if self._pace_ms is None:
            try:
                self._pace_ms = bot_pace_ms()
            except ValueError as exc:
                log.error("%s: %s ms are used", exc, DEFAULT_PACE_MS)
                self._pace_ms = DEFAULT_PACE_MS
        return self._pace_ms

    async def _run_bots(self, live: LiveGame) -> None:
        """Let computer players move until a person is to move (or the game ends), on
        the game's bot task. A game with a person waits for their reply, as a player at
        the table would (the thinking is in the worker pool, the loop stays free); a
        game of computer players only is played in the background: the request answers
        at once and watchers see it move. Without the lifespan (an app whose event loop
        may not outlive the request) they move here."""
        if not self._started:
            await self._play_bots(live.id)
            return
        if any(is_slow(level) for level in live.bots.values()):
            self.workers.warm_long()  # before its first turn is asked for
        self._wake_bots(live)
        task = self._bot_tasks.get(live.id)
        if task is not None and len(live.bots) < len(live.seats):
            await asyncio.shield(task)  # a closed request leaves the bots playing

    @staticmethod
    def _bot_to_move(live: LiveGame) -> bool:
        return not live.over and live.game.to_move in live.bots

    def _wake_bots(self, live: LiveGame) -> None:
        """Start the game's bot task if a computer player is to move (one per game), on
        the service's event loop (asked from another thread: handed over to it)."""
        if self._bot_to_move(live):
            self._start_task(self._bot_tasks, live, self._wake_bots, self._play_bots)

    @staticmethod
    def _bot_seed(game: Game, seat: int) -> int:
        """A computer player's seed: from the deal and the seat. A computer player's
        decision depends on its seed and the position alone (``FamilyBot.chance``), so a
        resumed game plays as it would have without the restart, and a worker that kept
        the player since its last action (``workers.bot_move``) follows its turn plan."""
        return (game.seed or 0) * 8 + seat

    async def _play_bots(self, game_id: str) -> None:
        """Computer players' moves, decided in the worker pool from their seat's view
        outside the lock, then stored under it if the game has not moved meanwhile (a
        challenge, another process): else decided again. A conflict in the store means
        another process stored that move: reload and decide again. Never raises.

        Without a pace (:meth:`pace_ms` 0) a computer's turn is shown whole: one
        broadcast once its placements are made, not one per placement microseconds
        apart (a socket keeps only the newest view it has not sent anyway; issue 34:
        each broadcast builds and sends every watcher's view)."""
        failures = 0
        unshown = False  # placements of a turn that goes on, not broadcast yet
        while failures < 5:
            try:
                live = self.get(game_id)
                if not self._bot_to_move(live):
                    break
                game = live.game
                seat, seq = game.to_move, live.events
                level = self._level_in_time(live, seat)
                bot_seed = self._bot_seed(game, seat)
                if len(live.bots) == len(live.seats):  # computers only: their own lane
                    action = await self._decide(level, bot_seed, game, seat, alone=True)
                else:
                    action = await self._decide(level, bot_seed, game, seat)
                async with live.lock:
                    if self.live.get(game_id) is not live or live.events != seq:
                        continue  # the game moved (or was reloaded) meanwhile: decide again
                    flagged = await self._flag_if_due(live)
                    if flagged is not live or live.events != seq:
                        continue  # out of time: its thinking counts on its clock
                    try:
                        game.apply(action)
                    except IllegalMove:  # a computer player that cannot answer: the engine's
                        choices = game.legal_actions()  # first legal action, never a stall
                        if not choices:
                            break
                        action = choices[0]
                        game.apply(action)
                    try:
                        at, event = self.now(), game.format_action(action)
                        self._count(live, seq, event, at)
                        await self._append(game_id, seq, event, seat, at, game.is_over)
                    except ConflictError:  # another process came first: its move stands
                        self.reload(live)
                        continue
                goes_on = self._turn_goes_on(live, seat, action)
                unshown = goes_on and not self.pace_ms
                if unshown:
                    continue  # shown with the action that ends the turn
                await self._broadcast(live)
                if goes_on:
                    await self.pause(self.pace_ms / 1000)
            except asyncio.CancelledError:
                raise
            except ServiceError:  # the game is not in the store
                return
            except Exception:  # never a crashed task: note it, start again from the store
                failures += 1
                log.exception("computer player of game %s", game_id)
                await asyncio.sleep(0.1 * failures)
                held = self.live.get(game_id)
                if held is not None:
                    with contextlib.suppress(Exception):
                        self.reload(held)
        else:
            log.error("game %s: computer player gave up after %d failures", game_id, failures)
        if unshown:  # the turn stopped short (the game moved on, a failure): show it now
            with contextlib.suppress(ServiceError):
                await self._broadcast(self.get(game_id))

    def _level_in_time(self, live: LiveGame, seat: int) -> str:
        """The level a computer seat plays this action at: its own, or its fastest when
        its clock runs low, so that it moves within its own time (:func:`in_time`)."""
        clocks = None if live.timing is None else live.timing.clocks(self.now())
        left = None if clocks is None else clocks.left_ms[seat]
        return in_time(live.bots[seat], left)

    @staticmethod
    def _turn_goes_on(live: LiveGame, seat: int, action: Action) -> bool:
        """Whether computer ``seat`` just placed a token and its turn goes on (the pace is
        kept after such a placement, not after a turn's end)."""
        return isinstance(action, Place) and not live.over and live.game.to_move == seat

    async def _decide(
        self, level: str, seed: int, game: Game, seat: int, alone: bool = False
    ) -> Action:
        """A computer player's action from its seat's view, in the worker pool; in a game
        between computers only (``alone``), in the computers' own pool, so that a person's
        opponent never waits behind them (issue 30); a quick level's beside a person on a
        thread here (:data:`~mathable.ai.QUICK_LEVELS`: cheaper than the trip to a worker,
        issue 34); a slow level's (the master) in the long jobs' pool, so that no other
        person's opponent waits behind its seconds of thought; if the pool cannot answer,
        the engine's first legal action. Its cost is logged on :data:`TIMES`."""
        try:
            # without explanations: bots never read them, and they were half of what
            # went to the worker (issue 34)
            view = game.view(seat, explained=False)
            queued = time.time()
            if alone:
                job = computers_decision
                decision = await self.computer_workers.run(job, level, seed, view, queued)
            elif level in QUICK_LEVELS:
                decision = await asyncio.to_thread(bot_decision, level, seed, view, queued)
            elif is_slow(level):
                decision = await self.workers.run(slow_decision, level, seed, view, queued)
            else:
                decision = await self.workers.run(bot_decision, level, seed, view, queued)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer player %s failed: playing the first legal action", level)
            choices = game.legal_actions()
            if not choices:
                raise
            return choices[0]
        if TIMES.isEnabledFor(logging.DEBUG):
            self._log_time(seed, game, seat, level, alone, decision, queued)
        return decision.action

    @staticmethod
    def _log_time(
        seed: int,
        game: Game,
        seat: int,
        level: str,
        alone: bool,
        decision: Decision,
        queued: float,
    ) -> None:
        """One :data:`TIME_LINE` on :data:`TIMES`."""
        TIMES.debug(
            TIME_LINE,
            seed,
            seat,
            len(game.summaries()),
            level,
            "computers" if alone else "person",
            decision.wait_ms,
            decision.think_ms,
            1000 * (time.time() - queued),
            int(decision.capped),
        )

    async def hint(self, seated: Seated) -> dict[str, Any]:
        """The best turns for the seat to move, searched from that seat's view only."""
        game, seat = seated.live.game, seated.seat
        if not game.house_rules.hints:
            raise ServiceError(403, str(HINTS_OFF))
        if seat is None or seat != game.to_move or seated.live.over:
            raise ServiceError(409, _("a hint is for the player to move, with their own link"))
        name = game.cell_names.name
        found = await self.workers.run(hint_turns, game.view(seat))
        return {
            "turns": [
                {"turn": h.notation, "points": h.points, "cells": [name(c) for c in h.cells]}
                for h in found
            ]
        }
