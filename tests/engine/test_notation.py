"""Notation round trips, parse(format(x)) == x, and clear errors on malformed text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathable.engine.actions import Action, Challenge, EndGame, EndTurn, Exchange, Pass, Place
from mathable.engine.errors import NotationError
from mathable.engine.notation import (
    Position,
    format_action,
    format_turn,
    parse_action,
    parse_actions,
    parse_turn,
)
from mathable.games.board.geometry import Grid

GRID = Grid.of(14)
cells = st.integers(0, 14 * 14 - 1)
values = st.integers(0, 90)
places = st.builds(Place, cells, values, st.booleans())
actions = st.one_of(
    places,
    st.just(EndTurn()),
    st.just(Pass()),
    st.just(Challenge()),
    st.just(EndGame()),
    st.builds(Exchange, st.lists(values, min_size=1, max_size=7).map(tuple)),
)


def test_centre_cells_are_named_as_in_ruling_c1() -> None:
    names = [GRID.name(c) for c in (6 * 14 + 6, 6 * 14 + 7, 7 * 14 + 6, 7 * 14 + 7)]
    assert names == ["G7", "H7", "G8", "H8"]


@given(cells)
def test_cells_round_trip(cell: int) -> None:
    assert GRID.parse(GRID.name(cell)) == cell
    assert GRID.parse(GRID.name(cell).lower()) == cell


@given(actions)
def test_actions_round_trip(action: Action) -> None:
    text = format_action(action, GRID)
    assert parse_action(text, GRID) == action


@given(st.lists(places, max_size=9))
def test_turns_round_trip(turn: list[Place]) -> None:
    assert parse_turn(format_turn(turn, GRID), GRID) == turn


racks = st.one_of(st.integers(0, 7), st.lists(values, max_size=7).map(lambda r: tuple(sorted(r))))


@given(
    st.dictionaries(cells, values, max_size=40),
    st.lists(racks, min_size=2, max_size=4),
    st.data(),
)
def test_positions_round_trip(
    board: dict[int, int], rack_list: list[tuple[int, ...] | int], data: st.DataObject
) -> None:
    n = len(rack_list)
    position = Position(
        "classic",
        tuple(sorted(board.items())),
        tuple(rack_list),
        tuple(data.draw(st.lists(st.integers(-200, 900), min_size=n, max_size=n))),
        data.draw(st.integers(0, 106)),
        data.draw(st.integers(0, n - 1)),
    )
    text = position.format(GRID)
    assert Position.parse(text, GRID) == position
    assert Position.parse(text, GRID).format(GRID) == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "I8",
        "I8=",
        "=12",
        "Z8=1",
        "I15=3",
        "I0=3",
        "I8=12++",
        "I8=-3",
        "exchange",
        "exchange x",
        "end now",
        "A1=1000",
        "exchange ²",  # issue 12: a superscript digit raised ValueError
        "exchange 1234",
        "exchange " + "5" * 5_000,
    ],
)
def test_malformed_actions_are_refused_with_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text, GRID)
    assert str(info.value)


@pytest.mark.parametrize(
    "text",
    [
        "classic | G7=1",
        "chess | G7=1 | 1 / 2 | 0 0 | 5 | 1",
        "classic | G7=1 | 1 / 2 | 0 | 5 | 1",
        "classic | G7=1 | 1 / 2 | 0 0 | x | 1",
        "classic | G7=1 | 1 / 2 | 0 0 | 5 | 3",
        "classic | G7=1 G7=2 | 1 / 2 | 0 0 | 5 | 1",
        "classic | G7=1 | 1 / ?x | 0 0 | 5 | 1",
        "classic | G7=1 | 1 / ?² | 0 0 | 5 | 1",  # issue 12: raised ValueError
        "classic | G7=1 | 1 / 2 | 0 0 | ٣ | 1",
        "classic | G7=1 | 1 / 2 | 0 0 | 5 | 1" + " " * 2_000,  # longer than 2,000
        "classic | G7=1+ | 1 / 2 | 0 0 | 5 | 1",
    ],
)
def test_malformed_positions_are_refused(text: str) -> None:
    with pytest.raises(NotationError):
        Position.parse(text, {"classic": GRID})


# -- a whole turn typed on one line (issue 33) -------------------------------------------


@given(st.lists(places, min_size=1, max_size=7), st.sampled_from([" ", ",", ", ", " , "]))
def test_a_turn_typed_on_one_line_reads_back_its_placements(
    turn: list[Place], separator: str
) -> None:
    typed = separator.join(format_action(p, GRID) for p in turn)
    assert parse_actions(typed, GRID) == turn


def test_a_line_may_close_its_turn_with_a_keyword_and_space_its_equals() -> None:
    assert parse_actions("F7=2,F8=7 end", GRID) == [
        parse_action("F7=2", GRID),
        parse_action("F8=7", GRID),
        EndTurn(),
    ]
    assert parse_actions("f7 = 2 , F8=16 +", GRID) == [
        Place(GRID.parse("F7"), 2),
        Place(GRID.parse("F8"), 16, True),
    ]
    assert parse_actions("pass", GRID) == [Pass()]


def test_a_line_starting_with_an_exchange_is_that_one_action() -> None:
    assert parse_actions("exchange 4,9,10", GRID) == [Exchange((4, 9, 10))]
    assert parse_actions("exchange 4, 9 ,10", GRID) == [Exchange((4, 9, 10))]


@pytest.mark.parametrize(("text", "named"), [("F7=2 F8", "'F8'"), ("F7=2 Z99=1", "Z99"), ("", "")])
def test_a_line_with_a_bad_word_is_refused_naming_it(text: str, named: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_actions(text, GRID)
    assert named in str(caught.value)
