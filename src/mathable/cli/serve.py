"""``mathable serve``: the web app (:mod:`mathable.web`), on an address checked first."""

from __future__ import annotations

import gc
import socket
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from mathable.i18n import _, lazy

from . import oserrors
from .shell import console, fail, helps, one_line

if TYPE_CHECKING:
    pass
else:
    pass


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host`` and ``port`` for the server; an address that cannot be
    resolved or bound is refused in one line."""
    where = f"{host}:{port}"
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, ValueError) as exc:  # UnicodeError: a name no resolver takes
        raise fail(_cannot_listen(where, str(exc))) from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise fail(_cannot_listen(where, oserrors.reason(exc))) from None
    return sock


def _cannot_listen(where: str, reason: str) -> str:
    """Why the server cannot listen on the address ``where``, in words."""
    # TRANSLATORS: {address} is a host and a port; {reason} is why, often the system's words
    return _("cannot listen on {address}: {reason}", address=where, reason=reason)


SOCKET_OPTIONS: dict[str, Any] = {"ws_per_message_deflate": False}
"""uvicorn's WebSocket settings of the server (issue 34, cheaper actions): no
per-message deflate. Compressing every message once per socket (each socket has its own
compressor) took ~16 % of the event loop's samples; a view's patch is a few hundred
bytes, and the page's sockets now carry ~1.9 KB an action instead of ~0.4 KB (whole
views, ~13-16 KB instead of ~2.2 KB). A client that offers deflate gets plain frames."""


GC_THRESHOLDS = (7_000, 20, 20)
"""The cyclic garbage collector's thresholds in the server (Python's are 700, 10, 10).
An action allocates thousands of short-lived containers (views, messages), nearly all
freed by their reference counts; at Python's thresholds the live games' state was
traversed over and over and promoted, and full collections of some 330,000 objects
(~90 ms each, six in a 20 s run at 200 games) took ~10 % of the server's CPU and its
slowest answers (issue 34). Here a young collection comes every 7,000 new containers
(not 700) and the middle generation's every 140,000 (not 7,000): in a 20 s run at 200
games the collections cost 0.23 s against 0.77 s, no full one ran, the memory the
same (measured without :func:`gc.freeze`, which leaves less to traverse still). With
both, the CPU per action fell ~10 % and the slowest answer from ~0.3 to ~0.1 s."""


def tune_collector() -> None:
    """Set :data:`GC_THRESHOLDS`, after moving what the app's start made (modules,
    tables, the app itself: never garbage) out of the collector's sight (``gc.freeze``),
    so that no collection traverses it again (before the app's start: no game's state is
    frozen). Called as the server starts, in the server process only: a program that
    makes apps over and over (the tests) keeps Python's collector as it is."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


SERVE_HELP = helps(
    lazy(
        "Serve the web app (games kept in the database of DATABASE_URL: a SQLite file, or "
        "PostgreSQL for several server processes)."
    )
)
"""The help of ``serve``."""


def serve(
    host: Annotated[str, typer.Option(help=helps(lazy("Address to listen on.")))] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option(min=0, max=65535, help=helps(lazy("Port to listen on (0: any free port)."))),
    ] = 8000,
) -> None:
    import sqlite3

    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from mathable.web.api import Settings, create_app

    try:
        settings = Settings()  # a bad DATABASE_URL is refused here, in one line
    except ValueError as exc:  # and a bad MATHABLE_* setting
        raise fail(str(exc)) from None
    url, shown_url = settings.database_url, settings.shown_database_url  # no password shown
    sock = _listen(host, port)
    try:
        web = create_app(url)
    except (OSError, ValueError, sqlite3.Error, SQLAlchemyError) as exc:
        sock.close()
        raise fail(f"DATABASE_URL={shown_url}: {exc}") from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    # TRANSLATORS: {address} is the web address shown in bold, {database} where the games
    # are kept; Ctrl-C is the key that stops the server
    said = _(
        "Mathable is served at {address} (games in {database}; Ctrl-C stops)",
        address="\0",
        database=one_line(shown_url),
    )
    before, _mark, after = said.partition("\0")
    console.print(Text.assemble(before, (f"http://{shown}:{bound}/", "bold"), after))
    # frames over the app's own limit are refused by uvicorn before they are even read
    config = uvicorn.Config(
        web, log_level="warning", ws_max_size=settings.sockets.max_frame, **SOCKET_OPTIONS
    )

    class Server(uvicorn.Server):
        """uvicorn's server, with the collector tuned as it starts serving."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            tune_collector()
            await super().startup(sockets=sockets)

    server = Server(config)
    server.run(sockets=[sock])
