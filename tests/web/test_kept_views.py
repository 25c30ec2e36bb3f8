"""A finished turn's view data made once and shared (issue 34, cheaper actions): the
views and their JSON text are exactly what they were when every view made its own."""

from __future__ import annotations

import copy
import dataclasses
import datetime
import gc
import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathable import i18n, new_game
from mathable.engine.kept import Kept, kept, naming_key
from mathable.engine.protocol import Game
from mathable.games.registry import GAMES
from mathable.web.infra.connections import Encoded, dumps, dumps_object, dumps_value
from mathable.web.rounds.views import view_data


class Source:
    """A frozen turn's stand-in (weakly referable, compared by identity)."""


def plain(value: Any) -> Any:
    """``value`` with every :class:`Kept` part as a plain dict (a deep copy)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return copy.copy(value)


def test_made_once_per_source_and_key_and_forgotten_with_its_source() -> None:
    source, calls = Source(), []

    def build() -> dict[str, Any]:
        calls.append(1)
        return {"a": 1}

    first = kept(source, "en", build)
    assert kept(source, "en", build) is first and len(calls) == 1
    assert kept(source, "fr", build) is not first and len(calls) == 2
    assert kept(Source(), "en", build) is not first
    assert first.text() == '{"a":1}'
    from mathable.engine import kept as module

    ident = id(source)
    del source
    gc.collect()
    assert ident not in module._kept


def test_a_naming_is_kept_only_when_compared_by_value() -> None:
    game = new_game("classic", players=["a", "b"], seed=1)
    assert naming_key(None) == 0
    assert naming_key(game.cell_names.name) == naming_key(game.cell_names.name) != 0
    assert naming_key(lambda cell: cell) is None
    assert naming_key(object().__eq__) is None


def test_dumps_object_writes_what_json_writes() -> None:
    parts = [Kept({"x": "é", "n": 1}), Kept({"y": [1, 2]})]
    value = {"a": 1, "k": parts, "b": {"c": None}, "m": [parts[1], {"z": 2}], "e": []}
    assert dumps_object(value) == dumps(plain(value))
    assert dumps_object({"only": parts}) == dumps(plain({"only": parts}))


def views_text(game: Game) -> list[str]:
    texts = []
    for lang in ("en", "fr"):
        with i18n.language(lang):
            for seat in (*range(len(game.players)), None):
                data = Encoded(view_data(game, game.view(seat)))
                assert json.loads(data.text()) == plain(dict(data))
                assert data.text() == dumps(plain(dict(data)))
                texts.append(data.text())
    return texts


def test_every_game_views_as_when_each_view_made_its_own() -> None:
    for name in GAMES:
        game = new_game(name, players=["a", "b", "c"], seed=5)
        rng = random.Random(5)
        for _ in range(40):
            if game.is_over:
                break
            views_text(game)
            game.apply(rng.choice(list(game.legal_actions())))
        # the same position reached afresh (other turn objects) reads the same
        again = new_game(name, players=["a", "b", "c"], seed=5)
        for action in game.log:
            again.apply(again.parse_action(game.format_action(action)))
        assert views_text(again) == views_text(game)


def test_a_patch_measures_kept_parts_as_json_writes_them() -> None:
    from mathable.web.infra.patches import _size

    parts = [Kept({"x": "é"}), Kept({"y": [1, 2]}), Kept({})]
    for value in ([*parts], [parts[0]], [parts[1], {"z": "ü"}, 3]):
        assert _size(value) == len(dumps(plain(value)))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(JSON_VALUES)
def test_a_seat_values_text_is_what_json_writes(value: Any) -> None:
    """The shortcut for a seat's flags and numbers writes exactly :func:`dumps`'s text."""
    assert dumps_value(value) == dumps(value)


def json_text(value: Any) -> str:
    """What Python's ``json`` writes, with the API's settings."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


EXACT_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text()
    | st.text(st.characters(categories=["Cs", "Cc", "Zl", "So"])),  # surrogates, controls
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text() | st.integers(), inner, max_size=4)
    ),  # keys json converts
    max_leaves=12,
)


@given(EXACT_VALUES)
def test_the_views_json_is_the_text_json_writes(value: Any) -> None:
    """:func:`dumps` (orjson, issue 34) writes exactly ``json``'s text, or leaves the
    values orjson refuses (integer keys, huge integers, lone surrogates) to ``json``."""
    assert dumps(value) == json_text(value)


FINITE_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(FINITE_VALUES)
def test_floats_are_written_as_the_same_numbers(value: Any) -> None:
    """A float may be written in another form (``1e16``), never as another number (an
    infinity, which JSON has no word for, is ``null``: no view holds one)."""
    assert json.loads(dumps(value)) == json.loads(json_text(value))


def test_what_json_refuses_is_refused() -> None:
    @dataclasses.dataclass
    class Point:
        x: int

    for value in (Point(1), datetime.date(2026, 11, 28), {1.5j: 1}):
        with pytest.raises(TypeError):
            dumps(value)
