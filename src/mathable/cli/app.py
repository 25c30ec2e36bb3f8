"""The ``mathable`` command under its former name: tests, scripts and installed console
scripts refer to ``mathable.cli.app:app`` and ``:main``. The commands themselves are
registered in :mod:`.main`."""

from __future__ import annotations

from .main import app, main

__all__ = ["app", "main"]
