"""Mathable Quattro, the card game (seed ``004_…``, rulings Q1-Q5), on the same design as
the board games: a game is its seed, its options and a log of actions; the state is
derived by replaying them; only views leave the engine.

Four piles lie in a 2x2 square, A B on top and C D below; only their top cards count.
A card goes on pile P when it is the result of + - x / of P's top and the top of a pile
next to P (sideways or up-down; diagonally too under DIAGO). Notation: ``A=32`` plays a
32 on pile A; ``draw``, ``penalty``, ``exchange 12``, ``diago`` and ``pass``.

>>> game = QuattroGame(["Louis", "Zoé"], setup=QuattroSetup(
...     hands=((32, 25, 1, 1, 1, 1, 1), (2, 2, 2, 2, 2, 2, 2)),
...     piles=(20, 12, 7, 2), reserve=(5, 6, 8, 9)))
>>> sorted(game.format_action(p) for p in game.legal_placements())
['A=32', 'B=32']
>>> game.apply("A=32"); game.legal_placements().count()
2
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from mathable.engine.actions import (
    ACTION_KINDS,
    Action,
    Diago,
    Draw,
    Exchange,
    Pass,
    Penalty,
    Place,
    action_kind,
)
from mathable.engine.explain import Explanation
from mathable.engine.notation import format_action, format_turn
from mathable.engine.protocol import (
    Game,
    GameType,
    HouseRules,
    Target,
    TargetNames,
    TurnSummary,
    Words,
    joined,
    seat_names,
)
from mathable.engine.tokens import CLASSIC_TOKENS
from mathable.engine.validation import check_new_game
from mathable.engine.view import own_fields
from mathable.i18n import current as current_language
from mathable.i18n import lazy, lazy_plural

from .setup import read_deal
from .state import HAND_SIZE, PILE_NAMES, TITLE, QuattroSetup, QuattroState, pile_accepts
from .view import PILES, PilesView, QuattroTurn

__all__ = [
    "PILES",
    "PILE_NAMES",
    "QUATTRO",
    "PilesView",
    "QuattroGame",
    "QuattroSetup",
    "QuattroTurn",
    "pile_accepts",
]


def _create(
    players: Sequence[str] | int,
    *,
    seed: int | None = None,
    house_rules: HouseRules | None = None,
    options: Mapping[str, Any] | None = None,
    setup: Mapping[str, Any] | None = None,
    version: int | None = None,
) -> QuattroGame:
    options = check_new_game(
        QUATTRO, players, seed_value=seed, house_rules=house_rules, options=options
    )
    rounds = options.get("rounds", 1)
    seats = len(seat_names(players))
    deal = None if setup is None else setup_from_dict(setup, seats)
    return QuattroGame(
        players, seed=seed, rounds=rounds, house_rules=house_rules, setup=deal, version=version
    )


def setup_from_dict(data: Mapping[str, Any], players: int) -> QuattroSetup:
    """A chosen deal from a record's ``setup`` for ``players`` seats: hands, piles,
    reserve and to_move, checked in full (see :mod:`.setup`); raises FieldError."""
    return QuattroSetup(*read_deal(data, players))


QUATTRO = GameType(
    name="quattro",
    title_text=TITLE,
    summary_text=lazy(
        "the card game: play a card on one of four piles when it is the result of two "
        "adjacent top cards; first to empty the hand wins the round"
    ),
    version=2,  # 2: Q5, a play after DIAGO counts; the new reserve holds the piles only
    min_players=2,
    max_players=4,
    rack_size=HAND_SIZE,
    piece="card",
    surface="piles",
    columns=2,
    targets=tuple(Target(name, "pile", name) for name in PILES),
    actions=frozenset({"place", "exchange", "pass", "draw", "penalty", "diago"}),
    exchange_exactly=1,
    rounds=True,
    score_unit="rounds",
    rules_text=(
        # TRANSLATORS: the title of a rules page: a game's name, then its rule numbers
        lazy("{game}, the card game  (rules {rules})", game="Mathable Quattro", rules="Q1-Q5"),
        lazy(
            "Four piles lie in a square, A B on top and C D below; only the top cards count. "
            "Play a card on a pile when it is the result of + - x / of that pile's top and "
            "the top of a pile beside it (sideways or up-down) [Q2]. Go on while you can; "
            "then the turn passes."
        ),
        lazy(
            "Stuck at the start of your turn: draw a card and put it on any pile, then "
            "discard one card and draw two, or draw one penalty card [Q3]."
        ),
        lazy(
            "DIAGO: once per round, at the start of your turn, diagonals count too for that "
            "turn; once everyone has used it, diagonals count for all [Q4]."
        ),
        lazy(
            "The first to empty the hand wins the round; the match winner wins the most "
            "rounds [Q5]."
        ),
        lazy(
            "When the reserve runs out, the cards of the four piles, all but each top card, "
            "are turned face down without shuffling into a new reserve; discarded cards "
            "stay out. As a safeguard, a round in which nobody can play (even with DIAGO), "
            "draw or rebuild the reserve is blocked: whoever holds the fewest "
            "cards wins it [Q5]."
        ),
        lazy(
            "Leaving: a player who resigns (or runs out of time online) leaves the match; "
            "their rounds won are frozen and play goes on while two players remain. Those "
            "who leave rank below those who stay [O3]."
        ),
    ),
    create=_create,
)
"""Quattro's metadata and capabilities."""


class QuattroGame(Game):
    """A match of Mathable Quattro: players, seed, number of rounds and the log."""

    _taken_back: ClassVar[Words] = lazy("a card played")

    def __init__(
        self,
        players: Sequence[str] | int = 2,
        *,
        seed: int | None = None,
        rounds: int = 1,
        house_rules: HouseRules | None = None,
        setup: QuattroSetup | None = None,
        version: int | None = None,
    ) -> None:
        """``version``: the rules version to play by (a record's ``variant_version``;
        Quattro's own by default)."""
        self._begin(QUATTRO, players, seed=seed, house_rules=house_rules)
        if not 1 <= rounds <= 99:
            raise ValueError(lazy("play 1 to 99 rounds, not {rounds}", rounds=rounds))
        self.rounds = rounds
        self.setup = setup
        self._rules_version = self._checked_version(version)
        self._state = self._new_state()

    def _new_state(self) -> QuattroState:
        return QuattroState(
            len(self.players), self.seed, self.rounds, self.setup, self.rules_version
        )

    # -- playing -----------------------------------------------------------------

    def _step(self, action: Action) -> None:
        """Quattro's rules (leaving, aborting and shakes come checked): the state checks
        every action before any change."""
        self._state.step(action)

    def _reset(self) -> None:
        self._state = self._new_state()

    def explain(self, action: Place) -> Explanation:
        """Explain playing ``action.value`` on pile ``action.cell`` now (issue 18; the
        card need not be in the hand; nothing changes)."""
        return self._state.explain(action.cell, action.value)

    def explain_turns(self) -> tuple[tuple[Explanation, ...], ...]:
        """Per finished turn, its equation plays explained as the piles stood then: the
        log replayed on a shadow match, kept from one call to the next while the log
        only grows (views ask after every action)."""

        def start() -> tuple[QuattroGame, list[tuple[Explanation, ...]], list[Explanation]]:
            return self.fresh(), [], []

        key = f"explained {current_language()}"
        shadow, done, pending = self._kept(key, self._state, start)
        for action in self._log[len(shadow._log) :]:
            if isinstance(action, Place) and shadow._state.phase == "play":
                pending.append(shadow.explain(action))
            shadow.apply(action)
            while len(done) < len(shadow._state.turns):
                done.append(tuple(pending))
                pending.clear()
        return tuple(done)

    def fresh(self) -> QuattroGame:
        """The same game before any action."""
        return QuattroGame(
            self.players,
            seed=self.seed,
            rounds=self.rounds,
            house_rules=self.house_rules,
            setup=self.setup,
            version=self._rules_version,
        )

    @property
    def cell_names(self) -> TargetNames:
        """Piles are named A, B, C and D."""
        return PILE_NAMES

    def record_fields(self) -> dict[str, Any]:
        """The number of rounds, and an explicit deal when the game has one."""
        fields: dict[str, Any] = {"rounds": self.rounds}
        if self.setup is not None:
            fields["setup"] = {
                "hands": [list(h) for h in self.setup.hands],
                "piles": list(self.setup.piles),
                "reserve": list(self.setup.reserve),
                "to_move": self.setup.to_move,
            }
        return fields

    # -- legal moves -----------------------------------------------------------------

    def legal_placements(self) -> QuattroPlays:
        """The cards the player to move may play on a pile now."""
        return QuattroPlays(self._state)

    def legal_actions(self, *, exchanges: bool = True) -> list[Action]:
        """Every action that would be accepted now (the cards one may give back after
        a round only with ``exchanges``)."""
        state = self._state
        if state.over:
            return []
        if state.phase == "drawn":
            assert state.drawn is not None
            return [Place(p, state.drawn) for p in range(4)]
        if state.phase == "after":
            hand = sorted(set(state.hands[state.to_move]))
            return [*(Exchange((v,)) for v in hand if exchanges), Penalty()]
        actions: list[Action] = list(state.plays())
        if state.played:
            return actions
        if state.may_diago():
            actions.append(Diago())
        if not state.plays():
            if state.can_draw():
                actions.append(Draw())
            elif not state.plays_after_diago():  # Q5: a play after DIAGO counts
                actions.append(Pass())
        return actions

    # -- state -----------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        return self._state.to_move

    @property
    def scores(self) -> tuple[int, ...]:
        """Rounds won by each seat (Q5)."""
        return tuple(self._state.wins)

    @property
    def is_over(self) -> bool:
        return self._state.over

    @property
    def end_text(self) -> Words:
        """Why the match ended: the rounds played, an emptied hand, or a blocked last
        round and who won it with the fewest cards (Q5); a lazy text."""
        state = self._state
        meta = self._meta_end_reason()
        if meta:
            return meta
        if state.over and state.blocked and state.blocked[-1][1] == state.round:
            text = self._blocked_text(state.blocked[-1])
            if self.rounds == 1:
                return text
            return lazy_plural(
                "{blocked}; {count} round played",
                "{blocked}; {count} rounds played",
                self.rounds,
                blocked=text,
            )
        return state.end_reason

    def _blocked_text(self, blocked: tuple[int, int, tuple[int, ...], int]) -> Words:
        """Q5: a blocked round in words, e.g. "round 2 blocked: nobody could play, draw or
        rebuild the reserve; Ann won it with the fewest cards (3)"."""
        _, round_number, winners, cards = blocked
        names = [self.players[s] for s in winners]
        if len(names) == 1:
            return lazy(
                "round {round} blocked: nobody could play, draw or rebuild the reserve; "
                "{name} won it with the fewest cards ({count})",
                round=round_number,
                name=names[0],
                count=cards,
            )
        # TRANSLATORS: names listed, as in "Ann, Bob and Cy"
        who = lazy("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])
        return lazy(
            "round {round} blocked: nobody could play, draw or rebuild the reserve; "
            "{names} share it with the fewest cards ({count})",
            round=round_number,
            names=who,
            count=cards,
        )

    @property
    def bag_size(self) -> int:
        """Cards in the reserve."""
        return len(self._state.reserve)

    @property
    def round(self) -> int:
        return self._state.round

    @property
    def phase(self) -> str:
        """ "play", "drawn" (a stuck player's drawn card awaits its pile) or "after"
        (exchange one card or take a penalty card)."""
        return self._state.phase

    @property
    def drawn(self) -> int | None:
        """The card a stuck player has drawn and not yet put on a pile (hidden from others)."""
        return self._state.drawn

    @property
    def tops(self) -> tuple[int, int, int, int]:
        """The top cards of piles A, B, C, D."""
        a, b, c, d = (p[-1] for p in self._state.piles)
        return (a, b, c, d)

    @property
    def pile_sizes(self) -> tuple[int, ...]:
        return tuple(len(p) for p in self._state.piles)

    @property
    def diagonals(self) -> bool:
        return self._state.diagonals

    @property
    def diago_used(self) -> tuple[int, ...]:
        return tuple(sorted(self._state.diago_used))

    @property
    def turns(self) -> tuple[QuattroTurn, ...]:
        return tuple(self._state.turns)

    @property
    def turn_plays(self) -> tuple[tuple[int, int], ...]:
        return tuple(self._state.played)

    @property
    def round_winners(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self._state.round_winners)

    def rack(self, seat: int) -> tuple[int, ...]:
        """A seat's hand, sorted. Hidden information: show it only to that seat."""
        return tuple(self._state.hands[seat])

    def bag_order(self) -> tuple[int, ...]:
        """The reserve in draw order. Hidden from every player."""
        return tuple(reversed(self._state.reserve))

    def census(self) -> Counter[int]:
        """Every card wherever it is: reserve, hands, piles, trash and a drawn card."""
        state = self._state
        counts = Counter(state.reserve)
        for cards in [*state.hands, *state.piles, state.trash]:
            counts.update(cards)
        if state.drawn is not None:
            counts[state.drawn] += 1
        return counts

    def snapshot(self) -> tuple[object, ...]:
        """The whole state, hidden parts included, as comparable data."""
        s = self._state
        return (
            tuple(map(tuple, s.hands)),
            tuple(map(tuple, s.piles)),
            tuple(s.reserve),
            tuple(s.trash),
            tuple(s.wins),
            s.round,
            s.to_move,
            s.phase,
            s.drawn,
            tuple(s.played),
            tuple(sorted(s.diago_used)),
            s.diago_now,
            tuple(s.turns),
            s.idle,
            s.over,
            tuple(s.blocked),
            tuple(s.out),
            s.rng.state,
        )

    def unseen(self, seat: int | None) -> dict[int, int]:
        """The player card (C13) for cards: the deck minus what ``seat`` sees: the cards
        the piles hold, its own hand and a card it has drawn (Q3), or every hand once the
        match is over (they are shown)."""
        state = self._state
        counts = Counter(CLASSIC_TOKENS)
        for pile in state.piles:
            counts.subtract(pile)
        if state.over:
            for hand in state.hands:
                counts.subtract(hand)
        elif seat is not None:
            counts.subtract(state.hands[seat])
            if seat == state.to_move and state.drawn is not None:
                counts[state.drawn] -= 1
        return {v: max(counts[v], 0) for v in sorted(CLASSIC_TOKENS)}

    def view(self, seat: int | None, *, explained: bool = True) -> PilesView:
        """What ``seat`` may know (None: a spectator)."""
        if seat is not None and not 0 <= seat < len(self.players):
            raise ValueError(lazy("seat {seat} is not in this game", seat=seat))
        n = len(self.players)
        drawn = self.drawn if seat == self.to_move else None
        rack = self.rack(seat) if seat is not None else ()
        return PilesView.of(
            {
                "variant": QUATTRO.name,
                "seat": seat,
                "players": self.players,
                "rack": rack,
                "rack_sizes": tuple(len(self.rack(s)) for s in range(n)),
                "scores": self.scores,
                "bag_size": self.bag_size,
                "to_move": self.to_move,
                "unseen": self.unseen(seat),
                "house_rules": self.house_rules.to_dict(),
                "over": self.is_over,
                "end_reason_text": self.end_text,
                "open_racks": tuple(self.rack(s) for s in range(n)) if self.is_over else (),
                "surface": self.tops,
                "playable": (drawn,) if drawn is not None else rack,
                "available": self.available(seat),
                "summaries": self.explained_summaries() if explained else self.summaries(),
                "status_text": self._status(seat, drawn),
                "left": self.left,
                "pile_sizes": self.pile_sizes,
                "trash_size": len(self._state.trash),
                "phase": self.phase,
                "drawn": drawn,
                "turn_plays": self.turn_plays,
                "diagonals": self.diagonals,
                "diago_used": self.diago_used,
                "round": self.round,
                "rounds": self.rounds,
                "turns": self.turns,
            }
        )

    def own_view_dict(self, seat: int) -> dict[str, Any]:
        """The seat's own keys of its view (its hand, what it has not seen, what it may
        do, its drawn card and the status line that speaks of it), without the rest of
        :meth:`view`."""
        if not 0 <= seat < len(self.players):
            raise ValueError(lazy("seat {seat} is not in this game", seat=seat))
        drawn = self.drawn if seat == self.to_move else None
        rack = self.rack(seat)
        playable = (drawn,) if drawn is not None else rack
        own = own_fields(seat, rack, self.unseen(seat), playable, self.available(seat))
        return {**own, "status": str(self._status(seat, drawn)), "drawn": drawn}

    def _status(self, seat: int | None, drawn: int | None) -> Words:
        """The view's status line for ``seat``: the round, DIAGO, and what the seat to
        move must do with the card it drew or after its turn."""
        status: list[Words] = []
        if self.rounds > 1:
            status.append(lazy("round {round} of {rounds}", round=self.round, rounds=self.rounds))
        if self.diagonals:
            status.append(lazy("DIAGO: diagonals count"))
        if drawn is not None:
            status.append(lazy("put the {value} you drew on a pile", value=drawn))
        elif seat == self.to_move and self.phase == "after":
            status.append(lazy("exchange one card or take a penalty card"))
        return joined(status)

    def available(self, seat: int | None) -> tuple[str, ...]:
        """The action keywords ``seat`` may use now."""
        if seat is None or seat != self.to_move or self._state.out[seat]:
            return ()
        kinds = {action_kind(a) for a in self.legal_actions()}
        return tuple(k for k in ACTION_KINDS if k in kinds)

    def summaries(self) -> tuple[TurnSummary, ...]:
        """Every finished turn in words: the cards played, or the stuck turn's draw; the
        turn that blocked a round says so (Q5). Written once per turn (views are built
        after every action): a turn and the round it blocked are recorded in one step."""
        state = self._state
        written = state.summaries
        if len(written) == len(state.turns):
            return tuple(written)
        blocked = {b[0]: b for b in state.blocked if b[0] >= len(written)}
        for index in range(len(written), len(state.turns)):
            turn = state.turns[index]
            plays = format_turn([Place(p, v) for p, v in turn.plays], PILE_NAMES)
            if turn.drawn_to is not None:
                pile, value = turn.drawn_to
                rest = "exchange" if turn.exchanged else "penalty" if turn.kind != "left" else ""
                text = f"draw {format_action(Place(pile, value), PILE_NAMES)} {rest}".strip()
            else:
                text = plays or turn.kind
            notes: list[Words] = []
            if turn.diago:
                notes.append("DIAGO")  # the word announced, as the rulebook prints it
            if turn.won_round:
                notes.append(lazy("won the round"))
            if index in blocked:
                notes.append(self._blocked_text(blocked[index]))
            stuck = turn.drawn_to is not None  # no card fitted: one was drawn (Q3)
            written.append(TurnSummary(turn.seat, text, 0, tuple(notes), no_fit=stuck))
        return tuple(written)


class QuattroPlays:
    """The equation plays open to the player to move (``in``, ``count()``, iteration)."""

    def __init__(self, state: QuattroState) -> None:
        self._state = state

    def __iter__(self) -> Iterator[Place]:
        return iter(self._state.plays())

    def count(self) -> int:
        return len(self._state.plays())

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return bool(self._state.plays())

    def __contains__(self, place: object) -> bool:
        return place in self._state.plays()
