"""The state of a game on a board, and its rules step by step: placing (C1-C9), ending
a turn, exchanging and passing (C11), the end of the game (C11), proposals to stop (J4),
the window of a challenge (C12) and seats leaving (L1). Only
:class:`~.game.BoardGame` drives it: the game checks who may act and keeps the log; the
state checks each action and plays it, or raises IllegalMove having changed nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
from mathable.engine.protocol import HouseRules, TurnSummary, Words
from mathable.engine.rng import Rng
from mathable.engine.tokens import not_held, pieces_text
from mathable.i18n import lazy, lazy_plural

from .board import EMPTY, Board
from .turns import PlacedToken, Setup, TurnRecord
from .variants import Variant, already_holds

_new = object.__new__
_set_attribute = object.__setattr__


def _placed(cell: int, value: int, points: int, extra: bool) -> PlacedToken:
    """``PlacedToken(cell, value, points, extra)``, made without its ``__init__``: a
    frozen dataclass's runs interpreted and sets each field through
    ``object.__setattr__``; this fills its dictionary at once (one per placement)."""
    token: PlacedToken = _new(PlacedToken)
    _set_attribute(
        token, "__dict__", {"cell": cell, "value": value, "points": points, "extra": extra}
    )
    return token


class _Turn:
    """The turn being played. A plain class, not a dataclass: compiled, its ``__init__``
    runs natively (a dataclass's is made by :mod:`dataclasses` and ran interpreted at
    every turn of self-play, issue 35)."""

    def __init__(self, seat: int, started_with: int) -> None:
        self.seat = seat
        self.started_with = started_with
        self.placements: list[PlacedToken] = []
        self.points = 0
        self.first_mistake: int | None = None
        """C12: where the turn's first mistake stands in the effective log, if it has one."""
        self.declined_by: int | None = None
        """J4: the seat that declined this turn's proposal to stop (one proposal a turn)."""
        self.ended_at: int | None = None
        """Where the turn ended in the effective log (C12: a challenge replays the seats
        that left before that point inside the turn, those that left after it after the
        cut)."""

    def __repr__(self) -> str:
        return (
            f"_Turn(seat={self.seat}, started_with={self.started_with}, "
            f"placements={self.placements!r}, points={self.points})"
        )


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


class BoardState:
    """The mutable state of a game on a board; only :class:`~.game.BoardGame` drives it."""

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
        self.unplaced: dict[int, int] = {v: variant.tokens[v] for v in variant.token_values}
        """How many tokens of each value are not on the board yet (the bag's and the
        racks'), smallest value first: views count the unseen tokens from it (C13), not
        by scanning the board."""
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
            self.bag = self.rng.shuffled(variant.every_token)
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
        if isinstance(action, Place) and not self.over and self.question is None:
            self._place(action)  # the common action first, where the chain below would
            return  # play it: a failed isinstance costs ~0.05 us (issue 35)
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
        if not board.is_empty(cell):  # the cell's name only for a refusal: named once there
            name = grid.name(cell)
            raise IllegalMove(already_holds(name, board.values[cell]), rule="C3", where=name)
        if value not in rack:
            raise IllegalMove(
                lazy("there is no {value} on your rack", value=value),
                rule="C8",
                where=grid.name(cell),
            )
        variant, strict = self.variant, self.house.strict
        legal = variant.is_legal(board, cell, value, strict)
        if not legal and not self.house.table_referee:
            variant.check_placement(board, cell, value, strict)
        if action.extra:
            refusal = variant.extra_token_refusal(cell, len(self.bag))
            if refusal is not None:
                reason, rule = refusal
                name = grid.name(cell)
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
        board.lay(cell, value)  # for good: a challenge replays the game (C12)
        if value in self.unplaced:
            self.unplaced[value] -= 1
        if action.extra:
            rack.append(self.bag.pop())
            rack.sort()
        self.turn.placements.append(_placed(cell, value, points, action.extra))
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
        missing = not_held(action.values, self.racks[self.to_move])
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

    def _any_token_fits(self, seats: list[int]) -> bool:
        """Whether a token of the bag or of the racks of ``seats`` fits anywhere (C11b):
        each rack, then the bag, asked in turn (no set of them all made at every turn)."""
        board, variant = self.board, self.variant
        for seat in seats:
            if variant.can_place(board, self.racks[seat]):
                return True
        return variant.can_place(board, self.bag)

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
        elif not self._any_token_fits(in_play):
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
