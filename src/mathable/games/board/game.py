"""A game of a board variant: a seed plus an event log, with its state derived by replay.

:class:`Game` validates each action before anything changes (an illegal one raises
:class:`~mathable.engine.errors.IllegalMove` and leaves the game as it was), records it
in the log and applies it. Rebuilding a game from its seed and log gives the same
state, so saved games, undo, challenges and crash recovery all replay the log.

>>> game = BoardGame("classic", ["Ann", "Bob"], seed=1)
>>> len(game.rack(game.to_move)), game.bag_size
(7, 92)
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, cast

from mypy_extensions import mypyc_attr

from mathable.engine.actions import (
    Accept,
    Action,
    Challenge,
    Decline,
    EndGame,
    EndTurn,
    Exchange,
    Leave,
    Pass,
    Place,
    Shake,
)
from mathable.engine.errors import IllegalMove
from mathable.engine.explain import Explanation
from mathable.engine.notation import Position, format_turn
from mathable.engine.protocol import Game, GameType, HouseRules, TurnSummary, Words, seat_names
from mathable.engine.validation import check_new_game
from mathable.engine.view import View, own_fields
from mathable.i18n import Text, lazy, lazy_plural
from mathable.i18n import current as current_language

from .board import Board
from .geometry import Grid
from .placements import LegalPlacements, explain_on_board
from .setup import setup_from_dict
from .state import BoardState, _Question
from .transcript import BoardSheets
from .turns import PlacedToken, Setup, TurnRecord
from .variants import Variant, get_variant, square_target
from .view import BoardView

__all__ = ["BoardGame", "LegalPlacements", "explain_on_board", "game_type_of"]

_GAME_TYPES: dict[int, tuple[Variant, GameType]] = {}
"""Built game types by the identity of their variant (variants hold dicts: unhashable)."""


def _turn_status(points: int) -> Text:
    return lazy_plural("this turn: {count} point", "this turn: {count} points", points)


def _status(
    names: Sequence[str],
    to_move: int,
    over: bool,
    question: _Question | None,
    declined_by: int | None,
    placing: bool,
    points: int,
) -> Words:
    """A board game's status line (:meth:`BoardGame.status`), from what it depends on: a
    view made without it makes it from these when first read (:func:`_made_later`)."""
    if question is not None:
        asker, asked = names[question.seat], names[to_move]
        if question.kind == "stop":
            return lazy(
                "{asker} proposes to stop the game: {asked}, accept or decline?",
                asker=asker,
                asked=asked,
            )
        if question.reason:
            return lazy(
                "{asker}'s turn may be challenged before the game ends: {asked}, "
                "challenge or accept?",
                asker=asker,
                asked=asked,
            )
        return lazy(
            "{asker}'s turn may be challenged before {asker} plays again: {asked}, "
            "challenge or accept?",
            asker=asker,
            asked=asked,
        )
    if over:
        return ""
    if declined_by is not None and not placing:
        return lazy(
            "{name} declined to stop: {player} plays on",
            name=names[declined_by],
            player=names[to_move],
        )
    return _turn_status(points) if placing else ""


def _turn_summary(turn: TurnRecord, grid: Grid) -> TurnSummary:
    """A finished turn in words: its placements (or pass, exchange), points and notes."""
    if turn.kind == "place":
        text = format_turn(turn.placements, grid)
    elif turn.kind == "exchange":
        text = f"exchange {turn.exchanged}"
    else:
        text = turn.kind
    notes: list[Words] = []
    if turn.bonus:
        # TRANSLATORS: a turn's note: the points for placing a whole rack (C9)
        notes.append(lazy("bonus {points}", points=turn.bonus))
    if turn.challenged:
        notes.append(lazy("cut short by a challenge"))
    return TurnSummary(turn.seat, text or turn.kind, turn.points, tuple(notes), no_fit=turn.no_fit)


_Kept = tuple[list[TurnSummary], Grid, "_Question | None", "int | None"]
"""What a view made without its summaries and status line keeps to make them (the
game's list of written turns, the board's grid, the question put, who declined)."""


def _made_later(view: View, name: str, kept: _Kept) -> Any:
    """A field of :attr:`BoardView.LATER` of ``view``, made when first read
    (:meth:`View.of`): the finished turns in words, those the game had written by then
    taken from it (its list only grows), the others written here and not kept, as this
    may run on any thread; or the status line."""
    board_view = cast(BoardView, view)
    written, grid, question, declined_by = kept
    if name == "summaries":
        turns = board_view.turns
        done = written[: len(turns)]
        return (*done, *(_turn_summary(turn, grid) for turn in turns[len(done) :]))
    return _status(
        board_view.players,
        board_view.to_move,
        board_view.over,
        question,
        declined_by,
        bool(board_view.turn_placements),
        board_view.turn_points,
    )


def game_type_of(variant: Variant) -> GameType:
    """The variant's metadata and capabilities (built once per variant)."""
    found = _GAME_TYPES.get(id(variant))
    if found is not None and found[0] is variant:
        return found[1]
    layout = variant.layout
    grid = layout.grid
    actions = {"place", "challenge", "accept"}  # C12 on every board: challenge or accept
    if variant.extra_draw:
        actions.add("extra")
    if variant.partial_turns:
        actions.add("end")
    if variant.pass_and_exchange:
        actions |= {"pass", "exchange"}
    if variant.agreed_end:
        actions |= {"stop", "decline"}  # J4: a proposal, accepted or declined

    def create(
        players: Sequence[str] | int,
        *,
        seed: object = None,
        house_rules: HouseRules | None = None,
        options: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
        version: int | None = None,
    ) -> BoardGame:
        # ``seed`` may be anything a caller was given: compiled, a narrower type would be
        # checked on the way in (a TypeError), before the field could be named
        check_new_game(built, players, seed_value=seed, house_rules=house_rules, options=options)
        seats = len(seat_names(players))
        start = None if setup is None else setup_from_dict(setup, variant, seats)
        return BoardGame(
            variant,
            players,
            seed=cast(int | None, seed),  # checked above
            house_rules=house_rules,
            setup=start,
            version=version,
        )

    built = GameType(
        name=variant.name,
        title_text=variant.title,
        summary_text=variant.summary,
        version=variant.version,
        min_players=variant.min_players,
        max_players=variant.max_players,
        rack_size=variant.rack_size,
        piece=variant.piece,
        surface="board",
        columns=layout.size,
        targets=tuple(square_target(grid.name(c), sq) for c, sq in enumerate(layout.squares)),
        actions=frozenset(actions),
        house_rules=variant.house_rules_offered(),
        open_racks=variant.open_racks,
        score_sheets=True,
        sheets=BoardSheets(variant),
        bonus=variant.bonus,
        deducts_rack=variant.deduct_rack_at_end,
        rules_text=variant.rules,
        create=create,
    )
    _GAME_TYPES[id(variant)] = (variant, built)
    return built


@mypyc_attr(allow_interpreted_subclasses=True)  # tests' games with other rules
class BoardGame(Game):
    """A game of a board variant: players, seed, house rules and the log of actions."""

    _taken_back: ClassVar[Words] = lazy("a token placed")

    def __init__(
        self,
        variant: str | Variant = "classic",
        players: Sequence[str] | int = 2,
        *,
        seed: int | None = None,
        house_rules: HouseRules | None = None,
        setup: Setup | None = None,
        version: int | None = None,
    ) -> None:
        """``version``: the rules version to play by (a record's ``variant_version``;
        the variant's own by default). Versions 1 and 2 play alike: a record of version 1
        replays with its answers written out (:func:`~mathable.engine.records.replay_record`),
        as version 2 writes them."""
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        self._begin(game_type_of(self.variant), players, seed=seed, house_rules=house_rules)
        self.setup = setup
        played = self._checked_version(version)
        self._rules_version = self.variant.version if played is None else max(played, 2)
        self._state = self._fresh_state()

    def _fresh_state(self) -> BoardState:
        return BoardState(
            self.variant,
            len(self.players),
            self.seed,
            self.house_rules,
            self.setup,
            self.rules_version,
        )

    # -- playing -----------------------------------------------------------------

    def _step(self, action: Action) -> None:
        """The board's rules (leaving, aborting and shakes come checked): a challenge
        replays the game with the challenged turn cut (C12); the rest is the state's."""
        if isinstance(action, Place):  # the common action first (issue 35)
            self._state.step(action)
        elif isinstance(action, Challenge):
            self._state = self._challenged_state(action)
        elif isinstance(action, EndTurn) and action.challenged:
            raise IllegalMove(lazy("a turn is cut short only by a challenge"), rule="C12")
        else:
            self._state.step(action)

    def _challenged_state(self, challenge: Challenge) -> BoardState:
        """C12: replay the game with the challenged turn cut at its first mistake. Only
        an opponent of the player who made the turn may challenge it."""
        state = self._state
        if not self.house_rules.table_referee:
            raise IllegalMove(lazy("challenges need the table-referee house rule"), rule="C12")
        if state.over:
            raise IllegalMove(lazy("the game is over"), rule="C11")
        if state.challengeable is None:
            raise IllegalMove(
                lazy("only the turn just ended can be challenged, before the next player moves"),
                rule="C12",
            )
        turn, _ = state.challengeable
        by = state.to_move if challenge.by is None else challenge.by
        if not 0 <= by < len(self.players):
            raise IllegalMove(
                lazy("there is no seat {seat} in this game to challenge", seat=by), rule="C12"
            )
        if state.out[by]:
            raise IllegalMove(lazy("{name} has left the game", name=self.players[by]), rule="L1")
        if by == turn.seat:
            raise IllegalMove(
                lazy(
                    "{name} made that turn: only an opponent may challenge it",
                    name=self.players[by],
                ),
                rule="C12",
            )
        if turn.first_mistake is None:
            raise IllegalMove(
                lazy("every placement of the last turn was legal: the challenge fails"),
                rule="C12",
            )
        keep = state.effective[: turn.first_mistake]
        # seats that left stay gone (L1), the bag shaken stays shaken (O5): those that
        # left during the turn leave before the cut, those that left after it (O3: the
        # challenge stayed open to the others) after it
        ended = len(state.effective) if turn.ended_at is None else turn.ended_at
        during: list[Action] = []
        after: list[Action] = []
        for index in range(turn.first_mistake, len(state.effective)):
            past = state.effective[index]
            if isinstance(past, Shake) or (isinstance(past, Leave) and index < ended):
                during.append(past)
            elif isinstance(past, Leave):
                after.append(past)
        fresh = self._fresh_state()
        for past in [*keep, *during]:
            fresh.step(past)
        if not fresh.out[turn.seat]:  # a maker who left in the turn ended it by leaving
            fresh.step(EndTurn(challenged=True))
        for past in after:
            fresh.step(past)
        return fresh

    def _reset(self) -> None:
        self._state = self._fresh_state()

    def fresh(self) -> BoardGame:
        """The same game before any action."""
        return BoardGame(
            self.variant,
            self.players,
            seed=self.seed,
            house_rules=self.house_rules,
            setup=self.setup,
            version=self.rules_version,
        )

    @property
    def cell_names(self) -> Grid:
        """Cells are named on the board's grid (``G7``)."""
        return self._state.board.grid

    def record_fields(self) -> dict[str, Any]:
        """An explicit setup, when the game has one."""
        if self.setup is None:
            return {}
        return {
            "setup": {
                "racks": [list(r) for r in self.setup.racks],
                "bag": list(self.setup.bag),
                "to_move": self.setup.to_move,
            }
        }

    # -- legal moves ---------------------------------------------------------------

    def legal_placements(self) -> LegalPlacements:
        """The placements the player to move may make now, as a lazy view."""
        return LegalPlacements(
            self._state, self.variant, self.house_rules.strict, self.offers_extra_token
        )

    def legal_actions(self, *, exchanges: bool = True) -> list[Action]:
        """Every action that would be accepted now (placements first); the exchanges
        last, and only with ``exchanges``."""
        state = self._state
        if state.over:
            return []
        actions: list[Action] = []
        if state.challengeable is not None and state.challengeable[0].first_mistake is not None:
            actions.append(Challenge())  # by the player to move, an opponent (C12)
        question = state.question
        if question is not None:  # J4: answer the proposal; C12: challenge or let it stand
            return [Decline(), Accept()] if question.kind == "stop" else [*actions, Accept()]
        actions.extend(self.legal_placements().with_extras())
        if state.turn.placements:
            if self.variant.partial_turns:
                actions.append(EndTurn())
            return actions
        if not self.variant.pass_and_exchange:
            return actions
        actions.append(Pass())
        if self.variant.agreed_end and state.turn.declined_by is None and state.may_propose_stop():
            actions.append(EndGame())
        if not exchanges:
            return actions
        rack = sorted(self.rack(self.to_move))
        for k in range(1, min(len(rack), len(state.bag)) + 1):
            for combo in sorted(set(itertools.combinations(rack, k))):
                actions.append(Exchange(combo))
        return actions

    # -- state ---------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The board (do not mutate it; use ``board.copy()`` for search)."""
        return self._state.board

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return self._state.to_move

    @property
    def scores(self) -> tuple[int, ...]:
        """Points per seat (after the end-of-game deduction once the game is over)."""
        return tuple(self._state.scores)

    @property
    def bag_size(self) -> int:
        """Tokens left in the bag."""
        return len(self._state.bag)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (C11)."""
        return self._state.over

    @property
    def end_text(self) -> Words:
        """Why the game ended, in words ('' while it runs), as a lazy text."""
        return self._meta_end_reason() or self._state.end_reason

    @property
    def deductions(self) -> tuple[int, ...]:
        """What each seat lost at the end for tokens left on the rack (C11)."""
        return tuple(self._state.deductions)

    @property
    def turns(self) -> tuple[TurnRecord, ...]:
        """Finished turns, oldest first."""
        return tuple(self._state.turns)

    @property
    def turn_placements(self) -> tuple[PlacedToken, ...]:
        """Tokens placed so far in the turn being played."""
        return tuple(self._state.turn.placements)

    @property
    def turn_points(self) -> int:
        """Points scored so far in the turn being played."""
        return self._state.turn.points

    @property
    def start_draws(self) -> tuple[tuple[int, int], ...]:
        """The tokens drawn face up to choose who starts, as (seat, value) (C10)."""
        return tuple(self._state.start_draws)

    @property
    def can_challenge(self) -> bool:
        """Whether the turn just ended may still be challenged (C12)."""
        return self._state.challengeable is not None

    def rack(self, seat: int) -> tuple[int, ...]:
        """The tokens on a seat's rack, sorted. Hidden information: front ends show it
        only to that seat (use :meth:`view`)."""
        return tuple(self._state.racks[seat])

    def bag_order(self) -> tuple[int, ...]:
        """The bag in draw order. Hidden from every player; for tests and analysis."""
        return tuple(reversed(self._state.bag))

    def census(self) -> Counter[int]:
        """Every token of the set wherever it is (bag, racks, board): for conservation
        checks, it always equals the variant's token set."""
        state = self._state
        counts = Counter(state.bag)
        for rack in state.racks:
            counts.update(rack)
        counts.update(state.placed_tokens())
        return counts

    def snapshot(self) -> tuple[object, ...]:
        """The whole state, hidden parts included, as comparable data (for tests of undo
        and replay: two games with equal snapshots will behave the same)."""
        state = self._state
        return (
            tuple(state.board.values),
            tuple(map(tuple, state.racks)),
            tuple(state.bag),
            tuple(state.scores),
            state.to_move,
            tuple(state.turn.placements),
            tuple(state.turns),
            state.idle_turns,
            tuple(state.idle_seats),
            state.over,
            state.rng.state,
            state.challengeable is not None,
            None if state.question is None else state.question.key(),
            state.turn.declined_by,
            tuple(state.out),
        )

    def unseen(self, seat: int | None) -> dict[int, int]:
        """C13, the player card: tokens of each value not seen by ``seat`` (bag plus the
        other racks, unless they lie face up, as every rack does once the game is over;
        for a spectator, everything not on the board or face up)."""
        state = self._state
        counts = state.unplaced.copy()  # every value, smallest first
        if self.variant.open_racks or self.is_over:  # face-up tiles are seen by everyone
            for rack in state.racks:
                for value in rack:
                    counts[value] -= 1
        elif seat is not None:
            for value in state.racks[seat]:
                counts[value] -= 1
        return counts

    def position(self, seat: int | None = None) -> Position:
        """The one-line position as ``seat`` sees it (other racks shown by size only)."""
        shown = self.is_over or self.variant.open_racks
        racks: list[tuple[int, ...] | int] = [
            self.rack(s) if s == seat or shown else len(self.rack(s))
            for s in range(len(self.players))
        ]
        board = tuple(sorted(self.board.placed().items()))
        return Position(
            self.variant.name, board, tuple(racks), self.scores, self.bag_size, self.to_move
        )

    def view(self, seat: int | None, *, explained: bool = True) -> BoardView:
        """What ``seat`` may know (``None``: a spectator). Only views leave a server."""
        if seat is not None and not 0 <= seat < len(self.players):
            raise ValueError(lazy("seat {seat} is not in this game", seat=seat))
        n = len(self.players)
        over = self.is_over
        state = self._state
        rack = self.rack(seat) if seat is not None else ()
        fields: dict[str, Any] = {
            "variant": self.variant.name,
            "seat": seat,
            "players": self.players,
            "rack": rack,
            "rack_sizes": tuple([len(held) for held in state.racks]),  # compiled: no map
            "scores": self.scores,
            "bag_size": self.bag_size,
            "to_move": self.to_move,
            "unseen": self.unseen(seat),
            "house_rules": dict(
                self._kept("house rules", self.house_rules, self.house_rules.to_dict)
            ),
            "over": over,
            "end_reason_text": self.end_text,
            "open_racks": (
                tuple(self.rack(s) for s in range(n)) if over or self.variant.open_racks else ()
            ),
            "surface": tuple(self.board.values),
            "playable": rack,
            "available": self.available(seat),
            "left": self.left,
            "turn_placements": self.turn_placements,
            "turn_points": self.turn_points,
            "turns": self.turns,
            "start_draws": self.start_draws,
            "can_challenge": self.can_challenge,
            "deductions": self.deductions,
        }
        if not explained:  # for a computer: its summaries and status made if read
            kept: _Kept = (state.summaries, self.board.grid, state.question, state.turn.declined_by)
            return BoardView.of(fields, (_made_later, kept))
        fields["summaries"] = self.explained_summaries()
        fields["status_text"] = self.status()
        return BoardView.of(fields)

    def own_view_dict(self, seat: int) -> dict[str, Any]:
        """The seat's own keys of its view (its rack, what it has not seen, what it may
        do), without the rest of :meth:`view`."""
        if not 0 <= seat < len(self.players):
            raise ValueError(lazy("seat {seat} is not in this game", seat=seat))
        rack = self.rack(seat)
        return own_fields(seat, rack, self.unseen(seat), rack, self.available(seat))

    def status(self) -> Words:
        """One line on the state, as a lazy text: the question the player to move must
        answer (J4, C12), a declined proposal, or the points of the turn under way."""
        state = self._state
        turn = state.turn
        return _status(
            self.players,
            state.to_move,
            state.over,
            state.question,
            turn.declined_by,
            bool(turn.placements),
            turn.points,
        )

    def available(self, seat: int | None) -> tuple[str, ...]:
        """The action keywords ``seat`` may use now, cheaply (no move generation)."""
        state, variant = self._state, self.variant
        if state.over or (seat is not None and state.out[seat]):
            return ()
        kinds: list[str] = []
        if (  # C12: only an opponent of the player who made the turn may challenge it
            seat is not None
            and state.challengeable is not None
            and state.challengeable[0].seat != seat
        ):
            kinds.append("challenge")
        question = state.question
        if question is not None:
            if seat != state.to_move:
                return tuple(kinds) if question.kind == "challenge" else ()
            return ("accept", "decline") if question.kind == "stop" else (*kinds, "accept")
        if seat != state.to_move:
            return tuple(kinds)
        rack = state.racks[seat]  # whether any fits: no placement listed (C8a)
        if rack and (self.house_rules.table_referee or variant.can_place(state.board, rack)):
            kinds.append("place")
            if variant.extra_draw and state.bag:
                kinds.append("extra")
        if state.turn.placements:
            if variant.partial_turns:
                kinds.append("end")
        elif variant.pass_and_exchange:
            kinds.append("pass")
            if state.bag:
                kinds.append("exchange")
        if (
            variant.agreed_end
            and not state.turn.placements
            and state.turn.declined_by is None
            and state.may_propose_stop()
        ):
            kinds.append("stop")
        return tuple(kinds)

    def summaries(self) -> tuple[TurnSummary, ...]:
        """Every finished turn in words: its placements (or pass, exchange) and points.
        Written once per turn (views are built after every action)."""
        grid, written = self.board.grid, self._state.summaries
        for turn in self._state.turns[len(written) :]:
            written.append(_turn_summary(turn, grid))
        return tuple(written)

    def explain(self, action: Place) -> Explanation:
        """Explain placing ``action.value`` on ``action.cell`` now (issue 18; the value
        need not be on the rack; nothing changes)."""
        return explain_on_board(
            self.variant, self.board, action.cell, action.value, self.house_rules.strict
        )

    def explain_turns(self) -> tuple[tuple[Explanation, ...], ...]:
        """Per finished turn, its placements explained as the board stood then: the
        turns' tokens replayed on a fresh board, kept from one call to the next while
        the state only grows (views ask after every action), one board per language."""
        state = self._state

        def start() -> tuple[Board, list[tuple[Explanation, ...]]]:
            return self.variant.new_board(), []

        board, done = self._kept(f"explained {current_language()}", state, start)
        strict = self.house_rules.strict
        for turn in state.turns[len(done) :]:
            explained = []
            for placed in turn.placements:
                explained.append(
                    explain_on_board(self.variant, board, placed.cell, placed.value, strict)
                )
                board.place(placed.cell, placed.value)
            done.append(tuple(explained))
        return tuple(done)

    def offers_extra_token(self, cell: int) -> bool:
        """C7: whether a token placed on ``cell`` now may take the extra token."""
        return self.variant.extra_token_refusal(cell, self.bag_size) is None
