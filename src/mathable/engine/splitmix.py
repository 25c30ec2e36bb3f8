"""The bag's shuffle (:meth:`~.rng.Rng.shuffle`) for the compiled build: the same
SplitMix64 and Fisher-Yates, the same numbers, with every 64-bit number held as two
32-bit halves.

Why: compiled by mypyc, an integer that fits in 62 bits is a machine word, and a larger
one is a Python object made anew at each step; SplitMix64's 64-bit products made the
compiled :class:`~.rng.Rng` slower than the interpreted one, and the shuffles were the
largest single cost of a greedy self-play game (~15%: a bag of 106 at each game's start,
the bag again at each exchange; issue 35). In halves the mixing's numbers stay below
2**49, and the draw's modulo below 2**62 for lists shorter than :data:`LONGEST`: native
``i64`` never overflows, so compiled and interpreted compute the same. Interpreted,
these are more steps than :class:`~.rng.Rng`'s, so it uses this module only when
compiled (:data:`COMPILED`); a test checks both give the same shuffles.
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import i64

_HALF: Final = 0xFFFFFFFF
_LOW16: Final = 0xFFFF

_GAMMA_HI: Final = 0x9E3779B9
_GAMMA_LO: Final = 0x7F4A7C15
_MIX1_HI: Final = 0xBF58476D
_MIX1_LO: Final = 0x1CE4E5B9
_MIX2_HI: Final = 0x94D049BB
_MIX2_LO: Final = 0x133111EB

LONGEST: Final = 1 << 31
"""Lists shuffled here are shorter (a draw's modulo multiplies two numbers below the
length); :class:`~.rng.Rng` shuffles longer ones itself."""


def _times_low(a: i64, c: i64) -> i64:
    """``a * c`` mod 2**32, both below 2**32: ``a`` cut in 16-bit halves."""
    return ((a & _LOW16) * c + ((((a >> 16) * c) & _LOW16) << 16)) & _HALF


def _times(a_hi: i64, a_lo: i64, c_hi: i64, c_lo: i64) -> tuple[i64, i64]:
    """``a * c`` mod 2**64 as (high, low) halves, from the halves of ``a`` and ``c``."""
    low_by_low0 = (a_lo & _LOW16) * c_lo  # below 2**48
    low_by_low1 = (a_lo >> 16) * c_lo  # below 2**48, worth 2**16 times more
    low_sum = low_by_low0 + ((low_by_low1 & _LOW16) << 16)
    high = (low_sum >> 32) + (low_by_low1 >> 16) + _times_low(a_lo, c_hi) + _times_low(a_hi, c_lo)
    return high & _HALF, low_sum & _HALF


def shuffle(state: int, items: list[Any]) -> int:
    """Shuffle ``items`` in place as ``Rng(state).shuffle`` does (fewer than
    :data:`LONGEST`) and return the generator's state after it."""
    hi: i64 = state >> 32
    lo: i64 = state & _HALF
    for i in range(len(items) - 1, 0, -1):
        n: i64 = i + 1
        wrap: i64 = (1 << 32) % n  # 2**32 mod n
        cut: i64 = (wrap * wrap) % n  # 2**64 mod n: the top ``cut`` outputs are rejected
        while True:
            lo += _GAMMA_LO  # state += gamma
            hi = (hi + _GAMMA_HI + (lo >> 32)) & _HALF
            lo &= _HALF
            z_hi: i64 = hi ^ (hi >> 30)  # z ^= z >> 30
            z_lo: i64 = lo ^ (((lo >> 30) | (hi << 2)) & _HALF)
            z_hi, z_lo = _times(z_hi, z_lo, _MIX1_HI, _MIX1_LO)
            z_lo ^= ((z_lo >> 27) | (z_hi << 5)) & _HALF  # z ^= z >> 27
            z_hi ^= z_hi >> 27
            z_hi, z_lo = _times(z_hi, z_lo, _MIX2_HI, _MIX2_LO)
            z_lo ^= ((z_lo >> 31) | (z_hi << 1)) & _HALF  # z ^= z >> 31
            z_hi ^= z_hi >> 31
            if cut == 0 or z_hi != _HALF or z_lo < (1 << 32) - cut:
                break
        j: i64 = ((z_hi % n) * wrap + z_lo) % n
        items[i], items[j] = items[j], items[i]
    return (int(hi) << 32) | int(lo)


COMPILED: Final = not __file__.endswith(".py")
"""Whether this module runs compiled (else :class:`~.rng.Rng` shuffles by itself)."""
