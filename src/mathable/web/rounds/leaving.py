"""Players who leave (:class:`Leaving`): resigning, aborting, and claims against a player
away too long (local ruling L1), judged by who has the game open (:mod:`.presence`,
across processes).
"""

from __future__ import annotations

import asyncio
import logging

from mathable.i18n import _
from mathable.web.infra.connections import Encoded
from mathable.web.infra.errors import ServiceError
from mathable.web.rounds.computers import Computers
from mathable.web.rounds.live import LiveGame, Seated

log = logging.getLogger(__name__)


class Leaving(Computers):
    """Players who leave: resigning, aborting, and claims against a player away too long,
    judged by who has the game open (presence, across processes)."""

    async def end(self, seated: Seated, kind: str) -> Encoded:
        """Resign (any time before the end) or abort (before each player has moved: no
        winner, never rated): the engine's actions ``resign 0`` and ``abort 0`` (local
        ruling L1), stored as events. With two players the other wins a resignation; with
        three or four the seat leaves, its score frozen, and play goes on."""
        seat = seated.seat
        if seat is None:
            raise ServiceError(
                403,
                _("spectators cannot abort: open your seat's private link")
                if kind == "abort"
                else _("spectators cannot resign: open your seat's private link"),
            )
        live = self.get(seated.live.id)
        async with live.lock:
            live, _changed = await self._catch_up(self.get(live.id))
            live = await self._flag_if_due(live, refuse=True)
            if live.over:
                raise ServiceError(409, _("the game is over"), seq=live.events)
            if live.game.left[seat]:
                raise ServiceError(409, _("you have left the game already"), seq=live.events)
            if kind == "abort" and not live.game.can_abort(seat):
                raise ServiceError(
                    409,
                    _("abort: only before each player has moved; you may resign instead"),
                    seq=live.events,
                )
            if kind == "resign" and not live.game.started:
                raise ServiceError(
                    409,
                    _(
                        "resign: not before every player has made a first move; abort "
                        "instead (nobody wins, nothing is rated: O4)"
                    ),
                    seq=live.events,
                )
            live = await self._store_ending(live, f"{kind} {seat}", seat)
        await self._broadcast(live)
        await self._run_bots(live)  # three or four players: play goes on
        return self.view(self.get(live.id), seat)

    async def claim(self, seated: Seated) -> Encoded:
        """Claim against the seat to move, disconnected for more than
        :attr:`claim_after` seconds: stored as ``claim <seat>``, the engine's action (L1:
        two players, the claimant wins; three or four, that seat leaves and play goes
        on). Refused (409) with the reason otherwise."""
        seat = seated.seat
        if seat is None:
            raise ServiceError(403, _("spectators cannot claim: open your seat's private link"))
        live = self.get(seated.live.id)
        if live.mode != "online":
            raise ServiceError(
                409, _("claims are for online games: here everyone is at one screen")
            )
        async with live.lock:
            live, _changed = await self._catch_up(self.get(live.id))
            live = await self._flag_if_due(live, refuse=True)
            if live.over:
                raise ServiceError(409, _("the game is over"), seq=live.events)
            if not self._claims(live):
                raise ServiceError(
                    409,
                    _("no claims in a correspondence game: the clock decides"),
                    seq=live.events,
                )
            if live.game.left[seat]:
                raise ServiceError(409, _("you have left the game already"), seq=live.events)
            away = live.game.to_move
            name = live.game.players[away]
            if away == seat:
                raise ServiceError(409, _("it is your turn: there is nobody to claim against"))
            if away in live.bots:
                raise ServiceError(
                    409, _("{name} is a computer player: it never leaves", name=name)
                )
            if not live.game.started:
                raise ServiceError(
                    409,
                    _(
                        "no claim before every player has made a first move: a game nobody "
                        "starts is aborted by its first-move time (O4), or abort it yourself"
                    ),
                    seq=live.events,
                )
            rows = await self.presence.fresh(live.id)
            now = self.now()
            here = self.presence.merged(rows, away, now)
            if here.connected:
                raise ServiceError(409, _("{name} is connected", name=name), seq=live.events)
            since = self._away_since(live, here)
            gone = max(0.0, now - since)
            if gone <= self.claim_after:
                raise ServiceError(
                    409,
                    # TRANSLATORS: s is seconds
                    _(
                        "{name} has been away {seconds} s; claim after {after} s",
                        name=name,
                        seconds=int(gone),
                        after=f"{self.claim_after:g}",
                    ),
                    seq=live.events,
                    after=round((since + self.claim_after) * 1000),
                )
            live = await self._store_ending(live, f"claim {away}", seat)
        await self._broadcast(live)
        await self._run_bots(live)  # three or four players: play goes on (L1)
        return self.view(self.get(live.id), seat)

    async def seat_opened(self, seated: Seated) -> None:
        """A socket opened here: the game's presence followed, a seat's connected."""
        if seated.live.mode == "online":
            await self.presence.opened(seated.live.id, seated.seat)

    def seat_closed(self, seated: Seated) -> None:
        """A socket closed here (presence: a seat away after its last socket)."""
        if seated.live.mode == "online":
            self.presence.closed(seated.live.id, seated.seat)

    def _presence_changed(self, game_id: str) -> None:
        """A game's presence changed: its watchers get views that say so."""
        live = self.live.get(game_id)
        if live is not None and live.listeners:
            task = asyncio.ensure_future(self._broadcast_presence(live))
            self._refreshes.add(task)
            task.add_done_callback(self._refreshes.discard)

    async def _broadcast_presence(self, live: LiveGame) -> None:
        """The views of a presence change, built under the game's lock: an action holds
        it between applying its move and counting its event, and a view built in between
        would show the move with the seq before it (a player would act on a stale seq)."""
        async with live.lock:
            live.views.clear()
            await self._broadcast(live)
