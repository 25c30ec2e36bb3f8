"""The benchmark script runs and reports what it claims (speed itself is not asserted)."""

from __future__ import annotations

import importlib.util
import json
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
    assert set(report) >= {"legal", "playouts", "search", "expert", "load"}
    assert report["load"]["actions"] > 0 and report["load"]["latency_ms_p95"] > 0
    assert report["search"]["best_turn_ms_median"] > 0
    assert report["legal"]["positions"] == 50
    assert report["legal"]["speedup_median"] > 0
    assert report["playouts"]["game_api_games_per_s_median"] > 0
