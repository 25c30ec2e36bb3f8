"""Actions are immutable values: the placement a computer returns may be one kept
object (``placing``, issue 35) and is still the same action as one made anew."""

from __future__ import annotations

import pickle

from hypothesis import given
from hypothesis import strategies as st

from mathable.engine.actions import Place, placing
from mathable.engine.notation import format_action
from mathable.games.board.variants import get_variant


@given(st.integers(0, 195), st.integers(0, 90), st.booleans())
def test_a_kept_placement_is_the_placement_made_anew(cell: int, value: int, extra: bool) -> None:
    kept = placing(cell, value, extra)
    made = Place(cell, value, extra)
    assert kept == made and hash(kept) == hash(made) and type(kept) is Place
    assert kept.kind == made.kind == ("extra" if extra else "place")
    assert pickle.loads(pickle.dumps(kept)) == made
    assert placing(cell, value, extra) is kept  # kept, not made again


def test_a_kept_placement_is_written_like_any_other() -> None:
    grid = get_variant("classic").layout.grid
    assert format_action(placing(106, 12), grid) == format_action(Place(106, 12), grid) == "I8=12"
    assert format_action(placing(106, 12, True), grid) == "I8=12+"
