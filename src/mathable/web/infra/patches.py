"""What changed between two views, for the live updates (issue 14, "lean traffic").

A socket that asked for patches gets its first view whole (``{"type": "view", ...}``)
and then, after each action, only what changed since the view it was sent last::

    {"type": "patch", "seq": 12, "from": 11,
     "set": {"status": "...", "legal": [...]},        # keys replaced whole
     "append": {"summaries": [{...}], "turns": [...]},  # lists that only grew
     "at": {"surface": [[97, 12]]},                    # items replaced in a list
     "merge": {"board": {"I8": 12}, "unseen": {"12": 0}},  # keys added or changed
     "drop": ["winners"]}                              # keys gone

``seq`` is the new view's ``seq`` (it is not repeated in ``set``) and ``from`` the
``seq`` of the view the patch applies to (a client holding another view asks for the
whole one); a change that keeps ``seq`` (a seat claimed) has ``from`` equal to ``seq``.
Empty parts are left out. Each key takes the shortest of its encodings, so a patch is
never longer per key than the key itself.
:func:`apply_patch` (and ``applyPatch`` in ``static/net.js``) rebuild the new view.
"""

from __future__ import annotations

import json
from typing import Any

from mathable.engine.kept import Kept


def _size(value: Any) -> int:
    """The length of ``value``'s JSON text; a list of :class:`Kept` parts (a game's
    finished turns) from their own texts, made once, not encoded again."""
    if type(value) is list and value and type(value[0]) is Kept:
        return 1 + sum((len(v.text()) if type(v) is Kept else _size(v)) + 1 for v in value)
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def _list_change(old: list[Any], new: list[Any]) -> tuple[str, Any] | None:
    """``("append", items)`` for a list that only grew, ``("at", [[i, item]...])`` for
    one of the same length; None otherwise."""
    if len(new) > len(old) and new[: len(old)] == old:
        return "append", new[len(old) :]
    if len(new) == len(old):
        return "at", [[i, b] for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
    return None


def _dict_change(old: dict[str, Any], new: dict[str, Any]) -> tuple[str, Any] | None:
    """``("merge", {key: value})`` for a dict that kept all its keys; None otherwise."""
    if not old.keys() <= new.keys():
        return None
    return "merge", {k: v for k, v in new.items() if k not in old or old[k] != v}


def diff(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The parts of a patch from view ``old`` to view ``new`` (without ``type``, ``seq``
    and ``from``); ``{}`` when nothing but ``seq`` changed."""
    parts: dict[str, Any] = {}
    for key, value in new.items():
        if key == "seq" or (key in old and old[key] == value):
            continue
        before = old.get(key)
        change: tuple[str, Any] | None = None
        if isinstance(before, list) and isinstance(value, list):
            change = _list_change(before, value)
        elif isinstance(before, dict) and isinstance(value, dict):
            change = _dict_change(before, value)
        if change is None or _size(change[1]) >= _size(value):
            change = "set", value
        parts.setdefault(change[0], {})[key] = change[1]
    dropped = [key for key in old if key not in new]
    if dropped:
        parts["drop"] = dropped
    return parts


def patch(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any] | None:
    """The patch message from ``old`` to ``new``; None when they are the same view."""
    parts = diff(old, new)
    if not parts and old.get("seq") == new.get("seq"):
        return None
    return {"type": "patch", "seq": new.get("seq"), "from": old.get("seq"), **parts}


def apply_patch(view: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """The view ``message`` (a patch) makes of ``view`` (a new dict; ``view`` is kept)."""
    new = dict(view)
    for key in message.get("drop", []):
        new.pop(key, None)
    new.update(message.get("set", {}))
    for key, items in message.get("append", {}).items():
        new[key] = [*new[key], *items]
    for key, changes in message.get("at", {}).items():
        values = list(new[key])
        for index, item in changes:
            values[index] = item
        new[key] = values
    for key, changes in message.get("merge", {}).items():
        new[key] = {**new[key], **changes}
    new["seq"] = message["seq"]
    return new
