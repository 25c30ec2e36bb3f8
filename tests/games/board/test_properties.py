"""Properties of random classic games (hypothesis): tokens conserved, generated
placements valid, refused ones refused by the oracle too, undo restores, replay
reproduces, views hide other racks and the bag order (rulings C2, C3, C8, C13)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from mathable.engine import records
from mathable.engine.actions import Place
from mathable.engine.errors import IllegalMove
from mathable.engine.protocol import HouseRules
from mathable.engine.tokens import CLASSIC_TOKENS
from mathable.games import registry
from mathable.games.board.game import BoardGame
from oracle import naive_equations

games = st.builds(
    lambda seed, players, referee: (seed, players, referee),
    st.integers(0, 2**40),
    st.integers(2, 4),
    st.booleans(),
)


def _play(seed: int, players: int, referee: bool, steps: int) -> BoardGame:
    game = BoardGame(
        "classic",
        players,
        seed=seed,
        house_rules=HouseRules(allow_undo=True, table_referee=referee),
    )
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        actions = game.legal_actions()
        places = [a for a in actions if isinstance(a, Place)]
        game.apply(rng.choice(places) if places and rng.random() < 0.9 else rng.choice(actions))
    return game


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 150))
def test_tokens_are_conserved(spec: tuple[int, int, bool], steps: int) -> None:
    """C2: bag + racks + board always hold the 106 tokens, plus the 4 printed ones."""
    game = _play(*spec, steps)
    assert game.census() == Counter(CLASSIC_TOKENS) - Counter({0: 0})
    on_board = [v for v in game.board.values if v >= 0]
    assert len(on_board) == 4 + sum(game.census().values()) - game.bag_size - sum(
        len(game.rack(s)) for s in range(len(game.players))
    )


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 120), st.data())
def test_refusals_match_the_oracle(
    spec: tuple[int, int, bool], steps: int, data: st.DataObject
) -> None:
    """C3-C5: a random placement is accepted exactly when the naive oracle allows it;
    a refused one leaves the game unchanged."""
    seed, players, _ = spec
    game = _play(seed, players, False, steps)
    if game.is_over:
        return
    rack = game.rack(game.to_move)
    cell = data.draw(st.integers(0, len(game.board.values) - 1))
    value = data.draw(st.sampled_from(rack))
    legal = naive_equations(game.board, cell, value) > 0
    before = game.snapshot()
    try:
        game.apply(Place(cell, value))
    except IllegalMove as exc:
        assert not legal, f"refused a legal placement: {exc}"
        assert exc.rule and exc.where == game.board.grid.name(cell)
        assert game.snapshot() == before
    else:
        assert legal


@settings(max_examples=30, deadline=None)
@given(games, st.integers(1, 150))
def test_undo_restores_and_replay_reproduces(spec: tuple[int, int, bool], steps: int) -> None:
    game = _play(*spec, steps)
    if not game.log:
        return
    replayed = registry.from_record(json.loads(records.dumps(game)))
    assert replayed.snapshot() == game.snapshot()
    after = game.snapshot()
    last = game.log[-1]
    shorter = BoardGame("classic", len(game.players), seed=game.seed, house_rules=game.house_rules)
    for action in game.log[:-1]:
        shorter.apply(action)
    game.undo()
    assert game.snapshot() == shorter.snapshot()
    game.apply(last)
    assert game.snapshot() == after


@settings(max_examples=30, deadline=None)
@given(games, st.integers(0, 150))
def test_views_hide_other_racks_and_the_bag(spec: tuple[int, int, bool], steps: int) -> None:
    """A view holds its own rack, never another seat's, nor the bag's order (C13)."""
    game = _play(*spec, steps)
    if game.is_over:
        return
    bag = list(game.bag_order())
    for seat in [None, *range(len(game.players))]:
        view = game.view(seat)
        data = view.to_dict()
        text = json.dumps(data)
        assert view.rack == (game.rack(seat) if seat is not None else ())
        assert view.open_racks == ()
        assert "bag" not in {k for k in data if k != "bag_size"}
        assert data["bag_size"] == len(bag)
        if len(bag) >= 3:
            assert json.dumps(bag) not in text
        unseen = Counter(game.bag_order())
        for other in range(len(game.players)):
            if other != seat:
                unseen.update(game.rack(other))
        assert {v: n for v, n in view.unseen.items() if n} == dict(+unseen)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**40), st.integers(2, 4))
def test_every_game_ends(seed: int, players: int) -> None:
    """C11: random games end, and the final scores include the deduction."""
    game = _play(seed, players, False, 5000)
    assert game.is_over
    assert game.winners()
    assert all(game.deductions[s] == sum(game.rack(s)) for s in range(players))
