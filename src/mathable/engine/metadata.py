"""What a game's type is made of, as data: the house rules a game may offer, its targets
(cells or piles) and how the notation names them, and texts for people. The
:class:`~.protocol.GameType` that gathers them lives beside the :class:`~.protocol.Game`
it creates, so neither module needs the other's name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from mathable.i18n import Text, lazy, lazy_plural

from .actions import Cell
from .errors import NotationError

Words: TypeAlias = str | Text
"""A text for people: a lazy :class:`~mathable.i18n.Text` (translated when shown), or a
plain string where there is nothing to translate (notation, a name)."""


@dataclass(frozen=True)
class HouseRules:
    """Options players may switch on. The defaults are the printed rules."""

    table_referee: bool = False
    """C12: illegal placements are accepted until an opponent challenges them."""
    allow_undo: bool = False
    """Casual play: take back the last action (rule V-B forbids it by default)."""
    strict: bool = False
    """K2, Junior's numbered board: a scoring square is compulsory when one exists."""
    hints: bool = False
    """O2: the player to move may ask for the computer's best turns. Off in the printed
    rules and by default online; games at one screen switch it on; when on, every seat
    knows (it is in every view's house rules)."""

    def to_dict(self) -> dict[str, bool]:
        """The options as JSON-ready data."""
        return {
            "table_referee": self.table_referee,
            "allow_undo": self.allow_undo,
            "strict": self.strict,
            "hints": self.hints,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> HouseRules:
        """Read options; unknown names are refused."""
        known = {"table_referee", "allow_undo", "strict", "hints"}
        unknown = set(data) - known
        if unknown:
            raise ValueError(
                lazy_plural(
                    "unknown house rule: {names}",
                    "unknown house rules: {names}",
                    len(unknown),
                    names=", ".join(sorted(unknown)),
                )
            )
        return HouseRules(**{k: bool(v) for k, v in data.items()})


HOUSE_RULE_TEXTS: dict[str, tuple[Text, Text]] = {
    "table_referee": (
        # TRANSLATORS: a house rule's name (C12): illegal placements stand until challenged
        lazy("table referee"),
        lazy("Illegal placements are accepted until an opponent challenges them (C12)."),
    ),
    "allow_undo": (
        # TRANSLATORS: a house rule's name: players may take back the last action
        lazy("allow undo"),
        lazy("Casual play: take back the last action (rule V-B forbids it by default)."),
    ),
    "strict": (
        # TRANSLATORS: a house rule's name (K2): a scoring square is compulsory
        lazy("strict"),
        lazy("Junior's numbered board: a scoring square is compulsory when one exists (K2)."),
    ),
    "hints": (
        # TRANSLATORS: a house rule's name (O2): the computer's help is allowed
        lazy("hints"),
        lazy("The player to move may ask for the computer's best turns (O2)."),
    ),
}
"""Each house rule's name and description for people, by its keyword (lazy texts)."""


@dataclass(frozen=True)
class Target:
    """One place a piece can go, as a front end draws it: a board square or a pile.

    ``kind`` is ``plain``, ``x2``/``x3`` (award), ``restriction``, ``centre``, ``number``
    or ``pile``; ``label`` is what is printed on it (``3×``, ``+``, ``7``, ``A``).
    """

    name: str
    """Its name in the notation (``G7``, ``A``)."""
    kind: str
    label: str


@dataclass(frozen=True)
class TargetNames:
    """Cell names from a list of target names (piles ``A``-``D``): a :class:`CellNames`."""

    names: tuple[str, ...]

    def name(self, cell: Cell) -> str:
        """The name of target ``cell``."""
        return self.names[cell]

    def parse(self, text: str) -> Cell:
        """The target called ``text`` (case-insensitive)."""
        wanted = text.strip().upper()
        for index, name in enumerate(self.names):
            if name.upper() == wanted:
                return index
        raise NotationError(
            lazy(
                "{text} is not one of {names}", text=repr(text.strip()), names=", ".join(self.names)
            )
        )


def joined(parts: Sequence[Words]) -> Words:
    """Texts one after the other in a line, separated by semicolons (``round 2 of 3;
    DIAGO: diagonals count``), each translated when shown; '' for none."""
    if not parts:
        return ""
    line = parts[0]
    for part in parts[1:]:
        # TRANSLATORS: two parts of a status line, one after the other
        line = lazy("{first}; {then}", first=line, then=part)
    return line
