"""The page's scripts in one file, under content-hashed names (issue 32, "fast first
paint").

Without a build step the browser found the page's ES modules wave by wave (app.js, then
what it imports, then what those import…), asked for each of some twenty files over the
six connections HTTP/1.1 allows, and revalidated each (``no-cache``) on every visit. Here
the server joins them into one module, ``/static/v/<hash>/bundle.js``, named by a hash
of every static file and served ``immutable`` for a year; the page names it (and
style.css) by that hash and preloads the language's catalog. A first visit takes one
script; a later one none (from the browser's cache, without asking).

The join is small because the modules are written in a narrow form, which it checks:
single-line ``import { a, b } from "./x.js";`` or ``import "./x.js";``, top-level
``export function``/``export async function``/``export const``, and ``import("./x.js")``
for a page's own module. Each module becomes an ``async`` function with its own scope
(no name can clash); its imports become ``await`` of the module they name, in the same
order as the browser's module loader; its exports, an object of getters on its own
bindings (made before its body runs, so a cycle's hoisted functions are there). A
module outside that form, or a cycle whose early import is not a function, leaves the
page on its separate modules, each preloaded (``modulepreload``) under hashed names: still
one wave. ``MATHABLE_BUNDLE=off`` asks for that too (to debug a module by its own name).

The hash covers every file of ``static/``: a changed file gives a new hash and new names,
and the page never mixes versions. It is recomputed when a file's size or time changes,
so a developer's edit shows on the next load, with no build step; the plain
``/static/<file>`` stays served (``no-cache``) for anything that names it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import Response
from starlette.exceptions import HTTPException

STATIC = Path(__file__).parent.parent / "static"
"""The page's files (HTML, scripts, styles), beside the web package."""
PREFIX = "/static/v/"
IMMUTABLE = "public, max-age=31536000, immutable"
"""A hashed name's content never changes: a year, never revalidated."""

ENTRY = "app.js"
BUNDLE = "bundle.js"
_IMPORT = re.compile(r"""^\s*import\s+(?:[^;'"]*?\s+from\s+)?["'](\./[\w.-]+\.js)["']""", re.M)
_NAMED = re.compile(r'^import \{([\w\s,]*)\} from "\./([\w-]+\.js)";(.*)$')
_BARE = re.compile(r'^import "\./([\w-]+\.js)";(.*)$')
_EXPORT = re.compile(r"^export (async function\*? |function\*? |const )([A-Za-z_$][\w$]*)")
_DYNAMIC = re.compile(r'\bimport\("\./([\w-]+\.js)"\)')
_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
}


@dataclass(frozen=True)
class Assets:
    """One version of the static files: its hash, the modules app.js imports (in order),
    the joined module (``""`` when the page loads them one by one) and the page."""

    version: str
    modules: tuple[str, ...]
    bundle: str
    page: str

    def url(self, name: str) -> str:
        return f"{PREFIX}{self.version}/{name}"


class NotBundled(Exception):
    """A module outside the form the join reads: the page loads the modules instead."""


@dataclass
class _Module:
    lines: list[str]
    """The body: imports taken out (their lines left empty), ``export`` dropped."""
    imports: list[tuple[str, list[str]]]
    """Each import in order: the module and the names (none for ``import "./x.js"``)."""
    exports: dict[str, bool]
    """Each exported name, and whether it is a function (hoisted: there before the body)."""
    dynamic: list[str]


def _stamp() -> tuple[tuple[str, int, int], ...]:
    return tuple(
        (p.name, p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(STATIC.iterdir())
        if p.is_file()
    )


def static_imports(name: str) -> tuple[str, ...]:
    """The modules ``name`` imports statically, directly or not, itself first (dynamic
    ``import()`` is left to load when a page asks for it).

    >>> "core.js" in static_imports("app.js") and "learn.js" not in static_imports("app.js")
    True
    """
    seen: list[str] = []
    todo = [name]
    while todo:
        current = todo.pop(0)
        if current in seen or not (STATIC / current).is_file():
            continue
        seen.append(current)
        text = (STATIC / current).read_text(encoding="utf-8")
        todo.extend(found[2:] for found in _IMPORT.findall(text))
    return tuple(seen)


def _read(name: str) -> _Module:
    """A module in the form the join reads (the module docstring), else NotBundled."""
    module = _Module([], [], {}, [])
    for number, line in enumerate((STATIC / name).read_text(encoding="utf-8").split("\n"), 1):
        where = f"{name}:{number}"
        if line.startswith("import "):
            named, bare = _NAMED.match(line), _BARE.match(line)
            if named:
                names = [n.strip() for n in named[1].split(",") if n.strip()]
                if any(not re.fullmatch(r"[A-Za-z_$][\w$]*", n) for n in names):
                    raise NotBundled(f"{where}: an import with a rename")
                module.imports.append((named[2], names))
            elif bare:
                module.imports.append((bare[1], []))
            else:
                raise NotBundled(f"{where}: an import of another form")
            line = ""
        elif line.startswith("export"):
            found = _EXPORT.match(line)
            if not found:
                raise NotBundled(f"{where}: an export of another form")
            module.exports[found[2]] = "function" in found[1]
            line = line[len("export ") :]
        module.dynamic.extend(_DYNAMIC.findall(line))
        module.lines.append(_DYNAMIC.sub(lambda m: f"__load({json.dumps(m[1])}).done", line))
    return module


_RUNTIME = """\
// The page's modules joined into one (mathable.web.infra.assets, issue 32): each module an async
// function of its own scope; an import awaits the module it names, as the browser's module
// loader would; a module still running (a cycle) gives its exports as they are.
const __entries = new Map();
function __load(name) {
  let entry = __entries.get(name);
  if (!entry) {
    entry = { exports: {}, finished: false };
    __entries.set(name, entry);
    const finish = () => { entry.finished = true; return entry.exports; };
    entry.done = __bodies[name](entry.exports).then(finish);
  }
  return entry;
}
async function __import(name) {
  const entry = __entries.get(name);
  return entry && !entry.finished ? entry.exports : __load(name).done;
}
// A module's exports by its file's name (for tests and the console): module("core.js").state
export function module(name) {
  const entry = __entries.get(name);
  return entry ? entry.exports : undefined;
}
"""


def bundle() -> str:
    """The page's modules joined into one module (the module docstring), or NotBundled
    with the reason."""
    modules = {p.name: _read(p.name) for p in sorted(STATIC.glob("*.js"))}
    if ENTRY not in modules:
        raise NotBundled(f"no {ENTRY}")
    status: dict[str, str] = {}

    def visit(name: str) -> None:  # the browser's order; a cycle's early imports hoisted
        status[name] = "running"
        for other, names in modules[name].imports:
            if other not in modules:
                raise NotBundled(f"{name} imports {other}, not a module of static/")
            missing = [n for n in names if n not in modules[other].exports]
            if missing:
                raise NotBundled(f"{name} imports {', '.join(missing)}, not in {other}")
            if other not in status:
                visit(other)
            elif status[other] == "running" and not all(modules[other].exports[n] for n in names):
                raise NotBundled(f"{name} imports a value of {other} before it is made")
        status[name] = "done"

    visit(ENTRY)
    loaded = set(status)
    for name, module in modules.items():  # a page's own module, loaded once the rest is
        for other in module.dynamic:
            if other not in modules:
                raise NotBundled(f"{name} loads {other}, not a module of static/")
            for needed, _names in modules[other].imports:
                if needed not in loaded:
                    raise NotBundled(f"{other} needs {needed}, which {ENTRY} does not load")
            if other not in status:
                visit(other)
    parts = [_RUNTIME, "const __bodies = {"]
    for name, module in modules.items():
        if name not in status:
            continue  # a module no page loads
        getters = ", ".join(f"{n}: {{ get: () => {n}, enumerable: true }}" for n in module.exports)
        imports = [
            (f"const {{ {', '.join(names)} }} = " if names else "")
            + f"await __import({json.dumps(other)});"
            for other, names in module.imports
        ]
        parts.append(f"// ---- {name}")
        parts.append(f"{json.dumps(name)}: async function (__exports) {{")
        parts.append(f"Object.defineProperties(__exports, {{ {getters} }});")
        parts.extend(imports)
        parts.extend(module.lines)
        parts.append("},")
    parts.append("};")
    parts.append(f"await __load({json.dumps(ENTRY)}).done;")
    return "\n".join(parts) + "\n"


def _build(stamp: tuple[tuple[str, int, int], ...]) -> Assets:
    digest = hashlib.sha256()
    for name, _size, _time in stamp:
        digest.update(name.encode() + b"\0" + (STATIC / name).read_bytes() + b"\0")
    version = digest.hexdigest()[:16]
    modules = static_imports(ENTRY)
    joined = ""
    if _joining():
        try:
            joined = bundle()
        except NotBundled:
            joined = ""  # the modules one by one, each preloaded
    found = Assets(version, modules, joined, "")
    scripts = [BUNDLE] if joined else list(modules)
    links = "".join(f'<link rel="modulepreload" href="{found.url(m)}">\n' for m in scripts)
    # the catalog i18n.js fetches first (its language is filled in per request)
    links += '<link rel="preload" href="/i18n/{lang}.json" as="fetch" crossorigin>\n'
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    html = html.replace('href="/static/style.css"', f'href="{found.url("style.css")}"', 1)
    html = html.replace(f'src="/static/{ENTRY}"', f'src="{found.url(scripts[0])}"', 1)
    html = html.replace("</head>", links + "</head>", 1)
    return Assets(version, modules, joined, html)


_current: tuple[object, Assets] | None = None


def _joining() -> bool:
    return os.environ.get("MATHABLE_BUNDLE", "on").lower() not in ("off", "0", "no")


def current() -> Assets:
    """The static files as they are now (rebuilt only when one changed)."""
    global _current
    key = (_stamp(), _joining())
    if _current is None or _current[0] != key:
        _current = (key, _build(key[0]))
    return _current[1]


def page(lang: str) -> str:
    """index.html naming the hashed files, with the preloads, in language ``lang``."""
    html = current().page.replace("/i18n/{lang}.json", f"/i18n/{lang}.json", 1)
    return html.replace('<html lang="en">', f'<html lang="{lang}">', 1)


router = APIRouter(include_in_schema=False)


@router.get(PREFIX + "{version}/{name}")
async def hashed(version: str, name: str) -> Response:
    """A static file by its hashed name: ``immutable`` when the hash is the current one;
    an older page's name (after an upgrade) still gets the file, revalidated as before."""
    now = current()
    headers = {"Cache-Control": IMMUTABLE if version == now.version else "no-cache"}
    if name == BUNDLE and now.bundle:
        return Response(now.bundle, media_type=_TYPES[".js"], headers=headers)
    path = STATIC / name
    if "/" in name or name.startswith(".") or not path.is_file():
        raise HTTPException(404)
    media = _TYPES.get(path.suffix, "application/octet-stream")
    return Response(path.read_bytes(), media_type=media, headers=headers)
