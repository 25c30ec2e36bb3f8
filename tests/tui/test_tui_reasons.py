"""The terminal's move list says why a computer exchanged or passed (issue 35), as the
web page's does; a person's exchange says nothing more."""

from __future__ import annotations

from mathable.ai import get_bot
from mathable.ai.reasons import computer_turn_notes
from mathable.games.board.game import BoardGame
from mathable.tui.app import MathableApp


def played_out(game: BoardGame) -> BoardGame:
    bots = [get_bot("greedy", seed=seat) for seat in range(len(game.players))]
    while not game.is_over:
        game.apply(bots[game.to_move].act(game.view(game.to_move, explained=False)))
    return game


def test_a_computers_exchange_says_why_in_the_move_list() -> None:
    game = played_out(BoardGame("classic", ["C1 [bot:greedy]", "C2 [bot:greedy]"], seed=6))
    app = MathableApp(game, bot_delay=0)
    lines = app._move_list(game.view(None)).plain.splitlines()[1:]  # after the heading
    notes = computer_turn_notes(game, {0, 1})
    assert any(notes) and len(lines) == len(notes)
    for line, note in zip(lines, notes, strict=True):
        if note is None:
            assert " — " not in line
        else:
            assert line.endswith(f" — {note}") and "exchange" in line
    again = app._move_list(game.view(None)).plain  # kept: the same, made once
    assert again.splitlines()[1:] == lines


def test_a_persons_exchange_says_nothing_more() -> None:
    game = BoardGame("classic", ["Ann", "Bob [bot:greedy]"], seed=6)
    app = MathableApp(game, bot_delay=0)
    bob = get_bot("greedy", seed=1)
    while game.to_move != 0:  # Bob's whole turn first, if his
        game.apply(bob.act(game.view(1, explained=False)))
    rack = game.rack(0)
    game.apply("exchange " + " ".join(map(str, rack[:2])))
    (line,) = [ln for ln in app._move_list(game.view(None)).plain.splitlines() if "Ann" in ln]
    assert "exchange" in line and " — " not in line
