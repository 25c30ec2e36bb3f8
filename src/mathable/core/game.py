"""A game of a board variant: a seed plus an event log, with its state derived by replay.

:class:`Game` validates each action before anything changes (an illegal one raises
:class:`~mathable.core.errors.IllegalMove` and leaves the game as it was), records it
in the log and applies it. Rebuilding a game from its seed and log gives the same
state, so saved games, undo, challenges and crash recovery all replay the log.

>>> game = Game("classic", ["Ann", "Bob"], seed=1)
>>> len(game.rack(game.to_move)), game.bag_size
(7, 92)
"""

from __future__ import annotations

import itertools
import secrets
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .actions import Action, Challenge, EndGame, EndTurn, Exchange, Pass, Place
from .board import EMPTY, Board
from .errors import IllegalMove
from .eventlog import EventLogGame
from .geometry import Cell
from .notation import Position
from .rng import Rng
from .tokens import as_list
from .variants import Variant, get_variant


@dataclass(frozen=True)
class HouseRules:
    """Options players may switch on. The defaults are the printed rules."""

    table_referee: bool = False
    """C12: illegal placements are accepted until an opponent challenges them."""
    allow_undo: bool = False
    """Casual play: take back the last action (rule V-B forbids it by default)."""
    strict: bool = False
    """K2, Junior's numbered board: a scoring square is compulsory when one exists."""

    def to_dict(self) -> dict[str, bool]:
        """The options as JSON-ready data."""
        return {
            "table_referee": self.table_referee,
            "allow_undo": self.allow_undo,
            "strict": self.strict,
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> HouseRules:
        """Read options; unknown names are refused."""
        known = {"table_referee", "allow_undo", "strict"}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown house rule(s): {', '.join(sorted(unknown))}")
        return HouseRules(**{k: bool(v) for k, v in data.items()})


@dataclass(frozen=True)
class Setup:
    """An explicit start instead of the seeded draw (puzzles, the rulebook's example).

    ``bag`` lists the tokens in the order they will be drawn.
    """

    racks: tuple[tuple[int, ...], ...]
    bag: tuple[int, ...]
    to_move: int = 0


@dataclass(frozen=True)
class PlacedToken:
    """One token placed during a turn and the points it scored."""

    cell: Cell
    value: int
    points: int
    extra: bool = False


@dataclass(frozen=True)
class TurnRecord:
    """A finished turn as every player saw it (never the values exchanged or drawn)."""

    seat: int
    kind: str
    """``"place"``, ``"exchange"`` or ``"pass"``."""
    placements: tuple[PlacedToken, ...] = ()
    points: int = 0
    """All points of the turn, the bonus included."""
    bonus: int = 0
    exchanged: int = 0
    challenged: bool = False
    """Cut short by a successful challenge (C12)."""


@dataclass
class _Turn:
    """The turn being played."""

    seat: int
    started_with: int
    log_start: int
    placements: list[PlacedToken] = field(default_factory=list)
    points: int = 0
    first_mistake: int | None = None


class _State:
    """The mutable state of a game; only :class:`Game` drives it."""

    def __init__(
        self, variant: Variant, players: int, seed: int, house: HouseRules, setup: Setup | None
    ) -> None:
        self.variant = variant
        self.house = house
        self.n = players
        self.rng = Rng(seed)
        self.board: Board = variant.new_board()
        self.start_cells = frozenset(variant.layout.start_cells())
        self.scores = [0] * players
        self.deductions = [0] * players
        self.racks: list[list[int]] = [[] for _ in range(players)]
        self.turns: list[TurnRecord] = []
        self.effective: list[Action] = []
        self.idle_turns = 0
        self.over = False
        self.end_reason = ""
        self.challengeable: tuple[_Turn, int] | None = None
        self.start_draws: list[tuple[int, int]] = []
        if setup is not None:
            if len(setup.racks) != players:
                raise ValueError(f"the setup has {len(setup.racks)} racks for {players} players")
            self.bag = list(reversed(setup.bag))
            self.racks = [sorted(r) for r in setup.racks]
            starter = setup.to_move
        else:
            self.bag = self.rng.shuffled(as_list(variant.tokens))
            starter = self._draw_for_start() if variant.start_by_draw else 0
            for k in range(players):
                self._refill((starter + k) % players)
        self.to_move = starter
        self.turn = _Turn(starter, len(self.racks[starter]), 0)

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
        """Validate then apply ``action`` (a Challenge is handled by Game)."""
        if isinstance(action, Challenge):
            raise TypeError("challenges are replayed by Game")
        if self.over:
            raise IllegalMove("the game is over", rule="C11")
        if isinstance(action, Place):
            self._place(action)
        elif isinstance(action, EndTurn):
            self._end_turn(action)
        elif isinstance(action, Exchange):
            self._exchange(action)
        elif isinstance(action, Pass):
            self._pass()
        elif isinstance(action, EndGame):
            self._agree_end()
        else:
            raise IllegalMove(f"{self.variant.title} has no action {action!r}")

    def _place(self, action: Place) -> None:
        board, rack, grid = self.board, self.racks[self.to_move], self.board.grid
        cell, value = action.cell, action.value
        if not 0 <= cell < len(board.values):
            raise IllegalMove(f"cell {cell} is off the board", rule="C1")
        name = grid.name(cell)
        if not board.is_empty(cell):
            raise IllegalMove(f"{name} already holds a {board.values[cell]}", rule="C3", where=name)
        if value not in rack:
            raise IllegalMove(f"there is no {value} on your rack", rule="C8", where=name)
        variant, strict = self.variant, self.house.strict
        legal = variant.is_legal(board, cell, value, strict)
        if not legal and not self.house.table_referee:
            variant.check_placement(board, cell, value, strict)
        if action.extra:
            if not variant.extra_draw:
                raise IllegalMove(f"{variant.title} has no extra tokens", rule="K2", where=name)
            if board.rules.layout.squares[cell].restriction is None:
                raise IllegalMove(
                    f"{name} is not a restriction square: no extra token", rule="C7", where=name
                )
            if not self.bag:
                raise IllegalMove("the bag is empty: no extra token", rule="C7", where=name)
        self.challengeable = None
        if legal:
            points = variant.placement_points(board, cell, value)
        else:  # C12: accepted provisionally, scored as the player claims it
            points = value * board.rules.multipliers[cell]
            if self.turn.first_mistake is None:
                self.turn.first_mistake = len(self.turn.placements)
        rack.remove(value)
        board.place(cell, value)
        if action.extra:
            rack.append(self.bag.pop())
            rack.sort()
        self.turn.placements.append(PlacedToken(cell, value, points, action.extra))
        self.turn.points += points
        self.effective.append(action)
        if not rack or (not self.house.table_referee and not variant.can_place(board, rack)):
            self._finish_placing(challenged=False)  # C8a: the player can go no further

    def _end_turn(self, action: EndTurn) -> None:
        self._check_free_turn("end the turn early")
        if not self.turn.placements and not action.challenged:
            raise IllegalMove(
                "place a token before ending the turn, or pass or exchange", rule="C8"
            )
        self.effective.append(action)
        self._finish_placing(action.challenged)

    def _finish_placing(self, challenged: bool) -> None:
        turn, seat = self.turn, self.to_move
        bonus = self.variant.turn_bonus(turn.started_with, len(self.racks[seat]))
        self.scores[seat] += turn.points + bonus
        record = TurnRecord(
            seat, "place", tuple(turn.placements), turn.points + bonus, bonus, challenged=challenged
        )
        self._refill(seat)
        emptied = not self.racks[seat] and not self.bag
        if self.house.table_referee and turn.placements and not challenged:
            self.challengeable = (turn, len(self.turns))
        self._next_turn(record, placed=bool(turn.placements))
        if emptied and self.variant.free_turns and not self.over:
            self._end_game("the bag is empty and a player has placed every token")

    def _exchange(self, action: Exchange) -> None:
        self._check_free_turn("exchange")
        self._check_turn_start("exchange")
        if not action.values:
            raise IllegalMove("choose at least one token to exchange", rule="C8")
        missing = Counter(action.values) - Counter(self.racks[self.to_move])
        if missing:
            raise IllegalMove(f"there is no {min(missing)} on your rack to exchange", rule="C8")
        if len(action.values) > len(self.bag):
            raise IllegalMove(
                f"the bag holds only {len(self.bag)} tokens, fewer than the "
                f"{len(action.values)} to exchange",
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
        self._check_free_turn("pass")
        self._check_turn_start("pass")
        self.challengeable = None
        self.effective.append(Pass())
        self._next_turn(TurnRecord(self.to_move, "pass"), placed=False)

    def _agree_end(self) -> None:
        if not self.variant.agreed_end:
            raise IllegalMove(f"{self.variant.title} does not end by agreement", rule="C11")
        self._check_turn_start("stop the game")
        self.challengeable = None
        self.effective.append(EndGame())
        self._end_game("the players agreed to stop")

    def _check_free_turn(self, what: str) -> None:
        if not self.variant.free_turns:
            raise IllegalMove(f"you cannot {what}: place every tile of your rack", rule="K2")

    def _check_turn_start(self, what: str) -> None:
        if self.turn.placements:
            raise IllegalMove(f"you cannot {what} after placing tokens: end the turn", rule="C8")

    def _next_turn(self, record: TurnRecord, *, placed: bool) -> None:
        self.turns.append(record)
        self.idle_turns = 0 if placed else self.idle_turns + 1
        following = [(self.to_move + k) % self.n for k in range(1, self.n + 1)]
        if not self.variant.free_turns:  # K3: seats without tiles sit out
            following = [s for s in following if self.racks[s]]
            if not following:
                self.turn = _Turn(self.to_move, 0, len(self.effective))
                self._end_game("the pot is empty and every tile has been placed")
                return
        self.to_move = following[0]
        self.turn = _Turn(self.to_move, len(self.racks[self.to_move]), len(self.effective))
        if self.idle_turns >= 2 * self.n:
            self._end_game("two full rounds went by without a placement")
        elif not self.variant.can_place(self.board, set(self.bag).union(*self.racks)):
            self._end_game("no token in play can be placed anywhere")

    def _end_game(self, reason: str) -> None:
        """C11: the game ends; each player loses what is left on the rack."""
        self.over = True
        self.end_reason = reason
        if self.variant.deduct_rack_at_end:
            for seat, rack in enumerate(self.racks):
                self.deductions[seat] = sum(rack)
                self.scores[seat] -= self.deductions[seat]

    # -- queries -------------------------------------------------------------------

    def placed_tokens(self) -> list[int]:
        """Tokens on the board that came from the bag (not the printed centre)."""
        values = self.board.values
        return [v for c, v in enumerate(values) if v != EMPTY and c not in self.start_cells]


def _parse_action(board: Board, action: Action | str) -> Action:
    if isinstance(action, str):
        from .notation import parse_action

        return parse_action(action, board.grid)
    return action


class Game(EventLogGame):
    """A game of a board variant: players, seed, house rules and the log of actions."""

    _taken_back = "a token placed"

    def __init__(
        self,
        variant: str | Variant = "classic",
        players: Sequence[str] | int = 2,
        *,
        seed: int | None = None,
        house_rules: HouseRules | None = None,
        setup: Setup | None = None,
    ) -> None:
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        if isinstance(players, int):
            players = [f"Player {i + 1}" for i in range(players)]
        self.players: tuple[str, ...] = tuple(players)
        low, high = self.variant.min_players, self.variant.max_players
        if not low <= len(self.players) <= high:
            raise ValueError(
                f"{self.variant.title} is for {low} to {high} players, not {len(self.players)}"
            )
        self.seed: int = secrets.randbits(63) if seed is None else seed
        self.house_rules = house_rules or HouseRules()
        self.setup = setup
        self._log: list[Action] = []
        self._state = self._fresh_state()

    def _fresh_state(self) -> _State:
        return _State(self.variant, len(self.players), self.seed, self.house_rules, self.setup)

    # -- playing -----------------------------------------------------------------

    def apply(self, action: Action | str) -> None:
        """Play ``action`` (or its notation) for the player to move.

        Raises IllegalMove with the reason, leaving the game unchanged.
        """
        action = _parse_action(self._state.board, action)
        if isinstance(action, Challenge):
            self._state = self._challenged_state()
        elif isinstance(action, EndTurn) and action.challenged:
            raise IllegalMove("a turn is cut short only by a challenge", rule="C12")
        else:
            self._state.step(action)
        self._log.append(action)

    def _challenged_state(self) -> _State:
        """C12: replay the game with the challenged turn cut at its first mistake."""
        state = self._state
        if not self.house_rules.table_referee:
            raise IllegalMove("challenges need the table-referee house rule", rule="C12")
        if state.challengeable is None:
            raise IllegalMove(
                "only the turn just ended can be challenged, before the next player moves",
                rule="C12",
            )
        turn, _ = state.challengeable
        if turn.first_mistake is None:
            raise IllegalMove(
                "every placement of the last turn was legal: the challenge fails", rule="C12"
            )
        keep = state.effective[: turn.log_start + turn.first_mistake]
        fresh = self._fresh_state()
        for past in [*keep, EndTurn(challenged=True)]:
            fresh.step(past)
        return fresh

    def _reset(self) -> None:
        self._state = self._fresh_state()

    def copy(self) -> Game:
        """An independent game with the same log (replayed)."""
        other = Game(
            self.variant,
            self.players,
            seed=self.seed,
            house_rules=self.house_rules,
            setup=self.setup,
        )
        other._rebuild(self._log)
        return other

    def parse_action(self, text: str) -> Action:
        """An action of this game from its text form (``I8=12``, ``end``...)."""
        return _parse_action(self._state.board, text)

    def format_action(self, action: Action) -> str:
        """The text form of an action of this game."""
        from .notation import format_action

        return format_action(action, self._state.board.grid)

    # -- legal moves ---------------------------------------------------------------

    def legal_placements(self) -> LegalPlacements:
        """The placements the player to move may make now, as a lazy view."""
        return LegalPlacements(self)

    def legal_actions(self) -> list[Action]:
        """Every action that would be accepted now (placements first)."""
        state = self._state
        actions: list[Action] = []
        if state.challengeable is not None and state.challengeable[0].first_mistake is not None:
            actions.append(Challenge())
        if state.over:
            return actions
        actions.extend(self.legal_placements().with_extras())
        if not self.variant.free_turns:
            return actions
        if state.turn.placements:
            actions.append(EndTurn())
            return actions
        actions.append(Pass())
        if self.variant.agreed_end:
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
    def end_reason(self) -> str:
        """Why the game ended, in words ('' while it runs)."""
        return self._state.end_reason

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
            state.over,
            state.rng.state,
            state.challengeable is not None,
        )

    def unseen(self, seat: int | None) -> dict[int, int]:
        """C13, the player card: tokens of each value not seen by ``seat`` (bag plus the
        other racks, unless they lie face up; for a spectator, everything not on the
        board or face up)."""
        counts = Counter(self.variant.tokens)
        counts.subtract(self._state.placed_tokens())
        if self.variant.open_racks:  # face-up tiles are seen by everyone
            for rack in self._state.racks:
                counts.subtract(rack)
        elif seat is not None:
            counts.subtract(self._state.racks[seat])
        return {v: counts[v] for v in sorted(self.variant.tokens)}

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

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may know (``None``: a spectator). Only views leave a server."""
        from .view import make_view

        return make_view(self, seat)

    def __repr__(self) -> str:
        return (
            f"<Game {self.variant.name} {len(self.players)} players seed={self.seed} "
            f"actions={len(self._log)}>"
        )


class LegalPlacements:
    """The placements the player to move may make, computed lazily from the board's
    tables (python-chess's ``LegalMoveGenerator``): ``in`` and ``count()`` never list
    them all."""

    def __init__(self, game: Game) -> None:
        self._game = game

    def _rack_values(self) -> list[int]:
        state = self._game._state
        return [] if state.over else sorted(set(state.racks[state.to_move]))

    def __iter__(self) -> Iterator[Place]:
        game = self._game
        board, variant, strict = game.board, game.variant, game.house_rules.strict
        for value in self._rack_values():
            for cell in sorted(variant.legal_cells(board, value, strict)):
                yield Place(cell, value)

    def with_extras(self) -> Iterator[Place]:
        """Every placement, and again with the extra token where one may be taken."""
        squares = self._game.variant.layout.squares
        bag = self._game.bag_size if self._game.variant.extra_draw else 0
        for place in self:
            yield place
            if bag and squares[place.cell].restriction is not None:
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
        if place.extra:
            return (
                bool(game.bag_size)
                and game.variant.extra_draw
                and (game.variant.layout.squares[place.cell].restriction is not None)
            )
        return True


from .view import PlayerView  # noqa: E402  (a cycle: views are built from games)
