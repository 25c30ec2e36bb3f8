"""Every action of a game as one whole number, and back: the fixed ``Discrete`` action
space of :mod:`mathable.rl` (issue 36).

The space is laid out from the game's :class:`~mathable.engine.protocol.GameType` and its
set of pieces, never from its family, so every game of the registry gets one the same
way. Blocks, in this order (a block exists only where the game has that action):

- ``place``: target x value, ``index = target * len(values) + value_index``;
- ``extra``: restriction square x value, the same placement taking the extra token (C7);
- ``exchange``: a game that swaps exactly one piece (Quattro) has one action per value;
  any other has one per non-empty set of rack slots, a bitmask over the seat's sorted
  rack (``2**rack_size - 1`` actions, 127 on the classic board);
- one action each for ``end``, ``pass``, ``challenge``, ``stop``, ``accept``,
  ``decline``, ``draw``, ``penalty``, ``diago``, in :data:`~mathable.engine.actions.ACTION_KINDS`
  order.

Why slots for exchanges: the rack holds repeated values, so "which pieces" is a multiset;
a bitmask over the sorted rack names any of them in a fixed, small block an agent can
read against the rack it observes. Several masks can name the same multiset (two 5s:
slot 2 or slot 3); only the canonical one (each value's leftmost slots) is ever legal,
so every legal exchange has exactly one index and decoding then encoding is the identity.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from mathable.engine.actions import (
    ACTION_KINDS,
    Accept,
    Action,
    Challenge,
    Decline,
    Diago,
    Draw,
    EndGame,
    EndTurn,
    Exchange,
    Pass,
    Penalty,
    Place,
    action_kind,
)
from mathable.engine.protocol import GameType

SINGLE_ACTIONS: dict[str, Action] = {
    "end": EndTurn(),
    "pass": Pass(),
    "challenge": Challenge(),
    "stop": EndGame(),
    "accept": Accept(),
    "decline": Decline(),
    "draw": Draw(),
    "penalty": Penalty(),
    "diago": Diago(),
}
"""The actions that take no argument, by keyword: one index each."""

RESTRICTION = "restriction"
"""The kind of target an extra-token placement goes on (ruling C7)."""


class UnencodableAction(ValueError):
    """An action this game's action space has no index for."""


@dataclass(frozen=True)
class ActionCodec:
    """The action space of one game: its size, and actions to indices and back.

    >>> from mathable.games.registry import GAMES
    >>> codec = ActionCodec.of(GAMES["quattro"], range(91))
    >>> codec.size, codec.decode(codec.encode(Place(2, 30), ()), ())
    (459, Place(cell=2, value=30, extra=False))
    """

    targets: int
    values: tuple[int, ...]
    extra_targets: tuple[int, ...]
    exchange_by_value: bool
    """Quattro: an exchange swaps exactly one piece, named by its value."""
    exchange_slots: int
    """The rack slots an exchange bitmask covers (0: the game has no exchange by slots)."""
    singles: tuple[str, ...]
    value_index: dict[int, int] = field(init=False, compare=False, repr=False)
    extra_index: dict[int, int] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "value_index", {v: i for i, v in enumerate(self.values)})
        object.__setattr__(self, "extra_index", {c: i for i, c in enumerate(self.extra_targets)})

    @staticmethod
    def of(kind: GameType, values: Iterable[int]) -> ActionCodec:
        """The action space of the game ``kind`` played with pieces of ``values``."""
        extra = kind.has("extra")
        by_value = kind.has("exchange") and kind.exchange_exactly == 1
        return ActionCodec(
            targets=len(kind.targets),
            values=tuple(sorted(set(values))),
            extra_targets=tuple(
                i for i, t in enumerate(kind.targets) if extra and t.kind == RESTRICTION
            ),
            exchange_by_value=by_value,
            exchange_slots=kind.rack_size if kind.has("exchange") and not by_value else 0,
            singles=tuple(k for k in ACTION_KINDS if k in SINGLE_ACTIONS and kind.has(k)),
        )

    # -- the layout -----------------------------------------------------------------------

    @property
    def extra_start(self) -> int:
        return self.targets * len(self.values)

    @property
    def exchange_start(self) -> int:
        return self.extra_start + len(self.extra_targets) * len(self.values)

    @property
    def exchange_count(self) -> int:
        if self.exchange_by_value:
            return len(self.values)
        return (1 << self.exchange_slots) - 1 if self.exchange_slots else 0

    @property
    def singles_start(self) -> int:
        return self.exchange_start + self.exchange_count

    @property
    def size(self) -> int:
        """How many actions the space holds (``Discrete(size)``)."""
        return self.singles_start + len(self.singles)

    def blocks(self) -> dict[str, tuple[int, int]]:
        """Each block's first index and length, by name (for docs and debugging)."""
        found = {
            "place": (0, self.extra_start),
            "extra": (self.extra_start, self.exchange_start - self.extra_start),
            "exchange": (self.exchange_start, self.exchange_count),
        }
        found |= {k: (self.singles_start + i, 1) for i, k in enumerate(self.singles)}
        return {name: span for name, span in found.items() if span[1]}

    # -- encoding -------------------------------------------------------------------------

    def encode(self, action: Action, rack: Sequence[int]) -> int:
        """The index of ``action`` for a seat holding ``rack`` (exchanges name rack
        slots); raises UnencodableAction when the space has none."""
        kind = action_kind(action)
        if isinstance(action, Place):
            value = self.value_index.get(action.value)
            if value is None or not 0 <= action.cell < self.targets:
                raise UnencodableAction(f"no index for {action!r}")
            if not action.extra:
                return action.cell * len(self.values) + value
            slot = self.extra_index.get(action.cell)
            if slot is None:
                raise UnencodableAction(f"no extra-token index for {action!r}")
            return self.extra_start + slot * len(self.values) + value
        if isinstance(action, Exchange):
            return self.exchange_start + self._exchange_offset(action.values, rack)
        if kind in self.singles:
            return self.singles_start + self.singles.index(kind)
        raise UnencodableAction(f"no index for {action!r} in this game")

    def _exchange_offset(self, values: Sequence[int], rack: Sequence[int]) -> int:
        if self.exchange_by_value:
            if len(values) != 1 or values[0] not in self.value_index:
                raise UnencodableAction(f"an exchange here swaps one piece, not {values!r}")
            return self.value_index[values[0]]
        if not self.exchange_slots or not values:
            raise UnencodableAction(f"no index for exchanging {values!r}")
        wanted, mask = Counter(values), 0
        for slot, value in enumerate(sorted(rack)[: self.exchange_slots]):
            if wanted[value]:
                wanted[value] -= 1
                mask |= 1 << slot
        if +wanted:
            raise UnencodableAction(f"{values!r} are not on the rack {tuple(rack)!r}")
        return mask - 1

    # -- decoding -------------------------------------------------------------------------

    def decode(self, index: int, rack: Sequence[int]) -> Action:
        """The action at ``index`` for a seat holding ``rack``; IndexError when the index
        is outside the space or names rack slots that are empty."""
        if not 0 <= index < self.size:
            raise IndexError(f"action {index} is outside 0..{self.size - 1}")
        width = len(self.values)
        if index < self.extra_start:
            return Place(index // width, self.values[index % width])
        if index < self.exchange_start:
            slot, value = divmod(index - self.extra_start, width)
            return Place(self.extra_targets[slot], self.values[value], extra=True)
        if index < self.singles_start:
            offset = index - self.exchange_start
            if self.exchange_by_value:
                return Exchange((self.values[offset],))
            held = sorted(rack)
            slots = [s for s in range(self.exchange_slots) if (offset + 1) >> s & 1]
            if slots[-1] >= len(held):
                raise IndexError(f"action {index} exchanges rack slot {slots[-1]}: it is empty")
            return Exchange(tuple(held[s] for s in slots))
        return SINGLE_ACTIONS[self.singles[index - self.singles_start]]

    def describe(self, index: int) -> str:
        """What an index means in words that need no rack (``place 3 on target 7``)."""
        width = len(self.values)
        if not 0 <= index < self.size:
            return f"action {index} (outside 0..{self.size - 1})"
        if index < self.extra_start:
            return f"place {self.values[index % width]} on target {index // width}"
        if index < self.exchange_start:
            slot, value = divmod(index - self.extra_start, width)
            target = self.extra_targets[slot]
            return f"place {self.values[value]} on target {target}, taking the extra token"
        if index < self.singles_start:
            offset = index - self.exchange_start
            if self.exchange_by_value:
                return f"exchange one {self.values[offset]}"
            slots = [s for s in range(self.exchange_slots) if (offset + 1) >> s & 1]
            return "exchange the pieces at rack slots " + ",".join(map(str, slots))
        return self.singles[index - self.singles_start]
