"""Checks of data before it becomes a game: JSON types, players, seeds, house rules,
options and piece sets. Records, new games and the families' setup readers use them.

Every refusal is a :class:`FieldError` (a MathableError) whose message names the field
and what is wrong with it, never a KeyError or TypeError from deep inside a game:

>>> integer(5, "setup.to_move", 0, 1)
Traceback (most recent call last):
  ...
mathable.engine.validation.FieldError: field 'setup.to_move': 5 is out of range 0-1
>>> integer("5", "seed", 0, 9)
Traceback (most recent call last):
  ...
mathable.engine.validation.FieldError: field 'seed': a whole number, not the text '5'
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields
from typing import Any

from mathable.i18n import Text, lazy, lazy_plural

from .errors import MathableError
from .protocol import GameType, HouseRules
from .tokens import pieces_text

MAX_NAME_LENGTH = 40
"""The longest player name, in characters."""
MAX_SEED = 2**63 - 1
"""Seeds are 0 to 2**63 - 1: what a new game draws (``secrets.randbits(63)``)."""
MAX_ROUNDS = 99
"""The most rounds of a match."""
HOUSE_RULE_NAMES: tuple[str, ...] = tuple(f.name for f in fields(HouseRules))
"""Every house rule's name, as records write them."""


class FieldError(MathableError):
    """Input data refused: ``field 'setup.to_move': 5 is out of range 0-1`` (the problem a
    lazy text, shown in the reader's language)."""

    def __init__(self, field: str, problem: str | Text) -> None:
        self.field = field
        self.problem = problem
        label = field if len(field) <= 60 else f"{field[:59]}…"
        # TRANSLATORS: a refusal naming the field of the input at fault ('board', 'seed')
        super().__init__(lazy("field {field}: {problem}", field=repr(label), problem=problem))

    def __reduce__(self) -> tuple[object, ...]:
        return (FieldError, (self.field, self.problem))


def shown(value: object, limit: int = 40) -> str:
    """A value as a message quotes it: its JSON-like form, escaped and cut short (a
    10,000-character name is not echoed whole)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    text = repr(value) if isinstance(value, str) else str(value)
    if len(text) > limit:
        text = f"{text[: limit - 1]}…"
    return text.encode("ascii", "backslashreplace").decode("ascii")


def kind_of(value: object) -> str | Text:
    """How a JSON value is called in a message: ``the text '5'``, ``a list``..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return shown(value)
    if isinstance(value, str):
        # TRANSLATORS: a value of the wrong type, as in "a whole number, not the text '5'"
        return lazy("the text {value}", value=shown(value))
    if isinstance(value, int | float):
        return lazy("the number {value}", value=shown(value))
    if isinstance(value, Mapping):
        # TRANSLATORS: a JSON object, as in "a list, not an object"
        return lazy("an object")
    if isinstance(value, list | tuple):
        return lazy("a list")
    return lazy("a {kind}", kind=type(value).__name__)


def integer(value: object, field: str, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (not a bool, a float or a
    number written as text)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise FieldError(field, lazy("a whole number, not {kind}", kind=kind_of(value)))
    if not low <= value <= high:
        raise FieldError(
            field,
            lazy("{value} is out of range {low}-{high}", value=shown(value), low=low, high=high),
        )
    return value


def boolean(value: object, field: str) -> bool:
    """``value`` as true or false (not 0, 1 or ``"true"``)."""
    if not isinstance(value, bool):
        raise FieldError(field, lazy("true or false, not {kind}", kind=kind_of(value)))
    return value


def text(value: object, field: str) -> str:
    """``value`` as a string."""
    if not isinstance(value, str):
        raise FieldError(field, lazy("a text, not {kind}", kind=kind_of(value)))
    return value


def array(value: object, field: str) -> list[Any]:
    """``value`` as a list."""
    if not isinstance(value, list | tuple):
        raise FieldError(field, lazy("a list, not {kind}", kind=kind_of(value)))
    return list(value)


def mapping(value: object, field: str) -> Mapping[str, Any]:
    """``value`` as an object with text keys."""
    if not isinstance(value, Mapping):
        raise FieldError(field, lazy("an object, not {kind}", kind=kind_of(value)))
    for key in value:
        if not isinstance(key, str):
            raise FieldError(field, lazy("its keys are texts, not {kind}", kind=kind_of(key)))
    return value


def only_fields(data: Mapping[str, Any], field: str, known: Iterable[str]) -> None:
    """Refuse names in ``data`` that are not among ``known`` (a typo would otherwise be
    ignored silently, and a misspelt setup dealt at random)."""
    allowed = list(known)
    for key in data:
        if key not in allowed:
            where = f"{field}.{key}" if field else key
            raise FieldError(
                where, lazy("no such field (the fields are {fields})", fields=", ".join(allowed))
            )


def player_name(value: object, field: str = "name") -> str:
    """One player's name as typed (kept exactly so): not blank, at most
    :data:`MAX_NAME_LENGTH` characters, no control characters (a name is printed on every
    player's screen and score sheet)."""
    name = text(value, field)
    if not name.strip():
        raise FieldError(field, lazy("a player's name may not be empty"))
    if len(name) > MAX_NAME_LENGTH:
        raise FieldError(
            field,
            lazy(
                "{count} characters: a name has at most {most}",
                count=len(name),
                most=MAX_NAME_LENGTH,
            ),
        )
    if any(unicodedata.category(c) == "Cc" for c in name):
        raise FieldError(field, lazy("{name} holds a control character", name=shown(name)))
    return name


def player_names(value: object, low: int, high: int, field: str = "players") -> tuple[str, ...]:
    """``low`` to ``high`` distinct names (compared exactly), each a :func:`player_name`."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise FieldError(field, lazy("a list of names, not {kind}", kind=kind_of(value)))
    if not low <= len(value) <= high:
        raise FieldError(field, _players(len(value), low, high))
    names: list[str] = []
    for seat, name in enumerate(value):
        where = f"{field}[{seat}]"
        name = player_name(name, where)
        if name in names:
            raise FieldError(where, lazy("{name} is the name of two players", name=shown(name)))
        names.append(name)
    return tuple(names)


def seat_count(value: object, low: int, high: int, field: str = "players") -> int:
    """A number of players, from ``low`` to ``high``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise FieldError(field, lazy("a list of names or a count, not {kind}", kind=kind_of(value)))
    if not low <= value <= high:
        raise FieldError(field, _players(value, low, high))
    return value


def seed(value: object, field: str = "seed") -> int:
    """A game's seed: 0 to :data:`MAX_SEED`."""
    return integer(value, field, 0, MAX_SEED)


def house_rules_from(data: object, kind: GameType, field: str = "house_rules") -> HouseRules:
    """House rules written as JSON (``{"allow_undo": true}``): known names only, true or
    false, and none switched on that ``kind`` does not offer."""
    rules = mapping(data, field)
    for name in rules:
        if name not in HOUSE_RULE_NAMES:
            known = ", ".join(HOUSE_RULE_NAMES)
            raise FieldError(
                f"{field}.{name}", lazy("unknown house rule (house rules: {known})", known=known)
            )
    values = {name: boolean(on, f"{field}.{name}") for name, on in rules.items()}
    house = HouseRules(**values)
    check_house_rules(house, kind, field)
    return house


def check_house_rules(house: HouseRules, kind: GameType, field: str = "house_rules") -> None:
    """Refuse a house rule switched on that ``kind`` does not offer (Quattro's
    ``strict``, the classic game's ``strict``)."""
    for name, on in house.to_dict().items():
        if on and name not in kind.house_rules:
            if kind.house_rules:
                problem = lazy(
                    "{game} has no house rule {name} (it offers: {offered})",
                    game=kind.title_text,
                    name=repr(name),
                    offered=", ".join(kind.house_rules),
                )
            else:
                problem = lazy(
                    "{game} has no house rule {name} (it offers: none)",
                    game=kind.title_text,
                    name=repr(name),
                )
            raise FieldError(f"{field}.{name}", problem)


def options_of(options: Mapping[str, Any] | None, kind: GameType) -> dict[str, Any]:
    """A new game's options, checked: ``rounds`` (1 to 99) for games played in rounds,
    nothing else."""
    found = dict(mapping(options if options is not None else {}, "options"))
    if "rounds" in found and not kind.rounds:
        raise FieldError("rounds", not_in_rounds(kind))
    only_fields(found, "", ["rounds"] if kind.rounds else [])
    if "rounds" in found:
        found["rounds"] = integer(found["rounds"], "rounds", 1, MAX_ROUNDS)
    return found


def check_new_game(
    kind: GameType,
    players: object,
    *,
    seed_value: object = None,
    house_rules: HouseRules | None = None,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything a new game is given, checked against ``kind`` before anything is built:
    players (names or a count), seed (None: drawn at random), house rules and options.
    Returns the options."""
    if isinstance(players, int) and not isinstance(players, bool):
        seat_count(players, kind.min_players, kind.max_players)
    else:
        player_names(players, kind.min_players, kind.max_players)
    if seed_value is not None:
        seed(seed_value)
    if house_rules is not None:
        if not isinstance(house_rules, HouseRules):
            raise FieldError(
                "house_rules", lazy("house rules, not {kind}", kind=kind_of(house_rules))
            )
        check_house_rules(house_rules, kind)
    return options_of(options, kind)


def pieces(
    value: object,
    field: str,
    supply: Mapping[int, int],
    *,
    piece: str = "token",
    most: int | None = None,
    least: int = 0,
) -> tuple[int, ...]:
    """A list of pieces (a rack, a hand, a bag): whole numbers each a value of
    ``supply``, from ``least`` to ``most`` of them."""
    items = array(value, field)
    if most is not None and len(items) > most:
        raise FieldError(
            field,
            lazy(
                "{pieces}, more than the {most} it holds",
                pieces=pieces_text(piece, len(items)),
                most=most,
            ),
        )
    if len(items) < least:
        raise FieldError(
            field,
            lazy(
                "{pieces}, fewer than {least}", pieces=pieces_text(piece, len(items)), least=least
            ),
        )
    out: list[int] = []
    for index, item in enumerate(items):
        where = f"{field}[{index}]"
        if not isinstance(item, int) or isinstance(item, bool):
            raise FieldError(where, _not_a_value(piece, kind_of(item)))
        if item not in supply:
            raise FieldError(where, _no_such_piece(piece, shown(item)))
        out.append(item)
    return tuple(out)


def within_supply(
    used: Iterable[int], supply: Mapping[int, int], field: str, *, piece: str = "token"
) -> None:
    """Refuse more pieces of a value than the game holds (two 90s, eight 5s)."""
    for value, count in sorted(Counter(used).items()):
        have = supply.get(value, 0)
        if count > have:
            many = pieces_text(piece, count)
            if have:
                problem = lazy(
                    "{pieces} of {value}, but the game holds only {count}",
                    pieces=many,
                    value=value,
                    count=have,
                )
            else:
                problem = lazy(
                    "{pieces} of {value}, but the game holds none", pieces=many, value=value
                )
            raise FieldError(field, problem)


def _not_a_value(piece: str, kind: str | Text) -> Text:
    if piece == "card":
        return lazy("a card's value, not {kind}", kind=kind)
    if piece == "tile":
        return lazy("a tile's value, not {kind}", kind=kind)
    return lazy("a token's value, not {kind}", kind=kind)


def _no_such_piece(piece: str, value: str) -> Text:
    if piece == "card":
        return lazy("there is no card {value} in the game", value=value)
    if piece == "tile":
        return lazy("there is no tile {value} in the game", value=value)
    return lazy("there is no token {value} in the game", value=value)


def not_in_rounds(kind: GameType) -> Text:
    """Why a game not played in rounds refuses a number of rounds."""
    return lazy("{game} is not played in rounds", game=kind.title_text)


def _players(count: int, low: int, high: int) -> Text:
    return lazy_plural(
        "{count} player: the game is for {low} to {high}",
        "{count} players: the game is for {low} to {high}",
        count,
        low=low,
        high=high,
    )
