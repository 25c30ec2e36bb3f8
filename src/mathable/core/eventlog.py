"""What every game of the family shares: a log of actions from which its state is
rebuilt. Undo (house rule, ruling V-B), copies and winners live here once, for the
board games (:class:`~.game.Game`) and Quattro (:class:`~.quattro.QuattroGame`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .actions import Action
from .errors import IllegalMove

if TYPE_CHECKING:
    from .game import HouseRules


class EventLogGame(ABC):
    """A game as its seed, options and log; subclasses keep the state and the rules."""

    house_rules: HouseRules
    _log: list[Action]
    _taken_back = "an action"
    """What undo would take back, for its refusal ("a token placed", "a card played")."""

    @abstractmethod
    def apply(self, action: Action | str) -> None:
        """Play an action; IllegalMove leaves the game unchanged."""

    @abstractmethod
    def _reset(self) -> None:
        """Go back to the state before any action (the log is handled here)."""

    @property
    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """Points (or rounds won) per seat."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @property
    def log(self) -> tuple[Action, ...]:
        """Every action applied, in order: with the seed, the whole game."""
        return tuple(self._log)

    def undo(self) -> None:
        """Take back the last action (house rule ``allow_undo``) by replaying the log."""
        if not self.house_rules.allow_undo:
            raise IllegalMove(f"undo is off: {self._taken_back} may not be taken back", rule="V-B")
        if not self._log:
            raise IllegalMove("there is nothing to undo")
        self._rebuild(self._log[:-1])

    def _rebuild(self, log: Sequence[Action]) -> None:
        self._log = []
        self._reset()
        for action in log:
            self.apply(action)

    def winners(self) -> tuple[int, ...]:
        """Seats with the best score (several on a tie); empty while the game runs."""
        if not self.is_over:
            return ()
        best = max(self.scores)
        return tuple(s for s, v in enumerate(self.scores) if v == best)
