"""Why a computer exchanged or passed, in the live move lists (issue 35): the web page's
and the terminal's.

:func:`~mathable.ai.reasons.why_not_placed` says it from the position the turn began at.
It is cheap for most turns (a computer that exchanges because nothing fits: about 0.1
ms), but where placements were open it runs the strong player's turn search and threat
estimate (up to a tenth of a second): so it is never made per view. Each live game's
log is followed once, action by action, by a shadow replay (:class:`TurnReasons`), which
notes the computers' exchanges and passes with the view they were made from; their
reasons are then worked out once, in a thread (:meth:`TurnReasons.explain_waiting`), and
kept with the game for every later view, in each reader's language (lazy texts). The web
server explains in a thread (``web/rounds/views.py``), the terminal game at once.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Collection
from typing import cast

from mathable.engine.actions import Action, Exchange, Pass
from mathable.engine.protocol import Game
from mathable.games.board.view import BoardView
from mathable.i18n import Text

from .families import surface_of
from .reasons import why_not_placed


class TurnReasons:
    """One game's computer exchanges and passes and why each was made, by finished turn
    (as the game's summaries number them): followed on the event loop (cheap: one action
    applied to a shadow game), explained in a thread."""

    def __init__(self, game: Game, computers: Collection[int]) -> None:
        self.computers = frozenset(computers)
        self._shadow = game.fresh()
        self._walked: list[Action] = []
        self._lock = threading.Lock()
        self.reasons: dict[int, Text] = {}
        """Why the computer's turn was no placement, by finished turn (explained ones)."""
        self.waiting: list[tuple[int, BoardView, Action]] = []
        """The turns still to explain: the turn's number, its view, the action."""
        self.explaining = False
        """A background explanation is under way (the web server's views start one)."""
        self.task: object | None = None
        """The background explanation's handle (a task), held here while it runs."""

    def follows(self, log: tuple[Action, ...]) -> bool:
        """Whether the actions followed so far are still the start of ``log`` (an undo
        or a challenge replaces the log: then a new :class:`TurnReasons` follows it)."""
        walked = self._walked
        return len(walked) <= len(log) and all(a is b for a, b in zip(walked, log, strict=False))

    def follow(self, log: tuple[Action, ...]) -> None:
        """Apply the actions of ``log`` not followed yet to the shadow game, noting each
        computer's exchange or pass made at the start of its turn on a board (a game of
        piles has none to explain)."""
        shadow = self._shadow
        for action in log[len(self._walked) :]:
            if isinstance(action, Exchange | Pass) and shadow.to_move in self.computers:
                view = shadow.view(shadow.to_move, explained=False)
                if surface_of(view) == "board":
                    with self._lock:
                        self.waiting.append(
                            (len(shadow.summaries()), cast(BoardView, view), action)
                        )
            shadow.apply(action)
            self._walked.append(action)

    def explain_waiting(self) -> bool:
        """Work out the waiting turns' reasons (blocking: call it in a thread, or off the
        event loop); whether any reason is new."""
        found = False
        while True:
            with self._lock:
                if not self.waiting:
                    return found
                index, view, action = self.waiting.pop(0)
            reason = why_not_placed(view, action)
            if reason is not None:
                with self._lock:
                    self.reasons[index] = reason
                found = True


_followed: weakref.WeakKeyDictionary[Game, TurnReasons] = weakref.WeakKeyDictionary()
_followed_lock = threading.Lock()


def turn_reasons(game: Game, computers: Collection[int]) -> TurnReasons | None:
    """The computers' reasons of ``game`` (None: no computer plays it), kept with the game
    object (a game reloaded from the store is followed afresh) and brought up to date
    with its log."""
    if not computers:
        return None
    log = game.log
    with _followed_lock:
        found = _followed.get(game)
        if found is None or found.computers != frozenset(computers) or not found.follows(log):
            found = _followed[game] = TurnReasons(game, computers)
        found.follow(log)
    return found
