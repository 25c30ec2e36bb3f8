"""The score keeper's analysis as a job of the worker pool (issue 37): it crosses to a
worker process as data (the kept game's setup and its entries) and is one of the long
jobs (:data:`~mathable.web.infra.workers.LONG_JOBS`), so that no person's turn queues
behind it. Here, below the web, so a worker never loads the web's store to run it."""

from __future__ import annotations

from typing import Any

from mathable.games import registry
from mathable.games.registry import Kept

from .kept_analysis import kept_analysis_report


def kept_from_log(spec: dict[str, Any], log: list[str]) -> Kept:
    """The kept game of a stored setup (``variant``, ``players``, ``first``,
    ``referee``, ``rounds``) with every entry of ``log`` played again."""
    game = registry.kept_game(
        spec["variant"],
        spec["players"],
        first=int(spec["first"]),
        referee=bool(spec.get("referee", False)),
        rounds=int(spec.get("rounds", 1)),
    )
    for entry in log:
        game.play(entry)
    return game


def analysed(game: Kept) -> Kept:
    """``game``, which the keeper analyses whatever its game (a board game: the best turn
    of the same tokens on the same board; Quattro: the longest chain of the same cards
    on the same piles). Kept so a game the keeper could not analyse would be refused
    here, before its job is sent."""
    return game


def analyse_kept_log(spec: dict[str, Any], log: list[str]) -> dict[str, Any]:
    """The analysis of the kept game of ``spec`` and its ``log`` (every entry as played),
    as JSON-ready data (:func:`~.kept_analysis.kept_analysis_report`)."""
    return kept_analysis_report(analysed(kept_from_log(spec, log)))
