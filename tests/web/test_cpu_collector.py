"""``mathable serve`` tunes Python's garbage collector as it starts serving (issue 34,
cheaper actions): what the app's making left is frozen out of the collections, and the
thresholds are :data:`~mathable.cli.serve.GC_THRESHOLDS`; a program that only makes the
app (the tests) keeps Python's collector as it was."""

from __future__ import annotations

import asyncio
import gc
import json
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from mathable.cli import serve as serving
from mathable.cli.app import app as cli


def test_tune_collector_freezes_what_is_made_and_sets_the_thresholds() -> None:
    code = (
        "import gc, json; from mathable.cli.serve import tune_collector; "
        "before = gc.get_threshold(); tune_collector(); "
        "print(json.dumps([before, gc.get_threshold(), gc.get_freeze_count()]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    before, after, frozen = json.loads(out.stdout)
    assert before == [700, 10, 10]  # Python's own
    assert tuple(after) == serving.GC_THRESHOLDS
    assert frozen > 10_000  # the modules' objects, at least


def test_serve_tunes_the_collector_as_its_server_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'games.db'}")
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    order: list[str] = []

    async def started(self: uvicorn.Server, sockets: list[socket.socket] | None = None) -> None:
        order.append("uvicorn's startup")

    def run(self: uvicorn.Server, sockets: list[socket.socket] | None = None) -> None:
        asyncio.run(self.startup(sockets=sockets))  # the start of serving, no more
        for sock in sockets or ():
            sock.close()
        app: Any = self.config.app
        app.state.service.store.close()

    monkeypatch.setattr(serving, "tune_collector", lambda: order.append("tuned"))
    monkeypatch.setattr(uvicorn.Server, "startup", started)
    monkeypatch.setattr(uvicorn.Server, "run", run)
    thresholds = gc.get_threshold()
    out = CliRunner().invoke(cli, ["serve", "--port", "0"])
    assert out.exit_code == 0, out.output
    assert order == ["tuned", "uvicorn's startup"]
    assert gc.get_threshold() == thresholds  # this process's collector: untouched


def test_making_the_app_leaves_the_collector_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'games.db'}")
    monkeypatch.setenv("MATHABLE_WORKERS", "0")

    def run(self: uvicorn.Server, sockets: list[socket.socket] | None = None) -> None:
        for sock in sockets or ():
            sock.close()
        app: Any = self.config.app
        app.state.service.store.close()

    monkeypatch.setattr(uvicorn.Server, "run", run)
    thresholds, frozen = gc.get_threshold(), gc.get_freeze_count()
    out = CliRunner().invoke(cli, ["serve", "--port", "0"])
    assert out.exit_code == 0, out.output
    assert (gc.get_threshold(), gc.get_freeze_count()) == (thresholds, frozen)
