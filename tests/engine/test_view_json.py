"""A view's JSON parts made without a ``str`` call per value (issue 34, cheaper actions):
the same text as the plain way, for any counts; and a view made at once (issue 35)."""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathable.engine.protocol import HouseRules
from mathable.engine.view import counts_json
from mathable.games.board.game import BoardGame


@given(st.dictionaries(st.integers(min_value=-(2**70), max_value=2**70), st.integers()))
def test_counts_are_written_as_json_writes_them(counts: dict[int, int]) -> None:
    assert counts_json(counts) == {str(value): count for value, count in counts.items()}
    assert list(counts_json(counts)) == [str(value) for value in counts]  # in their order


def test_a_view_made_at_once_is_the_view_its_init_makes_and_needs_every_field() -> None:
    """``View.made`` (issue 35, faster self-play) fills a view's fields at once: the same
    view as ``__init__`` makes, frozen after; a field missing or unknown is refused."""
    view = BoardGame("classic", 2, seed=7).view(0)
    values = {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}
    made = type(view).made(**values)
    assert made == type(view)(**values)
    assert made.to_dict() == view.to_dict()
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.rack = ()  # type: ignore[misc]
    del values["rack"]
    with pytest.raises(TypeError, match=r"missing fields \['rack'\]"):
        type(view).made(**values)
    with pytest.raises(TypeError, match=r"unknown \['racks'\]"):
        type(view).made(**values, rack=(), racks=())


def _played(seed: int, actions: int) -> BoardGame:
    """A greedy classic game from ``seed``, ``actions`` actions in (or over)."""
    from mathable.ai import get_bot

    game = BoardGame("classic", 2, seed=seed)
    bots = [get_bot("greedy", seed), get_bot("greedy", seed + 1)]
    for _ in range(actions):
        if game.is_over:
            break
        game.apply(bots[game.to_move].act(game.view(game.to_move, explained=False)))
    return game


@pytest.mark.parametrize("seed", [3, 11])
def test_a_computers_view_makes_its_summaries_and_status_when_read_as_they_were(
    seed: int,
) -> None:
    """A computer's view (``explained=False``, issue 35: greedy self-play) leaves the
    finished turns in words and the status line to be made when first read: read at
    once, long after (the game played on, or undone), pickled, or on another thread,
    they are what the game said when the view was made."""
    import pickle
    import threading

    from mathable.ai import get_bot

    game = BoardGame("classic", 2, seed=seed, house_rules=HouseRules(allow_undo=True))
    bots = [get_bot("greedy", seed), get_bot("greedy", seed + 1)]
    kept: list[tuple[Any, tuple[object, ...], str]] = []
    undone = False
    for index in itertools.count():
        if game.is_over:
            break
        view = game.view(game.to_move, explained=False)
        if index % 3:  # read at once
            assert view.summaries == game.summaries()
            assert str(view.status_text) == str(game.status())
        else:  # read later: what the game says now
            kept.append((view, game.summaries(), str(game.status())))
        game.apply(bots[game.to_move].act(view))
        if index == 60:  # an undo replays the log into a new state
            game.undo()
            undone = True
    assert undone and len(kept) > 20
    found: list[object] = []
    for view, _, _ in kept[::2]:
        worker = threading.Thread(target=lambda v=view: found.append(v.summaries))
        worker.start()
        worker.join()
    assert found == [summaries for _, summaries, _ in kept[::2]]
    for view, summaries, status in kept:
        copy = pickle.loads(pickle.dumps(view))  # a view sent to a worker: made whole
        assert "_later" not in copy.__dict__
        assert copy.summaries == summaries == view.summaries
        assert str(copy.status_text) == status == str(view.status_text)
        assert copy == view
    assert any(summaries and status for _, summaries, status in kept)
    with pytest.raises(AttributeError, match="no attribute 'summary'"):
        kept[0][0].summary  # noqa: B018


def test_a_view_made_later_still_needs_its_other_fields() -> None:
    """``View.of`` with ``later`` requires every field but those made later."""
    view = _played(5, 20).view(0)
    values = {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}
    with pytest.raises(TypeError, match=r"unknown \['status_text', 'summaries'\]"):
        type(view).of(dict(values), (lambda v, name, kept: None, None))
    del values["summaries"], values["status_text"], values["rack"]
    with pytest.raises(TypeError, match=r"missing fields \['rack'\]"):
        type(view).of(values, (lambda v, name, kept: None, None))
