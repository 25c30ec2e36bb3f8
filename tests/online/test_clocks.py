"""Clocks derived from turn changes (mathable.online.clocks): time controls and their JSON,
worked examples, and properties over games played the way the server records them."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathable.online.clocks import (
    MS_PER_DAY,
    Clocks,
    Correspondence,
    FirstMove,
    Flag,
    Live,
    TimeControl,
    TimeControlError,
    Turn,
    clocks_at,
    first_move_ms,
    next_seat,
    parse_time_control,
)

START = 1_700_000_000_000


# -- time controls ---------------------------------------------------------------------


def test_parse_live_and_correspondence() -> None:
    assert parse_time_control({"minutes": 5, "increment": 3}) == Live(5, 3)
    assert parse_time_control({"minutes": 10}) == Live(10, 0)
    assert parse_time_control({"days": 3}) == Correspondence(3)
    assert str(Live(5, 3)) == "5+3"
    assert Live(15, 5).pace == "live"
    assert Correspondence(1).pace == "correspondence"
    assert (Live(5, 3).initial_ms, Live(5, 3).increment_ms) == (300_000, 3_000)
    assert Correspondence(2).initial_ms == 2 * MS_PER_DAY


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"minutes": 0, "increment": 3}, "clock.minutes"),
        ({"minutes": 181}, "clock.minutes"),
        ({"minutes": "5"}, "clock.minutes"),
        ({"minutes": 5.0}, "clock.minutes"),
        ({"minutes": True}, "clock.minutes"),
        ({"minutes": 5, "increment": -1}, "clock.increment"),
        ({"minutes": 5, "increment": 181}, "clock.increment"),
        ({"minutes": 5, "increment": None}, "clock.increment"),
        ({"days": 0}, "clock.days"),
        ({"days": 15}, "clock.days"),
        ({"days": 3, "minutes": 5}, "clock"),
        ({"days": 3, "increment": 5}, "clock"),
        ({"increment": 3}, "clock.minutes"),
        ({}, "clock.minutes"),
        ({"minutes": 5, "delay": 2}, "clock.delay"),
        ([5, 3], "clock"),
        ("5+3", "clock"),
        (None, "clock"),
    ],
)
def test_parse_errors_name_the_field(data: object, field: str) -> None:
    with pytest.raises(TimeControlError) as caught:
        parse_time_control(data)
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: ")


def test_constructors_check_bounds_too() -> None:
    with pytest.raises(TimeControlError, match=r"clock\.minutes: .* 1 to 180"):
        Live(0)
    with pytest.raises(TimeControlError, match=r"clock\.days: .* 1 to 14"):
        Correspondence(20)


controls = st.one_of(
    st.builds(Live, st.integers(1, 180), st.integers(0, 180)),
    st.builds(Correspondence, st.integers(1, 14)),
)


@given(controls)
def test_json_round_trip(control: TimeControl) -> None:
    assert parse_time_control(control.to_json()) == control


# -- worked examples --------------------------------------------------------------------


def test_live_two_players_with_increment() -> None:
    control = Live(5, 3)
    turns = [Turn(START, 0), Turn(START + 10_000, 1), Turn(START + 25_000, 0)]
    state = clocks_at(control, 2, turns, START + 27_000)
    assert state == Clocks(
        at=START + 27_000,
        left_ms=(300_000 - 10_000 + 3_000 - 2_000, 300_000 - 15_000 + 3_000),
        used_ms=(12_000, 15_000),
        running=0,
        flags=(),
    )
    assert state.deadline == START + 27_000 + 291_000


def test_flag_is_found_late_at_the_same_instant() -> None:
    """The server was down when seat 1's time ran out: reading the log later finds the
    same instant, and recording it then starts the next clock from that instant."""
    control = Live(1, 0)
    turns = [Turn(START, 0), Turn(START + 5_000, 1)]
    late = clocks_at(control, 3, turns, START + 500_000)
    assert late.flags == (Flag(1, START + 65_000),)
    assert late.running is None
    assert late.left_ms == (55_000, 0, 60_000)
    assert late.at == START + 65_000
    assert late.deadline is None
    recorded = [*turns, Turn(START + 65_000, next_seat(3, 1, {1}))]
    later = clocks_at(control, 3, recorded, START + 100_000)
    assert later.flags == late.flags
    assert later.running == 2
    assert later.left_ms == (55_000, 0, 60_000 - 35_000)


def test_a_turn_at_the_last_millisecond_is_too_late() -> None:
    control = Live(1, 10)
    on_time = clocks_at(control, 2, [Turn(START, 0), Turn(START + 59_999, 1)], START + 59_999)
    assert on_time.flags == ()
    assert on_time.left_ms[0] == 1 + 10_000
    too_late = clocks_at(control, 2, [Turn(START, 0), Turn(START + 60_000, 1)], START + 60_000)
    assert too_late.flags == (Flag(0, START + 60_000),)
    assert too_late.left_ms[0] == 0


def test_correspondence_resets_at_each_turn() -> None:
    control = Correspondence(3)
    turns = [Turn(START, 0), Turn(START + MS_PER_DAY, 1)]
    state = clocks_at(control, 2, turns, START + 2 * MS_PER_DAY + 5)
    assert state.left_ms == (3 * MS_PER_DAY, 2 * MS_PER_DAY - 5)
    assert state.running == 1
    timed_out = clocks_at(control, 2, turns, START + 10 * MS_PER_DAY)
    assert timed_out.flags == (Flag(1, START + 4 * MS_PER_DAY),)


def test_game_over_stops_every_clock() -> None:
    turns = [Turn(START, 0), Turn(START + 4_000, 1), Turn(START + 9_000, None)]
    state = clocks_at(Live(3, 2), 2, turns, START + 10**9)
    assert state.running is None
    assert state.at == START + 9_000
    assert state.left_ms == (180_000 - 4_000 + 2_000, 180_000 - 5_000)


def test_now_before_the_last_turn_counts_as_that_turn() -> None:
    turns = [Turn(START, 0), Turn(START + 4_000, 1)]
    assert clocks_at(Live(3), 2, turns, START) == clocks_at(Live(3), 2, turns, START + 4_000)


@pytest.mark.parametrize(
    ("seats", "turns", "message"),
    [
        (2, [], "start with a turn"),
        (2, [Turn(START, None)], "start with a turn"),
        (0, [Turn(START, 0)], "at least one seat"),
        (2, [Turn(START, 0), Turn(START - 1, 1)], "out of order"),
        (2, [Turn(START, 0), Turn(START + 1, None), Turn(START + 2, 1)], "after the game ended"),
        (2, [Turn(START, 2)], "seat 2 in a game of 2"),
        (3, [Turn(START, 0), Turn(START + 60_000, 1), Turn(START + 60_001, 0)], "ran out of time"),
    ],
)
def test_malformed_logs_are_refused(seats: int, turns: list[Turn], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        clocks_at(Live(1), seats, turns, START + 100_000)


def test_next_seat_skips_those_out() -> None:
    assert next_seat(4, 1, set()) == 2
    assert next_seat(4, 3, set()) == 0
    assert next_seat(4, 1, {2, 3}) == 0
    assert next_seat(3, 1, {1}) == 2
    assert next_seat(3, 1, {0, 2}) == 1
    assert next_seat(2, 0, {0, 1}) is None


# -- properties over games recorded the way the server records them ----------------------


@dataclass
class Game:
    control: TimeControl
    seats: int
    turns: list[Turn]
    now: int


def play(control: TimeControl, seats: int, steps: list[tuple[int, int]]) -> list[Turn]:
    """The server's side of the contract: after each delay, hand the turn to a seat still
    playing (``choice``; -1 ends the game), or record a new flag at its own instant."""
    turns = [Turn(START, 0)]
    out: set[int] = set()
    for delay, choice in steps:
        last = turns[-1]
        if last.seat is None:
            break
        t = last.at + delay
        new = [f for f in clocks_at(control, seats, turns, t).flags if f.seat not in out]
        if new:
            out.add(new[0].seat)
            still = seats - len(out)
            turns.append(Turn(new[0].at, next_seat(seats, new[0].seat, out) if still > 1 else None))
        elif choice < 0:
            turns.append(Turn(t, None))
        else:
            playing = [s for s in range(seats) if s not in out]
            turns.append(Turn(t, playing[choice % len(playing)]))
    return turns


@st.composite
def games(draw: st.DrawFn, live_only: bool = False) -> Game:
    control = draw(
        st.builds(Live, st.integers(1, 2), st.integers(0, 20))
        if live_only
        else st.one_of(
            st.builds(Live, st.integers(1, 2), st.integers(0, 20)),
            st.builds(Correspondence, st.just(1)),
        )
    )
    scale = MS_PER_DAY // 60_000 if isinstance(control, Correspondence) else 1
    seats = draw(st.integers(2, 4))
    steps = draw(
        st.lists(
            st.tuples(st.integers(0, 50_000).map(lambda d: d * scale), st.integers(-1, 3)),
            max_size=25,
        ).map(lambda s: [(d, max(c, 0) if i < 3 else c) for i, (d, c) in enumerate(s)])
    )
    turns = play(control, seats, steps)
    now = turns[-1].at + draw(st.integers(0, 150_000)) * scale
    return Game(control, seats, turns, now)


def intervals(game: Game) -> list[tuple[int, int, int, Turn | None]]:
    """(seat, start, end, following turn) for each stretch of the log with a seat to move."""
    stretches = []
    for i, turn in enumerate(game.turns):
        if turn.seat is None:
            break
        following = game.turns[i + 1] if i + 1 < len(game.turns) else None
        end = following.at if following else max(game.now, turn.at)
        stretches.append((turn.seat, turn.at, end, following))
    return stretches


@given(games(live_only=True))
def test_time_is_conserved(game: Game) -> None:
    """Per seat: time used + time left = initial time + increments earned."""
    assert isinstance(game.control, Live)
    state = clocks_at(game.control, game.seats, game.turns, game.now)
    flagged = {f.seat: f for f in state.flags}
    for seat in range(game.seats):
        mine = [s for s in intervals(game) if s[0] == seat]
        if seat in flagged:
            completed = len(mine) - 1
            assert state.left_ms[seat] == 0
            assert flagged[seat].at == mine[-1][1] + (
                game.control.initial_ms + completed * game.control.increment_ms
            ) - sum(end - start for _, start, end, _ in mine[:-1])
        else:
            completed = sum(1 for *_, f in mine if f is not None and f.seat is not None)
            assert state.used_ms[seat] == sum(end - start for _, start, end, _ in mine)
        assert (
            state.used_ms[seat] + state.left_ms[seat]
            == game.control.initial_ms + completed * game.control.increment_ms
        )


@given(games(), st.integers(0, 10**6))
def test_only_the_clock_of_the_seat_to_move_runs(game: Game, wait: int) -> None:
    before = clocks_at(game.control, game.seats, game.turns, game.now)
    after = clocks_at(game.control, game.seats, game.turns, game.now + wait)
    to_move = game.turns[-1].seat
    for seat in range(game.seats):
        if seat != to_move:
            assert after.left_ms[seat] == before.left_ms[seat]
    if before.running is not None and wait < before.left_ms[before.running]:
        assert after.left_ms[before.running] == before.left_ms[before.running] - wait
        assert after.running == before.running
        assert after.deadline == before.deadline


@given(games())
def test_a_flag_is_the_instant_the_clock_reaches_zero(game: Game) -> None:
    state = clocks_at(game.control, game.seats, game.turns, game.now)
    for flag in state.flags:
        last = max(i for i, t in enumerate(game.turns) if t.seat == flag.seat)
        upto = game.turns[: last + 1]
        just_before = clocks_at(game.control, game.seats, upto, flag.at - 1)
        assert just_before.left_ms[flag.seat] == 1
        assert flag not in just_before.flags
        assert just_before.running == flag.seat
        at_zero = clocks_at(game.control, game.seats, upto, flag.at)
        assert at_zero.flags[-1] == flag
        assert at_zero.left_ms[flag.seat] == 0


@given(games(), st.integers(0, 10**9))
def test_nothing_depends_on_now_once_the_clocks_stop(game: Game, later: int) -> None:
    state = clocks_at(game.control, game.seats, game.turns, game.now)
    if state.running is None:
        assert clocks_at(game.control, game.seats, game.turns, game.now + later) == state
        stopped = game.turns[-1].at if game.turns[-1].seat is None else state.flags[-1].at
        assert state.at == stopped
        assert clocks_at(game.control, game.seats, game.turns, stopped) == state


@given(games())
def test_clocks_never_exceed_what_a_seat_can_hold(game: Game) -> None:
    state = clocks_at(game.control, game.seats, game.turns, game.now)
    assert all(left >= 0 for left in state.left_ms)
    if isinstance(game.control, Correspondence):
        assert all(left <= game.control.initial_ms for left in state.left_ms)
    assert len({f.seat for f in state.flags}) == len(state.flags)


# -- first moves (ruling O4) ------------------------------------------------------------


def test_first_turns_are_free_of_the_clocks_then_they_run() -> None:
    """O4: no seat's clock runs before its first move (no time used, no increment)."""
    turns = [Turn(START, 0), Turn(START + 10_000, 1), Turn(START + 25_000, 0)]
    state = clocks_at(Live(1, 2), 2, turns, START + 35_000, first_move=30_000, ready=START)
    assert state.left_ms == (50_000, 60_000) and state.used_ms == (10_000, 0)
    assert state.running == 0 and state.first_move is None and state.unstarted is None
    assert state.wake == state.deadline == START + 35_000 + 50_000
    # the same turns without first moves: both first turns were timed
    plain = clocks_at(Live(1, 2), 2, turns, START + 35_000)
    assert plain.left_ms == (50_000 + 2_000 - 10_000, 60_000 - 15_000 + 2_000)


def test_a_first_move_not_made_in_time_is_found_at_its_instant() -> None:
    control = Live(3, 2)
    turns = [Turn(START, 0)]
    before = clocks_at(control, 2, turns, START + 29_999, first_move=30_000, ready=START)
    assert before.first_move == FirstMove(0, START + 30_000) and before.unstarted is None
    assert before.running is None and before.left_ms == (180_000, 180_000)
    assert before.wake == START + 30_000
    due = clocks_at(control, 2, turns, START + 30_000, first_move=30_000, ready=START)
    assert due.unstarted == 0 and due.wake == due.at == START + 30_000
    second = [Turn(START, 0), Turn(START + 5_000, 1)]  # the second seat's own first turn
    state = clocks_at(control, 2, second, START + 20_000, first_move=30_000, ready=START)
    assert state.first_move == FirstMove(1, START + 35_000)


def test_the_first_move_time_counts_once_every_seat_is_taken() -> None:
    turns = [Turn(START, 0)]
    empty = clocks_at(Live(1), 2, turns, START + 10**9, first_move=30_000, ready=None)
    assert empty.first_move == FirstMove(0, None) and empty.unstarted is None
    assert empty.wake is None and empty.left_ms == (60_000, 60_000)
    later = clocks_at(Live(1), 2, turns, START + 60_000, first_move=30_000, ready=START + 50_000)
    assert later.first_move == FirstMove(0, START + 80_000) and later.unstarted is None


def test_a_computer_is_timed_from_its_first_turn() -> None:
    turns = [Turn(START, 0), Turn(START + 1_000, 1)]
    state = clocks_at(
        Live(1), 2, turns, START + 46_000, first_move=30_000, ready=START, computers={1}
    )
    assert state.running == 1 and state.left_ms == (60_000, 15_000)
    assert state.first_move is None and state.unstarted is None


def test_correspondence_first_moves_have_the_turn_s_days() -> None:
    assert first_move_ms(Correspondence(3)) == 3 * MS_PER_DAY
    assert first_move_ms(Live(5, 3)) == 30_000 and first_move_ms(Live(1), 2_000) == 2_000


@given(
    gaps=st.lists(st.integers(min_value=0, max_value=40_000), min_size=1, max_size=8),
    wait=st.integers(min_value=0, max_value=100_000),
)
def test_no_clock_runs_before_its_seat_s_first_move(gaps: list[int], wait: int) -> None:
    """Property: whatever the times of the turn changes, a seat that has not completed a
    turn has its whole time, and the first-move countdown is the only deadline then."""
    turns, at = [Turn(START, 0)], START
    for index, gap in enumerate(gaps, start=1):
        at += gap
        turns.append(Turn(at, index % 3))
    now = at + wait
    state = clocks_at(Live(1), 3, turns, now, first_move=30_000, ready=START)
    completed = {turn.seat for turn in turns[:-1]}
    for seat in range(3):
        if seat not in completed:
            assert state.left_ms[seat] == 60_000 and state.used_ms[seat] == 0
    mover = turns[-1].seat
    if mover not in completed:
        assert state.running is None and state.first_move is not None
        assert state.first_move.deadline == turns[-1].at + 30_000
        assert (state.unstarted == mover) == (now >= turns[-1].at + 30_000)
