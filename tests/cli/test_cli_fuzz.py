"""Issue 12, item 6: hypothesis drives every command with hostile input (markup, control
characters, right-to-left marks, 10,000 characters, files with invalid UTF-8, random or
mutated JSON, mutated positions and score sheets, piped lines in the plain game). Every
run ends with exit code 0, 1 or 2, never a traceback, and exit 1 comes with exactly one
``error: …`` line on stderr.

The fast tests run a few dozen inputs per command family; the ``slow`` one many more.
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import typer.testing
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from mathable.cli.app import app
from mathable.engine import records
from mathable.games import registry
from mathable.games.registry import GAMES

runner = CliRunner()


@pytest.fixture(autouse=True, scope="module")
def _command_built_once() -> Iterator[None]:
    """Typer's runner builds the app's Click command at every ``invoke`` (~20 ms of reading
    signatures, most of these tests' time); here it is built once. Only here: the help puts
    its texts in the reader's language on the command it shows (:mod:`mathable.cli.group`),
    which the language tests need made afresh; these tests check exits and errors alone."""
    with pytest.MonkeyPatch.context() as patch:
        built = functools.cache(typer.testing._get_command)  # type: ignore[attr-defined]
        patch.setattr(typer.testing, "_get_command", built)
        yield


MARKUP = ["[/]", "[/x]", "[bold]Eve", "[link=x]a[/link]", ":smile:", "\\", "[", "]", "%s"]
CONTROL = ["\x1b[2J", "\x00", "\r", "\n", "\t", "\x07", "\x7f", "\u202e", "\u200f", "\ufeff"]
LONG = ["a" * 10_000, "[" * 10_000, "|" * 300, "9" * 5_000, "/" * 300]
WORDS = ["classic", "junior", "quattro", "pass", "stop", "accept", "decline", "G7=1", "A=3"]
WORDS += ["exchange 3", "I8=12", "bot:gentle", "-h", "--json", "save", "hint", "quit", "undo"]
POSITION = "classic | G7=1 H7=2 G8=3 H8=4 | 1 2 8 12 16 17 42 / ?7 | 0 0 | 92 | 1"

piece = st.sampled_from(MARKUP + CONTROL + LONG + WORDS) | st.text(max_size=30)
hostile = st.lists(piece, min_size=1, max_size=4).map("".join)
"""Text a mischievous or unlucky user might type anywhere."""


def _base_records() -> list[dict[str, Any]]:
    """A short real record of each game (a few actions in), to mutate."""
    found = []
    for name in GAMES:
        game = registry.new_game(name, ["Ann", "Bob"], seed=7)
        for _ in range(4):
            if not game.is_over:
                game.apply(game.legal_actions()[0])
        found.append(records.to_record(game))
    return found


BASE_RECORDS = _base_records()
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | hostile,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)


@st.composite
def record_texts(draw: st.DrawFn) -> str:
    """A real record with a few fields (or actions) replaced by hostile values."""
    data = json.loads(json.dumps(draw(st.sampled_from(BASE_RECORDS))))
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from([*sorted(data), "actions", "setup", "extra"]))
        if key == "actions" and isinstance(data.get("actions"), list) and data["actions"]:
            actions = list(data["actions"])
            actions[draw(st.integers(0, len(actions) - 1))] = draw(hostile)
            data["actions"] = actions if draw(st.booleans()) else draw(json_values)
        else:
            data[key] = draw(json_values)
    return json.dumps(data)


@st.composite
def positions(draw: st.DrawFn) -> str:
    """A one-line position with a field replaced by hostile text, or hostile text."""
    if draw(st.booleans()):
        return draw(hostile)
    fields = POSITION.split("|")
    fields[draw(st.integers(0, len(fields) - 1))] = draw(hostile | st.integers().map(str))
    return "|".join(fields)


@st.composite
def sheets(draw: st.DrawFn) -> str:
    """A score sheet of hostile names and turns."""
    lines = [
        f"{draw(hostile)}: {draw(hostile | st.sampled_from(WORDS))}"
        for _ in range(draw(st.integers(0, 5)))
    ]
    return "\n".join(lines)


file_contents = st.one_of(
    record_texts().map(str.encode),
    sheets().map(str.encode),
    positions().map(str.encode),
    st.binary(max_size=300),
    record_texts().map(lambda text: b"\xff\xfe" + text.encode()),
    json_values.map(lambda value: json.dumps(value).encode()),
)


@contextmanager
def _folder() -> Iterator[Path]:
    """A fresh working folder (saves and databases land here)."""
    here = Path.cwd()
    with tempfile.TemporaryDirectory() as name:
        os.chdir(name)
        try:
            yield Path(name)
        finally:
            os.chdir(here)


def _check(out: Result, argv: list[str]) -> None:
    """Exit 0, 1 or 2; no traceback; exit 1 with exactly one ``error:`` line."""
    shown = (argv[:6], out.exit_code, out.output[-2000:])
    assert out.exit_code in (0, 1, 2), shown
    assert out.exception is None or isinstance(out.exception, SystemExit), (
        shown,
        repr(out.exception),
    )
    assert "Traceback" not in out.output, shown
    if out.exit_code == 1:
        lines = out.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), shown
        assert "internal error" not in out.stderr, shown


def _run(argv: list[str], stdin: str = "", env: dict[str, str] | None = None) -> None:
    _check(runner.invoke(app, argv, input=stdin, env=env), argv)


FILE_COMMANDS = [
    ["score"],
    ["score", "--json", "--variant", "junior"],
    ["replay"],
    ["replay", "--json"],
    ["replay", "--sheet"],
    ["analyse"],
    ["analyse", "--json"],
    ["show"],
    ["moves", "--json"],
    ["hint"],
    ["play", "--plain", "--resume"],
]
POSITION_COMMANDS = [["show"], ["moves"], ["moves", "--json", "--limit", "3"], ["hint"]]
ports = st.one_of(
    st.just("0"),
    st.integers(max_value=-1).map(str),
    st.integers(min_value=65536).map(str),
    hostile,
)
"""Port values, none of them a port a server might be using."""
FAST = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


@FAST
@given(command=st.sampled_from(FILE_COMMANDS), content=file_contents)
def test_every_file_command_survives_hostile_files(command: list[str], content: bytes) -> None:
    with _folder() as folder:
        path = folder / "input.json"
        path.write_bytes(content)
        _run([*command, str(path)], stdin="quit\n\n")


@FAST
@given(command=st.sampled_from([*FILE_COMMANDS, *POSITION_COMMANDS]), name=hostile)
def test_every_command_survives_hostile_file_names_and_positions(
    command: list[str], name: str
) -> None:
    with _folder():
        _run([*command, name])


@FAST
@given(position=positions(), command=st.sampled_from(POSITION_COMMANDS))
def test_positions_survive_hostile_fields(position: str, command: list[str]) -> None:
    _run([*command, position])


printable = st.characters(exclude_categories=["Cc", "Cs"], exclude_characters=",")
names = st.sampled_from([*MARKUP, "Ann", "Bob", "\u202eEve", "bot:gentle"]) | st.text(
    printable, min_size=1, max_size=12
)
"""Player names: mostly ones a game takes, markup and right-to-left marks included."""


@FAST
@given(
    players=st.lists(names, min_size=2, max_size=4, unique=True),
    variant=st.sampled_from(list(GAMES)),
    lines=st.lists(hostile | st.sampled_from(WORDS), max_size=10),
)
def test_the_plain_game_survives_hostile_names_and_typed_lines(
    players: list[str], variant: str, lines: list[str]
) -> None:
    argv = ["play", "--plain", "--players", ",".join(players), "--variant", variant]
    with _folder():
        _run([*argv, "--seed", "3"], stdin="\n".join(["", *lines]) + "\n")


@FAST
@given(
    players=st.lists(names | hostile, max_size=4),
    variant=st.sampled_from([*GAMES, "[/]"]),
    flags=st.lists(st.sampled_from(["--referee", "--undo", "--strict", "--no-hints"])),
    vs=st.none() | st.sampled_from(["gentle", "[bold]x"]),
    rounds=st.integers().map(str) | hostile,
)
def test_the_plain_game_survives_hostile_flags(
    players: list[str], variant: str, flags: list[str], vs: str | None, rounds: str
) -> None:
    argv = ["play", "--plain", "--players", ",".join(players), "--variant", variant, *flags]
    argv += ["--rounds", rounds, *(["--vs", vs] if vs else [])]
    with _folder():
        _run(argv, stdin="\nquit\n\n")


@FAST
@given(
    argv=st.one_of(
        st.tuples(st.just("serve"), st.just("--host"), hostile, st.just("--port"), st.just("0")),
        st.tuples(st.just("serve"), st.just("--port"), ports),
        st.tuples(st.just("arena"), hostile, hostile),
        st.tuples(
            st.just("arena"), st.just("gentle"), st.just("greedy"), st.just("--jobs"), hostile
        ),
        st.tuples(st.just("variants"), st.sampled_from(["--json", "-h", "x"])),
        st.tuples(st.just("bots"), hostile),
        st.tuples(hostile),
        st.tuples(st.just("--version")),
    ),
    database=(hostile | hostile.map("sqlite:///{}".format)).filter(lambda url: "\x00" not in url),
)
def test_flags_and_commands_survive_hostile_values(argv: tuple[str, ...], database: str) -> None:
    with _folder(), _no_serving():
        _run(list(argv), env={"DATABASE_URL": database})


@contextmanager
def _no_serving() -> Iterator[None]:
    """``serve`` checks its host, port and database, then returns instead of serving."""
    import uvicorn

    def run(self: uvicorn.Server, sockets: list[Any] | None = None) -> None:
        for sock in sockets or ():
            sock.close()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(uvicorn.Server, "run", run)
        yield


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    command=st.sampled_from([*FILE_COMMANDS, *POSITION_COMMANDS]),
    content=file_contents,
    name=hostile,
    position=positions(),
)
@example(  # a file name with a line separator (U+2028) once made two error lines
    command=["score"],
    content=b"",
    name="[/]",
    position="\u2028| G7=1 H7=2 G8=3 H8=4 | 1 2 8 12 16 17 42 / ?7 | 0 0 | 92 | 1",
)
def test_many_more_hostile_inputs(
    command: list[str], content: bytes, name: str, position: str
) -> None:
    with _folder() as folder:
        path = folder / "input.json"
        path.write_bytes(content)
        _run([*command, str(path)], stdin="quit\n\n")
        _run([*command, name])
        _run([*command, position])
