"""Swiss and round-robin pairing (issue 38): published tables, a hand-checked Swiss, and
properties of whole random tournaments checked against a brute-force oracle."""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathable.online.tournaments import (
    Board,
    Event,
    Joined,
    Paired,
    Removed,
    Result,
    Spec,
    Started,
    State,
    Withdrew,
    apply,
    berger_round,
    due,
    event_from_json,
    event_to_json,
    replay,
    standings,
)

# FIDE Handbook C.05, Annex 1 (Berger tables), the table for 5 or 6 players; the first of
# each pair has White (here: moves first).
FIDE_BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
# The same annex, 7 or 8 players.
FIDE_BERGER_8 = [
    [(1, 8), (2, 7), (3, 6), (4, 5)],
    [(8, 5), (6, 4), (7, 3), (1, 2)],
    [(2, 8), (3, 1), (4, 7), (5, 6)],
    [(8, 6), (7, 5), (1, 4), (2, 3)],
    [(3, 8), (4, 2), (5, 1), (6, 7)],
    [(8, 7), (1, 6), (2, 5), (3, 4)],
    [(4, 8), (5, 3), (6, 2), (7, 1)],
]


@pytest.mark.parametrize(("count", "table"), [(6, FIDE_BERGER_6), (8, FIDE_BERGER_8)])
def test_berger_rounds_are_fides_tables(count: int, table: list[list[tuple[int, int]]]) -> None:
    assert [berger_round(count, r) for r in range(1, count)] == table


@pytest.mark.parametrize("count", [2, 4, 6, 10, 16])
def test_a_berger_table_meets_every_pair_once_first_moves_balanced(count: int) -> None:
    pairs = [pair for r in range(1, count) for pair in berger_round(count, r)]
    assert Counter(frozenset(p) for p in pairs) == Counter(
        frozenset(p) for p in itertools.combinations(range(1, count + 1), 2)
    )
    balance = Counter[int]()
    for first, second in pairs:
        balance[first] += 1
        balance[second] -= 1
    assert all(abs(balance[p]) <= 1 for p in range(1, count + 1))


def players(count: int) -> list[Event]:
    """Players p1 (rated highest) to p<count>."""
    return [Joined(f"p{i}", f"Player {i}", 2000 - 10 * i) for i in range(1, count + 1)]


def next_round(state: State, now: float) -> Paired:
    """The one event ``due`` owes: a pairing."""
    (owed,) = due(state, now)
    assert isinstance(owed, Paired)
    return owed


def test_a_round_robin_of_five_follows_the_table_with_a_bye_seat() -> None:
    spec = Spec("Class", "junior", "round-robin")
    state = replay(spec, [*players(5), Started(0)])
    first = next_round(state, 1)
    assert first == Paired(
        1, (Board(1, "p2", "p5"), Board(2, "p3", "p4")), "p1", 1
    )  # 1-6 with 6 the bye seat


def hand_checked_swiss() -> tuple[Spec, list[Event]]:
    """Eight players rated p1 > ... > p8; the higher-rated wins every game."""
    return Spec("Club", "classic", "swiss", rounds=3), [*players(8), Started(0)]


def test_a_hand_checked_swiss_of_eight() -> None:
    """Worked by hand from FIDE's Dutch system (Handbook C.04.3): round one pairs the top
    half against the bottom half, 1-5 6-2 3-7 8-4 (the top seed moving first, alternating
    down the boards). The four winners (1, 2, 3, 4) form the top score group; its plain
    pairing 1-3 2-4 would give 1 and 3 a second first move each, so the Dutch
    transposition within the bottom half gives 1-4 and 2-3, the one who moved second in
    round one moving first (4-1, 2-3); likewise 5-8 and 7-6 among the losers."""
    spec, log = hand_checked_swiss()
    state = replay(spec, log)
    one = next_round(state, 1)
    assert [(b.first, b.second) for b in one.boards] == [
        ("p1", "p5"),
        ("p6", "p2"),
        ("p3", "p7"),
        ("p8", "p4"),
    ]
    apply(state, one)
    for board in one.boards:
        higher_first = int(board.first[1:]) < int(board.second[1:])
        points = (1.0, 0.0) if higher_first else (0.0, 1.0)
        apply(state, Result(1, board.board, points, (100, 50) if higher_first else (50, 100)))
    two = next_round(state, 2)
    assert [(b.first, b.second) for b in two.boards] == [
        ("p4", "p1"),
        ("p2", "p3"),
        ("p5", "p8"),
        ("p7", "p6"),
    ]


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    spec = Spec("Odd", "classic", "swiss", rounds=2)
    state = replay(spec, [*players(5), Started(0)])
    one = next_round(state, 1)
    assert one.bye == "p5"
    assert [(b.first, b.second) for b in one.boards] == [("p1", "p3"), ("p4", "p2")]
    apply(state, one)
    for board in one.boards:
        apply(state, Result(1, board.board, (0.5, 0.5)))
    two = next_round(state, 2)
    assert two.bye == "p4"  # p5 leads on points now (1 for the bye), p4 is last without one


# ------------------------------------------------ whole random tournaments, and an oracle


Seen = tuple[set[frozenset[str]], Counter[str], Counter[str]]
"""The rounds so far as :func:`flaws` reads them: the pairs that met, the byes, and each
player's first-player balance."""


def seen(state: State) -> Seen:
    """What the rounds so far hold for :func:`flaws` (read once for all of a brute
    force's candidate pairings)."""
    met: set[frozenset[str]] = set()
    byes: Counter[str] = Counter()
    balance: Counter[str] = Counter()
    for played in state.rounds:
        byes.update([played.bye] if played.bye else [])
        for b in played.boards:
            met.add(frozenset((b.first, b.second)))
            balance[b.first] += 1
            balance[b.second] -= 1
    return met, byes, balance


def flaws(rounds: Seen, paired: Paired) -> tuple[bool, bool, bool]:
    """What a pairing gives up after ``rounds`` (:func:`seen`), most important first: a
    pair meeting again, a second bye, a first-player balance outside ±1 (each board's
    best way round)."""
    met, byes, balance = rounds

    def outside(a: str, b: str) -> bool:
        x, y = balance[a], balance[b]
        ways = [(x + 1, y - 1), (x - 1, y + 1)]
        return not any(abs(u) <= 1 and abs(v) <= 1 for u, v in ways)

    pairs = [(b.first, b.second) for b in paired.boards]
    return (
        any(frozenset(p) in met for p in pairs),
        paired.bye is not None and byes[paired.bye] > 0,
        any(outside(a, b) for a, b in pairs),
    )


def matchings(names: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not names:
        yield []
        return
    top, rest = names[0], names[1:]
    for i, partner in enumerate(rest):
        for more in matchings(rest[:i] + rest[i + 1 :]):
            yield [(top, partner), *more]


def best_possible(state: State) -> tuple[tuple[bool, bool, bool], dict[str, int]]:
    """By brute force: the fewest flaws any pairing of the active players has, and the
    candidates for the bye at that level (with their rank, lower is better)."""
    active = state.active()
    points = points_from_rounds(state)
    ranked = sorted(active, key=lambda p: (-points[p], -state.players[p].rating, p))
    table = {p: i for i, p in enumerate(ranked)}
    options: dict[tuple[bool, bool, bool], dict[str, int]] = {}
    rounds = seen(state)
    for bye in active if len(active) % 2 else [None]:
        rest = [p for p in active if p != bye]
        for pairs in matchings(rest):
            boards = tuple(Board(i, a, b) for i, (a, b) in enumerate(pairs, start=1))
            found = flaws(rounds, Paired(0, boards, bye, 0))
            if bye is not None:
                options.setdefault(found, {})[bye] = table.get(bye, len(table))
            else:
                options.setdefault(found, {})
    best = min(options)
    return best, options[best]


def run(spec: Spec, data: st.DataObject, count: int, oracle: bool) -> tuple[State, list[Event]]:
    """Play a whole tournament: ``due`` pairs, random results, and now and then a late
    join, a withdrawal or a removal; every pairing checked."""
    log: list[Event] = [*players(count), Started(0)]
    state = replay(spec, log)
    now = 0.0
    extra = count
    for _ in range(400):
        now += 1
        owed = due(state, now)
        assert owed == due(replay(spec, log), now)  # deterministic, and the same after replay
        event: Event | None
        if owed:
            event = owed[0]
            if isinstance(event, Paired):
                check_pairing(state, event, oracle)
        else:
            event = random_event(state, data, extra)
            if isinstance(event, Joined):
                extra += 1
        if event is None:
            continue
        apply(state, event)
        log.append(event)
        if state.status == "finished":
            break
    assert state.status == "finished"
    assert replay(spec, log) == state
    assert [event_from_json(event_to_json(e)) for e in log] == log
    return state, log


def random_event(state: State, data: st.DataObject, extra: int) -> Event | None:
    open_boards = [
        (r.number, b.board) for r in state.rounds for b in r.boards if b.board not in r.results
    ]
    what = data.draw(st.integers(0, 19))
    active = state.active()
    if what == 0 and len(active) > 2:
        return Withdrew(data.draw(st.sampled_from(active)))
    if what == 1 and len(active) > 2:
        return Removed(data.draw(st.sampled_from(active)))
    if what == 2 and len(state.rounds) < state.spec.late_join_until:
        return Joined(f"late{extra}", "Late", data.draw(st.integers(1000, 2000)))
    if not open_boards:
        return None
    number, board = data.draw(st.sampled_from(open_boards))
    points = data.draw(st.sampled_from([(1.0, 0.0), (0.5, 0.5), (0.0, 1.0)]))
    scores = (data.draw(st.integers(0, 400)), data.draw(st.integers(0, 400)))
    how = data.draw(st.sampled_from(["played", "played", "played", "forfeit", "no-show"]))
    return Result(number, board, points, scores, how)


def check_pairing(state: State, paired: Paired, oracle: bool) -> None:
    seated = [p for b in paired.boards for p in (b.first, b.second)]
    if state.spec.system == "swiss":
        everyone = seated + ([paired.bye] if paired.bye else [])
        assert sorted(everyone) == sorted(state.active())  # each once, board or bye
        assert (paired.bye is not None) == (len(state.active()) % 2 == 1)
        if oracle and len(state.active()) <= 9:
            best, byes = best_possible(state)
            got = flaws(seen(state), paired)
            assert got == best, (got, best)
            if byes and not best[1]:
                assert paired.bye == max(byes, key=lambda p: byes[p])  # the lowest-ranked


def points_from_rounds(state: State) -> defaultdict[str, float]:
    """The games' points plus one per bye, counted here from the rounds."""
    expected: defaultdict[str, float] = defaultdict(float)
    for played in state.rounds:
        if played.bye:
            expected[played.bye] += 1
        for b in played.boards:
            if b.board in played.results:
                got = played.results[b.board].points
                expected[b.first] += got[0]
                expected[b.second] += got[1]
    return expected


def check_points(state: State) -> None:
    """Standings points = the games' points + the byes; ranks in order."""
    expected = points_from_rounds(state)
    lines = standings(state)
    assert all(line.points == expected[line.player] for line in lines)
    assert [line.rank for line in lines] == sorted(line.rank for line in lines)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(2, 9), st.integers(1, 9), st.integers(0, 3))
def test_random_swiss_tournaments_pair_as_the_oracle_says(
    data: st.DataObject, count: int, rounds: int, late: int
) -> None:
    spec = Spec("Swiss", "classic", "swiss", rounds=rounds, late_join_until=late)
    state, _ = run(spec, data, count, oracle=True)
    check_points(state)


@settings(max_examples=40, deadline=None)
@given(st.data(), st.integers(2, 10))
def test_random_round_robins_meet_every_pair_once(data: st.DataObject, count: int) -> None:
    round_robin(data, count)


def round_robin(data: st.DataObject, count: int) -> None:
    """A whole random round robin: every pair at most once (exactly once without
    withdrawals), a bye at most once each, points as the rounds say."""
    spec = Spec("Class", "junior", "round-robin")
    state, log = run(spec, data, count, oracle=False)
    check_points(state)
    pairs = Counter(frozenset((b.first, b.second)) for r in state.rounds for b in r.boards)
    assert all(n == 1 for n in pairs.values())
    byes = Counter(r.bye for r in state.rounds if r.bye)
    assert all(n == 1 for n in byes.values())
    if not any(isinstance(e, Withdrew | Removed) for e in log):
        assert len(pairs) == count * (count - 1) // 2


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(2, 9), st.integers(1, 11), st.integers(0, 4))
def test_many_random_swiss_tournaments_pair_as_the_oracle_says(
    data: st.DataObject, count: int, rounds: int, late: int
) -> None:
    spec = Spec("Swiss", "classic", "swiss", rounds=rounds, late_join_until=late)
    state, _ = run(spec, data, count, oracle=True)
    check_points(state)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.data(), st.integers(2, 14))
def test_many_random_round_robins_meet_every_pair_once(data: st.DataObject, count: int) -> None:
    round_robin(data, count)


def test_a_large_swiss_never_repeats_and_keeps_first_moves_within_one() -> None:
    """200 players, 9 rounds, seeded random results: far from every limit, so no flaw."""
    rng = random.Random(38)
    spec = Spec("Open", "classic", "swiss", rounds=9)
    state = replay(spec, [*players(200), Started(0)])
    while state.status != "finished":
        for event in due(state, 1):
            if isinstance(event, Paired):
                assert flaws(seen(state), event) == (False, False, False)
            apply(state, event)
            if isinstance(event, Paired):
                for b in event.boards:
                    apply(state, Result(event.round, b.board, rng.choice([(1.0, 0.0), (0.0, 1.0)])))
    check_points(state)
