"""Seats bound to players (issue 15, "Players": seat credentials out of URLs).

A seat taken by a person (the creator's, an invitation followed, a seek joined) is bound
to the player of their session cookie (:data:`~.db.game_players`, and ``"player"`` in the
stored seats); from then on the cookie opens that seat wherever a request carries no
token (:meth:`~.service.LiveGame.seat_of`), so a game's page is ``/g/{id}`` for its
players. Tokens stay accepted (API clients, pass and play at one screen).

Reading the cookie here, not through :data:`~.accounts.MeDep`, keeps a spectator's read
free of a database write (no guest is made for a visitor without a cookie).
"""

from __future__ import annotations

from starlette.requests import HTTPConnection

SESSION_KEY = "player"
"""The session's entry holding the player id (as :mod:`.accounts` writes it)."""


def cookie_player(connection: HTTPConnection) -> str | None:
    """The player id of the request's (or websocket's) signed session cookie; None
    without one (or without the session middleware)."""
    if "session" not in connection.scope:
        return None
    found = connection.session.get(SESSION_KEY)
    return found if isinstance(found, str) else None
