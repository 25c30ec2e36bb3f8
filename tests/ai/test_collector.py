"""The turn search pauses Python's cyclic collector while it runs (issue 35) and always
leaves it as it found it: running after a search, off after one that found it off, and
running again when a search fails."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from mathable.ai.base import board_from_view
from mathable.ai.evaluation import rank_plans
from mathable.ai.search import CollectorPaused, search_turns
from mathable.games.board.variants import CLASSIC
from mathable.games.board.view import BoardView
from mathable.games.registry import new_game


@pytest.fixture
def collector_restored() -> Iterator[None]:
    """Whatever a test does to the collector, the next test finds it running."""
    yield
    gc.enable()


def test_a_pause_stops_the_collector_and_restarts_it(collector_restored: None) -> None:
    gc.enable()
    with CollectorPaused():
        assert not gc.isenabled()
        with CollectorPaused():  # a search inside a ranking
            assert not gc.isenabled()
        assert not gc.isenabled(), "the inner pause found it off: it leaves it off"
    assert gc.isenabled()


def test_a_pause_leaves_a_collector_that_was_off_off(collector_restored: None) -> None:
    gc.disable()
    with CollectorPaused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_a_failing_search_restarts_the_collector(collector_restored: None) -> None:
    gc.enable()
    board = CLASSIC.new_board()
    with pytest.raises(TypeError):
        search_turns(CLASSIC, board, [12, None], started_with=2)  # type: ignore[list-item]
    assert gc.isenabled()


def test_searching_and_ranking_leave_the_collector_running(collector_restored: None) -> None:
    gc.enable()
    game = new_game("classic", 2, seed=35)
    view = game.view(game.to_move)
    assert isinstance(view, BoardView)
    variant, board = board_from_view(view)
    assert search_turns(variant, board, view.rack, started_with=len(view.rack))
    assert gc.isenabled()
    assert rank_plans(view)
    assert gc.isenabled()
