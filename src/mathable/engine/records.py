"""Game records: versioned JSON holding a game's seed and actions, nothing derived.

A record replays to exactly the same game. ``result`` is written for readers and checked
on load, so a record that no longer replays to its recorded result is refused.

A record is checked in full before it is replayed, each refusal a :class:`RecordError`
naming the field (``field 'setup.to_move': 5 is out of range 0-1``):

* ``format`` and ``version`` are this format's; ``variant`` names a known game (missing:
  ``classic``, as the first records were written) and ``variant_version`` is 1 up to the
  engine's: the game replays by the rules of that version (issue 31 changed leaving, J4's
  stop and Quattro's reserve; an older record still replays as it was played);
* ``players``: 2 to 4 (the game's range) distinct names, none blank, none longer than 40
  characters, compared exactly; ``seed``: a whole number from 0 to 2**63 - 1;
* ``house_rules``: an object of known names, each true or false, none switched on that
  the game does not offer (Quattro has no ``strict``);
* ``rounds`` only for games played in rounds (1 to 99); ``setup`` as the game's family
  reads it (racks and bag drawn from the game's own pieces);
* ``actions``: a list of texts that replay (a seat leaving, ``resign 1``, ``flag 1``,
  ``claim 1``, and ``abort 0`` among them: local ruling L1); ``result``: ``scores`` (and
  ``winners``) equal to the replay's, on a game that has ended (an aborted game has no
  winners);
* ``bots`` (only where a computer played): per seat, the computer level that played it
  (a text of 1 to 40 characters) or ``null`` for a person. Written only then, so a record
  without computer players reads as before in any version; records from before it name a
  computer seat in the player's name (``bot:greedy``), as the terminal games still do.

Numbers are JSON numbers (never ``"5"``), booleans are ``true``/``false`` (never 1), and
**unknown fields are refused** at every level: a record holds exactly the fields of its
version, so a misspelt ``setup`` or ``house_rules`` is an error, not a different game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from mathable.i18n import Text, lazy

from . import validation as check
from .actions import Accept, action_kind
from .errors import MathableError, message_of
from .protocol import Game, GameType

FORMAT = "mathable-record"
VERSION = 1
FIELDS = (
    "format",
    "version",
    "variant",
    "variant_version",
    "players",
    "seed",
    "house_rules",
    "actions",
    "rounds",
    "setup",
    "result",
    "bots",
)
"""Every field a version 1 record may hold (``rounds`` only for games played in rounds,
``setup`` only for an explicit deal, ``result`` only once the game is over, ``bots``
only where a computer played)."""
QUESTIONS = 2
"""The rules version that put questions (J4's proposal to stop, C12's game-ending turn
open for a challenge) to the players: a record of an older one answers them all ``accept``
(each game's first version asked none)."""
MAX_ACTIONS = 100_000
"""More actions than any game has: a record beyond it is refused before replaying."""


class RecordError(MathableError):
    """A record that is malformed or does not replay."""


def _field(name: str, problem: str | Text) -> RecordError:
    """A RecordError naming the field at fault: ``field 'actions': ...``."""
    # TRANSLATORS: a refusal naming the field of the input at fault ('board', 'seed')
    return RecordError(lazy("field {field}: {problem}", field=repr(name), problem=problem))


def to_record(game: Game, bots: Mapping[int, str] | None = None) -> dict[str, Any]:
    """The record of ``game`` as JSON-ready data; ``bots``: the computer players' levels
    by seat (the ``bots`` field, written only if there is one)."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "variant": game.name,
        "variant_version": game.rules_version,
        "players": list(game.players),
        "seed": game.seed,
        "house_rules": game.house_rules.to_dict(),
        "actions": [game.format_action(a) for a in game.log],
        **game.record_fields(),
    }
    if game.is_over:
        record["result"] = {"scores": list(game.scores), "winners": list(game.winners())}
    if bots:
        record["bots"] = [bots.get(seat) for seat in range(len(game.players))]
    return record


def dumps(game: Game, bots: Mapping[int, str] | None = None) -> str:
    """The record as JSON text."""
    return json.dumps(to_record(game, bots), indent=1) + "\n"


def bots_of(data: dict[str, Any]) -> dict[int, str]:
    """The computer players' levels by seat, from a record's ``bots`` field (checked as
    :func:`replay_record` checks it; none if absent)."""
    found = data.get("bots")
    if found is None:
        return {}
    players = data.get("players")
    levels = check.array(found, "bots")
    if not isinstance(players, list) or len(levels) != len(players):
        raise _field("bots", lazy("one entry per player, a computer level or null"))
    bots: dict[int, str] = {}
    for seat, level in enumerate(levels):
        if level is None:
            continue
        if not isinstance(level, str) or not 0 < len(level.strip()) <= 40:
            raise _field(
                "bots",
                lazy(
                    "seat {seat} is {value}, not a computer level (a text) or null",
                    seat=seat + 1,
                    value=check.shown(level),
                ),
            )
        bots[seat] = level
    return bots


def loads(text: str) -> Any:
    """JSON text as data; RecordError for text that is not JSON (nested too deep or a
    number too long included)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        # TRANSLATORS: {error} is the JSON reader's own message, in English
        raise RecordError(
            lazy("not JSON: {error} at line {line}", error=exc.msg, line=exc.lineno)
        ) from None
    except RecursionError:
        raise RecordError(lazy("not a game record: the JSON is nested too deep")) from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise RecordError(lazy("not JSON this program reads: {error}", error=str(exc))) from None


def replay_record(data: dict[str, Any] | str, game_type: Callable[[str], GameType]) -> Game:
    """Replay a record (data or JSON text), finding its game with ``game_type(name)``;
    raises RecordError saying what is wrong (see the module's list of checks)."""
    if isinstance(data, str):
        data = loads(data)
    try:
        return _replay(data, game_type)
    except RecordError:
        raise
    except MathableError as exc:  # a FieldError from a check or a setup reader
        raise RecordError(exc.text) from None


def _replay(data: object, game_type: Callable[[str], GameType]) -> Game:
    if not isinstance(data, dict):
        raise RecordError(lazy("a record is a JSON object, not {kind}", kind=check.kind_of(data)))
    if data.get("format") != FORMAT:
        raise RecordError(
            lazy("not a game record (format should be {format})", format=repr(FORMAT))
        )
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version != VERSION:
        raise RecordError(
            lazy(
                "record version {version} is not supported (this program reads version {known})",
                version=check.shown(version),
                known=VERSION,
            )
        )
    check.mapping(data, "record")
    check.only_fields(data, "", FIELDS)
    name = check.text(data.get("variant", "classic"), "variant")
    try:
        kind = game_type(name)
    except ValueError as exc:
        raise _field("variant", message_of(exc)) from None
    written = data.get("variant_version", 1)
    if isinstance(written, int) and not isinstance(written, bool) and written > kind.version:
        raise RecordError(
            lazy(
                "the record was written by a newer {name} rules engine "
                "(version {written}; this one is {version})",
                name=name,
                written=written,
                version=kind.version,
            )
        )
    check.integer(written, "variant_version", 1, kind.version)
    if "players" not in data:
        raise _missing("players")
    if "seed" not in data:
        raise _missing("seed")
    players = check.player_names(data["players"], kind.min_players, kind.max_players)
    seed = check.seed(data["seed"])
    house_data = data.get("house_rules")
    house = check.house_rules_from({} if house_data is None else house_data, kind)
    options: dict[str, Any] = {}
    if "rounds" in data:
        options = check.options_of({"rounds": data["rounds"]}, kind)
    setup = data.get("setup")
    if setup is not None:
        check.mapping(setup, "setup")
    if "actions" not in data:
        raise _missing("actions")
    actions = check.array(data["actions"], "actions")
    if len(actions) > MAX_ACTIONS:
        raise _field(
            "actions",
            lazy("{count} actions, more than {most}", count=len(actions), most=MAX_ACTIONS),
        )
    for number, text in enumerate(actions, start=1):
        if not isinstance(text, str):
            raise _field("actions", lazy("action {number} is not a string", number=number))
    bots_of(data)
    result = data.get("result")
    if result is not None:
        check.only_fields(check.mapping(result, "result"), "result", ("scores", "winners"))
    older = {"version": written} if written < kind.version else {}  # played by its rules
    try:
        game = kind.create(
            players, seed=seed, house_rules=house, options=options, setup=setup, **older
        )
    except MathableError:
        raise
    except ValueError as exc:  # a game's own refusal that no check above foresaw
        raise RecordError(
            lazy("the record's game cannot be set up: {error}", error=message_of(exc))
        ) from None
    before_questions = written < QUESTIONS  # written before J4/C12 asked questions
    for number, text in enumerate(actions, start=1):
        try:
            action = game.parse_action(text)
            if before_questions and action_kind(action) != "challenge":
                _agree(game)
            game.apply(action)
        except MathableError as exc:
            raise _field(
                "actions",
                lazy(
                    "action {number} ({action}) does not replay: {error}",
                    number=number,
                    action=check.shown(text),
                    error=exc.text,
                ),
            ) from None
    if before_questions:
        _agree(game)
    if result is not None:
        _check_result(result, game)
    return game


def _agree(game: Game) -> None:
    """A record of an older rules version knows no questions: there a proposal to stop
    ended the game at once (J4) and a game-ending turn was final (C12), which is what
    accepting every pending question gives."""
    while not game.is_over and "accept" in game.view(game.to_move).available:
        game.apply(Accept())


def _check_result(result: dict[str, Any], game: Game) -> None:
    """The record's result must be the replay's: scores, winners, and an ended game."""
    scores = result.get("scores")
    if not _numbers(scores) or scores != list(game.scores):
        raise _field(
            "result.scores",
            lazy(
                "the record's result {written} differs from its replay {replayed}",
                written=check.shown(scores, 60),
                replayed=str(list(game.scores)),
            ),
        )
    winners = result.get("winners", list(game.winners()))
    if not _numbers(winners) or winners != list(game.winners()):
        raise _field(
            "result.winners",
            lazy(
                "the record's winners {written} differ from its replay's {replayed}",
                written=check.shown(winners),
                replayed=str(list(game.winners())),
            ),
        )
    if not game.is_over:
        raise _field("result", lazy("the record has a result but its replay has not ended"))


def _missing(name: str) -> RecordError:
    """A field a record must have is missing."""
    return RecordError(lazy("field {field} is missing", field=repr(name)))


def _numbers(value: object) -> bool:
    """Whether ``value`` is a list of whole numbers (``true`` is not 1 here)."""
    return isinstance(value, list) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    )
