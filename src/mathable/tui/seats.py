"""The state of the full-screen game: the game, its computer seats, what the person at the
screen has chosen and marked, and whose rack may be shown (local ruling L1: a seat that
left is out)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import App
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import Worker

from mathable.ai import Bot, seat_bots
from mathable.engine.actions import Action, Shake
from mathable.engine.protocol import Game, HouseRules
from mathable.render.surface import Surface

from .screens import Key, speak_keys

PACE = 0.3
"""Seconds between the computer's placements, unless the player chooses (``--pace``)."""


def taken_back(game: Game) -> bool:
    """Whether an undo has something to take back: an action that is not a shake of the
    bag (ruling O5: shakes are never taken back)."""
    return any(not isinstance(action, Shake) for action in game.log)


class SeatsApp(App[None]):
    """A game at one screen and who sits at it: the state every part of the app reads
    (what is chosen, marked, said and being thought), and whose rack is shown; the
    parts above draw it (:mod:`.drawing`), move the turns on (:mod:`.turns`) and act
    (:mod:`.acting`)."""

    KEYS: ClassVar[tuple[Key, ...]] = ()
    """The keys, described in the reader's language when the app is made (the app's)."""

    def __init__(
        self,
        game: Game | None = None,
        *,
        save_path: Path | None = None,
        bot_delay: float = PACE,
        seed: int | None = None,
        variant: str | None = None,
        house_rules: HouseRules | None = None,
        levels: Mapping[int, str] | None = None,
    ) -> None:
        super().__init__()
        speak_keys(self, self.KEYS)
        self.game: Game | None = game
        self.first_choice = (variant, house_rules)
        """The game and house rules the new-game screen first shows (from the CLI)."""
        self.bots: dict[int, Bot] = seat_bots(game.players, seed, levels) if game else {}
        self.save_path = save_path
        self.bot_delay = max(bot_delay, 0.0)
        """Seconds between the computer's placements (``v`` changes it; 0: at once)."""
        self.farewell = ""
        """What is printed once the app has closed: where the game was saved."""
        self.quitting = False
        """Whether the question to save and quit is open (a second Ctrl+C answers yes)."""
        self.bot_seed = seed
        self.selected: int | None = None
        """The value of the chosen piece."""
        self.selected_index: int | None = None
        """Where the chosen piece lies in the rack (values may repeat)."""
        self.cursor = 0
        self.covered_for: int | None = None
        self.message = Text("")
        self.marks: dict[int, str] = {}
        self.waiting_cover = False
        self.widgets: dict[str, Static] = {}
        self.parts: list[Widget] = []
        """What the game screen shows, hidden together when the terminal is too small."""
        self.available: frozenset[str] = frozenset()
        """What the person at the screen may do now (the view's ``available``)."""
        self.notes: tuple[str, ...] = ()
        """The notes drawn under the targets now (they change where clicks land)."""
        self.thinking: int | None = None
        """The computer seat whose move is being worked out, if any."""
        self.bot_actions: list[str] = []
        """The actions of the computer turn under way, as notation (shown one by one)."""
        self.asked: tuple[Worker[Action], int, tuple[Action, ...]] | None = None
        """The computer's move being worked out: its worker, seat and the log it saw."""
        self.bot_seat: int | None = None
        """The computer whose turn is under way (its actions so far in ``bot_actions``)."""
        self.analysing = False
        """Whether the game's analysis is being worked out (in a worker thread)."""

    @property
    def surface(self) -> Surface:
        """How the game in play lays out its targets."""
        assert self.game is not None
        return Surface(self.game.game_type)

    @property
    def people(self) -> list[int]:
        """The people still in the game (local ruling L1: a seat that left is out)."""
        assert self.game is not None
        return [s for s in self.game.seats_in if s not in self.bots]

    def leaving_seat(self) -> int | None:
        """The person at the screen who may leave the game: the one whose rack is
        shown, else the only person still in (a computer may be thinking)."""
        seat = self.viewer()
        if seat is None and len(self.people) == 1:
            seat = self.people[0]
        return seat

    def challenging_seat(self) -> int | None:
        """Who a bare ``challenge`` (the ``c`` key) is for: the person at the screen,
        else the person to move (C12: any opponent may name a seat, ``challenge 2``)."""
        seat = self.leaving_seat()
        if seat is None and self.game is not None and self.game.to_move not in self.bots:
            seat = self.game.to_move
        return seat

    def viewer(self) -> int | None:
        """Whose rack is shown: the person to move once uncovered; with one person at
        the screen, that person always; otherwise nobody."""
        game = self.game
        assert game is not None
        if game.is_over:
            return None
        seat = game.to_move
        if seat not in self.bots and (len(self.people) == 1 or self.covered_for == seat):
            return seat
        if len(self.people) == 1:
            return self.people[0]
        return None

    def human_seat(self) -> int | None:
        game = self.game
        if game is None or game.is_over or game.to_move in self.bots:
            return None
        if self.viewer() != game.to_move:
            return None
        return game.to_move
