"""The master: the expert's search with a larger budget, for correspondence and analysis.

As Macondo's longer simulations: more continuations (``samples``), a wider shortlist
(``candidates``, from more turns whose threat is judged: ``threat_top``) and more
exchanges simulated beside the placements; late in the game its continuations are
played out to the end (``to_end``: :data:`MASTER_TO_END`). Every budget is a count, so the master
decides from its seed and the view alone, as the expert does (issue 35); its wall-clock
safety cap is wider, as its turns take longer (0.3-2 s: docs/computer-players.md).
"""

from __future__ import annotations

from .inference import FITS_WEIGHT
from .simulation import ENDGAME_NODES, PRE_ENDGAME_NODES, PRE_ENDGAME_SAMPLES, REPLY_NODES
from .strong import BUDGET_MS_IS_CAP, DEFAULT_NODES, ExpertBot

MASTER_CAP_MS = 20_000
"""The master's default wall-clock safety cap per decision: far above its budgets' time
(its longest turns take ~2 s on a busy machine), so it bites only on one in trouble."""


MASTER_TO_END = 10
"""The master plays its simulated continuations out to the game's end, C11's deductions
included, once the bag holds this many tokens or fewer after the candidate turn
(``to_end``; the expert's continuations stop after two turns): better than the expert in classic on
tuning and on held-out deals, even in Junior, worse from 20 tokens (the figures:
docs/computer-players.md, the master)."""


MASTER_SAMPLES = 256
"""Simulated continuations of each candidate turn (the expert's: 64)."""
MASTER_CANDIDATES = 12
"""Candidate turns simulated, best by static equity (the expert's: 8)."""
MASTER_THREAT_TOP = 60
"""Turns whose threat is judged before the candidates are taken (the expert's: 30)."""
MASTER_EXCHANGES = 4
"""Exchanges simulated beside the placements (the expert's: 2)."""
MASTER_ENDGAME_TURNS = 6
"""Turns the end-game search looks at with the bag empty."""


class MasterBot(ExpertBot):
    """Plays as the expert, with a larger budget: more simulated continuations of more
    candidate turns and exchanges, played out to the end late in the game, for
    correspondence games and analysis (its turns take up to a second or two)."""

    name = "master"

    def __init__(
        self,
        seed: int | None = None,
        samples: int = MASTER_SAMPLES,
        budget_ms: int | None = BUDGET_MS_IS_CAP,
        candidates: int = MASTER_CANDIDATES,
        blend: float = 0.5,
        nodes: int = DEFAULT_NODES,
        searched_reply: bool = False,
        searched_own: bool = False,
        rollout_nodes: int = REPLY_NODES,
        endgame_turns: int = MASTER_ENDGAME_TURNS,
        leaves: str = "learned",
        infer: bool = True,
        race: bool = False,
        threat_top: int = MASTER_THREAT_TOP,
        final_leave: bool = False,
        opp_leave: bool = False,
        plies: int = 2,
        to_end: int = MASTER_TO_END,
        even_horizon: bool = False,
        end_blend: float = -1.0,
        fits_weight: float = FITS_WEIGHT,
        history: bool = False,
        win_chance: bool = False,
        exchanges: int = MASTER_EXCHANGES,
        pre_endgame: int = 0,
        pre_samples: int = PRE_ENDGAME_SAMPLES,
        pre_nodes: int = PRE_ENDGAME_NODES,
        cap_ms: int | None = MASTER_CAP_MS,
        endgame_nodes: int | None = ENDGAME_NODES,
    ) -> None:
        """The expert's settings (:class:`~.strong.ExpertBot`), with the master's
        larger budgets as defaults (measured on tuning seeds: docs/computer-players.md)."""
        super().__init__(
            seed,
            samples=samples,
            budget_ms=budget_ms,
            candidates=candidates,
            blend=blend,
            nodes=nodes,
            searched_reply=searched_reply,
            searched_own=searched_own,
            rollout_nodes=rollout_nodes,
            endgame_turns=endgame_turns,
            leaves=leaves,
            infer=infer,
            race=race,
            threat_top=threat_top,
            final_leave=final_leave,
            opp_leave=opp_leave,
            plies=plies,
            to_end=to_end,
            even_horizon=even_horizon,
            end_blend=end_blend,
            fits_weight=fits_weight,
            history=history,
            win_chance=win_chance,
            exchanges=exchanges,
            pre_endgame=pre_endgame,
            pre_samples=pre_samples,
            pre_nodes=pre_nodes,
            cap_ms=cap_ms,
            endgame_nodes=endgame_nodes,
        )
