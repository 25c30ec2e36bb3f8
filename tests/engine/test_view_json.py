"""A view's JSON parts made without a ``str`` call per value (issue 34, cheaper actions):
the same text as the plain way, for any counts."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mathable.engine.view import counts_json


@given(st.dictionaries(st.integers(min_value=-(2**70), max_value=2**70), st.integers()))
def test_counts_are_written_as_json_writes_them(counts: dict[int, int]) -> None:
    assert counts_json(counts) == {str(value): count for value, count in counts.items()}
    assert list(counts_json(counts)) == [str(value) for value in counts]  # in their order
