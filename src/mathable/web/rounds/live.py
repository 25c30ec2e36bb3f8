"""The live games (:class:`LiveGames`): games in memory over the event store, the
bottom layer of :mod:`.service`. A game is loaded by replaying its events, kept while
used (least recently used first out), caught up with what other processes stored
(the store's change feed), and its listeners (sockets) are sent each change.
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
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from mathable import i18n
from mathable.engine.errors import MathableError
from mathable.engine.protocol import Game
from mathable.i18n import lazy
from mathable.online.clocks import FIRST_MOVE_LIVE_MS
from mathable.web.infra.botshare import BotShare
from mathable.web.infra.connections import ViewMessage
from mathable.web.infra.errors import ServiceError
from mathable.web.infra.store import EventStore, StoredGame, StoredSeat
from mathable.web.infra.workers import (
    Workers,
    apply_event,
    ending_event,
    summary_data,
)
from mathable.web.infra.workers import replay as replay_game
from mathable.web.players.botaccounts import bot_players_among
from mathable.web.ratings.standings import Standings, ending_of
from mathable.web.rounds.gameclock import Timing, ready_of, replay_timed
from mathable.web.rounds.presence import CLAIM_AFTER, Presence
from mathable.web.rounds.timers import ClockScheduler

log = logging.getLogger(__name__)


def token_hash(token: str) -> str:
    """A token's SHA-256, as the store keeps it. Any text hashes: a lone surrogate (which
    no UTF-8 can hold, refused at the door by :mod:`.inputs`) is encoded as it is, so a
    token never raises here, it just opens nothing (issue 30)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


Listener = Callable[[dict[str, Any]], Any]


@dataclass
class LiveGame:
    """A game in memory, rebuilt from the store, with its lock and its listeners."""

    id: str
    game: Game
    seats: list[StoredSeat]
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
    timing: Timing | None = None
    """The clocks' turn changes (:mod:`.gameclock`), derived from the events and their
    times (a resignation, abort or flag is the game's own: local ruling L1)."""
    rated: bool = False
    rating_changes: list[dict[str, Any]] | None = None
    """Once a rated game is over and rated: each seat's rating change (:mod:`.standings`)."""
    views: dict[tuple[int | None, str], tuple[Game, int, list[StoredSeat], ViewMessage]] = field(
        default_factory=dict
    )
    """Each seat's last view (None: a spectator's) in each language and what it was made
    from (the game, its number of actions, the seats): built and encoded once per action
    and language, however many sockets and answers it goes to
    (:meth:`GameService.view_message`); kept while the game has listeners."""
    bot_players: frozenset[str] = frozenset()
    """The seats' players that are bot accounts (issue 36: their names are marked BOT),
    looked up when the game is loaded and whenever :attr:`seats` is replaced (a claim, a
    seat claimed elsewhere), in a thread, never per view (:meth:`LiveGames.bot_players_of`).
    It only grows: an account never stops being a bot account, so it holds for the seats
    before a change as for those after it."""

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
        digest = token_hash(token)
        for seat, info in enumerate(self.seats):
            kept = info.get("token_hash")
            if kept and secrets.compare_digest(kept, digest):
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


def no_game(game_id: str) -> i18n.Text:
    """The refusal of an unknown game (lazy: it may be made outside any request)."""
    return lazy("there is no game {game}", game=repr(game_id))


class LiveGames:
    """The games in memory over the event store: the cache (least recently used, caught up with
    other processes), their listeners and what is broadcast to them, and the events appended
    and counted. The layers above add the views, the endings, the computers' turns, the
    moves, new games, rematches and records; the hooks below are theirs."""

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
        self._analyses: OrderedDict[tuple[str, int, str], asyncio.Future[dict[str, Any]]]
        self._analyses = OrderedDict()
        """Finished games' analyses by (game, actions, depth), being computed or done."""

    # -- what the game holds: its rematch, its events and clocks, its summary ----------

    @staticmethod
    def _rematch_of(live: LiveGame) -> str | None:
        """The game's rematch, once a player asked for it (noted on its seats)."""
        return next((s["rematch"] for s in live.seats if s.get("rematch")), None)

    def bot_players_of(
        self, seats: list[StoredSeat], known: frozenset[str] = frozenset()
    ) -> frozenset[str]:
        """The players bound to ``seats`` that are bot accounts, ``known`` ones kept (an
        account never stops being one): :attr:`LiveGame.bot_players`. Blocking (one
        indexed read, none when no new player sits): called while loading or in a thread."""
        wanted = {p for s in seats if (p := s.get("player")) and p not in known}
        if not wanted:
            return known
        return known | bot_players_among(self.store, wanted)

    def _live_from(self, stored: StoredGame, bot_players: frozenset[str] | None = None) -> LiveGame:
        """The game of ``stored`` in memory, replayed; its seats' bot accounts looked up
        here (blocking, as the load) unless given (``bot_players``, read in a thread)."""
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
            bot_players=(self.bot_players_of(stored.seats) if bot_players is None else bot_players),
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
            live.bot_players = self.bot_players_of(stored, live.bot_players)
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

    # -- events: noted on the clocks (local ruling L1; :mod:`.gameclock`) and appended ---

    def _note(self, live: LiveGame, event: str, at: float) -> None:
        """Take a stored event into the game's timing (its clocks and ending), and set
        its timer to the new turn's flag instant."""
        if live.timing is not None:
            live.timing.note(live.game, event, at)
            self._wake_clock(live)

    async def _append(
        self, game_id: str, seq: int, event: str, seat: int | None, at: float, ends: bool
    ) -> None:
        """Store an event, without blocking the loop (:meth:`EventStore.append_async`);
        one that ends the game stops its clock in the same write, then its result is
        written (:meth:`_settle`, in a thread)."""
        await self.store.append_async(game_id, seq, event, seat, at, ends=ends)
        if ends:
            live = self.live.get(game_id)
            if live is not None and live.over:  # held under its lock: the game just ended
                await asyncio.to_thread(self._settle, live, at)

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

    def _watched(self) -> list[str]:
        """The games with sockets here (their presence is followed)."""
        with self._memory:
            return [game_id for game_id, live in self.live.items() if live.listeners]

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

    # -- other processes: the database is the authority (issue 13) ---------------------

    async def _catch_up(self, live: LiveGame, seats: bool = False) -> tuple[LiveGame, bool]:
        """Bring a game in memory level with the store: apply the actions other processes
        stored since (and with ``seats``, take the seats as stored: one claimed there).
        Returns the game (replayed afresh if those actions would not apply) and whether
        it changed. Called under the game's lock; the database is read in a thread, so
        the event loop never waits on it."""
        later, stored, bots = await asyncio.to_thread(self._stored_after, live, seats)
        live.bot_players = bots  # only grows: right for the seats held and the stored
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
    ) -> tuple[list[str], list[StoredSeat] | None, frozenset[str]]:
        """The events stored after the game's, the seats as stored (with ``seats``) and
        the bot accounts among their players (looked up here, in the thread)."""
        later = self.store.events_after(live.id, live.events)
        stored = self.store.seats(live.id) if seats else None
        known = live.bot_players
        return later, stored, known if stored is None else self.bot_players_of(stored, known)

    def _apply_stored(
        self, live: LiveGame, later: list[str], stored: list[StoredSeat] | None
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

    # -- hooks: the layers above answer them (views, finisher, computers, leaving) -------

    def view_message(
        self, live: LiveGame, seat: int | None, lang: str | None = None
    ) -> ViewMessage:
        """The seat's view as a socket message (:class:`~.views.Views`)."""
        raise NotImplementedError

    def _wake_clock(self, live: LiveGame) -> None:
        """Set the game's flag instant on the timer (:class:`~.finisher.Finisher`)."""

    async def _fire_clock(self, game_id: str) -> None:
        """The timer at a game's flag instant (:class:`~.finisher.Finisher`)."""

    def _wake_bots(self, live: LiveGame) -> None:
        """Start the game's computer turn if one is to move (:class:`~.computers.Computers`)."""

    def _presence_changed(self, game_id: str) -> None:
        """A game's presence changed (:class:`~.leaving.Leaving`)."""
