"""The games a set of seeds gives, as one hash: run it in two trees (before and after a
change made for speed only, compiled and with ``MATHABLE_PURE=1``) and compare.

Every level decides from its seed and counted budgets (issue 35), so a change that keeps
the rules and the players' decisions keeps the hash. By default: greedy, strong and
gentle self-play in classic and Junior, ten seeds each from 5,000, and one expert game
(61 games, about a minute); ``--quick`` plays one seed of each.

    .venv/bin/python benchmarks/same_games.py
    MATHABLE_PURE=1 .venv/bin/python benchmarks/same_games.py
"""

from __future__ import annotations

import argparse
import hashlib
import json

from mathable.ai.arena import play_game


def games_hash(seeds: int = 10, first: int = 5000) -> tuple[int, str]:
    """How many games were played and the hash of their records and scores."""
    games = [
        (level, variant, first + 17 * i)
        for variant in ("classic", "junior")
        for level in ("greedy", "strong", "gentle")
        for i in range(seeds)
    ]
    games.append(("expert", "classic", 777))
    digest = hashlib.sha256()
    for level, variant, seed in games:
        result = play_game([level, level], variant, seed, keep_record=True)
        digest.update(json.dumps(result.record, sort_keys=True, default=str).encode())
        digest.update(repr(result.scores).encode())
    return len(games), digest.hexdigest()[:16]


def main() -> None:
    """Print the games' count and hash as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one seed of each (7 games)")
    parser.add_argument("--first", type=int, default=5000, help="the first seed")
    args = parser.parse_args()
    count, digest = games_hash(1 if args.quick else 10, args.first)
    print(json.dumps({"games": count, "hash": digest, "first_seed": args.first}))


if __name__ == "__main__":
    main()
