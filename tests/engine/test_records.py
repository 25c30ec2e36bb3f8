"""Game records: versioned JSON of seed and actions that replays exactly, and clear
refusals of malformed records."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from mathable.engine import records
from mathable.engine.actions import Place
from mathable.engine.errors import MathableError
from mathable.engine.protocol import Game, HouseRules
from mathable.engine.records import RecordError, dumps
from mathable.games import registry
from mathable.games.board.game import BoardGame


def _random_game(seed: int, variant: str = "classic") -> Game:
    game = BoardGame(variant, 3, seed=seed, house_rules=HouseRules(table_referee=seed % 2 == 0))
    rng = random.Random(seed)
    while not game.is_over and len(game.log) < 80:
        actions = game.legal_actions()
        places = [a for a in actions if isinstance(a, Place)]
        game.apply(rng.choice(places) if places and rng.random() < 0.9 else rng.choice(actions))
    return game


@pytest.mark.parametrize("variant", ["classic", "junior", "junior-numbers"])
@pytest.mark.parametrize("seed", range(4))
def test_records_replay_exactly(variant: str, seed: int) -> None:
    game = _random_game(seed, variant)
    text = records.dumps(game)
    again = registry.from_record(text)
    assert again.snapshot() == game.snapshot()
    assert records.dumps(again) == text
    data = json.loads(text)
    assert data["format"] == "mathable-record" and data["version"] == 1
    assert set(data) >= {"variant", "players", "seed", "house_rules", "actions"}


def _record() -> dict[str, Any]:
    game = _random_game(7)
    return records.to_record(game)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(format="other"), "not a game record"),
        (lambda r: r.update(version=99), "version"),
        (lambda r: r.update(seed="x"), "seed"),
        (lambda r: r.update(players="Ann"), "players"),
        (lambda r: r.update(variant="chess"), "unknown game"),
        (lambda r: r.update(variant_version=99), "newer"),
        (lambda r: r["actions"].insert(0, "A1=5"), "does not replay"),
        (lambda r: r["actions"].insert(0, 5), "not a string"),
        (lambda r: r["actions"].insert(0, "Q99=1"), "does not replay"),
        (lambda r: r.update(house_rules={"cheat": True}), "unknown house rule"),
        (lambda r: r.update(result={"scores": [1, 2, 3]}), "differs"),
        (lambda r: r.update(setup={"racks": "x"}), "setup"),
    ],
)
def test_bad_records_are_refused_with_a_reason(
    change: Callable[[dict[str, Any]], object], message: str
) -> None:
    record = _record()
    if "result" not in record:
        record["result"] = {"scores": []}
    change(record)
    if message != "differs" and record.get("result", {}).get("scores") == []:
        del record["result"]
    with pytest.raises(RecordError, match=message):
        registry.from_record(record)


@pytest.mark.parametrize("text", ["", "{", "[]", "null", '"x"', "{}"])
def test_malformed_json_is_refused(text: str) -> None:
    with pytest.raises(MathableError):
        registry.from_record(text)


def test_records_of_the_first_rules_version_replay_as_they_were_played() -> None:
    """Before questions (J4, C12) a `stop` ended a Junior game at once and a game-ending
    turn was final: a record written then (variant_version 1) replays to the same end,
    while the same actions in a record of version 2 leave the proposal open (and today's
    version 3 refuses a stop while the pot holds tiles)."""
    from mathable.games.registry import from_record, new_game

    game = new_game("junior", ["Ann", "Bob"], seed=4)
    data = json.loads(dumps(game))
    data["actions"] = ["stop"]
    data["variant_version"] = 1
    old = from_record(data)
    assert old.is_over and "agreed" in old.end_reason
    rewritten = json.loads(dumps(old))  # its answers written out: as version 2 writes them
    assert rewritten["variant_version"] == 2 and rewritten["actions"] == ["stop", "accept"]
    assert from_record(rewritten).snapshot() == old.snapshot()
    data["variant_version"] = 2  # the version that put questions
    asked = from_record(data)
    assert not asked.is_over and set(asked.view(asked.to_move).available) == {
        "accept",
        "decline",
    }
    data["variant_version"] = game.game_type.version  # J4 today: once the pot is empty
    with pytest.raises(RecordError, match="once the pot is empty"):
        from_record(data)
