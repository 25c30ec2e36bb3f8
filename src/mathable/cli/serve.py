"""``mathable serve``: the web app (:mod:`mathable.web`), on an address checked first."""

from __future__ import annotations

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
per-message deflate. A view's patch is a few hundred bytes; compressing every message
once per socket (each socket has its own compressor) cost the event loop ~16 % of its
time and saved little on the wire. A client that offers deflate gets plain frames."""


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
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
