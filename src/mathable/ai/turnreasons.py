"""Why a computer exchanged or passed, in the live move lists (issue 35): the web page's
and the terminal's.

:func:`~mathable.ai.reasons.why_not_placed` says it from the position the turn began at.
It is cheap for most turns (a computer that exchanges because nothing fits: about 0.1
ms), but where placements were open it runs the strong player's turn search and threat
estimate (up to a tenth of a second): so it is never made per view. Each live game's
log is followed once (:class:`TurnReasons`), noting the computers' exchanges and passes
by the seat that made each action; their reasons are then worked out once, in a thread
(:meth:`TurnReasons.explain_waiting`), each from the view it was made from (a shadow
replay of the log, advanced only as far as they go), and kept with the game for every
later view, in each reader's language (lazy texts). The web server explains in a thread
(``web/rounds/views.py``), the terminal game at once.
"""

from __future__ import annotations

import threading
from collections.abc import Collection
from typing import cast

from mathable.engine.actions import Action, Exchange, Pass
from mathable.engine.protocol import Game
from mathable.games.board.view import BoardView
from mathable.i18n import Text

from .reasons import why_not_placed


class TurnReasons:
    """One game's computer exchanges and passes and why each was made, by finished turn
    (as the game's summaries number them): found on the event loop (cheap: the new
    actions of the log and their seats, :meth:`~mathable.engine.protocol.Game.actors`),
    explained in a thread on a shadow replay advanced only as far as the last of them."""

    def __init__(self, game: Game, computers: Collection[int]) -> None:
        self.computers = frozenset(computers)
        self._on_board = game.game_type.surface == "board"  # a game of piles: none to explain
        self._shadow = game.fresh()
        self._log: tuple[Action, ...] = ()
        """The actions followed so far."""
        self._lock = threading.Lock()
        self._replaying = threading.Lock()  # the shadow: one explainer at a time
        self.reasons: dict[int, Text] = {}
        """Why the computer's turn was no placement, by finished turn (explained ones)."""
        self.waiting: list[tuple[int, Action]] = []
        """The turns still to explain: the action's place in the log, the action."""
        self.explaining = False
        """A background explanation is under way (the web server's views start one)."""
        self.task: object | None = None
        """The background explanation's handle (a task), held here while it runs."""

    def follows(self, log: tuple[Action, ...]) -> bool:
        """Whether the actions followed so far are still the start of ``log``. The log
        only grows, or is replaced by a replay (an undo, a challenge) that keeps no
        action after the first it changes: so the last action followed, the same object
        at the same place, says so (then a new :class:`TurnReasons` follows it)."""
        followed = len(self._log)
        return followed <= len(log) and (followed == 0 or self._log[-1] is log[followed - 1])

    def follow(self, log: tuple[Action, ...], actors: tuple[int, ...]) -> None:
        """Note the computers' exchanges and passes among the actions of ``log`` not
        followed yet (``actors``: the seat of each action of the log), on a board (a
        game of piles has none to explain)."""
        if self._on_board:
            found = [
                (place, action)
                for place in range(len(self._log), len(log))
                if isinstance(action := log[place], Exchange | Pass)
                and actors[place] in self.computers
            ]
            if found:
                with self._lock:
                    self.waiting.extend(found)
        self._log = log

    def explain_waiting(self) -> bool:
        """Work out the waiting turns' reasons (blocking: call it in a thread, or off the
        event loop); whether any is new. Each is judged from the view of the seat to
        move when it was made, and numbered by the turns finished before it."""
        found = False
        with self._replaying:
            while True:
                with self._lock:
                    if not self.waiting:
                        return found
                    place, action = self.waiting.pop(0)
                shadow = self._shadow
                for earlier in self._log[len(shadow.log) : place]:
                    shadow.apply(earlier)
                view = shadow.view(shadow.to_move, explained=False)
                reason = why_not_placed(cast(BoardView, view), action)
                if reason is not None:
                    with self._lock:
                        self.reasons[len(shadow.summaries())] = reason
                    found = True


_FOLLOWED = "computers' turn reasons"
"""The name under which a game keeps its :class:`TurnReasons` (:attr:`Game.memos`)."""
_followed_lock = threading.Lock()


def turn_reasons(game: Game, computers: Collection[int]) -> TurnReasons | None:
    """The computers' reasons of ``game`` (None: no computer plays it), kept with the game
    object (a game reloaded from the store is followed afresh) and brought up to date
    with its log."""
    if not computers:
        return None
    log = game.log
    with _followed_lock:
        memos = game.memos
        found: TurnReasons | None = memos.get(_FOLLOWED)
        if found is None or found.computers != frozenset(computers) or not found.follows(log):
            found = memos[_FOLLOWED] = TurnReasons(game, computers)
        found.follow(log, game.actors())
    return found
