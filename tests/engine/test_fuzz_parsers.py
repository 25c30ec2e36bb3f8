"""Fuzzing every parser (issue 12, item 6): action notation over every game's cell names,
one-line positions, records (valid ones mutated field by field, and JSON text) and score
sheets, fed hostile strings: markup (``[/]``, ``[bold]``), control characters,
right-to-left marks, odd digits, 10,000 characters, nested junk. The only exception that
may escape is a MathableError with a message; never KeyError, TypeError, ValueError,
IndexError, OSError, RecursionError...

The fast tests keep hypothesis's example counts small; the ``slow`` ones run many more."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mathable.engine import records
from mathable.engine.errors import MathableError
from mathable.engine.notation import CellNames, Position, parse_action, parse_turn
from mathable.engine.protocol import Game, HouseRules
from mathable.games import registry
from mathable.games.board.transcript import score_transcript
from mathable.games.board.variants import VARIANTS
from mathable.games.quattro.game import QuattroGame, QuattroSetup

pytestmark = pytest.mark.filterwarnings("ignore:Generating overly large repr")
"""The hostile strings are long on purpose; hypothesis warns when it describes them."""

HOSTILE = [
    "[/]",
    "[/x]",
    "[bold]",
    "[bold]Eve",
    "[red]x[/red]",
    "\x00",
    "\x1b[31m",
    "\r\n",
    "\t",
    "\u200f",  # right-to-left mark
    "\u202e",  # right-to-left override
    "\ufeff",
    "²",
    "٣",  # Arabic-Indic three
    "Ⅻ",
    "½",
    "🂡",
    "|",
    "/",
    "?",
    "=",
    "+",
    "-",
    ",",
    ":",
    "#",
    "{",
    "}",
    "\\",
    "%s",
    "{0}",
    "x" * 10_000,
    "9" * 5_000,
    "1" * 40,
    "G7=1" * 600,
    "I8=12 " * 400,
    "exchange " + "5" * 5_000,
    "exchange ²",
    "left ²",
    "?" + "9" * 5_000,
    "  ",
    "",
]
"""Pieces a mischievous or unlucky user types."""

WORDS = [
    "G7",
    "g7",
    "A1",
    "N14",
    "Z99",
    "A",
    "d",
    "I8=12",
    "J8=16+",
    "A=32",
    "end",
    "pass",
    "stop",
    "accept",
    "decline",
    "draw",
    "penalty",
    "diago",
    "challenge",
    "exchange",
    "exchange 3,5,7",
    "left 3 5",
    "Ann:",
    "classic",
    "junior",
    "junior-numbers",
    "quattro",
    "?7",
    "0",
    "-1",
    "92",
]
"""Pieces of the notation, for texts that almost parse."""

hostile_text = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=60),
    st.lists(st.sampled_from(HOSTILE + WORDS), max_size=8).map(" ".join),
    st.lists(st.one_of(st.sampled_from(HOSTILE + WORDS), st.text(max_size=8)), max_size=8).map(
        "".join
    ),
)
"""Texts built from the hostile and notation pieces."""

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def refused_or_read(parse: Callable[[], object]) -> None:
    """Run ``parse``: it returns, or raises a MathableError with a message; any other
    exception fails the test."""
    try:
        parse()
    except MathableError as exc:
        assert str(exc).strip(), f"{type(exc).__name__} without a message"


def _cell_names() -> dict[str, CellNames]:
    return {name: registry.new_game(name, 2, seed=1).cell_names for name in registry.GAMES}


CELL_NAMES = _cell_names()


# -- action notation ---------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(CELL_NAMES))
@FAST
@given(text=hostile_text)
@example(text="exchange ²")  # int("²") raised ValueError
def test_action_notation_refuses_hostile_text_with_a_notation_error(game: str, text: str) -> None:
    names = CELL_NAMES[game]
    refused_or_read(lambda: parse_action(text, names))
    refused_or_read(lambda: parse_turn(text, names))


@pytest.mark.parametrize("game", sorted(CELL_NAMES))
@FAST
@given(
    cell=st.one_of(st.sampled_from(HOSTILE + WORDS), st.text(max_size=5)),
    value=st.one_of(st.sampled_from(HOSTILE), st.text(max_size=5), st.integers().map(str)),
)
@example(cell="A1", value="²")
def test_placements_with_hostile_cells_and_values(game: str, cell: str, value: str) -> None:
    names = CELL_NAMES[game]
    refused_or_read(lambda: parse_action(f"{cell}={value}", names))
    refused_or_read(lambda: parse_action(f"exchange {value}", names))


def test_every_hostile_piece_as_an_action_of_every_game() -> None:
    for text in HOSTILE:
        for names in CELL_NAMES.values():
            refused_or_read(partial(parse_action, text, names))
    for text in ["exchange ²", "exchange " + "5" * 5_000, "A1=²"]:
        with pytest.raises(MathableError, match=r"\S"):
            parse_action(text, CELL_NAMES["classic"])


# -- positions -----------------------------------------------------------------------------

GOOD_POSITION = "classic | G7=1 H7=2 G8=3 H8=4 | 1 2 8 12 16 17 42 / ?7 | 0 0 | 92 | 1"
position_text = st.one_of(
    hostile_text,
    st.lists(hostile_text, min_size=6, max_size=6).map(" | ".join),
    st.tuples(st.integers(0, 5), hostile_text).map(
        lambda spot: " | ".join(
            spot[1] if k == spot[0] else part for k, part in enumerate(GOOD_POSITION.split(" | "))
        )
    ),
)
"""Any text, six hostile fields, or the good position with one field made hostile."""


@FAST
@given(text=position_text)
@example(text=GOOD_POSITION.replace("?7", "?²"))  # int("²") raised ValueError
def test_positions_refuse_hostile_text_with_a_notation_error(text: str) -> None:
    refused_or_read(lambda: Position.parse(text, registry.position_grids()))
    refused_or_read(lambda: registry.parse_position(text))


def test_every_hostile_piece_in_every_field_of_a_position() -> None:
    parts = GOOD_POSITION.split(" | ")
    grids = registry.position_grids()
    for text in HOSTILE:
        for k in range(6):
            changed = " | ".join(text if j == k else p for j, p in enumerate(parts))
            refused_or_read(partial(Position.parse, changed, grids))
            refused_or_read(partial(registry.parse_position, changed))


# -- records -------------------------------------------------------------------------------


def _played(game: Game, count: int) -> Game:
    for _ in range(count):
        if game.is_over:
            break
        actions = game.legal_actions()
        game.apply(actions[len(game.log) * 7 % len(actions)])
    return game


def _valid_records() -> list[dict[str, Any]]:
    """Records of every game: played a little, with house rules, a deal, rounds."""
    out = [
        records.to_record(
            _played(
                registry.new_game(
                    "classic", ["Ann", "Bob", "Cy"], seed=3, house_rules=HouseRules(allow_undo=True)
                ),
                12,
            )
        ),
        records.to_record(_played(registry.new_game("junior", 2, seed=4), 10)),
        records.to_record(
            _played(
                registry.new_game(
                    "junior-numbers", ["A", "B"], seed=5, house_rules=HouseRules(strict=True)
                ),
                9,
            )
        ),
        records.to_record(_played(registry.new_game("quattro", 3, seed=6, rounds=2), 10)),
        records.to_record(
            _played(
                QuattroGame(
                    ["Louis", "Zoé"],
                    setup=QuattroSetup(
                        ((32, 25, 1, 1, 1, 1, 1), (3, 3, 3, 3, 3, 3, 3)),
                        (20, 12, 7, 2),
                        (40, 42, 45, 48),
                    ),
                ),
                3,
            )
        ),
    ]
    board_with_setup = registry.new_game(
        "classic",
        ["Ann", "Bob"],
        setup={"racks": [[1, 2, 8, 12, 16, 17, 42], [3, 4, 6, 7, 7, 8, 21]], "bag": [5, 9, 10]},
    )
    out.append(records.to_record(_played(board_with_setup, 4)))
    return out


VALID = _valid_records()

junk: st.SearchStrategy[Any] = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.sampled_from([-1, 0, 1, 5, 2**63, 2**64, -(2**63), 10**30]),
        st.floats(allow_nan=False),
        hostile_text,
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(hostile_text, inner, max_size=4)
    ),
    max_leaves=12,
)
"""Any JSON value, hostile strings and numbers included."""


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a record (object keys and list indexes)."""
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:12]):
            out += _paths(item, (*prefix, index))
    return out


@st.composite
def mutated_records(draw: st.DrawFn) -> dict[str, Any]:
    """A valid record with one to three of its values removed, retyped or replaced by
    junk, or with a field added."""
    record: dict[str, Any] = copy.deepcopy(draw(st.sampled_from(VALID)))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(record)
        path = draw(st.sampled_from(paths))
        *parents, last = path
        holder: Any = record
        for key in parents:
            holder = holder[key]
        how = draw(st.sampled_from(["remove", "junk", "retype", "add"]))
        if how == "remove":
            del holder[last]
        elif how == "junk":
            holder[last] = draw(junk)
        elif how == "retype":
            old = holder[last]
            holder[last] = draw(
                st.sampled_from(
                    [
                        str(old),
                        [old],
                        {"value": old},
                        None,
                        True,
                        1 if isinstance(old, bool) else -1 if isinstance(old, int) else 0,
                        float(old) if isinstance(old, int) else 0.5,
                    ]
                )
            )
        elif isinstance(holder, dict):
            holder[draw(hostile_text)] = draw(junk)
        else:
            holder.insert(last, draw(junk))
    return record


def _with(record: dict[str, Any], change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    out = copy.deepcopy(record)
    change(out)
    return out


TO_MOVE_5 = _with(VALID[-1], lambda r: r["setup"].update(to_move=5))
"""Raised IndexError (issue 12, item 3)."""
SETUP_JUNK = _with(VALID[-1], lambda r: r["setup"].update(racks=[[{}], [1]]))
"""Raised TypeError."""


@FAST
@given(record=mutated_records())
@example(record=TO_MOVE_5)
@example(record=SETUP_JUNK)
def test_mutated_records_are_refused_with_a_record_error(record: dict[str, Any]) -> None:
    refused_or_read(lambda: registry.from_record(record))
    refused_or_read(lambda: registry.from_record(json.dumps(record)))


@pytest.mark.slow
@SLOW
@given(record=mutated_records())
@example(record=TO_MOVE_5)
def test_many_mutated_records_are_refused_with_a_record_error(record: dict[str, Any]) -> None:
    refused_or_read(lambda: registry.from_record(record))


@FAST
@given(text=st.one_of(hostile_text, junk.map(json.dumps)))
@example(text="[" * 100_000)  # raised RecursionError
def test_record_text_is_json_of_a_record_or_refused(text: str) -> None:
    refused_or_read(lambda: registry.from_record(text))


def test_pathological_json_is_refused() -> None:
    for text in [
        "[" * 100_000,
        '{"a":' * 50_000,
        "1" * 5_000,
        '{"format": "mathable-record", "version": 1, "seed": ' + "9" * 5_000 + "}",
        "\ufeff{}",
        "NaN",
        '{"format": "mathable-record", "version": 1e400}',
    ]:
        with pytest.raises(records.RecordError, match=r"\S"):
            registry.from_record(text)


@FAST
@given(name=st.sampled_from(sorted(registry.GAMES)), players=junk, seed=junk, rounds=junk)
@example(name="classic", players=5.0, seed=None, rounds=1)  # raised TypeError
@example(name="quattro", players=2, seed=None, rounds=0)  # raised a plain ValueError
@example(name="classic", players=2, seed=[], rounds=1)  # compiled: raised TypeError
def test_new_games_refuse_junk_with_a_mathable_error(
    name: str, players: Any, seed: Any, rounds: Any
) -> None:
    refused_or_read(lambda: registry.new_game(name, players, seed=seed, rounds=rounds))


# -- score sheets --------------------------------------------------------------------------

sheet_text = st.one_of(
    hostile_text,
    st.lists(
        st.tuples(st.sampled_from(["Ann", "Bob", "", "[bold]", "\u200f"]), hostile_text).map(
            lambda pair: f"{pair[0]}: {pair[1]}"
        ),
        max_size=6,
    ).map("\n".join),
)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@FAST
@given(text=sheet_text)
@example(text="Ann: exchange ²")  # int("²") raised ValueError
def test_score_sheets_refuse_hostile_lines_with_a_transcript_error(variant: str, text: str) -> None:
    refused_or_read(lambda: score_transcript(text, VARIANTS[variant]))


def test_odd_digits_on_a_score_sheet_are_a_transcript_error() -> None:
    for line in ["Ann: exchange ²", "Ann: left ²", "Ann: left " + "9" * 5_000]:
        with pytest.raises(MathableError, match=r"\S"):
            score_transcript(line)


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(VARIANTS))
@SLOW
@given(text=sheet_text)
@example(text="Ann: left ²")
def test_many_score_sheets(variant: str, text: str) -> None:
    refused_or_read(lambda: score_transcript(text, VARIANTS[variant]))


@pytest.mark.slow
@SLOW
@given(text=position_text)
@example(text=GOOD_POSITION.replace("| 92 |", "| ² |"))
def test_many_positions(text: str) -> None:
    refused_or_read(lambda: registry.parse_position(text))
