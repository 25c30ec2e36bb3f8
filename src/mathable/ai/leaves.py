"""Leave values learned from self-play (issue 16), as Macondo learns its superleaves.

What the tokens kept on the rack (the leave) are worth is learned from games, not
guessed: ``mathable train-leaves`` plays strong-versus-strong games in which neither
side values its leave at all (``strong:leaves=none``: so the data carries no bias of an
earlier leave judgement), and records for every turn that ends with tokens drawn from
the bag the leave kept and the points its player scored in its next turn. A linear model
of the leave (one weight per token value for each copy kept, one per extra copy of a
value, one per leave size) is fitted to those points by ridge least squares: the
learned value of a leave is the points it is expected to add to the next turn, over the
average leave of its size. Exact leaves, as Macondo keys them, are far too many for
our token set (46 values, leaves of 0 to 6); the linear model generalises from a few
thousand games.

The model per game ships as ``data/leaves-<game>.json`` and is reproducible from its
seed: the same games, the same seed and the same command write the same file, byte for
byte (the games are gathered in deal order whatever order the processes finish in).
Quattro keeps no rack between turns worth judging (its hand is played out), and on
Junior's numbered side the rules choose the leave (K2: every tile that can go, goes):
no model for either (:func:`unlearnable`).

The next turn is not all a leave costs: a token kept may never find a place, and what is
still on the rack when the game ends is deducted (C11). In self-play a third of a
player's ~140 points of deductions a game came from tokens held since the bag still
held 15 or more. So the same games also teach, for every token value, the chance that a
token kept with so many tokens in the bag is still on the rack at the end (a logistic
model in the logarithm of the bag's size): :meth:`LeaveModel.value_to_the_end` charges
each kept token its value times that chance (``leaves=to-the-end``, a setting of strong
and expert; measured no better than the next turn alone on tuning seeds, issue 16).

This module is the model, its shipped files and the judges the players use (below
:mod:`.strong`); the self-play that trains it is :mod:`.training`, which plays with the
levels of :mod:`mathable.ai` and so sits above them (issue 34: no import circle).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .evaluation import LeaveJudge, leave_value

DATA = Path(__file__).with_name("data")
END_DEDUCTION = 0.6
"""With the bag empty a token kept is likely to be deducted at the end (C11)."""


@dataclass(frozen=True)
class LeaveModel:
    """A learned leave value: per value of each token kept, per extra copy, per size."""

    game: str
    token: dict[int, float]
    duplicate: float
    size: tuple[float, ...]
    stuck: dict[int, tuple[float, float]] = field(default_factory=dict)
    """Per token value, the logistic model (intercept, weight of log(1 + bag size)) of
    the chance that a token kept is still on the rack when the game ends."""

    def value(self, leave: Sequence[int], bag_size: int) -> float:
        """The points ``leave`` is expected to add to its player's next turn (with the
        bag empty: the end-of-game deduction it risks)."""
        if bag_size == 0:
            return -END_DEDUCTION * sum(leave)
        total = self.size[min(len(leave), len(self.size) - 1)]
        token = self.token
        previous = None
        for value in sorted(leave):
            total += token.get(value, 0.0)
            if value == previous:
                total += self.duplicate
            previous = value
        return total

    def stuck_chance(self, value: int, bag_size: int) -> float:
        """The chance that a token of ``value`` kept with ``bag_size`` tokens in the bag
        is still on the rack when the game ends (0 for a value never seen kept)."""
        weights = self.stuck.get(value)
        if weights is None:
            return 0.0
        intercept, slope = weights
        return 1.0 / (1.0 + math.exp(-(intercept + slope * math.log1p(bag_size))))

    def value_to_the_end(self, leave: Sequence[int], bag_size: int) -> float:
        """:meth:`value`, less the deductions the leave risks at the game's end (C11):
        each token's value times the chance it is still on the rack then. With the bag
        empty :meth:`value` already counts them."""
        if bag_size == 0:
            return self.value(leave, 0)
        return self.value(leave, bag_size) - sum(
            value * self.stuck_chance(value, bag_size) for value in leave
        )

    def to_json(self, meta: dict[str, Any]) -> str:
        """The model as the shipped file's text (stable: sorted keys, rounded)."""
        data = {
            "game": self.game,
            "meta": meta,
            "duplicate": round(self.duplicate, 3),
            "size": [round(v, 3) for v in self.size],
            "token": {str(v): round(w, 3) for v, w in sorted(self.token.items())},
            "stuck": {
                str(v): [round(a, 4), round(b, 4)] for v, (a, b) in sorted(self.stuck.items())
            },
        }
        return json.dumps(data, indent=1, sort_keys=True) + "\n"

    @staticmethod
    def from_json(text: str) -> LeaveModel:
        """A model from a file's text."""
        data = json.loads(text)
        return LeaveModel(
            data["game"],
            {int(v): float(w) for v, w in data["token"].items()},
            float(data["duplicate"]),
            tuple(float(v) for v in data["size"]),
            {int(v): (float(a), float(b)) for v, (a, b) in data.get("stuck", {}).items()},
        )


def unlearnable(game: str) -> str | None:
    """Why ``game`` has no leave to learn, or None when it has one."""
    from mathable.games.board.variants import get_variant
    from mathable.games.registry import game_type

    if game_type(game).surface != "board":
        return f"{game} keeps no rack between turns"
    if not get_variant(game).partial_turns:
        return f"in {game} the rules choose what stays on the rack (K2)"
    return None


def path_of(game: str) -> Path:
    """Where the shipped model of ``game`` lives."""
    return DATA / f"leaves-{game}.json"


@cache
def load(game: str) -> LeaveModel | None:
    """The shipped model of ``game``, or None (Quattro, or not trained)."""
    path = path_of(game)
    if not path.exists():
        return None
    return LeaveModel.from_json(path.read_text(encoding="utf-8"))


LEAVE_KINDS = ("learned", "to-the-end", "hand", "none")
"""How a level may value its leave: the shipped model (its next turn), the same with the
deductions it risks at the game's end, the hand-written guess, not at all."""


def judge(kind: str, game: str, rack_size: int) -> LeaveJudge:
    """The leave value of ``kind`` for ``game`` (``learned`` and ``to-the-end`` fall
    back to the hand-written one where no model ships)."""
    if kind in ("learned", "to-the-end"):
        model = load(game)
        if model is not None:
            return model.value_to_the_end if kind == "to-the-end" else model.value
    elif kind == "none":
        return _nothing
    elif kind != "hand":
        raise ValueError(f"leaves={kind}: expected one of {', '.join(LEAVE_KINDS)}")

    def hand(leave: tuple[int, ...], bag_size: int) -> float:
        return leave_value(leave, bag_size, rack_size)

    return hand


def _nothing(leave: tuple[int, ...], bag_size: int) -> float:
    return 0.0
