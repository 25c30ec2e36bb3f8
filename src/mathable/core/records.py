"""Game records: versioned JSON holding a game's seed and actions, nothing derived.

A record replays to exactly the same game. ``result`` is written for readers and checked
on load, so a record that no longer replays to its recorded result is refused.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import IllegalMove, MathableError, NotationError
from .game import Game, HouseRules, Setup
from .quattro import QUATTRO, QuattroGame, QuattroSetup
from .variants import get_variant

AnyGame = Game | QuattroGame

FORMAT = "mathable-record"
VERSION = 1


class RecordError(MathableError):
    """A record that is malformed or does not replay."""


def to_record(game: AnyGame) -> dict[str, Any]:
    """The record of ``game`` as JSON-ready data."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "variant": game.variant.name,
        "variant_version": game.variant.version,
        "players": list(game.players),
        "seed": game.seed,
        "house_rules": game.house_rules.to_dict(),
        "actions": [game.format_action(a) for a in game.log],
    }
    if isinstance(game, QuattroGame):
        record["rounds"] = game.rounds
        if game.setup is not None:
            record["setup"] = {
                "hands": [list(h) for h in game.setup.hands],
                "piles": list(game.setup.piles),
                "reserve": list(game.setup.reserve),
                "to_move": game.setup.to_move,
            }
    elif game.setup is not None:
        record["setup"] = {
            "racks": [list(r) for r in game.setup.racks],
            "bag": list(game.setup.bag),
            "to_move": game.setup.to_move,
        }
    if game.is_over:
        record["result"] = {"scores": list(game.scores), "winners": list(game.winners())}
    return record


def dumps(game: AnyGame) -> str:
    """The record as JSON text."""
    return json.dumps(to_record(game), indent=1) + "\n"


def from_record(data: dict[str, Any] | str) -> AnyGame:
    """Replay a record (data or JSON text); raises RecordError saying what is wrong."""
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
        version = QUATTRO.version if name == QUATTRO.name else get_variant(name).version
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    written = data.get("variant_version", 1)
    if not isinstance(written, int) or written > version:
        raise RecordError(
            f"the record was written by a newer {name} rules engine "
            f"(version {written}; this one is {version})"
        )
    game: AnyGame
    try:
        players = [str(p) for p in _field(data, "players", list)]
        house = HouseRules.from_dict(data.get("house_rules") or {})
        if name == QUATTRO.name:
            rounds = data.get("rounds", 1)
            if not isinstance(rounds, int) or isinstance(rounds, bool):
                raise RecordError("field 'rounds' is not a number")
            game = QuattroGame(
                players,
                seed=_field(data, "seed", int),
                rounds=rounds,
                house_rules=house,
                setup=_quattro_setup(data.get("setup")),
            )
        else:
            game = Game(
                name,
                players,
                seed=_field(data, "seed", int),
                house_rules=house,
                setup=_setup(data.get("setup")),
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


def _setup(data: Any) -> Setup | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise RecordError("'setup' is an object with racks, bag and to_move")
    try:
        racks = tuple(tuple(int(v) for v in r) for r in data["racks"])
        bag = tuple(int(v) for v in data["bag"])
        return Setup(racks, bag, int(data.get("to_move", 0)))
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"bad setup: {exc}") from None


def _quattro_setup(data: Any) -> QuattroSetup | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise RecordError("'setup' is an object with hands, piles, reserve and to_move")
    try:
        hands = tuple(tuple(int(v) for v in h) for h in data["hands"])
        a, b, c, d = (int(v) for v in data["piles"])
        reserve = tuple(int(v) for v in data["reserve"])
        return QuattroSetup(hands, (a, b, c, d), reserve, int(data.get("to_move", 0)))
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"bad setup: {exc}") from None
