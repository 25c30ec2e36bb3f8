"""What a player can do: the actions a game's event log is made of (ruling C8).

Actions are small frozen value objects; their text form lives in
:mod:`mathable.engine.notation` (``I8=12``, ``J8=16+``, ``end``, ``pass``,
``exchange 3,5,7``, ``challenge``, ``stop``, ``accept``, ``decline``; Quattro adds
``A=32``, ``draw``, ``penalty`` and ``diago``), and the two that are not turns, open to
every game and to any seat still in it, out of turn: :class:`Leave` (``resign 1``,
``flag 1``, ``claim 1``) and :class:`Abort` (``abort 0``), local ruling L1 (leaving a
game, docs/architecture.md). A third is nobody's: :class:`Shake` (``shake 8123``), the
bag shaken after an undo (ruling O5). Each action names its own keyword, its ``kind``
(``place``, ``end``, ``resign``...: :data:`ACTION_KINDS`, :data:`META_KINDS`).
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar, Protocol, final

Cell = int
"""A place a piece can go: a board square ``row * size + column``, or a pile 0-3."""


@dataclass(frozen=True, slots=True)
class Place:
    """Put a token ``value`` from the rack on ``cell``; ``extra`` takes the extra token a
    restriction square allows (ruling C7), decided at once as the rules require."""

    cell: Cell
    value: int
    extra: bool = False

    @property
    def kind(self) -> str:
        """Its keyword: ``extra`` when it takes the extra token, else ``place``."""
        return "extra" if self.extra else "place"


@functools.lru_cache(maxsize=1 << 14)
def placing(cell: Cell, value: int, extra: bool = False) -> Place:
    """``Place(cell, value, extra)``, one object kept per placement: actions are
    immutable values, and a computer's placement made anew each time (a frozen
    dataclass's ``__init__``, interpreted) cost more than a greedy player's choice."""
    return Place(cell, value, extra)


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Stop placing and refill the rack (C8a). ``challenged`` is internal: a turn cut
    short by a successful challenge (C12)."""

    kind: ClassVar[str] = "end"

    challenged: bool = False


@dataclass(frozen=True, slots=True)
class Exchange:
    """Swap these rack tokens for as many from the bag, as the whole turn (C8b)."""

    kind: ClassVar[str] = "exchange"

    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pass:
    """Do nothing this turn (C8c)."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Challenge:
    """Contest the turn just ended, under the table-referee house rule (C12).

    ``by`` is the challenger's seat (None: the player to move). Only an opponent of the
    player who made the turn may challenge; the notation stays ``challenge`` (who
    challenged does not change what a successful challenge does)."""

    kind: ClassVar[str] = "challenge"

    by: int | None = None


@dataclass(frozen=True, slots=True)
class EndGame:
    """Propose to end the game now (Mathable Junior, ruling J4): it ends only when every
    other player accepts."""

    kind: ClassVar[str] = "stop"


@dataclass(frozen=True, slots=True)
class Accept:
    """Agree to a pending proposal: to stop the game (J4), or to let a game-ending turn
    stand without a challenge (C12)."""

    kind: ClassVar[str] = "accept"


@dataclass(frozen=True, slots=True)
class Decline:
    """Refuse a pending proposal to stop the game (J4): play goes on."""

    kind: ClassVar[str] = "decline"


@dataclass(frozen=True, slots=True)
class Draw:
    """Mathable Quattro: unable to play, draw a card to put on any pile (ruling Q3)."""

    kind: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Penalty:
    """Mathable Quattro: after a drawn card, take one penalty card instead of an
    exchange (ruling Q3)."""

    kind: ClassVar[str] = "penalty"


@dataclass(frozen=True, slots=True)
class Diago:
    """Mathable Quattro: announce DIAGO, diagonal pairs count this turn (ruling Q4)."""

    kind: ClassVar[str] = "diago"


LEAVE_REASONS = ("resign", "flag", "claim")
"""Why a seat leaves a game (local ruling L1): it resigned, ran out of time (``flag``), or
was gone and an opponent claimed after a timeout (``claim``)."""


@final  # never subclassed: ``type(action) is Leave`` is its check where every action passes
@dataclass(frozen=True, slots=True)
class Leave:
    """Seat ``seat`` leaves the game (local ruling L1): its score is frozen, its rack
    leaves the game face down, turn order skips it; fewer than two seats left: the game
    is over. Not a turn: never in ``legal_actions()``, accepted from any seat still in."""

    seat: int
    reason: str = "resign"
    """One of :data:`LEAVE_REASONS`."""

    @property
    def kind(self) -> str:
        """Its keyword: its reason."""
        return self.reason


@final  # as Leave
@dataclass(frozen=True, slots=True)
class Abort:
    """Seat ``seat`` calls the game off while some seat still in it has not completed a
    turn (local ruling L1, lichess's rule): the game is over, nobody wins, no ranks."""

    kind: ClassVar[str] = "abort"

    seat: int


SHAKE_ENTROPY = 1 << 63
"""A shake's entropy is a whole number below this (63 bits, as a seed)."""


@dataclass(frozen=True, slots=True)
class Shake:
    """The bag (Quattro: the reserve) shaken with ``entropy`` (ruling O5, taking back):
    the tokens drawn in a turn taken back are back in the bag, and the next draw is
    random again, so undoing never shows what will be drawn.

    Nobody's action and not a turn: never in ``legal_actions()``, it changes neither the
    seat to move nor the scores, only the bag's order (and the generator later shuffles
    draw from). Only an undo makes one (``Game.undo(shake=...)``, with fresh entropy from
    :meth:`fresh`), so it stands in the log right after the undo's rebuild and a game is
    still its seed plus its log: records and replays give the same bag. The entropy is
    mixed with the game's own seeded generator, so knowing it shows nothing of the bag
    without the seed (O1). An undo never takes a shake back (the order it hid would show
    again): undoing takes back the last other action and keeps the shakes after it."""

    kind: ClassVar[str] = "shake"

    entropy: int

    @staticmethod
    def fresh() -> Shake:
        """A shake with fresh entropy from :mod:`secrets` (front ends, on an undo)."""
        return Shake(secrets.randbelow(SHAKE_ENTROPY))


Action = (
    Place
    | EndTurn
    | Exchange
    | Pass
    | Challenge
    | EndGame
    | Accept
    | Decline
    | Draw
    | Penalty
    | Diago
    | Leave
    | Abort
    | Shake
)


class Placements(Protocol):
    """The placements open to the player to move, as a lazy view (python-chess's
    ``LegalMoveGenerator``): ``in`` and ``count()`` need not list them all."""

    def __iter__(self) -> Iterator[Action]: ...

    def __contains__(self, action: object) -> bool: ...

    def __len__(self) -> int: ...

    def __bool__(self) -> bool: ...

    def count(self) -> int: ...


META_KINDS = (*LEAVE_REASONS, "abort")
"""The keywords of the actions that are not turns (:class:`Leave`, :class:`Abort`): never
in a game's ``actions`` nor a view's ``available``; ``Game.can_leave`` / ``can_abort``
say when a seat may use them."""


ACTION_KINDS = (
    "place",
    "extra",
    "end",
    "pass",
    "exchange",
    "challenge",
    "stop",
    "accept",
    "decline",
    "draw",
    "penalty",
    "diago",
)
"""Every action keyword of the family, in the order front ends offer them; ``extra`` is a
placement that takes a restriction square's extra token (C7)."""


def action_kind(action: Action) -> str:
    """The keyword of an action (one of :data:`ACTION_KINDS` or :data:`META_KINDS`, or
    ``shake``: :class:`Shake`): its ``kind``, which each action class names itself (a
    function too, to map over actions and to sort them by)."""
    return action.kind
