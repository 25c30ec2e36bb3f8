"""The one protocol every game of the family implements, and what front ends learn from it.

A game is its players, seed, house rules and a log of actions; its state is derived by
replaying the log (OpenSpiel's ``State``, pgx's ``Env``). :class:`Game` keeps the log,
undo (house rule, ruling V-B), copies, notation and winners once for every game; a game
family supplies the rules. :class:`GameType` is a game's metadata and **capabilities**
as data (OpenSpiel's ``GameType``, boardgame.io's declarative game object): what it is
played on and which actions exist, so a front end renders and offers exactly what a game
has without ever asking which game it holds. :class:`View` is what one seat may know.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal, Protocol, Self, TypeAlias

from mathable.i18n import Text, _, lazy, lazy_plural
from mathable.i18n import current as current_language

from .actions import (
    ACTION_KINDS,
    LEAVE_REASONS,
    SHAKE_ENTROPY,
    Abort,
    Action,
    Cell,
    Leave,
    Place,
    Shake,
)
from .errors import IllegalMove, NotationError
from .explain import Explanation
from .notation import CellNames, format_action, parse_action
from .tokens import piece_name

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
        view is made once and shown to each reader in theirs)."""
        return {
            "variant": self.variant,
            "seat": self.seat,
            "players": list(self.players),
            "rack": list(self.rack),
            "rack_sizes": list(self.rack_sizes),
            "scores": list(self.scores),
            "bag_size": self.bag_size,
            "to_move": self.to_move,
            "unseen": {str(v): n for v, n in self.unseen.items()},
            "house_rules": dict(self.house_rules),
            "over": self.over,
            "end_reason": self.end_reason,
            "open_racks": [list(r) for r in self.open_racks],
            "surface": list(self.surface),
            "playable": list(self.playable),
            "available": list(self.available),
            "summaries": [
                {
                    "seat": s.seat,
                    "notation": s.notation,
                    "points": s.points,
                    "note": s.note,
                    "explanations": [e.text() for e in s.explanations],
                    "no_fit": s.no_fit,
                }
                for s in self.summaries
            ],
            "status": self.status,
            "notice": self.notice,
            "target_notes": list(self.target_notes),
            "left": list(self.left),
        }

    def to_dict(self, cell_name: Callable[[Cell], Any] | None = None) -> dict[str, Any]:
        """JSON-ready data: the common fields and the game's own (``cell_name`` names
        cells where a game writes them)."""
        return self.common_dict()


class Placements(Protocol):
    """The placements open to the player to move, as a lazy view (python-chess's
    ``LegalMoveGenerator``): ``in`` and ``count()`` need not list them all."""

    def __iter__(self) -> Iterator[Action]: ...

    def __contains__(self, action: object) -> bool: ...

    def __len__(self) -> int: ...

    def __bool__(self) -> bool: ...

    def count(self) -> int: ...


class Game(ABC):
    """A game as its seed, options and log; a game family keeps the state and the rules.

    Public ``apply`` validates before anything changes: an illegal action raises
    :class:`~.errors.IllegalMove` (rule, where, reason) and leaves the game as it was.
    """

    game_type: GameType
    players: tuple[str, ...]
    seed: int
    house_rules: HouseRules
    _log: list[Action]
    _taken_back: Words = lazy("an action")
    """What undo would take back, for its refusal ("a token placed", "a card played")."""
    _rules_version: int | None = None
    """The rules version played, where a game is played by an older one than its type's."""

    # -- the rules: every game supplies these -----------------------------------------

    @abstractmethod
    def apply(self, action: Action | str) -> None:
        """Play an action (or its notation); IllegalMove leaves the game unchanged."""

    @abstractmethod
    def _reset(self) -> None:
        """Go back to the state before any action (the log is handled here)."""

    @abstractmethod
    def fresh(self) -> Self:
        """The same game before any action: players, seed, house rules and setup."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every action that would be accepted now (placements first)."""

    @abstractmethod
    def legal_placements(self) -> Placements:
        """The placements open to the player to move now, as a lazy view."""

    @abstractmethod
    def view(self, seat: int | None, *, explained: bool = True) -> View:
        """What ``seat`` may know (``None``: a spectator). Only views leave a server.
        ``explained=False`` leaves the finished turns' placements unexplained: computer
        players never read the explanations, so self-play asks without them (they cost
        more than a greedy player's whole turn)."""

    @abstractmethod
    def record_fields(self) -> dict[str, Any]:
        """What a record holds beyond the common fields (rounds, an explicit setup)."""

    @property
    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """Points (or rounds won) per seat."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @property
    @abstractmethod
    def end_text(self) -> Words:
        """Why the game ended, in words, as a lazy text ('' while it runs)."""

    @property
    def end_reason(self) -> str:
        """Why the game ended, in words in the current language ('' while it runs)."""
        return str(self.end_text)

    @property
    @abstractmethod
    def to_move(self) -> int:
        """The seat whose turn it is."""

    @property
    @abstractmethod
    def bag_size(self) -> int:
        """Pieces left to draw."""

    @abstractmethod
    def rack(self, seat: int) -> tuple[int, ...]:
        """A seat's rack or hand, sorted. Hidden: show it only to that seat (see view)."""

    @abstractmethod
    def bag_order(self) -> tuple[int, ...]:
        """The pieces to draw, in order. Hidden from every player; for tests and analysis."""

    @abstractmethod
    def census(self) -> Counter[int]:
        """Every piece of the set wherever it is: equals the game's set at all times."""

    @abstractmethod
    def snapshot(self) -> tuple[object, ...]:
        """The whole state, hidden parts included, as comparable data (tests of undo and
        replay: two games with equal snapshots behave the same)."""

    @abstractmethod
    def unseen(self, seat: int | None) -> dict[int, int]:
        """C13, the player card: pieces of each value ``seat`` has not seen."""

    @abstractmethod
    def summaries(self) -> tuple[TurnSummary, ...]:
        """Every finished turn, oldest first, in words."""

    # -- explained placements (issue 18) ---------------------------------------------

    def explain(self, action: Place) -> Explanation:
        """Explain placing ``action.value`` on ``action.cell`` now for the seat to move:
        the equations that make it legal and its points, or why it is refused. The value
        need not be on the rack; the game never changes."""
        raise NotImplementedError(f"{type(self).__name__} does not explain placements")

    def explain_turns(self) -> tuple[tuple[Explanation, ...], ...]:
        """Per finished turn (as :meth:`summaries` lists them), the explanations of its
        placements as the board stood when each was made (empty for a pass)."""
        return tuple(() for _ in self.summaries())

    def explained_summaries(self) -> tuple[TurnSummary, ...]:
        """:meth:`summaries` with each turn's placements explained (for views).

        Views are built after every action: the turns explained before are kept while
        the summaries they came from are still the game's (the same objects), one
        list per language, so a view costs one new turn, not the whole game again (every
        view rebuilding them all made a game's views quadratic in its length)."""
        summaries = self.summaries()
        by_language: dict[str, tuple[list[TurnSummary], list[TurnSummary]]] = (
            self.__dict__.setdefault("_explained_summaries", {})
        )
        lang = current_language()
        kept = by_language.get(lang)
        if (
            kept is None
            or len(kept[0]) > len(summaries)
            or any(a is not b for a, b in zip(kept[0], summaries, strict=False))
        ):
            kept = by_language[lang] = ([], [])
        sources, done = kept
        if len(sources) < len(summaries):
            explained = self.explain_turns()
            for index in range(len(sources), len(summaries)):
                summary = summaries[index]
                found = explained[index] if index < len(explained) else ()
                sources.append(summary)
                done.append(replace(summary, explanations=found) if found else summary)
        return tuple(done)

    def explain_turn(self, index: int) -> tuple[Explanation, ...]:
        """The explanations of the placements of finished turn ``index`` (as
        :meth:`summaries` numbers them; negative counts from the last)."""
        return self.explain_turns()[index]

    # -- shared by every game ----------------------------------------------------------

    @property
    def name(self) -> str:
        """The game's registry name (``classic``, ``quattro``...)."""
        return self.game_type.name

    @property
    def rules_version(self) -> int:
        """The version of the rules this game is played by: its type's, or the older one
        of the record it replays (records write it, so they replay as they were played)."""
        return self.game_type.version if self._rules_version is None else self._rules_version

    @property
    def cell_names(self) -> CellNames:
        """How this game names its cells or piles in the notation."""
        return self.game_type.target_names

    def parse_action(self, text: str) -> Action:
        """An action of this game from its text form (``I8=12``, ``A=32``, ``end``...)."""
        return parse_action(text, self.cell_names)

    def format_action(self, action: Action) -> str:
        """The text form of an action of this game."""
        return format_action(action, self.cell_names)

    def _parsed(self, action: Action | str) -> Action:
        return self.parse_action(action) if isinstance(action, str) else action

    @property
    def log(self) -> tuple[Action, ...]:
        """Every action applied, in order: with the seed, the whole game."""
        return tuple(self._log)

    def undo(self, shake: int | None = None) -> None:
        """Take back the last action (house rule ``allow_undo``) by replaying the log;
        never a seat leaving nor an abort (local ruling L1).

        Ruling O5: with ``shake`` (fresh entropy, :meth:`Shake.fresh
        <.actions.Shake.fresh>`), a :class:`~.actions.Shake` follows the rebuild in the
        log: the tokens the action drew are back in the bag and the next draw is random
        again. Front ends always shake; without it the game is exactly as it was before
        the action (tests, analysis). A shake is never taken back: the last action that
        is not one goes, the shakes after it stay (taking one back would show again the
        order it hid)."""
        if not self.house_rules.allow_undo:
            raise IllegalMove(
                lazy("undo is off: {what} may not be taken back", what=self._taken_back),
                rule="V-B",
            )
        last = next(
            (i for i in range(len(self._log) - 1, -1, -1) if not isinstance(self._log[i], Shake)),
            None,
        )
        if last is None:
            raise IllegalMove(lazy("there is nothing to undo"))
        if isinstance(self._log[last], Leave | Abort):
            raise IllegalMove(lazy("leaving or aborting a game cannot be taken back"), rule="L1")
        kept = [*self._log[:last], *self._log[last + 1 :]]
        self._rebuild(kept if shake is None else [*kept, Shake(shake)])

    def _rebuild(self, log: Sequence[Action]) -> None:
        self._log = []
        self._reset()
        for action in log:
            self.apply(action)

    def replayed(self, count: int) -> Self:
        """This game as it stood after its first ``count`` actions (for replays)."""
        other = self.fresh()
        other._rebuild(self._log[:count])
        return other

    def copy(self) -> Self:
        """An independent game with the same log (replayed)."""
        return self.replayed(len(self._log))

    # -- leaving a game (local ruling L1, docs/architecture.md) --------------------------

    @property
    def departures(self) -> tuple[Leave, ...]:
        """The seats that left the game, in the order they left (from the log)."""
        return self._leaving()[0]

    def _leaving(self) -> tuple[tuple[Leave, ...], bool]:
        """The departures and whether the game was aborted, read from the log once: a
        view asks on every action, and scanning the whole log each time made a game's
        views quadratic in its length (issue 16's self-play). The log only grows, or is
        replaced by a new list (``_rebuild``), so what was read of it stays true."""
        log = self._log
        read = self.__dict__.get("_read_of_log")
        if read is not None and read[0] is log and read[1] == len(log):
            return read[2], read[3]
        start, aborted = 0, False
        leaves: tuple[Leave, ...] = ()
        if read is not None and read[0] is log and read[1] < len(log):
            start, leaves, aborted = read[1], read[2], read[3]
        for action in log[start:]:
            if isinstance(action, Leave):
                leaves = (*leaves, action)
            elif isinstance(action, Abort):
                aborted = True
        self.__dict__["_read_of_log"] = (log, len(log), leaves, aborted)
        return leaves, aborted

    @property
    def left(self) -> tuple[str, ...]:
        """Per seat, why it left (``resign``, ``flag``, ``claim``), "" for a seat still in."""
        reasons = [""] * len(self.players)
        for leave in self.departures:
            reasons[leave.seat] = leave.reason
        return tuple(reasons)

    @property
    def seats_in(self) -> tuple[int, ...]:
        """The seats still in the game (every seat, unless some left)."""
        return tuple(s for s, why in enumerate(self.left) if not why)

    @property
    def aborted(self) -> bool:
        """Whether the game was called off (:class:`~.actions.Abort`)."""
        return self._leaving()[1]

    def can_leave(self, seat: int | None) -> bool:
        """Whether ``seat`` may leave now (resign; a flag or a claim against it): a seat
        still in a game that is not over, whoever is to move."""
        return seat is not None and not self.is_over and seat in self.seats_in

    def can_abort(self, seat: int | None) -> bool:
        """Whether ``seat`` may call the game off now: a seat still in, while some seat
        still in has not completed a turn (lichess's rule: before each has moved)."""
        return self.can_leave(seat) and not self.started

    @property
    def started(self) -> bool:
        """Whether every seat still in has completed a turn: before that a game online
        may only be aborted (ruling O4: no resignation, no claim, nothing rated)."""
        moved = {summary.seat for summary in self.summaries()}
        return all(s in moved for s in self.seats_in)

    def _check_meta(self, action: Leave | Abort) -> None:
        """Refuse a Leave or Abort that may not be played now (before anything changes)."""
        seat, n = action.seat, len(self.players)
        if isinstance(action, Leave) and action.reason not in LEAVE_REASONS:
            raise IllegalMove(
                lazy("{reason} is not a way to leave a game", reason=repr(action.reason)),
                rule="L1",
            )
        if not 0 <= seat < n:
            raise IllegalMove(
                lazy("there is no seat {seat} in this game of {count}", seat=seat, count=n),
                rule="L1",
            )
        if self.is_over:
            raise IllegalMove(lazy("the game is over"), rule="L1")
        if seat not in self.seats_in:
            raise IllegalMove(
                lazy("{name} has left the game already", name=self.players[seat]), rule="L1"
            )
        if isinstance(action, Abort) and not self.can_abort(seat):
            raise IllegalMove(
                lazy("a game is aborted only before each player has moved: resign instead"),
                rule="L1",
            )

    def _check_shake(self, action: Shake) -> None:
        """Refuse a Shake that may not be played now (ruling O5): one only follows an
        undo, so only under the house rule ``allow_undo``, and never once the game is
        over (nothing is drawn any more)."""
        if not self.house_rules.allow_undo:
            raise IllegalMove(
                lazy("the bag is shaken only after an undo (house rule allow undo)"), rule="O5"
            )
        if not 0 <= action.entropy < SHAKE_ENTROPY:
            raise IllegalMove(lazy("a shake's entropy is a whole number below 2**63"), rule="O5")
        if self.is_over:
            raise IllegalMove(lazy("the game is over"), rule="O5")

    def _meta_end_reason(self) -> Words:
        """The end reason when the game ended by an abort or by seats leaving ('' if not):
        "aborted", "Bob resigned", "Ann ran out of time", "Bob left the game (claimed)"."""
        last = self._log[-1] if self._log else None
        if isinstance(last, Abort):
            # TRANSLATORS: why a game ended: a player called it off
            return lazy("aborted")
        if isinstance(last, Leave) and len(self.seats_in) < 2:
            return departure(self.players[last.seat], last.reason)
        return ""

    def winners(self) -> tuple[int, ...]:
        """The seats ranked first (several on a tie); empty while the game runs and
        after an abort."""
        if self.aborted:
            return ()
        return tuple(s for s, rank in enumerate(self.ranks()) if rank == 1)

    def ranks(self) -> tuple[int, ...]:
        """Each seat's final place, 1 the best (equal places on a tie: 1, 1, 3); empty
        while the game runs. The ratings read these (:func:`mathable.online.ratings.rate_game`).

        Local ruling L1: the seats still in at the end rank among themselves by score;
        those that left rank below them all, a later leaver above an earlier one; an
        aborted game ranks every seat 1."""
        if not self.is_over:
            return ()
        if self.aborted:
            return tuple(1 for _ in self.players)
        order = {leave.seat: index for index, leave in enumerate(self.departures)}
        scores = self.scores
        keys = [
            (0, order[seat], 0) if seat in order else (1, 0, score)
            for seat, score in enumerate(scores)
        ]
        return tuple(1 + sum(1 for other in keys if other > own) for own in keys)

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.name} {len(self.players)} players "
            f"seed={self.seed} actions={len(self._log)}>"
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


def departure(name: str, reason: str) -> Text:
    """A seat leaving in words (local ruling L1), as a lazy text: "Bob resigned", "Ann ran
    out of time", "Bob left the game (claimed)"."""
    if reason == "flag":
        return lazy("{name} ran out of time", name=name)
    if reason == "claim":
        return lazy("{name} left the game (claimed)", name=name)
    return lazy("{name} resigned", name=name)


def departure_text(name: str, reason: str) -> str:
    """:func:`departure` in the current language."""
    return str(departure(name, reason))


def seat_names(players: Sequence[str] | int) -> tuple[str, ...]:
    """Player names, or ``Player 1``... for a count (names: written in the current
    language once, as a name typed would be)."""
    if isinstance(players, int):
        return tuple(_("Player {number}", number=i + 1) for i in range(players))
    return tuple(players)
