"""The expert and the master as the ladder registers them: their board play as
:class:`~.strong.ExpertBot` and :class:`~.master.MasterBot`, and in Quattro their own
play, rounds judged by simulation (:mod:`.quattro_expert`) rather than the strong
player's chain search.

Each takes its board settings (read from the board class's signature, so the ladder's
spec parser offers them all) and the Quattro budgets, all counts: ``quattro_samples``,
the deals each decision plays out (0: it plays as the strong player);
``quattro_candidates``, the most candidates each deal judges; ``quattro_nodes``, the
positions the simulations' chain searches may search in all per decision;
``quattro_horizon``, the turns each deal plays after a candidate before the round is
estimated from the cards in hand (0: to its end); ``quattro_infer``, whether the
opponents are dealt the hands their last turns could have left. The board's ``cap_ms``
is the Quattro decision's wall-clock safety cap too.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from mathable.engine.actions import Action
from mathable.games.quattro.view import PilesView
from mathable.games.registry import game_type

from .master import MasterBot
from .quattro_expert import QuattroBudget, QuattroExpert
from .strong import ExpertBot

EXPERT_QUATTRO: dict[str, Any] = {
    "quattro_samples": 128,
    "quattro_candidates": 6,
    "quattro_nodes": 40_000,
    "quattro_horizon": 4,
    "quattro_infer": True,
}
"""The expert's Quattro budgets (tuned on seeds below 1,000,000: docs/computer-players.md)."""
MASTER_QUATTRO: dict[str, Any] = {
    **EXPERT_QUATTRO,
    "quattro_samples": 192,
    "quattro_candidates": 10,
    "quattro_nodes": 200_000,
}
"""The master's: half again the expert's deals, more candidates, five times the nodes."""


class QuattroPlay:
    """What the expert and the master add to their board class: Quattro judged by
    simulated rounds (:class:`~.quattro_expert.QuattroExpert`), with the budgets
    :attr:`quattro_defaults` unless the settings give others. Put before the board
    class among the bases: its constructor takes the Quattro budgets out of the settings
    and hands the rest on."""

    name: str
    quattro: QuattroExpert
    quattro_defaults: dict[str, Any]
    capped: int
    cap_ms: int | None

    def __init__(self, seed: int | None = None, **settings: Any) -> None:
        """The board's settings and the Quattro budgets."""
        own = {name: settings.pop(name, value) for name, value in self.quattro_defaults.items()}
        super().__init__(seed, **settings)  # type: ignore[call-arg]  # the board class
        try:
            budget = QuattroBudget(
                samples=own["quattro_samples"],
                candidates=own["quattro_candidates"],
                cap_ms=self.cap_ms,
                horizon=own["quattro_horizon"],
                infer=own["quattro_infer"],
                nodes=own["quattro_nodes"],
            )
        except ValueError as error:
            raise ValueError(f"quattro_{error}") from None
        self.quattro = QuattroExpert(budget, self.name)

    @classmethod
    def plays_as(cls, game: str) -> str:
        """Itself in Quattro, else as its board class says."""
        if game_type(game).surface == "piles":
            return cls.name
        return super().plays_as(game)  # type: ignore[misc,no-any-return]  # the board class

    def act_on_piles(self, view: PilesView) -> Action:
        """The Quattro expert's action, its cut-short decisions counted in ``capped``."""
        before = self.quattro.capped
        assert isinstance(self, ExpertBot)
        action = self.quattro.act(view, lambda at: self.chance(view, at=at))
        self.capped += self.quattro.capped - before
        return action


def _own_signature(board: type[ExpertBot], defaults: dict[str, Any]) -> inspect.Signature:
    """``board``'s constructor signature with the Quattro budgets added (what
    :func:`~mathable.ai.settings_of` reads)."""
    signature = inspect.signature(board.__init__)
    extra = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=value)
        for name, value in defaults.items()
    ]
    params = [p for p in signature.parameters.values() if p.kind != p.VAR_KEYWORD]
    return signature.replace(parameters=[*params, *extra])


def _init_for(board: type[ExpertBot], defaults: dict[str, Any]) -> Callable[..., None]:
    """A level's own constructor: :class:`QuattroPlay`'s, with the signature of
    ``board``'s plus the Quattro budgets (each level its own function, so each its own
    signature)."""

    def __init__(self: QuattroPlay, seed: int | None = None, **settings: Any) -> None:
        QuattroPlay.__init__(self, seed, **settings)

    __init__.__doc__ = f"The settings of {board.__name__} and the Quattro budgets."
    __init__.__signature__ = _own_signature(board, defaults)  # type: ignore[attr-defined]
    return __init__


class QuattroExpertBot(QuattroPlay, ExpertBot):
    """Tries the strong player's best few turns, and exchanging the tokens it would
    rather not keep, in simulated continuations (see :class:`~.strong.ExpertBot`); in
    Quattro, plays out the round on sampled deals after each way its turn can end."""

    quattro_defaults = EXPERT_QUATTRO
    __init__ = _init_for(ExpertBot, EXPERT_QUATTRO)


class QuattroMasterBot(QuattroPlay, MasterBot):
    """Plays as the expert, with a larger budget (see :class:`~.master.MasterBot`); in
    Quattro, more sampled deals of more candidates."""

    quattro_defaults = MASTER_QUATTRO
    __init__ = _init_for(MasterBot, MASTER_QUATTRO)
