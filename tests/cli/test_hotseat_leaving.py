"""Local ruling L1 in the plain game (``play --plain``): a person types ``resign`` or
``abort``, confirms, and the Leave or Abort is played and kept in the record like any
action; refused, with the reason, when the engine does not allow it."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO

import pytest
from rich.console import Console

from mathable.cli.hotseat import run_hotseat
from mathable.engine import records
from mathable.engine.protocol import Game
from mathable.games import registry


def _typist(game: Game, lines: list[str]) -> Callable[[str], str]:
    """An ``input`` typing ``lines``, then the first legal action at each prompt."""

    def typed(prompt: str = "") -> str:
        if lines:
            return lines.pop(0)
        if game.is_over:  # asked whether to save: no
            return ""
        return game.format_action(game.legal_actions()[0])

    return typed


def _play(game: Game, lines: list[str], monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the plain game on ``game`` with ``lines`` typed; what it printed."""
    monkeypatch.setattr("builtins.input", _typist(game, lines))
    out = StringIO()
    run_hotseat(Console(file=out, width=100, force_terminal=False), game, seed=1)
    return out.getvalue()


def test_resigning_a_two_player_game_ends_it_and_the_record_keeps_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = registry.new_game("classic", ["Ann", "Bob"], seed=3)
    first = game.to_move
    text = _play(game, ["", "help", "resign", "y"], monkeypatch)
    name, other = game.players[first], game.players[1 - first]
    assert f"{name} resigns: sure? y/n" in text
    assert "resign  " in text and "abort  " in text  # the help lists both while open
    assert game.is_over and game.winners() == (1 - first,)
    assert f"Game over: {name} resigned. Winner: {other}." in text
    assert game.format_action(game.log[-1]) == f"resign {first}"
    again = registry.from_record(records.dumps(game))
    assert again.is_over and again.format_action(again.log[-1]) == f"resign {first}"


def test_in_a_three_player_game_play_goes_on_without_the_seat_that_resigned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = registry.new_game("classic", ["Ann", "Bob", "Cy"], seed=3)
    first = game.to_move
    text = _play(game, ["", "resign", "yes", "", "pass", "", "quit", ""], monkeypatch)
    assert not game.is_over and game.left[first] == "resign"
    (turn,) = game.summaries()  # the next seat played, and the turn went on past the leaver
    assert turn.seat == (first + 1) % 3 and game.to_move == (first + 2) % 3
    assert f"{game.players[first]} (resigned)" in text  # the scores mark the seat
    assert game.format_action(game.log[0]) == f"resign {first}"


def test_abort_before_anyone_moved_calls_the_game_off(monkeypatch: pytest.MonkeyPatch) -> None:
    game = registry.new_game("junior", ["Ann", "Bob [bot:gentle]"], seed=4)
    while game.to_move != 0:  # a computer seat first: let it move, abort stays open
        game.apply(game.legal_actions()[0])
    text = _play(game, ["abort", "n", "abort", "y"], monkeypatch)
    assert "Ann aborts the game (nobody wins): sure? y/n" in text and "Play goes on." in text
    assert game.is_over and game.end_reason == "aborted" and game.winners() == ()
    assert "Game over: aborted." in text and "Winner" not in text
    assert "abort 0" in records.dumps(game)


def test_leaving_is_refused_with_the_reason_when_it_is_not_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = registry.new_game("classic", ["Ann", "Bob [bot:gentle]"], seed=4)
    while game.to_move != 0 or {s.seat for s in game.summaries()} != {0, 1}:
        game.apply(game.legal_actions()[0])
    before = len(game.log)
    lines = ["help", "abort", "resign 1", "flag 1", "resign Zed", "quit", ""]
    text = _play(game, lines, monkeypatch)
    assert len(game.log) == before and not game.is_over  # nothing played
    assert "refused: a game is aborted only before each player has moved" in text
    assert "Bob [bot:gentle] is a computer player: computers never resign" in text
    assert "refused: flag is for online games with a clock" in text
    assert "refused: no player 'Zed' here" in text
    assert "resign  " in text and "abort  " not in text  # help: abort no longer offered
