"""The benchmark script runs and reports what it claims (speed itself is not asserted)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

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
