"""What every computer player is: something that picks the next action from a view.

A bot sees only a :class:`~mathable.engine.protocol.View` (its own rack, the public
board or piles, scores and the player card), never the game itself, so hidden
information stays hidden. ``act`` is called once per action; a bot that plans a whole
turn replays its plan from the view each time, so it needs no state between calls.
Each rung of the ladder plays every game family: :class:`FamilyBot` hands the view to
the bot's board play or to its Quattro play by the game's surface.

A bot may keep what it can check against the next view, for speed only: its searchable
board (:class:`BoardMemory`, brought up to date from each view's cells) and, for the
planning levels, the rest of its turn. Whatever it keeps is checked against the view, so
a bot made afresh for every action plays legally and as well as one kept all game.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Protocol

from mathable.engine.actions import Accept, Action, Challenge, Decline
from mathable.engine.protocol import View
from mathable.games.board.board import EMPTY
from mathable.games.board.variants import get_variant
from mathable.games.board.view import BoardView
from mathable.games.quattro.view import PilesView

from .families import by_surface
from .memory import BoardMemory
from .memory import board_from_view as board_from_view  # where the ai modules look for it
from .quattro import quattro_act


class Bot(Protocol):
    """A computer player."""

    name: str

    def act(self, view: View) -> Action:
        """The next action for ``view.seat``, who is to move."""
        ...


class FamilyBot(ABC):
    """A rung of the ladder: its own play on a board, and the Quattro play of its level."""

    name: str
    quattro_level: str = ""
    """The Quattro level it plays at (its own name unless it says otherwise)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng: random.Random | None = None
        """An unseeded bot's one generator (made on first use: a seeded bot never uses
        it, and seeding one costs ~4 us, a bot made per seat and game in self-play)."""
        self.memory = BoardMemory()

    def chance(self, view: View, *, at: tuple[object, ...] = ()) -> random.Random:
        """Where a decision's random choices come from: seeded by the bot's seed and the
        position (``at`` names it; by default the whole view of the seat), so a decision
        depends on nothing else -- not on the decisions before it, and a bot made
        afresh for each action (as a server's worker pool may) decides as a kept one.
        Unseeded bots use their one generator."""
        if self.seed is None:
            if self.rng is None:
                self.rng = random.Random()
            return self.rng
        where = at or (
            view.variant,
            view.seat,
            view.surface,
            sorted(view.rack),
            view.playable,
            view.scores,
            view.bag_size,
            view.available,
        )
        return random.Random(f"{self.seed}|{where}")

    def act(self, view: View) -> Action:
        """The next action for ``view.seat``, who is to move: an answer when a question is
        put to it (:func:`answer`), else its play."""
        available = view.available
        if "challenge" in available or "accept" in available:
            answered = answer(view)
            if answered is not None:
                return answered
        return by_surface(view, self.act_on_board, self.act_on_piles)

    @abstractmethod
    def act_on_board(self, view: BoardView) -> Action:
        """The next action in a board game."""

    def act_on_piles(self, view: PilesView) -> Action:
        """The next action in Quattro."""
        return quattro_act(view, self.quattro_level or self.name, self.chance(view))


QUESTIONS = frozenset({"accept", "decline", "challenge"})
"""The keywords that answer a question rather than play a turn."""


def answer(view: View) -> Action | None:
    """What every computer player says when asked: it challenges a turn that holds a
    mistake (C12, as a fair table referee would), accepts a proposal to stop (J4) only
    when it would win or share the win, and lets a game-ending turn stand otherwise.
    None when nothing is asked and no challenge is worth making."""
    if "challenge" in view.available and by_surface(view, last_turn_has_mistake, _no_mistake):
        return Challenge()
    if "accept" not in view.available or not set(view.available) <= QUESTIONS:
        return None
    behind = view.seat is not None and view.scores[view.seat] < max(view.scores)
    if "decline" in view.available and behind:
        return Decline()
    return Accept()


def _no_mistake(view: PilesView) -> bool:
    return False


def last_turn_has_mistake(view: BoardView) -> bool:
    """Whether a placement of the last finished turn broke the rules when it was placed
    (C12): the turn is taken back and placed again in order on the public board."""
    if not view.turns or view.turns[-1].challenged or not view.turns[-1].placements:
        return False
    placements = view.turns[-1].placements
    variant = get_variant(view.variant)
    taken_back = {p.cell for p in placements}
    initial = {c: v for c, v in enumerate(view.board) if v != EMPTY and c not in taken_back}
    board = variant.new_board(initial)
    strict = bool(view.house_rules.get("strict", False))
    for placed in placements:
        if placed.cell not in variant.legal_cells(board, placed.value, strict):
            return True
        board.place(placed.cell, placed.value)
    return False


def share_board(bots: Sequence[object]) -> None:
    """Let the computers of one game keep one searchable board between them. The board
    is public and each of them catches up on the same cells, so a token is placed on it
    once for all instead of once per computer (issue 35: ~5% of greedy self-play). Each
    leaves the board as it found it (:meth:`BoardMemory.board_for`), so none sees
    another's search; bots without a board memory are left alone."""
    memory = BoardMemory()
    for bot in bots:
        if isinstance(bot, FamilyBot):
            bot.memory = memory
