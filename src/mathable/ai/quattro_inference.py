"""What an opponent's last turn says of the Quattro hand it holds now (Q2, Q3).

A turn of plays ends only when no card of the hand fits any pile (Q2), and a player
draws only when none fits at the turn's start (Q3). So the cards an opponent kept
through its last turn fit none of the piles as that turn left them (or as it found
them, when it was stuck); it has drawn only in its own stuck turns since. The expert
deals each opponent's sampled hand with that in mind (:func:`hand_clues`), as the board
expert infers a rack from what its opponent kept (:mod:`.inference`).

The tops at a past moment are rebuilt from the turns the view lists: each pile's last
card placed by then, or, for a pile nothing was placed on since the view's first turn,
its top now (unless the turn under way put its drawn card on some pile). Where that
cannot be known, or the turn lies in an earlier round, there is no clue.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from mathable.games.quattro.view import PilesView, QuattroTurn

from .quattro_chain import accepted


@dataclass(frozen=True)
class HandClue:
    """All but ``free`` cards of an opponent's hand fit no pile when the tops were
    ``tops`` (diagonals counting when ``diagonals``)."""

    tops: tuple[int, ...]
    diagonals: bool
    free: int

    def fits(self, card: int) -> bool:
        """Whether ``card`` fits some pile under these tops."""
        return any(card in taken for taken in accepted(self.tops, self.diagonals))


def hand_clues(view: PilesView) -> dict[int, HandClue]:
    """Per opponent whose last turn in this round is known, what it says of its hand."""
    turns = view.turns
    if sum(t.won_round for t in turns) != view.round - 1:
        return {}  # a blocked round ended unseen: where this round began is unknown
    start = max((i + 1 for i, t in enumerate(turns) if t.won_round), default=0)
    clues: dict[int, HandClue] = {}
    for index in range(len(turns) - 1, start - 1, -1):
        turn = turns[index]
        if turn.seat == view.seat or turn.seat in clues or turn.kind not in ("play", "stuck"):
            continue
        clue = _clue(view, turns, index, start)
        if clue is not None:
            clues[turn.seat] = clue
    return clues


def _clue(view: PilesView, turns: Sequence[QuattroTurn], index: int, start: int) -> HandClue | None:
    """The clue turn ``index`` gives of its seat's hand now (``start``: the round's
    first turn): diagonals counted as they did then (Q4: its DIAGO, or everyone's by
    then)."""
    turn = turns[index]
    announced = {t.seat for t in turns[start : index + (turn.kind == "play")] if t.diago}
    diagonals = turn.diago or len(announced) >= len(view.players)
    if turn.kind == "play":
        tops = tops_after(view, turns, index, include=True)
        return None if tops is None else HandClue(tops, diagonals, 0)
    tops = tops_after(view, turns, index, include=False)
    return None if tops is None else HandClue(tops, diagonals, 2 if turn.exchanged else 1)


def tops_after(
    view: PilesView, turns: Sequence[QuattroTurn], index: int, include: bool
) -> tuple[int, ...] | None:
    """The four tops just after turn ``index`` (``include``) or just before it, rebuilt
    from the placements the view lists; None when a pile's top then is unknown."""
    placed: list[list[int]] = [[], [], [], []]
    later: list[bool] = [False] * 4
    for i, turn in enumerate(turns):
        cards = [*turn.plays, *([turn.drawn_to] if turn.drawn_to else [])]
        for pile, value in cards:
            if i < index or (i == index and include):
                placed[pile].append(value)
            else:
                later[pile] = True
    for pile, _ in view.turn_plays:
        later[pile] = True
    if view.phase == "after":  # this turn's drawn card lies on a pile the view does not name
        later = [True] * 4
    tops = []
    for pile in range(4):
        if placed[pile]:
            tops.append(placed[pile][-1])
        elif not later[pile]:
            tops.append(view.tops[pile])
        else:
            return None
    return tuple(tops)


def turn_start(view: PilesView) -> PilesView | None:
    """The view its seat had at the start of the turn under way (its plays taken back),
    so a player made afresh mid-turn decides as one kept all turn did; None when the
    piles' tops then cannot be known."""
    turns = view.turns
    if view.seat is None or view.phase != "play":
        return None
    if sum(t.won_round for t in turns) != view.round - 1:
        return None  # a blocked round ended unseen: where this round began is unknown
    start = max((i + 1 for i, t in enumerate(turns) if t.won_round), default=0)
    announced = view.seat in view.diago_used and not any(
        t.seat == view.seat and t.diago for t in turns[start:]
    )
    if not view.turn_plays and not announced:
        return None  # at the turn's start already
    tops = tops_after(view, turns, len(turns), include=True)
    if tops is None:
        return None
    rack = tuple(sorted((*view.rack, *(value for _, value in view.turn_plays))))
    sizes = list(view.rack_sizes)
    sizes[view.seat] = len(rack)
    used = tuple(s for s in view.diago_used if s != view.seat or not announced)
    return replace(
        view,
        surface=tops,
        rack=rack,
        playable=rack,
        rack_sizes=tuple(sizes),
        turn_plays=(),
        diagonals=view.diagonals and not announced,
        diago_used=used,
        pile_sizes=tuple(
            n - sum(p == pile for p, _ in view.turn_plays) for pile, n in enumerate(view.pile_sizes)
        ),
    )
