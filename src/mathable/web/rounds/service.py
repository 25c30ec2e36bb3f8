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
import base64
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from mathable import i18n
from mathable.ai import BOTS, bot_player_id, in_time, level_name, seat_levels
from mathable.ai.analysis import REPORT_VERSION, with_texts
from mathable.engine import records
from mathable.engine.actions import Abort, Action, Challenge, Exchange, Leave, Shake, action_kind
from mathable.engine.errors import IllegalMove, MathableError, NotationError
from mathable.engine.protocol import Game, GameType, HouseRules, View
from mathable.games import registry
from mathable.games.board.transcript import format_transcript, score_transcript
from mathable.games.board.variants import get_variant
from mathable.games.registry import GAMES, new_game
from mathable.i18n import _, lazy
from mathable.online.clocks import FIRST_MOVE_LIVE_MS, TimeControlError, parse_time_control
from mathable.online.fairplay import rated_refusal
from mathable.web.infra.botshare import BotShare, TooManyBotGames
from mathable.web.infra.connections import Encoded, ViewMessage
from mathable.web.infra.errors import ServiceError, at_field
from mathable.web.infra.store import ConflictError, EventStore, StoredGame
from mathable.web.infra.workers import (
    UNDO,
    Workers,
    analyse_record,
    apply_event,
    bot_move,
    computers_move,
    ending_event,
    hint_turns,
    summarise,
    summary_data,
    turn_steps,
    undo_event,
)
from mathable.web.infra.workers import replay as replay_game
from mathable.web.ratings.standings import Standings, ending_of
from mathable.web.rounds.gameclock import Timing, ready_of, replay_timed
from mathable.web.rounds.presence import CLAIM_AFTER, Here, Presence
from mathable.web.rounds.schemas import SEED_LIMIT, NewGame, Seat
from mathable.web.rounds.timers import ClockScheduler

log = logging.getLogger(__name__)


def _hash(token: str) -> str:
    """A token's SHA-256, as the store keeps it. Any text hashes: a lone surrogate (which
    no UTF-8 can hold, refused at the door by :mod:`.inputs`) is encoded as it is, so a
    token never raises here, it just opens nothing (issue 30)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _invitation(creator: str, seat: int) -> str:
    """Online, a seat's invitation, derived from the creator's own token: the store keeps
    only its hash, and the creator's token gives it again (:meth:`GameService.invitations`)
    while nobody else (another seat, the database) can."""
    digest = hmac.new(creator.encode(), f"invitation {seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


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
    listeners: dict[int, tuple[int | None, Listener, str]] = field(default_factory=dict)
    """Who follows the game: each listener's seat (None: a spectator), its callback and
    the language its views are made in (issue 17)."""
    bots: dict[int, str] = field(default_factory=dict)
    """The computer players' seats and levels (they move in the worker pool)."""
    events: int = 0
    """The events stored (actions and undos, :data:`~.workers.UNDO`): the seq the next
    one takes, and the views' ``seq``. Without undos, the game's number of actions."""
    actors: tuple[Game, int, int, list[int]] | None = None
    """The game, its events and actions, and who made each of its actions (worked out
    for :meth:`GameService.undo_steps`, kept until the game changes)."""
    timing: Timing | None = None
    """The clocks' turn changes (:mod:`.gameclock`), derived from the events and their
    times (a resignation, abort or flag is the game's own: local ruling L1)."""
    rated: bool = False
    rating_changes: list[dict[str, Any]] | None = None
    """Once a rated game is over and rated: each seat's rating change (:mod:`.standings`)."""
    views: dict[tuple[int | None, str], tuple[Game, int, list[dict[str, Any]], ViewMessage]] = (
        field(default_factory=dict)
    )
    """Each seat's last view (None: a spectator's) in each language and what it was made
    from (the game, its number of actions, the seats): built and encoded once per action
    and language, however many sockets and answers it goes to
    (:meth:`GameService.view_message`); kept while the game has listeners."""

    @property
    def over(self) -> bool:
        """Over by its rules, or resigned, aborted or lost on time (the engine's game holds
        those too: local ruling L1)."""
        return self.game.is_over

    def seat_of(self, token: str | None, player: str | None = None) -> int | None:
        """The seat a token opens; without a token, the seat bound to ``player`` (the
        session cookie's: its ``"player"``); None for neither (a spectator). A wrong
        token is refused."""
        if not token:
            return self.seat_of_player(player)
        digest = _hash(token)
        for seat, info in enumerate(self.seats):
            if info.get("token_hash") and secrets.compare_digest(info["token_hash"], digest):
                return seat
        raise ServiceError(403, lazy("this link's token does not open any seat of this game"))

    def seat_of_player(self, player: str | None) -> int | None:
        """The seat bound to ``player`` (None: none, or no player)."""
        if not player:
            return None
        return next((i for i, s in enumerate(self.seats) if s.get("player") == player), None)


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
    data["last_turns"] = [[name(c) for c in cells] for cells in view.last_turn_targets]
    data["target_notes"] = [str(note) for note in view.target_notes]
    data["notice"] = str(view.notice)
    return data


HINTS_OFF = lazy(
    "hints are off in this game: the computer's help is a house rule (hints) that every "
    "seat can see, chosen when the game is created (O2)"
)
"""The refusal of a hint in a game without the house rule (a text: ``str()`` it)."""


def shown_seed(seed: int | None) -> int | str | None:
    """A seed as a view carries it, exact for every JSON reader (issue 29): a number below
    2^53 (:data:`~.schemas.SEED_LIMIT`: every seed the server draws, and every seed it
    takes), else the string of its digits: a game stored before seeds were kept below
    2^53, or uploaded from a record made elsewhere, stays readable and its seed exact in
    a browser (whose numbers would round it). A client may send either form back."""
    if seed is None or seed < SEED_LIMIT:
        return seed
    return str(seed)


def no_game(game_id: str) -> i18n.Text:
    """The refusal of an unknown game (lazy: it may be made outside any request)."""
    return lazy("there is no game {game}", game=repr(game_id))


def unknown_house_rule(rule: str, kind: GameType) -> str:
    """The refusal of a house rule the game does not offer."""
    if kind.house_rules:
        return _(
            "house_rules.{rule}: {game} offers {rules}",
            rule=rule,
            game=kind.title,
            rules=", ".join(kind.house_rules),
        )
    return _("house_rules.{rule}: {game} offers no house rules", rule=rule, game=kind.title)


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
        self.computer_workers = Workers(max(1, self.workers.size // 2) if self.workers.size else 0)
        """The pool of the games between computers only (issue 30): their own lane."""
        self.live: OrderedDict[str, LiveGame] = OrderedDict()
        """Games in memory, least recently used first; at most ``live_games`` idle ones."""
        self.live_games = max(1, live_games)
        self._listener_ids = 0
        self._started = False
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self.now: Callable[[], float] = time.time
        """The clock of the events' times (seconds since the epoch; tests move it)."""
        self.clocks = ClockScheduler(lambda: self.now(), self._fire_clock)
        """The running clocks' flag instants, one timer for them all (:mod:`.timers`)."""
        self.presence = Presence(store, lambda: self.now(), self._presence_changed)
        """Who has each game open, across processes (:mod:`.presence`)."""
        self.standings = Standings(store)
        """Finished games' results and the ratings (:mod:`.standings`)."""
        self.bot_share = BotShare(store)
        """The live computer games per address and player (:mod:`.botshare`, issue 30)."""
        self.claim_after = CLAIM_AFTER
        """Seconds the seat to move must be away before a claim (``MATHABLE_CLAIM_AFTER``)."""
        self.first_move = FIRST_MOVE_LIVE_MS / 1000
        """Seconds for a person's first move in a live game (O4, ``MATHABLE_FIRST_MOVE``)."""
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
        self.computer_workers.start()
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
        self.clocks.start()
        self.presence.start(self._watched)
        self._resuming = asyncio.create_task(self.resume())

    STORE_THREADS = 16
    """Threads for the store's calls on PostgreSQL (the event loop's default executor;
    SQLAlchemy's pool holds 15 connections)."""

    async def close(self) -> None:
        """Stop the background work (computer players, the resume) and the pool."""
        self._started = False
        self.store.unwatch()
        await asyncio.to_thread(self.store.flush_notes)  # the other processes hear the last
        self._loop = None
        tasks = [t for t in (self._resuming, *self._bot_tasks.values()) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.clocks.close()
        await self.presence.close()
        await asyncio.to_thread(self.workers.shutdown)
        await asyncio.to_thread(self.computer_workers.shutdown)

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
                break
            offset += page
        for game_id in await asyncio.to_thread(self.store.running_clocks):  # their timers
            if self.clocks.due(game_id) is None:
                with contextlib.suppress(ServiceError):
                    live = await asyncio.to_thread(self.get, game_id)
                    if live.over:  # ended without its flag cleared (before it existed)
                        await asyncio.to_thread(self.store.stop_clock, game_id)

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
    def bots() -> list[dict[str, str]]:
        """The computer players, weakest first."""
        return [
            {"name": n, "title": level_name(n), "description": str(d)}
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
        if not kind.min_players <= len(spec.players) <= kind.max_players:
            raise ServiceError(
                400,
                _(
                    "players: a list of {low} to {high} seats",
                    low=kind.min_players,
                    high=kind.max_players,
                ),
            )
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
        for rule in chosen:
            if rule not in kind.house_rules:
                raise ServiceError(422, unknown_house_rule(rule, kind))
        refused = rated_refusal(chosen, spec.seed) if spec.rated else None
        if refused is not None:
            raise ServiceError(422, at_field(*refused))
        if "hints" in kind.house_rules:
            chosen.setdefault("hints", not online and not spec.rated)  # O2: off online
        bindings: dict[int, str] = {}
        seats: list[dict[str, Any]] = []
        answer: list[dict[str, Any]] = []
        own = secrets.token_urlsafe(18)  # the creator's token: online, invitations derive from it
        for number, player in enumerate(spec.players, start=1):
            seat = number - 1
            name = (player.name or _("Player {number}", number=number))[:40]
            token = invite = None
            if player.bot is None and (not online or seat == mine):
                token = own if seat == mine else secrets.token_urlsafe(18)
            elif player.bot is None:
                invite = _invitation(own, seat)
            stored_seat: dict[str, Any] = {
                "name": name,
                "bot": player.bot,
                "token_hash": _hash(token) if token else None,
                "invite_hash": _hash(invite) if invite else None,
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
        live = self._live_from(StoredGame(game_id, created, stored_spec, seats, []))
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
        digest = _hash(invite)
        async with live.lock:
            live, _changed = await self._catch_up(self.get(game_id), seats=True)
            seat = next(
                (
                    i
                    for i, s in enumerate(live.seats)
                    if s.get("invite_hash") and secrets.compare_digest(s["invite_hash"], digest)
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
            after = [dict(s) for s in live.seats]
            after[seat]["token_hash"] = _hash(token)
            after[seat]["joined"] = self.now()  # O4: first moves are timed once all are in
            bind = None
            if player is not None:
                after[seat]["player"] = player
                bind = {seat: player}
            if not self.store.update_seats(game_id, live.seats, after, bind):
                self.reload(live)
                raise ServiceError(409, _("this invitation was claimed at the same moment"))
            live.seats = after
            self._wake_clock(live)  # every seat taken: the first move's time counts (O4)
        await self._broadcast(live)  # views built outside the lock
        return {"id": game_id, "seat": seat, "name": info["name"], "token": token}

    async def invitations(self, game_id: str, token: str) -> dict[str, Any]:
        """Online, the invitations not claimed yet, again, for the game's creator (the
        page that shows them can be reloaded): as :meth:`create` answered them, each
        seat ``claimed`` or with its ``invite``, and the creator's own seat with its
        token. Only the creator's token gives them: an invitation is derived from it
        (:func:`_invitation`) and the store keeps its hash only."""
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
                invite = _invitation(token, seat)
                if not secrets.compare_digest(_hash(invite), info["invite_hash"]):
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
        fingerprint = None if again else _hash(canonical)
        if fingerprint is not None:
            known = await asyncio.to_thread(self.store.made_from, fingerprint)
            if known is not None:
                return self._made_before(known)
        tokens = {seat: secrets.token_urlsafe(18) for seat in range(len(game.players))}
        for seat in bots:
            del tokens[seat]
        seats = [
            {
                "name": name,
                "bot": bots.get(seat),
                "token_hash": _hash(tokens[seat]) if seat in tokens else None,
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

    # -- a rematch --------------------------------------------------------------------

    @staticmethod
    def _rematch_of(live: LiveGame) -> str | None:
        """The game's rematch, once a player asked for it (noted on its seats)."""
        return next((s["rematch"] for s in live.seats if s.get("rematch")), None)

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
                after = [
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
                after = [dict(s) for s in live.seats]
                after[seat]["token_hash"] = _hash(token)  # its invitation is used up
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

    def _live_from(self, stored: StoredGame) -> LiveGame:
        spec = stored.spec
        game = replay_game(spec, [s["name"] for s in stored.seats], [])
        bots = {seat: str(info["bot"]) for seat, info in enumerate(stored.seats) if info.get("bot")}
        ready = ready_of(stored.seats, stored.created)
        timing = replay_timed(
            game,
            spec,
            stored.created,
            stored.actions,
            stored.times,
            ready,
            frozenset(bots),
            self.first_move,
        )
        mode = spec.get("mode", "screen")
        return LiveGame(
            stored.id,
            game,
            stored.seats,
            stored.created,
            mode,
            bots=bots,
            events=len(stored.actions),
            timing=timing,
            rated=bool(spec.get("rated", False)),
        )

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
                raise ServiceError(404, no_game(game_id))
            live = self._remember(self._live_from(stored))
            if live.over:  # its result too (a crash between its last event and it)
                at = stored.times[-1] if stored.times else stored.created
                self._settle(live, at, catch_up=True)
        self._wake_bots(live)
        self._wake_clock(live)
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

    def seated(self, game_id: str, token: str | None, player: str | None = None) -> Seated:
        """The game and the seat ``token`` opens, or without one the seat bound to
        ``player`` (the session cookie's); neither: a spectator; 403 a wrong token."""
        live = self.get(game_id)
        try:
            seat = live.seat_of(token, player)
            if seat is not None or token or not player:
                return Seated(live, seat)
        except ServiceError:
            pass
        stored = self.store.seats(game_id)  # a seat claimed through another process?
        if stored is None:
            raise ServiceError(404, no_game(game_id))
        if stored != live.seats:  # (unless the change feed has just brought it)
            live.seats = stored
        return Seated(live, live.seat_of(token, player))

    async def seated_async(
        self, game_id: str, token: str | None, player: str | None = None, *, fresh: bool = True
    ) -> Seated:
        """:meth:`seated` on the event loop: at once for a game in memory and a token
        (or cookie) that opens a seat (most requests), else in a thread (the store is
        read). ``fresh`` (reads: a view, a socket's first view): a game in memory is
        first brought level with the store (:meth:`level`: one cheap read); an action
        needs not (:meth:`act` reads the store when its copy is behind)."""
        if game_id in self.live:
            live = self.get(game_id)  # in memory: no database
            if fresh:
                live = await self.level(live)
            with contextlib.suppress(ServiceError):
                seat = live.seat_of(token, player)
                if seat is not None or not player:
                    return Seated(live, seat)
        return await asyncio.to_thread(self.seated, game_id, token, player)

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
            raise ServiceError(
                403,
                _(
                    "spectators cannot play: this browser holds no seat of this game (follow "
                    "your invitation, or open your seat's link)"
                ),
            )
        if not isinstance(text, str) or not text.strip() or len(text) > 100:
            # TRANSLATORS: I8=12, end, pass and exchange 3,5 are typed as they are
            example = _("action: a text such as I8=12, end, pass or exchange 3,5")
            raise ServiceError(400, example)
        if expected_seq is not None and (
            not isinstance(expected_seq, int) or isinstance(expected_seq, bool)
        ):
            raise ServiceError(400, _("seq: the number of actions you have seen"))
        text = i18n.typed_command(text)  # "passer" typed by a French player is "pass"
        live = self.get(game_id)
        async with live.lock:
            # The store is read for other processes' actions only when the memory copy
            # refuses the action or loses the race to store it: a copy that is behind
            # always does one or the other (its seq is taken), so the answer is the same
            # as reading first, without a database round trip per action.
            live, read = self.get(game_id), False
            while True:
                try:
                    live = await self._flag_if_due(live, refuse=True)
                    event, seq = self._play(live, seat, text, expected_seq)
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
                    at = self.now()
                    ends = live.game.is_over
                    self._count(live, seq, event, at)
                    await asyncio.to_thread(self._append, game_id, seq, event, seat, at, ends)
                except ConflictError:  # another process stored an action first
                    live = self.reload(live)
                    await self._broadcast(live)
                    if not read:  # the copy was behind: judge the action on the store's game
                        read = True
                        continue
                    raise ServiceError(
                        409, _("another action came first: look again"), seq=live.events
                    ) from None
                except Exception:  # the database failed: memory goes back to what it holds
                    log.exception("storing an action of game %s", game_id)
                    try:
                        self.reload(live)
                    except Exception:  # the store is down: read it afresh when next asked
                        with self._memory:
                            self.live.pop(game_id, None)
                    raise ServiceError(
                        503, _("the game could not be saved: try again in a moment"), seq=seq
                    ) from None
                break
        await self._broadcast(live)  # views built outside the lock
        await self._run_bots(live)
        return self.view(self.get(game_id), seat)  # reloaded if a bot's move raced

    def _play(
        self, live: LiveGame, seat: int, text: str, expected_seq: int | None
    ) -> tuple[str, int]:
        """Apply the seat's action (or undo) to the game in memory; returns the event to
        store and its seq (its number in the store). Refusals (:class:`ServiceError`)
        change nothing."""
        game = live.game
        if expected_seq is not None and expected_seq != live.events:
            raise ServiceError(
                409,
                _(
                    "the game has moved on (action {actions}, you saw {seen}): look again",
                    actions=live.events,
                    seen=expected_seq,
                ),
                seq=live.events,
            )
        if text.strip().lower() == UNDO:
            steps = self.undo_steps(live, seat, refuse=True)
            # O5: then the bag is shaken, with fresh entropy kept in the stored event
            event = undo_event(steps, Shake.fresh().entropy)
            apply_event(game, event)
            return event, live.events
        try:
            action = game.parse_action(text)
        except NotationError as exc:
            raise ServiceError(400, str(exc)) from None
        if live.over:
            why = game.end_reason
            raise ServiceError(
                409, _("the game is over: {reason}", reason=why) if why else _("the game is over")
            )
        if isinstance(action, Leave | Abort | Shake):  # resign, abort, claim, flags; undo (O5)
            raise ServiceError(
                400, _("{action}: not an action to play here", action=action_kind(action))
            )
        if game.left[seat]:
            raise ServiceError(409, _("you have left the game: play goes on without you"))
        if action_kind(action) == "challenge":
            action = self._challenge(game, seat)
        elif seat != game.to_move:
            raise ServiceError(
                409,
                _("it is {name}'s turn, not yours", name=game.players[game.to_move]),
                seq=live.events,
            )
        try:
            game.apply(action)
        except IllegalMove as exc:
            raise ServiceError(
                422, str(exc), rule=exc.rule, where=exc.where, reason=exc.reason
            ) from None
        return game.format_action(action), live.events

    def undo_steps(self, live: LiveGame, seat: int | None, refuse: bool = False) -> int:
        """How many actions an undo by ``seat`` takes back now; 0 if it may not (with
        ``refuse``, a :class:`ServiceError` saying why).

        House rule ``allow_undo`` (ruling V-B forbids it otherwise), on the web: a player
        takes back their own last action, and the computer players' replies after it,
        back to their turn, while no other person has acted since. The same at one screen
        (its page sends the undo with the token of the person whose action it is) and
        online, so nobody ever takes back what another person did; never once the game is
        over. The view's ``undo`` says whether the seat may."""
        game = live.game
        why: i18n.Text
        if seat is None:
            why = lazy("spectators cannot undo")
        elif not game.house_rules.allow_undo:
            why = lazy("undo is off in this game: taking back is a house rule (allow undo, V-B)")
        elif live.over:
            why = lazy("the game is over")
        elif game.left[seat]:
            why = lazy("you have left the game")
        else:
            steps = 0
            for back, actor in enumerate(reversed(self._actors(live)), start=1):
                if isinstance(game.log[-back], Shake):
                    continue  # nobody's, never taken back: the bag shaken by an undo (O5)
                if isinstance(game.log[-back], Leave | Abort):
                    break  # never taken back (local ruling L1)
                steps += 1
                if actor == seat:
                    return steps
                if actor not in live.bots:
                    break
            why = lazy(
                "nothing of yours to take back: you may undo your own last action (and the "
                "computer's replies) while nobody else has played since (V-B)"
            )
        if refuse:
            raise ServiceError(409, why, seq=live.events)
        return 0

    @staticmethod
    def _actors(live: LiveGame) -> list[int]:
        """The seat that made each action of the game's log (a challenge: its challenger,
        when known), from one replay, kept until the game changes."""
        game = live.game
        memo = live.actors
        if memo is not None and memo[0] is game and memo[1:3] == (live.events, len(game.log)):
            return memo[3]
        replay = game.fresh()
        actors = []
        for action in game.log:
            by = action.by if isinstance(action, Challenge) else None
            if isinstance(action, Leave | Abort):
                by = action.seat
            actors.append(replay.to_move if by is None else by)
            replay.apply(action)
        live.actors = (game, live.events, len(game.log), actors)
        return actors

    @staticmethod
    def _challenge(game: Game, seat: int) -> Challenge:
        """C12: any opponent of the player who made the turn may challenge it until the
        next player acts, whoever is to move (a game-ending turn waits for it); the
        player who made it may not."""
        view = game.view(seat)
        if "challenge" not in view.available:
            if not game.house_rules.table_referee:
                reason = _("there are no challenges without the table-referee house rule (C12)")
            elif view.summaries and view.summaries[-1].seat == seat:
                reason = _("you made that turn: only your opponents may challenge it (C12)")
            else:
                reason = _(
                    "nothing to challenge: a challenge comes before the next player acts (C12)"
                )
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
        return not live.over and live.game.to_move in live.bots

    def _wake_bots(self, live: LiveGame) -> None:
        """Start the game's bot task if a computer player is to move (one per game), on
        the service's event loop (asked from another thread: handed over to it)."""
        if self._bot_to_move(live):
            self._start_task(self._bot_tasks, live, self._wake_bots, self._play_bots)

    def _start_task(
        self,
        tasks: dict[str, asyncio.Task[None]],
        live: LiveGame,
        wake: Callable[[LiveGame], None],
        work: Callable[[str], Coroutine[Any, Any, None]],
    ) -> None:
        """Start ``work(game_id)`` as the game's one task in ``tasks``, on the service's
        event loop: asked from another thread, ``wake(live)`` is handed over to it (a
        loop closing: the next start resumes it). Nothing while the service is stopped."""
        loop = self._loop
        if not self._started or loop is None:
            return
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not loop:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(wake, live)
            return
        if live.id in tasks:
            return
        task = asyncio.create_task(work(live.id))
        tasks[live.id] = task

        def done(finished: asyncio.Task[None], game_id: str = live.id) -> None:
            if tasks.get(game_id) is finished:
                del tasks[game_id]

        task.add_done_callback(done)

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
        another process stored that move: reload and decide again. Never raises."""
        failures = 0
        while failures < 5:
            try:
                live = self.get(game_id)
                if not self._bot_to_move(live):
                    return
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
                            return
                        action = choices[0]
                        game.apply(action)
                    try:
                        at, event = self.now(), game.format_action(action)
                        self._count(live, seq, event, at)
                        await asyncio.to_thread(
                            self._append, game_id, seq, event, seat, at, game.is_over
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

    def _level_in_time(self, live: LiveGame, seat: int) -> str:
        """The level a computer seat plays this action at: its own, or its fastest when
        its clock runs low, so that it moves within its own time (:func:`in_time`)."""
        clocks = None if live.timing is None else live.timing.clocks(self.now())
        left = None if clocks is None else clocks.left_ms[seat]
        return in_time(live.bots[seat], left)

    async def _decide(
        self, level: str, seed: int, game: Game, seat: int, alone: bool = False
    ) -> Action:
        """A computer player's action from its seat's view, in the worker pool; in a game
        between computers only (``alone``), in the computers' own pool, so that a person's
        opponent never waits behind them (issue 30); if the pool cannot answer, the
        engine's first legal action."""
        try:
            if alone:
                view = game.view(seat)
                return await self.computer_workers.run(computers_move, level, seed, view)
            return await self.workers.run(bot_move, level, seed, game.view(seat))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer player %s failed: playing the first legal action", level)
            choices = game.legal_actions()
            if not choices:
                raise
            return choices[0]

    # -- clocks and seats leaving (local ruling L1; :mod:`.gameclock`) -----------------

    def _note(self, live: LiveGame, event: str, at: float) -> None:
        """Take a stored event into the game's timing (its clocks and ending), and set
        its timer to the new turn's flag instant."""
        if live.timing is not None:
            live.timing.note(live.game, event, at)
            self._wake_clock(live)

    def _append(
        self, game_id: str, seq: int, event: str, seat: int | None, at: float, ends: bool
    ) -> None:
        """Store an event; one that ends the game stops its clock in the same write,
        then its result is written (:meth:`_settle`)."""
        if ends:
            self.store.append(game_id, seq, event, seat, at, ends=True)
            live = self.live.get(game_id)
            if live is not None and live.over:  # held under its lock: the game just ended
                self._settle(live, at)
        else:
            self.store.append(game_id, seq, event, seat, at)

    def _settle(self, live: LiveGame, at: float, catch_up: bool = False) -> None:
        """Write the result of a game just over (and its ratings, rated: the first writer
        wins) and keep its rating changes for the views. Blocking (called in a thread or
        while loading); a failure is logged, never the action's: the event is stored, and
        the result is written when the game is next loaded (``catch_up``: written only if
        it is not yet)."""
        timing = live.timing
        control = None if timing is None else timing.control
        try:
            ending = ending_of(
                live.id,
                live.game,
                variant=live.game.name,
                pace="untimed" if control is None else control.pace,
                rated=live.rated,
                bots=live.bots,
                at=at,
            )
            if not (catch_up and self.standings.written(live.id)):
                self.standings.settle(ending)
            live.rating_changes = self.standings.changes(live.id) if ending.rated else None
        except Exception:
            log.exception("writing the result of game %s", live.id)

    def _count(self, live: LiveGame, seq: int, event: str, at: float) -> None:
        """Count an event just applied to the game in memory (its seq and its clocks)
        before it is stored: a view built while the store writes (a GET, a new socket)
        then shows the move with its own seq, never with the one before it. A failed
        write reloads the game from the store, which forgets the count."""
        live.events = seq + 1
        self._note(live, event, at)

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
            await asyncio.to_thread(self._append, live.id, seq, event, seat, at, ends)
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

    @staticmethod
    def _may_resign(live: LiveGame, seat: int | None) -> bool:
        """Whether ``seat`` may resign now: a seat still in, once every seat has made a
        first move (O4: before that, abort)."""
        game = live.game
        return seat is not None and game.can_leave(seat) and game.started

    # -- presence and claims (:mod:`.presence`) ------------------------------------------

    def _claims(self, live: LiveGame) -> bool:
        """Whether the game's players may claim against a player away: online, not over,
        not by correspondence (there the clock decides)."""
        timing = live.timing
        control = None if timing is None else timing.control
        return (
            live.mode == "online"
            and not live.over
            and (control is None or control.to_json().get("days") is None)
        )

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

    @staticmethod
    def _away_since(live: LiveGame, here: Here) -> float:
        """Since when the seat to move counts as away: its last socket's closing, or,
        for a seat with no socket ever (a client of the API), its turn's start."""
        if here.since is not None:
            return here.since
        timing = live.timing
        return live.created if timing is None else timing.turns[-1].at / 1000

    async def seat_opened(self, seated: Seated) -> None:
        """A socket opened here: the game's presence followed, a seat's connected."""
        if seated.live.mode == "online":
            await self.presence.opened(seated.live.id, seated.seat)

    def seat_closed(self, seated: Seated) -> None:
        """A socket closed here (presence: a seat away after its last socket)."""
        if seated.live.mode == "online":
            self.presence.closed(seated.live.id, seated.seat)

    def _watched(self) -> list[str]:
        """The games with sockets here (their presence is followed)."""
        with self._memory:
            return [game_id for game_id, live in self.live.items() if live.listeners]

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

    # -- seeing -------------------------------------------------------------------------

    def view(self, live: LiveGame, seat: int | None) -> Encoded:
        """What ``seat`` (None: a spectator) may see, plus the legal actions if to move
        (with its JSON text, made once: do not change it)."""
        return self.view_message(live, seat).view

    def view_message(
        self, live: LiveGame, seat: int | None, lang: str | None = None
    ) -> ViewMessage:
        """The seat's view as a socket message in ``lang`` (the current language by
        default), built once per action, seat and language: the broadcast, the answer to
        the action and a new socket share it (and its text)."""
        lang = i18n.current() if lang is None else lang
        game = live.game
        with i18n.language(lang):
            seats = [
                {
                    "name": s["name"],
                    "bot": s["bot"],
                    "bot_name": level_name(s["bot"]) if s["bot"] else None,
                    "claimed": bool(s["bot"] or s.get("token_hash")),
                }
                for s in live.seats
            ]
        made = live.views.get((seat, lang))
        stored = live.seats  # replaced, never changed in place: a claim or a rematch
        ticking = live.timing is not None and live.timing.control is not None and not live.over
        if (
            made is not None
            and not ticking  # a running clock's view is of its instant
            and made[0] is game
            and made[1] == live.events
            and made[2] is stored
        ):
            return made[3]
        with i18n.language(lang):  # the texts of its view (status, notes) in its language
            message = ViewMessage(self._build_view(live, seat, seats))
        if live.listeners:  # kept while watched (an idle game's memory stays small)
            live.views[(seat, lang)] = (game, live.events, stored, message)
        return message

    def _build_view(self, live: LiveGame, seat: int | None, seats: list[dict[str, Any]]) -> Encoded:
        game = live.game
        view = game.view(seat)
        data = Encoded(view_data(game, view))
        data["id"] = live.id
        data["seq"] = live.events
        data["undo"] = bool(self.undo_steps(live, seat))
        data["seats"] = seats
        data["title"] = game.game_type.title
        data["mode"] = live.mode
        legal: list[str] = []
        if seat is not None and seat == game.to_move and not game.is_over:
            # exchanges are not listed (127 choices of 7 tokens): ``available`` says one
            # may exchange, the page lets the player choose, the engine checks the choice
            legal = sorted(
                {
                    game.format_action(a)
                    for a in game.legal_actions()
                    if action_kind(a) != "exchange"
                }
            )
        for keyword in view.available:  # a word alone: challenge, accept, decline...
            if keyword not in WRITTEN_OUT and keyword not in legal:
                legal.append(keyword)
        data["legal"] = legal
        timing = live.timing
        clocks = None if timing is None else timing.clocks(self.now())
        control = None if timing is None else timing.control
        data["clock"] = None if control is None else control.to_json()
        data["clocks"] = None if clocks is None else list(clocks.left_ms)
        data["running"] = None if clocks is None or game.is_over else clocks.running
        data["rated"] = live.rated and not game.aborted
        here = (  # online, followed here (a socket open on it): else None
            self.presence.of(live.id, [bool(s["bot"]) for s in live.seats])
            if live.mode == "online" and live.listeners
            else None
        )
        data["presence"] = None if here is None else [h.to_json() for h in here]
        data["claim_after"] = (  # claims once every seat has moved (O4)
            self.claim_after if self._claims(live) and game.started else None
        )
        data["abort"] = game.can_abort(seat)  # before each has moved (L1)
        data["resign"] = self._may_resign(live, seat)  # only once each has moved (O4)
        waiting = None if clocks is None or game.is_over else clocks.first_move
        data["first_move"] = (  # O4: the seat to make its first move, by when (ms since
            # the epoch; null: seats still empty) and how long that is from this view
            None
            if waiting is None or clocks is None
            else {
                "seat": waiting.seat,
                "deadline": waiting.deadline,
                "left": None if waiting.deadline is None else max(0, waiting.deadline - clocks.at),
            }
        )
        ended = None if timing is None else timing.ending_text()
        if ended is not None:
            data["end_reason"] = data["status"] = str(ended)
        if game.is_over:
            data["winners"] = list(game.winners())
            data["seed"] = shown_seed(game.seed)  # O1: the deal is no secret any more
            data["rating_changes"] = live.rating_changes  # rated: shown at the end
            rematch = self._rematch_of(live)
            if rematch is not None:
                data["rematch"] = rematch  # the next game, open to watch like any
        return data

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

    @staticmethod
    def _summary_of(live: LiveGame) -> dict[str, Any]:
        """A game in the list of games: who plays, the scores, whether it is over."""
        summary = summary_data(live.id, live.created, live.game, live.seats, live.mode, live.events)
        if live.over:  # resigned, aborted, out of time
            summary["over"], summary["to_move"] = True, None
        return summary

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
        if not kind.score_sheets:
            raise ServiceError(
                400,
                _(
                    "score sheets are for {games}: {game} has none",
                    games=", ".join(sheet_games()),
                    game=kind.title,
                ),
            )
        return format_transcript(game)

    @staticmethod
    def replay(game: Game, step: int, seat: int | None = None) -> dict[str, Any]:
        """The public view after the first ``step`` actions, the last of them, and the
        racks then: all of them once the game is over; in a game still played only the
        viewer's ``seat`` (and racks that lie face up), and an exchange without the
        pieces exchanged, for they are hidden until the end (O1)."""
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
            | {"start": steps[i], "step": steps[i + 1]}
            for i, t in enumerate(game.view(seat).summaries)
        ]
        return {
            "step": step,
            "total": total,
            "action": action,
            "view": view_data(past, public),
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
        return self.replay(seated.live.game, step, seated.seat)

    async def analysis(self, game: Game) -> dict[str, Any]:
        """Per turn, what was played against the best turn available (in the worker
        pool, from the game's record)."""
        return await self.workers.run(analyse_record, records.dumps(game))

    ANALYSES = 64
    """The most finished games' analyses kept in memory (tens of KB each)."""

    async def finished_analysis(self, live: LiveGame) -> dict[str, Any]:
        """A finished game's analysis, computed once and kept: in the database (for every
        process and restart) and in memory (by game and number of actions, the newest
        :data:`ANALYSES`); requests that arrive while it is being computed wait for that
        one computation. By the number of stored events, which only grows (an undo is
        one), so an analysis never answers for another ending of the same game."""
        key = (live.id, live.events)
        pending = self._analyses.get(key)
        if (
            pending is None
            or (pending.done() and (pending.cancelled() or pending.exception() is not None))
            or (not pending.done() and pending.get_loop() is not asyncio.get_running_loop())
        ):
            pending = asyncio.ensure_future(self._kept_analysis(live.id, live.events, live.game))
            self._analyses[key] = pending
            while len(self._analyses) > self.ANALYSES:
                self._analyses.popitem(last=False)
        self._analyses.move_to_end(key)
        return await asyncio.shield(pending)

    async def _kept_analysis(self, game_id: str, actions: int, game: Game) -> dict[str, Any]:
        """The analysis the database keeps, else computed (in the worker pool) and kept."""
        kept = await asyncio.to_thread(self.store.analysis, game_id, actions, REPORT_VERSION)
        if kept is not None:
            return kept
        report = await self.analysis(game)
        await asyncio.to_thread(self.store.keep_analysis, game_id, actions, REPORT_VERSION, report)
        return report

    async def analysis_for(self, seated: Seated) -> dict[str, Any]:
        """The analysis: of the whole game for everyone once it is over; during the game
        only with the house rule hints (O2), for a seat and of its own turns (the others'
        would show their racks)."""
        game, seat = seated.live.game, seated.seat
        if game.is_over:  # kept once for every reader: its explanations in the reader's words
            return with_texts(await self.finished_analysis(seated.live))
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
        report = await self.analysis(game)
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

    async def level(self, live: LiveGame) -> LiveGame:
        """Read your writes across processes (issue 29): before a read is answered, a game
        in memory is brought level with the store, so that whatever any process stored
        before it shows (the change feed brings it too, but later: a poll, a note). The
        cost: one indexed read of the newest seq, in a thread (the event loop never waits
        on the database); a game behind is caught up under its lock, and its watchers
        told. A database in memory has no other process: nothing to read."""
        if not self.store.shared:
            return live
        head = await asyncio.to_thread(self.store.head, live.id)
        if head <= live.events:
            return live
        async with live.lock:
            live, changed = await self._catch_up(self.live.get(live.id, live))
        if changed:
            await self._broadcast(live)
        return live

    def _stored_after(
        self, live: LiveGame, seats: bool
    ) -> tuple[list[str], list[dict[str, Any]] | None]:
        later = self.store.events_after(live.id, live.events)
        return later, self.store.seats(live.id) if seats else None

    def _apply_stored(
        self, live: LiveGame, later: list[str], stored: list[dict[str, Any]] | None
    ) -> tuple[LiveGame, bool]:
        changed = False
        timing = live.timing
        if later and (
            (timing is not None and timing.control is not None)
            or any(ending_event(text) for text in later)
        ):
            return self.reload(live), True  # with the events' times, for the clocks
        if later:
            try:
                for text in later:
                    apply_event(live.game, text)
                    live.events += 1
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
            live, changed = await self._catch_up(current, seats=seq <= current.events)
        if changed:
            await self._broadcast(live)

    # -- live updates -----------------------------------------------------------------

    def listen(self, seated: Seated, listener: Listener, lang: str | None = None) -> int:
        """Call ``listener`` with the seat's view in ``lang`` (the current language by
        default) after every action; returns its key. It must only queue the message (as
        a :class:`~.connections.Connection` does), never wait on a client: one reader
        that stops reading must hold up nobody."""
        lang = i18n.current() if lang is None else lang
        self._listener_ids += 1
        live = self.get(seated.live.id)
        with self._memory:  # watched from now on: never evicted, even if it just was
            live = self.live.setdefault(live.id, live)
            live.listeners[self._listener_ids] = (seated.seat, listener, lang)
        return self._listener_ids

    def unlisten(self, game_id: str, key: int) -> None:
        live = self.live.get(game_id)
        if live is not None:
            live.listeners.pop(key, None)
            if not live.listeners:
                live.views.clear()

    async def _broadcast(self, live: LiveGame) -> None:
        """Offer every listener its seat's view in its language, each built once however
        many watch it. Listeners only queue: nothing here awaits a send, so a client
        that stops reading cannot hold the game's lock (issue 13, the freeze)."""
        views: dict[tuple[int | None, str], ViewMessage] = {}
        for key, (seat, listener, lang) in list(live.listeners.items()):
            if (seat, lang) not in views:
                views[(seat, lang)] = self.view_message(live, seat, lang)
            try:
                listener(views[(seat, lang)])
            except Exception:  # a listener that fails: forget it
                live.listeners.pop(key, None)
