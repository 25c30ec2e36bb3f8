"""Live connections that cannot stall a game (issue 13, "no stall").

Each WebSocket has a :class:`Connection`: a bounded outbox drained by its own task. The
service's broadcast only *offers* a message (:meth:`Connection.send` never awaits), so a
reader that stops reading holds up nobody, and nothing is sent under a game's lock.

A watcher only needs the newest view, so an unsent view is replaced by a newer one
(coalescing): a slow reader's outbox holds at most one view and a few short replies.
An outbox that fills up all the same, or one send that does not finish within
``send_timeout``, drops the connection (close code 1008); the client reconnects and
gets the current view.

A connection that asked for patches (issue 14, "lean traffic") is sent its first view
whole and then only what changed since the view it was sent last (:mod:`.patches`): each
patch is made once per seat and action, like the view, however many sockets it goes to.
:meth:`Connection.resync` makes the next view whole again (a client that lost track).

Incoming frames are text of at most ``max_frame`` bytes, at most ``frames_per_second``
per connection (a token bucket holding a second's worth); a binary frame (1003), an
oversized one (1009) or one too many (1008) closes the socket with a reason; a frame's
text is read by :func:`parse_frame`, which refuses a nest too deep or a lone surrogate
before parsing (issue 30).
:class:`Admissions` caps the spectators of a game and the sockets from one address.
The numbers are :class:`SocketLimits`, read from the environment.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import operator
import os
import time
import weakref
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.websockets import WebSocket

from mathable import i18n
from mathable.engine.kept import Kept
from mathable.i18n import Text, _, lazy, lazy_plural
from mathable.web.infra import patches
from mathable.web.infra.inputs import MAX_DEPTH, text_problem

POLICY = 1008
"""Close code: too many frames, a reader too slow, past a cap."""
UNSUPPORTED = 1003
"""Close code: a binary frame (only JSON text is spoken)."""
TOO_BIG = 1009
"""Close code: a frame larger than ``max_frame``."""
TRY_LATER = 1013
"""Close code: a game has as many spectators as it takes."""

CLOSE_TIMEOUT = 2.0
"""Seconds a close frame may wait for a stuck socket before the connection is left."""

MAX_REASON = 123
"""Bytes a close frame's reason may hold (RFC 6455): a longer translation is cut."""

TOO_SLOW = lazy("too slow: messages are not being read; reconnect for the view")
SEND_TIMED_OUT = lazy("too slow: messages are not being read; reconnect")
BINARY = lazy("binary frames are not spoken here: send JSON text")


def close_reason(text: str) -> str:
    """A close frame's reason: at most :data:`MAX_REASON` bytes of UTF-8, cut at a
    character (a translation may be longer than the English)."""
    data = text.encode()
    if len(data) <= MAX_REASON:
        return text
    return data[: MAX_REASON - 3].decode(errors="ignore").rstrip() + "..."


def _number(name: str, default: float) -> float:
    """A positive number from the environment variable ``name`` (refused otherwise)."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{name}={text!r}: a positive number") from None
    if not value > 0:
        raise ValueError(f"{name}={text!r}: a positive number")
    return value


@dataclass(frozen=True)
class SocketLimits:
    """The WebSocket limits, each from an environment variable (default in brackets):

    - ``MATHABLE_WS_MAX_FRAME`` (4096): bytes in one incoming frame;
    - ``MATHABLE_WS_FRAMES_PER_SECOND`` (20): incoming frames a second per connection;
    - ``MATHABLE_WS_OUTBOX`` (16): messages waiting to be sent before a reader is dropped;
    - ``MATHABLE_WS_SEND_TIMEOUT`` (10): seconds one send may take before it is dropped;
    - ``MATHABLE_SPECTATORS_PER_GAME`` (200): spectator sockets on one game;
    - ``MATHABLE_SOCKETS_PER_ADDRESS`` (100): sockets from one client address.

    The caps count per server process.
    """

    max_frame: int = 4096
    frames_per_second: float = 20.0
    outbox: int = 16
    send_timeout: float = 10.0
    spectators_per_game: int = 200
    sockets_per_address: int = 100

    @classmethod
    def from_env(cls) -> SocketLimits:
        """The limits the environment sets (the defaults for the rest)."""
        return cls(
            max_frame=int(_number("MATHABLE_WS_MAX_FRAME", cls.max_frame)),
            frames_per_second=_number("MATHABLE_WS_FRAMES_PER_SECOND", cls.frames_per_second),
            outbox=int(_number("MATHABLE_WS_OUTBOX", cls.outbox)),
            send_timeout=_number("MATHABLE_WS_SEND_TIMEOUT", cls.send_timeout),
            spectators_per_game=int(
                _number("MATHABLE_SPECTATORS_PER_GAME", cls.spectators_per_game)
            ),
            sockets_per_address=int(
                _number("MATHABLE_SOCKETS_PER_ADDRESS", cls.sockets_per_address)
            ),
        )


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
"""``json.dumps``'s own encoder for these settings, made once (``json.dumps`` makes one
per call: half the cost of encoding a seat's few own keys)."""


_ORJSON_AS_JSON = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
"""orjson refusing what ``json`` refuses too (a dataclass, a date), rather than writing it."""


def dumps(value: Any) -> str:
    """Compact JSON text, as the API answers it (FastAPI's ``JSONResponse`` settings).

    Written by orjson (issue 34, cheaper actions: a view's text about fifteen times
    faster), which writes what ``json`` writes but for floats, in another form of the
    same number (``1e16`` for ``1e+16``; an infinity, which JSON has no word for, as
    ``null``); what orjson refuses (a key that is not a string, an integer beyond 64
    bits, a lone surrogate) ``json`` writes, or refuses."""
    try:
        return orjson.dumps(value, option=_ORJSON_AS_JSON).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        return _ENCODER.encode(value)


_SCALARS: dict[object, str] = {True: "true", False: "false", None: "null"}


def dumps_value(value: Any) -> str:
    """:func:`dumps`, the same text, written at once for the values a seat's own keys
    mostly hold (a flag, a seat, nothing): an encoder call costs more than the value."""
    if value is True or value is False or value is None:
        return _SCALARS[value]
    if type(value) is int:
        return str(value)
    return dumps(value)


def _kept_list(value: Any) -> bool:
    return type(value) is list and bool(value) and type(value[0]) is Kept


def dumps_object(value: dict[str, Any]) -> str:
    """:func:`dumps` of a dict, the same text, with its lists of :class:`Kept` parts (a
    game's finished turns, the same in every view: :mod:`mathable.engine.kept`) written
    from their own text, made once, instead of encoded again for every view. The keys
    between them are encoded together, as ``json`` writes a dict: key by key."""
    if not any(map(_kept_list, value.values())):
        return dumps(value)
    parts: list[str] = []
    run: dict[str, Any] = {}
    for key, item in value.items():
        if isinstance(key, str) and _kept_list(item):
            if run:
                parts.append(dumps(run)[1:-1])
                run = {}
            texts = (each.text() if type(each) is Kept else dumps(each) for each in item)
            parts.append(dumps(key) + ":[" + ",".join(texts) + "]")
        else:
            run[key] = item
    if run:
        parts.append(dumps(run)[1:-1])
    return "{" + ",".join(parts) + "}"


class Encoded(dict[str, Any]):
    """A message (or a view) whose JSON text is made once, when first asked for, however
    many sockets and answers it goes to. It must not be changed once made."""

    _text: str | None = None

    def text(self) -> str:
        if self._text is None:
            self._text = self._encode()
        return self._text

    def _encode(self) -> str:
        return dumps_object(self)


_OWN_MARK = f"\0own {os.urandom(8).hex()}\0"
"""Stands for a seat's own value while a shared view is encoded (no view holds it: a
random token, and a NUL no text of a game has)."""
_OWN_MARK_TEXT = dumps(_OWN_MARK)


class SharedView(Encoded):
    """The view of one game state every seat shares (issue 34, cheaper actions): a whole
    view (a spectator's) whose :attr:`own_keys` each seat fills its own way
    (:meth:`for_seat`). It is encoded once, however many seats' views are made of it, its
    own keys' values left out; a seat's text is that text with the seat's own values
    encoded in their places: exactly :func:`dumps_object` of the seat's view."""

    made_at: int | None = None
    """The instant (ms) of its clocks, where they run: a view is of its instant."""

    def __init__(self, data: dict[str, Any], own_keys: frozenset[str]) -> None:
        super().__init__(data)
        self.own_keys = own_keys & self.keys()
        self.own_order = tuple(key for key in self if key in self.own_keys)
        """The own keys in the view's order: the order of their places in :meth:`pieces`."""
        self.shared_keys = tuple(key for key in self if key not in self.own_keys)
        self.shared_values = tuple(self[key] for key in self.shared_keys)
        self._pieces: list[str] | None = None

    def pieces(self) -> list[str] | None:
        """The view's text cut where each own value goes (one more piece than own keys);
        None if a text of the view holds the mark after all (then each seat's view is
        encoded whole)."""
        if self._pieces is None:
            marked = dict(self)
            for key in self.own_keys:
                marked[key] = _OWN_MARK
            pieces = dumps_object(marked).split(_OWN_MARK_TEXT)
            self._pieces = pieces if len(pieces) == len(self.own_order) + 1 else []
        return self._pieces or None

    def for_seat(self, own: dict[str, Any]) -> SeatView:
        """A seat's view: this one with ``own`` (every own key, no other) in place."""
        if own.keys() != self.own_keys:
            raise ValueError(f"a seat's own keys are {sorted(self.own_keys)}, not {sorted(own)}")
        seat_view = SeatView(self)
        seat_view.update(own)  # keys already there: the order stays the view's
        seat_view.shared = self
        return seat_view


class SeatView(Encoded):
    """A seat's view made of a :class:`SharedView` and the seat's own keys: its text is
    the shared text with its own values encoded in their places, never the whole view
    encoded again."""

    shared: SharedView | None = None

    def _encode(self) -> str:
        shared = self.shared
        if (
            shared is None
            or len(self) != len(shared)
            or not all(
                map(operator.is_, map(self.__getitem__, shared.shared_keys), shared.shared_values)
            )
        ):  # not made by :meth:`SharedView.for_seat`, or changed since: the whole view
            return dumps_object(self)
        pieces = shared.pieces()
        if pieces is None:
            return dumps_object(self)
        parts = [pieces[0]]
        for key, piece in zip(shared.own_order, pieces[1:], strict=True):
            value = self[key]
            parts.append(
                dumps_object({key: value})[len(dumps(key)) + 2 : -1]
                if _kept_list(value)
                else dumps_value(value)
            )
            parts.append(piece)
        return "".join(parts)


class ViewMessage(Encoded):
    """``{"type": "view", "view": view}`` around an :class:`Encoded` view: its text is the
    view's own text wrapped, so a view is encoded once for its HTTP answer and every
    socket of its seat."""

    _patched: tuple[weakref.ref[Encoded], str | None] | None = None

    def __init__(self, view: Encoded) -> None:
        super().__init__(type="view", view=view)
        self.view = view

    def _encode(self) -> str:
        return '{"type":"view","view":' + self.view.text() + "}"

    def patch_text(self, base: Encoded) -> str | None:
        """The patch that takes a client from ``base`` (the view it was sent last) to
        this view, as text (each key in its shortest form: never longer than the whole
        view but for a few bytes, and the whole view is not encoded for it); None when
        nothing changed. Made once for the last base asked (the sockets of a seat share
        their last view), which is held weakly: no old view is kept for it."""
        if self._patched is not None and self._patched[0]() is base:
            return self._patched[1]
        made = patches.patch(base, self.view)
        text = None if made is None else dumps(made)
        self._patched = (weakref.ref(base), text)
        return text


class FrameError(ValueError):
    """A frame that is not a JSON object; ``reason`` says why when it is more than bad
    JSON (a lone surrogate, a nest too deep), in the socket's language."""

    def __init__(self, reason: str | None = None) -> None:
        super().__init__(reason or "not a JSON object")
        self.reason = reason


def parse_frame(text: str) -> dict[str, Any]:
    """A socket's text frame read as a JSON object, checked before it is parsed (no lone
    surrogate, at most :data:`~.inputs.MAX_DEPTH` levels deep: :mod:`.inputs`), so no
    frame makes the parser recurse past Python's limit or puts text that cannot be
    encoded into the server; :class:`FrameError` for any other frame."""
    problem = text_problem(text)
    if problem is not None:
        raise FrameError(problem)
    try:
        message = json.loads(text)
    except RecursionError:  # not reached past the check: kept as a guard
        raise FrameError(_("the JSON nests more than {most} levels deep", most=MAX_DEPTH)) from None
    except ValueError:
        raise FrameError() from None
    if not isinstance(message, dict):
        raise FrameError()
    return message


def encode(message: dict[str, Any]) -> str:
    """The JSON text of ``message`` (made once for an :class:`Encoded` one)."""
    if isinstance(message, Encoded):
        return message.text()
    return dumps(message)


class TokenBucket:
    """At most ``rate`` events a second on average, and ``burst`` at once."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = burst
        self.at = clock()

    def take(self) -> bool:
        """Spend a token if there is one (False: over the limit)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Connection:
    """One accepted WebSocket: its outbox, the task draining it, and its incoming frames."""

    def __init__(
        self,
        websocket: WebSocket,
        limits: SocketLimits,
        patched: bool = False,
        newest: str = "view",
    ) -> None:
        self.websocket = websocket
        self.limits = limits
        self.patched = patched
        self.newest = newest
        """The type of message of which only the newest unsent one is kept (a game's
        view; the lobby's list of seeks, :mod:`.lobby`)."""
        """Views after the first go as patches from the last one sent."""
        self.sent_view: Encoded | None = None
        """The last view sent (shared with every socket of its seat: not a copy)."""
        self.outbox: deque[dict[str, Any]] = deque()
        self.lang = i18n.current()
        """The language of the socket (its reasons for closing are in it): the one its
        request chose, whoever's action a broadcast offering it a view comes from."""
        self.closing: tuple[int, str | Text] | None = None
        """The close code and reason once the connection is being dropped."""
        self.gone = False
        """The client has disconnected: nothing more can be sent."""
        self._bucket = TokenBucket(limits.frames_per_second, limits.frames_per_second)
        self._ready = asyncio.Event()
        self._stopped = asyncio.Event()
        self._drainer = asyncio.create_task(self._drain())

    # -- sending ------------------------------------------------------------------------

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message``; never waits. A view (a message of type :attr:`newest`)
        replaces an unsent one (the newest is all a watcher needs); a full outbox drops
        the connection."""
        if self.closing is not None or self.gone:
            return
        if message.get("type") == self.newest:
            for queued in self.outbox:
                if queued.get("type") == self.newest:
                    self.outbox.remove(queued)
                    break
        if len(self.outbox) >= self.limits.outbox:
            self.drop(POLICY, TOO_SLOW)
            return
        self.outbox.append(message)
        self._ready.set()

    async def _drain(self) -> None:
        """Send the outbox in order, each send bounded by ``send_timeout``."""
        while True:
            await self._ready.wait()
            self._ready.clear()
            while self.outbox:
                text = self._text(self.outbox.popleft())
                if text is None:  # the view this client has already
                    continue
                try:  # asyncio.timeout: 3.11's wait_for can swallow a cancellation
                    async with asyncio.timeout(self.limits.send_timeout):
                        await self.websocket.send_text(text)
                except TimeoutError:
                    self.drop(POLICY, SEND_TIMED_OUT)
                    return
                except Exception:  # the client has gone: nothing more to send
                    self.gone = True
                    self._stopped.set()
                    return

    def _text(self, message: dict[str, Any]) -> str | None:
        """The text to send for ``message``: a view as a patch from the last one sent
        when patched; None for a view that changes nothing."""
        if not (self.patched and isinstance(message, ViewMessage)):
            return encode(message)
        base, self.sent_view = self.sent_view, message.view
        if base is None:
            return message.text()
        if base is message.view:
            return None
        return message.patch_text(base)

    def resync(self) -> None:
        """Send the next view whole (the client lost track of its view)."""
        self.sent_view = None

    def drop(self, code: int, reason: str | Text) -> None:
        """End the connection with a close ``code``: stops sending and receiving."""
        if self.closing is None:
            self.closing = (code, reason)
        self.outbox.clear()
        self._stopped.set()

    # -- receiving ----------------------------------------------------------------------

    async def frames(self) -> AsyncIterator[str]:
        """The text frames received, within the limits; ends when the client leaves or
        the connection is dropped (a binary, oversized or one too many frame drops it)."""
        stopped = asyncio.ensure_future(self._stopped.wait())
        receiving: asyncio.Future[Any] | None = None
        try:
            while not self._stopped.is_set():
                receiving = asyncio.ensure_future(self.websocket.receive())
                await asyncio.wait({receiving, stopped}, return_when=asyncio.FIRST_COMPLETED)
                if not receiving.done():
                    receiving.cancel()
                    return
                message = receiving.result()
                if message["type"] == "websocket.disconnect":
                    self.gone = True
                    return
                text = message.get("text")
                if text is None:
                    self.drop(UNSUPPORTED, BINARY)
                    return
                if len(text) > self.limits.max_frame or (
                    len(text.encode()) > self.limits.max_frame
                ):
                    self.drop(
                        TOO_BIG,
                        lazy_plural(
                            "a message is at most {count} byte",
                            "a message is at most {count} bytes",
                            self.limits.max_frame,
                        ),
                    )
                    return
                if not self._bucket.take():
                    rate = f"{self.limits.frames_per_second:g}"
                    self.drop(POLICY, lazy("too many messages: at most {rate} a second", rate=rate))
                    return
                yield text
        finally:  # also when the server shuts down: nothing left waiting
            stopped.cancel()
            if receiving is not None:
                receiving.cancel()

    # -- closing ------------------------------------------------------------------------

    async def close(self) -> None:
        """Stop the sending task and, unless the client has gone, send the close frame
        (a normal close, or the code the connection was dropped with), waiting at most
        :data:`CLOSE_TIMEOUT` on a socket that does not drain."""
        self._drainer.cancel()
        await asyncio.wait({self._drainer}, timeout=CLOSE_TIMEOUT)
        if self.gone:
            return
        code, reason = self.closing or (1000, "")
        if isinstance(reason, Text):
            reason = reason.render(self.lang)
        with contextlib.suppress(Exception):
            async with asyncio.timeout(CLOSE_TIMEOUT):
                await self.websocket.close(code, close_reason(reason))
        self.gone = True


async def refuse(websocket: WebSocket, status: int, message: str, code: int) -> None:
    """Answer an accepted socket that is not let in: an error message, then a close."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(CLOSE_TIMEOUT):
            await websocket.send_json({"type": "error", "status": status, "error": message})
            await websocket.close(code)


class Admissions:
    """The open sockets per game's spectators and per client address, within the caps."""

    def __init__(self, limits: SocketLimits) -> None:
        self.limits = limits
        self.spectators: Counter[str] = Counter()
        self.addresses: Counter[str] = Counter()

    def enter(self, game_id: str, address: str, spectator: bool) -> tuple[int, str] | None:
        """Count a socket in; returns the close code and the reason it is refused
        instead, in the socket's language (None: let in)."""
        if self.addresses[address] >= self.limits.sockets_per_address:
            return POLICY, _(
                "too many live connections from one address (at most {count}): "
                "close some and try again",
                count=self.limits.sockets_per_address,
            )
        if spectator and self.spectators[game_id] >= self.limits.spectators_per_game:
            return TRY_LATER, _(
                "this game has as many spectators as it takes ({count}): try again later",
                count=self.limits.spectators_per_game,
            )
        self.addresses[address] += 1
        if spectator:
            self.spectators[game_id] += 1
        return None

    def leave(self, game_id: str, address: str, spectator: bool) -> None:
        """Count a socket out (forgetting zero counts, so idle games cost nothing)."""
        self.addresses[address] -= 1
        if self.addresses[address] <= 0:
            del self.addresses[address]
        if spectator:
            self.spectators[game_id] -= 1
            if self.spectators[game_id] <= 0:
                del self.spectators[game_id]
