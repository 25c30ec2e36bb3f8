"""Measuring the levels honestly (issue 16): bot specs, paired deals with intervals over
the deals, and the ladder from seeds no tuning has seen."""

from __future__ import annotations

import json
import math
import re
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mathable.ai import ExpertBot, StrongBot, get_bot, parse_spec
from mathable.ai.arena import (
    REPORTING_SEEDS_FROM,
    GameResult,
    mean_interval,
    paired_jobs,
    paired_summary,
    run_one,
)
from mathable.ai.ladder import (
    END,
    START,
    capped_counts,
    check_seed,
    matches,
    parse_match,
    play,
    rewrite,
    rewrite_rows,
    same_player,
    table,
)
from mathable.cli.app import app
from mathable.games.registry import GAMES


def test_a_spec_sets_a_levels_knobs_by_their_types() -> None:
    assert parse_spec("expert:samples=32,budget_ms=none,blend=0.25,searched_reply=yes") == (
        "expert",
        {"samples": 32, "budget_ms": None, "blend": 0.25, "searched_reply": True},
    )
    expert = get_bot("expert:candidates=3,nodes=500", 1)
    assert isinstance(expert, ExpertBot) and (expert.candidates, expert.nodes) == (3, 500)
    strong = get_bot("strong", 1)
    assert isinstance(strong, StrongBot) and strong.nodes == 20_000


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("wizard", "unknown bot 'wizard' (known: gentle, greedy, strong, expert, master)"),
        ("strong:depth=3", "strong has no setting 'depth' (settings: nodes, leaves)"),
        ("expert:samples=many", "samples=many: expected int"),
        ("expert:searched_reply=maybe", "expected true or false"),
        ("strong:nodes", "nodes needs a value"),
        ("greedy:x=1", "greedy has no setting 'x' (settings: none)"),
    ],
)
def test_a_bad_spec_is_refused_with_what_is_wrong(spec: str, says: str) -> None:
    with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(")", r"\)")):
        get_bot(spec)


def test_a_paired_deal_is_played_in_both_seatings_from_one_seed() -> None:
    jobs = paired_jobs(["gentle", "greedy"], "classic", 3, 500, False)
    assert [(names, seed) for names, _, seed, _ in jobs] == [
        (["gentle", "greedy"], 500),
        (["greedy", "gentle"], 500),
        (["gentle", "greedy"], 501),
        (["greedy", "gentle"], 501),
        (["gentle", "greedy"], 502),
        (["greedy", "gentle"], 502),
    ]
    three = paired_jobs(["a", "b", "c"], "classic", 1, 9, False)
    assert [names for names, *_ in three] == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]


def test_the_interval_is_the_normal_one_over_the_deals() -> None:
    values = [3.0, -1.0, 4.0, 1.0, 5.0, 9.0, -2.0, 6.0]
    mean, low, high = mean_interval(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    assert mean == pytest.approx(statistics.mean(values))
    assert (low, high) == pytest.approx((mean - half, mean + half))


def test_the_paired_summary_counts_deals_not_games() -> None:
    """Two deals: in the first A wins both games by 10 and 30, in the second A wins
    one by 20 and loses one by 40. Deal margins +20 and -10, deal results 1 and 0.5."""
    results = [
        GameResult(7, ("A", "B"), (110, 100), (0,)),
        GameResult(7, ("B", "A"), (100, 130), (1,)),
        GameResult(8, ("A", "B"), (120, 100), (0,)),
        GameResult(8, ("B", "A"), (140, 100), (0,)),
    ]
    summary = paired_summary(results, ["A", "B"])
    assert (summary["deals"], summary["games"]) == (2, 4)
    assert summary["margin"] == 5.0 and summary["win_rate"] == 0.75
    half = 1.96 * statistics.stdev([20.0, -10.0]) / math.sqrt(2)
    assert summary["margin_ci95"] == [round(5 - half, 1), round(5 + half, 1)]


def test_the_ladder_refuses_a_seed_that_tuning_may_have_seen() -> None:
    with pytest.raises(ValueError, match="at or above 1,000,000"):
        check_seed(99_999)
    check_seed(REPORTING_SEEDS_FROM)
    result = CliRunner().invoke(app, ["ladder", "--seed", "50000", "--deals", "1"])
    assert result.exit_code != 0 and "1,000,000" in result.output


def test_the_ladder_plays_each_level_against_the_next_and_writes_the_readme(
    tmp_path: Path,
) -> None:
    assert matches() == [
        ("gentle", "greedy"),
        ("greedy", "strong"),
        ("strong", "expert"),
        ("expert", "master"),
    ]
    rungs = play(["junior"], 2, REPORTING_SEEDS_FROM)
    assert [(r.weaker, r.stronger) for r in rungs] == matches()
    for rung in rungs:
        # The stronger's side: its games are the deals' games, and its margin is the
        # mean of the deals' margins computed from the games themselves.
        games = [
            run_one(job)
            for job in paired_jobs(
                [rung.stronger, rung.weaker], "junior", 2, REPORTING_SEEDS_FROM, False
            )
        ]
        assert rung.paired == paired_summary(games, [rung.stronger, rung.weaker])
    text = table(rungs, 2, REPORTING_SEEDS_FROM)
    assert text.count("| junior |") == 4 and "--deals 2 --seed 1000000" in text
    readme = tmp_path / "README.md"
    readme.write_text(f"before\n{START}\nold table\n{END}\nafter\n", encoding="utf-8")
    rewrite(readme, text)
    written = readme.read_text(encoding="utf-8")
    assert written.startswith("before\n") and written.endswith(f"{END}\nafter\n")
    assert "old table" not in written and text in written
    unmarked = tmp_path / "other.md"
    unmarked.write_text("no markers here\n", encoding="utf-8")
    with pytest.raises(ValueError, match="markers"):
        rewrite(unmarked, text)
    assert unmarked.read_text(encoding="utf-8") == "no markers here\n"


def test_one_match_measured_again_replaces_its_row_alone(tmp_path: Path) -> None:
    """``mathable ladder -g junior -m gentle-greedy --readme``: the table keeps every
    other row and every line around the rows; the match's row is the new one."""
    whole = play(["junior"], 1, REPORTING_SEEDS_FROM, only=[("gentle", "greedy")])
    readme = tmp_path / "README.md"
    kept_rows = [
        "| classic | gentle vs greedy | 9 (18) | 90.0% (80.0–99.0%) | +1.0 (+0.0 to +2.0) "
        "| 1 vs 2 | 0.1 / 0.2 / 0.3 |",
        "| junior | greedy vs strong | 9 (18) | 80.0% (70.0–90.0%) | +1.0 (+0.0 to +2.0) "
        "| 1 vs 2 | 0.1 / 0.2 / 0.3 |",
    ]
    stale = kept_rows[1].replace("greedy vs strong", "gentle vs greedy")
    block = ["header line", "", "| game | match |", "|---|---|", kept_rows[0], stale]
    block += [kept_rows[1], "", "a note after the table"]
    readme.write_text(
        "before\n" + START + "\n" + "\n".join(block) + "\n" + END + "\nafter\n",
        encoding="utf-8",
    )
    rewrite_rows(readme, whole)
    written = readme.read_text(encoding="utf-8")
    lines = written.splitlines()
    assert stale not in lines and whole[0].row() in lines
    assert lines.index(whole[0].row()) == lines.index(kept_rows[1]) - 1  # in its place
    assert all(row in lines for row in kept_rows)
    assert written.startswith("before\n" + START + "\nheader line\n")
    assert written.endswith("a note after the table\n" + END + "\nafter\n")
    # A match the table has no row for goes after its game's rows (a new game: last).
    quattro = play(["quattro"], 1, REPORTING_SEEDS_FROM, only=[("gentle", "greedy")])
    assert re.search(r" \| \d\.\d vs \d\.\d \| ", quattro[0].row())  # rounds won, to a tenth
    assert re.search(r" \| \d+ vs \d+ \| ", whole[0].row())  # points, whole
    rewrite_rows(readme, quattro)
    lines = readme.read_text(encoding="utf-8").splitlines()
    assert lines.index(quattro[0].row()) == lines.index(kept_rows[1]) + 1
    unmarked = tmp_path / "other.md"
    unmarked.write_text("no markers here\n", encoding="utf-8")
    with pytest.raises(ValueError, match="markers"):
        rewrite_rows(unmarked, whole)


def test_a_match_measured_again_tells_how_often_the_clock_cut_its_decisions(
    tmp_path: Path,
) -> None:
    """The table's line on the clock covers the whole ladder and stays as it was, so
    ``mathable ladder -m ... --readme`` tells the rows' own counts where it is run."""
    readme = tmp_path / "README.md"
    line = "Decisions the wall-clock safety cap (`cap_ms`) cut short: expert 0 (in 9 turns)."
    row = (
        "| classic | gentle vs greedy | 9 (18) | 90.0% (80.0–99.0%) | +1.0 (+0.0 to +2.0) "
        "| 1 vs 2 | 0.1 / 0.2 / 0.3 |"
    )
    table_lines = ["| game | match |", "|---|---|", row, "", line]
    readme.write_text("\n".join([START, *table_lines, END, ""]), encoding="utf-8")
    args = ["ladder", "-g", "junior", "-m", "gentle-greedy", "--deals", "1"]
    result = CliRunner().invoke(app, [*args, "--readme", str(readme)])
    assert result.exit_code == 0, result.output
    rung = play(["junior"], 1, REPORTING_SEEDS_FROM, only=[("gentle", "greedy")])[0]
    told = {bot["bot"]: (bot["capped"], bot["turns"]) for bot in rung.bots}
    assert capped_counts([rung]) == told and all(turns > 0 for _, turns in told.values())
    said = " ".join(result.output.split())
    counts = ", ".join(f"{name} {capped:,}/{turns:,}" for name, (capped, turns) in told.items())
    assert f"cut short, of their turns: {counts}" in said
    written = readme.read_text(encoding="utf-8")
    timed = rung.row().rsplit("|", 2)[0]  # the row but for its thinking times
    assert line in written and timed in written  # the whole ladder's line kept


def test_a_match_is_named_by_its_two_levels() -> None:
    assert parse_match("Strong-Expert") == ("strong", "expert")
    with pytest.raises(ValueError, match="no match 'expert-strong' in the ladder"):
        parse_match("expert-strong")
    refused = CliRunner().invoke(app, ["ladder", "--match", "gentle-master", "--deals", "1"])
    assert refused.exit_code != 0 and "gentle-greedy, greedy-strong" in refused.output
    assert "Traceback" not in refused.output


def test_the_arena_reports_the_paired_margin_in_json() -> None:
    result = CliRunner().invoke(
        app, ["arena", "gentle", "greedy:", "--games", "4", "--seed", "3", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 4 and data["paired"]["deals"] == 2
    assert data["paired"]["bot"] == "gentle" and data["paired"]["against"] == "greedy:"
    assert {"max_ms_per_turn", "p95_ms_per_turn"} <= set(data["bots"][0])
    refused = CliRunner().invoke(app, ["arena", "gentle", "strong:depth=2"])
    assert refused.exit_code != 0 and "no setting 'depth'" in refused.output
    # A value its level refuses is told before any game, not as an internal error.
    for spec, reason in (
        ("expert:plies=99", "plies=99: expected 0 to 12"),
        ("master:end_blend=2", "end_blend=2.0: expected 0 to 1, or -1 (blend's)"),
        ("expert:fits_weight=-0.5", "fits_weight=-0.5: expected 0 to 1"),
        ("strong:leaves=foo", "leaves=foo: expected one of learned, to-the-end, hand, none"),
    ):
        refused = CliRunner().invoke(app, ["arena", "gentle", spec])
        assert refused.exit_code != 0 and reason in refused.output
        assert "internal error" not in refused.output and "Traceback" not in refused.output


def test_the_documented_ladder_has_every_rung_and_says_same_only_of_one_player() -> None:
    """docs/computer-players.md's table has a row for every game and match, and a row
    says "the same player" exactly where the two levels play alike in that game (a row
    left from before a game had its own expert is stale)."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "computer-players.md"
    block = docs.read_text(encoding="utf-8").split(START)[1].split(END)[0]
    rows = {}
    for line in block.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 7 and " vs " in cells[1]:
            rows[(cells[0], cells[1])] = cells
    for game in GAMES:
        for weaker, stronger in matches():
            cells = rows[(game, f"{weaker} vs {stronger}")]
            alike = same_player(game, weaker, stronger)
            assert ("the same player" in cells[3]) == alike, (game, weaker, stronger)
            if not alike:
                assert int(cells[2].split()[0].replace(",", "")) >= 100, cells
