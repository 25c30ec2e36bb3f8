"""Standings, the arena and ``due`` (issue 38): tie-breaks worked by hand, lichess's arena
scoring, arena waves checked against brute force, and what a tournament does by itself."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathable.online.tournaments import (
    Board,
    Event,
    Finished,
    Joined,
    Paired,
    Paused,
    Result,
    Resumed,
    Spec,
    Started,
    State,
    TournamentError,
    Withdrew,
    apply,
    arena_pairings,
    due,
    replay,
    standings,
)
from mathable.online.tournaments.history import records

ARENA = Spec("Blitz", "classic", "arena", minutes=10, late_join_until=1)


def joined(*names: str) -> list[Event]:
    return [Joined(n, n.upper(), 1500 - i) for i, n in enumerate(names)]


def test_tiebreaks_worked_by_hand() -> None:
    """Four players, two rounds and a bye-free field:
    round 1: a beats b 300-200, c draws d 250-250; round 2: a draws c 200-220 (a's
    points ½), d beats b 310-300. Points: a 1.5, c 1, d 1.5, b 0.
    Buchholz: a = b 0 + c 1 = 1; d = c 1 + b 0 = 1; tie. Sonneborn-Berger: a = 1×0 + ½×1 =
    0.5; d = ½×1 + 1×0 = 0.5; tie. Spread: a = +100 - 20 = 80, d = 0 + 10 = 10: a first."""
    log: list[Event] = [*joined("a", "b", "c", "d"), Started(0)]
    log += [Paired(1, (Board(1, "a", "b"), Board(2, "c", "d")), None, 1)]
    log += [Result(1, 1, (1.0, 0.0), (300, 200)), Result(1, 2, (0.5, 0.5), (250, 250))]
    log += [Paired(2, (Board(1, "a", "c"), Board(2, "d", "b")), None, 2)]
    log += [Result(2, 1, (0.5, 0.5), (200, 220)), Result(2, 2, (1.0, 0.0), (310, 300))]
    lines = standings(replay(Spec("S", "classic", "swiss", rounds=2), log))
    assert [(s.player, s.points, s.rank) for s in lines] == [
        ("a", 1.5, 1),
        ("d", 1.5, 2),
        ("c", 1.0, 3),
        ("b", 0.0, 4),
    ]
    assert lines[0].tiebreaks == {"buchholz": 1.0, "sonneborn_berger": 0.5, "spread": 80.0}
    assert lines[1].tiebreaks == {"buchholz": 1.0, "sonneborn_berger": 0.5, "spread": 10.0}
    assert lines[2].tiebreaks == {"buchholz": 3.0, "sonneborn_berger": 1.5, "spread": 20.0}


def test_a_bye_is_a_point_and_a_virtual_opponent_with_the_players_own_points() -> None:
    log: list[Event] = [*joined("a", "b", "c"), Started(0)]
    log += [Paired(1, (Board(1, "a", "b"),), "c", 1), Result(1, 1, (1.0, 0.0), (10, 0))]
    lines = {s.player: s for s in standings(replay(Spec("S", "classic", "swiss", 1), log))}
    assert lines["c"].points == 1.0
    assert lines["c"].games == 0
    assert lines["c"].tiebreaks == {"buchholz": 1.0, "sonneborn_berger": 1.0, "spread": 0.0}
    assert (lines["c"].rank, lines["a"].rank) == (1, 2)  # a's only opponent has no points


def test_equal_lines_share_a_rank() -> None:
    log: list[Event] = [*joined("a", "b"), Started(0), Paired(1, (Board(1, "a", "b"),), None, 1)]
    log += [Result(1, 1, (0.5, 0.5), (100, 100))]
    lines = standings(replay(Spec("S", "classic", "swiss", 1), log))
    assert [(s.player, s.rank) for s in lines] == [("a", 1), ("b", 1)]


@pytest.mark.parametrize(
    ("results", "points"),
    [
        ("WWW", 2 + 2 + 4),
        ("WWDW", 2 + 2 + 2 + 2),  # a draw on fire scores 2 and puts the fire out
        ("WWWLW", 2 + 2 + 4 + 0 + 2),
        ("DWWWW", 1 + 2 + 2 + 4 + 4),
        ("LLD", 1),
    ],
)
def test_arena_points_are_lichess_streaks(results: str, points: int) -> None:
    log: list[Event] = [*joined("a", "b"), Started(0)]
    for number, outcome in enumerate(results, start=1):
        log.append(Paired(number, (Board(1, "a", "b"),), None, number))
        got = {"W": (1.0, 0.0), "D": (0.5, 0.5), "L": (0.0, 1.0)}[outcome]
        log.append(Result(number, 1, got))
    lines = {s.player: s.points for s in standings(replay(ARENA, log))}
    assert lines["a"] == points


def test_an_arena_pairs_the_waiting_as_soon_as_two_can_meet_and_ends_on_time() -> None:
    state = replay(ARENA, [*joined("a", "b", "c", "d", "e"), Started(100)])
    (wave,) = due(state, 100)
    assert isinstance(wave, Paired)
    assert len(wave.boards) == 2  # five players: one waits
    apply(state, wave)
    assert due(state, 101) == []  # one waiting alone
    first = wave.boards[0]
    apply(state, Result(1, 1, (1.0, 0.0)))
    (again,) = due(state, 102)
    assert isinstance(again, Paired)
    # three wait now: the two who just played are not paired together again
    pairs = {frozenset((b.first, b.second)) for b in again.boards}
    assert frozenset((first.first, first.second)) not in pairs
    apply(state, again)
    apply(state, Paused(200))
    assert due(state, 10_000) == []  # nothing while paused
    apply(state, Resumed(260))
    assert due(state, 100 + 600 + 59) == []  # the pause moved the end by a minute
    assert due(state, 100 + 600 + 60) == [Finished(760)]
    apply(state, Finished(760))
    with pytest.raises(TournamentError, match="finished"):
        apply(state, Result(2, 1, (1.0, 0.0)))


def waves(data: st.DataObject, count: int) -> None:
    """A random arena: random results and withdrawals, every wave checked."""
    log: list[Event] = [*joined(*(f"p{i}" for i in range(count))), Started(0)]
    state = replay(ARENA, log)
    for step in range(60):
        owed = due(state, step)
        for event in owed:
            if isinstance(event, Paired):
                check_wave(state, event)
            apply(state, event)
        open_boards = [
            (r.number, b.board) for r in state.rounds for b in r.boards if b.board not in r.results
        ]
        if not open_boards:
            continue
        if data.draw(st.integers(0, 15)) == 0 and len(state.active()) > 2:
            apply(state, Withdrew(data.draw(st.sampled_from(state.active()))))
        number, board = data.draw(st.sampled_from(open_boards))
        got = data.draw(st.sampled_from([(1.0, 0.0), (0.5, 0.5), (0.0, 1.0)]))
        apply(state, Result(number, board, got))
    expected = {name: record.arena_points for name, record in records(state).items()}
    for line in standings(state):
        assert line.points == expected[line.player]


def check_wave(state: State, wave: Paired) -> None:
    """Every waiting player but at most one is paired, nobody twice, and an immediate
    rematch only where every pairing of the wave has one (brute force)."""
    busy = state.playing()
    waiting = [p for p in state.active() if p not in busy]
    seated = [p for b in wave.boards for p in (b.first, b.second)]
    assert len(seated) == len(set(seated))
    assert set(seated) <= set(waiting)
    assert len(waiting) - len(seated) == len(waiting) % 2
    last = {}
    for played in state.rounds:
        for b in played.boards:
            last[b.first], last[b.second] = b.second, b.first

    def rematches(pairs: list[tuple[str, str]]) -> int:
        return sum(1 for a, b in pairs if b == last.get(a) or a == last.get(b))

    got = rematches([(b.first, b.second) for b in wave.boards])
    if got and len(waiting) <= 9:
        sitters: list[str | None] = list(waiting) if len(waiting) % 2 else [None]
        best = min(
            rematches(pairs)
            for sitter in sitters
            for pairs in matchings([p for p in waiting if p != sitter])
        )
        assert got == best


def matchings(names: list[str]) -> Iterator[list[tuple[str, str]]]:
    """Every way to pair ``names`` off."""
    if not names:
        yield []
        return
    top, rest = names[0], names[1:]
    for i, partner in enumerate(rest):
        for more in matchings(rest[:i] + rest[i + 1 :]):
            yield [(top, partner), *more]


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(2, 9))
def test_random_arenas_pair_the_waiting_without_rematches_while_avoidable(
    data: st.DataObject, count: int
) -> None:
    waves(data, count)


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(st.data(), st.integers(2, 9))
def test_many_random_arenas_pair_the_waiting_without_rematches_while_avoidable(
    data: st.DataObject, count: int
) -> None:
    waves(data, count)


def test_arena_pairings_ignore_the_busy_and_the_unknown() -> None:
    state = replay(ARENA, [*joined("a", "b", "c"), Started(0)])
    apply(state, Paired(1, (Board(1, "a", "b"),), None, 0))
    assert arena_pairings(state, ["a", "c", "zed"], 1) is None
    apply(state, Result(1, 1, (0.5, 0.5)))
    wave = arena_pairings(state, ["c", "b", "a", "zed"], 2)
    assert wave is not None
    assert [(b.first, b.second) for b in wave.boards] == [("c", "a")]  # b played last


def test_due_pairs_at_the_start_waits_for_results_and_finishes_after_the_last_round() -> None:
    spec = Spec("S", "classic", "swiss", rounds=1)
    state = replay(spec, joined("a", "b"))
    assert due(state, 5) == []  # upcoming: the organizer starts it
    apply(state, Started(5))
    (paired,) = due(state, 6)
    assert paired == Paired(1, (Board(1, "a", "b"),), None, 6)
    apply(state, paired)
    assert due(state, 7) == []
    apply(state, Result(1, 1, (0.0, 1.0)))
    assert due(state, 8) == [Finished(8)]
    apply(state, Finished(8))
    assert due(state, 9) == []


def test_due_finishes_when_fewer_than_two_players_remain() -> None:
    spec = Spec("S", "classic", "swiss", rounds=3)
    state = replay(spec, [*joined("a", "b"), Withdrew("b"), Started(1)])
    assert due(state, 2) == [Finished(2)]
