"""Perfect matchings in general graphs (Edmonds' blossom algorithm), for exact pairing.

The Swiss search (:mod:`.pairing`) pairs the highest-ranked player with their first
preference that still lets everyone else be paired. A plain backtracking search answers
"still lets" quickly on ordinary rounds but can take exponential time on a crowded late
round; :class:`Matcher` answers it in polynomial time instead: it keeps one perfect
matching of the players still to pair, and checks a candidate pair by removing both and
looking for a single augmenting path between their former partners.

The search for an augmenting path is the textbook one (Edmonds 1965, in the
breadth-first form with blossom bases, as in e-maxx's "Edmonds' algorithm"); O(V·E) per
path, O(V²·E) for a whole matching at worst, far less when started from a greedy one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

NONE = -1


class Matcher:
    """A perfect matching of ``names`` where ``allowed(a, b)`` says who may meet."""

    def __init__(self, names: Sequence[str], allowed: Callable[[str, str], bool]) -> None:
        self.names = list(names)
        self.index = {name: i for i, name in enumerate(self.names)}
        size = len(self.names)
        self.edges: list[list[int]] = [
            [j for j in range(size) if j != i and allowed(self.names[i], self.names[j])]
            for i in range(size)
        ]
        self.match = [NONE] * size
        self.gone = [False] * size

    def perfect(self) -> bool:
        """Make the matching perfect if the graph has a perfect matching; say whether."""
        for i, near in enumerate(self.edges):  # a greedy start saves most augmentations
            if self.match[i] == NONE:
                j = next((j for j in near if self.match[j] == NONE), NONE)
                if j != NONE:
                    self.match[i], self.match[j] = j, i
        for i in range(len(self.names)):
            if self.match[i] == NONE and not self._augment(i):
                return False
        return True

    def take(self, a: str, b: str) -> bool:
        """Remove ``a`` and ``b`` as a pair if the rest still has a perfect matching (the
        matching is then kept perfect); otherwise change nothing and say False."""
        i, j = self.index[a], self.index[b]
        if j not in self.edges[i]:
            return False
        saved = list(self.match)
        partner_i, partner_j = self.match[i], self.match[j]
        self.gone[i] = self.gone[j] = True
        self.match[i] = self.match[j] = NONE
        if partner_i == j:
            return True
        self.match[partner_i] = self.match[partner_j] = NONE
        if self._augment(partner_i):
            return True
        self.gone[i] = self.gone[j] = False
        self.match = saved
        return False

    def _augment(self, root: int) -> bool:
        """Find an augmenting path from the unmatched ``root`` and flip it."""
        end, parent = self._path(root)
        if end == NONE:
            return False
        v = end
        while v != NONE:
            up = parent[v]
            after = self.match[up]
            self.match[v], self.match[up] = up, v
            v = after
        return True

    def _path(self, root: int) -> tuple[int, list[int]]:
        size = len(self.names)
        match, gone = self.match, self.gone
        used = [False] * size
        parent = [NONE] * size
        base = list(range(size))

        def common_base(a: int, b: int) -> int:
            seen = [False] * size
            while True:
                a = base[a]
                seen[a] = True
                if match[a] == NONE:
                    break
                a = parent[match[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[match[b]]

        def mark(v: int, top: int, child: int, blossom: list[bool]) -> None:
            while base[v] != top:
                blossom[base[v]] = blossom[base[match[v]]] = True
                parent[v] = child
                child = match[v]
                v = parent[match[v]]

        used[root] = True
        queue = deque([root])
        while queue:
            v = queue.popleft()
            for to in self.edges[v]:
                if gone[to] or base[v] == base[to] or match[v] == to:
                    continue
                if to == root or (match[to] != NONE and parent[match[to]] != NONE):
                    top = common_base(v, to)
                    blossom = [False] * size
                    mark(v, top, to, blossom)
                    mark(to, top, v, blossom)
                    for i in range(size):
                        if blossom[base[i]]:
                            base[i] = top
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == NONE:
                    parent[to] = v
                    if match[to] == NONE:
                        return to, parent
                    used[match[to]] = True
                    queue.append(match[to])
        return NONE, parent
