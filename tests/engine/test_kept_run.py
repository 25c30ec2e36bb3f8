"""Runs of kept parts (issue 34, cheaper actions; issue 35, faster self-play): a view's
list of finished turns is made from the list of the view before it, making only the new
turns' parts, and is always the list a part per turn would make, whatever happened in
between (a turn more, an undo, another game's turns)."""

from __future__ import annotations

import gc
from dataclasses import dataclass
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from mathable.engine.kept import Kept, kept, kept_run, where_not


@dataclass(frozen=True, eq=False)
class Turn:
    """A finished turn: an object known by its identity, as the game's are."""

    number: int


def parts_of(turns: list[Turn], made: list[int]) -> list[Kept]:
    """The run of ``turns``' parts, noting in ``made`` the turns whose part was made."""

    def part(index: int) -> Kept:
        turn = turns[index]

        def build() -> dict[str, Any]:
            made.append(turn.number)
            return {"turn": turn.number}

        return kept(turn, "test", build)

    return kept_run(("test",), part, turns)


# an action: a turn more (None), or an undo back to that many turns (a number)
actions = st.lists(st.one_of(st.none(), st.integers(0, 30)), max_size=40)


@given(actions)
def test_a_run_is_the_list_of_each_turns_part_and_makes_only_new_parts(
    steps: list[int | None],
) -> None:
    turns: list[Turn] = [Turn(0)]
    numbers = iter(range(1, 10_000))
    parts_of(turns, [])
    for step in steps:
        before = list(turns)
        if step is None:
            turns.append(Turn(next(numbers)))
        else:  # an undo: the turns after ``step`` are replaced by new ones
            turns[step:] = [Turn(next(numbers)) for _ in turns[step:]]
            if not turns:
                turns.append(Turn(next(numbers)))
        made: list[int] = []
        run = parts_of(turns, made)
        assert run == [{"turn": turn.number} for turn in turns]
        assert all(part is kept(turn, "test", dict) for part, turn in zip(run, turns, strict=True))
        kept_turns = {id(turn) for turn in before}
        assert made == [turn.number for turn in turns if id(turn) not in kept_turns]
        run.append(Kept())  # the caller's own list: changing it changes no later run
        assert parts_of(turns, []) == [{"turn": turn.number} for turn in turns]


def test_a_run_also_checks_every_other_column() -> None:
    """A row whose other objects changed (a turn's summary explained afresh) is made
    again, though its turn is the same."""
    turns = [Turn(1), Turn(2)]
    first, second = [object(), object()], [object(), object()]
    made: list[int] = []

    def part(index: int) -> Kept:
        made.append(index)
        return Kept(index=index)

    kept_run(("columns",), part, turns, first)
    kept_run(("columns",), part, turns, first)
    assert made == [0, 1]
    kept_run(("columns",), part, turns, second)
    assert made == [0, 1, 0, 1]


def test_a_run_goes_with_its_first_turn() -> None:
    from mathable.engine import kept as kept_module

    turns = [Turn(1), Turn(2)]
    parts_of(turns, [])
    slot = (id(turns[0]), ("test",))
    assert slot in kept_module._runs
    del turns
    gc.collect()
    assert slot not in kept_module._runs


@given(st.lists(st.integers(-1, 90), max_size=200))
def test_placed_cells_are_the_cells_not_empty(values: list[int]) -> None:
    names = [f"cell{index}" for index in range(len(values))]
    expected = {names[index]: value for index, value in enumerate(values) if value != -1}
    assert where_not(values, names, -1) == expected
    assert list(where_not(values, names, -1)) == list(expected)
