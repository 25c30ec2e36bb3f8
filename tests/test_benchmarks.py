"""The benchmark script runs and reports what it claims (speed itself is not asserted)."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mathable.ai import get_bot
from mathable.ai.analysis import analysis_report
from mathable.ai.arena import play_game
from mathable.ai.equity import EXPERT_DEPTH, MASTER_DEPTH
from mathable.ai.inference import deal
from mathable.games import registry
from mathable.games.board.view import BoardView
from mathable.web.infra import workers

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "run.py"


def test_quick_benchmarks_print_json_figures(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_run", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(["--quick", "--repeats", "1"])
    report = json.loads(capsys.readouterr().out)
    assert set(report) >= {"legal", "playouts", "search", "expert", "turns", "selfplay", "load"}
    for variant in ("classic", "junior", "junior-numbers"):
        for level in ("strong", "expert"):
            figures = report["turns"][variant][level]
            assert figures["turns"] > 0 and figures["max_ms"] >= figures["p95_ms"] > 0
    assert report["selfplay"]["strong_games_per_s_median"] > 0
    assert report["selfplay"]["greedy_games_per_s_median"] > 0
    for level in ("greedy", "strong"):  # per calibration unit too (issue 35)
        assert report["selfplay"][f"{level}_games_per_unit_median"] > 0
    assert report["selfplay"]["calibration_per_s_median"] > 0
    assert report["load"]["actions"] > 0 and report["load"]["latency_ms_p95"] > 0
    assert report["search"]["best_turn_ms_median"] > 0
    assert report["legal"]["positions"] == 50
    assert report["legal"]["speedup_median"] > 0
    assert report["playouts"]["game_api_games_per_s_median"] > 0


LOAD = SCRIPT.with_name("load.py")


def test_quick_load_benchmark_reports_every_figure_and_no_error() -> None:
    """A tiny run of benchmarks/load.py against a real server: the JSON it prints has
    every figure it claims, no request failed, and the check after the run found every
    acknowledged action in its game and no game stuck with a computer to move."""
    done = subprocess.run(
        [sys.executable, str(LOAD), "--quick"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert set(report) >= {
        "config",
        "actions",
        "actions_per_s",
        "latency_ms",
        "get_ms",
        "errors",
        "server",
        "check",
    }
    assert report["errors"] == {"total": 0, "by_kind": {}}
    assert report["actions"] > 0 and report["watcher"]["updates"] > 0
    assert set(report["latency_ms"]) == {"count", "p50", "p95", "p99", "max"}
    assert report["get_ms"]["count"] > 0
    assert report["server"]["rss_mb_peak"][0] > 0
    check = report["check"]
    assert check["acknowledged"] >= report["actions"] > 0
    assert check["lost"] == 0 and check["stuck"] == 0
    assert report["seq_regressions"] == 0


def test_quick_person_beside_computer_games_reports_both_runs() -> None:
    """A tiny run of ``load.py --person`` (issue 30): one person's game against the greedy
    computer, timed quiet and then beside two games between computers, reports the
    person's p50/p95 of each run, their medians and the ratio, with no error."""
    done = subprocess.run(
        [sys.executable, str(LOAD), "--quick", "--person", "--beside", "2"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    person = json.loads(done.stdout)["person"]
    for kind in ("quiet", "beside"):
        (run,) = person["runs"][kind]
        assert run["errors"] == {}
        assert run["latency_ms"]["count"] > 0
        assert run["latency_ms"]["p95"] >= run["latency_ms"]["p50"] > 0
        assert person[f"p95_{kind}_ms"] == run["latency_ms"]["p95"]
    assert person["runs"]["beside"][0]["beside"] == 2
    assert person["p95_ratio"] > 0
    for kind in ("quiet", "beside"):  # the opponent's turns as the server timed them
        (run,) = person["runs"][kind]
        assert run["opponent_turn_ms"]["count"] > 0
        assert run["opponent_turn_ms"]["max"] >= run["opponent_turn_ms"]["p50"] > 0
        assert person["opponent"][f"turns_{kind}"] == run["opponent_turn_ms"]["count"]


def load_module(path: Path, name: str) -> Any:
    """A benchmark script imported as a module (its functions, not its main)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_opponent_turns_summed_from_the_server_log(tmp_path: Path) -> None:
    """``load.py --person`` reads the server's decision lines: a turn's decisions summed,
    the person's lane apart from the computers', lines outside the window left out, and
    the decisions the cap cut short counted."""
    load = load_module(LOAD, "bench_load")
    line = (
        "{at} bot-time seed={seed} seat=1 turn={turn} level=expert lane={lane} "
        "wait_ms=1.0 think_ms={think} total_ms={total} capped={capped}"
    )
    lines = [
        line.format(at=100.5, seed=9, turn=0, lane="person", think=90, total=100, capped=0),
        line.format(at=100.6, seed=9, turn=0, lane="person", think=5, total=10, capped=1),
        line.format(at=101.0, seed=9, turn=2, lane="person", think=300, total=400, capped=0),
        line.format(at=101.0, seed=3, turn=2, lane="computers", think=700, total=900, capped=1),
        line.format(at=50.0, seed=9, turn=4, lane="person", think=900, total=999, capped=1),
        "INFO: something else the server said",
    ]
    log = tmp_path / "server.log"
    log.write_text("\n".join(lines) + "\n")
    times = load.opponent_times(log, (100.0, 110.0))
    assert times["opponent_turn_ms"]["count"] == 2
    assert times["opponent_turn_ms"]["max"] == 400.0
    lanes = [fields["lane"] for _, fields in load.decision_lines(log)]
    assert lanes == ["person", "person", "person", "computers", "person"]
    assert times["opponent_think_ms"]["max"] == 300.0
    assert times["opponent_first_decision_ms"]["max"] == 400.0
    assert times["opponent_decisions"] == 3 and times["opponent_capped"] == 1
    assert times["beside_turn_ms"] == load.quantiles([0.9]) and times["beside_capped"] == 1


def test_the_calibration_loop_is_fixed_work() -> None:
    """The self-play figures' yardstick does the same work every time (its result is a
    fixed number) and is timed as loops a second."""
    run = load_module(SCRIPT, "bench_run_calibration")
    assert run.calibration_loop() == run.calibration_loop() == 20_003_164_382
    assert run.calibration_per_s(loops=1) > 0


def test_the_same_seeds_hash_alike_and_other_seeds_do_not() -> None:
    """``same_games.py`` compares two trees' games by one hash: the same seeds give the
    same hash (decisions are counted, not timed), other seeds another."""
    same = load_module(SCRIPT.parent / "same_games.py", "bench_same_games")
    count, digest = same.games_hash(seeds=1)
    assert count == 7 and len(digest) == 16
    assert same.games_hash(seeds=1) == (count, digest)
    assert same.games_hash(seeds=1, first=6000)[1] != digest


def test_instructions_reads_callgrinds_count_and_refuses_a_report_without_one() -> None:
    """``instructions.py`` (issue 35) takes the count from callgrind's closing lines; a
    report without one is an error, not a zero."""
    counting = load_module(SCRIPT.parent / "instructions.py", "bench_instructions")
    report = "==12377== Events    : Ir\n==12377== Collected : 1839269100\n==12377==\n"
    assert counting.collected(report) == 1_839_269_100
    with pytest.raises(ValueError, match="Collected"):
        counting.collected("==1== Events : Ir\n")
    assert counting.actions("greedy", 30_000, 30_002) > 100  # two whole games


def test_the_phases_of_a_margin_sum_to_the_final_margin() -> None:
    """``phases.py`` (issue 35): a level's gains between bag sizes, read from arena
    records, sum game by game to its final margin; a phase no turn start reaches (the
    bag never at or below its mark) gains nothing; the level must be one of the two."""
    phases = load_module(SCRIPT.parent / "phases.py", "bench_phases")
    gains = []
    for seed in (30_000, 30_001):
        result = play_game(["greedy", "strong"], "classic", seed, keep_record=True)
        assert result.record is not None
        split = phases.phase_gains(result.record, "strong")
        final = result.scores[1] - result.scores[0]
        assert len(split) == len(phases.MARKS) + 1 and sum(split) == final
        assert phases.phase_gains(result.record, "greedy") == [-g for g in split]
        assert phases.phase_gains(result.record, "strong", marks=(200, 0))[0] == 0
        gains.append(split)
    summary = phases.summary(gains)
    assert summary["games"] == 2
    assert summary["final_margin"] == pytest.approx(sum(map(sum, gains)) / 2, abs=0.05)
    with pytest.raises(ValueError, match="not one of"):
        phases.phase_gains(result.record, "expert")


def test_a_duel_from_late_positions_plays_both_seatings_and_swaps_symmetrically() -> None:
    """``duel.py`` (issue 35): from each record's first turn start with the bag at or
    below the mark, both seatings are played on the same tokens, so A's margins over B
    are B's over A with the sign flipped; a mark the game never reaches gives nothing."""
    duel = load_module(SCRIPT.parent / "duel.py", "bench_duel")
    records: list[dict[str, Any]] = []
    for seed in (30_000, 30_001):
        record = play_game(["greedy", "strong"], "classic", seed, keep_record=True).record
        assert record is not None
        records.append(record)
    pairs = []
    for record in records:
        game = duel.late_position(record, 10)
        assert game is not None and game.view(game.to_move, explained=False).bag_size <= 10
        ahead = duel.duel(record, "strong", "greedy", 10)
        behind = duel.duel(record, "greedy", "strong", 10)
        assert ahead is not None and behind is not None
        assert ahead == [-m for m in reversed(behind)]
        pairs.append(ahead)
        assert duel.duel(record, "strong", "greedy", -1) is None
    summary = duel.summary("strong", "greedy", 10, pairs)
    assert summary["positions"] == 2
    assert summary["margin"] == pytest.approx(sum(map(sum, pairs)) / 4, abs=0.01)
    with pytest.raises(ValueError, match="two players"):
        duel.late_position({**records[0], "players": ["a", "b", "c"]}, 10)


def test_the_clairvoyant_is_dealt_the_true_hidden_tokens_as_it_sees_them() -> None:
    """``clairvoyant.py`` (issue 35): at a turn start mid-game, the deal its simulations
    make is the opponent's true rack and the bag's true drawing order (``all``); the true
    rack and the bag in another order (``rack``); the same tokens dealt at random
    (``nothing``, and ``fair``, the level untold); the tokens the opponent kept at the end
    of its last turn, the rest at random (``kept``); a level that does not simulate is refused."""
    seer = load_module(SCRIPT.parent / "clairvoyant.py", "bench_clairvoyant")
    game = seer._classic(40_000, ["a", "b"])
    watcher = seer.DrawWatcher(game)
    bots = [get_bot("strong", 1), get_bot("strong", 2)]
    while True:
        view = game.view(game.to_move, explained=False)
        assert isinstance(view, BoardView)
        if len(view.turns) >= 6 and not view.turn_placements and view.bag_size > 20:
            break
        watcher.before()
        game.apply(bots[game.to_move].act(view))
        watcher.after()
    opponent = 1 - game.to_move
    drawn, kept = watcher.drawn[opponent], watcher.kept(opponent)
    assert drawn and kept  # a turn of placements that kept some tokens
    assert sorted(kept + drawn) == sorted(game.rack(opponent))
    pool = [value for value, count in view.unseen.items() for _ in range(count)]
    dealt = {}
    for sees in seer.SEES:
        bot = seer.clairvoyant("expert", 5, game, sees, watcher)
        assert bot.infer == (sees == "fair")
        dealt[sees] = deal(pool, 7, None, bot.chance(view))
    rack, bag = list(game.rack(opponent)), list(game.bag_order())
    assert dealt["all"] == (rack, bag)
    assert dealt["rack"][0] == rack and sorted(dealt["rack"][1]) == sorted(bag)
    assert dealt["rack"][1] != bag
    assert dealt["kept"][0][: len(kept)] == kept and dealt["kept"][0] != rack
    assert sorted(dealt["nothing"][0] + dealt["nothing"][1]) == sorted(pool)
    assert dealt["nothing"] != (rack, bag)
    assert sorted(dealt["fair"][0] + dealt["fair"][1]) == sorted(pool)  # untold, its own
    with pytest.raises(ValueError, match="does not simulate"):
        seer.clairvoyant("strong", 5, game, "all")
    summary = seer.summary("expert", "all", [30, -10, -5, -5])
    assert summary["deals"] == 2 and summary["margin"] == 2.5 and summary["win_rate"] == 0.25


def test_the_analysis_depths_are_timed_on_the_same_games() -> None:
    """``analysis_depth.py`` (issue 35): both depths analyse every game, and every turn of
    each is compared."""
    depth = load_module(SCRIPT.parent / "analysis_depth.py", "bench_analysis_depth")
    found = depth.measure(2, 90_000)
    assert set(found["seconds_a_game"]) == {"expert", "master"}
    assert found["master_over_expert"] > 0
    games = [
        registry.from_record(
            json.dumps(play_game(["strong", "expert"], "classic", seed, keep_record=True).record)
        )
        for seed in (90_000, 90_001)
    ]
    turns = sum(len(game.summaries()) for game in games)
    same, of = found["same_best_turn"].split(" of ")
    assert 0 <= int(same) <= int(of) == turns > 0
    decided = sum(game.scores[0] != game.scores[1] for game in games)
    for name, depth_found in (("expert", EXPERT_DEPTH), ("master", MASTER_DEPTH)):
        tells = found["accuracy_tells"][name]
        reports = [analysis_report(game, depth_found) for game in games]
        accuracy = [[p["accuracy"] for p in report["players"]] for report in reports]
        winner_more = sum(
            (game.scores[0] > game.scores[1]) == (a[0] > a[1])
            for game, a in zip(games, accuracy, strict=True)
            if game.scores[0] != game.scores[1] and a[0] != a[1]  # a tie names no one
        )
        assert tells["winner_more_accurate"] == f"{winner_more} of {decided}"
        assert tells["mean_accuracy"] == {
            level: round(sum(r["players"][seat]["accuracy"] for r in reports) / 2, 1)
            for seat, level in enumerate(("strong", "expert"))
        }
        # two games are a line: the correlation is the sign of the slope (none if flat)
        rise = (accuracy[1][0] - accuracy[1][1]) - (accuracy[0][0] - accuracy[0][1])
        run = (games[1].scores[0] - games[1].scores[1]) - (games[0].scores[0] - games[0].scores[1])
        slope = None if rise == 0 or run == 0 else (1.0 if rise * run > 0 else -1.0)
        assert tells["accuracy_margin_correlation"] == slope


def test_the_long_lane_times_a_masters_turn_in_both_orders() -> None:
    """``long_lane.py`` (issue 35): each round times the master's decision once with the
    gate's order and once first come, first served, and the server's order is put back."""
    lane = load_module(SCRIPT.parent / "long_lane.py", "bench_long_lane")
    urgent = workers.URGENT_LONG_JOBS
    found = asyncio.run(lane._measure(2, 1, 1))
    assert workers.URGENT_LONG_JOBS == urgent == (workers.slow_decision,)
    assert (found["rounds"], found["analyses_queued"], found["long_workers"]) == (2, 1, 1)
    for order in ("gate", "first_come"):
        waits = found[order]["all_s"]
        assert len(waits) == 2 and all(wait > 0 for wait in waits)
        assert found[order]["max_s"] == max(waits)
    assert found["median_ratio_first_come_over_gate"] > 0


def test_the_first_master_turn_is_timed_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    """``first_master_turn.py`` (issue 35): a game of Ann against the master is played to
    the master's first turn either way, and the warm-up is put back afterwards."""
    monkeypatch.setenv("MATHABLE_WORKERS", "1")
    first = load_module(SCRIPT.parent / "first_master_turn.py", "bench_first_master_turn")
    warm_long = workers.Workers.warm_long
    for warm in (True, False):
        assert first.first_turn(warm, 0.0) > 0
        assert workers.Workers.warm_long is warm_long
