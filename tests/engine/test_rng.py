"""The seeded generator of every bag (``engine/rng.py``) and its compiled shuffle in
32-bit halves (``engine/splitmix.py``, issue 35): records replay only if both draw the
same numbers forever."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mathable.engine import splitmix
from mathable.engine.rng import Rng

SEEDS = st.integers(min_value=0, max_value=(1 << 64) - 1)


def fisher_yates(rng: Rng, items: list[int]) -> None:
    """The shuffle as written in the reference: Fisher-Yates on ``Rng.below``."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


def test_the_generator_is_splitmix64() -> None:
    # The first outputs of the reference SplitMix64 (Vigna's splitmix64.c) from state 0.
    rng = Rng(0)
    assert [rng.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


@settings(max_examples=300)
@given(SEEDS, st.integers(min_value=0, max_value=300))
def test_the_shuffle_in_halves_is_the_reference_shuffle(seed: int, size: int) -> None:
    expected, rng = list(range(size)), Rng(seed)
    fisher_yates(rng, expected)
    got = list(range(size))
    assert splitmix.shuffle(seed, got) == rng.state
    assert got == expected


@settings(max_examples=100)
@given(SEEDS, st.integers(min_value=0, max_value=300))
def test_a_bag_shuffles_alike_compiled_or_not(seed: int, size: int) -> None:
    expected, reference = list(range(size)), Rng(seed)
    fisher_yates(reference, expected)
    rng = Rng(seed)
    got = list(range(size))
    rng.shuffle(got)
    assert got == expected and rng.state == reference.state
    assert rng.next64() == reference.next64()  # the draws after it too


MASK = (1 << 64) - 1


def state_before(output: int) -> int:
    """The state whose next SplitMix64 output is ``output`` (its mixing inverted)."""

    def unshift(y: int, k: int) -> int:
        z = y
        for _ in range(64 // k + 1):
            z = y ^ (z >> k)
        return z

    z = unshift(output, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
    z = unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
    z = unshift(z, 30)
    return (z - 0x9E3779B97F4A7C15) & MASK


def test_an_output_in_the_rejected_top_is_drawn_again_in_halves_too() -> None:
    # below(n) rejects the top 2**64 mod n outputs (no modulo bias); with 3 items the
    # first draw is below(3), which rejects 2**64 - 1 alone.
    for size, output in ((3, MASK), (7, MASK - 1), (106, MASK - 5), (5, MASK)):
        seed = state_before(output)
        rng = Rng(seed)
        assert rng.next64() == output
        cut = (1 << 64) % size
        expected, reference = list(range(size)), Rng(seed)
        fisher_yates(reference, expected)
        got = list(range(size))
        assert splitmix.shuffle(seed, got) == reference.state
        assert got == expected
        if output >= (1 << 64) - cut:  # rejected: the shuffle drew one more number
            assert reference.state == (seed + size * 0x9E3779B97F4A7C15) & MASK
