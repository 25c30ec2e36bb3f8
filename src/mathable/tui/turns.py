"""Whose turn it is in the full-screen game: the computer's, thought in a worker thread, or
a person's, behind a cover when several share the screen."""

from __future__ import annotations

from contextvars import copy_context
from functools import partial

from textual.worker import Worker, WorkerState

from mathable.engine.actions import Action
from mathable.engine.errors import MathableError
from mathable.i18n import _
from mathable.render.words import over_text

from .drawing import DrawingApp
from .rules import worded
from .screens import CoverScreen
from .widgets import shown


class TurnsApp(DrawingApp):
    """The turns going round: a computer thinks in a worker thread (the screen never
    freezes) and its answer is played if the game still stands where it was asked;
    the screen is covered before each person's turn when several share it."""

    def next_turn(self) -> None:
        """Let a bot move, or cover the screen for the next person."""
        game = self.game
        if game is None:
            return
        if game.is_over:
            self.thinking = None
            self.say(_("{result} (a: analysis, r: replay)", result=shown(over_text(game))))
            self.refresh_all()
            return
        seat = game.to_move
        if seat in self.bots:
            if self.thinking is None:
                self.thinking = seat
                self.refresh_all()
                self.set_timer(max(self.bot_delay, 0.001), self.bot_step)
        elif len(self.people) > 1 and self.covered_for != seat and not self.waiting_cover:
            self.waiting_cover = True
            self.refresh_all()
            self.push_screen(CoverScreen(game.players[seat]), self._uncovered)

    def _uncovered(self, _: None) -> None:
        assert self.game is not None
        self.waiting_cover = False
        self.covered_for = self.game.to_move
        self.refresh_all()

    def bot_step(self) -> None:
        """Ask the computer to move, in a worker thread (a strong search takes time and
        must not freeze the screen); :meth:`on_worker_state_changed` plays its answer."""
        game = self.game
        if game is None or game.is_over or game.to_move not in self.bots:
            self.thinking = None
            self.refresh_all()
            return
        seat = game.to_move
        self.thinking = seat
        # the computer thinks in a thread: in the app's language, should it say anything
        work = partial(copy_context().run, self.bots[seat].act, game.view(seat))
        worker = self.run_worker(
            work, name="computer", group="bot", thread=True, exclusive=True, exit_on_error=False
        )
        self.asked = (worker, seat, game.log)
        self.refresh_all()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A computer's answer: played if the game still stands where it was asked."""
        worker = event.worker
        if event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        if self.asked is None or self.asked[0] is not worker:
            return
        _worker, seat, log = self.asked
        self.asked = None
        game = self.game
        self.thinking = None
        if game is None or game.is_over or game.log != log:
            self.next_turn()  # the game moved on meanwhile (an undo, a challenge)
            return
        action = worker.result
        if event.state == WorkerState.ERROR or not isinstance(action, Action):
            name = shown(game.players[seat])
            self.say(_("{name} could not move: {error}", name=name, error=worker.error), error=True)
            self.refresh_all()
            return
        try:
            game.apply(action)
        except MathableError as exc:
            name = shown(game.players[seat])
            self.say(_("{name} was refused: {error}", name=name, error=exc), error=True)
            self.refresh_all()
            return
        if self.bot_seat != seat:
            self.bot_actions = []
        self.bot_actions.append(worded(game.format_action(action)))
        self.bot_seat = seat
        if game.to_move != seat or game.is_over:
            self.bot_seat, self.bot_actions = None, []  # finished: its summary says it all
        self.after_action()

    def after_action(self) -> None:
        self.selected = self.selected_index = None
        self.marks = {}
        self.refresh_all()
        self.next_turn()
