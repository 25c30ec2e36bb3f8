"""What one seat observes, as arrays: the ``Dict`` observation space of :mod:`mathable.rl`.

Every array is made from the seat's :class:`~mathable.engine.view.View` (what the seat
may know, as a server would send it) and the action mask, never from the game's hidden
state: another seat's rack or the bag's order cannot leak, whatever the game. Seats are
counted from the observer (``scores[0]`` is its own, then the seats after it in turn
order), so one policy can play any seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from mathable.engine.protocol import GameType, View

Observation: TypeAlias = dict[str, npt.NDArray[Any]]
"""One seat's observation: arrays by name (see :func:`observation_space`)."""

EMPTY = -1
"""What ``board`` holds on an empty target (0 is a piece of the classic set)."""
SCORE_BOUND = 1 << 20
"""Scores lie within plus or minus this (far beyond any game's)."""


@dataclass(frozen=True)
class Layout:
    """The shapes of one game's observations: its surface, pieces and seats."""

    rows: int
    columns: int
    values: tuple[int, ...]
    most_of: tuple[int, ...]
    """How many pieces of each value the set holds (the bound of a count)."""
    players: int
    actions: int

    @staticmethod
    def of(kind: GameType, census: Mapping[int, int], players: int, actions: int) -> Layout:
        """The layout of ``kind`` with the set ``census`` (value -> pieces)."""
        values = tuple(sorted(census))
        columns = kind.columns
        return Layout(
            rows=len(kind.targets) // columns,
            columns=columns,
            values=values,
            most_of=tuple(census[v] for v in values),
            players=players,
            actions=actions,
        )

    @property
    def pieces(self) -> int:
        return sum(self.most_of)


def observation_space(layout: Layout) -> spaces.Dict:
    """The ``Dict`` space of a seat's observations:

    - ``board`` (rows x columns, int16): the value on each target (a pile: its top
      card), ``-1`` where empty;
    - ``rack``, ``playable``, ``unseen`` (one count per value of :attr:`Layout.values`,
      int8): the seat's rack, the pieces it places from now (its rack, or Quattro's
      drawn card), and the player card (C13: the pieces it has not seen: the bag and
      the hidden racks);
    - ``scores`` (int32), ``rack_sizes`` (int16): per seat, from the observer on;
    - ``bag_size`` (int16, one number): pieces left to draw;
    - ``to_move`` (int8, one number): how many seats after the observer the seat to
      move is (0: the observer's turn);
    - ``action_mask`` (int8, one per action): 1 where the action is legal for the
      observer now (all 0 when it is not its turn).
    """
    counts = np.array(layout.most_of, dtype=np.int8)
    count = spaces.Box(low=0, high=counts, dtype=np.int8)
    top = max(layout.values)
    return spaces.Dict(
        {
            "board": spaces.Box(EMPTY, top, (layout.rows, layout.columns), np.int16),
            "rack": count,
            "playable": spaces.Box(low=0, high=counts, dtype=np.int8),
            "unseen": spaces.Box(low=0, high=counts, dtype=np.int8),
            "scores": spaces.Box(-SCORE_BOUND, SCORE_BOUND, (layout.players,), np.int32),
            "rack_sizes": spaces.Box(0, layout.pieces, (layout.players,), np.int16),
            "bag_size": spaces.Box(0, layout.pieces, (1,), np.int16),
            "to_move": spaces.Box(0, layout.players - 1, (1,), np.int8),
            "action_mask": spaces.Box(0, 1, (layout.actions,), np.int8),
        }
    )


def counts(layout: Layout, pieces: Iterable[int]) -> npt.NDArray[np.int8]:
    """How many of each value ``pieces`` holds, in :attr:`Layout.values` order."""
    found = np.zeros(len(layout.values), dtype=np.int8)
    index = {v: i for i, v in enumerate(layout.values)}
    for value in pieces:
        found[index[value]] += 1
    return found


def observe(layout: Layout, view: View, mask: npt.NDArray[np.int8]) -> Observation:
    """The observation of ``view.seat`` from its view and its action mask alone."""
    seat = view.seat or 0
    n = layout.players
    order = [(seat + k) % n for k in range(n)]
    unseen = np.array([view.unseen.get(v, 0) for v in layout.values], dtype=np.int8)
    board = np.array(view.surface, dtype=np.int16).reshape(layout.rows, layout.columns)
    return {
        "board": board,
        "rack": counts(layout, view.rack),
        "playable": counts(layout, view.playable),
        "unseen": unseen,
        "scores": np.array([view.scores[s] for s in order], dtype=np.int32),
        "rack_sizes": np.array([view.rack_sizes[s] for s in order], dtype=np.int16),
        "bag_size": np.array([view.bag_size], dtype=np.int16),
        "to_move": np.array([(view.to_move - seat) % n], dtype=np.int8),
        "action_mask": mask,
    }
