"""What each seat and watcher sees of a game (:class:`Views`): its view, built once per
action, seat and language and shared by the sockets and the answers, with what the seat
may do now (undo, resign, claim, the rematch). What every seat sees alike (the board, the
turns, the scores, the clocks...) is built and JSON-encoded once per action and language
for all of them, a spectator's view (issue 34); each seat's view is that and its own keys
(its rack, what it may do), never another seat's. A seat owned by a bot account says so
(``bot_account``, issue 36), and a computer's exchange or pass says why in the move list
(its turn's ``reason``, issue 35: :mod:`mathable.ai.turnreasons`).
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import Any

from mathable import i18n
from mathable.ai import level_name
from mathable.ai.turnreasons import TurnReasons, turn_reasons
from mathable.engine.kept import kept
from mathable.engine.protocol import ActionRefused, Game, View
from mathable.online.clocks import Clocks
from mathable.web.infra.connections import Encoded, SeatView, SharedView, ViewMessage
from mathable.web.infra.errors import ServiceError
from mathable.web.rounds.live import LiveGame, LiveGames
from mathable.web.rounds.presence import Here
from mathable.web.rounds.schemas import SEED_LIMIT

log = logging.getLogger(__name__)


def view_data(game: Game, view: View) -> dict[str, Any]:
    """A view as JSON, with cells named and what to highlight and note per target."""
    name = game.cell_names.name
    data = view.to_dict(name)
    data["recent"] = [name(c) for c in view.recent_targets]
    data["last_turns"] = [[name(c) for c in cells] for cells in view.last_turn_targets]
    data["target_notes"] = [str(note) for note in view.target_notes]
    data["notice"] = str(view.notice)
    return data


def shown_seed(seed: int | None) -> int | str | None:
    """A seed as a view carries it, exact for every JSON reader (issue 29): a number below
    2^53 (:data:`~.schemas.SEED_LIMIT`: every seed the server draws, and every seed it
    takes), else the string of its digits: a game stored before seeds were kept below
    2^53, or uploaded from a record made elsewhere, stays readable and its seed exact in
    a browser (whose numbers would round it). A client may send either form back."""
    if seed is None or seed < SEED_LIMIT:
        return seed
    return str(seed)


WRITTEN_OUT = frozenset({"place", "extra", "exchange"})
"""Action keywords that are not an action by themselves (they take cells or values)."""

SEAT_KEYS = frozenset({"undo", "legal", "abort", "resign"})
"""The keys a view adds that depend on the seat (what it may do now), beside its game's
(:attr:`~mathable.engine.view.View.OWN_KEYS`)."""

SHARED = -1
"""The seat under which :attr:`~.live.LiveGame.views` keeps the state's shared view."""


def seats_data(live: LiveGame) -> list[dict[str, Any]]:
    """Who sits at each seat, as every view shows it: the name, the computer's level and
    its name (``bot``: the package's computers), whether the seat is taken, and whether a
    bot account plays it (``bot_account``, issue 36: a program of its owner's, named BOT)."""
    return [
        {
            "name": s["name"],
            "bot": s["bot"],
            "bot_name": level_name(s["bot"]) if s["bot"] else None,
            "claimed": bool(s["bot"] or s.get("token_hash")),
            "bot_account": s.get("player") in live.bot_players,
        }
        for s in live.seats
    ]


def with_reasons(data: dict[str, Any], view: View, reasons: dict[int, i18n.Text]) -> None:
    """Give the view data's finished turns their computer's ``reason`` (issue 35), in the
    current language: each such turn's data made once per language and shared by every
    later view (:mod:`~mathable.engine.kept`), like the turns themselves."""
    if not reasons:
        return
    summaries: list[Any] = data["summaries"]
    lang = i18n.current()
    for index, reason in reasons.items():
        if index < len(summaries) and index < len(view.summaries):
            summaries[index] = kept(
                view.summaries[index],
                ("reason", lang),
                partial(_with_reason, summaries[index], reason),
            )


def _with_reason(turn: dict[str, Any], reason: i18n.Text) -> dict[str, Any]:
    """A finished turn's data and its computer's reason, in the current language."""
    return {**turn, "reason": str(reason)}


class Views(LiveGames):
    """What each seat and watcher sees of a game: its view, built once per action and seat,
    with what the seat may do now (undo, resign, claim, the rematch)."""

    # -- the computers' reasons (issue 35, :mod:`mathable.ai.turnreasons`) ---------------

    def _reasons(self, live: LiveGame) -> TurnReasons | None:
        """The game's computers' reasons as far as known; those still to work out are
        worked out at once off the event loop (a sync dependency's thread, a test), else
        in a thread, after which the watchers get views with them."""
        found = turn_reasons(live.game, live.bots)
        if found is None or not found.waiting:
            return found
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            if found.explain_waiting():
                live.views.clear()  # made without it
            return found
        if not found.explaining:
            found.explaining = True
            found.task = loop.create_task(self._explain(live, found))  # held till done
        return found

    async def _explain(self, live: LiveGame, reasons: TurnReasons) -> None:
        """Work out the waiting reasons in a thread; if any is new, the game's kept views
        go (they were made without it) and its watchers get new ones."""
        try:
            found = await asyncio.to_thread(reasons.explain_waiting)
        except Exception:  # a reason is a courtesy: never a game's failure
            log.exception("explaining a computer's turn in game %s", live.id)
            return
        finally:
            reasons.explaining = False
            reasons.task = None  # the game's, not held past its work
        if found:
            live.views.clear()
            await self._broadcast(live)

    async def _broadcast(self, live: LiveGame) -> None:
        """The reasons of the computers' turns just finished are worked out (in a thread)
        before the views go out, so that they show at once (:meth:`_reasons`)."""
        reasons = turn_reasons(live.game, live.bots)
        if reasons is not None and reasons.waiting and not reasons.explaining:
            reasons.explaining = True
            try:
                if await asyncio.to_thread(reasons.explain_waiting):
                    live.views.clear()  # views made meanwhile (an answer) had none
            except Exception:
                log.exception("explaining a computer's turn in game %s", live.id)
            finally:
                reasons.explaining = False
        await super()._broadcast(live)

    @staticmethod
    def undo_steps(live: LiveGame, seat: int | None) -> int:
        """How many actions an undo by ``seat`` takes back now, or a 409 saying why it may
        not. The rule is the engine's (:meth:`~mathable.engine.protocol.Game.undo_steps`,
        house rule ``allow_undo``, V-B): a player takes back their own last action and the
        computers' replies after it, while no other person has acted since; the view's
        ``undo`` says whether the seat may (:meth:`~mathable.engine.protocol.Game.can_undo`)."""
        try:
            return live.game.undo_steps(seat, live.bots)
        except ActionRefused as exc:
            raise ServiceError(409, exc.reason_text, seq=live.events) from None

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

    @staticmethod
    def _away_since(live: LiveGame, here: Here) -> float:
        """Since when the seat to move counts as away: its last socket's closing, or,
        for a seat with no socket ever (a client of the API), its turn's start."""
        if here.since is not None:
            return here.since
        timing = live.timing
        return live.created if timing is None else timing.turns[-1].at / 1000

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
        made = live.views.get((seat, lang))
        stored = live.seats  # replaced, never changed in place: a claim or a rematch
        if (
            made is not None
            and not self._ticking(live)  # a running clock's view is of its instant
            and made[0] is game
            and made[1] == live.events
            and made[2] is stored
        ):
            return made[3]
        with i18n.language(lang):  # the texts of its view (status, notes) in its language
            message = ViewMessage(self._build_view(live, seat, lang))
        if live.listeners:  # kept while watched (an idle game's memory stays small)
            live.views[(seat, lang)] = (game, live.events, stored, message)
        return message

    @staticmethod
    def _ticking(live: LiveGame) -> bool:
        """Whether a clock runs: then a view is of its instant, not only of the state."""
        return live.timing is not None and live.timing.control is not None and not live.over

    def _build_view(self, live: LiveGame, seat: int | None, lang: str) -> SeatView:
        """The seat's view: the state's shared view (made once for every seat) with the
        seat's own keys (its rack, what it may do now) in place."""
        shared = self._shared_view(live, lang)
        game = live.game
        if seat is None:  # the shared view is the spectator's
            own = {key: shared[key] for key in shared.own_keys if key not in SEAT_KEYS}
            available: tuple[str, ...] = tuple(shared["available"])
        else:
            own = game.own_view_dict(seat)  # the rest is the shared view's
            available = tuple(own["available"])
            ended = None if live.timing is None else live.timing.ending_text()
            if ended is not None:  # the clock's ending (:meth:`_build_shared`), to each
                own.update({key: str(ended) for key in ("end_reason", "status") if key in own})
        legal: list[str] = []
        if seat is not None and seat == game.to_move and not game.is_over:
            # exchanges are not listed (127 choices of 7 tokens): ``available`` says one
            # may exchange, the page lets the player choose, the engine checks the choice
            legal = sorted({game.format_action(a) for a in game.legal_actions(exchanges=False)})
        for keyword in available:  # a word alone: challenge, accept, decline...
            if keyword not in WRITTEN_OUT and keyword not in legal:
                legal.append(keyword)
        own["undo"] = game.can_undo(seat, live.bots)
        own["legal"] = legal
        own["abort"] = game.can_abort(seat)  # before each has moved (L1)
        own["resign"] = self._may_resign(live, seat)  # only once each has moved (O4)
        return shared.for_seat(own)

    def _shared_view(self, live: LiveGame, lang: str) -> SharedView:
        """The state's view as a spectator sees it, in ``lang`` (the current language),
        made and encoded once per action (and, while a clock runs, per instant) for every
        seat: kept with the seats' views (:attr:`~.live.LiveGame.views`) while watched."""
        game, stored = live.game, live.seats
        timing = live.timing
        clocks = None if timing is None else timing.clocks(self.now())
        made = live.views.get((SHARED, lang))
        if (
            made is not None
            and made[0] is game
            and made[1] == live.events
            and made[2] is stored
            and isinstance(made[3].view, SharedView)
            and (
                not self._ticking(live)
                or made[3].view.made_at == (None if clocks is None else clocks.at)
            )
        ):
            return made[3].view
        shared = self._build_shared(live, clocks)
        if live.listeners:
            live.views[(SHARED, lang)] = (game, live.events, stored, ViewMessage(shared))
        return shared

    def _build_shared(self, live: LiveGame, clocks: Clocks | None) -> SharedView:
        game = live.game
        view = game.view(None)
        data = view_data(game, view)
        data["id"] = live.id
        data["seq"] = live.events
        data["undo"] = False  # each seat's own (:data:`SEAT_KEYS`)
        reasons = self._reasons(live)
        if reasons is not None:
            with_reasons(data, view, reasons.reasons)
        data["seats"] = seats_data(live)
        data["title"] = game.game_type.title
        data["mode"] = live.mode
        data["legal"] = []
        timing = live.timing
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
        data["abort"] = data["resign"] = False
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
        shared = SharedView(data, type(view).OWN_KEYS | SEAT_KEYS)
        shared.made_at = None if clocks is None else clocks.at
        return shared
