"""The engine decides who may act (issue 34): :meth:`Game.play` checks game over, a seat
that left (L1), actions no seat plays (leave, abort, shake: L1, O5), a challenge's
window (C12) and the seat to move, then applies; :meth:`Game.actors` and
:meth:`Game.undo_steps` say who made each action and how far an undo reaches (V-B).

Each check is tested from the rulebooks and rulings, and against an oracle: the checks
the web service made between parsing and applying before they moved here, run on random
games of every game in the registry (the refusals, their texts and kinds, who acted and
what an undo takes back must be the same).
"""

from __future__ import annotations

import pickle
from collections.abc import Collection

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathable.engine.actions import (
    Abort,
    Action,
    Challenge,
    EndTurn,
    Leave,
    Shake,
    action_kind,
)
from mathable.engine.errors import IllegalMove
from mathable.engine.protocol import REFUSAL_KINDS, ActionRefused, Game, HouseRules
from mathable.games.board.game import BoardGame
from mathable.games.board.turns import Setup
from mathable.games.registry import GAMES, new_game

NAMES = tuple(GAMES)
"""Every game of the registry: the checks hold for each."""

# -- the oracle: the web service's checks as they were (service.py, before issue 34) ----


def service_play(game: Game, seat: int, action: Action) -> tuple[str, str] | Action:
    """What the service did with ``seat``'s ``action``: a refusal (kind, text) or the
    action it applied."""
    if game.is_over:
        why = game.end_reason
        return ("over", f"the game is over: {why}" if why else "the game is over")
    if isinstance(action, Leave | Abort | Shake):
        return ("not_playable", f"{action_kind(action)}: not an action to play here")
    if game.left[seat]:
        return ("left", "you have left the game: play goes on without you")
    if action_kind(action) == "challenge":
        view = game.view(seat)
        if "challenge" not in view.available:
            if not game.house_rules.table_referee:
                text = "there are no challenges without the table-referee house rule (C12)"
            elif view.summaries and view.summaries[-1].seat == seat:
                text = "you made that turn: only your opponents may challenge it (C12)"
            else:
                text = "nothing to challenge: a challenge comes before the next player acts (C12)"
            return ("challenge", text)
        return Challenge(by=seat)
    if seat != game.to_move:
        return ("turn", f"it is {game.players[game.to_move]}'s turn, not yours")
    return action


def service_actors(game: Game) -> list[int]:
    """Who made each action of the log, as the service replayed it."""
    replay = game.fresh()
    actors = []
    for action in game.log:
        by = action.by if isinstance(action, Challenge) else None
        if isinstance(action, Leave | Abort):
            by = action.seat
        actors.append(replay.to_move if by is None else by)
        replay.apply(action)
    return actors


def service_undo(game: Game, seat: int | None, bots: Collection[int]) -> int | str:
    """How many actions the service's undo took back, or why not."""
    if seat is None:
        return "spectators cannot undo"
    if not game.house_rules.allow_undo:
        return "undo is off in this game: taking back is a house rule (allow undo, V-B)"
    if game.is_over:
        return "the game is over"
    if game.left[seat]:
        return "you have left the game"
    steps = 0
    for back, actor in enumerate(reversed(service_actors(game)), start=1):
        if isinstance(game.log[-back], Shake):
            continue
        if isinstance(game.log[-back], Leave | Abort):
            break
        steps += 1
        if actor == seat:
            return steps
        if actor not in bots:
            break
    return (
        "nothing of yours to take back: you may undo your own last action (and the "
        "computer's replies) while nobody else has played since (V-B)"
    )


def engine_undo(game: Game, seat: int | None, bots: Collection[int]) -> int | str:
    try:
        steps = game.undo_steps(seat, bots)
    except ActionRefused as refused:
        assert refused.kind == "undo"
        assert not game.can_undo(seat, bots)
        return str(refused)
    assert game.can_undo(seat, bots)
    return steps


def house_for(name: str, referee: bool, undo: bool) -> HouseRules:
    offered = GAMES[name].house_rules
    return HouseRules(
        table_referee=referee and "table_referee" in offered,
        allow_undo=undo and "allow_undo" in offered,
    )


# -- the differential test: every game of the registry ----------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(NAMES),
    seed=st.integers(0, 2**32),
    referee=st.booleans(),
    undo=st.booleans(),
    data=st.data(),
)
def test_play_decides_as_the_service_did(
    name: str, seed: int, referee: bool, undo: bool, data: st.DataObject
) -> None:
    kind = GAMES[name]
    count = data.draw(st.integers(kind.min_players, kind.max_players), label="seats")
    game = new_game(name, count, seed=seed, house_rules=house_for(name, referee, undo))
    for _ in range(40):
        seat = data.draw(st.integers(0, count - 1), label="seat")
        legal = game.legal_actions()
        extra: list[Action] = [Challenge(), Leave(seat, "resign"), Abort(seat), Shake(7)]
        action = data.draw(st.sampled_from([*legal, *extra] if legal else extra), label="action")
        if data.draw(st.integers(0, 30), label="resign?") == 0 and game.can_leave(seat):
            game.apply(Leave(seat, "resign"))  # the resign path, not play (L1)
            continue
        expected = service_play(game, seat, action)
        before = game.snapshot(), game.log
        try:
            played = game.play(seat, action)
        except ActionRefused as refused:
            assert isinstance(expected, tuple), (expected, refused.kind, str(refused))
            assert (refused.kind, str(refused)) == expected
            assert refused.kind in REFUSAL_KINDS and refused.rule == ""
            assert (game.snapshot(), game.log) == before
            continue
        except IllegalMove as illegal:  # the rules refuse the action itself
            assert not isinstance(expected, tuple), expected
            other = game.copy()
            with pytest.raises(IllegalMove) as same:
                other.apply(expected)
            assert str(same.value) == str(illegal) and same.value.rule == illegal.rule
            assert (game.snapshot(), game.log) == before
            continue
        assert played == expected and game.log[-1] == expected
        assert list(game.actors()) == service_actors(game)
        bots = set(data.draw(st.sets(st.integers(0, count - 1)), label="computers"))
        for who in (None, *range(count)):
            assert engine_undo(game, who, bots) == service_undo(game, who, bots)
        if game.is_over:
            break


def test_every_game_offers_score_sheets_through_its_type() -> None:
    """Score sheets are a capability of the game (no front end imports a family): a
    game type whose capabilities say it has them can write and score them."""
    from mathable.games.registry import score_sheet, sheet_games

    for name, kind in GAMES.items():
        assert kind.score_sheets == (kind.sheets is not None), name
        game = new_game(name, kind.min_players, seed=3)
        if kind.sheets is None:
            assert name not in sheet_games()
            with pytest.raises(ValueError, match="has no score sheets"):
                game.score_sheet()
            with pytest.raises(ValueError, match="has no score sheets"):
                score_sheet(name, "")
            continue
        assert name in sheet_games()
        for action in game.legal_actions()[:1]:
            game.apply(action)
        scored = score_sheet(name, game.score_sheet())
        assert set(scored) == {"turns", "totals"}


# -- the rulings, one by one --------------------------------------------------------------


def refusal(game: Game, seat: int, action: Action | str) -> ActionRefused:
    before = game.snapshot(), game.log
    with pytest.raises(ActionRefused) as info:
        game.play(seat, action)
    assert (game.snapshot(), game.log) == before
    return info.value


@pytest.mark.parametrize("name", NAMES)
def test_only_the_seat_to_move_plays(name: str) -> None:
    game = new_game(name, ["Ann", "Bob"], seed=5)
    other = 1 - game.to_move
    action = game.legal_actions()[0]
    refused = refusal(game, other, action)
    assert refused.kind == "turn"
    assert str(refused) == f"it is {game.players[game.to_move]}'s turn, not yours"
    assert game.play(game.to_move, game.format_action(action)) == action
    assert game.log == (action,)


@pytest.mark.parametrize("name", NAMES)
def test_leaving_aborting_and_shaking_are_not_played_by_a_seat(name: str) -> None:
    """L1, O5: resigning, claims, flags, aborts and the shake after an undo have their
    own paths (which call ``apply``); a seat never plays them."""
    game = new_game(name, 2, seed=5, house_rules=house_for(name, False, True))
    seat = game.to_move
    for action, word in (
        (Leave(seat, "resign"), "resign"),
        (Abort(seat), "abort"),
        (Shake(3), "shake"),
    ):
        refused = refusal(game, seat, action)
        assert (refused.kind, str(refused)) == (
            "not_playable",
            f"{word}: not an action to play here",
        )
    game.apply(Abort(seat))  # the abort path
    refused = refusal(game, seat, game.legal_actions()[0] if game.legal_actions() else "pass")
    assert (refused.kind, str(refused)) == ("over", "the game is over: aborted")


@pytest.mark.parametrize("name", NAMES)
def test_a_seat_that_left_plays_no_more(name: str) -> None:
    """L1: play goes on without a seat that left."""
    game = new_game(name, 3, seed=5)
    gone = game.to_move
    game.apply(Leave(gone, "resign"))
    refused = refusal(game, gone, "pass")
    assert (refused.kind, str(refused)) == (
        "left",
        "you have left the game: play goes on without you",
    )
    assert game.actors() == (gone,)


def referee_game(players: int = 2) -> BoardGame:
    racks = ((12, 16, 1, 2, 8, 5, 6), (90, 81, 80, 72, 70, 64, 63), (60, 54, 50, 49, 48, 45, 42))
    return BoardGame(
        "classic",
        ["Ann", "Bob", "Cy"][:players],
        seed=1,
        house_rules=HouseRules(table_referee=True, allow_undo=True),
        setup=Setup(racks[:players], tuple([9] * 20)),
    )


def test_c12_any_opponent_challenges_until_the_next_player_acts() -> None:
    """C12: Ann's mistaken turn may be challenged by Cy while Bob is to move; the engine
    names the challenger; Ann may not challenge her own turn."""
    game = referee_game(3)
    game.play(0, "A1=5")  # a mistake, accepted provisionally
    game.play(0, EndTurn())
    assert game.to_move == 1
    refused = refusal(game, 0, "challenge")
    assert (refused.kind, str(refused)) == (
        "challenge",
        "you made that turn: only your opponents may challenge it (C12)",
    )
    assert game.play(2, "challenge") == Challenge(by=2)  # out of turn: any opponent
    assert game.turns[-1].challenged
    assert game.actors() == (0, 0, 2)
    assert game.format_action(game.log[-1]) == "challenge"


def test_c12_the_window_closes_when_the_next_player_acts() -> None:
    game = referee_game()
    game.play(0, "A1=5")
    game.play(0, EndTurn())
    game.play(1, "pass")  # Bob acted: too late
    refused = refusal(game, 0, "challenge")
    assert refused.kind == "challenge"
    assert str(refused).startswith("nothing to challenge")


def test_c12_no_challenge_without_the_table_referee() -> None:
    plain = BoardGame("classic", 2, seed=1)
    refused = refusal(plain, 1, "challenge")
    assert (refused.kind, str(refused)) == (
        "challenge",
        "there are no challenges without the table-referee house rule (C12)",
    )


def test_v_b_undo_reaches_back_to_the_seats_own_action_through_computer_replies() -> None:
    """V-B: a player takes back their own last action and the computer's replies after
    it; never what another person did; a shake is nobody's (O5); leaving is never taken
    back (L1)."""
    game = referee_game()
    game.play(0, "I8=12")
    game.play(0, EndTurn())
    game.play(1, "pass")
    assert game.undo_steps(1) == 1
    assert game.undo_steps(0, computers={1}) == 2  # back to her own last action
    with pytest.raises(ActionRefused, match="nothing of yours") as info:
        game.undo_steps(0)
    assert info.value.kind == "undo"
    game.undo(shake=11)  # Bob's pass back, the bag shaken (O5)
    assert isinstance(game.log[-1], Shake)
    assert game.actors()[:2] == (0, 0)
    assert game.undo_steps(0) == 1  # the shake skipped: nobody's
    game.apply(Leave(1, "resign"))
    assert not game.can_undo(0) and not game.can_undo(None)
    with pytest.raises(ActionRefused, match=r"^spectators cannot undo$"):
        game.undo_steps(None)


def test_v_b_undo_is_off_by_default() -> None:
    game = BoardGame("classic", 2, seed=1)
    game.play(game.to_move, game.legal_actions()[0])
    with pytest.raises(ActionRefused) as info:
        game.undo_steps(0)
    assert str(info.value) == (
        "undo is off in this game: taking back is a house rule (allow undo, V-B)"
    )


def test_a_refusal_survives_pickling_with_its_kind() -> None:
    game = BoardGame("classic", 2, seed=1)
    refused = refusal(game, 1 - game.to_move, "pass")
    again = pickle.loads(pickle.dumps(refused))
    assert isinstance(again, ActionRefused)
    assert (again.kind, str(again)) == (refused.kind, str(refused))


def test_actors_follow_an_undo() -> None:
    """Who acted is kept with the log it was read from: an undo (a new log) reads again."""
    game = referee_game()
    game.play(0, "I8=12")
    game.play(0, EndTurn())
    assert game.actors() == (0, 0)
    game.undo()
    assert game.actors() == (0,)
    assert list(game.actors()) == service_actors(game)
