"""Validation on load (issue 12, item 3): records, new games and one-line positions are
checked in full, each refusal a MathableError whose message names the field."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathable.engine import records
from mathable.engine.errors import MathableError, NotationError
from mathable.engine.notation import MAX_POSITION_LENGTH, Position
from mathable.engine.protocol import Game, HouseRules
from mathable.engine.records import RecordError
from mathable.engine.validation import FieldError
from mathable.games import registry
from mathable.games.board.game import BoardGame

Change = Callable[[dict[str, Any]], object]


def _played(game: Game, count: int) -> Game:
    for _ in range(count):
        if game.is_over:
            break
        game.apply(game.legal_actions()[0])
    return game


def classic_record(**setup: Any) -> dict[str, Any]:
    """A classic game's record with an explicit setup (racks, bag, to_move)."""
    deal = {"racks": [[1, 2, 8, 12, 16, 17, 42], [3, 4, 6, 7, 7, 8, 21]], "bag": [5, 9, 10]}
    game = registry.new_game("classic", ["Ann", "Bob"], seed=1, setup={**deal, **setup})
    return records.to_record(game)


def quattro_record(**setup: Any) -> dict[str, Any]:
    """A Quattro match's record with a chosen deal."""
    deal = {
        "hands": [[32, 25, 1, 1, 1, 1, 1], [3, 3, 3, 3, 3, 3, 3]],
        "piles": [20, 12, 7, 2],
        "reserve": [40, 42, 45],
    }
    game = registry.new_game("quattro", ["Louis", "Zoé"], seed=1, setup={**deal, **setup})
    return records.to_record(game)


def refused(record: dict[str, Any], field: str) -> RecordError:
    """The record is refused by a RecordError naming ``field``, as data and as JSON."""
    with pytest.raises(RecordError) as info:
        registry.from_record(copy.deepcopy(record))
    assert f"field {field!r}" in str(info.value), str(info.value)
    with pytest.raises(RecordError):
        registry.from_record(json.dumps(record))
    return info.value


def changed(record: dict[str, Any], change: Change) -> dict[str, Any]:
    out = copy.deepcopy(record)
    change(out)
    return out


def setting(field: str, value: object) -> Change:
    """A change that sets ``field`` to ``value``: a typed ``lambda r: r.update(...)``
    (mypy cannot infer a lambda whose defaults bind a loop's value)."""
    return lambda r: r.update({field: value})


def every_case_refused(cases: list[tuple[dict[str, Any], str]]) -> None:
    """Each (record, field) is refused naming the field; lists every case that is not."""
    missed = []
    for record, field in cases:
        try:
            refused(record, field)
        except AssertionError as exc:  # pytest.raises's "DID NOT RAISE" too
            missed.append(f"{field}: {str(exc).splitlines()[0]}")
    assert not missed, missed


# -- setups --------------------------------------------------------------------------------


@pytest.mark.parametrize("to_move", [5, 2, -1, "1", True, None, 1.0])
@pytest.mark.parametrize("make", [classic_record, quattro_record])
def test_setup_to_move_out_of_range_or_of_the_wrong_type_is_refused(
    make: Callable[..., dict[str, Any]], to_move: object
) -> None:
    record = changed(make(), lambda r: r["setup"].update(to_move=to_move))
    error = refused(record, "setup.to_move")
    if to_move == 5:
        assert "5 is out of range 0-1" in str(error)
    assert registry.from_record(make(to_move=1)).to_move == 1  # in range: played


@pytest.mark.parametrize(
    ("setup", "field"),
    [
        ({"racks": [[1, 2, 99], [3]], "bag": []}, "setup.racks[0][2]"),  # no token 99
        ({"racks": [[1, 2, 23], [3]], "bag": []}, "setup.racks[0][2]"),  # nor 23
        ({"racks": [[1], [3]], "bag": [90, 90]}, "setup"),  # one 90 in the set
        ({"racks": [[5] * 7, [5]], "bag": [5]}, "setup"),  # 9 fives of 7
        ({"racks": [[1] * 8, [3]], "bag": []}, "setup.racks[0]"),  # 8 on a rack of 7
        ({"racks": [[1], [2], [3]], "bag": []}, "setup.racks"),  # 3 racks, 2 players
        ({"racks": [[1]], "bag": []}, "setup.racks"),
        ({"racks": [[1], ["2"]], "bag": []}, "setup.racks[1][0]"),  # a number as text
        ({"racks": [[1], [True]], "bag": []}, "setup.racks[1][0]"),
        ({"racks": [[1], [2.0]], "bag": []}, "setup.racks[1][0]"),
        ({"racks": {"0": [1]}, "bag": []}, "setup.racks"),
        ({"racks": [[1], 2], "bag": []}, "setup.racks[1]"),
        ({"racks": [[1], [2]], "bag": "3 4"}, "setup.bag"),
        ({"racks": [[1], [2]]}, "setup.bag"),
        ({"bag": [1]}, "setup.racks"),
        ({"racks": [[1], [2]], "bag": [], "deck": []}, "setup.deck"),
    ],
)
def test_board_setups_are_drawn_from_the_variant_token_set(
    setup: dict[str, Any], field: str
) -> None:
    refused(changed(classic_record(), lambda r: r.update(setup=setup)), field)


def test_a_junior_setup_has_racks_of_five_and_tiles_up_to_20() -> None:
    game = registry.new_game("junior", 2, seed=1, setup={"racks": [[1], [2]], "bag": []})
    record = records.to_record(game)
    refused(changed(record, lambda r: r["setup"].update(racks=[[1] * 6, [2]])), "setup.racks[0]")
    refused(changed(record, lambda r: r["setup"].update(racks=[[21], [2]])), "setup.racks[0][0]")


@pytest.mark.parametrize(
    ("setup", "field"),
    [
        ({"hands": [[1] * 8, [3]]}, "setup.hands[0]"),  # more than 7 cards dealt
        ({"hands": [[], [3]]}, "setup.hands[0]"),
        ({"hands": [[41], [3]]}, "setup.hands[0][0]"),  # no card 41 in the deck
        ({"hands": [[90], [90]]}, "setup"),  # one 90 in the deck
        ({"hands": [[1], [2], [3]]}, "setup.hands"),
        ({"piles": [20, 12, 7]}, "setup.piles"),
        ({"piles": [20, 12, 7, 2, 4]}, "setup.piles"),
        ({"piles": [20, 12, 7, "2"]}, "setup.piles[3]"),
        ({"reserve": [41]}, "setup.reserve[0]"),
        ({"reserve": None}, "setup.reserve"),
        ({"trash": []}, "setup.trash"),
    ],
)
def test_quattro_deals_are_drawn_from_the_106_cards(setup: dict[str, Any], field: str) -> None:
    refused(changed(quattro_record(), lambda r: r["setup"].update(setup)), field)


def test_quattro_deal_without_piles_is_refused() -> None:
    refused(changed(quattro_record(), lambda r: r["setup"].pop("piles")), "setup.piles")


# -- players -------------------------------------------------------------------------------


PLAYER_CASES: list[tuple[object, str]] = [
    (["Ann", "Ann"], "players[1]"),  # duplicate names lose scores in replay --json
    (["Ann", ""], "players[1]"),
    (["Ann", "   "], "players[1]"),
    (["Ann", "\t\n"], "players[1]"),
    (["Ann", "x" * 41], "players[1]"),
    (["Ann", "Bob\x1b[31m"], "players[1]"),
    (["Ann"], "players"),
    (["A", "B", "C", "D", "E"], "players"),
    ([], "players"),
    ("Ann", "players"),
    ({"Ann": 1, "Bob": 2}, "players"),
    (["Ann", 7], "players[1]"),
    (["Ann", None], "players[1]"),
    (["Ann", ["Bob"]], "players[1]"),
]


def test_players_are_2_to_4_distinct_names_of_at_most_40_characters() -> None:
    record = records.to_record(registry.new_game("classic", ["Ann", "Bob"], seed=3))
    every_case_refused(
        [(changed(record, setting("players", players)), field) for players, field in PLAYER_CASES]
    )


def test_names_are_compared_and_kept_exactly_as_written() -> None:
    names = ["ann", "Ann", " Ann", "[bold]Eve[/]"]
    record = records.to_record(registry.new_game("classic", ["A", "B", "C", "D"], seed=3))
    record["players"] = names
    assert registry.from_record(record).players == tuple(names)
    record["players"] = ["x" * 40, "\u200fשרה"]
    assert list(registry.from_record(record).players) == ["x" * 40, "\u200fשרה"]
    record["players"] = ["Ann", "ann", "Ann"]
    refused(record, "players[2]")


@pytest.mark.parametrize(
    "players",
    [["Ann", "Ann"], ["Ann", ""], ["Ann", " "], ["Ann", "y" * 41], ["Ann"], ["A"] * 5, "Ann"],
)
@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_new_games_refuse_bad_players_before_building(name: str, players: object) -> None:
    with pytest.raises(FieldError, match="field 'players"):
        registry.new_game(name, players)  # type: ignore[arg-type]
    with pytest.raises(MathableError, match="field 'players"):
        registry.game_type(name).create(players)


@pytest.mark.parametrize("count", [0, 1, 5, True])
def test_new_games_refuse_a_bad_count_of_players(count: int) -> None:
    with pytest.raises(MathableError, match="players"):
        registry.new_game("quattro", count)


# -- house rules, options ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "rules", "field"),
    [
        ("quattro", {"strict": True}, "house_rules.strict"),
        ("quattro", {"table_referee": True}, "house_rules.table_referee"),
        ("classic", {"strict": True}, "house_rules.strict"),
        ("junior", {"strict": True}, "house_rules.strict"),
        ("classic", {"cheat": True}, "house_rules.cheat"),
        ("classic", {"allow_undo": 1}, "house_rules.allow_undo"),
        ("classic", {"allow_undo": "true"}, "house_rules.allow_undo"),
        ("classic", {"allow_undo": None}, "house_rules.allow_undo"),
        ("classic", ["allow_undo"], "house_rules"),
        ("classic", "allow_undo", "house_rules"),
    ],
)
def test_house_rules_the_game_does_not_offer_are_refused(
    game: str, rules: object, field: str
) -> None:
    record = records.to_record(registry.new_game(game, 2, seed=3))
    refused(changed(record, lambda r: r.update(house_rules=rules)), field)
    assert record["house_rules"]["strict"] is False  # every name is written, and read back
    registry.from_record(record)
    offered = registry.new_game("junior-numbers", 2, seed=3, house_rules=HouseRules(strict=True))
    assert registry.from_record(records.to_record(offered)).house_rules.strict


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        ("quattro", HouseRules(strict=True)),
        ("quattro", HouseRules(table_referee=True)),
        ("classic", HouseRules(strict=True)),
    ],
)
def test_new_games_refuse_house_rules_the_game_does_not_offer(game: str, rules: HouseRules) -> None:
    with pytest.raises(FieldError, match="field 'house_rules"):
        registry.new_game(game, 2, house_rules=rules)


def test_rounds_only_for_games_played_in_rounds_1_to_99() -> None:
    cases = [("classic", 2), ("classic", 1), ("quattro", 0), ("quattro", 100), ("quattro", "2")]
    every_case_refused(
        [
            (
                changed(
                    records.to_record(registry.new_game(game, 2, seed=3)),
                    setting("rounds", rounds),
                ),
                "rounds",
            )
            for game, rounds in cases
        ]
    )
    classic = records.to_record(registry.new_game("classic", 2, seed=3))
    error = refused(changed(classic, lambda r: r.update(rounds=2)), "rounds")
    assert "not played in rounds" in str(error)


@pytest.mark.parametrize(("game", "rounds"), [("classic", 3), ("quattro", 0), ("quattro", 100)])
def test_new_games_refuse_rounds_with_a_mathable_error(game: str, rounds: int) -> None:
    with pytest.raises(MathableError, match="field 'rounds'"):
        registry.new_game(game, 2, rounds=rounds)


# -- numbers, types and fields ---------------------------------------------------------------


def test_seeds_are_whole_numbers_from_0_to_2_63_minus_1() -> None:
    record = records.to_record(registry.new_game("classic", 2, seed=3))
    seeds: list[object] = ["5", -1, 2**63, 2**64, True, 5.0, None, [5]]
    every_case_refused([(changed(record, setting("seed", seed)), "seed") for seed in seeds])


def test_the_largest_seed_loads_and_new_games_refuse_bad_seeds() -> None:
    game = registry.new_game("classic", 2, seed=2**63 - 1)
    assert registry.from_record(records.to_record(game)).seed == 2**63 - 1
    for bad in (-1, 2**63):
        with pytest.raises(FieldError, match="field 'seed'"):
            registry.new_game("quattro", 2, seed=bad)


TYPE_CASES: list[tuple[Change, str]] = [
    (lambda r: r.update(variant_version="1"), "variant_version"),
    (lambda r: r.update(variant_version=True), "variant_version"),
    (lambda r: r.update(variant_version=0), "variant_version"),
    (lambda r: r.update(variant=["classic"]), "variant"),
    (lambda r: r.update(actions={"1": "pass"}), "actions"),
    (lambda r: r.update(actions="pass"), "actions"),
    (lambda r: r.pop("actions"), "actions"),
    (lambda r: r.pop("players"), "players"),
    (lambda r: r.pop("seed"), "seed"),
    (lambda r: r.update(setup=[1, 2]), "setup"),
    (lambda r: r.update(result=[0, 0]), "result"),
    (lambda r: r.update(result={"scores": ["0", "0"]}), "result.scores"),
    (lambda r: r.update(house_rule={"allow_undo": True}), "house_rule"),  # a typo
    (lambda r: r.update(Setup={"racks": [], "bag": []}), "Setup"),
    (lambda r: r.update(comment="fine game"), "comment"),
]


def test_wrong_types_and_unknown_fields_are_refused() -> None:
    record = records.to_record(registry.new_game("classic", 2, seed=3))
    every_case_refused([(changed(record, change), field) for change, field in TYPE_CASES])


def test_version_true_is_not_version_1() -> None:
    record = records.to_record(registry.new_game("classic", 2, seed=3))
    with pytest.raises(RecordError, match="version"):
        registry.from_record(changed(record, lambda r: r.update(version=True)))


def test_a_result_must_be_the_replay_s_and_the_game_over() -> None:
    game = _played(registry.new_game("junior", 2, seed=2), 400)
    assert game.is_over
    record = records.to_record(game)
    registry.from_record(record)
    winners = [1 - w for w in record["result"]["winners"]] or [0]
    refused(changed(record, lambda r: r["result"].update(winners=winners)), "result.winners")
    unfinished = records.to_record(registry.new_game("junior", 2, seed=2))
    unfinished["result"] = {"scores": [0, 0], "winners": []}
    refused(unfinished, "result")


def test_json_nested_too_deep_or_with_huge_numbers_is_refused() -> None:
    for text in ["[" * 100_000, '{"seed": ' + "9" * 5_000 + "}", '{"a": 1e999999}']:
        with pytest.raises(RecordError, match=r"\S"):
            registry.from_record(text)


def test_long_strings_are_cut_short_in_messages() -> None:
    record = records.to_record(registry.new_game("classic", 2, seed=3))
    record["x" * 10_000] = 1
    error = refused(record, "x" * 59 + "…")
    assert len(str(error)) < 300


# -- positions -----------------------------------------------------------------------------

GOOD = "classic | G7=1 H7=2 G8=3 H8=4 | 1 2 8 12 16 17 42 / ?7 | 0 0 | 92 | 1"


def test_a_good_position_is_read() -> None:
    position = registry.parse_position(GOOD)
    assert position.racks == ((1, 2, 8, 12, 16, 17, 42), 7) and position.bag == 92


def test_positions_over_the_length_bound_are_refused_by_the_parser() -> None:
    padded = GOOD.replace("| 0 0 |", "| 0 0" + " " * 2_500 + "|")
    assert len(padded) > MAX_POSITION_LENGTH
    with pytest.raises(NotationError, match=str(MAX_POSITION_LENGTH)):
        Position.parse(padded, registry.position_grids())
    with pytest.raises(NotationError):
        Position.parse("x" * 300, registry.position_grids())  # no OSError anywhere


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (
            GOOD.replace("| 1 2 8 12 16 17 42 /", "| 1 2 3 5 8 12 16 17 42 /"),
            "racks",
        ),  # 9 on a rack
        (GOOD.replace("?7", "?8"), "racks"),
        (GOOD.replace("1 2 8 12", "1 2 99 12"), "racks"),  # no token 99
        (GOOD.replace("1 2 8 12 16", "90 90 8 12 16"), "racks"),  # one 90 in the set
        (GOOD.replace("| 92 |", "| 91 |"), "bag"),  # does not add up to 106
        (GOOD.replace("| 92 |", "| 93 |"), "bag"),
        (GOOD.replace("G7=1 ", ""), "board"),  # the printed 1 is missing
        (GOOD.replace("G7=1", "G7=5"), "board"),
        (GOOD.replace("H8=4", "H8=4 A1=99"), "board"),
        (GOOD.replace("/ ?7 | 0 0 |", "| 0 |"), "racks"),  # one player
        (GOOD.replace("/ ?7 | 0 0 |", "/ ?0 / ?0 / ?0 / ?0 | 0 0 0 0 0 |"), "racks"),
        (GOOD[: GOOD.rindex("|")] + "| 3", "to move"),
        (GOOD[: GOOD.rindex("|")] + "| 0", "to move"),
        (GOOD[: GOOD.rindex("|")] + "| ²", "to move"),
        (GOOD.replace("1 2 8", "1 ² 8"), "racks"),
        (GOOD.replace("?7", "?" + "9" * 50), "racks"),
        (GOOD.replace("| 92 |", "| 9" + "9" * 4_000 + " |"), ""),
        (GOOD.replace("G7=1", "G7=1+"), "board"),
        (GOOD.replace("classic", "quattro"), "variant"),
        (GOOD.replace("classic", "[bold]chess[/]"), "variant"),
    ],
)
def test_positions_are_checked_against_their_game(text: str, field: str) -> None:
    with pytest.raises(NotationError) as info:
        registry.parse_position(text)
    assert f"field '{field}'" in str(info.value) or not field, str(info.value)


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(["classic", "junior", "junior-numbers"]),
    st.integers(2, 4),
    st.integers(0, 2**20),
    st.integers(0, 60),
)
def test_the_positions_of_real_games_pass_every_check(
    name: str, players: int, seed: int, steps: int
) -> None:
    game = _played(registry.new_game(name, players, seed=seed), steps)
    assert isinstance(game, BoardGame)  # only games on a board have a position
    for seat in (None, *range(players)):
        position = game.position(seat)
        text = position.format(game.cell_names)
        assert registry.parse_position(text) == position
