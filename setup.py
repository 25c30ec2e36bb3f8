"""Build hook: compile the engine's hot modules with mypyc (issue 16).

The project's metadata lives in pyproject.toml; this file only adds the compiled
modules listed in ``src/mathable/compiled.py``. Compiling is optional: with
``MATHABLE_PURE=1``, or when it fails (no C compiler, no Python headers), the install
goes on with the pure-Python source, which is the same code, and says so.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
LISTED = runpy.run_path(str(HERE / "src" / "mathable" / "compiled.py"))["COMPILED_MODULES"]


def _warn(message: str) -> None:
    print(f"mathable: {message}; the pure-Python modules are used", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """Build the compiled modules, or none of them: a failure leaves no partial build
    (a module's stub without the shared library would not import)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # any compiler failure means "no build"
            _warn(f"compiling with mypyc failed ({exc})")
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)


def _extensions() -> list[Any]:
    if os.environ.get("MATHABLE_PURE"):
        _warn("MATHABLE_PURE is set: not compiling")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc is not installed")
        return []
    paths = ["src/" + name.replace(".", "/") + ".py" for name in LISTED]
    try:
        return list(mypycify(paths, opt_level="3"))
    except (Exception, SystemExit) as exc:  # mypyc refusing a module means "no build"
        # (its type check exits on an error: a missing stub must not stop the install)
        _warn(f"mypyc could not compile ({exc})")
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
