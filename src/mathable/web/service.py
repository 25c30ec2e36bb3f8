"""The service layer between HTTP and the engine: games from the event store, seats and
their secret tokens, actions serialised per game, bots, and what each viewer may see.

Routes stay thin: they call these methods and turn :class:`ServiceError` into a 4xx.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mathable.ai import BOTS, Bot, get_bot
from mathable.engine.actions import Challenge
from mathable.engine.errors import IllegalMove, MathableError, NotationError
from mathable.engine.protocol import Game, HouseRules
from mathable.games import registry
from mathable.games.quattro.game import QuattroGame
from mathable.games.registry import GAMES, new_game

from .store import ConflictError, EventStore, StoredGame


class ServiceError(Exception):
    """A refusal with its HTTP status and a message for people."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


Listener = Callable[[dict[str, Any]], Any]


@dataclass
class LiveGame:
    """A game in memory, rebuilt from the store, with its lock and its listeners."""

    id: str
    game: Game
    seats: list[dict[str, Any]]
    created: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: dict[int, tuple[int | None, Listener]] = field(default_factory=dict)
    bots: dict[int, Bot] = field(default_factory=dict)

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens; None for no token. A wrong token is refused."""
        if not token:
            return None
        digest = _hash(token)
        for seat, info in enumerate(self.seats):
            if info.get("token_hash") and secrets.compare_digest(info["token_hash"], digest):
                return seat
        raise ServiceError(403, "this link's token does not open any seat of this game")


class GameService:
    """Every game the server knows, backed by the event store."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.live: dict[str, LiveGame] = {}
        self._listener_ids = 0

    # -- creating and loading -----------------------------------------------------------

    async def create(self, spec: dict[str, Any]) -> dict[str, Any]:
        """Create a game; returns its id and one secret token per person's seat."""
        variant = str(spec.get("variant", "classic"))
        if variant not in GAMES:
            raise ServiceError(400, f"unknown game {variant!r}; choose one of {', '.join(GAMES)}")
        players = spec.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 4:
            raise ServiceError(400, "players: a list of 2 to 4 seats")
        seats, tokens = [], []
        for number, player in enumerate(players, start=1):
            if not isinstance(player, dict):
                raise ServiceError(400, f"seat {number}: an object with a name and maybe a bot")
            name = str(player.get("name") or f"Player {number}")[:40]
            bot = player.get("bot")
            if bot is not None and bot not in BOTS:
                raise ServiceError(400, f"seat {number}: unknown bot {bot!r} ({', '.join(BOTS)})")
            token = None if bot else secrets.token_urlsafe(18)
            tokens.append(token)
            seats.append({"name": name, "bot": bot, "token_hash": _hash(token) if token else None})
        house = spec.get("house_rules") or {}
        if not isinstance(house, dict):
            raise ServiceError(400, "house_rules: an object of true/false options")
        seed = spec.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
            raise ServiceError(400, "seed: a whole number, 0 or more")
        rounds = spec.get("rounds", 1)
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 99:
            raise ServiceError(400, "rounds: 1 to 99")
        try:
            rules = HouseRules.from_dict(house)
            game = new_game(
                variant, [s["name"] for s in seats], seed=seed, house_rules=rules, rounds=rounds
            )
        except (TypeError, ValueError) as exc:
            raise ServiceError(400, str(exc)) from None
        game_id = secrets.token_urlsafe(8)
        stored_spec = {
            "variant": variant,
            "seed": game.seed,
            "house_rules": game.house_rules.to_dict(),
            "rounds": rounds,
        }
        self.store.create(game_id, stored_spec, seats)
        live = self._live_from(StoredGame(game_id, 0.0, stored_spec, seats, []))
        self.live[game_id] = live
        await self._run_bots(live)
        return {
            "id": game_id,
            "seats": [
                {"seat": i, "name": s["name"], "bot": s["bot"], "token": tokens[i]}
                for i, s in enumerate(seats)
            ],
        }

    async def import_record(self, data: Any) -> dict[str, Any]:
        """Store an uploaded game record as a game; tokens let the uploader go on."""
        try:
            game = registry.from_record(data)
        except MathableError as exc:
            raise ServiceError(400, f"this record cannot be read: {exc}") from None
        if game.setup is not None:
            raise ServiceError(400, "records with a chosen deal (setup) cannot be imported yet")
        tokens = [secrets.token_urlsafe(18) for _ in game.players]
        seats = [
            {"name": name, "bot": None, "token_hash": _hash(t)}
            for name, t in zip(game.players, tokens, strict=True)
        ]
        spec = {
            "variant": game.variant.name,
            "seed": game.seed,
            "house_rules": game.house_rules.to_dict(),
            "rounds": game.rounds if isinstance(game, QuattroGame) else 1,
        }
        game_id = secrets.token_urlsafe(8)
        self.store.create(game_id, spec, seats)
        for seq, action in enumerate(game.log):
            self.store.append(game_id, seq, game.format_action(action), None)
        return {
            "id": game_id,
            "seats": [
                {"seat": i, "name": n, "bot": None, "token": tokens[i]}
                for i, n in enumerate(game.players)
            ],
        }

    def _live_from(self, stored: StoredGame) -> LiveGame:
        spec = stored.spec
        game = new_game(
            spec["variant"],
            [s["name"] for s in stored.seats],
            seed=spec["seed"],
            house_rules=HouseRules.from_dict(spec.get("house_rules") or {}),
            rounds=spec.get("rounds", 1),
        )
        for text in stored.actions:
            game.apply(game.parse_action(text))
        bots = {
            seat: get_bot(info["bot"], spec["seed"] * 8 + seat)
            for seat, info in enumerate(stored.seats)
            if info.get("bot")
        }
        return LiveGame(stored.id, game, stored.seats, stored.created, bots=bots)

    def get(self, game_id: str) -> LiveGame:
        """The live game, rebuilt from the store after a restart."""
        live = self.live.get(game_id)
        if live is None:
            stored = self.store.load(game_id)
            if stored is None:
                raise ServiceError(404, f"there is no game {game_id!r}")
            live = self._live_from(stored)
            self.live[game_id] = live
        return live

    def reload(self, live: LiveGame) -> LiveGame:
        """Forget the memory copy and replay the store (after a lost race)."""
        self.live.pop(live.id, None)
        fresh = self.get(live.id)
        fresh.listeners = live.listeners
        fresh.lock = live.lock
        return fresh

    # -- acting -----------------------------------------------------------------------

    async def act(
        self, game_id: str, token: str | None, text: Any, expected_seq: Any = None
    ) -> dict[str, Any]:
        """Play ``text`` for the seat the token opens; refusals change nothing."""
        live = self.get(game_id)
        seat = live.seat_of(token)
        if seat is None:
            raise ServiceError(403, "spectators cannot play: open your seat's private link")
        if not isinstance(text, str) or not text.strip() or len(text) > 100:
            raise ServiceError(400, "action: a text such as I8=12, end, pass or exchange 3,5")
        if expected_seq is not None and (
            not isinstance(expected_seq, int) or isinstance(expected_seq, bool)
        ):
            raise ServiceError(400, "seq: the number of actions you have seen")
        async with live.lock:
            live = self.get(game_id)
            game = live.game
            if expected_seq is not None and expected_seq != len(game.log):
                raise ServiceError(
                    409,
                    f"the game has moved on (action {len(game.log)}, you saw {expected_seq}): "
                    "look again",
                    seq=len(game.log),
                )
            try:
                action = game.parse_action(text)
            except NotationError as exc:
                raise ServiceError(400, str(exc)) from None
            is_challenge = isinstance(action, Challenge)
            if game.is_over:
                raise ServiceError(409, "the game is over")
            if seat != game.to_move and not is_challenge:
                raise ServiceError(
                    409, f"it is {game.players[game.to_move]}'s turn, not yours", seq=len(game.log)
                )
            seq = len(game.log)
            try:
                game.apply(action)
            except IllegalMove as exc:
                raise ServiceError(
                    422, str(exc), rule=exc.rule, where=exc.where, reason=exc.reason
                ) from None
            try:
                self.store.append(game_id, seq, game.format_action(action), seat)
            except ConflictError:
                self.reload(live)
                raise ServiceError(409, "another action came first: look again") from None
            await self._broadcast(live)
            await self._run_bots(live)
        return self.view(live, seat)

    async def _run_bots(self, live: LiveGame) -> None:
        """Let computer players move until a person is to move (or the game ends)."""
        game = live.game
        while not game.is_over and game.to_move in live.bots:
            seat = game.to_move
            action = await asyncio.to_thread(live.bots[seat].act, game.view(seat))
            seq = len(game.log)
            game.apply(action)
            self.store.append(live.id, seq, game.format_action(action), seat)
            await self._broadcast(live)

    # -- seeing -------------------------------------------------------------------------

    def view(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see, plus the legal actions if to move."""
        game = live.game
        if isinstance(game, Game):
            data = game.view(seat).to_dict(game.board.grid.name)
        else:
            data = game.view(seat).to_dict()
        data["id"] = live.id
        data["seq"] = len(game.log)
        data["seats"] = [{"name": s["name"], "bot": s["bot"]} for s in live.seats]
        data["title"] = GAMES[game.variant.name].title
        if seat is not None and seat == game.to_move and not game.is_over:
            data["legal"] = sorted({game.format_action(a) for a in game.legal_actions()})
        else:
            data["legal"] = []
        if (
            isinstance(game, Game)
            and seat is not None
            and game.can_challenge
            and "challenge" not in data["legal"]
        ):
            data["legal"].append("challenge")
        if game.is_over:
            data["winners"] = list(game.winners())
        return data

    def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The strong player's best turns for the seat to move, from that seat's view."""
        import random

        from mathable.ai.quattro import quattro_act
        from mathable.ai.strong import rank_plans

        live = self.get(game_id)
        seat = live.seat_of(token)
        game = live.game
        if seat is None or seat != game.to_move or game.is_over:
            raise ServiceError(409, "a hint is for the player to move, with their own link")
        view = game.view(seat)
        if isinstance(game, QuattroGame):
            action = quattro_act(view, "strong", random.Random(0))  # type: ignore[arg-type]
            return {"turns": [{"turn": game.format_action(action), "points": None}]}
        grid = game.board.grid
        plans = [plan for _, plan in rank_plans(view) if plan.placements][:3]  # type: ignore[arg-type]
        return {
            "turns": [
                {
                    "turn": " ".join(f"{grid.name(c)}={v}" for c, v in plan.placements),
                    "points": plan.total,
                }
                for plan in plans
            ]
        }

    def summary(self, game_id: str, created: float) -> dict[str, Any]:
        live = self.get(game_id)
        game = live.game
        return {
            "id": game_id,
            "created": created,
            "variant": game.variant.name,
            "players": [s["name"] for s in live.seats],
            "bots": [s["bot"] for s in live.seats],
            "scores": list(game.scores),
            "actions": len(game.log),
            "over": game.is_over,
            "to_move": None if game.is_over else game.players[game.to_move],
        }

    def finished(self, game_id: str) -> Game:
        """The game, once over (records, replays and analysis reveal every rack)."""
        live = self.get(game_id)
        if not live.game.is_over:
            raise ServiceError(
                409, "the game is still being played: its record and replay open at the end"
            )
        return live.game

    # -- live updates -----------------------------------------------------------------

    def listen(self, game_id: str, seat: int | None, listener: Listener) -> int:
        live = self.get(game_id)
        self._listener_ids += 1
        live.listeners[self._listener_ids] = (seat, listener)
        return self._listener_ids

    def unlisten(self, game_id: str, key: int) -> None:
        live = self.live.get(game_id)
        if live is not None:
            live.listeners.pop(key, None)

    async def _broadcast(self, live: LiveGame) -> None:
        for key, (seat, listener) in list(live.listeners.items()):
            try:
                result = listener({"type": "view", "view": self.view(live, seat)})
                if asyncio.iscoroutine(result):
                    await result
            except Exception:  # a closed socket: forget it
                live.listeners.pop(key, None)
