"""The service layer between HTTP and the engine: games from the event store, seats and
their secret tokens, actions serialised per game, computer players, and what each viewer
may see.

It never asks which game it holds: games are created by name through the registry, and
all it sends is a game's :class:`~mathable.engine.protocol.View` and its ``game_type``
capabilities. Routes stay thin: they call these methods and turn :class:`ServiceError`
into a 4xx answer.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mathable.ai import BOTS, Bot, get_bot
from mathable.ai.analysis import analysis_report
from mathable.ai.hints import hints
from mathable.engine.actions import Challenge, action_kind
from mathable.engine.errors import IllegalMove, MathableError, NotationError
from mathable.engine.protocol import Game, GameType, HouseRules, View
from mathable.games import registry
from mathable.games.board.transcript import format_transcript, score_transcript
from mathable.games.board.variants import get_variant
from mathable.games.registry import GAMES, new_game

from .schemas import NewGame
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
    mode: str = "screen"
    """``online`` (from several devices: seed secret, invitations) or ``screen``."""
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


@dataclass(frozen=True)
class Seated:
    """A game and the seat its viewer's token opens (None: a spectator)."""

    live: LiveGame
    seat: int | None


def board_json(kind: GameType) -> dict[str, Any]:
    """A board's squares for drawing (the ``board`` key of ``/api/variants``)."""
    return {
        "size": kind.columns,
        "squares": [{"kind": t.kind, "label": t.label} for t in kind.targets],
    }


def view_data(game: Game, view: View) -> dict[str, Any]:
    """A view as JSON, with cells named and what to highlight and note per target."""
    name = game.cell_names.name
    data = view.to_dict(name)
    data["recent"] = [name(c) for c in view.recent_targets]
    data["target_notes"] = list(view.target_notes)
    data["notice"] = view.notice
    return data


HINTS_OFF = (
    "hints are off in this game: the computer's help is a house rule (hints) that every "
    "seat can see, chosen when the game is created (O2)"
)

WRITTEN_OUT = frozenset({"place", "extra", "exchange"})
"""Action keywords that are not an action by themselves (they take cells or values)."""


def sheet_games() -> list[str]:
    """The games whose paper score sheets can be scored."""
    return [name for name, kind in GAMES.items() if kind.score_sheets]


class GameService:
    """Every game the server knows, backed by the event store."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.live: dict[str, LiveGame] = {}
        self._listener_ids = 0

    # -- the catalogue ------------------------------------------------------------------

    @staticmethod
    def variants() -> list[dict[str, Any]]:
        """Every game: its metadata, its board (games played on one), its capabilities."""
        out = []
        for name, kind in GAMES.items():
            entry: dict[str, Any] = {
                "name": name,
                "title": kind.title,
                "summary": kind.summary,
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
    def bots() -> list[dict[str, str]]:
        """The computer players, weakest first."""
        return [{"name": n, "description": d} for n, (_, d) in BOTS.items()]

    # -- creating and loading -----------------------------------------------------------

    async def create(self, spec: NewGame) -> dict[str, Any]:
        """Create a game; returns its id and its seats.

        At one screen (or against the computer) the creator gets every person's token.
        Online (O1, tokens), the server deals from ``secrets`` and keeps the seed until
        the end; the creator gets their own seat's token and an invitation link for each
        other person, claimed once by whoever follows it (:meth:`join`)."""
        try:
            kind = registry.game_type(spec.variant)
        except ValueError as exc:
            raise ServiceError(400, str(exc)) from None
        if not kind.min_players <= len(spec.players) <= kind.max_players:
            raise ServiceError(
                400, f"players: a list of {kind.min_players} to {kind.max_players} seats"
            )
        for number, player in enumerate(spec.players, start=1):
            if player.bot is not None and player.bot not in BOTS:
                raise ServiceError(
                    400, f"seat {number}: unknown bot {player.bot!r} ({', '.join(BOTS)})"
                )
        people = [i for i, p in enumerate(spec.players) if p.bot is None]
        online = len(people) > 1 and spec.mode != "screen"
        if online and spec.seed is not None:
            raise ServiceError(
                422,
                "seed: an online game is dealt by the server and its seed stays secret until "
                "the end (O1); a chosen seed is for games at one screen or against the computer",
            )
        mine = people[0] if people else None
        if spec.seat is not None:
            if spec.seat not in people:
                raise ServiceError(
                    422, f"seat: the creator's seat must be a person's seat ({people})"
                )
            mine = spec.seat
        chosen = dict(spec.house_rules)
        for rule in chosen:
            if rule not in kind.house_rules:
                raise ServiceError(
                    422,
                    f"house_rules.{rule}: {kind.title} offers "
                    f"{', '.join(kind.house_rules) or 'no house rules'}",
                )
        if "hints" in kind.house_rules:
            chosen.setdefault("hints", not online)  # O2: off online, on at one screen
        seats: list[dict[str, Any]] = []
        answer: list[dict[str, Any]] = []
        for number, player in enumerate(spec.players, start=1):
            seat = number - 1
            name = (player.name or f"Player {number}")[:40]
            token = invite = None
            if player.bot is None and (not online or seat == mine):
                token = secrets.token_urlsafe(18)
            elif player.bot is None:
                invite = secrets.token_urlsafe(18)
            seats.append(
                {
                    "name": name,
                    "bot": player.bot,
                    "token_hash": _hash(token) if token else None,
                    "invite_hash": _hash(invite) if invite else None,
                }
            )
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
        seed = secrets.randbelow(2**63) if online or spec.seed is None else spec.seed
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
        }
        self.store.create(game_id, stored_spec, seats)
        live = self._live_from(StoredGame(game_id, 0.0, stored_spec, seats, []))
        self.live[game_id] = live
        await self._run_bots(live)
        for entry in answer:
            if entry["invite"]:
                entry["invite"] = f"/g/{game_id}?invite={entry['invite']}"
        return {"id": game_id, "mode": mode, "seats": answer}

    async def join(self, game_id: str, invite: str) -> dict[str, Any]:
        """Claim a seat with its invitation: a fresh token for this player only, and the
        invitation stops working, so nobody else (the creator included) holds the seat."""
        live = self.get(game_id)
        digest = _hash(invite)
        async with live.lock:
            live = self.get(game_id)
            seat = next(
                (
                    i
                    for i, s in enumerate(live.seats)
                    if s.get("invite_hash") and secrets.compare_digest(s["invite_hash"], digest)
                ),
                None,
            )
            if seat is None:
                raise ServiceError(403, "this invitation does not open any seat of this game")
            info = live.seats[seat]
            if info.get("token_hash"):
                raise ServiceError(
                    409,
                    f"this invitation to {info['name']}'s seat has been used already: "
                    "ask the game's creator",
                )
            token = secrets.token_urlsafe(18)
            after = [dict(s) for s in live.seats]
            after[seat]["token_hash"] = _hash(token)
            if not self.store.update_seats(game_id, live.seats, after):
                self.reload(live)
                raise ServiceError(409, "this invitation was claimed at the same moment")
            live.seats = after
            await self._broadcast(live)
        return {"id": game_id, "seat": seat, "name": info["name"], "token": token}

    async def import_record(self, data: Any, mode: str = "screen") -> dict[str, Any]:
        """Store an uploaded game record as a game played at one screen: the uploader
        gets every seat's token to go on.

        A record fixes the deal (its seed or setup), so whoever uploads it knows every
        rack and the bag: a game still to be played from it can never be an online game
        (O1), and asking for one is refused. A finished game may be uploaded either way."""
        try:
            game = registry.from_record(data)
        except MathableError as exc:
            raise ServiceError(400, f"this record cannot be read: {exc}") from None
        if mode == "online" and not game.is_over:
            raise ServiceError(
                422,
                "mode: a record fixes the deal, so its uploader knows every rack and the bag; "
                "a game from a record is played at one screen (O1). For an online game, "
                "create a new one: the server deals it",
            )
        tokens = [secrets.token_urlsafe(18) for _ in game.players]
        seats = [
            {"name": name, "bot": None, "token_hash": _hash(t)}
            for name, t in zip(game.players, tokens, strict=True)
        ]
        fields = game.record_fields()
        spec: dict[str, Any] = {
            "variant": game.name,
            "seed": game.seed,
            "house_rules": game.house_rules.to_dict(),
            "rounds": fields.get("rounds", 1),
            "mode": "screen",
        }
        if fields.get("setup") is not None:  # a chosen deal: kept server-side only
            spec["setup"] = fields["setup"]
        game_id = secrets.token_urlsafe(8)
        self.store.create(game_id, spec, seats)
        for seq, action in enumerate(game.log):
            self.store.append(game_id, seq, game.format_action(action), None)
        return {
            "id": game_id,
            "mode": "screen",
            "seats": [
                {"seat": i, "name": n, "bot": None, "token": tokens[i], "claimed": True}
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
            setup=spec.get("setup"),
        )
        for text in stored.actions:
            game.apply(game.parse_action(text))
        bots = {
            seat: get_bot(info["bot"], spec["seed"] * 8 + seat)
            for seat, info in enumerate(stored.seats)
            if info.get("bot")
        }
        mode = spec.get("mode", "screen")
        return LiveGame(stored.id, game, stored.seats, stored.created, mode, bots=bots)

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

    def seated(self, game_id: str, token: str | None) -> Seated:
        """The game and the seat ``token`` opens (no token: a spectator; 403 a wrong one)."""
        live = self.get(game_id)
        return Seated(live, live.seat_of(token))

    def reload(self, live: LiveGame) -> LiveGame:
        """Forget the memory copy and replay the store (after a lost race)."""
        self.live.pop(live.id, None)
        fresh = self.get(live.id)
        fresh.listeners = live.listeners
        fresh.lock = live.lock
        return fresh

    # -- acting -----------------------------------------------------------------------

    async def act(self, seated: Seated, text: Any, expected_seq: Any = None) -> dict[str, Any]:
        """Play ``text`` for the seat; refusals change nothing."""
        seat, game_id = seated.seat, seated.live.id
        if seat is None:
            raise ServiceError(403, "spectators cannot play: open your seat's private link")
        if not isinstance(text, str) or not text.strip() or len(text) > 100:
            raise ServiceError(400, "action: a text such as I8=12, end, pass or exchange 3,5")
        if expected_seq is not None and (
            not isinstance(expected_seq, int) or isinstance(expected_seq, bool)
        ):
            raise ServiceError(400, "seq: the number of actions you have seen")
        live = self.get(game_id)
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
            if game.is_over:
                raise ServiceError(409, "the game is over")
            if action_kind(action) == "challenge":
                action = self._challenge(game, seat)
            elif seat != game.to_move:
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

    @staticmethod
    def _challenge(game: Game, seat: int) -> Challenge:
        """C12: any opponent of the player who made the turn may challenge it until the
        next player acts, whoever is to move (a game-ending turn waits for it); the
        player who made it may not."""
        view = game.view(seat)
        if "challenge" not in view.available:
            if not game.house_rules.table_referee:
                reason = "there are no challenges without the table-referee house rule (C12)"
            elif view.summaries and view.summaries[-1].seat == seat:
                reason = "you made that turn: only your opponents may challenge it (C12)"
            else:
                reason = "nothing to challenge: a challenge comes before the next player acts (C12)"
            raise ServiceError(409, reason, seq=len(game.log))
        return Challenge(by=seat)

    async def _run_bots(self, live: LiveGame) -> None:
        """Let computer players move until a person is to move (or the game ends)."""
        game = live.game
        while not game.is_over and game.to_move in live.bots:
            seat = game.to_move
            action = await asyncio.to_thread(live.bots[seat].act, game.view(seat))
            seq = len(game.log)
            try:
                game.apply(action)
            except IllegalMove:  # a computer player that cannot answer: the engine's first
                choices = game.legal_actions()  # legal action, so the server never stalls
                if not choices:
                    return
                action = choices[0]
                game.apply(action)
            self.store.append(live.id, seq, game.format_action(action), seat)
            await self._broadcast(live)

    # -- seeing -------------------------------------------------------------------------

    def view(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see, plus the legal actions if to move."""
        game = live.game
        view = game.view(seat)
        data = view_data(game, view)
        data["id"] = live.id
        data["seq"] = len(game.log)
        data["seats"] = [
            {"name": s["name"], "bot": s["bot"], "claimed": bool(s["bot"] or s.get("token_hash"))}
            for s in live.seats
        ]
        data["title"] = game.game_type.title
        data["mode"] = live.mode
        legal: list[str] = []
        if seat is not None and seat == game.to_move and not game.is_over:
            legal = sorted({game.format_action(a) for a in game.legal_actions()})
        for keyword in view.available:  # a word alone: challenge, accept, decline...
            if keyword not in WRITTEN_OUT and keyword not in legal:
                legal.append(keyword)
        data["legal"] = legal
        if game.is_over:
            data["winners"] = list(game.winners())
            data["seed"] = game.seed  # O1: the deal is no secret any more
        return data

    async def hint(self, seated: Seated) -> dict[str, Any]:
        """The best turns for the seat to move, searched from that seat's view only."""
        game, seat = seated.live.game, seated.seat
        if not game.house_rules.hints:
            raise ServiceError(403, HINTS_OFF)
        if seat is None or seat != game.to_move or game.is_over:
            raise ServiceError(409, "a hint is for the player to move, with their own link")
        name = game.cell_names.name
        found = await asyncio.to_thread(hints, game.view(seat))
        return {
            "turns": [
                {"turn": h.notation, "points": h.points, "cells": [name(c) for c in h.cells]}
                for h in found
            ]
        }

    def summary(self, game_id: str, created: float) -> dict[str, Any]:
        """A game in the list of games: who plays, the scores, whether it is over."""
        live = self.get(game_id)
        game = live.game
        return {
            "id": game_id,
            "created": created,
            "variant": game.name,
            "players": [s["name"] for s in live.seats],
            "bots": [s["bot"] for s in live.seats],
            "scores": list(game.scores),
            "actions": len(game.log),
            "over": game.is_over,
            "to_move": None if game.is_over else game.players[game.to_move],
            "mode": live.mode,
        }

    def games(self, limit: int) -> list[dict[str, Any]]:
        """The newest games first."""
        return [self.summary(i, created) for i, created in self.store.list_ids(limit)]

    # -- after the game ---------------------------------------------------------------

    def finished(self, game_id: str) -> Game:
        """The game, once over (records, replays and analysis reveal every rack)."""
        live = self.get(game_id)
        if not live.game.is_over:
            raise ServiceError(
                409, "the game is still being played: its record and replay open at the end"
            )
        return live.game

    @staticmethod
    def transcript(game: Game) -> str:
        """The game's score sheet, for games that have them."""
        kind = game.game_type
        if not kind.score_sheets:
            raise ServiceError(
                400, f"score sheets are for {', '.join(sheet_games())}: {kind.title} has none"
            )
        return format_transcript(game)

    @staticmethod
    def replay(game: Game, step: int) -> dict[str, Any]:
        """The public view after the first ``step`` actions, and the last of them."""
        total = len(game.log)
        step = min(step, total)
        past = game.replayed(step)
        last = game.format_action(game.log[step - 1]) if step else None
        return {
            "step": step,
            "total": total,
            "action": last,
            "view": view_data(past, past.view(None)),
        }

    @staticmethod
    async def analysis(game: Game) -> dict[str, Any]:
        """Per turn, what was played against the best turn available (off the loop)."""
        return await asyncio.to_thread(analysis_report, game)

    async def analysis_for(self, seated: Seated) -> dict[str, Any]:
        """The analysis: of the whole game for everyone once it is over; during the game
        only with the house rule hints (O2), for a seat and of its own turns (the others'
        would show their racks)."""
        game, seat = seated.live.game, seated.seat
        if game.is_over:
            return await self.analysis(game)
        if not game.house_rules.hints:
            raise ServiceError(
                409,
                "the game is still being played: its analysis opens to all at the end "
                "(during the game it needs the house rule hints, O2)",
            )
        if seat is None:
            raise ServiceError(
                409,
                "the game is still being played: during the game a seat sees the analysis "
                "of its own turns, with its own link; all of it opens at the end",
            )
        report = await self.analysis(game)
        seats = [summary.seat for summary in game.summaries()]
        report["turns"] = [t for t in report["turns"] if seats[t["turn"] - 1] == seat]
        report["players"] = [report["players"][seat]]
        return report

    @staticmethod
    def score_sheet(text: str, variant: str) -> dict[str, Any]:
        """A paper score sheet scored turn by turn."""
        if variant not in sheet_games():
            raise ServiceError(400, f"score sheets are for {', '.join(sheet_games())}")
        try:
            return score_transcript(text, get_variant(variant)).to_dict()
        except MathableError as exc:
            raise ServiceError(422, str(exc)) from None

    # -- live updates -----------------------------------------------------------------

    def listen(self, seated: Seated, listener: Listener) -> int:
        """Call ``listener`` with the seat's view after every action; returns its key."""
        self._listener_ids += 1
        self.get(seated.live.id).listeners[self._listener_ids] = (seated.seat, listener)
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
