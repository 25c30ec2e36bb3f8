"""benchmarks/pairing.py runs and reports what it claims (speed itself is not asserted)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "pairing.py"


def test_the_pairing_benchmark_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_pairing", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    args = ["--repeats", "1", "--swiss", "9", "--arena", "12", "--rounds", "3", "--crowded", "17"]
    module.main(args)
    report = json.loads(capsys.readouterr().out)
    assert report["swiss"]["players"] == 9
    assert len(report["swiss"]["round_ms_median"]) == 3
    assert len(report["arena"]["wave_ms_median"]) == 3
    assert report["crowded_swiss"]["rounds"] == 2
    for part in ("swiss", "arena", "crowded_swiss"):
        assert report[part]["worst_ms"] > 0
    assert len(report["loadavg"]) == 3
