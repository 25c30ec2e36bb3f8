"""A new game's spec as a front end asks for it, checked once against the game: how many
seats, which house rules by name, how many rounds. The web service (creating a game) and
the lobby (offering a seek) both call it, so neither repeats the game's rules; each
answers a refusal with its own status. The texts are those the server has always shown,
naming the request's field at fault.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, TypeAlias

from mathable.i18n import Text, lazy

from .errors import MathableError
from .protocol import GameType
from .validation import MAX_ROUNDS, FieldError, integer, not_in_rounds

SeatsField: TypeAlias = Literal["players", "seats"]
"""How a request counts its seats: ``players`` (a list of seats: a new game) or
``seats`` (a number: a seek in the lobby)."""


class SpecError(MathableError):
    """A new game's spec the game refuses. ``field`` names the part at fault
    (``players``, ``seats``, ``house_rules``, ``rounds``); the message already names it."""

    def __init__(self, field: str, problem: str | Text) -> None:
        super().__init__(problem)
        self.field = field

    def __reduce__(self) -> tuple[object, ...]:
        return (SpecError, (self.field, self.text))


def check_seats(kind: GameType, count: int, field: SeatsField = "players") -> None:
    """Refuse a number of seats ``kind`` is not played by."""
    low, high = kind.min_players, kind.max_players
    if low <= count <= high:
        return
    if field == "seats":
        raise SpecError(
            field,
            lazy(
                "seats: {game} is played by {low} to {high}",
                game=kind.title_text,
                low=low,
                high=high,
            ),
        )
    raise SpecError(field, lazy("players: a list of {low} to {high} seats", low=low, high=high))


def unknown_house_rule(rule: str, kind: GameType) -> Text:
    """The refusal of a house rule ``kind`` does not offer, naming the field."""
    if kind.house_rules:
        return lazy(
            "house_rules.{rule}: {game} offers {rules}",
            rule=rule,
            game=kind.title_text,
            rules=", ".join(kind.house_rules),
        )
    return lazy("house_rules.{rule}: {game} offers no house rules", rule=rule, game=kind.title_text)


def check_house_rule_names(kind: GameType, names: Iterable[str]) -> None:
    """Refuse the first house rule named that ``kind`` does not offer."""
    for rule in names:
        if rule not in kind.house_rules:
            raise SpecError("house_rules", unknown_house_rule(rule, kind))


def check_rounds(kind: GameType, rounds: int) -> None:
    """Refuse more than one round of a game not played in rounds, and rounds out of 1
    to :data:`~.validation.MAX_ROUNDS` for one that is (as :func:`~mathable.games.
    registry.new_game` refuses them)."""
    try:
        if not kind.rounds:
            if rounds != 1 or isinstance(rounds, bool):
                raise FieldError("rounds", not_in_rounds(kind))
        else:
            integer(rounds, "rounds", 1, MAX_ROUNDS)
    except FieldError as exc:
        raise SpecError("rounds", exc.text) from None


def check_spec(
    kind: GameType,
    seats: int,
    house_rules: Iterable[str] = (),
    rounds: int = 1,
    *,
    seats_field: SeatsField = "players",
) -> None:
    """A new game's spec checked against ``kind``: the number of seats, the house rules
    by name (each one the game offers), the rounds. Raises :class:`SpecError` at the
    first fault (in that order)."""
    check_seats(kind, seats, seats_field)
    check_house_rule_names(kind, house_rules)
    check_rounds(kind, rounds)
