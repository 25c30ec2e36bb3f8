"""The tournament's log (issue 38): the JSON codec of every event, and replay refusing
events that cannot happen."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathable.online.tournaments import (
    Board,
    Event,
    Finished,
    Joined,
    Linked,
    Paired,
    Paused,
    Removed,
    Result,
    Resumed,
    Spec,
    Started,
    TournamentError,
    Withdrew,
    event_from_json,
    event_to_json,
    replay,
    spec_from_json,
    spec_to_json,
)

names = st.text(min_size=1, max_size=8)
instants = st.floats(min_value=0, max_value=2e9, allow_nan=False)
boards = st.builds(Board, st.integers(1, 50), names, names)
events: st.SearchStrategy[Event] = st.one_of(
    st.builds(Joined, names, names, st.floats(0, 4000), st.booleans()),
    st.builds(Withdrew, names),
    st.builds(Removed, names),
    st.builds(Started, instants),
    st.builds(Paused, instants),
    st.builds(Resumed, instants),
    st.builds(Paired, st.integers(1, 30), st.tuples(boards, boards), st.none() | names, instants),
    st.builds(Linked, st.integers(1, 30), st.integers(1, 50), names),
    st.builds(
        Result,
        st.integers(1, 30),
        st.integers(1, 50),
        st.sampled_from([(1.0, 0.0), (0.5, 0.5), (0.0, 1.0)]),
        st.tuples(st.integers(-50, 900), st.integers(-50, 900)),
        st.sampled_from(["played", "forfeit", "decided", "no-show"]),
    ),
    st.builds(Finished, instants),
)


@given(events)
def test_every_event_survives_a_json_round_trip(event: Event) -> None:
    assert event_from_json(event_to_json(event)) == event


SWISS = Spec("Club Swiss", "classic", "swiss", rounds=3)


def test_a_spec_survives_a_json_round_trip() -> None:
    spec = Spec("Arena", "junior", "arena", minutes=30, clock="5+3", rated=True, private=True)
    assert spec_from_json(spec_to_json(spec)) == spec
    with pytest.raises(ValueError, match=r"spec\.minutes"):
        spec_from_json({**spec_to_json(spec), "minutes": 0})


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"kind": "joinded", "player": "a"}, "kind"),
        ({"kind": "joined", "player": "a", "name": "A", "rating": "high"}, "joined.rating"),
        ({"kind": "joined", "player": 3, "name": "A", "rating": 1500}, "joined.player"),
        ({"kind": "started", "at": True}, "started.at"),
        ({"kind": "started", "at": 1, "when": 2}, "started.when"),
        ({"kind": "paired", "round": 1, "boards": [{"board": 1, "first": "a"}], "bye": None,
          "at": 0}, r"paired.boards\[0\].second"),
        ({"kind": "paired", "round": "1", "boards": [], "bye": None, "at": 0}, "paired.round"),
        ({"kind": "paired", "round": 1, "boards": [], "bye": 7, "at": 0}, "paired.bye"),
        ({"kind": "result", "round": 1, "board": 1, "points": [1]}, "result.points"),
        ({"kind": "result", "round": 1, "board": 1, "points": [1, 0], "scores": [1.5, 0]},
         r"result.scores\[0\]"),
        ({"kind": "result", "round": 1, "board": 1, "points": [1, 0], "how": "lucky"},
         "result.how"),
        ({"kind": "linked", "round": 1, "board": 1}, "linked.game"),
    ],
)  # fmt: skip
def test_bad_data_is_refused_naming_the_field(data: dict[str, Any], field: str) -> None:
    with pytest.raises(ValueError, match=field):
        event_from_json(data)


def two_players_one_round() -> list[Event]:
    return [
        Joined("a", "Ada", 1600),
        Joined("b", "Bo", 1500),
        Started(10),
        Paired(1, (Board(1, "a", "b"),), None, 11),
        Linked(1, 1, "g1"),
    ]


def test_a_good_log_replays_to_its_state() -> None:
    state = replay(SWISS, [*two_players_one_round(), Result(1, 1, (1.0, 0.0), (120, 80))])
    assert state.status == "running"
    assert state.started_at == 10
    assert state.rounds[0].games == {1: "g1"}
    assert state.rounds[0].complete


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ([Result(2, 1, (1.0, 0.0))], "round 2 was never paired"),
        ([Result(1, 2, (1.0, 0.0))], "no board 2"),
        ([Result(1, 1, (1.0, 0.0)), Result(1, 1, (0.0, 1.0))], "already has one"),
        ([Result(1, 1, (1.0, 1.0))], "not a result"),
        ([Linked(1, 1, "g2")], "already has a game"),
        ([Started(12)], "already started"),
        ([Joined("c", "Cy", 1400)], "joins are closed"),
        ([Joined("a", "Ada", 1600)], "already joined"),
        ([Paired(2, (Board(1, "a", "b"),), None, 12)], "still has games"),
        ([Paired(1, (Board(1, "a", "b"),), None, 12)], "the next is 2"),
        ([Withdrew("zed")], "not an active player"),
        ([Resumed(12)], "not paused"),
        ([Paused(5)], "before the log's last event"),
        ([Finished(20), Withdrew("a")], "finished"),
    ],
)
def test_replay_refuses_what_cannot_happen(extra: list[Event], reason: str) -> None:
    with pytest.raises(TournamentError, match=reason):
        replay(SWISS, [*two_players_one_round(), *extra])


def test_a_withdrawn_or_unknown_player_is_never_paired() -> None:
    start: list[Event] = [Joined("a", "A", 1), Joined("b", "B", 2), Joined("c", "C", 3)]
    start += [Withdrew("c"), Started(1)]
    with pytest.raises(TournamentError, match="c has withdrawn"):
        replay(SWISS, [*start, Paired(1, (Board(1, "a", "c"),), "b", 2)])
    with pytest.raises(TournamentError, match="d never joined"):
        replay(SWISS, [*start, Paired(1, (Board(1, "a", "b"),), "d", 2)])
    with pytest.raises(TournamentError, match="seated twice"):
        replay(SWISS, [*start, Paired(1, (Board(1, "a", "b"),), "a", 2)])
    with pytest.raises(TournamentError, match="numbered"):
        replay(SWISS, [*start, Paired(1, (Board(2, "a", "b"),), None, 2)])


def test_late_joins_close_once_their_round_is_paired() -> None:
    spec = Spec("Late", "classic", "swiss", rounds=3, late_join_until=2)
    log = [*two_players_one_round(), Joined("c", "Cy", 1400), Result(1, 1, (0.5, 0.5))]
    state = replay(spec, log)
    assert state.players["c"].active
    log += [Paired(2, (Board(1, "a", "c"),), "b", 20)]
    with pytest.raises(TournamentError, match="joins are closed for d"):
        replay(spec, [*log, Joined("d", "Di", 1300)])


def test_a_withdrawn_player_may_come_back_but_a_removed_one_may_not() -> None:
    log: list[Event] = [Joined("a", "A", 1), Withdrew("a"), Joined("a", "A", 1)]
    assert replay(SWISS, log).players["a"].active
    with pytest.raises(TournamentError, match="removed by the organizer"):
        replay(SWISS, [Joined("a", "A", 1), Removed("a"), Joined("a", "A", 1)])


def test_an_arena_has_no_byes_and_pairs_nobody_still_playing() -> None:
    arena = Spec("Blitz", "classic", "arena", minutes=30, late_join_until=1)
    log = [*two_players_one_round(), Joined("c", "C", 1), Joined("d", "D", 1)]
    with pytest.raises(TournamentError, match="no byes"):
        replay(arena, [*log, Paired(2, (), "c", 12)])
    with pytest.raises(TournamentError, match="a is still playing"):
        replay(arena, [*log, Paired(2, (Board(1, "a", "c"),), None, 12)])
    state = replay(arena, [*log, Paired(2, (Board(1, "c", "d"),), None, 12)])
    assert len(state.rounds) == 2


def test_a_spec_no_tournament_can_run_is_refused() -> None:
    with pytest.raises(TournamentError, match="at least one round"):
        replay(Spec("x", "classic", "swiss"), [])
    with pytest.raises(TournamentError, match="length in minutes"):
        replay(Spec("x", "classic", "arena"), [])
