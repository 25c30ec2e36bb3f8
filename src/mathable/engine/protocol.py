"""The one protocol every game of the family implements, and the type that describes it.

A game is its players, seed, house rules and a log of actions; its state is derived by
replaying the log (OpenSpiel's ``State``, pgx's ``Env``). :class:`Game` keeps the log,
undo (house rule, ruling V-B), copies, notation, leaving (L1) and winners once for every
game, and decides who may act (:meth:`Game.play`); a game family supplies only its own
step and state. A game's metadata and capabilities are its
:class:`GameType` (OpenSpiel's ``GameType``, boardgame.io's declarative game object),
which creates its games: a front end renders and offers exactly what a game's type says,
without ever asking which game it holds. What one seat may know is a
:class:`~.view.View` (named here too, where front ends have always found it).
"""

from __future__ import annotations

import operator
import secrets
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, ClassVar, Literal, Protocol, Self, TypeAlias, TypeVar

from mypy_extensions import mypyc_attr

from mathable.i18n import Text, lazy
from mathable.i18n import current as current_language

from .actions import (
    ACTION_KINDS,
    SHAKE_ENTROPY,
    Abort,
    Action,
    Challenge,
    Leave,
    Place,
    Placements,
    Shake,
)
from .errors import IllegalMove
from .explain import Explanation
from .metadata import (
    HOUSE_RULE_TEXTS,
    HouseRules,
    Target,
    TargetNames,
    Words,
    joined,
)
from .notation import CellNames, format_action, parse_action
from .seats import Departures, departure, departure_text, seat_names
from .takeback import taken_back, undo_refusal
from .tokens import piece_name
from .view import TurnSummary, View

__all__ = [
    "HOUSE_RULE_TEXTS",
    "REFUSAL_KINDS",
    "ActionRefused",
    "Game",
    "GameType",
    "HouseRules",
    "Placements",
    "RefusalKind",
    "ScoreSheets",
    "Target",
    "TargetNames",
    "TurnSummary",
    "View",
    "Words",
    "departure",
    "departure_text",
    "joined",
    "seat_names",
]

_Kept = TypeVar("_Kept")


RefusalKind: TypeAlias = Literal["over", "left", "not_playable", "challenge", "turn", "undo"]
"""Why a seat may not act now (:class:`ActionRefused`):

- ``over``: the game is over;
- ``left``: the seat has left the game (local ruling L1);
- ``not_playable``: an action no seat plays directly (leaving, aborting, shaking the bag:
  resigning, claims, flags, aborts and undos play those through :meth:`Game.apply`);
- ``challenge``: a challenge the seat may not make now (C12);
- ``turn``: it is another seat's turn;
- ``undo``: nothing the seat may take back now (V-B, L1, O5).
"""

REFUSAL_KINDS: tuple[RefusalKind, ...] = (
    "over",
    "left",
    "not_playable",
    "challenge",
    "turn",
    "undo",
)
"""Every :data:`RefusalKind`, in the order :meth:`Game.play` checks them (undo apart)."""


class ActionRefused(IllegalMove):
    """A seat may not act now (whatever the action's merits): the game is over, the seat
    left, the action is not one a seat plays, or it is not the seat's turn or challenge.

    ``kind`` (a :data:`RefusalKind`) tells which, for a server's answer; the texts cite
    their ruling in words, so ``rule`` stays empty and ``str(exc)`` is the text alone."""

    def __init__(self, reason: str | Text, *, kind: RefusalKind) -> None:
        super().__init__(reason)
        self.kind: RefusalKind = kind

    def __reduce__(self) -> tuple[object, ...]:
        # the kind survives pickling (errors cross to worker processes)
        return (_rebuild_refused, (self.reason_text, self.kind))


def _rebuild_refused(reason: str | Text, kind: RefusalKind) -> ActionRefused:
    return ActionRefused(reason, kind=kind)


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


@mypyc_attr(allow_interpreted_subclasses=True)  # the families' games, and tests' games
class Game(ABC):
    """A game as its seed, options and log; a game family keeps the state and the rules.

    :meth:`play` is what a seat does: who may act is decided here, once for every game
    and front end. :meth:`apply` plays an action whoever makes it (replays, records,
    computer players, and the ways out: resigning, claims, flags, aborts, the shake
    after an undo). Both validate before anything changes: a refused action raises
    :class:`~.errors.IllegalMove` (rule, where, reason) and leaves the game as it was.
    A family supplies its own step (:meth:`_step`) and state.
    """

    game_type: GameType
    players: tuple[str, ...]
    seed: int
    house_rules: HouseRules
    _log: list[Action]
    _actors: list[int]
    """The seat that made each action of :attr:`_log` (:meth:`actors`), noted as it is
    applied."""
    _taken_back: ClassVar[Words] = lazy("an action")
    """What undo would take back, for its refusal ("a token placed", "a card played")."""
    _rules_version: int | None = None
    """The rules version played, where a game is played by an older one than its type's."""
    _memo_table: dict[str, Any] | None = None
    """What :attr:`memos` keeps (made on first use)."""

    def _begin(
        self,
        kind: GameType,
        players: Sequence[str] | int,
        *,
        seed: int | None,
        house_rules: HouseRules | None,
    ) -> None:
        """Set what every game holds (its type, seats, seed, house rules, an empty log),
        refusing a number of seats ``kind`` is not played by."""
        self.game_type = kind
        self.players = seat_names(players)
        low, high = kind.min_players, kind.max_players
        if not low <= len(self.players) <= high:
            raise ValueError(
                lazy(
                    "{game} is for {low} to {high} players, not {count}",
                    game=kind.title_text,
                    low=low,
                    high=high,
                    count=len(self.players),
                )
            )
        self.seed = secrets.randbits(63) if seed is None else seed
        self.house_rules = house_rules or HouseRules()
        self._log = []
        self._actors = []

    def _checked_version(self, version: int | None) -> int | None:
        """``version`` (None: the game type's own), refused if the game has no such
        rules version."""
        kind = self.game_type
        if version is not None and not 1 <= version <= kind.version:
            raise ValueError(
                lazy(
                    "{game} has rules versions 1 to {current}, not {version}",
                    game=kind.title_text,
                    current=kind.version,
                    version=version,
                )
            )
        return version

    # -- playing: the engine decides who may act --------------------------------------

    def play(self, seat: int, action: Action | str) -> Action:
        """``seat`` plays ``action`` (or its notation), as a front end asks: refused with
        :class:`ActionRefused` when the game is over, the seat has left, the action is
        one no seat plays (leave, abort, shake), a challenge the seat may not make (C12)
        or it is another seat's turn; with :class:`~.errors.IllegalMove` when the rules
        refuse the action itself. Returns the action applied (a challenge names its
        challenger). Nothing changes on a refusal."""
        checked = self._checked_play(seat, self._parsed(action))
        self.apply(checked)
        return checked

    def _checked_play(self, seat: int, action: Action) -> Action:
        """The action ``seat`` plays, as the game will apply it (a challenge names its
        challenger, C12), once every check of who may act passes; raises
        :class:`ActionRefused` otherwise. The game is not changed."""
        if not 0 <= seat < len(self.players):
            raise ValueError(lazy("seat {seat} is not in this game", seat=seat))
        if self.is_over:
            if why := self.end_text:
                raise ActionRefused(lazy("the game is over: {reason}", reason=why), kind="over")
            raise ActionRefused(lazy("the game is over"), kind="over")
        if isinstance(action, Leave | Abort | Shake):  # resign, abort, claim, flags; undo (O5)
            raise ActionRefused(
                lazy("{action}: not an action to play here", action=action.kind),
                kind="not_playable",
            )
        if self.left[seat]:
            raise ActionRefused(
                lazy("you have left the game: play goes on without you"), kind="left"
            )
        if isinstance(action, Challenge):
            return self._challenge_by(seat)
        if seat != self.to_move:
            raise ActionRefused(
                lazy("it is {name}'s turn, not yours", name=self.players[self.to_move]),
                kind="turn",
            )
        return action

    def _challenge_by(self, seat: int) -> Challenge:
        """C12: any opponent of the player who made the turn may challenge it until the
        next player acts, whoever is to move (a game-ending turn waits for it); the player
        who made it may not. Raises :class:`ActionRefused` (``challenge``) saying why not."""
        if "challenge" in self.available(seat):
            return Challenge(by=seat)
        if not self.house_rules.table_referee:
            reason = lazy("there are no challenges without the table-referee house rule (C12)")
        else:
            summaries = self.summaries()
            if summaries and summaries[-1].seat == seat:
                reason = lazy("you made that turn: only your opponents may challenge it (C12)")
            else:
                reason = lazy(
                    "nothing to challenge: a challenge comes before the next player acts (C12)"
                )
        raise ActionRefused(reason, kind="challenge")

    def apply(self, action: Action | str) -> None:
        """Play an action (or its notation) whoever makes it; IllegalMove leaves the game
        unchanged. Leaving, aborting and shakes are checked here (L1, O5); the family's
        :meth:`_step` checks and plays the rest; the log records it, with who made it (a
        leaving or aborting seat, a challenge's named challenger, else the seat to move:
        noted before the step moves the turn on)."""
        action = self._parsed(action)
        if isinstance(action, Place):  # the common action first: not one of the below
            actor = self.to_move
        elif isinstance(action, (Leave, Abort)):  # a tuple: ``|`` made a union each time
            self._leaving().check(action, self.players, over=self.is_over, started=self.started)
            actor = action.seat
        elif isinstance(action, Shake):
            self._check_shake(action)
            actor = self.to_move
        elif isinstance(action, Challenge) and action.by is not None:
            actor = action.by
        else:
            actor = self.to_move
        self._step(action)
        self._log.append(action)
        self._actors.append(actor)

    def actors(self) -> tuple[int, ...]:
        """The seat that made each action of the log (a challenge: its challenger when
        named; a seat leaving or aborting: that seat; else the seat to move), noted as
        each was applied (views ask after every action: no replay)."""
        return tuple(self._actors)

    def undo_steps(self, seat: int | None, computers: Collection[int] = ()) -> int:
        """How many actions an undo by ``seat`` takes back now (its own last action and
        the replies of the seats in ``computers`` after it); raises
        :class:`ActionRefused` (``undo``) saying why it may not (V-B, L1, O5). Play it
        with :meth:`undo` that many times, the last with a shake (O5)."""
        found = undo_refusal(self, seat, computers)
        if isinstance(found, int):
            return found
        raise ActionRefused(found, kind="undo")

    def can_undo(self, seat: int | None, computers: Collection[int] = ()) -> bool:
        """Whether ``seat`` may undo now (:meth:`undo_steps` would not refuse)."""
        return isinstance(undo_refusal(self, seat, computers), int)

    def available(self, seat: int | None) -> tuple[str, ...]:
        """The action keywords ``seat`` may use now (its view's ``available``); families
        answer it cheaply, without building a view."""
        return self.view(seat, explained=False).available

    def own_view_dict(self, seat: int) -> dict[str, Any]:
        """``view(seat).own_dict()``: the keys of the seat's JSON view that another
        seat's view of the same state may not share (:attr:`View.OWN_KEYS`). A server
        puts them into the view it shares among the seats, once per seat and action;
        families answer it without building a whole view."""
        return self.view(seat, explained=False).own_dict()

    def score_sheet(self) -> str:
        """The game as a paper score sheet, for games whose type has them
        (:attr:`GameType.sheets`); ValueError otherwise."""
        sheets = self.game_type.sheets
        if sheets is None:
            raise ValueError(lazy("{game} has no score sheets", game=self.game_type.title_text))
        return sheets.write(self)

    # -- the rules: every game supplies these -----------------------------------------

    @abstractmethod
    def _step(self, action: Action) -> None:
        """The family's own rules: check ``action`` and play it on the state, or raise
        IllegalMove having changed nothing. Leaving, aborting and shakes come checked;
        the log is kept by :meth:`apply`."""

    @abstractmethod
    def _reset(self) -> None:
        """Go back to the state before any action (the log is handled here)."""

    @abstractmethod
    def fresh(self) -> Self:
        """The same game before any action: players, seed, house rules and setup."""

    @abstractmethod
    def legal_actions(self, *, exchanges: bool = True) -> list[Action]:
        """Every action that would be accepted now (placements first). ``exchanges=False``
        leaves the exchanges out: a choice of tokens (127 for a rack of 7) that a view
        does not list, made after every action for the seat to move."""

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
        key = f"explained summaries {current_language()}"
        kept: tuple[list[TurnSummary], list[TurnSummary]] | None = self.memos.get(key)
        if (
            kept is None
            or len(kept[0]) > len(summaries)
            or not all(map(operator.is_, kept[0], summaries))  # (in C: per action)
        ):
            kept = self.memos[key] = ([], [])
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

    # -- kept from one call to the next -------------------------------------------------

    @property
    def memos(self) -> dict[str, Any]:
        """What is derived from this game object and kept with it, by name: the game's own
        derivations, and what a follower of the game keeps (the computers' reasons,
        :mod:`mathable.ai.turnreasons`). It goes when the game does, and a game read
        afresh from its record starts without it. A table on the game rather than a weak
        dictionary beside it: the compiled game takes no weak references. Made on first
        use, so a family's ``__init__`` need not call this class's."""
        memos = self._memo_table
        if memos is None:
            memos = self._memo_table = {}
        return memos

    def _kept(self, name: str, source: object, make: Callable[[], _Kept]) -> _Kept:
        """The value called ``name`` derived from ``source`` (the log, the state), kept
        while ``source`` is still the same object, else made afresh by ``make``. Views
        ask after every action; the log and a family's state only grow in place or are
        replaced whole (an undo replays, a challenge cuts a turn), so a value kept
        with its source is extended, never recomputed (a view stays one turn's work)."""
        kept = self.memos.get(name)
        if kept is None or kept[0] is not source:
            kept = self.memos[name] = (source, make())
        value: _Kept = kept[1]
        return value

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
        last = taken_back(self._log)
        kept = [*self._log[:last], *self._log[last + 1 :]]
        self._rebuild(kept if shake is None else [*kept, Shake(shake)])

    def _rebuild(self, log: Sequence[Action]) -> None:
        self._log = []
        self._actors = []
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
        return self._leaving().departures

    def _leaving(self) -> Departures:
        """Who left and whether the game was aborted, read from the log once and kept
        (:meth:`_kept`): a view asks many times on every action, and scanning the whole
        log each time made a game's views quadratic in its length (issue 16's
        self-play)."""
        seats = len(self.players)
        return self._kept("leaving", self._log, lambda: Departures(seats)).read_up(self._log)

    @property
    def left(self) -> tuple[str, ...]:
        """Per seat, why it left (``resign``, ``flag``, ``claim``), "" for a seat still in."""
        return self._leaving().left

    @property
    def seats_in(self) -> tuple[int, ...]:
        """The seats still in the game (every seat, unless some left)."""
        return self._leaving().seats_in

    @property
    def aborted(self) -> bool:
        """Whether the game was called off (:class:`~.actions.Abort`)."""
        return self._leaving().aborted

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
        may only be aborted (ruling O4: no resignation, no claim, nothing rated). Kept
        while the log is as long (a view asks several times); once true, kept while the
        log grows in place (a finished turn stays finished, and seats only leave)."""
        log = self._log
        known: list[Any] = self._kept("started", log, lambda: [-1, False])
        if known[0] != len(log) and not known[1]:
            moved = {summary.seat for summary in self.summaries()}
            known[:] = [len(log), all(s in moved for s in self.seats_in)]
        return bool(known[1])

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
        only the log's last action can have ended it so, and a view asks after every one."""
        last = self._log[-1] if self._log else None
        if type(last) is not Abort and type(last) is not Leave:  # final: no isinstance
            return ""  # failed twice after every action (issue 35)
        return self._leaving().ending(self.players, last)

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
        return self._leaving().ranks(self.scores) if self.is_over else ()

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.name} {len(self.players)} players "
            f"seed={self.seed} actions={len(self._log)}>"
        )
