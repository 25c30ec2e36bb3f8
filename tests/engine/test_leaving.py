"""Local ruling L1 (leaving a game, docs/architecture.md): ``resign 1``, ``flag 1``,
``claim 1`` and ``abort 0`` are actions of every game, not turns: a seat leaves with its
score frozen, turn order skips it, fewer than two seats in ends the game, and ranks put
the leavers below the seats still in."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathable.engine import records
from mathable.engine.actions import LEAVE_REASONS, Abort, Challenge, Leave, Place, action_kind
from mathable.engine.errors import IllegalMove, NotationError
from mathable.engine.notation import format_action, parse_action
from mathable.engine.protocol import Game, HouseRules, TargetNames
from mathable.games import registry
from mathable.games.board.game import BoardGame
from mathable.games.quattro.game import QuattroGame
from mathable.games.registry import new_game

GAMES = ("classic", "junior", "junior-numbers", "quattro")
NAMES = ("Ann", "Bob", "Cy", "Dee")
NO_CELLS = TargetNames(())


def _play(game: Game, rng: random.Random) -> None:
    """One random action of the seat to move, placements mostly."""
    actions = game.legal_actions()
    places = [a for a in actions if isinstance(a, Place)]
    game.apply(rng.choice(places) if places and rng.random() < 0.85 else rng.choice(actions))


# -- notation -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("resign 1", Leave(1, "resign")),
        ("flag 0", Leave(0, "flag")),
        ("claim 3", Leave(3, "claim")),
        ("abort 0", Abort(0)),
        ("  Resign   2 ", Leave(2, "resign")),
    ],
)
def test_leaving_is_written_as_the_web_server_has_always_stored_it(
    text: str, action: Leave | Abort
) -> None:
    assert parse_action(text, NO_CELLS) == action
    assert format_action(action, NO_CELLS) == text.strip().lower().replace("   ", " ")
    assert action_kind(action) in (*LEAVE_REASONS, "abort")


@pytest.mark.parametrize("text", ["resign", "flag x", "abort -1", "claim 1 2", "abort 123"])
def test_leaving_needs_a_seat(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text, NO_CELLS)


# -- two players ----------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(
    ("reason", "said"),
    [("resign", "resigned"), ("flag", "ran out of time"), ("claim", "left the game (claimed)")],
)
def test_with_two_players_the_one_who_stays_wins_whatever_the_scores(
    name: str, reason: str, said: str
) -> None:
    game = new_game(name, ["Ann", "Bob"], seed=4, rounds=3 if name == "quattro" else 1)
    rng = random.Random(1)
    while game.scores[0] == game.scores[1]:  # until one leads
        _play(game, rng)
    assert not game.is_over
    leader = 0 if game.scores[0] > game.scores[1] else 1
    game.apply(f"{reason} {leader}")
    assert game.is_over and game.end_reason == f"{game.players[leader]} {said}"
    assert game.winners() == (1 - leader,) and game.ranks()[leader] == 2
    assert game.left[leader] == reason and game.left[1 - leader] == ""
    assert game.view(None).to_dict()["left"] == list(game.left)
    with pytest.raises(IllegalMove):
        game.apply(f"resign {1 - leader}")  # the game is over


@pytest.mark.parametrize("name", GAMES)
def test_abort_only_while_a_seat_has_not_completed_a_turn(name: str) -> None:
    game = new_game(name, ["Ann", "Bob"], seed=2)
    assert game.can_abort(0) and game.can_abort(1) and not game.can_abort(None)
    rng = random.Random(2)
    while len(game.summaries()) < 1:
        _play(game, rng)
    aborted = game.copy()
    aborted.apply(f"abort {1 - aborted.summaries()[0].seat}")
    assert aborted.is_over and aborted.end_reason == "aborted"
    assert aborted.winners() == () and aborted.ranks() == (1, 1)
    while len({s.seat for s in game.summaries()}) < 2 and not game.is_over:
        _play(game, rng)
    assert not game.can_abort(0) and not game.can_abort(1)
    with pytest.raises(IllegalMove, match="resign instead"):
        game.apply("abort 0")


@pytest.mark.parametrize("name", GAMES)
def test_leaving_is_not_a_turn_and_is_never_undone(name: str) -> None:
    game = new_game(name, ["Ann", "Bob", "Cy"], seed=5, house_rules=HouseRules(allow_undo=True))
    assert not any(isinstance(a, Leave | Abort) for a in game.legal_actions())
    mover = game.to_move
    other = (mover + 1) % 3
    game.apply(Leave(other, "resign"))  # out of turn: the seat to move stays to move
    assert game.to_move == mover and game.left[other] == "resign"
    assert game.view(other).available == () and not game.can_leave(other)
    with pytest.raises(IllegalMove, match="left the game already"):
        game.apply(Leave(other, "flag"))
    with pytest.raises(IllegalMove, match="cannot be taken back"):
        game.undo()
    with pytest.raises(IllegalMove, match="no seat 5"):
        game.apply(Leave(5, "resign"))
    with pytest.raises(IllegalMove, match="not a way to leave"):
        game.apply(Leave(0, "vanish"))


def test_a_leaver_on_its_turn_keeps_the_points_of_its_placements_and_the_next_seat_moves() -> None:
    game = new_game("classic", ["Ann", "Bob", "Cy"], seed=11)
    seat = game.to_move
    place = next(a for a in game.legal_actions() if isinstance(a, Place))
    game.apply(place)
    assert game.to_move == seat  # classic: the turn goes on after one placement
    rack_before = game.rack(seat)
    bag_before = game.bag_size
    game.apply(f"resign {seat}")
    assert game.scores[seat] == game.summaries()[-1].points > 0
    assert game.rack(seat) == rack_before and game.bag_size == bag_before  # no refill
    assert game.to_move == (seat + 1) % 3
    for _ in range(12):  # turn order skips the seat that left
        assert game.to_move != seat
        _play(game, random.Random(len(game.log)))


def test_a_proposal_to_stop_moves_on_without_the_leaver() -> None:
    """J4: the leaver's answer is no longer waited for; the proposal stands with the rest."""
    empty_pot = {"racks": [[1, 3, 5, 7, 9]] * 3, "bag": [], "to_move": 0}  # J4
    game = new_game("junior", ["Ann", "Bob", "Cy"], setup=empty_pot)
    proposer = game.to_move
    game.apply("stop")
    asked = game.to_move
    game.apply("accept")
    last = game.to_move
    assert last not in (proposer, asked)
    game.apply(f"resign {last}")
    assert game.is_over and game.end_reason == "the players agreed to stop"
    assert game.ranks()[last] == 3


def test_quattro_deals_no_card_to_a_seat_that_left() -> None:
    game = new_game("quattro", ["Ann", "Bob", "Cy"], seed=7, rounds=3)
    assert isinstance(game, QuattroGame)
    game.apply("resign 2")
    rng = random.Random(3)
    while game.round == 1 and not game.is_over:
        _play(game, rng)
    hand = game.rack(2)
    while game.round == 2 and not game.is_over:
        assert game.to_move != 2
        _play(game, rng)
    assert game.rack(2) == hand and game.scores[2] == 0


# -- any game, any leaves -------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(GAMES),
    seats=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    referee=st.booleans(),
    leave_rate=st.sampled_from([0.002, 0.01, 0.05]),
)
def test_random_games_with_random_leaves(
    name: str, seats: int, seed: int, referee: bool, leave_rate: float
) -> None:
    """Random games where random seats leave at random points (out of turn too) always
    end; a left seat's score never changes, its turns never come; the log replays to the
    same state and the record to the same result; ranks put the leavers last, in reverse
    order of leaving."""
    house = HouseRules(table_referee=referee and name != "quattro")
    game = new_game(
        name,
        list(NAMES[:seats]),
        seed=seed,
        house_rules=house,
        rounds=2 if name == "quattro" else 1,
    )
    rng = random.Random(seed)
    frozen: dict[int, int] = {}
    order: list[int] = []
    while not game.is_over:
        inside = [s for s in range(seats) if s not in frozen]
        if rng.random() < leave_rate / 4 and game.can_abort(seat := rng.choice(inside)):
            game.apply(Abort(seat))
            assert game.ranks() == (1,) * seats and game.winners() == ()
            assert game.end_reason == "aborted"
            break
        if rng.random() < leave_rate or len(game.log) > 700:
            seat = rng.choice(inside)
            game.apply(Leave(seat, rng.choice(LEAVE_REASONS)))
            frozen[seat] = game.scores[seat]
            order.append(seat)
        else:
            assert game.to_move in inside and game.legal_actions()
            _play(game, rng)
        for seat, score in frozen.items():
            assert game.scores[seat] == score
        assert sum(game.census().values()) == sum(new_game(name, seats, seed=0).census().values())
    assert game.seats_in == tuple(s for s in range(seats) if s not in frozen)
    again = game.fresh()
    for action in game.log:
        again.apply(action)
    assert again.snapshot() == game.snapshot() and again.left == game.left
    replayed = registry.from_record(records.dumps(game))
    assert replayed.snapshot() == game.snapshot() and replayed.ranks() == game.ranks()
    if game.aborted:
        return
    ranks = game.ranks()
    assert len(ranks) == seats
    still_in = game.seats_in
    assert all(ranks[s] < ranks[o] for s in still_in for o in order)
    assert [ranks[s] for s in order] == sorted((ranks[s] for s in order), reverse=True)
    assert len(set(ranks[s] for s in order)) == len(order)
    assert game.winners() == tuple(s for s in range(seats) if ranks[s] == 1)
    if len(still_in) == 1:
        assert game.winners() == still_in


def test_a_seat_that_left_during_a_challenged_turn_stays_gone() -> None:
    """C12: a challenge replays the game up to the turn's first mistake; a seat that left
    during that turn has still left after it."""
    game = new_game(
        "classic", ["Ann", "Bob", "Cy"], seed=11, house_rules=HouseRules(table_referee=True)
    )
    maker = game.to_move
    legal = set(game.legal_placements())
    mistake = next(
        Place(cell, value)
        for cell in range(len(game.view(None).surface))
        for value in game.rack(maker)
        if game.view(None).surface[cell] == -1 and Place(cell, value) not in legal
    )
    game.apply(mistake)
    gone, challenger = (maker + 2) % 3, (maker + 1) % 3
    game.apply(f"resign {gone}")
    if game.to_move == maker:
        game.apply("end")
    assert "challenge" in game.view(challenger).available
    assert game.view(gone).available == ()
    with pytest.raises(IllegalMove, match="has left the game"):
        game.apply(Challenge(by=gone))
    game.apply(Challenge(by=challenger))
    assert game.left[gone] == "resign" and game.to_move == challenger
    assert game.summaries()[-1].note == "cut short by a challenge"
    replayed = registry.from_record(records.dumps(game))
    assert replayed.snapshot() == game.snapshot()


# -- ruling O3: a seat leaving closes no one else's right (issue 31) -------------------

REFEREE = HouseRules(table_referee=True)
FOUR = ["Ann", "Bob", "Cy", "Di"]


def _ending_mistake(version: int | None = None) -> Game:
    """Four players, table referee, an empty bag: Ann's last token goes on I8 as a 13,
    which no equation makes (H8 4, G8 3), emptying her rack: the game would end, and
    waits for Bob's answer (C12)."""
    racks = [[13], [5, 6], [5, 6], [5, 6]]
    game = registry.game_type("classic").create(
        FOUR,
        house_rules=REFEREE,
        setup={"racks": racks, "bag": [], "to_move": 0},
        **({} if version is None else {"version": version}),
    )
    game.apply("I8=13")
    assert game.view(1).status == (
        "Ann's turn may be challenged before the game ends: Bob, challenge or accept?"
    )
    assert game.scores[0] > 0 and not game.is_over
    return game


def test_o3_a_seat_leaving_leaves_an_open_challenge_open() -> None:
    """Issue 31: Di resigning used to end the game with Ann's mistake standing, and after
    Cy resigned Bob's challenge was refused. The question stays Bob's; his challenge
    takes the 13 back."""
    game = _ending_mistake()
    game.apply("resign 3")
    assert not game.is_over and game.to_move == 1
    assert game.view(1).available == ("challenge", "accept")
    assert "challenge" in game.view(2).available and game.view(3).available == ()
    game.apply("resign 2")
    assert not game.is_over and game.seats_in == (0, 1)
    game.apply("challenge")
    assert game.scores == (0, 0, 0, 0) and game.rack(0) == (13,) and not game.is_over
    assert game.summaries()[-1].note == "cut short by a challenge"
    assert game.left == ("", "", "resign", "resign") and game.to_move == 1
    again = registry.from_record(records.dumps(game))
    assert again.snapshot() == game.snapshot()


def test_o3_the_question_passes_to_the_next_opponent_when_the_asked_one_leaves() -> None:
    game = _ending_mistake()
    game.apply("resign 1")
    assert game.to_move == 2 and game.view(2).status == (
        "Ann's turn may be challenged before the game ends: Cy, challenge or accept?"
    )
    game.apply("accept")  # the turn stands: the game ends as it would have
    assert game.is_over and game.end_reason.startswith("the bag is empty")


def test_o3_a_mistake_found_after_its_maker_left_still_loses_its_points() -> None:
    """Issue 31: the maker resigning used to keep the mistake's points in the frozen
    score; a challenge after it takes them away (the score stays frozen otherwise)."""
    game = _ending_mistake()
    game.apply("resign 0")
    assert not game.is_over and game.to_move == 1 and game.scores[0] > 0
    game.apply("challenge")
    assert game.scores[0] == 0 and game.left[0] == "resign" and game.to_move == 1
    assert not game.is_over
    again = registry.from_record(records.dumps(game))
    assert again.snapshot() == game.snapshot()


def test_o3_the_turn_a_maker_cut_short_by_leaving_may_be_challenged() -> None:
    """A maker who leaves in the middle of a turn ends it by leaving; its mistakes are
    still found by the next opponent, and the frozen score loses their points."""
    racks = [[13, 7], [5, 6], [5, 6]]
    game = new_game(
        "classic", FOUR[:3], house_rules=REFEREE, setup={"racks": racks, "bag": [9, 9, 9]}
    )
    game.apply("I8=13")
    assert game.to_move == 0 and game.scores[0] == 0  # the turn goes on
    game.apply("resign 0")
    assert game.scores[0] > 0 and game.to_move == 1
    assert "challenge" in game.view(1).available and "challenge" in game.view(2).available
    game.apply(Challenge(by=2))
    assert game.scores[0] == 0 and game.rack(0) == (7, 13) and game.to_move == 1
    again = registry.from_record(records.dumps(game))
    assert again.snapshot() == game.snapshot()


def test_o3_an_open_turn_stays_open_when_the_next_player_leaves() -> None:
    """Mid-game (no question: the next player's action closes the turn), the player to
    move resigning passes the right to challenge to the next opponent still in."""
    racks = [[13, 7], [5, 6], [5, 6]]
    game = new_game(
        "classic", FOUR[:3], house_rules=REFEREE, setup={"racks": racks, "bag": [9, 9, 9]}
    )
    game.apply("I8=13")
    game.apply("end")
    assert game.to_move == 1
    game.apply("resign 1")
    assert game.to_move == 2 and "challenge" in game.view(2).available
    game.apply("challenge")
    assert game.scores == (0, 0, 0) and game.to_move == 2


def test_o3_a_record_of_rules_version_2_replays_with_the_old_leaving() -> None:
    """Before rules version 3 leaving closed the challenge: a record written then still
    ends where it ended, with the mistake standing."""
    game = _ending_mistake(version=2)
    game.apply("resign 3")
    assert game.is_over and game.scores[0] > 0
    again = registry.from_record(records.dumps(game))
    assert again.is_over and again.scores == game.scores and again.rules_version == 2


def _three_idle_players(version: int | None = None) -> BoardGame:
    """Ann, Bob and Cy; Ann, Bob, Cy and Ann pass; Bob is to move (Cy has H6=6)."""
    racks = [[90], [81], [6, 80]]
    game = registry.game_type("classic").create(
        FOUR[:3],
        setup={"racks": racks, "bag": [9, 9, 9], "to_move": 0},
        **({} if version is None else {"version": version}),
    )
    assert isinstance(game, BoardGame)
    for _ in range(4):
        game.apply("pass")
    return game


def test_o3_the_rounds_of_c11c_count_the_seats_still_in() -> None:
    """Issue 31: Bob resigning on his turn used to end the game at once for two full
    rounds without a placement, though Cy had passed once. The leaver's turns no longer
    count: Cy plays; two passes each of the seats still in end it."""
    game = _three_idle_players()
    game.apply("resign 1")
    assert not game.is_over and game.to_move == 2
    assert Place(game.board.grid.parse("H6"), 6) in game.legal_actions()
    game.apply("pass")
    assert game.is_over and game.end_reason == "two full rounds went by without a placement"
    version_2 = _three_idle_players(version=2)
    version_2.apply("resign 1")
    assert version_2.is_over  # as rules version 2 played it (its records replay so)
