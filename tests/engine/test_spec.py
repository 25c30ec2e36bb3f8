"""A new game's spec checked once, in the engine (issue 34): seats, house rules by name
and rounds, for every game in the registry, with the texts the server has always shown
(the service and the lobby both call :func:`~mathable.engine.spec.check_spec`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathable.engine.spec import SpecError, check_spec
from mathable.games.registry import GAMES, new_game

NAMES = tuple(GAMES)


@pytest.mark.parametrize("name", NAMES)
def test_the_seats_a_game_is_played_by(name: str) -> None:
    kind = GAMES[name]
    low, high = kind.min_players, kind.max_players
    for seats in range(low, high + 1):
        check_spec(kind, seats)
    for seats in (low - 1, high + 1):
        with pytest.raises(SpecError) as created:
            check_spec(kind, seats)
        assert created.value.field == "players"
        assert str(created.value) == f"players: a list of {low} to {high} seats"
        with pytest.raises(SpecError) as sought:
            check_spec(kind, seats, seats_field="seats")
        assert sought.value.field == "seats"
        assert str(sought.value) == f"seats: {kind.title} is played by {low} to {high}"


@pytest.mark.parametrize("name", NAMES)
def test_only_the_house_rules_a_game_offers(name: str) -> None:
    kind = GAMES[name]
    check_spec(kind, kind.min_players, kind.house_rules)
    with pytest.raises(SpecError) as info:
        check_spec(kind, kind.min_players, [*kind.house_rules, "no_such_rule"])
    assert info.value.field == "house_rules"
    offered = ", ".join(kind.house_rules)
    assert str(info.value) == f"house_rules.no_such_rule: {kind.title} offers {offered}"
    unoffered = {"table_referee", "allow_undo", "strict", "hints"} - set(kind.house_rules)
    for rule in unoffered:
        with pytest.raises(SpecError, match=f"house_rules.{rule}: "):
            check_spec(kind, kind.min_players, [rule])


@pytest.mark.parametrize("name", NAMES)
@given(rounds=st.integers(-3, 120))
def test_rounds_as_new_game_takes_them(name: str, rounds: int) -> None:
    """The spec refuses exactly the rounds :func:`new_game` refuses, in the same words."""
    kind = GAMES[name]
    try:
        new_game(name, kind.min_players, seed=1, rounds=rounds)
    except ValueError as refused:
        with pytest.raises(SpecError) as info:
            check_spec(kind, kind.min_players, rounds=rounds)
        assert info.value.field == "rounds"
        assert str(info.value) == str(refused)
    else:
        check_spec(kind, kind.min_players, rounds=rounds)
