"""Reading an explicit start of a board game (a record's ``setup``), checked in full.

A setup deals the racks and orders the bag instead of the seeded draw (puzzles, the
rulebook's worked example). It is refused, naming the field, unless it has one rack per
player of at most the rack size, a seat to move among them, and only tokens of the
variant's set, never more of a value than the set holds. A setup may leave tokens out
(a puzzle need not list the whole bag): the tokens dealt are drawn from the set, they
need not be all of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mathable.engine import validation as check
from mathable.i18n import lazy

from .turns import Setup
from .variants import Variant

SETUP_FIELDS = ("racks", "bag", "to_move")


def setup_from_dict(data: Mapping[str, Any], variant: Variant, players: int) -> Setup:
    """An explicit start from a record's ``setup`` for ``players`` seats: racks, bag (in
    draw order) and ``to_move``; raises FieldError naming the field."""
    setup = check.mapping(data, "setup")
    check.only_fields(setup, "setup", SETUP_FIELDS)
    for name in ("racks", "bag"):
        if name not in setup:
            # TRANSLATORS: a field a setup must have is missing ("field 'setup.bag': missing")
            raise check.FieldError(f"setup.{name}", lazy("missing"))
    racks_data = check.array(setup["racks"], "setup.racks")
    if len(racks_data) != players:
        raise check.FieldError(
            "setup.racks",
            lazy(
                "{count} racks for {players} players: one per player",
                count=len(racks_data),
                players=players,
            ),
        )
    piece, supply = variant.piece, variant.tokens
    racks = tuple(
        check.pieces(rack, f"setup.racks[{seat}]", supply, piece=piece, most=variant.rack_size)
        for seat, rack in enumerate(racks_data)
    )
    bag = check.pieces(setup["bag"], "setup.bag", supply, piece=piece)
    check.within_supply([v for r in (*racks, bag) for v in r], supply, "setup", piece=piece)
    to_move = check.integer(setup.get("to_move", 0), "setup.to_move", 0, players - 1)
    return Setup(racks, bag, to_move)
