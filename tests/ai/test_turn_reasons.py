"""The live move lists' reasons for a computer's exchange or pass (issue 35), followed
action by action as a server does (:func:`~mathable.ai.turnreasons.turn_reasons` after
every action, explained now and then), agree with the reasons worked out afresh from the
whole log (:func:`~mathable.ai.reasons.computer_turn_notes`), through undos too."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mathable.ai import get_bot
from mathable.ai.reasons import computer_turn_notes
from mathable.ai.turnreasons import turn_reasons
from mathable.engine.actions import Exchange
from mathable.engine.metadata import HouseRules
from mathable.games.board.game import BoardGame


def followed_reasons(game: BoardGame, computers: set[int]) -> dict[int, str]:
    found = turn_reasons(game, computers)
    assert found is not None
    found.explain_waiting()
    return {index: str(reason) for index, reason in found.reasons.items()}


def expected_reasons(game: BoardGame, computers: set[int]) -> dict[int, str]:
    notes = computer_turn_notes(game, computers)
    return {index: str(note) for index, note in enumerate(notes) if note is not None}


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 2**20),
    explain_every=st.integers(1, 40),
    undo_at=st.sets(st.integers(0, 120), max_size=3),
)
def test_reasons_followed_action_by_action_are_those_of_the_whole_log(
    seed: int, explain_every: int, undo_at: set[int]
) -> None:
    game = BoardGame(
        "classic",
        ["A [bot:gentle]", "B [bot:greedy]"],
        seed=seed,
        house_rules=HouseRules(allow_undo=True),
    )
    computers = {0, 1}
    bots = [get_bot("gentle", seed=seed), get_bot("greedy", seed=seed + 1)]
    step = 0
    while not game.is_over:
        game.apply(bots[game.to_move].act(game.view(game.to_move, explained=False)))
        step += 1
        reasons = turn_reasons(game, computers)  # as every view asks
        assert reasons is not None
        if step % explain_every == 0:
            reasons.explain_waiting()
        if step in undo_at and game.log:
            game.undo()  # the log replaced: followed afresh
            turn_reasons(game, computers)
    assert followed_reasons(game, computers) == expected_reasons(game, computers)


def test_a_game_whose_computers_exchanged_has_reasons_to_compare() -> None:
    """The property above is not empty: seed 6's greedy computers exchange (as the
    terminal's test of the move list finds)."""
    game = BoardGame("classic", ["C1 [bot:greedy]", "C2 [bot:greedy]"], seed=6)
    bots = [get_bot("greedy", seed=seat) for seat in range(2)]
    while not game.is_over:
        game.apply(bots[game.to_move].act(game.view(game.to_move, explained=False)))
        turn_reasons(game, {0, 1})
    expected = expected_reasons(game, {0, 1})
    assert expected and followed_reasons(game, {0, 1}) == expected
    assert followed_reasons(game, {1}) == expected_reasons(game, {1})


def test_an_exchange_undone_and_made_again_otherwise_is_explained_afresh() -> None:
    """An undo replaces the log: the exchange taken back, and another made in its place
    (the log as long as before), is the one explained."""
    rules = HouseRules(allow_undo=True)
    played = BoardGame("classic", ["C1 [bot:greedy]", "C2 [bot:greedy]"], seed=6)
    bots = [get_bot("greedy", seed=seat) for seat in range(2)]
    while not played.is_over:
        played.apply(bots[played.to_move].act(played.view(played.to_move, explained=False)))
    place = next(i for i, action in enumerate(played.log) if isinstance(action, Exchange))
    game = BoardGame("classic", ["C1 [bot:greedy]", "C2 [bot:greedy]"], seed=6, house_rules=rules)
    for action in played.log[: place + 1]:
        game.apply(action)
        turn_reasons(game, {0, 1})
    game.undo()
    exchanged = played.log[place]
    assert isinstance(exchanged, Exchange)
    rack = game.rack(game.to_move)
    other = next(value for value in rack if value not in exchanged.values)
    game.apply(Exchange((other,)))  # the log as long as when the first was followed
    assert len(game.log) == place + 1
    expected = expected_reasons(game, {0, 1})
    assert expected and followed_reasons(game, {0, 1}) == expected
