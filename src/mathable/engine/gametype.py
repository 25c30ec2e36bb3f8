"""A game's metadata and capabilities, as data: :class:`GameType` (OpenSpiel's
``GameType``, boardgame.io's declarative game object), the house rules a game may offer
and how its targets are named. A front end renders and offers exactly what a game's type
says, without ever asking which game it holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias

from mathable.i18n import Text, lazy, lazy_plural

from .actions import ACTION_KINDS, Cell
from .errors import NotationError
from .tokens import piece_name

if TYPE_CHECKING:
    from .protocol import Game

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


class ScoreSheets(Protocol):
    """A game's paper score sheets (transcripts of a game on a real table, where only
    the placements per turn are known): written from a game, scored from their text."""

    def write(self, game: Game) -> str:
        """The game as a score sheet that :meth:`score` reads back to the same totals."""
        ...

    def score(self, text: str) -> dict[str, Any]:
        """A sheet scored turn by turn, as JSON-ready data (``mathable score --json``);
        raises a :class:`~.errors.MathableError` at the first bad line."""
        ...


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
class GameType:
    """A game's metadata and capabilities, as data (``mathable variants --json``)."""

    name: str
    title_text: Words
    """Its title (:attr:`title` in the current language)."""
    summary_text: Words
    """One line on it (:attr:`summary` in the current language)."""
    version: int
    """Bumped whenever the game's behaviour changes (records name it)."""
    min_players: int
    max_players: int
    rack_size: int
    piece: str
    """What a player holds: ``token``, ``tile`` or ``card`` (a keyword: in words, see
    :func:`~.tokens.piece_name` and :func:`~.tokens.pieces_text`)."""
    surface: Literal["board", "piles"]
    """What pieces are placed on: a square board of cells or a square of piles."""
    columns: int
    """How many targets a row of the surface holds (14 on the classic board, 2 piles)."""
    targets: tuple[Target, ...]
    """Every cell or pile, by index, row after row."""
    actions: frozenset[str]
    """The action keywords this game has (a subset of :data:`ACTION_KINDS`)."""
    create: Callable[..., Game] = field(compare=False)
    """``create(players, seed=, house_rules=, options=, setup=, version=)``: a new game;
    ``setup`` is a record's JSON ``setup`` (an explicit deal), ``options`` e.g.
    ``{"rounds": 2}``, ``version`` an older rules version to play by (a record's
    ``variant_version``; asked only for an older one)."""
    exchange_exactly: int | None = None
    """An exchange swaps exactly this many pieces (Quattro: 1); None: any number."""
    house_rules: tuple[str, ...] = ("allow_undo", "hints")
    """The house rules this game offers."""
    rounds: bool = False
    """Whether a match is played over several rounds (then the scores count rounds won)."""
    score_unit: str = "points"
    open_racks: bool = False
    """Racks lie face up for everyone (Junior's back side)."""
    score_sheets: bool = False
    """Whether paper score sheets (transcripts) of this game can be scored and written."""
    sheets: ScoreSheets | None = field(default=None, compare=False)
    """How this game's paper score sheets are written and scored (None: it has none), so
    a front end scores a sheet through the game, never importing a family."""
    bonus: int = 0
    """Points for placing a whole rack in one turn (C9); 0 when there is none."""
    deducts_rack: bool = False
    """C11: at the end each player loses the values left on the rack."""
    rules_text: tuple[Words, ...] = ()
    """The rules in a page, one text per paragraph (rule numbers in brackets), for help
    screens; :attr:`rules` in the current language."""

    @property
    def title(self) -> str:
        """The game's title in the current language."""
        return str(self.title_text)

    @property
    def summary(self) -> str:
        """One line on the game in the current language."""
        return str(self.summary_text)

    @property
    def rules(self) -> str:
        """The rules page in the current language (plain text, its paragraphs separated
        by blank lines, rule numbers in brackets), '' when the game has none."""
        return "\n\n".join(self.rules_paragraphs)

    @property
    def rules_paragraphs(self) -> list[str]:
        """The rules page's paragraphs in the current language (the first is its title)."""
        return [str(paragraph) for paragraph in self.rules_text]

    def capabilities(self) -> dict[str, Any]:
        """Everything a front end needs to draw and offer this game, as JSON-ready data
        (its texts in the current language)."""
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "version": self.version,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "rack_size": self.rack_size,
            "piece": self.piece,
            "surface": self.surface,
            "columns": self.columns,
            "targets": [{"name": t.name, "kind": t.kind, "label": t.label} for t in self.targets],
            "actions": [a for a in ACTION_KINDS if a in self.actions],
            "exchange_exactly": self.exchange_exactly,
            "house_rules": list(self.house_rules),
            "house_rule_labels": {
                rule: str(HOUSE_RULE_TEXTS[rule][0])
                for rule in self.house_rules
                if rule in HOUSE_RULE_TEXTS
            },
            "house_rule_descriptions": {
                rule: str(HOUSE_RULE_TEXTS[rule][1])
                for rule in self.house_rules
                if rule in HOUSE_RULE_TEXTS
            },
            "piece_name": str(piece_name(self.piece)),
            "rounds": self.rounds,
            "score_unit": self.score_unit,
            "open_racks": self.open_racks,
            "score_sheets": self.score_sheets,
            "bonus": self.bonus,
            "deducts_rack": self.deducts_rack,
            "rules": self.rules,
            "rules_paragraphs": self.rules_paragraphs,
        }

    def has(self, action: str) -> bool:
        """Whether this game has the action keyword ``action``."""
        return action in self.actions

    @cached_property
    def target_names(self) -> TargetNames:
        """The notation's names of this game's cells or piles."""
        return TargetNames(tuple(t.name for t in self.targets))


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
