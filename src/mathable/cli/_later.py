"""Modules imported when first used: ``mathable --help`` needs none of the engine, the
games or the computer players, and starts in a fraction of the time without them."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any


class _Later:
    """A module imported on its first attribute access (then as the module itself)."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        module: ModuleType = importlib.import_module(self._name)
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<module {self._name!r}, imported when first used>"


def later(name: str) -> Any:
    """The module ``name``, imported when one of its attributes is first read."""
    return _Later(name)


class Deferred:
    """A value shown in a text (a help's default) computed only when the text is shown."""

    def __init__(self, make: Callable[[], object]) -> None:
        self.make = make

    def __str__(self) -> str:
        return str(self.make())
