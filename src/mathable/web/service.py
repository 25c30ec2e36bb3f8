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
import contextlib
import hashlib
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from mathable.ai import BOTS
from mathable.engine import records
from mathable.engine.actions import Action, Challenge, action_kind
from mathable.engine.errors import IllegalMove, MathableError, NotationError
from mathable.engine.protocol import Game, GameType, HouseRules, View
from mathable.games import registry
from mathable.games.board.transcript import format_transcript, score_transcript
from mathable.games.board.variants import get_variant
from mathable.games.registry import GAMES, new_game

from .connections import Encoded, ViewMessage
from .schemas import NewGame
from .store import ConflictError, EventStore, StoredGame
from .workers import (
    Workers,
    analyse_record,
    bot_move,
    hint_turns,
    summarise,
    summary_data,
)
from .workers import replay as replay_game

log = logging.getLogger(__name__)


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
    bots: dict[int, str] = field(default_factory=dict)
    """The computer players' seats and levels (they move in the worker pool)."""
    views: dict[int | None, tuple[Game, int, list[dict[str, Any]], ViewMessage]] = field(
        default_factory=dict
    )
    """Each seat's last view (None: a spectator's) and what it was made from (the game,
    its number of actions, the seats): built and encoded once per action, however many
    sockets and answers it goes to (:meth:`GameService.view_message`); kept while the
    game has listeners."""

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

    def __init__(
        self, store: EventStore, workers: Workers | None = None, live_games: int = 500
    ) -> None:
        self.store = store
        self.workers = workers or Workers()
        self.live: OrderedDict[str, LiveGame] = OrderedDict()
        """Games in memory, least recently used first; at most ``live_games`` idle ones."""
        self.live_games = max(1, live_games)
        self._listener_ids = 0
        self._started = False
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self._resuming: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the change feed's target
        self._refreshes: set[asyncio.Task[None]] = set()
        self._memory = threading.RLock()
        """Guards :attr:`live` and the summaries (sync dependencies run on threads)."""
        self._summaries: OrderedDict[str, tuple[int, dict[str, Any]]] = OrderedDict()
        """The list of games' summaries by game, with the number of actions they are of."""
        self._analyses: OrderedDict[tuple[str, int], asyncio.Future[dict[str, Any]]]
        self._analyses = OrderedDict()
        """Finished games' analyses by (game, actions), being computed or done."""

    # -- start and stop (the app's lifespan) --------------------------------------------

    async def start(self) -> None:
        """Open the worker pool; from now on computer players move in the background,
        and every stored game whose computer player is to move is resumed."""
        self.workers.start()
        self._started = True
        self._loop = asyncio.get_running_loop()
        if self.store.postgresql:
            # the store's calls (asyncio.to_thread) wait on the server, mostly on its
            # commits: more of them at once than the default of cores + 4 (PostgreSQL
            # groups concurrent commits). SQLite writes one at a time: the default stays
            self._loop.set_default_executor(
                ThreadPoolExecutor(self.STORE_THREADS, thread_name_prefix="mathable-store")
            )
        self.store.watch(self.on_store_change)  # other processes' changes (issue 13)
        self._resuming = asyncio.create_task(self.resume())

    STORE_THREADS = 16
    """Threads for the store's calls on PostgreSQL (the event loop's default executor;
    SQLAlchemy's pool holds 15 connections)."""

    async def close(self) -> None:
        """Stop the background work (computer players, the resume) and the pool."""
        self._started = False
        self.store.unwatch()
        self._loop = None
        tasks = [t for t in (self._resuming, *self._bot_tasks.values()) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.to_thread(self.workers.shutdown)

    async def resume(self, page: int = 200) -> None:
        """Find the stored games whose computer player is to move (after a crash or a
        restart) and set their bots going, a page of games at a time: games without a
        computer player are skipped unread, the others are replayed in the worker pool,
        and only those with a bot to move are kept in memory."""
        offset = 0
        while True:
            rows = await asyncio.to_thread(self.store.games_page, offset, page)
            waiting = [
                game_id
                for game_id, seats in rows
                if any(s.get("bot") for s in seats) and game_id not in self._bot_tasks
            ]
            summaries = await asyncio.gather(*(self._stored_summary(i) for i in waiting))
            for found in summaries:
                if found is None or found["over"]:
                    continue
                if found["bots"][found["players"].index(found["to_move"])] is not None:
                    try:
                        self.get(found["id"])  # loaded: its bot set going
                    except ServiceError:
                        continue
            if len(rows) < page:
                return
            offset += page

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
        live = self._live_from(StoredGame(game_id, time.time(), stored_spec, seats, []))
        self._remember(live)
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
            live, _ = await self._catch_up(self.get(game_id), seats=True)
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
        await self._broadcast(live)  # views built outside the lock
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
        self.store.create(game_id, spec, seats, [game.format_action(a) for a in game.log])
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
        game = replay_game(spec, [s["name"] for s in stored.seats], stored.actions)
        bots = {seat: str(info["bot"]) for seat, info in enumerate(stored.seats) if info.get("bot")}
        mode = spec.get("mode", "screen")
        return LiveGame(stored.id, game, stored.seats, stored.created, mode, bots=bots)

    def get(self, game_id: str) -> LiveGame:
        """The live game, rebuilt from the store after a restart or an eviction (its
        computer player set going if it is to move). Called from the event loop and
        from the threads of sync dependencies alike."""
        with self._memory:
            live = self.live.get(game_id)
            if live is not None:
                self.live.move_to_end(game_id)
        if live is None:
            stored = self.store.load(game_id)
            if stored is None:
                raise ServiceError(404, f"there is no game {game_id!r}")
            live = self._remember(self._live_from(stored))
        self._wake_bots(live)
        return live

    def _remember(self, live: LiveGame) -> LiveGame:
        """Keep ``live`` in memory (most recently used; the copy already there if another
        thread loaded it first) and evict the least recently used idle games beyond
        ``live_games``: their summary is kept, the rest is reloaded on demand."""
        with self._memory:
            live = self.live.setdefault(live.id, live)
            self.live.move_to_end(live.id)
            if len(self.live) > self.live_games:
                for game_id in list(self.live):
                    if len(self.live) <= self.live_games:
                        break
                    old = self.live[game_id]
                    if game_id == live.id:
                        continue  # the game just asked for: it is about to be used
                    if old.listeners or game_id in self._bot_tasks or old.lock.locked():
                        continue  # watched, a bot thinking, or an action under way: kept
                    self._keep_summary(old)
                    del self.live[game_id]
        return live

    def seated(self, game_id: str, token: str | None) -> Seated:
        """The game and the seat ``token`` opens (no token: a spectator; 403 a wrong one)."""
        live = self.get(game_id)
        try:
            return Seated(live, live.seat_of(token))
        except ServiceError:
            stored = self.store.seats(game_id)  # a seat claimed through another process?
            if stored is None:
                raise
            if stored != live.seats:  # (unless the change feed has just brought it)
                live.seats = stored
            return Seated(live, live.seat_of(token))

    async def seated_async(self, game_id: str, token: str | None) -> Seated:
        """:meth:`seated` on the event loop: at once for a game in memory and a token
        that opens a seat (most requests), else in a thread (the store is read)."""
        if game_id in self.live:
            live = self.get(game_id)  # in memory: no database
            with contextlib.suppress(ServiceError):
                return Seated(live, live.seat_of(token))
        return await asyncio.to_thread(self.seated, game_id, token)

    def reload(self, live: LiveGame) -> LiveGame:
        """Forget the memory copy and replay the store (after a lost race)."""
        with self._memory:
            self.live.pop(live.id, None)
            fresh = self.get(live.id)
            fresh.listeners = live.listeners
            fresh.lock = live.lock
        return fresh

    # -- acting -----------------------------------------------------------------------

    async def act(self, seated: Seated, text: Any, expected_seq: Any = None) -> Encoded:
        """Play ``text`` for the seat; refusals change nothing. Answers the seat's view
        after it (the one its sockets were sent: built once)."""
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
            # The store is read for other processes' actions only when the memory copy
            # refuses the action or loses the race to store it: a copy that is behind
            # always does one or the other (its seq is taken), so the answer is the same
            # as reading first, without a database round trip per action.
            live, read = self.get(game_id), False
            while True:
                try:
                    action, seq = self._play(live.game, seat, text, expected_seq)
                except ServiceError:
                    if read:
                        raise
                    read = True
                    live, moved = await self._catch_up(live)  # other processes
                    if not moved:
                        raise
                    await self._broadcast(live)
                    continue
                try:
                    await asyncio.to_thread(
                        self.store.append, game_id, seq, live.game.format_action(action), seat
                    )
                except ConflictError:  # another process stored an action first
                    live = self.reload(live)
                    await self._broadcast(live)
                    if not read:  # the copy was behind: judge the action on the store's game
                        read = True
                        continue
                    raise ServiceError(
                        409, "another action came first: look again", seq=len(live.game.log)
                    ) from None
                except Exception:  # the database failed: memory goes back to what it holds
                    log.exception("storing an action of game %s", game_id)
                    try:
                        self.reload(live)
                    except Exception:  # the store is down: read it afresh when next asked
                        with self._memory:
                            self.live.pop(game_id, None)
                    raise ServiceError(
                        503, "the game could not be saved: try again in a moment", seq=seq
                    ) from None
                break
        await self._broadcast(live)  # views built outside the lock
        await self._run_bots(live)
        return self.view(self.get(game_id), seat)  # reloaded if a bot's move raced

    def _play(
        self, game: Game, seat: int, text: str, expected_seq: int | None
    ) -> tuple[Action, int]:
        """Apply the seat's action to the game in memory; returns it and its seq (its
        number in the store). Refusals (:class:`ServiceError`) change nothing."""
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
        return action, seq

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
        """Let computer players move until a person is to move (or the game ends), on
        the game's bot task. A game with a person waits for their reply, as a player at
        the table would (the thinking is in the worker pool, the loop stays free); a
        game of computer players only is played in the background: the request answers
        at once and watchers see it move. Without the lifespan (an app whose event loop
        may not outlive the request) they move here."""
        if not self._started:
            await self._play_bots(live.id)
            return
        self._wake_bots(live)
        task = self._bot_tasks.get(live.id)
        if task is not None and len(live.bots) < len(live.seats):
            await asyncio.shield(task)  # a closed request leaves the bots playing

    @staticmethod
    def _bot_to_move(live: LiveGame) -> bool:
        return not live.game.is_over and live.game.to_move in live.bots

    def _wake_bots(self, live: LiveGame) -> None:
        """Start the game's bot task if a computer player is to move (one per game), on
        the service's event loop (asked from another thread: handed over to it)."""
        loop = self._loop
        if not self._started or loop is None or not self._bot_to_move(live):
            return
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not loop:
            with contextlib.suppress(RuntimeError):  # a loop closing: the next start resumes
                loop.call_soon_threadsafe(self._wake_bots, live)
            return
        if live.id in self._bot_tasks:
            return
        task = asyncio.create_task(self._play_bots(live.id))
        self._bot_tasks[live.id] = task

        def done(finished: asyncio.Task[None], game_id: str = live.id) -> None:
            if self._bot_tasks.get(game_id) is finished:
                del self._bot_tasks[game_id]

        task.add_done_callback(done)

    @staticmethod
    def _bot_seed(game: Game, seat: int) -> int:
        """A computer player's seed for this move: from the deal, the seat and the move
        number, so a resumed game plays as it would have without the restart."""
        return ((game.seed or 0) * 8 + seat) * 1_000_003 + len(game.log)

    async def _play_bots(self, game_id: str) -> None:
        """Computer players' moves, decided in the worker pool from their seat's view
        outside the lock, then stored under it if the game has not moved meanwhile (a
        challenge, another process): else decided again. A conflict in the store means
        another process stored that move: reload and decide again. Never raises."""
        failures = 0
        while failures < 5:
            try:
                live = self.get(game_id)
                if not self._bot_to_move(live):
                    return
                game = live.game
                seat, seq = game.to_move, len(game.log)
                action = await self._decide(live.bots[seat], self._bot_seed(game, seat), game, seat)
                async with live.lock:
                    if self.live.get(game_id) is not live or len(game.log) != seq:
                        continue  # the game moved (or was reloaded) meanwhile: decide again
                    try:
                        game.apply(action)
                    except IllegalMove:  # a computer player that cannot answer: the engine's
                        choices = game.legal_actions()  # first legal action, never a stall
                        if not choices:
                            return
                        action = choices[0]
                        game.apply(action)
                    try:
                        await asyncio.to_thread(
                            self.store.append, game_id, seq, game.format_action(action), seat
                        )
                    except ConflictError:  # another process came first: its move stands
                        self.reload(live)
                        continue
                await self._broadcast(live)
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
        log.error("game %s: computer player gave up after %d failures", game_id, failures)

    async def _decide(self, level: str, seed: int, game: Game, seat: int) -> Action:
        """A computer player's action from its seat's view, in the worker pool; if the
        pool cannot answer, the engine's first legal action."""
        try:
            return await self.workers.run(bot_move, level, seed, game.view(seat))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer player %s failed: playing the first legal action", level)
            choices = game.legal_actions()
            if not choices:
                raise
            return choices[0]

    # -- seeing -------------------------------------------------------------------------

    def view(self, live: LiveGame, seat: int | None) -> Encoded:
        """What ``seat`` (None: a spectator) may see, plus the legal actions if to move
        (with its JSON text, made once: do not change it)."""
        return self.view_message(live, seat).view

    def view_message(self, live: LiveGame, seat: int | None) -> ViewMessage:
        """The seat's view as a socket message, built once per action and seat: the
        broadcast, the answer to the action and a new socket share it (and its text)."""
        game = live.game
        seats = [
            {"name": s["name"], "bot": s["bot"], "claimed": bool(s["bot"] or s.get("token_hash"))}
            for s in live.seats
        ]
        made = live.views.get(seat)
        if made is not None and made[0] is game and made[1] == len(game.log) and made[2] == seats:
            return made[3]
        message = ViewMessage(self._build_view(live, seat, seats))
        if live.listeners:  # kept while watched (an idle game's memory stays small)
            live.views[seat] = (game, len(game.log), seats, message)
        return message

    def _build_view(self, live: LiveGame, seat: int | None, seats: list[dict[str, Any]]) -> Encoded:
        game = live.game
        view = game.view(seat)
        data = Encoded(view_data(game, view))
        data["id"] = live.id
        data["seq"] = len(game.log)
        data["seats"] = seats
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
        found = await self.workers.run(hint_turns, game.view(seat))
        return {
            "turns": [
                {"turn": h.notation, "points": h.points, "cells": [name(c) for c in h.cells]}
                for h in found
            ]
        }

    @staticmethod
    def _summary_of(live: LiveGame) -> dict[str, Any]:
        """A game in the list of games: who plays, the scores, whether it is over."""
        return summary_data(live.id, live.created, live.game, live.seats, live.mode)

    SUMMARIES = 20_000
    """The most summaries kept for the list of games (a few hundred bytes each)."""

    def _keep_summary(self, live: LiveGame) -> dict[str, Any]:
        """Note the game's summary, so listing it needs no replay."""
        return self._keep(self._summary_of(live))

    def _keep(self, summary: dict[str, Any]) -> dict[str, Any]:
        with self._memory:
            self._summaries[summary["id"]] = (summary["actions"], summary)
            self._summaries.move_to_end(summary["id"])
            while len(self._summaries) > self.SUMMARIES:
                self._summaries.popitem(last=False)
        return summary

    async def _stored_summary(self, game_id: str, head: int | None = None) -> dict[str, Any] | None:
        """A game's summary at ``head`` actions (None: as stored now): from memory if
        current, else replayed in the worker pool (not kept in memory as a live game)."""
        live = self.live.get(game_id)
        if live is not None and (head is None or len(live.game.log) == head):
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

    def _listed(self, limit: int) -> tuple[list[tuple[str, float]], dict[str, int]]:
        """The newest games' ids and creation times, and their numbers of actions."""
        listed = self.store.list_ids(limit)
        return listed, self.store.heads([game_id for game_id, _ in listed])

    async def games(self, limit: int) -> list[dict[str, Any]]:
        """The newest games first, from memory and the kept summaries: a game is
        replayed (in the worker pool) only when nothing current is known of it."""
        listed, heads = await asyncio.to_thread(self._listed, limit)
        found = await asyncio.gather(
            *(self._stored_summary(game_id, heads.get(game_id, 0)) for game_id, _ in listed)
        )
        return [
            {**summary, "created": created}  # the store's clock, not a live copy's
            for (_, created), summary in zip(listed, found, strict=True)
            if summary is not None
        ]

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

    async def analysis(self, game: Game) -> dict[str, Any]:
        """Per turn, what was played against the best turn available (in the worker
        pool, from the game's record)."""
        return await self.workers.run(analyse_record, records.dumps(game))

    ANALYSES = 64
    """The most finished games' analyses kept in memory (tens of KB each)."""

    async def finished_analysis(self, game_id: str, game: Game) -> dict[str, Any]:
        """A finished game's analysis, computed once and kept (in memory, by game and
        number of actions, the newest :data:`ANALYSES`): requests that arrive while it
        is being computed wait for that one computation."""
        key = (game_id, len(game.log))
        pending = self._analyses.get(key)
        if (
            pending is None
            or (pending.done() and (pending.cancelled() or pending.exception() is not None))
            or (not pending.done() and pending.get_loop() is not asyncio.get_running_loop())
        ):
            pending = asyncio.ensure_future(self.analysis(game))
            self._analyses[key] = pending
            while len(self._analyses) > self.ANALYSES:
                self._analyses.popitem(last=False)
        self._analyses.move_to_end(key)
        return await asyncio.shield(pending)

    async def analysis_for(self, seated: Seated) -> dict[str, Any]:
        """The analysis: of the whole game for everyone once it is over; during the game
        only with the house rule hints (O2), for a seat and of its own turns (the others'
        would show their racks)."""
        game, seat = seated.live.game, seated.seat
        if game.is_over:
            return await self.finished_analysis(seated.live.id, game)
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

    # -- other processes: the database is the authority (issue 13) ---------------------

    async def _catch_up(self, live: LiveGame, seats: bool = False) -> tuple[LiveGame, bool]:
        """Bring a game in memory level with the store: apply the actions other processes
        stored since (and with ``seats``, take the seats as stored: one claimed there).
        Returns the game (replayed afresh if those actions would not apply) and whether
        it changed. Called under the game's lock; the database is read in a thread, so
        the event loop never waits on it."""
        later, stored = await asyncio.to_thread(self._stored_after, live, seats)
        return self._apply_stored(live, later, stored)

    def _stored_after(
        self, live: LiveGame, seats: bool
    ) -> tuple[list[str], list[dict[str, Any]] | None]:
        later = self.store.events_after(live.id, len(live.game.log))
        return later, self.store.seats(live.id) if seats else None

    def _apply_stored(
        self, live: LiveGame, later: list[str], stored: list[dict[str, Any]] | None
    ) -> tuple[LiveGame, bool]:
        changed = False
        if later:
            try:
                for text in later:
                    live.game.apply(live.game.parse_action(text))
            except MathableError:
                return self.reload(live), True
            changed = True
        if stored is not None and stored != live.seats:  # a seat claimed elsewhere
            live.seats = stored
            changed = True
        return live, changed

    def on_store_change(self, game_id: str, seq: int) -> None:
        """The store's change feed, from its thread: another process changed ``game_id``
        (it has ``seq`` actions now). A game held here is brought level on the event
        loop and its watchers told; one not held is read afresh when next asked for."""
        loop = self._loop
        if loop is not None and game_id in self.live:
            loop.call_soon_threadsafe(self._start_refresh, game_id, seq)

    def _start_refresh(self, game_id: str, seq: int) -> None:
        task = asyncio.ensure_future(self._refresh(game_id, seq))
        self._refreshes.add(task)
        task.add_done_callback(self._refreshes.discard)

    async def _refresh(self, game_id: str, seq: int) -> None:
        live = self.live.get(game_id)
        if live is None:
            return
        async with live.lock:
            current = self.live.get(game_id)
            if current is None:
                return
            # no new action: then it is a seat that changed
            live, changed = await self._catch_up(current, seats=seq <= len(current.game.log))
        if changed:
            await self._broadcast(live)

    # -- live updates -----------------------------------------------------------------

    def listen(self, seated: Seated, listener: Listener) -> int:
        """Call ``listener`` with the seat's view after every action; returns its key.
        It must only queue the message (as a :class:`~.connections.Connection` does),
        never wait on a client: one reader that stops reading must hold up nobody."""
        self._listener_ids += 1
        live = self.get(seated.live.id)
        with self._memory:  # watched from now on: never evicted, even if it just was
            live = self.live.setdefault(live.id, live)
            live.listeners[self._listener_ids] = (seated.seat, listener)
        return self._listener_ids

    def unlisten(self, game_id: str, key: int) -> None:
        live = self.live.get(game_id)
        if live is not None:
            live.listeners.pop(key, None)
            if not live.listeners:
                live.views.clear()

    async def _broadcast(self, live: LiveGame) -> None:
        """Offer every listener its seat's view, each seat's view built once however
        many watch it. Listeners only queue: nothing here awaits a send, so a client
        that stops reading cannot hold the game's lock (issue 13, the freeze)."""
        views: dict[int | None, ViewMessage] = {}
        for key, (seat, listener) in list(live.listeners.items()):
            if seat not in views:
                views[seat] = self.view_message(live, seat)
            try:
                listener(views[seat])
            except Exception:  # a listener that fails: forget it
                live.listeners.pop(key, None)
