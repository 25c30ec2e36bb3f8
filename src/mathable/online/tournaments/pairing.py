"""Pairing a round: Swiss (Dutch-style) and round robin (Berger tables).

**Swiss.** Players are ranked by points, then rating, then id. The highest-ranked player
still unpaired meets, in order of preference: the first player of the bottom half of their
score group (top half against bottom half, as the Dutch system does), then the rest of the
bottom half, then the top half from its lower end (transpositions), then the players of
the lower score groups in rank order (the player floats down). A depth-first search with
backtracking takes the first preference that lets the whole round be paired, under
three rules weighed in this order: (a) no pair meets twice, (b) no second bye to anyone,
(c) every first-player balance (moves first minus moves second) stays within ±1. The
levels try every combination, most important rule kept longest: (a b c), (a b), (a c),
(a), (b c), (b), (c), none; where repeats are allowed, those who met least often are
tried first. So a rule gives way only when no pairing keeps it together with the more
important ones.

The backtracking answers at once on ordinary rounds; after :data:`QUICK_STEPS` steps (a
crowded late round) the same choice is made in polynomial time by :func:`_exact`, which
asks a blossom matching (:mod:`.matching`) whether the rest can still be paired, so every
level is exact on any field.

With an odd count, the bye goes to the lowest-ranked player, among those allowed at the
level, for whom the rest can be paired. Within a board the player with the lower balance
moves first; on equal balances, the one who moved second most recently; with identical
histories (round one), the higher-ranked player moves first on odd boards, second on
even ones.

**Round robin.** FIDE's Berger tables (Handbook C.05, Annex 1), by the circle method:
the players are numbered by rating at the first round (higher first, then id); with an odd
count the last number is a bye seat. A board whose player has withdrawn is not played and
its opponent sits the round out.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from mathable.online.tournaments.history import Record, points_of, rank_order, records
from mathable.online.tournaments.matching import Matcher
from mathable.online.tournaments.model import Board, Paired, State

QUICK_STEPS = 200
"""Backtracking steps (beyond two per player) before the exact search takes over."""
PRUNE_BELOW = 24
"""Fields at most this large check at every step that nobody is left without a partner."""

Allowed = Callable[[str, str], bool]


class _OutOfBudget(Exception):
    pass


def first_and_second(a: str, b: str, table: dict[str, Record], board: int) -> tuple[str, str]:
    """Who of ``a`` (ranked higher) and ``b`` moves first on ``board``."""
    ra, rb = table[a], table[b]
    if ra.balance != rb.balance:
        return (a, b) if ra.balance < rb.balance else (b, a)
    for sa, sb in zip(reversed(ra.seats), reversed(rb.seats), strict=False):
        if sa != sb:
            return (a, b) if sa == "second" else (b, a)
    return (a, b) if board % 2 == 1 else (b, a)


def within_one(x: int, y: int) -> bool:
    """Players with first-player balances ``x`` and ``y`` can meet and both end within ±1
    (the lower balance moving first is then such a way)."""
    return (abs(x + 1) <= 1 and abs(y - 1) <= 1) or (abs(x - 1) <= 1 and abs(y + 1) <= 1)


def colours_fit(table: dict[str, Record]) -> Allowed:
    """Two players may meet and both keep a first-player balance within ±1."""

    def fits(a: str, b: str) -> bool:
        return within_one(table[a].balance, table[b].balance)

    return fits


def _preferences(top: str, rest: list[str], points: dict[str, float]) -> list[str]:
    """``rest`` (in rank order) in the order ``top`` prefers to meet them."""
    group = [p for p in rest if points[p] == points[top]]
    lower = [p for p in rest if points[p] != points[top]]
    half = (len(group) + 1) // 2  # top is the group's first; group holds the others
    return group[half - 1 :] + group[: half - 1][::-1] + lower


def _allowed(table: dict[str, Record], fits: Allowed, no_repeat: bool, colours: bool) -> Allowed:
    """The pairs a level allows: no repeat, first-player balance within ±1, as asked."""

    def allowed(a: str, b: str) -> bool:
        return not (no_repeat and table[a].met[b]) and (not colours or fits(a, b))

    return allowed


def _candidates(
    top: str, rest: list[str], points: dict[str, float], table: dict[str, Record]
) -> list[str]:
    """Whom ``top`` tries, in order: by preference, those met least often first."""
    met = table[top].met
    return sorted(_preferences(top, rest, points), key=lambda q: met[q])


def _match(
    order: list[str],
    points: dict[str, float],
    table: dict[str, Record],
    allowed: Allowed,
    steps: list[int],
) -> list[tuple[str, str]] | None:
    """Pair ``order`` (rank order) by preference with backtracking, or None; raises
    :class:`_OutOfBudget` after ``steps[1]`` steps."""
    if not order:
        return []
    steps[0] += 1
    if steps[0] > steps[1]:
        raise _OutOfBudget
    if len(order) <= PRUNE_BELOW and any(
        not any(allowed(p, q) for q in order if q != p) for p in order
    ):
        return None
    top, rest = order[0], order[1:]
    for partner in _candidates(top, rest, points, table):
        if not allowed(top, partner):
            continue
        found = _match([p for p in rest if p != partner], points, table, allowed, steps)
        if found is not None:
            return [(top, partner), *found]
    return None


def _exact(
    order: list[str], points: dict[str, float], table: dict[str, Record], allowed: Allowed
) -> list[tuple[str, str]] | None:
    """What :func:`_match` finds, in polynomial time: each top player takes their first
    candidate that leaves the rest a perfect matching (:class:`.matching.Matcher`)."""
    matcher = Matcher(order, allowed)
    if not matcher.perfect():
        return None
    left, pairs = list(order), []
    while left:
        top, rest = left[0], left[1:]
        partner = next(
            q
            for q in _candidates(top, rest, points, table)
            if allowed(top, q) and matcher.take(top, q)
        )
        pairs.append((top, partner))
        left = [p for p in rest if p != partner]
    return pairs


def _pair_level(
    order: list[str],
    points: dict[str, float],
    table: dict[str, Record],
    allowed: Allowed,
    bye_candidates: Sequence[str | None],
    colours: bool,
) -> tuple[list[tuple[str, str]], str | None] | None:
    """The pairing of the first bye candidate for whom one exists, or None."""
    for bye in bye_candidates:
        field = [p for p in order if p != bye]
        if colours and not _balanced_counts(field, table):
            continue
        try:
            found = _match(field, points, table, allowed, [0, QUICK_STEPS + 2 * len(field)])
        except _OutOfBudget:
            found = _exact(field, points, table, allowed)
        if found is not None:
            return found, bye
    return None


def _balanced_counts(order: list[str], table: dict[str, Record]) -> bool:
    """A quick necessary condition for pairing ``order`` (the bye set aside) with every
    balance kept within ±1: at most half lean either way, nobody beyond ±2."""
    balances = [table[p].balance for p in order]
    high = sum(1 for b in balances if b >= 1)
    low = sum(1 for b in balances if b <= -1)
    return max(high, low) * 2 <= len(order) and all(abs(b) <= 2 for b in balances)


def swiss_pairing(state: State, now: float) -> Paired:
    """The next Swiss round for the active players (see the module's docstring)."""
    table = records(state)
    points = points_of(state, table)
    order = rank_order(state, points, state.active())

    fits = colours_fit(table)
    bottom_up = order[::-1]
    no_second = [p for p in bottom_up if table[p].byes == 0]
    fewest_byes = sorted(bottom_up, key=lambda p: table[p].byes)  # stable: lowest first
    odd = len(order) % 2 == 1
    found: tuple[list[tuple[str, str]], str | None] | None = None
    for no_repeat, one_bye, colours in itertools.product((True, False), repeat=3):
        if not odd and not one_bye:
            continue  # no bye to give: the same level as with one_bye
        allowed = _allowed(table, fits, no_repeat, colours)
        byes: Sequence[str | None] = (no_second if one_bye else fewest_byes) if odd else [None]
        found = _pair_level(order, points, table, allowed, byes, colours)
        if found is not None:
            break
    if found is None:  # the last level allows every pair: a complete graph always pairs
        raise AssertionError("no pairing at the last level")
    pairs, bye = found
    boards = tuple(
        Board(number, *first_and_second(a, b, table, number))
        for number, (a, b) in enumerate(pairs, start=1)
    )
    return Paired(len(state.rounds) + 1, boards, bye, max(now, state.last_at))


# ---------------------------------------------------------------- round robin


def berger_round(count: int, number: int) -> list[tuple[int, int]]:
    """Round ``number``'s boards of FIDE's Berger table for ``count`` players (even),
    numbers from 1, the first of each pair moving first.

    >>> berger_round(6, 1)
    [(1, 6), (2, 5), (3, 4)]
    >>> berger_round(6, 2)
    [(6, 4), (5, 3), (1, 2)]
    """
    if count < 2 or count % 2:
        raise ValueError(f"a Berger table needs an even count of players, not {count}")
    if not 1 <= number < count:
        raise ValueError(f"{count} players play rounds 1 to {count - 1}, not {number}")
    ring = count - 1
    start = (number - 1) * (count // 2) % ring
    line = [(start + i) % ring + 1 for i in range(ring)]
    boards = [(line[0], count) if number % 2 == 1 else (count, line[0])]
    boards += [(line[i], line[ring - i]) for i in range(1, count // 2)]
    return boards


def round_robin_seeds(state: State) -> list[str]:
    """The players by table number: those of round one (or, before it, the active ones)
    by rating, then id."""
    if state.rounds:
        first = state.rounds[0]
        names = [p for b in first.boards for p in (b.first, b.second)]
        if first.bye is not None:
            names.append(first.bye)
    else:
        names = state.active()
    return sorted(names, key=lambda p: (-state.players[p].rating, p))


def round_robin_rounds(state: State) -> int:
    """How many rounds this round robin plays."""
    count = len(round_robin_seeds(state))
    needed = count - 1 if count % 2 == 0 else count
    return min(state.spec.rounds, needed) if state.spec.rounds else needed


def round_robin_pairing(state: State, now: float) -> Paired:
    """The next round of the Berger table; boards with a withdrawn player are dropped."""
    seeds = round_robin_seeds(state)
    count = len(seeds) + len(seeds) % 2
    number = len(state.rounds) + 1
    active = {p for p in seeds if state.players[p].active}
    boards: list[Board] = []
    bye = None
    for a, b in berger_round(count, number):
        first = seeds[a - 1] if a <= len(seeds) else None
        second = seeds[b - 1] if b <= len(seeds) else None
        if first is None or second is None:
            sitter = first or second
            bye = sitter if sitter in active else None
        elif first in active and second in active:
            boards.append(Board(len(boards) + 1, first, second))
    return Paired(number, tuple(boards), bye, max(now, state.last_at))
