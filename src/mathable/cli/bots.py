"""``mathable bots``, ``arena``, ``ladder``, ``train-leaves`` and ``rate-bots``: the computer
players listed, measured against each other, trained and rated."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from mathable.i18n import _, lazy, ngettext, pgettext

from . import oserrors
from ._later import later
from .shell import (
    JobsOpt,
    JsonFlag,
    VariantOpt,
    cannot_write,
    console,
    fail,
    game_type,
    helps,
    print_json,
    progress_bar,
    writable_folder,
)

if TYPE_CHECKING:
    from mathable import ai
    from mathable.games import registry
else:
    ai = later("mathable.ai")
    registry = later("mathable.games.registry")


BOTS_HELP = helps(lazy("List the computer players, weakest first."))
"""The help of ``bots``."""


def bots() -> None:
    for name, (_bot, description) in ai.BOTS.items():
        console.print(Text.assemble((name, "bold"), f": {description}"))


ARENA_HELP = helps(
    lazy(
        "Pit computer players against each other on seeded deals; with two bots, the score "
        "margin and the win rate with their 95% intervals over the deals."
    )
)
"""The help of ``arena``."""


def arena(
    names: Annotated[
        list[str],
        typer.Argument(
            help=helps(
                # TRANSLATORS: the levels and settings between brackets are typed as they are
                lazy(
                    "2 to 4 bots: levels, or levels with settings "
                    "(expert:samples=32,budget_ms=500)."
                )
            )
        ),
    ],
    games: Annotated[int, typer.Option(min=1, help=helps(lazy("How many games.")))] = 100,
    seed: Annotated[
        int,
        typer.Option(help=helps(lazy("Deal i is dealt from seed + i (tune below 100,000)."))),
    ] = 0,
    jobs: JobsOpt = 1,
    paired: Annotated[
        bool,
        typer.Option(
            help=helps(
                lazy(
                    "Play each deal once per seating (two bots: twice, seats swapped); "
                    "--no-paired deals every game afresh, seats rotated."
                )
            )
        ),
    ] = True,
    records_dir: Annotated[
        Path | None,
        typer.Option("--records", help=helps(lazy("Write every game's record here."))),
    ] = None,
    variant: VariantOpt = "classic",
    json_out: JsonFlag = False,
) -> None:
    from concurrent.futures import ProcessPoolExecutor

    from mathable.ai import arena as match
    from mathable.ai import get_bot

    if not 2 <= len(names) <= 4:
        raise fail(_("name 2 to 4 bots"))
    for name in names:
        try:  # made once here, so a setting its level refuses is told before any game
            get_bot(name, 0)
        except ValueError as exc:
            raise fail(str(exc)) from None
    game_type(variant)
    if records_dir is not None:
        writable_folder(records_dir)
    keep = records_dir is not None
    if paired:
        deals = -(-games // len(names))
        work = match.paired_jobs(names, variant, deals, seed, keep)
        games = len(work)
    else:
        work = match.jobs_for(names, variant, games, seed, keep)
    results = []
    with progress_bar(hidden=json_out) as progress:
        # TRANSLATORS: a progress bar's label: the bots playing, "greedy vs strong"
        task = progress.add_task(pgettext("versus", " vs ").join(names), total=games)
        if jobs == 1:
            for result in map(match.run_one, work):
                results.append(result)
                progress.advance(task)
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                for result in pool.map(match.run_one, work, chunksize=2):
                    results.append(result)
                    progress.advance(task)
    if records_dir is not None:
        try:
            for number, result in enumerate(results):
                match.save_record(result, records_dir, number)
        except OSError as exc:
            raise fail(
                _(
                    "cannot write to {folder}: {reason}",
                    folder=str(records_dir),
                    reason=oserrors.reason(exc),
                )
            ) from None
    summary = match.tally(results, names)
    pairing = match.paired_summary(results, names) if paired and len(set(names)) == 2 else None
    if json_out:
        capped = sum(row["capped"] for row in summary)
        out = {"variant": variant, "games": games, "seed": seed, "bots": summary, "capped": capped}
        print_json({**out, "paired": pairing} if paired else out)
        return
    if paired:
        title = ngettext(
            "{count} game of {game} (paired deals), seed {seed}",
            "{count} games of {game} (paired deals), seed {seed}",
            games,
            game=variant,
            seed=seed,
        )
    else:
        title = ngettext(
            "{count} game of {game} (games), seed {seed}",
            "{count} games of {game} (games), seed {seed}",
            games,
            game=variant,
            seed=seed,
        )
    table = Table(title=Text(title), header_style="bold")
    columns = (
        # TRANSLATORS: a column heading: a computer player
        pgettext("column", "bot"),
        pgettext("column", "wins"),
        pgettext("column", "win rate"),
        pgettext("column", "95% interval"),
        pgettext("column", "mean score"),
        # TRANSLATORS: a column heading: milliseconds per turn
        pgettext("column", "ms/turn"),
        # TRANSLATORS: a column heading: the 95th percentile of a turn's milliseconds
        pgettext("column", "p95 ms"),
        # TRANSLATORS: a column heading: the most milliseconds a turn took
        pgettext("column", "max ms"),
    )
    for number, column in enumerate(columns):
        # figures never cut: a column too narrow folds its heading, not its numbers
        table.add_column(
            column,
            justify="left" if number == 0 else "right",
            no_wrap=number > 0,
            overflow="fold",
        )

    for row in summary:
        low, high = row["win_rate_ci95"]
        table.add_row(
            Text(row["bot"]),
            f"{row['wins']:g}",
            f"{100 * row['win_rate']:.1f}%",
            f"{100 * low:.1f}-{100 * high:.1f}%",
            f"{row['mean_score']:.1f}",
            f"{row['mean_ms_per_turn']:.1f}",
            f"{row['p95_ms_per_turn']:.1f}",
            f"{row['max_ms_per_turn']:.1f}",
        )
    if console.is_terminal:
        console.print(table)
    else:  # to a file or a pipe: as wide as the table needs, never at 80 columns
        wide = Console(file=console.file, width=200, highlight=False, markup=False, emoji=False)
        wide.print(table)
    if pairing is not None:
        low, high = pairing["margin_ci95"]
        rate_low, rate_high = pairing["win_rate_ci95"]
        said = ngettext(
            "Over {count} deal, {bot} against {against}: margin {margin} points "
            "(95%: {low} to {high}), win rate {rate}% (95%: {rate_low}-{rate_high}%)",
            "Over {count} deals, {bot} against {against}: margin {margin} points "
            "(95%: {low} to {high}), win rate {rate}% (95%: {rate_low}-{rate_high}%)",
            pairing["deals"],
            bot=pairing["bot"],
            against=pairing["against"],
            margin=f"{pairing['margin']:+.1f}",
            low=f"{low:+.1f}",
            high=f"{high:+.1f}",
            rate=f"{100 * pairing['win_rate']:.1f}",
            rate_low=f"{100 * rate_low:.1f}",
            rate_high=f"{100 * rate_high:.1f}",
        )
        console.print(Text(said))
    capped = _cap_report(summary)
    if capped:
        console.print(Text(capped))


def _cap_report(summary: list[dict[str, Any]]) -> str:
    """How often the wall-clock safety cap cut a decision short, for the bots that have
    one (issue 35: such decisions depend on the machine; the rest never do). Written as
    the setting and figures, so it reads the same in every language."""
    capped = [
        f"{row['bot']} {row['capped']}/{row['turns']}"
        for row in summary
        if "cap_ms" in ai.settings_of(ai.parse_spec(row["bot"])[0])
    ]
    return f"cap_ms: {', '.join(capped)}" if capped else ""


LADDER_HELP = helps(
    lazy(
        "Measure the ladder: each computer level against the next one up, in every game, "
        "on paired deals from seeds no tuning has seen; prints the README's table."
    )
)
"""The help of ``ladder``."""


def ladder(
    deals: Annotated[
        int,
        typer.Option(
            min=1, max=100_000, help=helps(lazy("Paired deals per match (two games each)."))
        ),
    ] = 1000,
    seed: Annotated[
        int,
        typer.Option(
            help=helps(lazy("Deal i is dealt from seed + i (at least 1,000,000: never tuned on)."))
        ),
    ] = 1_000_000,
    jobs: JobsOpt = 1,
    games: Annotated[
        list[str] | None,
        typer.Option(
            "--game",
            "-g",
            help=helps(lazy("A game to measure (again for more); all by default.")),
        ),
    ] = None,
    match: Annotated[
        list[str] | None,
        typer.Option(
            "--match",
            "-m",
            help=helps(
                # TRANSLATORS: strong-expert is typed as it is (two levels' names)
                lazy("A match to measure, such as strong-expert (again for more); all by default.")
            ),
        ),
    ] = None,
    readme: Annotated[
        Path | None,
        typer.Option(
            "--readme",
            help=helps(
                lazy(
                    "Write the table into this file, between its ladder markers (with "
                    "--game or --match: only the rows measured, the others kept)."
                )
            ),
        ),
    ] = None,
    json_out: JsonFlag = False,
) -> None:
    from mathable.ai import ladder as rungs_of

    chosen = games or list(registry.GAMES)
    for name in chosen:
        game_type(name)
    try:
        rungs_of.check_seed(seed)
        only = None if not match else [rungs_of.parse_match(each) for each in match]
    except ValueError as exc:
        raise fail(str(exc)) from None
    played = [
        (name, pair)
        for name in chosen
        for pair in (only or rungs_of.matches())
        if not rungs_of.same_player(name, *pair)
    ]
    total = len(played) * 2 * deals
    with progress_bar(hidden=json_out) as progress:
        # TRANSLATORS: a progress bar's label while the ladder is measured
        task = progress.add_task(_("the ladder"), total=total)
        rungs = rungs_of.play(chosen, deals, seed, jobs, lambda: progress.advance(task), only)
    if json_out:
        print_json(
            {
                "deals": deals,
                "seed": seed,
                "capped": sum(bot["capped"] for r in rungs for bot in r.bots),
                "matches": [
                    {
                        "game": r.game,
                        "weaker": r.weaker,
                        "stronger": r.stronger,
                        **r.paired,
                        "bots": r.bots,
                    }
                    for r in rungs
                ],
            }
        )
        return
    text = rungs_of.table(rungs, deals, seed)
    if readme is None:
        sys.stdout.write(text)  # markdown: its lines as they are, never wrapped
        return
    try:
        if games or match:  # a part of the ladder measured again: its rows alone
            rungs_of.rewrite_rows(readme, rungs)
        else:
            rungs_of.rewrite(readme, text)
    except (OSError, ValueError) as exc:
        raise fail(
            _("cannot write the ladder into {file}: {reason}", file=str(readme), reason=exc)
        ) from None
    console.print(Text(_("wrote the ladder into {file}", file=str(readme))))
    if games or match:  # the table's line on the clock covers the whole ladder: told here
        counts = ", ".join(
            f"{name} {capped:,}/{turns:,}"
            for name, (capped, turns) in rungs_of.capped_counts(rungs).items()
        )
        console.print(
            Text(
                _(
                    "decisions the wall-clock safety cap cut short, of their turns: {counts}",
                    counts=counts,
                )
            )
        )


def _kept_ratings(out: Path, seed: int, pairs: int, levels: list[str]) -> dict[str, Any]:
    """What ``out`` holds (its games' ratings, and any note), to keep beside the games
    rated now: refused (nothing written) unless made alike (the same seed, deals and
    levels)."""
    try:
        data = json.loads(out.read_text(encoding="utf-8"))
        made = (data["seed"], data["pairs"], data["levels"])
        games = data["games"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise fail(
            _("cannot keep the ratings in {file}: {reason}", file=str(out), reason=exc)
        ) from None
    if made != (seed, pairs, levels) or not isinstance(games, dict):
        raise fail(
            _(
                "{file} was made with --seed {seed} --pairs {pairs} and the levels "
                "{levels}: rate with the same, or write another file",
                file=str(out),
                seed=made[0],
                pairs=made[1],
                levels=", ".join(map(str, made[2])) if isinstance(made[2], list) else made[2],
            )
        )
    return dict(data)


TRAIN_LEAVES_HELP = helps(
    # TRANSLATORS: Macondo is a program's name; leaves-<game>.json is a file name
    lazy(
        "Learn the value of the tokens kept on the rack from leave-blind self-play "
        "(Macondo's superleaves, as a linear model): writes leaves-<game>.json, "
        "reproducible from its seed (every game where the player chooses what to keep, "
        "by default)."
    )
)
"""The help of ``train-leaves``."""


def train_leaves(
    variants: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-v",
            help=helps(lazy("A game to train (again for more); all with racks.")),
        ),
    ] = None,
    games: Annotated[
        int, typer.Option(min=1, max=1_000_000, help=helps(lazy("Self-play games per game.")))
    ] = 3000,
    seed: Annotated[
        int,
        typer.Option(
            help=helps(lazy("Game i is dealt from seed + i (a tuning seed: below 100,000)."))
        ),
    ] = 10_000,
    jobs: JobsOpt = 1,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help=helps(lazy("A folder for the files (default: the package's, shipped).")),
        ),
    ] = None,
) -> None:
    import functools
    import time

    from mathable.ai import leaves, training
    from mathable.ai.arena import TUNING_SEEDS_BELOW

    for name in variants or ():
        game_type(name)
        reason = leaves.unlearnable(name)
        if reason is not None:
            raise fail(_("{reason}: no leave to learn", reason=reason))
    chosen = variants or [name for name in registry.GAMES if leaves.unlearnable(name) is None]
    if seed + games > TUNING_SEEDS_BELOW:
        raise fail(
            _(
                "train on tuning seeds: seed + games must stay below {most}",
                most=f"{TUNING_SEEDS_BELOW:,}",
            )
        )
    folder = out or leaves.DATA
    writable_folder(folder)
    with progress_bar() as progress:
        for name in chosen:
            # TRANSLATORS: a progress bar's label: self-play games of a game
            task = progress.add_task(_("self-play, {game}", game=name), total=games)
            start = time.perf_counter()
            advance = functools.partial(progress.advance, task)
            model, samples = training.train(name, games, seed, jobs, advance)
            spent = time.perf_counter() - start
            meta = {
                "command": f"mathable train-leaves --variant {name} --games {games} --seed {seed}",
                "games": games,
                "seed": seed,
                "samples": samples,
                "players": training.TRAINER,
            }
            target = folder / leaves.path_of(name).name
            try:
                target.write_text(model.to_json(meta), encoding="utf-8")
            except OSError as exc:
                raise fail(cannot_write(target, oserrors.reason(exc))) from None
            played = ngettext("{count} game", "{count} games", games)
            learned = ngettext("{count} leave", "{count} leaves", samples)
            # TRANSLATORS: a game's name, the games played, the leaves learned, the seconds
            # spent and the file written
            said = _(
                "{game}: {games}, {leaves}, {seconds} s: wrote {file}",
                game=name,
                games=played,
                leaves=learned,
                seconds=f"{spent:.0f}",
                file=str(target),
            )
            console.print(Text(said))


RATE_BOTS_HELP = helps(
    lazy(
        "Rate the computer levels from games among themselves: their starting ratings on "
        "a server (the shipped file is made by --out "
        "src/mathable/online/bot_ratings.json)."
    )
)
"""The help of ``rate-bots``."""


def rate_bots(
    pairs: Annotated[
        int,
        typer.Option(
            min=1, max=10_000, help=helps(lazy("Deals per pair of levels (each played twice)."))
        ),
    ] = 20,
    seed: Annotated[
        int, typer.Option(help=helps(lazy("Deal i is dealt from seed + i.")))
    ] = 1_000_000,
    jobs: JobsOpt = 1,
    variants: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-v",
            help=helps(lazy("A game to rate (again for more); all by default.")),
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help=helps(
                lazy(
                    "Write the JSON to this file (with --variant, into it: the other "
                    "games' ratings there are kept)."
                )
            ),
        ),
    ] = None,
    level: Annotated[
        str | None,
        typer.Option(
            "--level",
            help=helps(
                lazy(
                    "Rate this computer level alone, against the others held at their "
                    "ratings (those in --out, else the shipped ones)."
                )
            ),
        ),
    ] = None,
) -> None:
    from mathable.online import botratings

    chosen = variants or list(registry.GAMES)
    for name in chosen:
        game_type(name)
    if level is not None:
        _rate_one_level(level.strip().lower(), chosen, pairs, seed, jobs, out)
        return
    levels = list(ai.BOTS)
    kept: dict[str, Any] = {"games": {}}
    if out is not None and variants and out.exists():
        kept = _kept_ratings(out, seed, pairs, levels)
    total = len(chosen) * pairs * len(levels) * (len(levels) - 1)
    rated: dict[str, Any] = {}
    with progress_bar() as progress:
        # TRANSLATORS: a progress bar's label while the computer levels are rated
        task = progress.add_task(_("computer levels"), total=total)
        for name in chosen:
            rated[name] = botratings.calibrate(
                name, levels, pairs, seed, jobs, lambda: progress.advance(task)
            )
    games = {name: rated.get(name, kept["games"].get(name)) for name in registry.GAMES}
    data = {
        **kept,  # what else the file says (how a level was rated apart) stays
        "seed": seed,
        "pairs": pairs,
        "levels": levels,
        "games": {name: ratings for name, ratings in games.items() if ratings is not None},
    }
    _put_ratings(data, out)


def _put_ratings(data: dict[str, Any], out: Path | None) -> None:
    """The ratings file written to ``out``, or printed as JSON without it."""
    if out is None:
        print_json(data)
        return
    try:
        out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise fail(cannot_write(out, oserrors.reason(exc))) from None
    console.print(Text(_("wrote {file}", file=str(out))))


def _rate_one_level(
    level: str, chosen: list[str], pairs: int, seed: int, jobs: int, out: Path | None
) -> None:
    """``rate-bots --level``: ``level`` rated in each game of ``chosen`` against the other
    levels held at their ratings (in ``out``, else shipped); the file's other entries,
    and how the round robin was made, stay."""
    from mathable.online import botratings

    if level not in ai.BOTS:
        raise fail(
            _(
                "--level: {level} is no computer level ({levels})",
                level=level,
                levels=", ".join(ai.BOTS),
            )
        )
    source = out if out is not None and out.exists() else botratings.SHIPPED
    try:
        data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
        games: dict[str, Any] = data["games"]
        held = {name: botratings.ratings_of(games[name]) for name in chosen if name in games}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise fail(
            _("cannot keep the ratings in {file}: {reason}", file=str(source), reason=exc)
        ) from None
    for name in chosen:
        if not {other for other in held.get(name, {}) if other != level}:
            raise fail(_("{game}: no other level's rating to hold: rate them all first", game=name))
    total = sum(pairs * 2 * (len(held[name]) - (level in held[name])) for name in chosen)
    with progress_bar() as progress:
        task = progress.add_task(_("computer levels"), total=total)
        for name in chosen:
            entry = botratings.calibrate_held(
                name, level, held[name], pairs, seed, jobs, lambda: progress.advance(task)
            )
            games[name][level] = {**entry, "held": {"seed": seed, "pairs": pairs}}
    _put_ratings(data, out)
