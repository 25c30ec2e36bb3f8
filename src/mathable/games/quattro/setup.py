"""Reading a chosen Quattro deal (a record's ``setup``), checked in full.

A deal is refused, naming the field, unless it has one hand per player of 1 to 7 cards,
four pile cards, a reserve, a seat to move among the players, and only cards of the
106-card deck (Q1), never more of a value than the deck holds. A deal may leave cards
out (a worked example need not list the whole reserve).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mathable.engine import validation as check
from mathable.engine.tokens import CLASSIC_TOKENS, pieces_text
from mathable.i18n import lazy

HAND_SIZE = 7
"""Q1: the cards dealt to each player."""
SETUP_FIELDS = ("hands", "piles", "reserve", "to_move")

Deal = tuple[tuple[tuple[int, ...], ...], tuple[int, int, int, int], tuple[int, ...], int]
"""Hands, the four pile cards (A B C D), the reserve in draw order, the seat to move."""


def read_deal(data: Mapping[str, Any], players: int) -> Deal:
    """A deal for ``players`` seats from a record's ``setup``; raises FieldError."""
    setup = check.mapping(data, "setup")
    check.only_fields(setup, "setup", SETUP_FIELDS)
    for name in ("hands", "piles", "reserve"):
        if name not in setup:
            # TRANSLATORS: a field a setup must have is missing ("field 'setup.bag': missing")
            raise check.FieldError(f"setup.{name}", lazy("missing"))
    hands_data = check.array(setup["hands"], "setup.hands")
    if len(hands_data) != players:
        raise check.FieldError(
            "setup.hands",
            lazy(
                "{count} hands for {players} players: one per player",
                count=len(hands_data),
                players=players,
            ),
        )
    hands = tuple(
        check.pieces(
            hand, f"setup.hands[{seat}]", CLASSIC_TOKENS, piece="card", most=HAND_SIZE, least=1
        )
        for seat, hand in enumerate(hands_data)
    )
    piles = check.pieces(setup["piles"], "setup.piles", CLASSIC_TOKENS, piece="card", least=4)
    if len(piles) != 4:
        many = pieces_text("card", len(piles))
        raise check.FieldError("setup.piles", lazy("{cards}: one for each of 4 piles", cards=many))
    reserve = check.pieces(setup["reserve"], "setup.reserve", CLASSIC_TOKENS, piece="card")
    cards = [c for group in (*hands, piles, reserve) for c in group]
    check.within_supply(cards, CLASSIC_TOKENS, "setup", piece="card")
    to_move = check.integer(setup.get("to_move", 0), "setup.to_move", 0, players - 1)
    a, b, c, d = piles
    return hands, (a, b, c, d), reserve, to_move
