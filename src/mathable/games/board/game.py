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
import secrets
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from mathable.engine.actions import (
    Abort,
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
from mathable.engine.explain import Explanation, equation
from mathable.engine.notation import Position, format_turn
from mathable.engine.protocol import Game, GameType, HouseRules, TurnSummary, Words, seat_names
from mathable.engine.rng import Rng
from mathable.engine.tokens import as_list, pieces_text
from mathable.engine.validation import check_new_game
from mathable.i18n import Text, lazy, lazy_plural
from mathable.i18n import current as current_language

from .board import EMPTY, Board
from .geometry import Grid
from .setup import setup_from_dict
from .turns import PlacedToken, Setup, TurnRecord
from .variants import Variant, already_holds, get_variant, square_target
from .view import BoardView


@dataclass
class _Turn:
    """The turn being played."""

    seat: int
    started_with: int
    placements: list[PlacedToken] = field(default_factory=list)
    points: int = 0
    first_mistake: int | None = None
    """C12: where the turn's first mistake stands in the effective log, if it has one."""
    declined_by: int | None = None
    """J4: the seat that declined this turn's proposal to stop (one proposal a turn)."""
    ended_at: int | None = None
    """Where the turn ended in the effective log (C12: a challenge replays the seats that
    left before that point inside the turn, those that left after it after the cut)."""


@dataclass
class _Question:
    """A question the player to move answers before play goes on.

    ``stop`` (J4): ``seat`` proposed to stop; ``waiting`` are the seats still to answer,
    the one to move first. ``challenge`` (C12): ``seat``'s turn may still be challenged
    before the game ends (``reason``, the end reason if it stands) or, when the others
    sit out (K3), before ``seat`` plays again (``reason`` empty).
    """

    kind: str
    seat: int
    waiting: list[int] = field(default_factory=list)
    reason: Words = ""

    def key(self) -> tuple[object, ...]:
        """As comparable data (snapshots)."""
        return (self.kind, self.seat, tuple(self.waiting), self.reason)


RIGHTS_KEPT = 3
"""The rules version from which a seat leaving closes no one else's right (ruling O3: an
open challenge stays open to the opponents still in, a mistake found after its maker left
still loses its points) and the rounds of C11c count the seats still in (issue 31)."""
STOP_ON_EMPTY_POT = 3
"""The rules version from which a stop (J4) is proposed only once the pot is empty."""


class _State:
    """The mutable state of a game; only :class:`Game` drives it."""

    def __init__(
        self,
        variant: Variant,
        players: int,
        seed: int,
        house: HouseRules,
        setup: Setup | None,
        version: int,
    ) -> None:
        self.variant = variant
        self.version = version
        """The rules version played (older records replay by the rules they were played by)."""
        self.house = house
        self.n = players
        self.rng = Rng(seed)
        self.board: Board = variant.new_board()
        self.start_cells = frozenset(variant.layout.start_cells())
        self.printed = [self.board.values[c] for c in sorted(self.start_cells)]
        """The tokens printed on the board (never from the bag)."""
        self.placed_counts: dict[int, int] = {}
        """How many tokens of each value players have placed on the board (the printed
        ones aside): views count the unseen tokens from it, not by scanning the board."""
        self.scores = [0] * players
        self.deductions = [0] * players
        self.racks: list[list[int]] = [[] for _ in range(players)]
        self.turns: list[TurnRecord] = []
        self.effective: list[Action] = []
        self.idle_turns = 0
        self.idle_seats: list[int] = []
        """C11c: the seats of the turns since the last placement, in order."""
        self.over = False
        self.end_reason: Words = ""
        self.challengeable: tuple[_Turn, int] | None = None
        self.question: _Question | None = None
        self.start_draws: list[tuple[int, int]] = []
        self.summaries: list[TurnSummary] = []
        """The finished turns in words, written once each (see BoardGame.summaries)."""
        self.out = [False] * players
        """Local ruling L1: the seats that left the game (turn order skips them)."""
        if setup is not None:
            if len(setup.racks) != players:
                raise ValueError(
                    lazy(
                        "the setup has {count} racks for {players} players",
                        count=len(setup.racks),
                        players=players,
                    )
                )
            self.bag = list(reversed(setup.bag))
            self.racks = [sorted(r) for r in setup.racks]
            starter = setup.to_move
        else:
            self.bag = self.rng.shuffled(as_list(variant.tokens))
            starter = self._draw_for_start() if variant.start_by_draw else 0
            for k in range(players):
                self._refill((starter + k) % players)
        self.to_move = starter
        self.turn = _Turn(starter, len(self.racks[starter]))

    def _draw_for_start(self) -> int:
        """C10: everyone draws one token, the highest starts, ties draw again."""
        contenders = list(range(self.n))
        while True:
            drawn = {}
            for seat in contenders:
                drawn[seat] = value = self.bag.pop()
                self.racks[seat].append(value)
                self.start_draws.append((seat, value))
            best = max(drawn.values())
            contenders = [s for s in contenders if drawn[s] == best]
            if len(contenders) == 1:
                return contenders[0]

    def _refill(self, seat: int) -> None:
        rack = self.racks[seat]
        while len(rack) < self.variant.rack_size and self.bag:
            rack.append(self.bag.pop())
        rack.sort()

    # -- actions -------------------------------------------------------------------

    def step(self, action: Action) -> None:
        """Validate then apply ``action`` (a Challenge is handled by Game; a Leave or an
        Abort is checked by Game first)."""
        if isinstance(action, Challenge):
            raise TypeError("challenges are replayed by Game")
        if self.over:
            raise IllegalMove(lazy("the game is over"), rule="C11")
        if isinstance(action, Leave):
            self._leave(action)
        elif isinstance(action, Shake):
            self._shake(action)
        elif isinstance(action, Abort):
            self.effective.append(action)
            self.challengeable, self.question = None, None
            self.over = True
        elif self.question is not None:
            self._answer(action, self.question)
        elif isinstance(action, Accept):
            raise IllegalMove(
                lazy("there is nothing to accept: nobody has proposed to stop the game"),
                rule="J4",
            )
        elif isinstance(action, Decline):
            raise IllegalMove(
                lazy("there is nothing to decline: nobody has proposed to stop the game"),
                rule="J4",
            )
        elif isinstance(action, Place):
            self._place(action)
        elif isinstance(action, EndTurn):
            self._end_turn(action)
        elif isinstance(action, Exchange):
            self._exchange(action)
        elif isinstance(action, Pass):
            self._pass()
        elif isinstance(action, EndGame):
            self._propose_stop()
        else:
            raise IllegalMove(
                lazy("{game} has no action {action}", game=self.variant.title, action=repr(action))
            )

    def _shake(self, action: Shake) -> None:
        """Ruling O5: shake the bag after an undo. The generator is reseeded from its
        own next output mixed with the shake's entropy (the entropy alone tells nothing
        without the seed), then shuffles the bag; later exchanges draw on it too. Not a
        turn: nothing else changes. Kept in the effective log, so a challenge's replay
        (C12) shakes the bag as well."""
        self.rng = Rng(self.rng.next64() ^ action.entropy)
        self.rng.shuffle(self.bag)
        self.effective.append(action)

    def _place(self, action: Place) -> None:
        board, rack, grid = self.board, self.racks[self.to_move], self.board.grid
        cell, value = action.cell, action.value
        if not 0 <= cell < len(board.values):
            raise IllegalMove(lazy("cell {cell} is off the board", cell=cell), rule="C1")
        name = grid.name(cell)
        if not board.is_empty(cell):
            raise IllegalMove(already_holds(name, board.values[cell]), rule="C3", where=name)
        if value not in rack:
            raise IllegalMove(
                lazy("there is no {value} on your rack", value=value), rule="C8", where=name
            )
        variant, strict = self.variant, self.house.strict
        legal = variant.is_legal(board, cell, value, strict)
        if not legal and not self.house.table_referee:
            variant.check_placement(board, cell, value, strict)
        if action.extra:
            refusal = variant.extra_token_refusal(cell, len(self.bag))
            if refusal is not None:
                reason, rule = refusal
                raise IllegalMove(
                    lazy("{cell}: {reason}", cell=name, reason=reason), rule=rule, where=name
                )
        self.challengeable = None
        if legal:
            points = variant.placement_points(board, cell, value)
        else:  # C12: accepted provisionally, scored as the game scores the square
            points = variant.mistake_points(board, cell, value)
            if self.turn.first_mistake is None:
                self.turn.first_mistake = len(self.effective)
        rack.remove(value)
        board.place(cell, value)
        self.placed_counts[value] = self.placed_counts.get(value, 0) + 1
        if action.extra:
            rack.append(self.bag.pop())
            rack.sort()
        self.turn.placements.append(PlacedToken(cell, value, points, action.extra))
        self.turn.points += points
        self.effective.append(action)
        # C8a: the player can go no further. Under the table referee a player who may end
        # the turn early goes on while tokens are left (mistakes stand until challenged).
        free = self.house.table_referee and variant.partial_turns
        if not rack or (not free and not variant.can_place(board, rack)):
            self._finish_placing(challenged=False, no_fit=bool(rack))

    def _end_turn(self, action: EndTurn) -> None:
        if not self.variant.partial_turns and not action.challenged:  # C12 cuts any turn
            raise IllegalMove(lazy("you cannot end the turn early: place every tile"), rule="K2")
        if not self.turn.placements and not action.challenged:
            raise IllegalMove(
                lazy("place a token before ending the turn, or pass or exchange"), rule="C8"
            )
        self.challengeable = None
        self.effective.append(action)
        self._finish_placing(action.challenged)

    def _finish_placing(self, challenged: bool, no_fit: bool = False) -> None:
        turn, seat = self.turn, self.to_move
        bonus = self.variant.turn_bonus(turn.started_with, len(self.racks[seat]))
        self.scores[seat] += turn.points + bonus
        record = TurnRecord(
            seat,
            "place",
            tuple(turn.placements),
            turn.points + bonus,
            bonus,
            challenged=challenged,
            no_fit=no_fit,
        )
        self._refill(seat)
        emptied = not self.racks[seat] and not self.bag
        if self.house.table_referee and turn.placements and not challenged:
            turn.ended_at = len(self.effective)
            self.challengeable = (turn, len(self.turns))
        self._next_turn(record, placed=bool(turn.placements))
        if emptied and self.variant.ends_on_empty_rack and not self.over and self.question is None:
            self._end_game(lazy("the bag is empty and a player has placed every token"))

    def _exchange(self, action: Exchange) -> None:
        self._check_pass_and_exchange("exchange")
        self._check_turn_start("exchange")
        if not action.values:
            raise IllegalMove(lazy("choose at least one token to exchange"), rule="C8")
        missing = Counter(action.values) - Counter(self.racks[self.to_move])
        if missing:
            raise IllegalMove(
                lazy("there is no {value} on your rack to exchange", value=min(missing)),
                rule="C8",
            )
        if len(action.values) > len(self.bag):
            raise IllegalMove(
                lazy(
                    "the bag holds only {pieces}, fewer than the {count} to exchange",
                    pieces=pieces_text("token", len(self.bag)),
                    count=len(action.values),
                ),
                rule="C8",
            )
        self.challengeable = None
        rack = self.racks[self.to_move]
        drawn = [self.bag.pop() for _ in action.values]
        for value in action.values:
            rack.remove(value)
        rack.extend(drawn)
        rack.sort()
        self.bag.extend(action.values)
        self.rng.shuffle(self.bag)
        self.effective.append(action)
        self._next_turn(
            TurnRecord(self.to_move, "exchange", exchanged=len(action.values)), placed=False
        )

    def _pass(self) -> None:
        self._check_pass_and_exchange("pass")
        self._check_turn_start("pass")
        self.challengeable = None
        self.effective.append(Pass())
        self._next_turn(TurnRecord(self.to_move, "pass"), placed=False)

    def _propose_stop(self) -> None:
        """J4: propose to stop; every other player answers in turn, from the next seat."""
        if not self.variant.agreed_end:
            raise IllegalMove(
                lazy("{game} does not end by agreement", game=self.variant.title), rule="C11"
            )
        self._check_turn_start("stop")
        if not self.may_propose_stop():
            raise IllegalMove(
                lazy_plural(
                    "a stop is proposed once the pot is empty: {count} tile is left in it",
                    "a stop is proposed once the pot is empty: {count} tiles are left in it",
                    len(self.bag),
                ),
                rule="J4",
            )
        if self.turn.declined_by is not None:
            raise IllegalMove(
                lazy("your proposal to stop was declined this turn: play on (one proposal a turn)"),
                rule="J4",
            )
        self.challengeable = None
        self.effective.append(EndGame())
        seat = self.to_move
        others = self._after(seat)[:-1]
        self.question = _Question("stop", seat, others)
        self.to_move = others[0]

    def may_propose_stop(self) -> bool:
        """J4: whether the pot allows a proposal to stop now ("no more tiles in the pot?"
        stands before the three ends): once it is empty (any time before rules version
        :data:`STOP_ON_EMPTY_POT`)."""
        return not self.bag or self.version < STOP_ON_EMPTY_POT

    def in_play(self) -> list[int]:
        """The seats still in the game (L1)."""
        return [s for s in range(self.n) if not self.out[s]]

    def _after(self, seat: int) -> list[int]:
        """The seats still in after ``seat`` in turn order, ``seat`` itself last if in."""
        return [s for k in range(1, self.n + 1) if not self.out[s := (seat + k) % self.n]]

    def _leave(self, action: Leave) -> None:
        """Local ruling L1: the seat leaves. Its score is frozen and its rack leaves the
        game face down; on its turn the turn ends at once (its placements stay and score;
        no bonus, no refill) and the next seat still in moves; a proposal to stop drops
        the leaver's answer (or is withdrawn if the leaver made it). Fewer than two seats
        in: the game is over, nobody's rack counted.

        Ruling O3 (from :data:`RIGHTS_KEPT`): leaving closes no one else's right. A turn
        open to a challenge (C12) stays open to the opponents still in, the turn the
        leaver cut short included; a question the leaver was to answer passes to the next
        opponent still in; the leaver's idle turns no longer count in the rounds of C11c.
        Before it, leaving let an open turn stand unchallenged."""
        seat, turn = action.seat, self.turn
        keeps = self.version >= RIGHTS_KEPT
        self.out[seat] = True
        self.effective.append(action)
        if not keeps:
            self.challengeable = None
        question, self.question = self.question, None
        placed: bool | None = None  # a turn cut short by leaving is not an idle turn
        if question is None and self.to_move == seat and turn.placements:
            self.scores[seat] += turn.points
            self.turns.append(TurnRecord(seat, "place", tuple(turn.placements), turn.points))
            if keeps and self.house.table_referee:  # O3: its mistakes may still be found
                turn.ended_at = len(self.effective)
                self.challengeable = (turn, len(self.turns) - 1)
            self.turn, placed = _Turn(seat, len(self.racks[seat])), True
        if keeps:  # O3: the rounds of C11c count the seats still in
            self.idle_turns -= self.idle_seats.count(seat)
            self.idle_seats = [s for s in self.idle_seats if s != seat]
        if len(self.in_play()) < 2:
            self.over = True
            return
        if question is not None and question.kind == "stop" and seat != question.seat:
            if seat in question.waiting:
                question.waiting.remove(seat)
            if not question.waiting:
                self.to_move = question.seat
                self._end_game(lazy("the players agreed to stop"))
                return
            self.question, self.to_move = question, question.waiting[0]
            return
        if question is not None and question.kind == "stop":
            self.to_move = seat  # the proposal is withdrawn with its maker's turn
        elif question is not None and keeps:  # O3: the question stays open
            self.question = question
            if self.to_move == seat:  # the next opponent still in answers it
                self.to_move = next(s for s in self._after(seat) if s != question.seat)
                self.turn = _Turn(self.to_move, len(self.racks[self.to_move]))
            return
        elif question is not None:  # C12: the turn stands without a challenge
            if question.reason:
                self._end_game(question.reason)
                return
            self.to_move = question.seat  # K3: its maker plays again
            self.turn = _Turn(question.seat, len(self.racks[question.seat]))
        if self.to_move == seat:
            self._advance(placed)

    def _answer(self, action: Action, question: _Question) -> None:
        """The player to move answers the question (J4 proposal, C12 open turn)."""
        if question.kind == "stop":
            if isinstance(action, Accept):
                self.effective.append(action)
                question.waiting.pop(0)
                if question.waiting:
                    self.to_move = question.waiting[0]
                    return
                self.question, self.to_move = None, question.seat
                self._end_game(lazy("the players agreed to stop"))
            elif isinstance(action, Decline):
                self.effective.append(action)
                self.turn.declined_by = self.to_move
                self.question, self.to_move = None, question.seat  # the proposer plays on
            else:
                raise IllegalMove(
                    lazy("a proposal to stop is waiting for your answer: accept or decline"),
                    rule="J4",
                )
            return
        if not isinstance(action, Accept):
            raise IllegalMove(
                lazy("the last turn may still be challenged: challenge it or accept it"),
                rule="C12",
            )
        self.effective.append(action)
        self.question, self.challengeable = None, None
        if question.reason:
            self._end_game(question.reason)
        elif self.out[question.seat]:  # O3: its maker has left; the next seat in moves
            self.to_move = question.seat
            self._advance(None)
        else:  # K3: the others sit out; the player who made the turn plays again
            self.to_move = question.seat
            self.turn = _Turn(question.seat, len(self.racks[question.seat]))

    def _open_for_challenge(self, reason: Words) -> None:
        """C12: the turn just ended stays open for a challenge until the next player (in
        seat order, even one who sits out) answers: the game ends (``reason``) or its
        maker plays again only then."""
        assert self.challengeable is not None
        maker = self.challengeable[0].seat
        self.question = _Question("challenge", maker, reason=reason)
        self.to_move = self._after(maker)[0]
        self.turn = _Turn(self.to_move, len(self.racks[self.to_move]))

    def _check_pass_and_exchange(self, what: str) -> None:
        """K2: no pass nor exchange (``what``: ``pass`` or ``exchange``)."""
        if self.variant.pass_and_exchange:
            return
        if what == "pass":
            reason = lazy("you cannot pass: place every tile of your rack")
        else:
            reason = lazy("you cannot exchange: place every tile of your rack")
        raise IllegalMove(reason, rule="K2")

    def _check_turn_start(self, what: str) -> None:
        """C8: ``what`` (``pass``, ``exchange``, ``stop``) only before placing."""
        if not self.turn.placements:
            return
        if what == "pass":
            reason = lazy("you cannot pass after placing tokens: end the turn")
        elif what == "exchange":
            reason = lazy("you cannot exchange after placing tokens: end the turn")
        else:
            reason = lazy("you cannot propose to stop the game after placing tokens: end the turn")
        raise IllegalMove(reason, rule="C8")

    def _next_turn(self, record: TurnRecord, *, placed: bool) -> None:
        self.turns.append(record)
        self._advance(placed)

    def _advance(self, placed: bool | None) -> None:
        """The next seat still in moves (``placed``: whether the turn placed a token,
        None for a turn a seat left, which counts for nothing), unless the game ends."""
        if placed is not None:
            self.idle_turns = 0 if placed else self.idle_turns + 1
            self.idle_seats = [] if placed else [*self.idle_seats, self.to_move]
        following = self._after(self.to_move)  # never a seat that left (L1)
        if self.variant.empty_racks_sit_out:  # K3
            following = [s for s in following if self.racks[s]]
            if not following:
                self.turn = _Turn(self.to_move, 0)
                self._end_game(lazy("the pot is empty and every tile has been placed"))
                return
        self.to_move = following[0]
        self.turn = _Turn(self.to_move, len(self.racks[self.to_move]))
        in_play = self.in_play()
        if self.idle_turns >= 2 * len(in_play):
            self._end_game(lazy("two full rounds went by without a placement"))
        elif not self.variant.can_place(
            self.board, set(self.bag).union(*(self.racks[s] for s in in_play))
        ):
            self._end_game(
                lazy("no tile in play can be placed anywhere")  # Junior's word for its pieces
                if self.variant.piece == "tile"
                else lazy("no token in play can be placed anywhere")
            )
        elif self.challengeable is not None and self.to_move == self.challengeable[0].seat:
            self._open_for_challenge("")  # K3: the others sit out; they may challenge first

    def _end_game(self, reason: Words) -> None:
        """C11: the game ends; each player loses what is left on the rack. A turn that may
        still be challenged (C12) first leaves the game open for the challenge."""
        if self.challengeable is not None and self.question is None:
            self._open_for_challenge(reason)
            return
        self.over = True
        self.end_reason = reason
        if self.variant.deduct_rack_at_end:
            for seat in self.in_play():  # L1: a score is frozen when its seat leaves
                rack = self.racks[seat]
                self.deductions[seat] = sum(rack)
                self.scores[seat] -= self.deductions[seat]

    # -- queries -------------------------------------------------------------------

    def placed_tokens(self) -> list[int]:
        """Tokens on the board that came from the bag (not the printed centre)."""
        values = self.board.values
        return [v for c, v in enumerate(values) if v != EMPTY and c not in self.start_cells]


_GAME_TYPES: dict[int, tuple[Variant, GameType]] = {}
"""Built game types by the identity of their variant (variants hold dicts: unhashable)."""


def _turn_status(points: int) -> Text:
    return lazy_plural("this turn: {count} point", "this turn: {count} points", points)


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
        seed: int | None = None,
        house_rules: HouseRules | None = None,
        options: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
        version: int | None = None,
    ) -> BoardGame:
        check_new_game(built, players, seed_value=seed, house_rules=house_rules, options=options)
        seats = len(seat_names(players))
        start = None if setup is None else setup_from_dict(setup, variant, seats)
        return BoardGame(
            variant, players, seed=seed, house_rules=house_rules, setup=start, version=version
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
        bonus=variant.bonus,
        deducts_rack=variant.deduct_rack_at_end,
        rules_text=variant.rules,
        create=create,
    )
    _GAME_TYPES[id(variant)] = (variant, built)
    return built


class BoardGame(Game):
    """A game of a board variant: players, seed, house rules and the log of actions."""

    _taken_back: Words = lazy("a token placed")

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
        self.game_type: GameType = game_type_of(self.variant)
        self.players: tuple[str, ...] = seat_names(players)
        low, high = self.variant.min_players, self.variant.max_players
        if not low <= len(self.players) <= high:
            raise ValueError(
                lazy(
                    "{game} is for {low} to {high} players, not {count}",
                    game=self.variant.title,
                    low=low,
                    high=high,
                    count=len(self.players),
                )
            )
        self.seed: int = secrets.randbits(63) if seed is None else seed
        self.house_rules = house_rules or HouseRules()
        self.setup = setup
        current = self.variant.version
        if version is not None and not 1 <= version <= current:
            raise ValueError(
                lazy(
                    "{game} has rules versions 1 to {current}, not {version}",
                    game=self.variant.title,
                    current=current,
                    version=version,
                )
            )
        self._rules_version = current if version is None else max(version, 2)
        self._log: list[Action] = []
        self._state = self._fresh_state()

    def _fresh_state(self) -> _State:
        return _State(
            self.variant,
            len(self.players),
            self.seed,
            self.house_rules,
            self.setup,
            self.rules_version,
        )

    # -- playing -----------------------------------------------------------------

    def apply(self, action: Action | str) -> None:
        """Play ``action`` (or its notation) for the player to move.

        Raises IllegalMove with the reason, leaving the game unchanged.
        """
        action = self._parsed(action)
        if isinstance(action, Leave | Abort):
            self._check_meta(action)
            self._state.step(action)
        elif isinstance(action, Shake):
            self._check_shake(action)
            self._state.step(action)
        elif isinstance(action, Challenge):
            self._state = self._challenged_state(action)
        elif isinstance(action, EndTurn) and action.challenged:
            raise IllegalMove(lazy("a turn is cut short only by a challenge"), rule="C12")
        else:
            self._state.step(action)
        self._log.append(action)

    def _challenged_state(self, challenge: Challenge) -> _State:
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
        return LegalPlacements(self)

    def legal_actions(self) -> list[Action]:
        """Every action that would be accepted now (placements first)."""
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
        state, variant = self._state, self.variant
        counts = dict(variant.tokens)
        for value, placed in state.placed_counts.items():
            counts[value] = counts.get(value, 0) - placed
        if variant.open_racks or self.is_over:  # face-up tiles are seen by everyone
            for rack in state.racks:
                for value in rack:
                    counts[value] -= 1
        elif seat is not None:
            for value in state.racks[seat]:
                counts[value] -= 1
        return {v: counts[v] for v in variant.token_values}

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
        return BoardView(
            variant=self.variant.name,
            seat=seat,
            players=self.players,
            rack=self.rack(seat) if seat is not None else (),
            rack_sizes=tuple(len(self.rack(s)) for s in range(n)),
            scores=self.scores,
            bag_size=self.bag_size,
            to_move=self.to_move,
            unseen=self.unseen(seat),
            house_rules=self.house_rules.to_dict(),
            over=over,
            end_reason_text=self.end_text,
            open_racks=(
                tuple(self.rack(s) for s in range(n)) if over or self.variant.open_racks else ()
            ),
            surface=tuple(self.board.values),
            playable=self.rack(seat) if seat is not None else (),
            available=self.available(seat),
            summaries=self.explained_summaries() if explained else self.summaries(),
            status_text=self.status(),
            left=self.left,
            turn_placements=self.turn_placements,
            turn_points=self.turn_points,
            turns=self.turns,
            start_draws=self.start_draws,
            can_challenge=self.can_challenge,
            deductions=self.deductions,
        )

    def status(self) -> Words:
        """One line on the state, as a lazy text: the question the player to move must
        answer (J4, C12), a declined proposal, or the points of the turn under way."""
        state, names = self._state, self.players
        question = state.question
        if question is not None:
            asker, asked = names[question.seat], names[state.to_move]
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
        if state.over:
            return ""
        if state.turn.declined_by is not None and not state.turn.placements:
            return lazy(
                "{name} declined to stop: {player} plays on",
                name=names[state.turn.declined_by],
                player=names[state.to_move],
            )
        return _turn_status(self.turn_points) if self.turn_placements else ""

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
        if state.racks[seat] and (self.house_rules.table_referee or self.legal_placements()):
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
            if turn.kind == "place":
                places = [Place(p.cell, p.value, p.extra) for p in turn.placements]
                text = format_turn(places, grid)
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
            written.append(
                TurnSummary(
                    turn.seat, text or turn.kind, turn.points, tuple(notes), no_fit=turn.no_fit
                )
            )
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
        by_language: dict[str, tuple[object, Board, list[tuple[Explanation, ...]]]] = (
            self.__dict__.setdefault("_explained", {})
        )
        lang = current_language()
        kept = by_language.get(lang)
        if kept is None or kept[0] is not state:
            kept = by_language[lang] = (state, self.variant.new_board(), [])
        _, board, done = kept
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


def explain_on_board(
    variant: Variant, board: Board, cell: int, value: int, strict: bool = False
) -> Explanation:
    """Explain ``value`` on ``cell`` of ``board`` (issue 18): one equation per pair of
    tokens in line next to it that makes the value (C3, C4), only the square's operation
    on a restriction square (C5), the points as ``variant`` scores them (C6, K2); or why
    it is refused, with the rule (C1, C3, C5, K2)."""
    grid = board.grid
    if not 0 <= cell < len(board.values):
        reason = lazy("cell {cell} is off the board", cell=cell)
        return Explanation(str(cell), value, False, (), 1, 0, str(reason), "C1")
    name, award = grid.name(cell), board.rules.multipliers[cell]
    if not board.is_empty(cell):
        held = already_holds(name, board.values[cell])
        return Explanation(name, value, False, (), award, 0, str(held), "C3")
    if not variant.is_legal(board, cell, value, strict):
        try:
            variant.check_placement(board, cell, value, strict)
        except IllegalMove as refused:
            return Explanation(name, value, False, (), award, 0, refused.reason, refused.rule)
    ops, values = board.rules.cell_ops[cell], board.values
    found = []
    for near, far in grid.pairs[cell]:
        if values[near] == EMPTY or values[far] == EMPTY:
            continue
        first, second = sorted((near, far))
        made = equation(
            value, (grid.name(first), values[first]), (grid.name(second), values[second]), ops
        )
        if made is not None:
            found.append(made)
    points = variant.placement_points(board, cell, value)
    return Explanation(name, value, True, tuple(found), award, points, "", "")


class LegalPlacements:
    """The placements the player to move may make, computed lazily from the board's
    tables (python-chess's ``LegalMoveGenerator``): ``in`` and ``count()`` never list
    them all."""

    def __init__(self, game: BoardGame) -> None:
        self._game = game

    def _rack_values(self) -> list[int]:
        state = self._game._state
        if state.over or state.question is not None:
            return []
        return sorted(set(state.racks[state.to_move]))

    def __iter__(self) -> Iterator[Place]:
        game = self._game
        board, variant, strict = game.board, game.variant, game.house_rules.strict
        for value in self._rack_values():
            for cell in sorted(variant.legal_cells(board, value, strict)):
                yield Place(cell, value)

    def with_extras(self) -> Iterator[Place]:
        """Every placement, and again with the extra token where one may be taken (C7)."""
        offers = self._game.offers_extra_token
        for place in self:
            yield place
            if offers(place.cell):
                yield replace(place, extra=True)

    def count(self) -> int:
        """How many placements there are."""
        game = self._game
        board, variant, strict = game.board, game.variant, game.house_rules.strict
        return sum(len(variant.legal_cells(board, v, strict)) for v in self._rack_values())

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return self._game.variant.can_place(self._game.board, self._rack_values())

    def __contains__(self, place: object) -> bool:
        if not isinstance(place, Place):
            return False
        game = self._game
        if place.value not in self._rack_values():
            return False
        if not 0 <= place.cell < len(game.board.values):
            return False
        if not game.board.is_empty(place.cell) or not game.variant.is_legal(
            game.board, place.cell, place.value, game.house_rules.strict
        ):
            return False
        return not place.extra or game.offers_extra_token(place.cell)
