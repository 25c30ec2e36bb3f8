"""Ruling O5, taking back (house rule *allow undo*): the tokens drawn in a turn that is
taken back go back into the bag, and the next draw is random again (the bag is shaken):
undoing never shows what will be drawn. The shake is an action of the game's log
(``shake 8123``, :class:`~mathable.engine.actions.Shake`), nobody's and not a turn, so a
game is still its seed plus its log: records and replays give the same bag."""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathable.engine import records
from mathable.engine.actions import SHAKE_ENTROPY, Place, Shake, action_kind
from mathable.engine.errors import IllegalMove, NotationError
from mathable.engine.notation import format_action, parse_action
from mathable.engine.protocol import Game, HouseRules, TargetNames
from mathable.games import registry
from mathable.games.board.game import BoardGame
from mathable.games.registry import new_game

GAMES = ("classic", "junior", "junior-numbers", "quattro")
NO_CELLS = TargetNames(())
UNDO = HouseRules(allow_undo=True)


def _played(name: str, seed: int, steps: int) -> Game:
    """A game of ``name`` with undo allowed, ``steps`` random actions in (placements
    mostly, so turns end and draw)."""
    game = new_game(name, ["Ann", "Bob"], seed=seed, house_rules=UNDO)
    rng = random.Random(seed)
    for _ in range(steps):
        actions = game.legal_actions()
        if game.is_over or not actions:
            break
        places = [a for a in actions if isinstance(a, Place)]
        game.apply(rng.choice(places) if places and rng.random() < 0.8 else rng.choice(actions))
    return game


def _public(game: Game) -> tuple[object, ...]:
    """Everything but the bag's order (and the generator's state): what a shake keeps."""
    return (
        tuple(game.rack(s) for s in range(len(game.players))),
        game.scores,
        game.to_move,
        game.is_over,
        game.summaries(),
        Counter(game.bag_order()),
        game.census(),
    )


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(GAMES),
    st.integers(0, 2**40),
    st.integers(1, 80),
    st.integers(0, SHAKE_ENTROPY - 1),
)
def test_o5_an_undo_that_shakes_keeps_the_bags_tokens_and_the_log_replays(
    name: str, seed: int, steps: int, entropy: int
) -> None:
    """O5: after an undo with a shake the bag holds the same tokens as after a plain
    undo (those the action drew are back in it), nothing else a player sees changes,
    and the log (the shake in it) replays to the same state, from a record too."""
    game = _played(name, seed, steps)
    if not game.log:
        return
    plain = game.copy()
    plain.undo()
    game.undo(entropy)
    assert game.log[-1] == Shake(entropy) and game.log[:-1] == plain.log
    assert _public(game) == _public(plain)
    replayed = game.fresh()
    for action in game.log:
        replayed.apply(action)
    assert replayed.snapshot() == game.snapshot()
    again = registry.from_record(json.loads(records.dumps(game)))
    assert again.snapshot() == game.snapshot() and again.log == game.log
    assert records.to_record(game)["actions"][-1] == f"shake {entropy}"


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**40), st.integers(1, 80))
def test_o5_the_next_draw_is_random_again(name: str, seed: int, steps: int) -> None:
    """O5: a shaken bag is in another order for some entropy (never the order the turn
    taken back drew from, for every entropy), and a later undo never takes the shake
    back: the order it hid stays hidden."""
    game = _played(name, seed, steps)
    if not game.log:
        return
    plain = game.copy()
    plain.undo()
    if len(set(plain.bag_order())) < 2:
        return  # one value left (or none): every order is the same
    orders = set()
    for entropy in range(24):
        shaken = game.copy()
        shaken.undo(entropy)
        orders.add(shaken.bag_order())
        if any(not isinstance(a, Shake) for a in shaken.log):
            shaken.undo()  # takes back the action before, keeps the shake
            assert shaken.log[-1] == Shake(entropy)
    # at least two other orders, where the bag has that many (two tokens have one; 8, 8
    # and 18 have two: equal tokens swapped are the same order)
    bag = plain.bag_order()
    arrangements = math.factorial(len(bag))
    for count in Counter(bag).values():
        arrangements //= math.factorial(count)
    others = arrangements - 1
    assert len(orders - {plain.bag_order()}) >= min(2, others)


@pytest.mark.parametrize("name", GAMES)
def test_o5_a_shake_is_not_a_turn_and_is_never_taken_back_alone(name: str) -> None:
    """O5: a shake changes neither the seat to move nor the turns; undoing takes back the
    last action that is not a shake, the shakes after it stay; with only shakes left
    there is nothing to undo; it is never among the legal actions."""
    game = new_game(name, ["Ann", "Bob"], seed=3, house_rules=UNDO)
    first = game.legal_actions()[0]
    game.apply(first)
    mover, turns = game.to_move, game.summaries()
    game.apply(Shake(42))
    assert game.to_move == mover and game.summaries() == turns
    assert not any(isinstance(a, Shake) for a in game.legal_actions())
    game.undo(7)
    assert game.log == (Shake(42), Shake(7))
    with pytest.raises(IllegalMove, match="nothing to undo"):
        game.undo(8)
    assert game.log == (Shake(42), Shake(7))


@pytest.mark.parametrize("name", GAMES)
def test_o5_a_shake_only_under_the_house_rule_and_never_once_over(name: str) -> None:
    game = new_game(name, ["Ann", "Bob"], seed=3)
    with pytest.raises(IllegalMove, match="only after an undo") as refused:
        game.apply(Shake(1))
    assert refused.value.rule == "O5" and game.log == ()
    over = new_game(name, ["Ann", "Bob"], seed=3, house_rules=UNDO)
    over.apply("abort 0")
    with pytest.raises(IllegalMove, match="over"):
        over.apply("shake 1")


def test_o5_a_shake_is_written_shake_and_its_entropy() -> None:
    for entropy in (0, 8123, SHAKE_ENTROPY - 1):
        text = f"shake {entropy}"
        assert parse_action(text, NO_CELLS) == Shake(entropy)
        assert format_action(Shake(entropy), NO_CELLS) == text
        assert action_kind(Shake(entropy)) == "shake"
    assert parse_action("  Shake   5 ", NO_CELLS) == Shake(5)
    for bad in ("shake", "shake x", "shake -1", f"shake {SHAKE_ENTROPY}", "shake 1 2"):
        with pytest.raises(NotationError):
            parse_action(bad, NO_CELLS)
    assert 0 <= Shake.fresh().entropy < SHAKE_ENTROPY
    assert len({Shake.fresh() for _ in range(8)}) > 1


def test_o5_a_shake_during_a_challenged_turn_stays() -> None:
    """C12 with O5: a challenge replays the challenged turn up to its first mistake;
    the bag shaken during the turn stays shaken (as a seat that left stays gone)."""
    rules = HouseRules(table_referee=True, allow_undo=True)
    game = new_game("classic", ["Ann", "Bob"], seed=9, house_rules=rules)
    assert isinstance(game, BoardGame)
    for _ in range(40):
        places = [a for a in game.legal_actions() if isinstance(a, Place)]
        if not places:
            break
        rack = game.rack(game.to_move)
        legal = set(places)
        wrong = next(
            (
                Place(cell, value)
                for cell in range(196)
                for value in rack
                if Place(cell, value) not in legal
                and game.board.values[cell] < 0
                and any(
                    0 <= cell + d < 196 and game.board.values[cell + d] >= 0
                    for d in (-1, 1, -14, 14)
                )
            ),
            None,
        )
        if wrong is not None:
            break
        game.apply(places[0])
        game.apply("end")
    assert wrong is not None
    game.apply(wrong)  # accepted: the table referee (C12) waits for a challenge
    game.apply(Shake(99))
    game.apply("end")
    unshaken = game.copy()
    unshaken._rebuild([a for a in game.log if a != Shake(99)])
    game.apply("challenge")
    unshaken.apply("challenge")
    assert Counter(game.bag_order()) == Counter(unshaken.bag_order())
    assert game.bag_order() != unshaken.bag_order()
    assert registry.from_record(records.dumps(game)).snapshot() == game.snapshot()
