"""A game kept at a real table as a log of typed entries (issue 37, ruling R1).

The score keeper knows only what the table enters, one line at a time. Its state is
rebuilt from the entries still in force: an entry is applied whole or refused with the
state as it was, and ``undo`` takes back the last entry in force. The board games' and
Quattro's keepers share this; each says how its state starts (``_rebuild``) and what an
entry does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from mathable.i18n import lazy, lazy_plural

from .errors import IllegalMove, NotationError

T = TypeVar("T")

MAX_ENTRY = 400
"""The longest entry read, in characters (a turn of 14 placements is about 100)."""

MAX_NAME = 40
"""The longest player's name a kept game takes, in characters."""


class EntryLog:
    """The entries of a kept game: every one as played (``log``), those in force, and
    what undo restores."""

    def __init__(self) -> None:
        self.log: list[str] = []
        """Every entry, as played (undo and challenge included)."""
        self._entries: list[str] = []
        self._before: list[list[str]] = []
        """The entries in force before each entry still in force (what undo restores)."""

    def _rebuild(self) -> None:
        """The state from scratch, replaying the entries in force."""
        raise NotImplementedError

    @staticmethod
    def entered(text: str) -> str:
        """A typed line as an entry (its spaces folded), refused when too long."""
        entry = " ".join(text.split())
        if len(entry) > MAX_ENTRY:
            raise NotationError(
                lazy_plural(
                    "an entry of at most {count} character",
                    "an entry of at most {count} characters",
                    MAX_ENTRY,
                )
            )
        return entry

    def _enter(self, entry: str, apply: Callable[[str], T]) -> T:
        """Put ``entry`` in force through ``apply``; refused (IllegalMove or
        NotationError), the state is rebuilt as it was."""
        saved = list(self._entries)
        try:
            self._entries.append(entry)
            made = apply(entry)
        except (IllegalMove, NotationError):
            self._entries = saved
            self._rebuild()
            raise
        self._before.append(saved)
        return made

    def _undo(self) -> None:
        """Take back the last entry still in force."""
        if not self._before:
            raise IllegalMove(lazy("there is nothing to undo"))
        self._entries = self._before.pop()
        self._rebuild()


def check_table(
    players: Sequence[str],
    game: object,
    fewest: int,
    most: int,
    shown: Callable[[str], str],
    unwritable: Callable[[str, str], bool],
) -> None:
    """Refuse a table the game cannot seat: the number of players, a name empty, too long
    or that its sheet cannot write (``unwritable(name, shown)``), or two names the same as
    the sheet shows them (``shown``), whatever their case."""
    if not fewest <= len(players) <= most:
        raise IllegalMove(
            lazy(
                "{game} is played by {fewest} to {most} players",
                game=game,
                fewest=fewest,
                most=most,
            )
        )
    seen: set[str] = set()
    for name in players:
        written = shown(name)
        if len(name) > MAX_NAME or unwritable(name, written):
            raise IllegalMove(
                lazy(
                    "{name}: a player's name of 1 to {most} characters on one line",
                    name=repr(name),
                    most=MAX_NAME,
                )
            )
        if written.casefold() in seen:
            raise IllegalMove(lazy("two players are called {name}", name=written))
        seen.add(written.casefold())
