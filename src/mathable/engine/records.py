"""Game records: versioned JSON holding a game's seed and actions, nothing derived.

A record replays to exactly the same game. ``result`` is written for readers and checked
on load, so a record that no longer replays to its recorded result is refused.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .errors import IllegalMove, MathableError, NotationError
from .protocol import Game, GameType, HouseRules

FORMAT = "mathable-record"
VERSION = 1


class RecordError(MathableError):
    """A record that is malformed or does not replay."""


def to_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` as JSON-ready data."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "variant": game.name,
        "variant_version": game.game_type.version,
        "players": list(game.players),
        "seed": game.seed,
        "house_rules": game.house_rules.to_dict(),
        "actions": [game.format_action(a) for a in game.log],
        **game.record_fields(),
    }
    if game.is_over:
        record["result"] = {"scores": list(game.scores), "winners": list(game.winners())}
    return record


def dumps(game: Game) -> str:
    """The record as JSON text."""
    return json.dumps(to_record(game), indent=1) + "\n"


def replay_record(data: dict[str, Any] | str, game_type: Callable[[str], GameType]) -> Game:
    """Replay a record (data or JSON text), finding its game with ``game_type(name)``;
    raises RecordError saying what is wrong."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a game record (format should be {FORMAT!r})")
    if data.get("version") != VERSION:
        raise RecordError(
            f"record version {data.get('version')!r} is not supported "
            f"(this program reads version {VERSION})"
        )
    name = str(data.get("variant", "classic"))
    try:
        kind = game_type(name)
    except ValueError as exc:
        raise RecordError(f"field 'variant': unknown variant {name!r} ({exc})") from None
    written = data.get("variant_version", 1)
    if not isinstance(written, int) or written > kind.version:
        raise RecordError(
            f"the record was written by a newer {name} rules engine "
            f"(version {written}; this one is {kind.version})"
        )
    try:
        players = [str(p) for p in _field(data, "players", list)]
        house = HouseRules.from_dict(data.get("house_rules") or {})
        options: dict[str, Any] = {}
        if "rounds" in data:
            rounds = data["rounds"]
            if not isinstance(rounds, int) or isinstance(rounds, bool):
                raise RecordError("field 'rounds' is not a number")
            options["rounds"] = rounds
        setup = data.get("setup")
        if setup is not None and not isinstance(setup, dict):
            raise RecordError("field 'setup' is not an object")
        game = kind.create(
            players,
            seed=_field(data, "seed", int),
            house_rules=house,
            options=options,
            setup=setup,
        )
    except (TypeError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(str(exc)) from None
    for number, text in enumerate(_field(data, "actions", list), start=1):
        if not isinstance(text, str):
            raise RecordError(f"action {number} is not a string")
        try:
            game.apply(game.parse_action(text))
        except (IllegalMove, NotationError) as exc:
            raise RecordError(f"action {number} ({text}) does not replay: {exc}") from None
    result = data.get("result")
    if result is not None and not isinstance(result, dict):
        raise RecordError("field 'result' is not an object")
    if result is not None and result.get("scores") != list(game.scores):
        raise RecordError(
            f"the record's result {result.get('scores')} differs from its "
            f"replay {list(game.scores)}"
        )
    return game


def _field(data: dict[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise RecordError(f"field {name!r} is missing or not a {kind.__name__}")
    return value
