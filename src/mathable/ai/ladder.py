"""The ladder of computer levels, measured: each level against the next one up, in
every game, on paired deals from seeds no tuning has seen (issue 16).

``mathable ladder`` plays it and prints (or writes into README.md, between the markers
:data:`START` and :data:`END`) the table this module renders. The arena plays the games
(:func:`~.arena.paired_jobs`, :func:`~.arena.paired_summary`); this module only says
which matches, and how the table reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from mathable.games.registry import GAMES

from . import BOTS, plays_as
from .arena import REPORTING_SEEDS_FROM, GameResult, paired_jobs, paired_summary, run_one, tally

START = "<!-- ladder:start -->"
END = "<!-- ladder:end -->"


def matches() -> list[tuple[str, str]]:
    """Each level with the next one up: (weaker, stronger)."""
    levels = list(BOTS)
    return list(pairwise(levels))


@dataclass(frozen=True)
class Rung:
    """One match of the ladder: the stronger level's results over the weaker's."""

    game: str
    weaker: str
    stronger: str
    paired: dict[str, Any]
    bots: list[dict[str, Any]]
    same: bool = False
    """The two levels are one player in this game (:func:`~mathable.ai.plays_as`): no
    games were played, and the row says so rather than showing a 50.0% match."""

    def row(self) -> str:
        """The match as a line of the markdown table."""
        if self.same:
            alike = plays_as(self.stronger, self.game)
            names = dict.fromkeys((self.stronger, self.weaker, alike))  # once each, in order
            said = f"{' = '.join(names)} in this game: the same player"
            return f"| {self.game} | {self.weaker} vs {self.stronger} | – | {said} | – | – | – |"
        p = self.paired
        stronger = next(b for b in self.bots if b["bot"] == self.stronger)
        weaker = next(b for b in self.bots if b["bot"] == self.weaker)
        rate_low, rate_high = p["win_rate_ci95"]
        low, high = p["margin_ci95"]
        return (
            f"| {self.game} | {self.weaker} vs {self.stronger} | {p['deals']:,} ({p['games']:,})"
            f" | {100 * p['win_rate']:.1f}% ({100 * rate_low:.1f}–{100 * rate_high:.1f}%)"
            f" | {p['margin']:+.1f} ({low:+.1f} to {high:+.1f})"
            f" | {_scores(weaker['mean_score'], stronger['mean_score'])}"
            f" | {stronger['mean_ms_per_turn']:.1f} / {stronger['p95_ms_per_turn']:.1f}"
            f" / {stronger['max_ms_per_turn']:.1f} |"
        )


def _scores(weaker: float, stronger: float) -> str:
    """The two mean scores, whole where they are points; to a tenth where both are
    small (Quattro's rounds won: 0.5 vs 0.5 rather than 0 vs 0)."""
    digits = 1 if max(weaker, stronger) < 10 else 0
    return f"{weaker:.{digits}f} vs {stronger:.{digits}f}"


def check_seed(seed: int) -> None:
    """Reported strength comes from seeds no tuning has seen: refuse any other."""
    if seed < REPORTING_SEEDS_FROM:
        raise ValueError(
            f"the ladder is reported from seeds at or above {REPORTING_SEEDS_FROM:,} "
            f"(tuning uses seeds below 100,000); {seed:,} is not one"
        )


def same_player(game: str, weaker: str, stronger: str) -> bool:
    """The two levels play exactly alike in ``game`` (the expert and the strong player in
    Quattro, say): a match between them would only show 50.0%."""
    return plays_as(weaker, game) == plays_as(stronger, game)


def play(
    games: Sequence[str],
    deals: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[], None] | None = None,
    only: Sequence[tuple[str, str]] | None = None,
) -> list[Rung]:
    """Every match of the ladder (or those of ``only``) in every game of ``games``:
    ``deals`` paired deals each from ``seed`` (checked by :func:`check_seed`); a match
    between two levels that are one player in a game (:func:`same_player`) is not
    played but said so."""
    check_seed(seed)
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        raise ValueError(f"unknown game {unknown[0]!r} (known: {', '.join(GAMES)})")
    chosen = matches() if only is None else list(only)
    plan = [(game, pair) for game in games for pair in chosen]
    played_plan = [(game, pair) for game, pair in plan if not same_player(game, *pair)]
    work = [
        job for game, pair in played_plan for job in paired_jobs(pair, game, deals, seed, False)
    ]
    results = _run(work, jobs, progress)
    rungs = []
    per_match = 2 * deals
    index = 0
    for game, (weaker, stronger) in plan:
        if same_player(game, weaker, stronger):
            rungs.append(Rung(game, weaker, stronger, {}, [], same=True))
            continue
        played = results[index * per_match : (index + 1) * per_match]
        index += 1
        rungs.append(
            Rung(
                game,
                weaker,
                stronger,
                paired_summary(played, [stronger, weaker]),
                tally(played, [weaker, stronger]),
            )
        )
    return rungs


def _run(
    work: list[tuple[list[str], str, int, bool]],
    jobs: int,
    progress: Callable[[], None] | None,
) -> list[GameResult]:
    def counted(results: Iterable[GameResult]) -> list[GameResult]:
        done = []
        for result in results:
            done.append(result)
            if progress is not None:
                progress()
        return done

    if jobs == 1:
        return counted(map(run_one, work))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return counted(pool.map(run_one, work, chunksize=4))


def table(rungs: Sequence[Rung], deals: int, seed: int) -> str:
    """The ladder as markdown: how it was made, then one line per match."""
    header = (
        f"`mathable ladder --deals {deals} --seed {seed}` (paired deals from seed {seed:,}:"
        " each deal played twice, seats swapped; intervals are 95% over the deals; time is"
        " the stronger level's thinking per turn, in ms, on the machine that made it)\n\n"
        "| game | match | deals (games) | win rate of the stronger | mean margin"
        " | mean scores | ms per turn (mean / p95 / max) |\n"
        "|---|---|---|---|---|---|---|\n"
    )
    return header + "\n".join(r.row() for r in rungs) + "\n" + cap_line(rungs)


def capped_counts(rungs: Sequence[Rung]) -> dict[str, tuple[int, int]]:
    """Per level, over every match it played: how many of its decisions the wall-clock
    safety cap cut short, and of how many turns (such decisions depend on the machine:
    issue 35)."""
    counts: dict[str, tuple[int, int]] = {}
    for rung in rungs:
        for bot in rung.bots:
            capped, turns = counts.get(bot["bot"], (0, 0))
            counts[bot["bot"]] = (capped + bot.get("capped", 0), turns + bot.get("turns", 0))
    return counts


def cap_line(rungs: Sequence[Rung]) -> str:
    """The table's line on :func:`capped_counts`; nothing when no match was played."""
    counts = capped_counts(rungs)
    if not counts:
        return ""
    told = ", ".join(
        f"{name} {capped:,} (in {turns:,} turns)" for name, (capped, turns) in counts.items()
    )
    return f"\nDecisions the wall-clock safety cap (`cap_ms`) cut short: {told}.\n"


def parse_match(text: str) -> tuple[str, str]:
    """A match of the ladder as typed, ``strong-expert``: (weaker, stronger), refused
    unless it is one of :func:`matches`."""
    known = matches()
    weaker, _dash, stronger = text.strip().lower().partition("-")
    if (weaker, stronger) not in known:
        told = ", ".join(f"{w}-{s}" for w, s in known)
        raise ValueError(f"no match {text!r} in the ladder (matches: {told})")
    return weaker, stronger


def _row_key(line: str) -> tuple[str, str] | None:
    """The (game, match) a line of the table is the row of; None for any other line."""
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if not line.startswith("| ") or len(cells) < 2 or " vs " not in cells[1]:
        return None
    return cells[0], cells[1]


def rewrite_rows(readme: Path, rungs: Sequence[Rung]) -> None:
    """Put the rows of ``rungs`` into the ladder's table in ``readme`` in place of the
    rows of the same game and match (a new match goes after its game's last row, a new
    game at the table's end); every other line between the markers stays as it is, so
    one game's or one match's rungs can be measured again alone."""
    source = readme.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(START) + "(.*?)" + re.escape(END), re.DOTALL)
    found = pattern.search(source)
    if found is None:
        raise ValueError(f"{readme} has no {START} ... {END} markers")
    lines = found.group(1).split("\n")
    if not any(_row_key(line) for line in lines):
        raise ValueError(f"{readme}'s ladder has no table to put rows in")
    for rung in rungs:
        row = rung.row()
        keyed = [(i, key) for i, line in enumerate(lines) if (key := _row_key(line))]
        same = [i for i, key in keyed if key == _row_key(row)]
        if same:
            lines[same[0]] = row
            continue
        of_game = [i for i, key in keyed if key[0] == rung.game]
        lines.insert((of_game or [i for i, _key in keyed])[-1] + 1, row)
    text = "\n".join(lines)
    readme.write_text(source[: found.start(1)] + text + source[found.end(1) :], encoding="utf-8")


def rewrite(readme: Path, text: str) -> None:
    """Put ``text`` between the ladder markers of ``readme`` (which must hold them)."""
    source = readme.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.DOTALL)
    if not pattern.search(source):
        raise ValueError(f"{readme} has no {START} ... {END} markers")
    replaced = pattern.sub(lambda _: f"{START}\n{text}{END}", source, count=1)
    readme.write_text(replaced, encoding="utf-8")
