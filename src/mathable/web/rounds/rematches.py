"""After the game, a rematch with the same seats (:class:`Rematches`; a rated one swaps
who starts, issue 29).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from mathable.games.registry import new_game
from mathable.i18n import _
from mathable.web.infra.errors import ServiceError
from mathable.web.infra.store import StoredSeat
from mathable.web.rounds.creating import Creating
from mathable.web.rounds.live import LiveGame, Seated, token_hash
from mathable.web.rounds.schemas import SEED_LIMIT, NewGame, Seat

log = logging.getLogger(__name__)


class Rematches(Creating):
    """After the game, a rematch with the same seats (a rated one swaps who starts)."""

    @staticmethod
    def _rematch_seats(live: LiveGame, seed: int) -> list[int]:
        """A rated rematch's seats, dealt from ``seed``: for each seat of the finished
        game, its seat in the rematch, chosen so that the order of play moves on by one
        (with two players the other player moves first; with more, the player who moved
        second moves first, and so on). Who starts is the deal's (C10: a draw, from the
        seed alone, whatever the names), so the players are seated around it."""
        game = live.game
        count = len(live.seats)
        first = game.fresh().to_move  # who moved first in the finished game
        starter = new_game(
            game.name,
            [s["name"] for s in live.seats],
            seed=seed,
            house_rules=game.house_rules,
            rounds=game.record_fields().get("rounds", 1),
        ).to_move
        return [(starter + old - first - 1) % count for old in range(count)]

    async def rematch(self, seated: Seated) -> dict[str, Any]:
        """After the game, a new deal with the same seats: the same players and computer
        levels, game, house rules, rounds, mode, clock and rated or casual (issue 29). The
        first player to ask creates it (answered as a created game: at one screen every
        person's token, online only theirs); it is noted on this game, whose views then
        show it (``rematch``), and every other person's seat in it is claimed by that
        player from here with their own token or their session cookie (this same call),
        so nobody holds another's seat. Online, the server deals it and its seed stays
        secret until its end (O1).

        A rated rematch swaps the order of play (:meth:`_rematch_seats`): each player's
        seat in it is noted on this game's seats (``rematch_seat``), where their own
        call finds it; a casual rematch keeps every seat where it was."""
        live, seat = seated.live, seated.seat
        if seat is None:
            raise ServiceError(403, _("a rematch is for the game's players: open your seat's link"))
        if not live.over:  # resigned, aborted or out of time too
            raise ServiceError(409, _("a rematch is offered once the game is over"))
        async with live.lock:
            live, _changed = await self._catch_up(self.get(live.id), seats=True)
            made = self._rematch_of(live)
            if made is None:
                game = live.game
                kind = game.game_type
                control = None if live.timing is None else live.timing.control
                dealt = secrets.randbelow(SEED_LIMIT) if live.rated else None
                order = (  # each seat's seat in the rematch
                    self._rematch_seats(live, dealt)
                    if dealt is not None
                    else list(range(len(live.seats)))
                )
                players = [Seat()] * len(live.seats)
                for old, new in enumerate(order):
                    players[new] = Seat(name=live.seats[old]["name"], bot=live.seats[old]["bot"])
                spec = NewGame(
                    variant=game.name,
                    players=players,
                    mode="online" if live.mode == "online" else "screen",
                    seat=order[seat] if live.mode == "online" else None,
                    house_rules={
                        k: v for k, v in game.house_rules.to_dict().items() if k in kind.house_rules
                    },
                    rounds=game.record_fields().get("rounds", 1),
                    clock=None if control is None else control.to_json(),
                    rated=live.rated,
                )
                own = live.seats[seat].get("player") if live.mode == "online" else None
                # the asker's seat bound as before; a rated rematch dealt from its own seed
                created = await self.create(spec, own, dealt)
                after: list[StoredSeat] = [
                    {**s, "rematch": created["id"], "rematch_seat": order[i]}
                    for i, s in enumerate(live.seats)
                ]
                if not await asyncio.to_thread(
                    self.store.update_seats, live.id, live.seats, after
                ):  # another's rematch came first, in another process (this one stays unplayed)
                    self.reload(live)
                    raise ServiceError(409, _("a rematch was asked for at the same moment"))
                live.seats = after
                for entry in created["seats"]:
                    entry["invite"] = None  # each player claims their seat from here
        if made is None:
            await self._broadcast(live)  # the other seats see the rematch offered
            return created
        info = live.seats[seat]
        return await self._claim_rematch(
            made, int(info.get("rematch_seat", seat)), info.get("player")
        )

    async def _claim_rematch(
        self, game_id: str, seat: int, player: str | None = None
    ) -> dict[str, Any]:
        """A player's ``seat`` in the rematch (where :meth:`rematch` seated them): a
        fresh token if nobody holds it yet (as if its invitation were followed: it then
        stops working), bound to ``player`` (the one bound to it in the finished game, if
        any, whose session cookie then opens it), else the game without tokens (the
        browser that asked before holds them, or the player's cookie opens it)."""
        live = await asyncio.to_thread(self.get, game_id)
        token = None
        async with live.lock:
            live, _changed = await self._catch_up(self.get(game_id), seats=True)
            info = live.seats[seat]
            if not info.get("bot") and not info.get("token_hash"):
                token = secrets.token_urlsafe(18)
                after = [s.copy() for s in live.seats]
                after[seat]["token_hash"] = token_hash(token)  # its invitation is used up
                after[seat]["joined"] = self.now()  # O4: first moves timed once all are in
                bind = None
                if player is not None and live.seat_of_player(player) is None:
                    after[seat]["player"] = player
                    bind = {seat: player}
                if not await asyncio.to_thread(
                    self.store.update_seats, game_id, live.seats, after, bind
                ):
                    self.reload(live)
                    raise ServiceError(409, _("this seat was claimed at the same moment"))
                live.seats = after
                self._wake_clock(live)  # every seat taken: the first move's time counts
        if token is not None:
            await self._broadcast(live)
        return {
            "id": game_id,
            "mode": live.mode,
            "seats": [
                {
                    "seat": i,
                    "name": s["name"],
                    "bot": s["bot"],
                    "token": token if i == seat else None,
                    "claimed": bool(s["bot"] or s.get("token_hash")),
                }
                for i, s in enumerate(live.seats)
            ],
        }
