"""The record of a kept Quattro match (issue 37): a match played with real cards at a
table, as a game record (:mod:`mathable.engine.records`, an explicit deal in its
``setup``) that replays in the web and the terminal.

The keeper sees every card put on a pile; it never sees the hands, the cards drawn into
them, nor a card discarded face down in an exchange (ruling R1's spirit). The record
**reconstructs** them: values consistent with the deck (Q1), so that the engine replays
exactly the cards the table played, on the same piles, with the same round winners and
match winner. The hands it shows along the way may hold other cards than the table's did.

A deal with values is not any deal: the engine ends a turn when the hand has nothing left
to play (Q2), lets a player draw only when nothing fits (Q3) and pass only when nothing
fits even under DIAGO (Q5). So every card is followed without its value first, as the
engine moves it (dealt in turn from the reserve, drawn, played, discarded, the reserve
rebuilt from the piles without shuffling), and a card in a hand at such a moment is
*forbidden* every value the piles then take. A card played takes the value played (a
card of the hand already of that value, else the most constrained card whose forbidden
values allow it, keeping the freer ones for later); a card drawn onto a pile takes the
value seen; a card of a rebuilt reserve already has one (it was on a pile). The card
discarded face down in an exchange is chosen knowing what the match does next (a first
pass records it): a card of known value that would fit before its player plays it, else
one never played, else the most constrained unknown card (a second try discards the
freest instead). When neither way can follow the match, a search tries the other
choices of which card was played or discarded (two cards alike are one choice), the
deepest first, up to :data:`SEARCH_TRIES` ways (a few ms each). The cards never seen
then take the deck's remaining values, each avoiding its forbidden ones (a bipartite
matching). The record is replayed by the engine
and compared with the keeper before it is served; a match whose table the engine cannot
follow (a card played that the rules would have had played earlier, a card the rebuilt
reserve cannot give, a hand that cannot be filled) is refused with the reason.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from mathable.engine import records
from mathable.engine.actions import Action, Draw, Exchange, Pass, Penalty, Place
from mathable.engine.errors import MathableError
from mathable.engine.rng import Rng
from mathable.engine.tokens import CLASSIC_TOKENS
from mathable.i18n import Text, lazy

from .game import QUATTRO, QuattroGame, pile_accepts
from .keeper import KeptQuattro, TableGame
from .state import HAND_SIZE

KEPT_SEED = 0
"""The seed of every kept match's record: with a deal, the engine never uses it (only a
shake after an undo would, and a record of a kept match holds none)."""


class KeptRecordError(MathableError):
    """A kept match the engine cannot replay as the table kept it (the reason says why)."""


_Event = tuple[int, int, str, frozenset[int]]
"""What a kept match does, by action index: ``(index, seat, "fits", values)`` the
values no card of the hand may have then; ``(index, seat, "play", {value})`` a card
played; ``(index, -1, "round", {})`` a new deal."""


class _Cards:
    """The deck's cards without values, followed through a kept match (see the module's
    docstring): card ``i`` is ``i``; ``values`` fills as cards show or are worked out."""

    def __init__(
        self,
        piles: tuple[int, ...],
        players: int,
        freer_out: bool = False,
        script: list[int] | None = None,
    ) -> None:
        self.freer_out = freer_out
        """Discard the least constrained unknown card (a second try, when the cards never
        seen cannot all take values the other way)."""
        self.script = script or []
        """The search's choices so far (:func:`_search`): at the ``k``-th choice, take
        option ``script[k]`` (0, the preferred one, past its end)."""
        self.made: list[tuple[int, int]] = []
        """Each choice made: the option taken and how many there were."""
        self.values: dict[int, int] = dict(enumerate(piles))
        self.used: Counter[int] = Counter(piles)
        self.forbidden: dict[int, set[int]] = {}
        self.piles = [[0], [1], [2], [3]]
        self.hands = [
            list(range(4 + s * HAND_SIZE, 4 + (s + 1) * HAND_SIZE)) for s in range(players)
        ]
        dealt = 4 + players * HAND_SIZE
        total = sum(CLASSIC_TOKENS.values())
        self.reserve = list(range(total - 1, dealt - 1, -1))
        """In the engine's order: the last is drawn first."""
        self.start_hands = [list(h) for h in self.hands]
        self.start_reserve = list(self.reserve)
        self.drawn: int | None = None
        self.discarded: dict[int, int] = {}
        """Per exchange (by its action's index), the card discarded."""

    def fix(self, card: int, value: int) -> None:
        """``card`` is ``value`` (Q1: no more often than the deck holds it)."""
        if self.used[value] >= CLASSIC_TOKENS.get(value, 0):
            raise KeptRecordError(
                lazy("no card {value} is left in the deck for a hand", value=value)
            )
        self.values[card] = value
        self.used[value] += 1

    def draw(self) -> int | None:
        """The reserve's top card, the reserve rebuilt from the piles when it has run out:
        every pile but its top card, A to D, turned over unshuffled (Q5, as the engine)."""
        if not self.reserve:
            cards = [c for pile in self.piles for c in pile[:-1]]
            self.piles = [pile[-1:] for pile in self.piles]
            self.reserve = list(reversed(cards))
        return self.reserve.pop() if self.reserve else None

    def take(self, seat: int, count: int) -> None:
        for _ in range(count):
            card = self.draw()
            if card is not None:
                self.hands[seat].append(card)

    def deal(self, first: int) -> None:
        """Q5: the hands go to the trash; 7 cards each, one at a time from ``first`` on."""
        count = len(self.hands)
        for hand in self.hands:
            hand.clear()
        for _ in range(HAND_SIZE):
            for k in range(count):
                self.take((first + k) % count, 1)

    def nothing_fits(self, seat: int, tops: list[int], diagonals: bool, why: str) -> None:
        """No card of ``seat``'s hand fits a pile now (Q2, Q3): each is forbidden the
        values the piles take; a card of known value that fits is a table the rules
        cannot replay."""
        fits = set().union(*(pile_accepts(tops, p, diagonals) for p in range(4)))
        for card in self.hands[seat]:
            if card not in self.values:
                self.forbidden.setdefault(card, set()).update(fits)
            elif self.values[card] in fits:
                raise KeptRecordError(
                    lazy(
                        "{why}, yet the hand holds a {value} from the reserve rebuilt from "
                        "the piles, and it fits",
                        why=why,
                        value=self.values[card],
                    )
                )

    def choose(self, options: list[int]) -> int:
        """One of ``options`` (the preferred first; two cards alike, the same value or
        none with the same forbidden values, are one option), as the script says."""
        distinct: list[int] = []
        seen: set[object] = set()
        for card in options:
            alike = self.values.get(card, frozenset(self.forbidden.get(card, ())))
            if alike not in seen:
                seen.add(alike)
                distinct.append(card)
        k = len(self.made)
        pick = min(self.script[k] if k < len(self.script) else 0, len(distinct) - 1)
        self.made.append((pick, len(distinct)))
        return distinct[pick]

    def play(self, seat: int, pile: int, value: int) -> None:
        """A card of ``seat``'s hand played as ``value`` on ``pile``: one of that value
        already, else the most constrained card whose forbidden values allow it (keeping
        the freer ones for later), or as the search chooses."""
        hand = self.hands[seat]
        known = [c for c in hand if self.values.get(c) == value]
        free = [c for c in hand if c not in self.values and value not in self.forbidden.get(c, ())]
        free.sort(key=lambda c: -len(self.forbidden.get(c, ())))
        if known or free:
            card = self.choose(known[:1] + free)
            if card not in self.values:
                self.fix(card, value)
        else:
            raise KeptRecordError(
                lazy(
                    "no card of the hand can be the {value} played: it would have been "
                    "played earlier",
                    value=value,
                )
            )
        hand.remove(card)
        self.piles[pile].append(card)

    def drawn_to_pile(self, value: int) -> None:
        """Q3: the stuck player's card drawn, seen as ``value``."""
        card = self.draw()
        if card is None:  # the engine refused the draw first
            raise KeptRecordError(lazy("there is no card left to draw"))
        if card not in self.values:
            self.fix(card, value)
        elif self.values[card] != value:
            raise KeptRecordError(
                lazy(
                    "the reserve rebuilt from the piles gives a {card} here, not the {value} "
                    "entered",
                    card=self.values[card],
                    value=value,
                )
            )
        self.drawn = card

    def discard(self, seat: int, index: int, ahead: list[_Event], held: list[int]) -> None:
        """Q3: one card of ``held`` (the hand before the two cards drawn, which are
        weighed too) discarded face down: first a card of known value that would fit
        before the hand plays it (``ahead``: what the match does next), then one the hand
        never plays, then the most constrained unknown card (keeping the freer ones),
        else a known card."""
        hand = self.hands[seat]

        def fate(card: int) -> tuple[int, int]:
            """(0, when): a copy of its value would fit before the hand plays every copy
            (the soonest first); (1, 0): a copy is never played this round; (3, 0):
            every copy is played in time."""
            value = self.values[card]
            copies = sum(1 for c in hand if self.values.get(c) == value)
            for at, who, kind, values in ahead:
                if at <= index or (who != seat and kind != "round"):
                    continue
                if kind == "round":
                    return (1, 0)
                if value in values and kind == "fits":
                    return (0, at)
                if value in values:  # one copy played
                    copies -= 1
                    if not copies:
                        return (3, 0)
            return (1, 0)

        known = sorted((c for c in held if c in self.values), key=fate)
        free = [c for c in held if c not in self.values]
        free.sort(key=lambda c: len(self.forbidden.get(c, ())), reverse=not self.freer_out)
        if known and fate(known[0])[0] < 2:
            options = [known[0], *free, *known[1:]]
        else:
            options = [*free, *known]
        card = self.choose(options)
        hand.remove(card)
        self.discarded[index] = card

    def valued(self) -> dict[int, int]:
        """Every card's value: the cards never seen take the deck's remaining values,
        each avoiding its forbidden ones (augmenting paths; the values tried in an order
        shuffled by a fixed seed, so the hands look like hands, not rows of 1s)."""
        spare = Counter(CLASSIC_TOKENS)
        spare.subtract(self.used)
        order = Rng(KEPT_SEED).shuffled(sorted(spare))
        unknown = sorted(
            (c for c in range(sum(CLASSIC_TOKENS.values())) if c not in self.values),
            key=lambda c: -len(self.forbidden.get(c, ())),
        )
        holders: dict[int, list[int]] = {v: [] for v in spare}
        given: dict[int, int] = {}

        def place(card: int, tried: set[int]) -> bool:
            banned = self.forbidden.get(card, set())
            start = card % len(order)
            choices = [v for v in order[start:] + order[:start] if v not in banned]
            for value in choices:
                if value in tried:
                    continue
                tried.add(value)
                if len(holders[value]) < spare[value]:
                    holders[value].append(card)
                    given[card] = value
                    return True
                for other in holders[value]:
                    if place(other, tried):  # ``other`` moved to another value
                        holders[value].remove(other)
                        holders[value].append(card)
                        given[card] = value
                        return True
            return False

        for card in unknown:
            if not place(card, set()):
                raise KeptRecordError(
                    lazy("the deck has no values left that the hands could have held")
                )
        return {**self.values, **given}


class _Watcher(_Cards):
    """A first pass over the match: what it does (its :data:`_Event` list), each card's
    identity aside (the cards moved are any of the hand's)."""

    def __init__(self, piles: tuple[int, ...], players: int) -> None:
        super().__init__(piles, players)
        self.events: list[_Event] = []
        self.index = 0

    def nothing_fits(self, seat: int, tops: list[int], diagonals: bool, why: str) -> None:
        fits = frozenset().union(*(pile_accepts(tops, p, diagonals) for p in range(4)))
        self.events.append((self.index, seat, "fits", fits))

    def play(self, seat: int, pile: int, value: int) -> None:
        self.events.append((self.index, seat, "play", frozenset((value,))))
        self.piles[pile].append(self.hands[seat].pop())

    def drawn_to_pile(self, value: int) -> None:
        self.drawn = self.draw()

    def discard(self, seat: int, index: int, ahead: list[_Event], held: list[int]) -> None:
        self.hands[seat].remove(held[0])

    def deal(self, first: int) -> None:
        self.events.append((self.index, -1, "round", frozenset()))
        super().deal(first)


def _follow(kept: KeptQuattro, table: TableGame, cards: _Cards, ahead: list[_Event]) -> None:
    """Every card of ``kept`` followed as the engine moves it (see the module's
    docstring), ``table`` replaying the kept match's actions alongside; ``ahead``: what
    the match does (from a first pass by a :class:`_Watcher`)."""
    state = table.table
    assert kept.match is not None
    actions = list(kept.match.log)
    for index, action in enumerate(actions):
        if isinstance(cards, _Watcher):
            cards.index = index
        seat, tops, diagonals = state.to_move, list(table.tops), state.diagonals
        rounds, phase = len(state.round_winners), state.phase
        turns = len(state.turns)
        if isinstance(action, Draw):
            cards.nothing_fits(seat, tops, diagonals, str(lazy("a player drew")))
            shown = actions[index + 1]
            assert isinstance(shown, Place)  # the keeper puts the drawn card on a pile
            table.draw_seen(shown.value)
            cards.drawn_to_pile(shown.value)
            continue
        if isinstance(action, Pass):
            wider = diagonals or state.may_diago()  # Q5: a play after DIAGO counts
            cards.nothing_fits(seat, tops, wider, str(lazy("a player passed")))
        if isinstance(action, Place) and phase == "play" and not state.played:
            table.reveal([v for _, v in kept.match.turns[turns].plays])
        table.apply(action)
        if isinstance(action, Place) and phase == "drawn":
            assert cards.drawn is not None
            cards.piles[action.cell].append(cards.drawn)
            cards.drawn = None
        elif isinstance(action, Place):
            cards.play(seat, action.cell, action.value)
            ended = len(state.turns) > turns and not state.turns[-1].won_round
            if ended:  # Q2: the turn passed: nothing else in the hand fitted
                cards.nothing_fits(
                    seat, list(table.tops), diagonals, str(lazy("a player's turn ended"))
                )
        elif isinstance(action, Exchange):
            held = list(cards.hands[seat])
            cards.take(seat, 2)  # drawn after the discard, chosen knowing them
            cards.discard(seat, index, ahead, held)
        elif isinstance(action, Penalty):
            cards.take(seat, 1)
        if len(state.round_winners) > rounds and not state.over:
            cards.deal(state.to_move)


SEARCH_TRIES = 600
"""How many other ways of following the cards the search tries (the choices of which
card was played or discarded, deepest first) before a match is refused: about 2 s at
most. Of 1,200 random matches the first two ways refused 6; with the search 1 (the
other five took 5 to 443 tries)."""


def _next_script(made: list[tuple[int, int]]) -> list[int] | None:
    """The choices of the next try after one that failed having made ``made``: the
    deepest choice with an option left takes its next one (None: none is left)."""
    for k in range(len(made) - 1, -1, -1):
        taken, count = made[k]
        if taken + 1 < count:
            return [t for t, _ in made[:k]] + [taken + 1]
    return None


def kept_quattro_record(kept: KeptQuattro) -> dict[str, Any]:
    """The record of ``kept`` (JSON-ready, the format of :mod:`mathable.engine.records`
    with an explicit deal), checked by replaying it; raises KeptRecordError saying why
    the engine cannot replay the match as kept (see the module's docstring)."""
    table = kept.table_at_start()
    if table is None or kept.match is None:
        raise KeptRecordError(lazy("the four cards turned up are not entered yet"))
    watcher = _Watcher(table.tops, len(kept.players))
    _follow(kept, table, watcher, [])

    def attempt(
        freer_out: bool = False, script: list[int] | None = None
    ) -> tuple[_Cards, dict[int, int] | str | Text]:
        """One way of following the cards: the cards followed, with their values, or
        the text of why they could not be followed."""
        start = kept.table_at_start()
        assert start is not None
        cards = _Cards(start.tops, len(kept.players), freer_out, script)
        try:
            _follow(kept, start, cards, watcher.events)
            return cards, cards.valued()
        except KeptRecordError as exc:
            return cards, exc.text

    cards, values = attempt()
    if not isinstance(values, dict):
        script = _next_script(cards.made)  # the search starts from the first way's choices
        cards, values = attempt(freer_out=True)
        tries = 0
        while not isinstance(values, dict) and script is not None and tries < SEARCH_TRIES:
            tries += 1
            searched, found = attempt(script=script)
            if isinstance(found, dict):
                cards, values = searched, found
            else:
                script = _next_script(searched.made)
    if not isinstance(values, dict):  # the reason of the second way
        raise KeptRecordError(lazy("the hands cannot be reconstructed: {reason}", reason=values))
    setup = {
        "hands": [[values[c] for c in hand] for hand in cards.start_hands],
        "piles": [values[c] for c in range(4)],
        "reserve": [values[c] for c in reversed(cards.start_reserve)],
        "to_move": kept.first,
    }
    game = QUATTRO.create(
        list(kept.players), seed=KEPT_SEED, options={"rounds": kept.rounds}, setup=setup
    )
    assert isinstance(game, QuattroGame)
    for index, action in enumerate(kept.match.log):
        done: Action = action
        if isinstance(action, Exchange):
            done = Exchange((values[cards.discarded[index]],))
        try:
            game.apply(done)
        except MathableError as exc:
            raise KeptRecordError(
                lazy(
                    "action {number} ({action}) does not replay by the rules: {error}",
                    number=index + 1,
                    action=game.format_action(done),
                    error=exc.text,
                )
            ) from None
    _check_same(kept, game)
    return records.to_record(game)


def _check_same(kept: KeptQuattro, game: QuattroGame) -> None:
    """The replay must be the kept match: the piles, the rounds won and the end."""
    assert kept.match is not None
    same = (
        game.snapshot()[1] == kept.match.snapshot()[1]  # every pile, card by card
        and list(game.scores) == kept.scores
        and [list(w) for w in game.round_winners] == kept.round_winners
        and game.is_over == kept.is_over
    )
    if not same:
        raise KeptRecordError(
            lazy(
                "the replay wins rounds {replayed}, the keeper {kept}",
                replayed=str([list(w) for w in game.round_winners]),
                kept=str(kept.round_winners),
            )
        )


__all__ = ["KEPT_SEED", "KeptRecordError", "kept_quattro_record"]
