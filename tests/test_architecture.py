"""The house stays walkable (issue 34): no import circle between the package's modules,
no import from a lower floor up to a higher one, no module over 800 lines, and no import
circle between the page's script modules.

Imports are read from the source with :mod:`ast` (module-level and function-level ones
alike, relative ones resolved), so a late import inside a function is a dependency like
any other, and so is an import for the type checker alone (under ``if TYPE_CHECKING:``):
a module that names another's class in its annotations depends on it, so the two may not
name each other (the engine's ``takeback.py`` reads a game through its own small ``Table``
protocol, and ``GameType`` lives beside the ``Game`` it creates).

The floors, highest first, are :data:`FLOORS`; a module may import its own floor's
modules and those of lower floors, and modules of one floor that are listed as rooms
apart (:data:`APART`) do not import each other.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from support.imports import PACKAGE, SRC, circles, every_import, modules

STATIC = PACKAGE / "web" / "static"
MOST_LINES = 800

FLOORS: list[list[str]] = [
    ["mathable.__main__", "mathable.cli"],
    ["mathable.tui", "mathable.web.api"],
    [
        "mathable.web.chat",
        "mathable.web.learning",
        "mathable.web.lobby",
        "mathable.web.keeper",
        "mathable.web.tournaments",
    ],
    ["mathable.web.rounds"],
    ["mathable.web.players"],
    ["mathable.web.ratings"],
    ["mathable.web.infra", "mathable.web"],
    ["mathable.learn", "mathable.online", "mathable.render"],
    ["mathable.ai"],
    ["mathable"],
    ["mathable.games"],
    ["mathable.engine"],
    ["mathable.i18n", "mathable.compiled", "mathable._source_only"],
]
"""The floors, highest first: each names packages (and their modules) or modules. A
module belongs to the longest name that holds it; ``mathable`` alone is the package's
own ``__init__`` (its names for users: ``mathable.new_game``…)."""

APART: list[set[str]] = [
    {"mathable.tui", "mathable.web.api"},
    {
        "mathable.web.chat",
        "mathable.web.learning",
        "mathable.web.lobby",
        "mathable.web.keeper",
        "mathable.web.tournaments",
    },
    {"mathable.learn", "mathable.online", "mathable.render"},
]
"""Rooms of one floor that do not import each other."""


@cache
def graph() -> dict[str, set[str]]:
    """Each module of the package and the package's modules it imports (at run time or
    for the type checker alone)."""
    edges: dict[str, set[str]] = {name: set() for name in modules()}
    for found in every_import():
        edges[found.source].add(found.target)
    return edges


def room_of(module: str) -> str:
    rooms = [room for floor in FLOORS for room in floor]
    holding = [r for r in rooms if module == r or module.startswith(r + ".")]
    assert holding, f"{module} is on no floor: add it to FLOORS"
    return max(holding, key=len)


def floor_of(room: str) -> int:
    return next(i for i, floor in enumerate(FLOORS) if room in floor)


def test_no_module_imports_another_that_imports_it_back() -> None:
    found = circles(graph())
    assert found == [], "import circles: " + "; ".join(" ⇄ ".join(c) for c in found)


def test_no_module_imports_a_higher_floor_or_a_room_apart() -> None:
    wrong = []
    for module, others in sorted(graph().items()):
        room = room_of(module)
        for other in sorted(others):
            there = room_of(other)
            if floor_of(there) < floor_of(room):
                wrong.append(f"{module} imports {other}: up from {room} to {there}")
            elif there != room and any({room, there} <= rooms for rooms in APART):
                wrong.append(f"{module} imports {other}: {room} and {there} are apart")
    assert wrong == []


def test_every_module_is_on_a_floor() -> None:
    for module in graph():
        room_of(module)


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_no_module_is_over_800_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_LINES, f"{path.relative_to(SRC)}: {lines} lines, split it by concern"


SCRIPT_IMPORT = re.compile(r'^\s*import\s+(?:[^"\']*\s+from\s+)?["\']\./([\w.-]+\.js)["\']', re.M)


def test_no_page_script_imports_one_that_imports_it_back() -> None:
    edges = {
        path.name: set(SCRIPT_IMPORT.findall(path.read_text(encoding="utf-8")))
        for path in STATIC.glob("*.js")
    }
    assert edges["play.js"] >= {"net.js", "surface.js", "core.js"}  # the pattern reads them
    assert circles(edges) == []


def test_the_checks_see_a_circle_and_an_arrow_up() -> None:
    """The checks themselves: a made-up circle is found, a made-up arrow up is named."""
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert floor_of(room_of("mathable.engine.protocol")) > floor_of(room_of("mathable.cli.main"))
    assert room_of("mathable.web.rounds.service") == "mathable.web.rounds"
    assert room_of("mathable.web.api") == "mathable.web.api"
    assert room_of("mathable") == "mathable"
