"""Loading the compiled modules (``compiled.py``) from their source instead.

A compiled module sits beside its ``.py`` and Python's import prefers it. This finder,
put first on ``sys.meta_path``, hands Python the source instead, for all of them at once
(compiled modules call each other natively: never mix the two): when
``MATHABLE_PURE=1`` (the tests run the rules and the computer players on both), and when
a source is newer than its compiled module (an edit since the last install: the old
build would silently run the old code).
"""

from __future__ import annotations

import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from pathlib import Path
from types import ModuleType

from .compiled import COMPILED_MODULES

_SOURCE = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)


class SourceOnly:
    """A meta-path finder for the compiled modules that finds only their source."""

    @classmethod
    def find_spec(
        cls,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        if fullname not in COMPILED_MODULES:
            return None
        for entry in path or ():
            spec = importlib.machinery.FileFinder(entry, _SOURCE).find_spec(fullname, target)
            if spec is not None:
                return spec
        return None


def install() -> None:
    """Put the finder first (once)."""
    if SourceOnly not in sys.meta_path:
        sys.meta_path.insert(0, SourceOnly)


def stale() -> list[str]:
    """The compiled modules older than their source (none when nothing is compiled)."""
    root = Path(__file__).resolve().parent.parent
    found = []
    for name in COMPILED_MODULES:
        source = root / (name.replace(".", "/") + ".py")
        for suffix in EXTENSION_SUFFIXES:
            built = source.with_suffix(suffix)
            if built.exists() and built.stat().st_mtime < source.stat().st_mtime:
                found.append(name)
    return found


def use_source_if_stale() -> None:
    """Load the sources when any compiled module is older than its source, and say so."""
    old = stale()
    if old:
        warnings.warn(
            f"{', '.join(old)}: the compiled module is older than its source; using the "
            "source (run `make` or `pip install -e .` to compile again)",
            stacklevel=2,
        )
        install()
