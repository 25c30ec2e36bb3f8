"""Each player's last turn in the view (issue 14): per seat, the targets its last finished
turn placed on, for a board game and for Quattro; the turn under way is not a last turn."""

from __future__ import annotations

from mathable.engine.actions import Draw, EndTurn, Exchange, Pass, Place
from mathable.engine.protocol import Game
from mathable.games.quattro.game import QuattroGame, QuattroSetup
from mathable.games.registry import new_game

A, B, C, D = range(4)


def every_seat_sees(game: Game, expected: tuple[tuple[int, ...], ...]) -> None:
    """The last turns are public: each seat and a spectator see the same."""
    for seat in (0, 1, None):
        assert game.view(seat).last_turn_targets == expected


def test_a_board_game_marks_each_players_last_turn() -> None:
    game = new_game("classic", ["Ann", "Bob"], seed=3)
    first = game.to_move
    every_seat_sees(game, ((), ()))  # nobody has played yet
    ann = next(iter(game.legal_placements()))
    assert isinstance(ann, Place)
    game.apply(ann)
    assert ann.cell in game.view(0).recent_targets
    every_seat_sees(game, ((), ()))  # the turn under way is not a last turn
    game.apply(EndTurn())
    mover: list[tuple[int, ...]] = [(), ()]
    mover[first] = (ann.cell,)
    every_seat_sees(game, (mover[0], mover[1]))  # the other player has not placed
    bob = next(iter(game.legal_placements()))
    assert isinstance(bob, Place)
    game.apply(bob)
    every_seat_sees(game, (mover[0], mover[1]))
    game.apply(EndTurn())
    mover[1 - first] = (bob.cell,)
    every_seat_sees(game, (mover[0], mover[1]))  # both, each their own
    game.apply(Pass())
    mover[first] = ()
    every_seat_sees(game, (mover[0], mover[1]))  # a pass placed nothing


def test_quattro_marks_each_players_last_turn() -> None:
    setup = QuattroSetup(
        hands=((32, 25, 1, 1, 1, 1, 1), (3, 3, 3, 3, 3, 3, 3)),
        piles=(20, 12, 7, 2),
        reserve=tuple(range(40, 60)),
    )
    game = QuattroGame(["Louis", "Zoé"], setup=setup)
    game.apply("A=32")
    every_seat_sees(game, ((), ()))  # the turn under way is not a last turn
    game.apply("C=25")  # the turn ends: nothing more to play
    assert game.to_move == 1
    every_seat_sees(game, ((A, C), ()))  # Zoé has not played
    game.apply(Draw())  # stuck (Q3): the drawn card goes on any pile
    game.apply("D=40")
    every_seat_sees(game, ((A, C), ()))
    game.apply(Exchange((3,)))
    assert game.to_move == 0
    every_seat_sees(game, ((A, C), (D,)))
