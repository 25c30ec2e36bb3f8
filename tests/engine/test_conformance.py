"""The conformance harness run on every board variant: hundreds of random games each,
checking conservation, generated actions, undo, replay, hidden information and the end
after every event (rulings C8, C11, C13, J2-J4, K2-K3)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathable.engine import records
from mathable.engine.actions import Action, EndGame
from mathable.engine.conformance import ConformanceError, _holds, random_sim_test
from mathable.engine.protocol import Game, HouseRules
from mathable.games import registry
from mathable.games.board.game import BoardGame
from mathable.games.board.turns import Setup
from mathable.games.board.variants import VARIANTS

GAMES = {"classic": 120, "junior": 200, "junior-numbers": 200}


def _secrets(game: Any, viewer: int | None) -> list[list[Any]]:
    hidden: list[list[Any]] = [list(game.bag_order())]
    if not game.variant.open_racks:
        hidden += [list(game.rack(s)) for s in range(len(game.players)) if s != viewer]
    return hidden


@pytest.mark.parametrize("name", sorted(VARIANTS))
@pytest.mark.parametrize("referee", [pytest.param(False, marks=pytest.mark.slow), True])
def test_random_games_conform(name: str, referee: bool) -> None:
    variant = VARIANTS[name]
    house = HouseRules(allow_undo=True, table_referee=referee)
    count = GAMES[name] // (4 if referee else 1)

    def new_game(seed: int) -> Game:
        return BoardGame(variant, 2 + seed % 3, seed=seed, house_rules=house)

    report = random_sim_test(
        new_game,
        lambda g: registry.from_record(records.to_record(g)),
        variant.tokens,
        _secrets,
        lambda g, seat: g.view(seat).to_dict(),
        games=count,
        seed=len(name),
    )
    assert report.games == count
    assert report.undo_checks > 0 and report.view_checks > 0


def test_random_games_answer_proposals() -> None:
    """J4 and C12: random Junior games propose to stop and answer (decline, accept), and
    refereed games on the numbered board answer the last turn's open question; every
    check holds through them."""

    report = random_sim_test(_nearly_empty_pot, games=40, seed=3, check_every=0.3)
    assert report.kinds["stop"] and report.kinds["decline"] and report.kinds["accept"]
    refereed = HouseRules(allow_undo=True, table_referee=True)

    def numbers(seed: int) -> Game:
        return BoardGame("junior-numbers", 2 + seed % 3, seed=seed, house_rules=refereed)

    report = random_sim_test(numbers, secrets_for=_secrets, games=20, seed=4, check_every=0.3)
    assert report.kinds["accept"] >= report.games  # each last turn stays open (C12)


class _StopFirst(BoardGame):
    """A game listing a proposal to stop first when there is one, so that the harness,
    which mostly plays the first kind of action offered, proposes often."""

    def legal_actions(self, *, exchanges: bool = True) -> list[Action]:
        actions = super().legal_actions(exchanges=exchanges)
        return sorted(actions, key=lambda action: not isinstance(action, EndGame))


def _nearly_empty_pot(seed: int, kind: type[BoardGame] = _StopFirst) -> BoardGame:
    """A Junior game of 3 seats with only 2 tiles left in the pot (one deal for every
    game, so that each holds the same tiles; ``seed`` shuffles the exchanges): proposals
    to stop come early (J4: only once the pot is empty)."""
    dealt = BoardGame("junior", 3, seed=5)
    racks = tuple(dealt.rack(s) for s in range(3))
    setup = Setup(racks, dealt.bag_order()[:2])
    return kind("junior", 3, seed=seed, setup=setup, house_rules=HouseRules(allow_undo=True))


class _Unoffered(BoardGame):
    """A game whose view forgets to offer the proposal to stop (J4)."""

    def available(self, seat: int | None) -> tuple[str, ...]:
        return tuple(k for k in super().available(seat) if k != "stop")


def test_harness_catches_a_view_that_does_not_offer_an_action() -> None:
    """The harness itself can fail: an action the game generates but the view of the
    player to move does not offer is caught."""
    with pytest.raises(ConformanceError, match="does not offer stop"):
        random_sim_test(
            lambda seed: _nearly_empty_pot(seed, _Unoffered),
            games=1,
            check_every=1.0,
        )


def test_harness_catches_a_leaking_view() -> None:
    """The harness itself can fail: a view that shows every rack is caught."""

    def leaky(game: Any, seat: int | None) -> Any:
        data = game.view(seat).to_dict()
        data["leak"] = [list(game.rack(s)) for s in range(len(game.players))]
        return data

    with pytest.raises(ConformanceError, match="secret"):
        random_sim_test(
            lambda seed: BoardGame(
                "classic", 2, seed=seed, house_rules=HouseRules(allow_undo=True)
            ),
            lambda g: registry.from_record(records.to_record(g)),
            VARIANTS["classic"].tokens,
            _secrets,
            leaky,
            games=1,
            check_every=1.0,
        )


@pytest.mark.parametrize("name", list(registry.GAMES))
def test_every_game_of_the_registry_conforms(name: str) -> None:
    """Every game the registry holds, found by name (no list by hand): random games with
    undo and every house rule it offers that changes play, checked by the harness with
    the protocol's defaults (including who may act: :meth:`Game.play`)."""
    kind = registry.GAMES[name]
    house = HouseRules(allow_undo=True, table_referee="table_referee" in kind.house_rules)
    seats = kind.max_players - kind.min_players + 1

    def new_game(seed: int) -> Game:
        return registry.new_game(
            name, kind.min_players + seed % seats, seed=seed, house_rules=house
        )

    report = random_sim_test(new_game, games=8, seed=34, check_every=0.2)
    assert report.games == 8
    assert report.undo_checks > 0 and report.view_checks > 0


@given(
    secret=st.lists(st.integers(0, 99), min_size=3, max_size=12),
    depth=st.integers(0, 3),
    shuffle=st.randoms(use_true_random=False),
)
def test_a_secret_is_found_in_any_order_at_any_depth_and_nowhere_else(
    secret: list[int], depth: int, shuffle: Any
) -> None:
    """The harness's search for a secret in a view (a list with the same items in any
    order, anywhere inside it); one item more, or one changed, is not the secret."""
    shown = secret.copy()
    shuffle.shuffle(shown)
    data: Any = shown
    for level in range(depth):
        data = {"k": [level, data]} if level % 2 else [data, "x"]
    assert _holds(data, secret)
    assert _holds({"view": [1, 2], "deep": data}, secret)
    assert not _holds([*shown, 100], secret)
    assert not _holds([*shown[1:], 100], secret)
    assert not _holds({"racks": [shown[1:]]}, secret)
