"""The terminal side's floors, module by module (issue 34): ``render/`` under the full
screen (``tui/``) and the command line (``cli/``), and no circle between any two modules
of the three packages.

``tests/test_architecture.py`` checks the package's floors room by room; here each module
of ``cli/``, ``tui/`` and ``render/`` is a node of its own, so a circle inside ``cli/``
(a command module importing the module that registers it) is found too. Imports are read
with :mod:`ast`: module-level, function-level and ``TYPE_CHECKING`` ones alike.

One arrow from ``cli/`` into ``tui/`` is allowed: ``mathable.cli.play``'s ``play``
command starts the full-screen game, importing :mod:`mathable.tui.app` inside the
function, when both ends are a terminal (``--plain``, a pipe and ``mathable --help``
never load Textual). Nothing else of ``cli/`` imports ``tui/``, ``tui/`` imports nothing
of ``cli/``, and ``render/`` imports neither.
"""

from __future__ import annotations

from support.imports import Import, circles
from support.imports import every_import as every_import_of_the_package

PACKAGES = ("mathable.cli", "mathable.tui", "mathable.render")
ALLOWED_UP = {("mathable.cli.play", "mathable.tui.app")}
"""The one import from ``cli/`` into ``tui/``: the ``play`` command's lazy start of the
full-screen game."""


def _is_ours(name: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in PACKAGES)


def every_import() -> list[Import]:
    """The imports between modules of the three packages."""
    return [i for i in every_import_of_the_package() if _is_ours(i.source) and _is_ours(i.target)]


def package_of(module: str) -> str:
    return next(p for p in PACKAGES if module == p or module.startswith(p + "."))


def test_no_module_of_the_terminal_side_imports_one_that_imports_it_back() -> None:
    edges: dict[str, set[str]] = {}
    for found in every_import():
        edges.setdefault(found.source, set()).add(found.target)
    assert circles(edges) == []


def test_render_is_below_both_terminal_games_and_tui_below_the_command_line() -> None:
    wrong = []
    for found in every_import():
        source, target = package_of(found.source), package_of(found.target)
        up = (source, target) in {
            ("mathable.render", "mathable.cli"),
            ("mathable.render", "mathable.tui"),
            ("mathable.tui", "mathable.cli"),
        }
        lazy_start = (found.source, found.target) in ALLOWED_UP and found.in_function
        into_tui = (source, target) == ("mathable.cli", "mathable.tui") and not lazy_start
        if up or into_tui:
            wrong.append(f"{found.source} imports {found.target}")
    assert wrong == []


def test_only_the_old_name_imports_the_module_that_registers_the_commands() -> None:
    """Commands import what they share (``cli/shell.py``), never the group they are put
    on: only ``mathable.cli.app`` (the former name, kept for scripts) imports ``main``."""
    wrong = [
        f"{i.source} imports {i.target}"
        for i in every_import()
        if i.target in ("mathable.cli.main", "mathable.cli.app")
        and (i.source, i.target) != ("mathable.cli.app", "mathable.cli.main")
    ]
    assert wrong == []


def test_the_checks_see_a_late_import_and_a_circle() -> None:
    """The checks themselves: the ``play`` command's import inside its function is read,
    and a made-up circle is found."""
    late = [i for i in every_import() if (i.source, i.target) in ALLOWED_UP]
    assert late and all(i.in_function for i in late)
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
