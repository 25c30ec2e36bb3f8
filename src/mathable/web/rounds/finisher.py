"""How games end on the clock (:class:`Finisher`): the flag when a player's time runs out
(one timer for all the running clocks, :mod:`.timers`) and the ending stored with its
result and ratings.
"""

from __future__ import annotations

import asyncio
import logging

from mathable.engine.errors import IllegalMove
from mathable.i18n import _
from mathable.web.infra.errors import ServiceError
from mathable.web.infra.store import ConflictError
from mathable.web.rounds.gameclock import ready_of
from mathable.web.rounds.live import LiveGame
from mathable.web.rounds.views import Views

log = logging.getLogger(__name__)


class Finisher(Views):
    """How games end on the clock: the flag when a player's time runs out (one timer for all
    the running clocks) and the ending stored with its result and ratings."""

    async def _store_ending(self, live: LiveGame, event: str, seat: int | None) -> LiveGame:
        """Apply and store a seat leaving (``flag 1``, ``resign 0``, ``claim 1``) or an
        abort (``abort 0``), the engine's own actions (local ruling L1), under the game's
        lock; refused by the engine: 409; a race lost to another process: the game
        reloaded (its event stands)."""
        at, seq = self.now(), live.events
        try:
            live.game.apply(live.game.parse_action(event))
        except IllegalMove as exc:
            raise ServiceError(409, str(exc), seq=live.events) from None
        try:
            ends = live.game.is_over
            self._count(live, seq, event, at)
            await self._append(live.id, seq, event, seat, at, ends)
        except ConflictError:
            return self.reload(live)
        except Exception:  # the database failed: memory goes back to what it holds
            self.reload(live)
            raise
        return live

    async def _flag_if_due(self, live: LiveGame, refuse: bool = False) -> LiveGame:
        """Under the game's lock: if the running seat's time has run out, store its flag
        (the server is the authority: whatever arrives after the deadline is too late);
        if the seat to move let its first-move time pass (O4), abort the game (no result,
        never rated); with ``refuse``, then refuse the action that came too late (409)."""
        timing = live.timing
        now = self.now()
        unstarted = None if timing is None else timing.unstarted_due(now)
        if unstarted is not None:
            live = await self._store_ending(live, f"abort {unstarted}", None)
            await self._broadcast(live)
            if refuse:
                why = live.timing.ending_text() if live.timing is not None else None
                raise ServiceError(409, why or _("the game is over"), seq=live.events)
            return live
        due = None if timing is None else timing.flag_due(now)
        if due is None:
            return live
        live = await self._store_ending(live, f"flag {due}", None)
        await self._broadcast(live)
        self._wake_bots(live)  # three or four players: play goes on, maybe a computer's
        if refuse and live.game.is_over:
            raise ServiceError(
                409, _("time is up: {reason}", reason=live.game.end_reason), seq=live.events
            )
        return live

    def _wake_clock(self, live: LiveGame) -> None:
        """Set the game's flag instant on the process's timer (:mod:`.timers`), or take
        it off once its clock has stopped: called at each turn change and load."""
        timing = live.timing
        if timing is None or timing.control is None:
            return
        timing.ready = ready_of(live.seats, live.created)  # (seats taken since, anywhere)
        clocks = None if live.over else timing.clocks(self.now())
        wake = None if clocks is None else clocks.wake  # a flag or a first move due (O4)
        self.clocks.set(live.id, None if wake is None else wake / 1000)

    async def _fire_clock(self, game_id: str) -> None:
        """The timer at a game's flag instant: store the flag if it is due (unless a
        move came first, or another process stored it: the store's seq check), else
        set the game's next instant."""
        if game_id in self.live:  # (get sets its instant again if its clock still runs)
            live = self.get(game_id)
        else:
            live = await asyncio.to_thread(self.get, game_id)
        timing, now = live.timing, self.now()
        if timing is None or (timing.flag_due(now) is None and timing.unstarted_due(now) is None):
            return
        async with live.lock:
            live, _changed = await self._catch_up(self.get(game_id))
            await self._flag_if_due(live)
