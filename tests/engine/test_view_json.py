"""A view's JSON parts made without a ``str`` call per value (issue 34, cheaper actions):
the same text as the plain way, for any counts; and a view made at once (issue 35)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathable.engine.view import counts_json
from mathable.games.board.game import BoardGame


@given(st.dictionaries(st.integers(min_value=-(2**70), max_value=2**70), st.integers()))
def test_counts_are_written_as_json_writes_them(counts: dict[int, int]) -> None:
    assert counts_json(counts) == {str(value): count for value, count in counts.items()}
    assert list(counts_json(counts)) == [str(value) for value in counts]  # in their order


def test_a_view_made_at_once_is_the_view_its_init_makes_and_needs_every_field() -> None:
    """``View.made`` (issue 35, faster self-play) fills a view's fields at once: the same
    view as ``__init__`` makes, frozen after; a field missing or unknown is refused."""
    view = BoardGame("classic", 2, seed=7).view(0)
    values = {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}
    made = type(view).made(**values)
    assert made == type(view)(**values)
    assert made.to_dict() == view.to_dict()
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.rack = ()  # type: ignore[misc]
    del values["rack"]
    with pytest.raises(TypeError, match=r"missing fields \['rack'\]"):
        type(view).made(**values)
    with pytest.raises(TypeError, match=r"unknown \['racks'\]"):
        type(view).made(**values, rack=(), racks=())
