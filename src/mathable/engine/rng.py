"""A small seeded generator whose sequence never changes across Python versions.

Game records are a seed plus actions and must replay identically for years, so the
shuffle is SplitMix64 with Fisher-Yates here rather than :mod:`random`, whose algorithms
may change between releases.

>>> Rng(7).shuffled([1, 2, 3, 4, 5]) == Rng(7).shuffled([1, 2, 3, 4, 5])
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from . import splitmix

T = TypeVar("T")
_MASK = (1 << 64) - 1


class Rng:
    """SplitMix64 (Steele, Lea and Flood 2014): tiny, fast, well distributed."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates); compiled, the same shuffle in
        32-bit halves (:mod:`.splitmix`)."""
        if splitmix.COMPILED and len(items) < splitmix.LONGEST:
            self.state = splitmix.shuffle(self.state, items)
            return
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy of ``items``."""
        out = list(items)
        self.shuffle(out)
        return out
