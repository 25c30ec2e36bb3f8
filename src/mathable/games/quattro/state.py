"""The state of a match of Mathable Quattro and its rules step by step: the four piles
and what each takes (Q2), a stuck player's draw (Q3), DIAGO (Q4), rounds and their end
(Q5), the reserve rebuilt, seats leaving (O3). Only :class:`~.game.QuattroGame` drives
it: the game checks who may act and keeps the log; the state checks each action and
plays it, or raises IllegalMove having changed nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mathable.engine.actions import (
    Abort,
    Action,
    Diago,
    Draw,
    Exchange,
    Leave,
    Pass,
    Penalty,
    Place,
    Shake,
)
from mathable.engine.arithmetic import ALL_OPS, pair_results
from mathable.engine.errors import IllegalMove
from mathable.engine.explain import Explanation, equation
from mathable.engine.notation import format_action
from mathable.engine.protocol import (
    TargetNames,
    TurnSummary,
    Words,
)
from mathable.engine.rng import Rng
from mathable.engine.tokens import CLASSIC_TOKENS, as_list
from mathable.i18n import lazy, lazy_plural

from .view import PILES, QuattroTurn

TITLE = "Mathable Quattro"
"""The game's title: a name, the same in every language."""
HAND_SIZE = 7
DIAGO_COUNTS = 2
"""The rules version from which a play DIAGO would open counts (Q5): no pass offered
where one exists (issue 31)."""
RESERVE_OF_PILES = 2
"""The rules version from which a new reserve is built from the four piles only, the
trash staying out of play (Q5, issue 31)."""
SIDE_BY_SIDE: dict[int, tuple[int, ...]] = {0: (1, 2), 1: (0, 3), 2: (0, 3), 3: (1, 2)}
DIAGONAL: dict[int, int] = {0: 3, 1: 2, 2: 1, 3: 0}


def pile_accepts(tops: Sequence[int], pile: int, diagonals: bool) -> frozenset[int]:
    """Q2/Q4: the card values pile ``pile`` takes, given the four top cards: results of
    + - x / of its top and the top of a pile beside it (or diagonal, under DIAGO)."""
    near = SIDE_BY_SIDE[pile]
    others = (*near, DIAGONAL[pile]) if diagonals else near
    out: set[int] = set()
    for other in others:
        out |= pair_results(tops[pile], tops[other], ALL_OPS)
    return frozenset(out)


@dataclass(frozen=True)
class QuattroSetup:
    """A chosen deal instead of a shuffled one (for tests and worked examples):
    hands, the four starting pile cards (A B C D) and the reserve in draw order."""

    hands: tuple[tuple[int, ...], ...]
    piles: tuple[int, int, int, int]
    reserve: tuple[int, ...]
    to_move: int = 0


PILE_NAMES = TargetNames(tuple(PILES))
"""The notation's names of the piles: a card on pile A is ``A=32``."""


class QuattroState:
    """The mutable state of a match; only :class:`~.game.QuattroGame` drives it."""

    def __init__(
        self, n: int, seed: int, rounds: int, setup: QuattroSetup | None, version: int
    ) -> None:
        self.n = n
        self.version = version
        """The rules version played (older records replay by the rules they were played by)."""
        self.rounds = rounds
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.piles: list[list[int]] = [[], [], [], []]
        self.trash: list[int] = []
        self.wins = [0] * n
        self.round = 1
        self.round_winners: list[tuple[int, ...]] = []
        self.blocked: list[tuple[int, int, tuple[int, ...], int]] = []
        """Q5, blocked rounds: (index of the turn that blocked it, round, winners, their
        cards in hand)."""
        self.diago_used: set[int] = set()
        self.diago_now = False
        self.phase = "play"
        self.drawn: int | None = None
        self.played: list[tuple[int, int]] = []
        self.drawn_to: tuple[int, int] | None = None
        self.turns: list[QuattroTurn] = []
        self.summaries: list[TurnSummary] = []
        """The finished turns in words, written once each (see QuattroGame.summaries)."""
        self.idle = 0
        self.over = False
        self.end_reason: Words = ""
        self.out = [False] * n
        """Local ruling L1: the seats that left the match (turn order skips them)."""
        self.rng = Rng(seed)
        """The seeded generator: it shuffles the reserve once, then only a shake (O5)."""
        if setup is not None:
            if len(setup.hands) != n:
                raise ValueError(
                    lazy(
                        "the setup has {count} hands for {players} players",
                        count=len(setup.hands),
                        players=n,
                    )
                )
            self.hands = [sorted(h) for h in setup.hands]
            self.piles = [[c] for c in setup.piles]
            self.reserve = list(reversed(setup.reserve))
            self.to_move = setup.to_move
        else:
            self.reserve = self.rng.shuffled(as_list(CLASSIC_TOKENS))
            self.to_move = 0  # the dealer is the last seat; the seat on its left starts
            self._deal(0)
            for pile in self.piles:
                pile.append(self.reserve.pop())

    # -- cards ---------------------------------------------------------------------

    def _draw(self) -> int | None:
        """The reserve's top card, rebuilding the reserve when it has run out (Q5)."""
        if not self.reserve:
            self._rebuild_reserve()
        return self.reserve.pop() if self.reserve else None

    def can_draw(self) -> bool:
        """Whether a card can be drawn: the reserve holds one, or one can be rebuilt."""
        trash = self.trash if self.version < RESERVE_OF_PILES else []
        return bool(self.reserve or trash or any(len(p) > 1 for p in self.piles))

    def _rebuild_reserve(self) -> None:
        """Q5: every pile but its top card is turned face down without shuffling (seed
        004: "sans les brasser"), the piles A to D one on the other, each drawn from its
        bottom card; the trash stays out of play ("avec ces 4 paquets, une nouvelle
        réserve"). Before rules version :data:`RESERVE_OF_PILES` the trash went under
        them, in the order it was discarded."""
        cards = [c for pile in self.piles for c in pile[:-1]]
        if self.version < RESERVE_OF_PILES:
            cards += self.trash
            self.trash = []
        self.piles = [pile[-1:] for pile in self.piles]
        self.reserve = list(reversed(cards))

    def in_play(self) -> list[int]:
        """The seats still in the match (L1)."""
        return [s for s in range(self.n) if not self.out[s]]

    def _after(self, seat: int) -> int:
        """The next seat still in after ``seat`` in turn order (``seat`` if none other)."""
        return next(s for k in range(1, self.n + 1) if not self.out[s := (seat + k) % self.n])

    def _deal(self, first: int) -> None:
        for _ in range(HAND_SIZE):
            for k in range(self.n):
                seat = (first + k) % self.n
                card = None if self.out[seat] else self._draw()  # L1: none for a leaver
                if card is not None:
                    self.hands[seat].append(card)
        for hand in self.hands:
            hand.sort()

    # -- equations -------------------------------------------------------------------

    @property
    def diagonals(self) -> bool:
        """Q4: diagonals count this turn (DIAGO announced, or used by everyone still in)."""
        return self.diago_now or self.diago_by_all()

    def diago_by_all(self) -> bool:
        """Q4: every seat still in the match (L1) has used DIAGO this round."""
        return all(s in self.diago_used for s in self.in_play())

    def explain(self, pile: int, value: int) -> Explanation:
        """Explain ``value`` on ``pile`` now (issue 18): one equation per pile beside it
        whose top card makes the value with this pile's top (Q2, Q4); Quattro scores
        rounds, not points, so ``points`` is 0. A drawn card goes on any pile (Q3)."""
        if not 0 <= pile < 4:
            reason = lazy("there is no pile {pile}: piles are A, B, C and D", pile=pile)
            return Explanation(str(pile), value, False, (), 1, 0, str(reason), "Q1")
        name = PILES[pile]
        if self.over:
            return Explanation(name, value, False, (), 1, 0, str(lazy("the match is over")), "Q5")
        if self.phase == "drawn":
            if value == self.drawn:
                return Explanation(name, value, True, (), 1, 0, "", "")
            reason = lazy("put the card you drew, the {value}, on a pile", value=self.drawn)
            return Explanation(name, value, False, (), 1, 0, str(reason), "Q3")
        if self.phase == "after":
            reason = lazy("the drawn card is placed: exchange one card or take a penalty card")
            return Explanation(name, value, False, (), 1, 0, str(reason), "Q3")
        tops = [p[-1] for p in self.piles]
        found = []
        for other in self.neighbours(pile):
            first, second = sorted((pile, other))
            made = equation(
                value, (PILES[first], tops[first]), (PILES[second], tops[second]), ALL_OPS
            )
            if made is not None:
                found.append(made)
        if found:
            return Explanation(name, value, True, tuple(found), 1, 0, "", "")
        shown = ", ".join(f"{PILES[o]}={tops[o]}" for o in self.neighbours(pile))
        reason = lazy(
            "{value} on pile {pile} ({top}) is not a result of + - x / of {top} "
            "and an adjacent top ({tops})",
            value=value,
            pile=name,
            top=tops[pile],
            tops=shown,
        )
        return Explanation(name, value, False, (), 1, 0, str(reason), "Q2")

    def neighbours(self, pile: int) -> tuple[int, ...]:
        near = SIDE_BY_SIDE[pile]
        return (*near, DIAGONAL[pile]) if self.diagonals else near

    def accepts(self, pile: int) -> frozenset[int]:
        """The card values pile ``pile`` takes now (Q2)."""
        return pile_accepts([p[-1] for p in self.piles], pile, self.diagonals)

    def plays(self) -> list[Place]:
        """Every equation play of the hand, by pile then value."""
        if self.over or self.phase != "play":
            return []
        hand = set(self.hands[self.to_move])
        return [Place(p, v) for p in range(4) for v in sorted(hand & self.accepts(p))]

    def may_diago(self) -> bool:
        """Q4: whether the player to move may announce DIAGO now."""
        seat = self.to_move
        return (
            self.phase == "play"
            and not self.played
            and seat not in self.diago_used
            and not self.diago_by_all()
        )

    def plays_after_diago(self) -> bool:
        """Q5: whether the player to move could play once DIAGO is announced (a play on a
        diagonal counts: a player who has one may not pass). Always False before rules
        version :data:`DIAGO_COUNTS`."""
        if self.version < DIAGO_COUNTS or self.over or not self.may_diago():
            return False
        tops = [p[-1] for p in self.piles]
        hand = set(self.hands[self.to_move])
        return any(hand & pile_accepts(tops, p, True) for p in range(4))

    # -- actions ---------------------------------------------------------------------

    def step(self, action: Action) -> None:
        if self.over:
            raise IllegalMove(lazy("the match is over"), rule="Q5")
        if isinstance(action, Leave):
            self._leave(action.seat)
        elif isinstance(action, Abort):
            self.over = True
        elif isinstance(action, Shake):
            self._shake(action)
        elif isinstance(action, Place):
            self._place(action)
        elif isinstance(action, Diago):
            self._diago()
        elif isinstance(action, Draw):
            self._draw_for_pile()
        elif isinstance(action, Exchange):
            self._exchange(action)
        elif isinstance(action, Penalty):
            self._penalty()
        elif isinstance(action, Pass):
            self._pass()
        else:
            raise IllegalMove(
                lazy("{game} has no action {action}", game=TITLE, action=repr(action))
            )

    def _shake(self, action: Shake) -> None:
        """Ruling O5: shake the reserve after an undo (the cards a turn taken back drew
        are back in it), with the seeded generator's next output mixed with the shake's
        entropy. Not a turn: nothing else changes (a reserve rebuilt later is still
        turned over unshuffled, Q5)."""
        self.rng = Rng(self.rng.next64() ^ action.entropy)
        self.rng.shuffle(self.reserve)

    def _place(self, action: Place) -> None:
        pile, value = action.cell, action.value
        if not 0 <= pile < 4:
            raise IllegalMove(
                lazy("there is no pile {pile}: piles are A, B, C and D", pile=pile), rule="Q1"
            )
        name = f"pile {PILES[pile]}"
        if action.extra:
            raise IllegalMove(lazy("Quattro has no extra cards"), rule="Q2", where=name)
        if self.phase == "drawn":
            if value != self.drawn:
                raise IllegalMove(
                    lazy("put the card you drew, the {value}, on a pile", value=self.drawn),
                    rule="Q3",
                    where=name,
                )
            self.piles[pile].append(value)
            self.drawn, self.drawn_to, self.phase = None, (pile, value), "after"
            return
        if self.phase == "after":
            raise IllegalMove(
                lazy("the drawn card is placed: exchange one card or take a penalty card"),
                rule="Q3",
                where=name,
            )
        hand = self.hands[self.to_move]
        if value not in hand:
            raise IllegalMove(
                lazy("there is no {value} in your hand", value=value), rule="Q2", where=name
            )
        if value not in self.accepts(pile):
            top = self.piles[pile][-1]
            tops = ", ".join(f"{PILES[o]}={self.piles[o][-1]}" for o in self.neighbours(pile))
            raise IllegalMove(
                lazy(
                    "{value} on pile {pile} ({top}) is not a result of + - x / of {top} "
                    "and an adjacent top ({tops})",
                    value=value,
                    pile=PILES[pile],
                    top=top,
                    tops=tops,
                ),
                rule="Q2",
                where=name,
            )
        hand.remove(value)
        self.piles[pile].append(value)
        self.played.append((pile, value))
        if not hand:
            self._win_round()
        elif not self.plays():  # Q2: the player plays while able, then the turn passes
            self._next_turn("play")

    def _diago(self) -> None:
        seat = self.to_move
        if self.phase != "play" or self.played:
            raise IllegalMove(lazy("DIAGO is announced at the start of the turn"), rule="Q4")
        if self.diago_by_all():
            raise IllegalMove(
                lazy("every player has used DIAGO: diagonals count for all"), rule="Q4"
            )
        if seat in self.diago_used:
            raise IllegalMove(lazy("you have used your DIAGO this round"), rule="Q4")
        self.diago_used.add(seat)
        self.diago_now = True

    def _draw_for_pile(self) -> None:
        if self.phase != "play" or self.played:
            raise IllegalMove(lazy("you draw only when you cannot play at the start of the turn"))
        if self.plays():
            first = self.plays()[0]
            raise IllegalMove(
                lazy(
                    "you can play (for example {play}): draw only when you cannot",
                    play=format_action(first, PILE_NAMES),
                ),
                rule="Q3",
            )
        card = self._draw()
        if card is None:
            raise IllegalMove(lazy("there is no card left to draw: pass"), rule="Q3")
        self.drawn, self.phase = card, "drawn"

    def _exchange(self, action: Exchange) -> None:
        if self.phase != "after":
            raise IllegalMove(
                lazy("you exchange only after a stuck turn's drawn card is placed"), rule="Q3"
            )
        if len(action.values) != 1:
            raise IllegalMove(lazy("exchange exactly one card (discard one, draw two)"), rule="Q3")
        hand = self.hands[self.to_move]
        value = action.values[0]
        if value not in hand:
            raise IllegalMove(
                lazy("there is no {value} in your hand to exchange", value=value), rule="Q3"
            )
        hand.remove(value)
        self.trash.append(value)
        self._take(2)
        self._next_turn("stuck", exchanged=True)

    def _penalty(self) -> None:
        if self.phase != "after":
            raise IllegalMove(
                lazy("a penalty card is drawn only at the end of a stuck turn"), rule="Q3"
            )
        self._take(1)
        self._next_turn("stuck")

    def _take(self, count: int) -> None:
        hand = self.hands[self.to_move]
        for _ in range(count):
            card = self._draw()
            if card is not None:
                hand.append(card)
        hand.sort()

    def _pass(self) -> None:
        if self.phase != "play" or self.played or self.plays():
            raise IllegalMove(lazy("you pass only when you can neither play nor draw"), rule="Q3")
        if self.plays_after_diago():
            raise IllegalMove(
                lazy("you can play once you announce DIAGO: announce it rather than pass"),
                rule="Q5",
            )
        if self.can_draw():
            raise IllegalMove(lazy("you cannot play: draw a card and put it on a pile"), rule="Q3")
        self._next_turn("pass")

    # -- turns and rounds ------------------------------------------------------------

    def _record(self, kind: str, *, exchanged: bool = False, won: bool = False) -> None:
        self.turns.append(
            QuattroTurn(
                self.to_move,
                kind,
                tuple(self.played),
                self.diago_now,
                self.drawn_to,
                exchanged,
                won,
            )
        )

    def _leave(self, seat: int) -> None:
        """Local ruling L1: the seat leaves the match. Its rounds won are frozen and its
        hand leaves face down (with a card it had drawn: never dealt, drawn nor trashed
        again); on its turn the turn ends at once (the cards it played stay) and the next
        seat still in plays. Fewer than two seats in: the match is over."""
        self.out[seat] = True
        mine = seat == self.to_move
        if mine and self.drawn is not None:
            self.hands[seat].append(self.drawn)
            self.hands[seat].sort()
            self.drawn = None
        if mine and (self.played or self.drawn_to is not None):
            self._record("left")
        if len(self.in_play()) < 2:
            self.over = True
        elif mine:
            self._start_turn(self._after(seat))

    def _next_turn(self, kind: str, *, exchanged: bool = False) -> None:
        self._record(kind, exchanged=exchanged)
        self.idle = self.idle + 1 if kind == "pass" else 0
        self._start_turn(self._after(self.to_move))
        if self.idle >= len(self.in_play()):  # Q5: nobody can play nor draw: blocked
            fewest = min(len(self.hands[s]) for s in self.in_play())
            winners = tuple(s for s in self.in_play() if len(self.hands[s]) == fewest)
            self.blocked.append((len(self.turns) - 1, self.round, winners, fewest))
            self._end_round(winners)

    def _start_turn(self, seat: int) -> None:
        self.to_move = seat
        self.played, self.drawn_to, self.diago_now, self.phase = [], None, False, "play"

    def _win_round(self) -> None:
        seat = self.to_move
        self._record("play", won=True)
        self._end_round((seat,))

    def _end_round(self, winners: tuple[int, ...]) -> None:
        """Q5: the round's winner(s) score a round; then the next round is dealt by the
        winner, the player on its left starting, or the match ends."""
        for seat in winners:
            self.wins[seat] += 1
        self.round_winners.append(winners)
        self.idle = 0
        if self.round >= self.rounds:
            self.over = True
            self.end_reason = (
                lazy_plural("{count} round played", "{count} rounds played", self.rounds)
                if self.rounds > 1
                else lazy("a player has played every card")
            )
            self._start_turn(self.to_move)
            return
        for seat in self.in_play():  # L1: a leaver's hand stays out of the game
            self.trash.extend(self.hands[seat])
            self.hands[seat].clear()
        self.round += 1
        self.diago_used.clear()
        first = self._after(winners[0])
        self._deal(first)
        self._start_turn(first)
