"""Parts of views made once (issue 34, cheaper actions).

A finished turn reads the same in every view that shows it, whoever the seat, in one
language: its JSON-ready data is made the first time a view shows it and shared by every
later view (of every seat, after every action) while the turn lives; its JSON text too
(:meth:`Kept.text`), so a server encodes a game's history once, not once per seat and
action. What is kept is keyed by the turn object's identity (turns and summaries are
frozen: a changed turn is another object) and goes with it (a weak reference).
"""

from __future__ import annotations

import json
import threading
import weakref
from collections.abc import Callable, Hashable
from functools import partial
from typing import Any


class Kept(dict[str, Any]):
    """JSON-ready data made once and shared by every view that shows it: never change
    it. Its JSON text is made once too, when first asked for."""

    _text: str | None = None

    def text(self) -> str:
        """The compact JSON text (the API's settings: ``(",", ":")``, not ASCII-only)."""
        if self._text is None:
            self._text = json.dumps(self, separators=(",", ":"), ensure_ascii=False)
        return self._text


_kept: dict[int, tuple[weakref.ref[Any], dict[Hashable, Kept]]] = {}
_lock = threading.RLock()  # re-entered if a collection during a write forgets a source


def _forget(ref: weakref.ref[Any], *, ident: int) -> None:
    """The source object is gone: what was kept for it goes."""
    with _lock:
        entry = _kept.get(ident)
        if entry is not None and entry[0] is ref:
            del _kept[ident]


def kept(source: object, key: Hashable, build: Callable[[], dict[str, Any]]) -> Kept:
    """``build()`` for ``source`` (by identity) and ``key`` (its language...), made once
    and kept while ``source`` lives; ``source`` must never change (a frozen turn)."""
    ident = id(source)
    entry = _kept.get(ident)
    if entry is not None and entry[0]() is source:
        found = entry[1].get(key)
        if found is not None:
            return found
    made = Kept(build())
    with _lock:
        entry = _kept.get(ident)
        if entry is None or entry[0]() is not source:
            ref = weakref.ref(source, partial(_forget, ident=ident))
            entry = _kept[ident] = (ref, {})
        return entry[1].setdefault(key, made)


_namings: dict[tuple[int, str | None], tuple[object, int]] = {}
MAX_NAMINGS = 64
"""Namings kept (a game type's, each held for good): past it, views of another naming
are made afresh (no memory grows with the games played)."""


def naming_key(cell_name: Callable[[Any], Any] | None) -> int | None:
    """A small number for how a view names cells: 0 for none (numbers as they are), one
    per naming method and the object it is bound to (a game type's names: a value, held
    and known by identity); None for any other function (what it makes is not kept)."""
    if cell_name is None:
        return 0
    owner = getattr(cell_name, "__self__", None)
    method = getattr(cell_name, "__name__", None)
    hashing = getattr(type(owner), "__hash__", None)
    if owner is None or hashing is None or hashing is object.__hash__:
        return None  # a plain function, or an owner of no value of its own
    found = _namings.get((id(owner), method))
    if found is not None and found[0] is owner:
        return found[1]
    with _lock:
        if len(_namings) >= MAX_NAMINGS:
            return None
        number = len(_namings) + 1
        _namings[(id(owner), method)] = (owner, number)  # held: its id stays its own
        return number
