"""New games (:class:`Creating`): created from a spec, joined by invitation, or imported
from a record; the catalogue of games and computer players.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import logging
import secrets
from typing import Any

from mathable.ai import BOTS, bot_player_id, is_slow, level_name, seat_levels
from mathable.engine import records
from mathable.engine.errors import MathableError
from mathable.engine.protocol import GameType, HouseRules
from mathable.engine.spec import SpecError, check_house_rule_names, check_seats
from mathable.games import registry
from mathable.games.registry import GAMES, new_game
from mathable.i18n import _
from mathable.online.clocks import TimeControlError, parse_time_control
from mathable.online.fairplay import rated_refusal
from mathable.web.infra.botshare import TooManyBotGames
from mathable.web.infra.errors import ServiceError, at_field
from mathable.web.infra.store import ConflictError, StoredGame, StoredSeat
from mathable.web.rounds.live import token_hash
from mathable.web.rounds.moves import Moves
from mathable.web.rounds.schemas import SEED_LIMIT, NewGame

log = logging.getLogger(__name__)


def invitation(creator: str, seat: int) -> str:
    """Online, a seat's invitation, derived from the creator's own token: the store keeps
    only its hash, and the creator's token gives it again (:meth:`GameService.invitations`)
    while nobody else (another seat, the database) can."""
    digest = hmac.new(creator.encode(), f"invitation {seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


def board_json(kind: GameType) -> dict[str, Any]:
    """A board's squares for drawing (the ``board`` key of ``/api/variants``)."""
    return {
        "size": kind.columns,
        "squares": [{"kind": t.kind, "label": t.label} for t in kind.targets],
    }


class Creating(Moves):
    """New games: created from a spec, joined by invitation, or imported from a record; the
    catalogue of games and computer players."""

    # -- the catalogue ------------------------------------------------------------------

    @staticmethod
    def variants() -> list[dict[str, Any]]:
        """Every game: its metadata, its board (games played on one), its capabilities."""
        out = []
        for name, kind in GAMES.items():
            entry: dict[str, Any] = {
                "name": name,
                "title": kind.title,
                "summary": str(kind.summary),
                "min_players": kind.min_players,
                "max_players": kind.max_players,
                "rack_size": kind.rack_size,
            }
            if kind.surface == "board":
                entry["board"] = board_json(kind)
            entry["capabilities"] = kind.capabilities()
            out.append(entry)
        return out

    @staticmethod
    def bots() -> list[dict[str, Any]]:
        """The computer players, weakest first; ``slow`` marks the levels whose turns may
        take a few seconds (the master, issue 35: its decisions run in the long jobs' pool
        with their own cap), which pages offer only where a person waits for them by
        choice (a new game against the computer), not in the lobby's clocked games or a
        tournament's rounds."""
        return [
            {"name": n, "title": level_name(n), "description": str(d), "slow": is_slow(n)}
            for n, (_bot, d) in BOTS.items()
        ]

    # -- creating and loading -----------------------------------------------------------

    async def create(
        self,
        spec: NewGame,
        creator: str | None = None,
        dealt: int | None = None,
        address: str | None = None,
    ) -> dict[str, Any]:
        """Create a game; returns its id and its seats. ``creator`` (a player id, from
        the session cookie) is bound to the creator's seat, and each computer seat to its
        computer player (``bot-<level>``): :data:`~.db.game_players`, and ``"player"`` in
        the stored seats, which the cookie then opens (:meth:`LiveGame.seat_of`).

        At one screen (or against the computer) the creator gets every person's token.
        Online (O1, tokens), the server deals from ``secrets`` and keeps the seed until
        the end; the creator gets their own seat's token and an invitation link for each
        other person, claimed once by whoever follows it (:meth:`join`).

        Seeds the server draws are below 2^53 (:data:`~.schemas.SEED_LIMIT`), exact in a
        browser; ``dealt`` is one drawn already by the server (a rated rematch seats its
        players by its deal: :meth:`rematch`), never a client's.

        A game with a computer seat counts against the creator's and their ``address``'s
        fair share (:mod:`.botshare`): 429 at a limit."""
        try:
            kind = registry.game_type(spec.variant)
        except ValueError as exc:
            raise ServiceError(400, str(exc)) from None
        try:
            check_seats(kind, len(spec.players))
        except SpecError as exc:
            raise ServiceError(400, exc.text) from None
        for number, player in enumerate(spec.players, start=1):
            if player.bot is not None and player.bot not in BOTS:
                raise ServiceError(
                    400,
                    _(
                        "seat {number}: unknown bot {bot} ({levels})",
                        number=number,
                        bot=repr(player.bot),
                        levels=", ".join(BOTS),
                    ),
                )
        people = [i for i, p in enumerate(spec.players) if p.bot is None]
        online = len(people) > 1 and spec.mode != "screen"
        if online and spec.seed is not None:
            raise ServiceError(
                422,
                _(
                    "seed: an online game is dealt by the server and its seed stays secret "
                    "until the end (O1); a chosen seed is for games at one screen or against "
                    "the computer"
                ),
            )
        clock = None
        if spec.clock is not None:
            try:
                clock = parse_time_control(spec.clock).to_json()
            except TimeControlError as exc:
                raise ServiceError(400, str(exc)) from None
        mine = people[0] if people else None
        if spec.seat is not None:
            if spec.seat not in people:
                raise ServiceError(
                    422,
                    _("seat: the creator's seat must be a person's seat ({seats})", seats=people),
                )
            mine = spec.seat
        chosen = dict(spec.house_rules)
        try:
            check_house_rule_names(kind, chosen)
        except SpecError as exc:
            raise ServiceError(422, exc.text) from None
        refused = rated_refusal(chosen, spec.seed) if spec.rated else None
        if refused is not None:
            raise ServiceError(422, at_field(*refused))
        if "hints" in kind.house_rules:
            chosen.setdefault("hints", not online and not spec.rated)  # O2: off online
        bindings: dict[int, str] = {}
        seats: list[StoredSeat] = []
        answer: list[dict[str, Any]] = []
        own = secrets.token_urlsafe(18)  # the creator's token: online, invitations derive from it
        for number, player in enumerate(spec.players, start=1):
            seat = number - 1
            name = (player.name or _("Player {number}", number=number))[:40]
            token = invite = None
            if player.bot is None and (not online or seat == mine):
                token = own if seat == mine else secrets.token_urlsafe(18)
            elif player.bot is None:
                invite = invitation(own, seat)
            stored_seat: StoredSeat = {
                "name": name,
                "bot": player.bot,
                "token_hash": token_hash(token) if token else None,
                "invite_hash": token_hash(invite) if invite else None,
            }
            bound = bot_player_id(player.bot) if player.bot is not None else None
            if seat == mine and creator is not None:
                bound = creator
            if bound is not None:
                stored_seat["player"] = bound
                bindings[seat] = bound
            seats.append(stored_seat)
            answer.append(
                {
                    "seat": seat,
                    "name": name,
                    "bot": player.bot,
                    "token": token,
                    "invite": invite,
                    "claimed": token is not None,
                }
            )
        if dealt is None:  # below 2^53: exact in every JSON reader (issue 29)
            dealt = secrets.randbelow(SEED_LIMIT) if online or spec.seed is None else spec.seed
        seed = dealt
        try:
            game = new_game(
                kind.name,
                [s["name"] for s in seats],
                seed=seed,
                house_rules=HouseRules.from_dict(chosen),
                rounds=spec.rounds,
            )
        except (TypeError, ValueError) as exc:
            raise ServiceError(400, str(exc)) from None
        game_id = secrets.token_urlsafe(8)
        mode = "online" if online else "screen"
        stored_spec = {
            "variant": kind.name,
            "seed": game.seed,
            "house_rules": game.house_rules.to_dict(),
            "rounds": spec.rounds,
            "mode": mode,
            "clock": clock,
            "rated": spec.rated,
            "rules_version": game.rules_version,  # replayed by it after a rules change
        }
        created = self.now()
        computers = sum(player.bot is not None for player in spec.players)
        if computers:
            try:
                await asyncio.to_thread(
                    self.bot_share.claim,
                    game_id,
                    computers == len(spec.players),
                    creator,
                    address,
                    created,
                )
            except TooManyBotGames as exc:
                raise ServiceError(429, exc.message, limit=exc.limit, most=exc.most) from None
        try:
            self.store.create(game_id, stored_spec, seats, created=created, bindings=bindings)
        except BaseException:
            if computers:
                self.bot_share.release(game_id)
            raise
        bots = await asyncio.to_thread(self.bot_players_of, seats)  # issue 36's BOT badges
        live = self._live_from(StoredGame(game_id, created, stored_spec, seats, []), bots)
        self._remember(live)
        self._wake_clock(live)
        await self._run_bots(live)
        for entry in answer:
            if entry["invite"]:
                entry["invite"] = f"/g/{game_id}?invite={entry['invite']}"
        return {"id": game_id, "mode": mode, "seats": answer}

    async def join(self, game_id: str, invite: str, player: str | None = None) -> dict[str, Any]:
        """Claim a seat with its invitation: a fresh token for this player only, and the
        invitation stops working, so nobody else (the creator included) holds the seat.
        ``player`` (the session cookie's) is bound to the seat in the same transaction,
        so the cookie opens it from then on; one player takes one seat of a game (409)."""
        live = self.get(game_id)
        digest = token_hash(invite)
        async with live.lock:
            live, _changed = await self._catch_up(self.get(game_id), seats=True)
            seat = next(
                (
                    i
                    for i, s in enumerate(live.seats)
                    if (kept := s.get("invite_hash")) and secrets.compare_digest(kept, digest)
                ),
                None,
            )
            if seat is None:
                raise ServiceError(403, _("this invitation does not open any seat of this game"))
            info = live.seats[seat]
            if info.get("token_hash"):
                raise ServiceError(
                    409,
                    _(
                        "this invitation to {name}'s seat has been used already: "
                        "ask the game's creator",
                        name=info["name"],
                    ),
                )
            held = live.seat_of_player(player)
            if held is not None:
                raise ServiceError(
                    409,
                    _(
                        "you already sit at this game as {name}: one player takes one seat "
                        "(pass this invitation to the person it is for)",
                        name=live.seats[held]["name"],
                    ),
                    seat=held,
                )
            token = secrets.token_urlsafe(18)
            after = [s.copy() for s in live.seats]
            after[seat]["token_hash"] = token_hash(token)
            after[seat]["joined"] = self.now()  # O4: first moves are timed once all are in
            bind = None
            if player is not None:
                after[seat]["player"] = player
                bind = {seat: player}
            if not self.store.update_seats(game_id, live.seats, after, bind):
                self.reload(live)
                raise ServiceError(409, _("this invitation was claimed at the same moment"))
            if player is not None:  # a bot account's seat is marked BOT (issue 36)
                live.bot_players = await asyncio.to_thread(
                    self.bot_players_of, after, live.bot_players
                )
            live.seats = after
            self._wake_clock(live)  # every seat taken: the first move's time counts (O4)
        await self._broadcast(live)  # views built outside the lock
        return {"id": game_id, "seat": seat, "name": info["name"], "token": token}

    async def invitations(self, game_id: str, token: str) -> dict[str, Any]:
        """Online, the invitations not claimed yet, again, for the game's creator (the
        page that shows them can be reloaded): as :meth:`create` answered them, each
        seat ``claimed`` or with its ``invite``, and the creator's own seat with its
        token. Only the creator's token gives them: an invitation is derived from it
        (:func:`invitation`) and the store keeps its hash only."""
        refusal = _("only the game's creator holds its invitations: ask them for yours")
        seated = await self.seated_async(game_id, token)
        if seated.seat is None:
            raise ServiceError(403, refusal)
        live = seated.live
        stored = await asyncio.to_thread(self.store.seats, game_id)
        seats = stored if stored is not None else live.seats
        answer: list[dict[str, Any]] = []
        if not any(info.get("invite_hash") for info in seats):
            raise ServiceError(404, _("this game has no invitations: it is played at one screen"))
        if seats[seated.seat].get("invite_hash"):  # a seat joined by its invitation
            raise ServiceError(403, refusal)
        for seat, info in enumerate(seats):
            claimed = bool(info.get("token_hash"))  # as :meth:`create` says: a person's
            entry = {
                "seat": seat,
                "name": info["name"],
                "bot": info.get("bot"),
                "token": None,
                "invite": None,
                "claimed": claimed,
            }
            if seat == seated.seat:
                entry["token"] = token
            elif info.get("invite_hash"):
                invite = invitation(token, seat)
                if not secrets.compare_digest(token_hash(invite), info.get("invite_hash") or ""):
                    raise ServiceError(403, refusal)
                if not info.get("token_hash"):
                    entry["invite"] = f"/g/{game_id}?invite={invite}"
            answer.append(entry)
        return {"id": game_id, "mode": live.mode, "seats": answer}

    async def import_record(
        self, data: Any, mode: str = "screen", again: bool = False
    ) -> dict[str, Any]:
        """Store an uploaded game record as a game played at one screen, its computer
        seats (the record's ``bots``, or a name holding ``bot:LEVEL`` in older records)
        played on by the computer: the uploader gets every person's token to go on.

        A record fixes the deal (its seed or setup), so whoever uploads it knows every
        rack and the bag: a game still to be played from it can never be an online game
        (O1), and asking for one is refused. A finished game may be uploaded either way.

        One game per record: the same record uploaded again (its canonical JSON's
        fingerprint) answers the game made from it, ``existing`` and without tokens (the
        browser that uploaded it holds them); ``again`` makes a new game all the same."""
        try:
            if isinstance(data, str):
                data = records.loads(data)
            game = registry.from_record(data)
            bots = records.bots_of(data) or seat_levels(game.players)
        except MathableError as exc:
            raise ServiceError(
                400, _("this record cannot be read: {problem}", problem=exc)
            ) from None
        for seat, level in bots.items():
            if level not in BOTS:
                raise ServiceError(
                    400,
                    _(
                        "this record cannot be read: seat {number} was played by the computer "
                        "level {level}, which this server has not ({levels})",
                        number=seat + 1,
                        level=repr(level),
                        levels=", ".join(BOTS),
                    ),
                )
        if mode == "online" and not game.is_over:
            raise ServiceError(
                422,
                _(
                    "mode: a record fixes the deal, so its uploader knows every rack and the "
                    "bag; a game from a record is played at one screen (O1). For an online "
                    "game, create a new one: the server deals it"
                ),
            )
        canonical = json.dumps(records.to_record(game, bots), sort_keys=True, separators=(",", ":"))
        fingerprint = None if again else token_hash(canonical)
        if fingerprint is not None:
            known = await asyncio.to_thread(self.store.made_from, fingerprint)
            if known is not None:
                return self._made_before(known)
        tokens = {seat: secrets.token_urlsafe(18) for seat in range(len(game.players))}
        for seat in bots:
            del tokens[seat]
        seats: list[StoredSeat] = [
            {
                "name": name,
                "bot": bots.get(seat),
                "token_hash": token_hash(tokens[seat]) if seat in tokens else None,
            }
            for seat, name in enumerate(game.players)
        ]
        fields = game.record_fields()
        spec: dict[str, Any] = {
            "variant": game.name,
            "seed": game.seed,
            "house_rules": game.house_rules.to_dict(),
            "rounds": fields.get("rounds", 1),
            "mode": "screen",
            "rules_version": game.rules_version,  # the record's: played on by its rules
        }
        if fields.get("setup") is not None:  # a chosen deal: kept server-side only
            spec["setup"] = fields["setup"]
        game_id = secrets.token_urlsafe(8)
        actions = [game.format_action(a) for a in game.log]
        try:
            await asyncio.to_thread(self.store.create, game_id, spec, seats, actions, fingerprint)
        except ConflictError:  # the same record, uploaded at the same moment
            known = await asyncio.to_thread(self.store.made_from, fingerprint or "")
            if known is None:
                raise ServiceError(409, _("this record was being uploaded: try again")) from None
            return self._made_before(known)
        live = await asyncio.to_thread(self.get, game_id)
        await self._run_bots(live)  # the computer seats play on
        return {
            "id": game_id,
            "mode": "screen",
            "seats": [
                {
                    "seat": i,
                    "name": n,
                    "bot": bots.get(i),
                    "token": tokens.get(i),
                    "claimed": True,
                }
                for i, n in enumerate(game.players)
            ],
        }

    def _made_before(self, game_id: str) -> dict[str, Any]:
        """The game already made from an uploaded record, without its tokens."""
        live = self.get(game_id)  # its computer players set going if one is to move
        return {
            "id": game_id,
            "mode": live.mode,
            "existing": True,
            "seats": [
                {
                    "seat": i,
                    "name": s["name"],
                    "bot": s["bot"],
                    "token": None,
                    "claimed": bool(s["bot"] or s.get("token_hash")),
                }
                for i, s in enumerate(live.seats)
            ],
        }
