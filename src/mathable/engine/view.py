"""What one seat may know of a game (:class:`View`), and a finished turn in words
(:class:`TurnSummary`): the only things that leave a server or reach a computer player.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Self

from mathable.i18n import current as current_language

from .actions import Cell
from .explain import Explanation
from .kept import Kept, kept, kept_run
from .metadata import Words


@dataclass(frozen=True)
class TurnSummary:
    """A finished turn in words every front end can show: who, what, and the points."""

    seat: int
    notation: str
    """The turn as written on a score sheet (``I8=12 H6=8``, ``A=32 B=7``, ``pass``)."""
    points: int
    """Points scored (0 where a game counts rounds, not points)."""
    notes: tuple[Words, ...] = ()
    """Anything more a player should read (``bonus 50``, ``DIAGO``, ``won the round``),
    as lazy texts: :attr:`note` in the current language."""
    explanations: tuple[Explanation, ...] = field(default=(), compare=False)
    """Its placements explained (issue 18), as the board stood when each was made."""
    no_fit: bool = False
    """The turn ended by itself: the player held pieces and none fitted (issue 32)."""

    @property
    def note(self) -> str:
        """The notes in the current language, separated by commas ('' when none)."""
        return ", ".join(str(note) for note in self.notes)


@dataclass(frozen=True)
class View:
    """What one seat (None: a spectator) may know of a game: the only thing that leaves a
    server or reaches a computer player. Never another player's rack nor the bag order."""

    variant: str
    seat: int | None
    players: tuple[str, ...]
    rack: tuple[int, ...]
    rack_sizes: tuple[int, ...]
    scores: tuple[int, ...]
    bag_size: int
    to_move: int
    unseen: dict[int, int]
    """C13, the player card: pieces of each value this seat has not seen."""
    house_rules: dict[str, bool]
    over: bool
    end_reason_text: Words
    """Why the game ended (:attr:`end_reason` in the current language), '' while it runs."""
    open_racks: tuple[tuple[int, ...], ...]
    """Every rack, when all may see them: face-up racks, or once the game is over."""
    surface: tuple[int, ...]
    """What lies on each target (cell value, or a pile's top card); -1 where empty."""
    playable: tuple[int, ...]
    """The pieces the seat places from now: its rack, or a card it has just drawn."""
    available: tuple[str, ...]
    """The action keywords the seat may use now (empty when it is not to move)."""
    summaries: tuple[TurnSummary, ...]
    """Every finished turn, oldest first, in words."""
    status_text: Words
    """One line on the state a player should know (turn points, DIAGO, round 2 of 3), as
    a lazy text: :attr:`status` in the current language."""
    left: tuple[str, ...]
    """Per seat, why it left the game (``resign``, ``flag``, ``claim``: local ruling L1),
    "" for a seat still in it."""

    OWN_KEYS: ClassVar[frozenset[str]] = frozenset(
        {"seat", "rack", "unseen", "playable", "available"}
    )
    """The keys of :meth:`to_dict` whose values depend on the seat (:meth:`own_dict`
    makes them); every other key reads the same in every seat's view of one state, so a
    server builds and encodes those once for all seats (issue 34, cheaper actions)."""

    LATER: ClassVar[frozenset[str]] = frozenset()
    """The fields a view of this class may make only when first read (:meth:`of`'s
    ``later``)."""

    @classmethod
    def made(cls, **fields: Any) -> Self:
        """``cls(**fields)``, the same view, made at once (see :meth:`of`)."""
        return cls.of(fields)

    @classmethod
    def of(cls, fields: dict[str, Any], later: Later | None = None) -> Self:
        """The view whose fields are ``fields`` (a new dict, which the view keeps), made
        at once: a frozen dataclass's ``__init__`` sets each field through
        ``object.__setattr__``, and a view is made after every action and for every
        computer's decision (a tenth of a greedy self-play game, issue 35); a dict handed
        over whole spares the keywords' parsing too. Every field is required, as
        ``__init__`` requires it, but for :attr:`LATER`'s when ``later`` is given: those
        are made by ``later`` when first read (a computer reads few of a view's fields,
        and the finished turns in words cost more than a greedy player's decision)."""
        checked = _CHECKED if later is None else _CHECKED_EAGER
        keys = tuple(fields)
        if keys != checked.get(cls):  # the same names in the same order as a checked view
            names = _field_names(cls) if later is None else _eager_names(cls)
            if fields.keys() != names:
                missing, unknown = sorted(names - fields.keys()), sorted(fields.keys() - names)
                raise TypeError(f"{cls.__name__}: missing fields {missing}, unknown {unknown}")
            checked[cls] = keys
        view = object.__new__(cls)
        if later is not None:
            fields[_LATER] = later
        object.__setattr__(view, "__dict__", fields)
        return view

    if not TYPE_CHECKING:  # the type checker sees every field as set

        def __getattr__(self, name: str) -> Any:
            """A field of :attr:`LATER` not read yet: made now by the view's ``later``
            and kept (only called when ``name`` is not set)."""
            fields = self.__dict__
            later = fields.get(_LATER)
            if later is None or name not in self.LATER:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            value = fields[name] = later[0](self, name, later[1])
            return value

    def __getstate__(self) -> dict[str, Any]:
        """Every field, those still to make made (a view pickled to a worker)."""
        fields = dict(self.__dict__)
        if fields.pop(_LATER, None) is not None:
            for name in self.LATER:
                fields[name] = getattr(self, name)
        return fields

    @property
    def status(self) -> str:
        """One line on the state, in the current language ('' when there is nothing)."""
        return str(self.status_text)

    @property
    def end_reason(self) -> str:
        """Why the game ended, in the current language ('' while it runs)."""
        return str(self.end_reason_text)

    @property
    def notice_text(self) -> Words:
        """A message for the opening of a game (how the first player was drawn), or ''."""
        return ""

    @property
    def notice(self) -> str:
        """:attr:`notice_text` in the current language."""
        return str(self.notice_text)

    @property
    def recent_targets(self) -> tuple[Cell, ...]:
        """The targets the last finished turn and the turn under way placed on, for a
        front end to highlight."""
        return ()

    @property
    def last_turn_targets(self) -> tuple[tuple[Cell, ...], ...]:
        """Per seat, the targets its last finished turn placed on (empty for a seat that
        has not finished a turn or whose last turn placed nothing; never the turn under
        way), for a front end to mark each player's last turn apart."""
        return tuple(() for _ in self.players)

    @property
    def target_note_texts(self) -> tuple[Words, ...]:
        """A short note per target (a pile's card count), or () where targets need none."""
        return ()

    @property
    def target_notes(self) -> tuple[str, ...]:
        """:attr:`target_note_texts` in the current language."""
        return tuple(str(note) for note in self.target_note_texts)

    def common_dict(self) -> dict[str, Any]:
        """The fields every game's JSON view has, its texts in the current language (a
        view is made once and shown to each reader in theirs). A finished turn's summary
        is made once per language and shared by every later view (:mod:`.kept`)."""
        lang = current_language()
        return {
            "variant": self.variant,
            "seat": self.seat,
            "players": list(self.players),
            "rack": list(self.rack),
            "rack_sizes": list(self.rack_sizes),
            "scores": list(self.scores),
            "bag_size": self.bag_size,
            "to_move": self.to_move,
            "unseen": counts_json(self.unseen),
            "house_rules": dict(self.house_rules),
            "over": self.over,
            "end_reason": self.end_reason,
            "open_racks": [list(r) for r in self.open_racks],
            "surface": list(self.surface),
            "playable": list(self.playable),
            "available": list(self.available),
            "summaries": self.summaries_data(lang),
            "status": self.status,
            "notice": self.notice,
            "target_notes": list(self.target_notes),
            "left": list(self.left),
        }

    def summaries_data(self, lang: str) -> list[Kept]:
        """The finished turns' summaries as JSON-ready data, their texts in ``lang``:
        each made once and shared by every later view (:mod:`.kept`)."""
        summaries = self.summaries
        return kept_run(
            ("summaries", lang),
            lambda index: kept(summaries[index], lang, partial(_summary_dict, summaries[index])),
            summaries,
        )

    def to_dict(self, cell_name: Callable[[Cell], Any] | None = None) -> dict[str, Any]:
        """JSON-ready data: the common fields and the game's own (``cell_name`` names
        cells where a game writes them)."""
        return self.common_dict()

    def own_dict(self) -> dict[str, Any]:
        """The :data:`OWN_KEYS` of :meth:`to_dict`, and only those, as it writes them: what
        this seat's view has that another seat's view of the same state may not."""
        return own_fields(self.seat, self.rack, self.unseen, self.playable, self.available)


def own_fields(
    seat: int | None,
    rack: tuple[int, ...],
    unseen: Mapping[int, int],
    playable: tuple[int, ...],
    available: tuple[str, ...],
) -> dict[str, Any]:
    """The common :data:`View.OWN_KEYS` as a view's JSON writes them, in one place for
    :meth:`View.own_dict` and a game's :meth:`~.protocol.Game.own_view_dict` (which
    makes them without building a whole view)."""
    return {
        "seat": seat,
        "rack": list(rack),
        "unseen": counts_json(unseen),
        "playable": list(playable),
        "available": list(available),
    }


_NUMBER_TEXTS: dict[int, str] = {number: str(number) for number in range(256)}


def counts_json(counts: Mapping[int, int]) -> dict[str, int]:
    """``{str(value): count}``: a count per value (``unseen``) as JSON writes it, without
    a ``str`` call per value (views are built after every action, issue 34)."""
    texts = _NUMBER_TEXTS
    try:
        return {texts[value]: count for value, count in counts.items()}
    except KeyError:  # a value outside the table
        return {str(value): count for value, count in counts.items()}


def _summary_dict(s: TurnSummary) -> dict[str, Any]:
    """A finished turn's summary as JSON-ready data, its texts in the current language."""
    return {
        "seat": s.seat,
        "notation": s.notation,
        "points": s.points,
        "note": s.note,
        "explanations": [e.text() for e in s.explanations],
        "no_fit": s.no_fit,
    }


Later = tuple[Callable[["View", str, Any], Any], Any]
"""How a view makes a field of :attr:`View.LATER` when first read: ``make(view, name,
kept)``, where ``kept`` is what ``make`` needs beyond the view's other fields, taken when
the view was made. ``make`` must not change anything: a view may be read on any thread,
long after the game moved on."""

_LATER = "_later"
"""Where a view keeps its :data:`Later` (no field has this name)."""

_FIELDS: dict[type, frozenset[str]] = {}
_EAGER: dict[type, frozenset[str]] = {}
_CHECKED: dict[type, tuple[str, ...]] = {}
"""Per view class, the keys, in order, of the last field dict :meth:`View.of` found
whole: a family builds its views' dicts in one order, and a tuple of the same names
compares by identity, where a set compare hashed and looked up every name (a third of
``of``, issue 35)."""
_CHECKED_EAGER: dict[type, tuple[str, ...]] = {}
"""The same for views made with their :attr:`View.LATER` fields to make later."""


def _field_names(cls: type) -> frozenset[str]:
    """The names of a view class's fields, read once per class."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS.setdefault(cls, frozenset(f.name for f in fields(cls)))
    return names


def _eager_names(cls: type[View]) -> frozenset[str]:
    """The fields of a view class made at once when its :attr:`View.LATER` are not."""
    names = _EAGER.get(cls)
    if names is None:  # once per class
        names = _EAGER.setdefault(cls, _field_names(cls) - cls.LATER)
    return names
