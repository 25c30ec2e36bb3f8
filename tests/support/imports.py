"""The package's imports read from its source, for the architecture tests
(``tests/test_architecture.py`` room by room, ``tests/cli/test_imports.py`` module by
module on the terminal side): every import of a ``mathable`` module, module-level, in a
function or for the type checker alone, relative ones resolved, and the circles they
make."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "mathable"


@dataclass(frozen=True)
class Import:
    """``source`` imports ``target`` (both module names of the package)."""

    source: str
    target: str
    in_function: bool
    """Inside a function (a late import), not when the module loads."""
    for_typing: bool
    """Under ``if TYPE_CHECKING:`` only: for the type checker, never at run time."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of the package, by name."""
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def _inside(tree: ast.Module, kinds: tuple[type[ast.AST], ...], typing: bool) -> set[int]:
    """The ids of the nodes within a function (``kinds``) or a ``TYPE_CHECKING`` block."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if typing and isinstance(node, ast.If):
            if ast.unparse(node.test).endswith("TYPE_CHECKING"):
                found.update(id(n) for statement in node.body for n in ast.walk(statement))
        elif isinstance(node, kinds):
            found.update(id(n) for n in ast.walk(node) if n is not node)
    return found


def _targets(node: ast.AST, package: list[str]) -> Iterator[str]:
    """The names an import statement may bring in (``from x import y``: ``x`` and
    ``x.y``, for ``y`` may be a module)."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            above = package[: len(package) - (node.level - 1)]
            base = ".".join([*above, base] if base else above)
        yield base
        yield from (f"{base}.{alias.name}" for alias in node.names)


@cache
def imports_of(name: str) -> tuple[Import, ...]:
    """The package's modules that module ``name`` imports."""
    path = modules()[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    functions = _inside(tree, (ast.FunctionDef, ast.AsyncFunctionDef), typing=False)
    typing = _inside(tree, (), typing=True)
    return tuple(
        Import(name, target, id(node) in functions, id(node) in typing)
        for node in ast.walk(tree)
        for target in _targets(node, package)
        if target in modules() and target != name
    )


def every_import() -> list[Import]:
    return [found for name in sorted(modules()) for found in imports_of(name)]


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The nodes that reach themselves again, one sorted list per circle (the strongly
    connected components of more than one node, Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found
