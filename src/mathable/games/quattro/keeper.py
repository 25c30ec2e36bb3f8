"""The score keeper for Mathable Quattro (issue 37): a match played with real cards at a
table, kept turn by turn as it is played.

The hands are unknown (ruling R1's spirit): any card value still unseen may be played,
and no value more often than the deck holds it (Q1). Every rule is the engine's: the kept
match *is* a :class:`~.game.QuattroGame` whose hands and reserve hold cards of unknown
value (:data:`UNKNOWN`); a card the table sees (played, or drawn and put on a pile) takes
its value as it is entered, so the engine checks every play (Q2), the stuck turn (Q3),
DIAGO (Q4), the piles' reserve, the rounds, their winners and blocked rounds (Q5). What
the keeper adds is the table: how many cards each hand and the reserve hold (counts
follow from the turns), undo, and the score sheet.

A kept match is a log of entries, one line each, in the engine's notation of Quattro's
actions (``A=32`` a card on pile A; ``draw``, ``penalty``, ``diago``, ``pass``):

- ``A=20 B=12 C=7 D=2``: the first entry, the four cards turned up (Q1);
- ``A=32 B=5``: the cards a player played, in order (Q2), ``diago A=32`` after DIAGO (Q4);
- ``draw C=7 exchange`` or ``draw C=7 penalty``: a stuck turn (Q3): the card drawn and the
  pile it went on, then an exchange (the card discarded face down: no value) or a penalty;
- ``pass``: nothing to play nor to draw (Q5); ``undo``: the last entry taken back.

>>> kept = KeptQuattro(["Louis", "Zoé"])
>>> _ = kept.play("A=20 B=12 C=7 D=2")
>>> kept.play("A=32").explanations[0].text()
'32 = 20 + 12 (A, B)'
>>> kept.play("draw B=9 penalty").kind, kept.hands, kept.to_move
('stuck', [6, 8], 0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from mathable.engine.actions import Diago, Draw, Exchange, Pass, Penalty
from mathable.engine.entries import EntryLog, check_table
from mathable.engine.errors import IllegalMove, NotationError
from mathable.engine.explain import Explanation
from mathable.engine.notation import parse_placement
from mathable.engine.tokens import CLASSIC_TOKENS, pieces_text
from mathable.i18n import lazy

from .game import QUATTRO, QuattroGame
from .state import HAND_SIZE, PILE_NAMES, QuattroSetup, QuattroState
from .view import PILES

UNKNOWN = -1
"""A card the table has not seen (in a hand or the reserve): no pile ever takes it."""


DECK = sum(CLASSIC_TOKENS.values())
"""Q1: the 106 cards."""


class _TableState(QuattroState):
    """The engine's state of a match whose hidden cards are unknown: a card drawn from the
    reserve (by the engine's own rules, the reserve rebuilt as Q5 says) is the value the
    table saw, if it saw one, else :data:`UNKNOWN`."""

    seen: list[int]

    def _draw(self) -> int | None:
        card = super()._draw()
        if card is None:
            return None
        seen = getattr(self, "seen", [])
        return seen.pop() if seen else UNKNOWN


class TableGame(QuattroGame):
    """A :class:`~.game.QuattroGame` on a :class:`_TableState`."""

    def _new_state(self) -> QuattroState:
        state = _TableState(
            len(self.players), self.seed, self.rounds, self.setup, self.rules_version
        )
        state.seen = []
        return state

    @property
    def table(self) -> QuattroState:
        """The state, for the keeper (the hands' unknown cards it fills as they show)."""
        return self._state

    def draw_seen(self, value: int) -> None:
        """Q3: the stuck player's draw, the card drawn being the ``value`` the table saw."""
        state = self._state
        assert isinstance(state, _TableState)
        state.seen = [value]
        self.apply(Draw())

    def reveal(self, values: Sequence[int]) -> None:
        """The cards the player to move is about to play show: as many unknown cards of
        the hand take these ``values`` (all of a turn's at once, so the engine does not
        end the turn while the table's next card is still unknown)."""
        hand = self._state.hands[self.to_move]
        for value in values:
            hand.remove(UNKNOWN)
            hand.append(value)
        hand.sort()


@dataclass(frozen=True)
class KeptCard:
    """One card a kept turn put on a pile (the pile's name and the value)."""

    cell: str
    value: int
    points: int = 0
    """Quattro scores rounds, not cards (Q5)."""
    extra: bool = False
    mistake: bool = False


@dataclass(frozen=True)
class KeptQuattroTurn:
    """One turn as kept: who played it, what (the engine's notation), and the rounds it
    won (its ``points``)."""

    seat: int
    kind: str
    """``place`` (cards played), ``stuck`` (Q3) or ``pass``; ``piles`` for the cards
    turned up at the start (not a turn: never in :attr:`KeptQuattro.turns`)."""
    notation: str
    placements: tuple[KeptCard, ...] = ()
    points: int = 0
    """The rounds the turn won its player (Q5: 1 when it emptied the hand)."""
    bonus: int = 0
    exchanged: int = 0
    """1 when the stuck turn ended with an exchange (Q3)."""
    challenged: bool = False
    held: int = 0
    """The cards in the player's hand at the turn's start (counted)."""
    round: int = 1
    round_won_by: tuple[int, ...] = ()
    """The winners of the round this turn ended (Q5; more than one: a blocked round shared)."""
    diago: bool = False
    notes: tuple[str, ...] = ()
    """What else happened, in words (DIAGO, won the round, a blocked round)."""
    explanations: tuple[Explanation, ...] = field(default=(), compare=False)
    """Each card played explained as the piles stood when it was played."""


class KeptQuattro(EntryLog):
    """A match of Mathable Quattro on a real table, kept turn by turn (see the module's
    docstring): the same protocol as the board games' :class:`~mathable.games.board.
    keeper.KeptGame`. ``players`` in seat order, ``first`` the seat that starts,
    ``rounds`` the rounds agreed (Q5). Every refusal is an IllegalMove (rule, pile) or a
    NotationError, and leaves the match as it was."""

    def __init__(
        self, players: Sequence[str], first: int = 0, referee: bool = False, rounds: int = 1
    ) -> None:
        check_players(players)
        if not 0 <= first < len(players):
            raise IllegalMove(lazy("there is no seat {seat} in this game", seat=first))
        if referee:
            raise IllegalMove(
                lazy("the table referee (C12) is a house rule of the board games"), rule="C12"
            )
        if not 1 <= rounds <= 99:
            raise IllegalMove(lazy("play 1 to 99 rounds, not {rounds}", rounds=rounds), rule="Q5")
        self.name = QUATTRO.name
        self.title = QUATTRO.title_text
        self.players = tuple(players)
        self.first = first
        self.referee = False
        self.rounds = rounds
        EntryLog.__init__(self)
        self._rebuild()

    # -- the state, derived from the entries -------------------------------------------

    def _rebuild(self) -> None:
        self.match: TableGame | None = None
        self.turns: list[KeptQuattroTurn] = []
        for entry in self._entries:
            self._apply(entry)

    def _start(self, piles: tuple[int, int, int, int]) -> TableGame:
        """The engine's match from the four cards turned up: unknown hands of 7 (Q1) and
        the rest of the deck in the reserve."""
        count = len(self.players)
        hands = tuple((UNKNOWN,) * HAND_SIZE for _ in range(count))
        reserve = (UNKNOWN,) * (DECK - 4 - HAND_SIZE * count)
        setup = QuattroSetup(hands, piles, reserve, to_move=self.first)
        return TableGame(self.players, seed=0, rounds=self.rounds, setup=setup)

    def table_at_start(self) -> TableGame | None:
        """A new engine match as the kept one began (the cards turned up, the hands and
        reserve unknown), for a reader that follows its actions one by one (the record);
        None before the cards are turned up."""
        if self.match is None:
            return None
        assert self.match.setup is not None  # a kept match is always a chosen deal
        return self._start(self.match.setup.piles)

    @property
    def started(self) -> bool:
        """Whether the four cards turned up at the start are entered."""
        return self.match is not None

    @property
    def to_move(self) -> int:
        return self.first if self.match is None else self.match.to_move

    @property
    def scores(self) -> list[int]:
        """Rounds won by each player (Q5)."""
        return [0] * len(self.players) if self.match is None else list(self.match.scores)

    @property
    def is_over(self) -> bool:
        """Whether the last round agreed has been won (Q5)."""
        return self.match is not None and self.match.is_over

    @property
    def round(self) -> int:
        return 1 if self.match is None else self.match.round

    @property
    def round_winners(self) -> list[list[int]]:
        """The winners of each round played (more than one: a blocked round shared)."""
        return [] if self.match is None else [list(w) for w in self.match.round_winners]

    @property
    def hands(self) -> list[int]:
        """The cards in each hand (counted, never their values)."""
        if self.match is None:
            return [HAND_SIZE] * len(self.players)
        return [len(self.match.rack(s)) for s in range(len(self.players))]

    @property
    def reserve(self) -> int:
        """The cards in the reserve."""
        return (
            DECK - 4 - HAND_SIZE * len(self.players) if self.match is None else self.match.bag_size
        )

    @property
    def piles(self) -> list[int | None]:
        """The top card of piles A, B, C and D (None before they are turned up)."""
        return [None] * 4 if self.match is None else list(self.match.tops)

    @property
    def pile_sizes(self) -> list[int]:
        return [0] * 4 if self.match is None else list(self.match.pile_sizes)

    @property
    def diagonals(self) -> bool:
        """Q4: diagonals count now (for everyone, once each player has used DIAGO)."""
        return self.match is not None and self.match.diagonals

    @property
    def diago_used(self) -> list[int]:
        """The players who have used their DIAGO this round (Q4)."""
        return [] if self.match is None else list(self.match.diago_used)

    @property
    def ending(self) -> bool:
        """A match ends by itself with its last round (Q5): never an end to enter."""
        return False

    @property
    def left(self) -> None:
        """No cards are counted left at a Quattro match's end (Q5: rounds, not points)."""
        return None

    def deductions(self) -> list[int]:
        return [0] * len(self.players)

    def end_text(self) -> str:
        """Why the match ended, in words ('' while it goes on)."""
        return str(self.match.end_text) if self.match is not None and self.is_over else ""

    def unseen(self) -> dict[int, int]:
        """The player card as the table sees it: per value, the cards not on a pile (the
        engine's spectator's card: its hands hold no card the table has seen)."""
        if self.match is None:
            return dict(sorted(CLASSIC_TOKENS.items()))
        return self.match.unseen(None)

    # -- playing -------------------------------------------------------------------

    def play(self, text: str) -> KeptQuattroTurn:
        """Enter one line (see the module's docstring); returns the turn it made (for
        ``undo`` the turn now last). Refused with IllegalMove or NotationError, the
        match unchanged."""
        entry = self.entered(text)
        made: KeptQuattroTurn | None = None
        if entry.lower() == "undo":
            self._undo()
        else:
            made = self._enter(entry, self._apply)
        self.log.append(entry)
        if made is not None:
            return made
        return self.turns[-1] if self.turns else KeptQuattroTurn(self.first, "piles", "")

    def _apply(self, entry: str) -> KeptQuattroTurn:
        """Apply one entry (raises, possibly half-applied: the caller rebuilds)."""
        words = entry.split()
        if not words:
            raise NotationError(
                lazy("an empty entry: write cards like A=32, 'draw C=7 penalty' or 'pass'")
            )
        if words[0].lower() == "end":  # the board games' end: tokens left to deduct (C11)
            raise IllegalMove(
                lazy("a Quattro match ends by its rounds: no cards are counted at its end"),
                rule="Q5",
            )
        if self.match is None:
            return self._turn_up(words)
        match = self.match
        if match.is_over:
            raise IllegalMove(lazy("the match is over"), rule="Q5")
        state = match.table
        seat = match.to_move
        held, wins, rounds, number = (
            len(match.rack(seat)),
            match.scores[seat],
            len(match.round_winners),
            match.round,
        )
        done = len(state.turns)
        rest = list(words)
        if rest[0].lower() == "diago":
            match.apply(Diago())
            rest = rest[1:]
        if not rest:
            raise NotationError(lazy("after DIAGO, the cards played or the stuck turn"))
        explanations: tuple[Explanation, ...] = ()
        keyword = rest[0].lower()
        if keyword == "pass" and len(rest) == 1:
            match.apply(Pass())
        elif keyword == "draw":
            self._stuck(match, rest)
        else:
            explanations = self._cards(match, rest, done)
        assert len(state.turns) > done  # the hand holds no card the table has seen
        made = state.turns[done]
        summary = match.summaries()[done]
        text = ("diago " if made.diago else "") + summary.notation
        turn = KeptQuattroTurn(
            seat,
            {"play": "place"}.get(made.kind, made.kind),
            text,
            tuple(KeptCard(PILES[p], v) for p, v in made.plays),
            points=match.scores[seat] - wins,
            exchanged=1 if made.exchanged else 0,
            held=held,
            round=number,
            round_won_by=match.round_winners[-1] if len(match.round_winners) > rounds else (),
            diago=made.diago,
            notes=tuple(str(n) for n in summary.notes if str(n) != "DIAGO"),
            explanations=explanations,
        )
        self.turns.append(turn)
        return turn

    def _turn_up(self, words: Sequence[str]) -> KeptQuattroTurn:
        """Q1: the four cards turned up, one on each pile (``A=20 B=12 C=7 D=2``)."""
        places = [parse_placement(word, PILE_NAMES) for word in words]
        if sorted(p.cell for p in places) != [0, 1, 2, 3] or any(p.extra for p in places):
            raise NotationError(
                lazy("first the four cards turned up, one on each pile: A=20 B=12 C=7 D=2")
            )
        self._check_deck([p.value for p in places], {})
        tops = {p.cell: p.value for p in places}
        self.match = self._start((tops[0], tops[1], tops[2], tops[3]))
        notation = " ".join(f"{PILES[c]}={tops[c]}" for c in range(4))
        return KeptQuattroTurn(self.first, "piles", notation)

    def _check_deck(self, values: Sequence[int], unseen: dict[int, int]) -> None:
        """Q1: no value more often than the deck holds it (``unseen``: none seen yet)."""
        wanted = Counter(values)
        for value, count in sorted(wanted.items()):
            deck = CLASSIC_TOKENS.get(value, 0)
            free = unseen.get(value, 0) if unseen else deck
            if count > free:
                raise IllegalMove(
                    lazy(
                        "the deck holds {cards} of {value}: {seen} already on the piles",
                        cards=pieces_text("card", deck),
                        value=value,
                        seen=deck - free,
                    )
                    if deck
                    else lazy("there is no card {value} in the deck", value=value),
                    rule="Q1",
                )

    def _stuck(self, match: TableGame, words: Sequence[str]) -> None:
        """Q3: ``draw C=7 exchange`` or ``draw C=7 penalty``."""
        ending = words[-1].lower() if len(words) == 3 else ""
        if ending not in ("exchange", "penalty"):
            raise NotationError(
                lazy(
                    "a stuck turn: 'draw', the pile and the card drawn, then 'exchange' or "
                    "'penalty', like draw C=7 penalty"
                )
            )
        place = parse_placement(words[1], PILE_NAMES)
        match.draw_seen(place.value)  # the card the engine draws: as the table saw it
        self._check_deck([place.value], self.unseen())  # (the reserve may have been rebuilt)
        match.apply(place)
        match.apply(Exchange((UNKNOWN,)) if ending == "exchange" else Penalty())

    def _cards(self, match: TableGame, words: Sequence[str], done: int) -> tuple[Explanation, ...]:
        """Q2: the cards played in order, each checked and explained by the engine."""
        places = [parse_placement(word, PILE_NAMES) for word in words]
        state = match.table
        seat = match.to_move
        hand = state.hands[seat]
        if len(places) > len(hand):
            raise IllegalMove(
                lazy(
                    "{name} holds {cards}",
                    name=self.players[seat],
                    cards=pieces_text("card", len(hand)),
                ),
                rule="Q2",
            )
        self._check_deck([p.value for p in places], self.unseen())
        match.reveal([p.value for p in places])  # the hand's unknown cards show
        diago = state.diago_now
        explained = []
        for place in places:
            if len(state.turns) > done:  # the engine ended the turn: nothing fitted
                state.diago_now = diago  # (the state is rebuilt after the refusal)
            shown = match.explain(place)
            if not shown.legal:
                raise IllegalMove(shown.reason, rule=shown.rule, where=f"pile {shown.target}")
            explained.append(shown)
            match.apply(place)
        return tuple(explained)

    # -- what the table reads ------------------------------------------------------------

    def sheet(self) -> str:
        """The match as a sheet: the cards turned up, one line per turn in the engine's
        notation, and each round's winners."""
        lines = [f"# {self.title}: kept at the table (mathable keep)"]
        if self.match is not None:
            lines.append("# " + self._entries[0])
        for turn in self.turns:
            lines.append(f"{self.players[turn.seat]}: {turn.notation}")
            if turn.round_won_by:
                winners = ", ".join(self.players[s] for s in turn.round_won_by)
                lines.append(f"# round {turn.round}: {winners}")
        return "\n".join(lines) + "\n"


def check_players(players: Sequence[str]) -> None:
    """Refuse a table Quattro cannot seat: the number of players, empty, too long or equal
    names."""
    check_table(
        players,
        QUATTRO.title_text,
        QUATTRO.min_players,
        QUATTRO.max_players,
        lambda name: " ".join(name.split()),
        lambda _name, shown: not shown or shown.startswith("#"),
    )


__all__ = ["UNKNOWN", "KeptCard", "KeptQuattro", "KeptQuattroTurn", "TableGame", "check_players"]
