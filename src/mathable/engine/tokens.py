"""Token sets as data: how many tokens of each value a game holds.

>>> sum(CLASSIC_TOKENS.values()), CLASSIC_TOKENS[5], CLASSIC_TOKENS[12]
(106, 7, 1)
>>> sum(JUNIOR_TOKENS.values())
60
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mathable.i18n import Text, lazy, lazy_plural

TokenCounts = Mapping[int, int]

_CLASSIC_SINGLES = (
    0, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 24, 25, 27, 28, 30, 32, 35, 36,
    40, 42, 45, 48, 49, 50, 54, 56, 60, 63, 64, 70, 72, 80, 81, 90,
)  # fmt: skip

CLASSIC_TOKENS: TokenCounts = {
    **{v: 7 for v in range(1, 11)},
    **{v: 1 for v in _CLASSIC_SINGLES},
}
"""The 106 tokens of the classic distribution table (ruling C2); Quattro's cards too."""

JUNIOR_TOKENS: TokenCounts = {**{v: 5 for v in range(1, 11)}, **{v: 1 for v in range(11, 21)}}
"""Mathable Junior's 60 tiles: 1-10 five times, 11-20 once (ruling J2)."""


def as_list(counts: TokenCounts) -> list[int]:
    """Every token of a set, sorted by value."""
    return [v for v in sorted(counts) for _ in range(counts[v])]


def not_held(tokens: Iterable[int], held: Iterable[int]) -> list[int]:
    """The tokens of ``tokens`` beyond what ``held`` holds, each counted once (an
    exchange of two 5s needs two on the rack; empty when all are held)."""
    left = list(held)
    missing = []
    for value in tokens:
        if value in left:
            left.remove(value)
        else:
            missing.append(value)
    return missing


def pieces_text(piece: str, count: int) -> Text:
    """A number of a game's pieces in words, as a lazy text (``1 token``, ``3 tiles``,
    ``7 cards``), for ``piece`` ``token``, ``tile`` or ``card`` (a game's ``piece``)."""
    if piece == "card":
        return lazy_plural("{count} card", "{count} cards", count)
    if piece == "tile":
        return lazy_plural("{count} tile", "{count} tiles", count)
    return lazy_plural("{count} token", "{count} tokens", count)


def piece_name(piece: str) -> Text:
    """The name of one of a game's pieces (``token``, ``tile``, ``card``), for people."""
    if piece == "card":
        # TRANSLATORS: one of Mathable Quattro's playing cards
        return lazy("card")
    if piece == "tile":
        # TRANSLATORS: one of Mathable Junior's numbered tiles
        return lazy("tile")
    # TRANSLATORS: one of Mathable's numbered tokens (the pieces placed on the board)
    return lazy("token")
