"""The blossom matcher behind exact Swiss pairing (issue 38), against brute force."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from mathable.online.tournaments.history import Record
from mathable.online.tournaments.matching import Matcher
from mathable.online.tournaments.pairing import _exact, _match


def matchings(names: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not names:
        yield []
        return
    top, rest = names[0], names[1:]
    for i, partner in enumerate(rest):
        for more in matchings(rest[:i] + rest[i + 1 :]):
            yield [(top, partner), *more]


@st.composite
def graphs(draw: st.DrawFn) -> tuple[list[str], set[frozenset[str]]]:
    """An even count of players and the pairs allowed to meet (sparse or dense)."""
    names = [f"p{i}" for i in range(2 * draw(st.integers(1, 5)))]
    density = draw(st.floats(0.1, 0.9))
    pairs = [frozenset((a, b)) for i, a in enumerate(names) for b in names[i + 1 :]]
    chosen = draw(st.lists(st.floats(0, 1), min_size=len(pairs), max_size=len(pairs)))
    return names, {p for p, x in zip(pairs, chosen, strict=True) if x < density}


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_a_perfect_matching_is_found_exactly_when_one_exists(
    graph: tuple[list[str], set[frozenset[str]]],
) -> None:
    names, edges = graph

    def allowed(a: str, b: str) -> bool:
        return frozenset((a, b)) in edges

    exists = any(all(allowed(a, b) for a, b in m) for m in matchings(names))
    matcher = Matcher(names, allowed)
    assert matcher.perfect() == exists
    if exists:
        assert all(allowed(a, names[matcher.match[i]]) for i, a in enumerate(names))


@settings(max_examples=300, deadline=None)
@given(graphs(), st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=10, max_size=10))
def test_the_exact_search_chooses_as_the_backtracking_does(
    graph: tuple[list[str], set[frozenset[str]]], scores: list[float]
) -> None:
    names, edges = graph
    points = dict(zip(names, sorted(scores, reverse=True), strict=False))
    table = {name: Record(name) for name in names}

    def allowed(a: str, b: str) -> bool:
        return frozenset((a, b)) in edges

    unbounded = _match(names, points, table, allowed, [0, 10**9])
    assert _exact(names, points, table, allowed) == unbounded
