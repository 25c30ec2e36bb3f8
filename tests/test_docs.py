"""Documents that cannot drift (issue 31, items 8-15): what README.md and docs/ tell a
reader is checked against the code.

- Every shell example runs: the ``mathable …`` lines of each ``sh`` block in a scratch
  folder (one block's lines in order, so a record written by one line is read by the
  next), with a timeout and no input; a ``$ mathable …`` line of a console block must
  print what the document shows under it. The ``curl`` lines run against a real server
  (:mod:`webserver`), and must be answered 2xx; the Python blocks run.
- Every ``mathable`` command and flag named exists in the Typer app, every route in the
  FastAPI app, every ``MATHABLE_*`` setting in the code, every ``make`` target in the
  Makefile, every file path and link in the tree (anchors as headings of their page).
- The pictures: each one a document shows is in docs/, and each one in docs/ is shown
  somewhere (``make screenshots`` takes them again: docs/screenshots.py).
- The README stays a two-minute read: under 150 lines.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import typer
from typer.core import TyperGroup, TyperOption

from mathable.cli.app import app as cli_app
from mathable.web.api import create_app
from webserver import Server

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
"""The documents a reader meets, whose examples run."""
NAMING = [*DOCUMENTS, ROOT / "tests" / "README.md", ROOT / "benchmarks" / "README.md"]
"""The documents whose names of commands, routes, settings and files are checked."""
ABOUT_MATHABLE = {"README.md", "docs/terminal.md", "docs/command-line.md", "docs/games.md"}
ABOUT_MATHABLE |= {"docs/computer-players.md", "docs/learning.md"}
"""Pages where a flag alone (``--referee``) is a flag of the ``mathable`` command."""
SERVER = "http://127.0.0.1:8000"
"""The address the documents' examples use, replaced by a test server's."""
SLOW_COMMANDS = {"arena", "ladder", "train-leaves", "rate-bots", "make-puzzles", "play"}
"""Commands whose examples play whole games between computers: the slow suite's."""
NOT_RUN = {"serve"}
"""Commands an example cannot run to its end (a server runs until stopped)."""
TIMEOUT = 300


# -- reading the documents ----------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """A fenced code block: its language, first line number and text."""

    path: Path
    line: int
    lang: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    found, lines = [], path.read_text(encoding="utf-8").splitlines()
    start, lang = -1, ""
    body: list[str] = []
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            if start < 0:
                start, lang, body = number, line[3:].strip(), []
            else:
                found.append(Block(path, start + 1, lang, "\n".join(body)))
                start = -1
        elif start >= 0:
            body.append(line)
    return found


def spans(path: Path) -> list[str]:
    """The inline code spans of a document, outside its fenced blocks."""
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
    return re.findall(r"`([^`\n]+)`", text)


def shell_lines(block: Block) -> list[str]:
    """A shell block's commands: continued lines joined, comments dropped (for a
    console block, the lines after ``$ ``)."""
    text = re.sub(r"\\\n\s*", " ", block.text)
    out = []
    for line in text.splitlines():
        if block.lang not in ("sh", "bash"):
            if not line.startswith("$ "):
                continue
            line = line[2:]
        line = re.sub(r"\s+#\s.*$", "", line).strip()
        if line and not line.startswith("#"):
            out.append(line)
    return out


def console_examples(block: Block) -> list[tuple[str, str]]:
    """A console block's ``$ command`` lines with the output shown under each."""
    pairs: list[tuple[str, list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        elif pairs:
            pairs[-1][1].append(line)
    return [(command, "\n".join(shown).strip("\n")) for command, shown in pairs]


def every_block(lang: set[str]) -> list[Block]:
    return [b for path in DOCUMENTS for b in blocks(path) if b.lang in lang]


def words(line: str) -> list[str]:
    try:
        return shlex.split(line, comments=False)
    except ValueError:
        return line.split()


def mathable_calls(line: str) -> Iterator[list[str]]:
    """The arguments of each ``mathable`` call of a shell line or a code span (options in
    ``[ ]`` opened), up to a pipe, a redirection or the next command. A call is
    ``mathable`` (or a path to its script) where a command starts, environment
    assignments aside: not a database named mathable, nor Python's ``import mathable``."""
    tokens = [t.strip("[]") for t in words(line)]
    starts = True
    for i, token in enumerate(tokens):
        if starts and (token == "mathable" or token.endswith("/bin/mathable")):
            args = []
            for arg in tokens[i + 1 :]:
                if arg in ("|", "<", ">", ";", "&&", "||") or arg.startswith((">", "<")):
                    break
                args.append(arg.rstrip(";"))
            yield args
        assignment = re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", token)
        starts = (
            token in ("|", ";", "&&", "||", "$")
            or token.endswith(";")
            or (starts and bool(assignment))
        )


# -- what exists ---------------------------------------------------------------------------------


def cli() -> TyperGroup:
    group = typer.main.get_command(cli_app)
    assert isinstance(group, TyperGroup)
    return group


def options(command: Any) -> set[str]:
    found = {"-h", "--help"}
    for param in command.params:
        if isinstance(param, TyperOption):
            found |= {*param.opts, *param.secondary_opts}
    return found


def flat(routes: list[Any], prefix: str = "") -> Iterator[str]:
    """Every path the app serves (FastAPI keeps an included router as one entry)."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from flat(inner.routes, prefix + route.include_context.prefix)
        elif getattr(route, "path", None) is not None:
            mounted = type(route).__name__ == "Mount"  # static files: any path below it
            yield prefix + route.path + ("/{path}" if mounted else "")


@pytest.fixture(scope="module")
def routes(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    database = tmp_path_factory.mktemp("routes") / "games.db"
    return sorted(set(flat(create_app(f"sqlite:///{database}").routes)))


def screenshots() -> ModuleType:
    """docs/screenshots.py, whose reading of the documents' pictures is shared."""
    spec = importlib.util.spec_from_file_location("screenshots", ROOT / "docs" / "screenshots.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- names: commands, flags, make targets, settings, routes, files --------------------------------


def test_every_mathable_command_and_flag_named_exists() -> None:
    group = cli()
    top = options(group) | {"--version", "--lang"}
    every = set().union(top, *(options(c) for c in group.commands.values()))
    wrong = []
    for path in NAMING:
        lines = [*spans(path)]
        for block in blocks(path):
            lines += block.text.replace("$ ", "").splitlines()
        for line in lines:
            for args in mathable_calls(line):
                rest = list(args)
                while rest and rest[0].startswith("-"):
                    flag = rest.pop(0).split("=")[0]
                    if flag not in top:
                        wrong.append(f"{path.name}: mathable {flag}")
                    elif flag == "--lang" and rest:
                        rest.pop(0)
                if not rest or not re.fullmatch(r"[a-z][\w-]*", rest[0]):
                    continue
                command = group.commands.get(rest[0])
                if command is None:
                    wrong.append(f"{path.name}: mathable {rest[0]} (no such command)")
                    continue
                for arg in rest[1:]:
                    flag = arg.split("=")[0]
                    if re.fullmatch(r"--?[a-zA-Z][\w-]*", flag) and flag not in options(command):
                        wrong.append(f"{path.name}: mathable {rest[0]} {flag}")
        if path.relative_to(ROOT).as_posix() in ABOUT_MATHABLE:
            for span in spans(path):
                alone = re.fullmatch(r"(--[a-z][\w-]*)(?:[ =].*)?", span)
                if alone and alone[1] not in every:
                    wrong.append(f"{path.name}: {alone[1]} is no flag of mathable")
    assert not wrong, wrong


def test_every_make_target_named_exists() -> None:
    makefile = (ROOT / "Makefile").read_text()
    targets = set(re.findall(r"^([\w-]+):", makefile, re.M))
    wrong = []
    for path in NAMING:
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"`make ([\w-]+)`|^make ([\w-]+)", text, re.M):
            name = target[0] or target[1]
            if name not in targets:
                wrong.append(f"{path.name}: make {name}")
    assert not wrong, wrong


def test_every_setting_named_is_read_by_the_code() -> None:
    code = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "src").rglob("*.py"))
    code += (ROOT / "setup.py").read_text() + (ROOT / "Makefile").read_text()
    code += "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").glob("*.py"))
    wrong = set()
    for path in NAMING:
        for name in re.findall(
            r"\bMATHABLE_[A-Z0-9_]*[A-Z0-9]\b", path.read_text(encoding="utf-8")
        ):
            if not re.search(rf"['\"]{name}['\"]|{name}=", code):
                wrong.add(f"{path.name}: {name}")
    assert not wrong, sorted(wrong)


def _route_pattern(route: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[^}]+\})", route)
    return re.compile("".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts))


def test_every_route_named_exists(routes: list[str]) -> None:
    patterns = [_route_pattern(r) for r in routes]
    firsts = {r.split("/")[1] for r in routes if r.count("/") >= 1} - {""}
    wrong = set()
    for path in NAMING:
        texts = spans(path) + [b.text for b in blocks(path) if b.lang in ("sh", "")]
        for text in texts:
            for found in re.findall(r"(?<![\w.~:/-])(/[a-z][^\s`'\"),;?#]*)", text):
                shown = found.rstrip(".:")
                if shown.split("/")[1] not in firsts or shown.startswith("//"):
                    continue
                concrete = re.sub(r"\{[^}]*\}|<[^>]*>|…", "x", shown)
                if not any(p.fullmatch(concrete) for p in patterns):
                    wrong.add(f"{path.name}: {shown}")
    assert not wrong, sorted(wrong)


ROOTS = [
    Path(),
    ROOT,
    ROOT / "src" / "mathable",
    ROOT / "src" / "mathable" / "web",
    ROOT / "src" / "mathable" / "games",
    ROOT / "src" / "mathable" / "games" / "board",
    ROOT / "src" / "mathable" / "learn",
    ROOT / "tests",
]


def _exists(text: str, here: Path) -> bool:
    pattern = re.sub(r"<[^>]*>|\{[^}]*\}|…", "*", text).rstrip("/")
    for base in [here, *ROOTS[1:]]:
        if any(base.glob(pattern)) if "*" in pattern else (base / pattern).exists():
            return True
    return False


def _anchors(path: Path) -> set[str]:
    heads = re.findall(r"^#+\s+(.*)$", path.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


def test_every_file_and_link_named_exists() -> None:
    wrong = []
    for path in NAMING:
        here = path.parent
        for span in spans(path):
            path_like = re.fullmatch(
                r"(?:\.\./)*[\w.-]+(?:/[\w.<>{}*…-]+)*(?:/|/[^/]*\.[a-z]+)", span
            )
            if path_like and not span.startswith((".venv", "http")) and not _exists(span, here):
                wrong.append(f"{path.name}: `{span}`")
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            file, _, anchor = target.partition("#")
            page = (here / file).resolve() if file else path
            if not page.exists():
                wrong.append(f"{path.name}: link ({target})")
            elif anchor and page.suffix == ".md" and anchor not in _anchors(page):
                wrong.append(f"{path.name}: link ({target}): no such heading")
        if "../shared" in text:
            wrong.append(f"{path.name}: a link outside the repository (../shared)")
    assert not wrong, wrong


def test_every_picture_shown_exists_and_every_picture_is_shown() -> None:
    shots = screenshots()
    shown, kept = shots.referenced(), shots.pictures()
    assert not shown - kept, f"shown but missing from docs/: {sorted(shown - kept)}"
    assert not kept - shown, f"in docs/ but shown nowhere: {sorted(kept - shown)}"


def test_the_readme_is_a_two_minute_read() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 150
    for needed in ("make play", "make run", "mathable score examples/worked-example.txt"):
        assert needed in readme
    for page in ("architecture", "games", "online-play", "deploy", "i18n", "computer-players"):
        assert f"docs/{page}.md" in readme
    assert "tests/README.md" in readme and "benchmarks/README.md" in readme
    assert "docs/api.md" in readme and "LICENSE" in readme and (ROOT / "LICENSE").is_file()
    assert "(soon)" not in readme


# -- the examples run ----------------------------------------------------------------------------


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A folder to run examples in: the repository's top-level entries linked in, so
    ``examples/…`` reads, and whatever an example writes stays here."""
    for entry in ROOT.iterdir():
        if entry.name not in (".git",):
            (tmp_path / entry.name).symlink_to(entry)
    return tmp_path


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.update(COLUMNS="100", LANG="C.UTF-8", TERM="dumb", NO_COLOR="1", PYTHONWARNINGS="ignore")
    return env


def _run(line: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", line],
        cwd=cwd,
        env=_environment(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def _commands(block: Block) -> set[str]:
    found = set()
    for line in shell_lines(block):
        for args in mathable_calls(line):
            named = [a for a in args if not a.startswith("-")]
            if named:
                found.add(named[0])
    return found


def _runnable(block: Block) -> bool:
    commands = _commands(block)
    return bool(commands) and not commands & NOT_RUN


SHELL = [b for b in every_block({"sh", "bash"}) if _runnable(b)]


@pytest.mark.parametrize(
    "block",
    [
        pytest.param(
            b, id=b.where, marks=[pytest.mark.slow] if _commands(b) & SLOW_COMMANDS else []
        )
        for b in SHELL
    ],
)
def test_the_shell_examples_run(block: Block, scratch: Path) -> None:
    for line in shell_lines(block):
        if not any(mathable_calls(line)):
            continue
        done = _run(line, scratch)
        assert done.returncode == 0, f"{block.where}: {line}\n{done.stdout[-2000:]}{done.stderr}"


CONSOLE = [b for b in every_block({"", "console"}) if console_examples(b)]


@pytest.mark.parametrize("block", [pytest.param(b, id=b.where) for b in CONSOLE])
def test_the_console_examples_print_what_they_show(block: Block, scratch: Path) -> None:
    for command, shown in console_examples(block):
        done = _run(command, scratch)
        printed = (done.stdout + done.stderr).strip("\n")
        expected_code = 1 if shown.startswith("error:") else 0
        assert done.returncode == expected_code, f"{block.where}: {command}\n{printed}"
        got = [line.rstrip() for line in printed.splitlines()]
        assert got == [line.rstrip() for line in shown.splitlines()], f"{block.where}: {command}"


@pytest.mark.parametrize("block", [pytest.param(b, id=b.where) for b in every_block({"python"})])
def test_the_python_examples_run(block: Block, scratch: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", block.text],
        cwd=scratch,
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, f"{block.where}\n{done.stderr}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("docs") / "games.db").start()
    yield running
    running.stop()


def test_the_curl_examples_are_answered(server: Server, tmp_path: Path) -> None:
    lines = [
        (b, line)
        for b in every_block({"sh", "bash"})
        for line in shell_lines(b)
        if line.startswith("curl ")
    ]
    assert lines, "the API page shows curl examples"
    for block, line in lines:
        assert SERVER in line, f"{block.where}: examples use {SERVER}"
        command = "curl --fail-with-body " + line.removeprefix("curl ").replace(SERVER, server.url)
        done = _run(command, tmp_path)
        assert done.returncode == 0, f"{block.where}: {line}\n{done.stdout}{done.stderr}"
        json.loads(done.stdout)
    for block in every_block({"json"}):
        json.loads(block.text.replace("…", ""))


# -- what the command line says of itself (item 13) ----------------------------------------------


def test_score_offers_only_the_games_it_scores(scratch: Path) -> None:
    """``score --help`` once offered ``--variant quattro``, which ``score`` refuses."""
    shown = _run("mathable score --help", scratch).stdout
    offered = re.search(r"--variant.*?\(see", shown, re.S)
    assert offered and "junior-numbers" in offered[0] and "quattro" not in offered[0]
    refused = _run("mathable score --variant quattro examples/worked-example.txt", scratch)
    assert refused.returncode == 1 and "error:" in refused.stderr


def test_arena_records_name_each_seats_bot(scratch: Path) -> None:
    """A record of ``arena --records`` has the ``bots`` field the documents describe, and
    replays."""
    done = _run("mathable arena gentle greedy --games 2 --seed 3 --records games/", scratch)
    assert done.returncode == 0, done.stderr
    written = sorted((scratch / "games").glob("*.json"))
    assert len(written) == 2
    seatings = [json.loads(p.read_text())["bots"] for p in written]
    assert sorted(map(tuple, seatings)) == [("gentle", "greedy"), ("greedy", "gentle")]
    assert _run(f"mathable replay {written[0].relative_to(scratch)}", scratch).returncode == 0
