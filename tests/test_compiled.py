"""The compiled engine (issue 16): the install compiles the modules of
``mathable.compiled`` with mypyc, and ``MATHABLE_PURE=1`` runs their source instead.

``make test`` sets ``MATHABLE_EXPECT_COMPILED=1`` for the suite: a build that silently
fell back to pure Python then fails here instead of passing slower; ``make test-pure``
runs the rules and the computer players again under ``MATHABLE_PURE=1``.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mathable import _source_only
from mathable.compiled import COMPILED_MODULES


def _files() -> dict[str, str]:
    return {name: importlib.import_module(name).__file__ or "" for name in COMPILED_MODULES}


def test_the_listed_modules_run_compiled_or_pure_as_asked() -> None:
    files = _files()
    if os.environ.get("MATHABLE_PURE"):
        assert all(f.endswith(".py") for f in files.values()), files
    elif os.environ.get("MATHABLE_EXPECT_COMPILED"):
        assert not _source_only.stale()
        assert all(not f.endswith(".py") for f in files.values()), files
    else:  # a plain `pytest`: whichever the install made, never a mix
        assert len({f.endswith(".py") for f in files.values()}) == 1, files


def test_pure_python_is_one_variable_away() -> None:
    """In a fresh interpreter with MATHABLE_PURE=1 every listed module is its source."""
    code = (
        "import importlib, json; from mathable.compiled import COMPILED_MODULES as M; "
        "print(json.dumps([importlib.import_module(m).__file__ for m in M]))"
    )
    env = {**os.environ, "MATHABLE_PURE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert all(path.endswith(".py") for path in json.loads(done.stdout))


def test_an_edited_source_is_used_rather_than_its_older_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A compiled module older than its source is reported stale (the source is used)."""
    root = tmp_path
    source = root / "mathable" / "games" / "board" / "board.py"
    source.parent.mkdir(parents=True)
    built = source.with_suffix(importlib.machinery.EXTENSION_SUFFIXES[0])
    built.write_text("")
    source.write_text("")
    os.utime(built, (1_000, 1_000))
    monkeypatch.setattr(_source_only, "__file__", str(root / "mathable" / "_source_only.py"))
    assert _source_only.stale() == ["mathable.games.board.board"]
    os.utime(built, None)
    os.utime(source, (1_000, 1_000))
    assert _source_only.stale() == []
