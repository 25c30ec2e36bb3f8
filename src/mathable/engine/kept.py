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
import operator
import threading
import weakref
from collections.abc import Callable, Hashable, Sequence
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


_runs: dict[tuple[int, Hashable], tuple[weakref.ref[Any], tuple[list[Any], ...], list[Kept]]] = {}


def _forget_run(
    ref: weakref.ref[Any],
    *,
    slot: tuple[int, Hashable],
    runs: dict[Any, Any] = _runs,
    lock: threading.RLock = _lock,
) -> None:
    """A run's first source is gone: the run goes (the memo and its lock are bound here:
    a source may die as the interpreter ends, after the module's names are cleared)."""
    with lock:
        entry = runs.get(slot)
        if entry is not None and entry[0] is ref:
            del runs[slot]


def kept_run(key: Hashable, part: Callable[[int], Kept], *columns: Sequence[Any]) -> list[Kept]:
    """``[part(i) for i in range(n)]``, a new list, for ``columns`` of ``n`` objects each
    (a game's finished turns, and what else each part is made of), where ``part(i)`` is
    what :func:`kept` keeps for row ``i``: the same objects in the same rows make the
    same parts. The run is remembered under ``key`` while its first object lives (held
    weakly; nothing else the run holds may refer to it), so a view after the next action
    (the same rows and one more) makes only the new rows' parts: a check of each row's
    identity at C speed instead of a :func:`kept` lookup per row and view (issue 34,
    cheaper actions; issue 35, faster self-play)."""
    count = len(columns[0])
    if not count:
        return []
    first = columns[0][0]
    rows = (columns[0][1:], *columns[1:])  # the first object only through the weak reference
    slot = (id(first), key)
    entry = _runs.get(slot)
    parts: list[Kept] = []
    if entry is not None and entry[0]() is first:
        seen, made = entry[1], entry[2]
        if len(made) <= count and all(
            len(old) <= len(now) and all(map(operator.is_, old, now))
            for old, now in zip(seen, rows, strict=True)
        ):
            parts = made
    if len(parts) == count:
        return parts.copy()
    parts = parts + [part(index) for index in range(len(parts), count)]
    with _lock:
        entry = _runs.get(slot)
        ref = entry[0] if entry is not None and entry[0]() is first else None
        if ref is None:
            ref = weakref.ref(first, partial(_forget_run, slot=slot))
        _runs[slot] = (ref, tuple(list(row) for row in rows), parts)
    return parts.copy()


_named: dict[tuple[int, int], tuple[Any, ...]] = {}


def named_cells(cell_name: Callable[[Any], Any], count: int) -> tuple[Any, ...] | None:
    """The names of cells ``0 .. count-1`` in ``cell_name``'s naming, made once per
    naming and board size; None for a naming not kept (:func:`naming_key`)."""
    naming = naming_key(cell_name)
    if naming is None:
        return None
    found = _named.get((naming, count))
    if found is None:
        found = _named.setdefault((naming, count), tuple(map(cell_name, range(count))))
    return found


def where_not(values: Sequence[Any], names: Sequence[Any], empty: Any) -> dict[Any, Any]:
    """``{names[i]: v for i, v in enumerate(values) if v != empty}`` (a board's placed
    tokens, in every view), without a call per cell."""
    return {name: value for name, value in zip(names, values, strict=True) if value != empty}


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
