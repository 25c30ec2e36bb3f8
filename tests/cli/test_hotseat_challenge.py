"""C12 in the plain game (``play --plain``, issue 31): any opponent of the player who
made the turn may challenge it, not only the player to move, by naming the seat or the
name after the word (``challenge 2``, ``challenge Cy``), as the web lets any opponent."""

from __future__ import annotations

from io import StringIO

import pytest
from rich.console import Console

from mathable.cli.hotseat import run_hotseat
from mathable.engine import records
from mathable.engine.actions import Challenge
from mathable.engine.protocol import Game, HouseRules
from mathable.games import registry
from mathable.render.typed import challenge_request

RACKS = {"racks": [[13, 7], [5, 6], [5, 6]], "bag": [9, 9, 9], "to_move": 0}


def _game(referee: bool = True) -> Game:
    """Ann, Bob and Cy; Ann holds a 13 that no equation makes on I8 (H8 4, G8 3)."""
    return registry.new_game(
        "classic",
        ["Ann", "Bob", "Cy"],
        house_rules=HouseRules(table_referee=referee),
        setup=RACKS,
    )


def _play(game: Game, lines: list[str], monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the plain game on ``game`` with ``lines`` typed (then quit); what it printed."""
    typed = [*lines, "quit", ""]
    monkeypatch.setattr("builtins.input", lambda prompt="": typed.pop(0))
    out = StringIO()
    run_hotseat(Console(file=out, width=100, force_terminal=False), game, seed=1)
    return out.getvalue()


def test_any_opponent_challenges_by_seat_or_name_while_another_is_to_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = _game()
    lines = ["", "I8=13", "end", "", "help", "challenge 0", "challenge Cy"]
    text = _play(game, lines, monkeypatch)
    assert "any opponent may" in text  # the help says how
    assert "refused: Ann made that turn: only an opponent may challenge it" in text
    assert "Cy challenged: Ann's turn is cut short at its first mistake" in text
    assert game.scores == (0, 0, 0) and 13 in game.rack(0) and game.to_move == 1
    assert game.summaries()[-1].note == "cut short by a challenge"
    again = registry.from_record(records.dumps(game))
    assert again.snapshot() == game.snapshot()


def test_a_bare_challenge_is_the_player_at_the_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game()
    text = _play(game, ["", "I8=13", "end", "", "challenge"], monkeypatch)
    assert "Bob challenged: Ann's turn is cut short" in text and game.scores[0] == 0


@pytest.mark.parametrize(
    ("line", "referee", "said"),
    [
        ("challenge Zed", True, "no player 'Zed' here: type challenge, or challenge and a seat"),
        ("challenge 7", True, "no player '7' here"),
        ("challenge 1", False, "no challenges without the table-referee house rule (C12)"),
    ],
)
def test_a_challenge_that_cannot_be_made_says_why(line: str, referee: bool, said: str) -> None:
    game = _game(referee)
    game.apply("I8=13" if referee else "I8=7")
    if game.to_move == 0:
        game.apply("end")
    request = challenge_request(game, line, 1, ())
    assert isinstance(request, str) and said in request


def test_a_computer_seat_is_not_challenged_for() -> None:
    game = _game()
    game.apply("I8=13")
    game.apply("end")
    said = challenge_request(game, "challenge 2", 1, (2,))
    assert said == "Cy is a computer player: it challenges on its own when asked"
    assert challenge_request(game, "challenge 2", 1, ()) == Challenge(by=2)
