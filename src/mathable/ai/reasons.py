"""Why a computer exchanged or passed, in words for the move list (issue 35).

Players saw "exchange 6" and a loss, and nothing said why. The reason is recomputed at
display time from the position the turn began at (records keep their format: nothing
new is stored), by the strong player's static equity (:func:`~.evaluation.rank_plans`,
:func:`~.evaluation.exchange_plans`): cheap enough for every view, and reproducible.

The move list is public while the game is played, so a reason says nothing of the rack:
no values, only how many tokens were kept and how the best placement compared.
"""

from __future__ import annotations

from typing import cast

from mathable.engine.actions import Action, Exchange, Pass
from mathable.engine.protocol import Game
from mathable.games.board.view import BoardView
from mathable.i18n import Text, lazy, lazy_plural

from .base import board_from_view
from .evaluation import THREAT_WEIGHT, expected_best_reply, rank_plans
from .families import surface_of
from .leaves import judge

NODES = 20_000
"""The turn search's node budget, as the strong player's."""


def why_not_placed(view: BoardView, action: Action) -> Text | None:
    """Why ``action`` (an exchange or a pass, at the start of a turn of ``view``'s seat)
    was worth more than placing; None for any other action."""
    if not isinstance(action, Exchange | Pass) or view.turn_placements:
        return None
    variant, board = board_from_view(view)
    placements = [
        (equity, plan)
        for equity, plan in rank_plans(view, board=board, node_limit=NODES, top=8)
        if plan.placements
    ]
    if isinstance(action, Pass):
        if not placements:
            if view.bag_size and variant.pass_and_exchange:
                return lazy("passed: none of its tokens fits on the board")
            return lazy("passed: none of its tokens fits and the bag is empty")
        return None
    kept = len(view.rack) - len(action.values)
    if not placements:
        return lazy_plural(
            "exchanged: none of its tokens fits; it kept {count} token",
            "exchanged: none of its tokens fits; it kept {count} tokens",
            kept,
        )
    leaves = judge("learned", variant.name, variant.rack_size)
    threat = THREAT_WEIGHT * expected_best_reply(variant, board, dict(view.unseen))
    given = sorted(action.values)
    rest = list(view.rack)
    for value in given:
        rest.remove(value)
    exchanged = leaves(tuple(sorted(rest)), view.bag_size) - threat
    best = placements[0][0]
    if exchanged < best:  # the expert's simulations, not the static equity, chose it
        return lazy_plural(
            "exchanged: in its simulated replies, keeping {count} token and drawing new "
            "ones did better than its best placement",
            "exchanged: in its simulated replies, keeping {count} tokens and drawing new "
            "ones did better than its best placement",
            kept,
        )
    # TRANSLATORS: why a computer exchanged; {count} tokens kept, {points} equity points
    return lazy_plural(
        "exchanged: keeping {count} token and drawing new ones was worth {points} more "
        "than its best placement",
        "exchanged: keeping {count} tokens and drawing new ones was worth {points} more "
        "than its best placement",
        kept,
        points=round(exchanged - best),
    )


def computer_turn_notes(game: Game, seats: set[int]) -> list[Text | None]:
    """Per finished turn of ``game``, why the computer at one of ``seats`` exchanged or
    passed (None for the others): the move list's note, recomputed from the log."""
    notes: list[Text | None] = [None] * len(game.summaries())
    replay = game.replayed(0)
    for action in game.log:
        index = len(replay.summaries())
        if isinstance(action, Exchange | Pass) and replay.to_move in seats:
            view = replay.view(replay.to_move, explained=False)
            if surface_of(view) == "board" and index < len(notes):
                notes[index] = why_not_placed(cast(BoardView, view), action)
        replay.apply(action)
    return notes
