"""A hostile-input campaign against the real ``mathable`` executable (issue 12).

Usage: ``python scripts/hostile_inputs.py [--count N] [--seed S] [--jobs J] [--exe PATH]``.

Runs ``mathable`` as a user would, in a subprocess, with what a mischievous or unlucky
user types: hostile names (markup, control characters, right-to-left marks, 10,000
characters, bytes that are not UTF-8), files (invalid UTF-8, random and mutated JSON
records, score sheets, huge, deeply nested, folders, FIFOs, names too long), one-line
positions with hostile fields, flags with hostile values across every command, the
plain game fed hostile lines on its standard input, and bad ``DATABASE_URL`` values.
Each run is classed by its outcome: exit 0 succeeded, exit 1 or 2 refused (exit 1 must
come with exactly one ``error: …`` line on stderr), a traceback or an "internal error"
anywhere is counted as a traceback. Prints the counts as JSON; the exit status is 1 if
any run ended in a traceback, a malformed refusal, an unexpected exit code or a hang.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MARKUP = ["[/]", "[/x]", "[bold]Eve", "[link=x]a[/link]", ":smile:", "\\", "[", "]", "%s", "{}"]
CONTROL = ["\x1b[2J", "\x1b]0;x\x07", "\r", "\n", "\t", "\x07", "\x7f", "\x08", "\x0b"]
UNICODE = ["\u202e", "\u200f", "\u2066", "\ufeff", "é", "٣", "²", "\u0301", "🂡", "\u00a0"]
LONG = ["a" * 10_000, "[" * 10_000, "|" * 300, "9" * 5_000, "/" * 300, "x" * 256]
WORDS = ["classic", "junior", "junior-numbers", "quattro", "pass", "stop", "accept"]
WORDS += ["decline", "challenge", "G7=1", "A=3", "exchange 3", "I8=12", "J8=16+", "draw"]
WORDS += ["bot:gentle", "-h", "--json", "save", "hint", "quit", "undo", "help", "-", "--"]
WORDS += ["0", "-1", "99999", "1e9", "NaN", "None", "null", "true", ""]
PIECES = MARKUP + CONTROL + UNICODE + LONG + WORDS
POSITION = "classic | G7=1 H7=2 G8=3 H8=4 | 1 2 8 12 16 17 42 / ?7 | 0 0 | 92 | 1"
FILE_COMMANDS = [
    ["score"],
    ["score", "--json", "--variant", "junior"],
    ["score", "--variant", "quattro"],
    ["replay"],
    ["replay", "--json"],
    ["replay", "--sheet"],
    ["analyse"],
    ["analyse", "--json"],
    ["show"],
    ["moves"],
    ["moves", "--json", "--limit", "2"],
    ["hint"],
    ["hint", "--json"],
    ["play", "--plain", "--resume"],
]
POSITION_COMMANDS = [["show"], ["moves"], ["moves", "--json"], ["hint"], ["hint", "--limit", "2"]]
COMMANDS = ["score", "replay", "show", "moves", "variants", "play", "bots", "arena", "analyse"]
COMMANDS += ["hint", "serve"]


@dataclass
class Case:
    """One run: its arguments (text or bytes), standard input and environment."""

    family: str
    argv: list[str | bytes]
    stdin: bytes = b""
    env: dict[str, str] = field(default_factory=dict)
    timeout: float = 60
    hang_ok: bool = False
    """A run that may legitimately keep going (a server that started)."""


@dataclass
class Outcome:
    case: Case
    code: int | None
    stdout: bytes
    stderr: bytes


class Campaign:
    """Builds hostile cases from a seeded random source."""

    def __init__(self, rng: random.Random, folder: Path, base_records: list[dict[str, Any]]):
        self.rng = rng
        self.folder = folder
        self.records = base_records
        self.files = 0

    def text(self) -> str:
        """Hostile text: one to four pieces, or random characters."""
        rng = self.rng
        if rng.random() < 0.2:
            alphabet = [chr(rng.randrange(1, 0x3000)) for _ in range(40)]
            return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30)))
        return "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 4)))

    def argv_text(self) -> str:
        """Hostile text that can be a command-line argument (no NUL)."""
        return self.text().replace("\x00", "")

    def json_value(self, depth: int = 0) -> Any:
        rng = self.rng
        kind = rng.randrange(8 if depth < 3 else 5)
        if kind == 0:
            return None
        if kind == 1:
            return rng.choice([True, False])
        if kind == 2:
            return rng.choice([0, -1, 1, 2, 5, 2**63, -(2**70), 10**30])
        if kind == 3:
            return rng.choice([0.5, 1e308, -0.0, 3.0])
        if kind == 4:
            return self.text()
        if kind in (5, 6):
            return [self.json_value(depth + 1) for _ in range(rng.randint(0, 4))]
        return {self.text()[:10]: self.json_value(depth + 1) for _ in range(rng.randint(0, 3))}

    def record_text(self) -> str:
        """A real record with a few fields or actions replaced by hostile values."""
        rng = self.rng
        data = json.loads(json.dumps(rng.choice(self.records)))
        for _ in range(rng.randint(0, 3)):
            key = rng.choice([*sorted(data), "actions", "setup", "extra", "rounds"])
            actions_now = data.get("actions")
            if (
                key == "actions"
                and isinstance(actions_now, list)
                and actions_now
                and rng.random() < 0.5
            ):
                actions = list(data["actions"])
                actions[rng.randrange(len(actions))] = self.text()
                data["actions"] = actions
            elif key == "setup" and rng.random() < 0.5:
                data["setup"] = {
                    rng.choice(["racks", "bag", "to_move", "board", "first"]): self.json_value()
                }
            else:
                data[key] = self.json_value()
        return json.dumps(data)

    def position(self) -> str:
        rng = self.rng
        if rng.random() < 0.3:
            return self.argv_text()
        fields = POSITION.split("|")
        for _ in range(rng.randint(1, 2)):
            fields[rng.randrange(len(fields))] = rng.choice(
                [self.argv_text(), str(rng.randint(-(10**6), 10**6)), " ".join(["1"] * 40)]
            )
        return "|".join(fields)

    def sheet(self) -> str:
        turns = [f"{self.text()}: {self.rng.choice([*WORDS, self.text()])}" for _ in range(5)]
        return "\n".join(turns)

    def file(self) -> str:
        """A hostile file (or a path that is no regular file) for a command."""
        rng = self.rng
        self.files += 1
        path = self.folder / f"input-{self.files}.json"
        kind = rng.randrange(14)
        if kind == 0:
            return str(self.folder / ("x" * 300 + ".json"))
        if kind == 1:
            return str(self.folder)
        if kind == 2:
            fifo = self.folder / f"fifo-{self.files}"
            os.mkfifo(fifo)
            return str(fifo)
        if kind == 3:
            return str(self.folder / "missing" / self.argv_text()[:100])
        contents: bytes
        if kind == 4:
            contents = bytes(rng.randrange(256) for _ in range(rng.randint(0, 400)))
        elif kind == 5:
            contents = b"\xff\xfe" + self.record_text().encode()
        elif kind == 6:
            contents = json.dumps(self.json_value()).encode()
        elif kind == 7:
            contents = rng.choice([b"[" * 200_000, b'{"a":' * 100_000, b" " * 5_000_001])
        elif kind == 8:
            contents = self.sheet().encode("utf-8", "surrogatepass")
        elif kind == 9:
            contents = self.position().encode()
        elif kind == 10:
            contents = b"\xef\xbb\xbf" + self.record_text().encode()
        else:
            contents = self.record_text().encode("utf-8", "surrogatepass")
        path.write_bytes(contents)
        return str(path)

    # -- families of cases ---------------------------------------------------------

    def file_case(self) -> Case:
        command = self.rng.choice(FILE_COMMANDS)
        return Case("files", [*command, self.file()], stdin=b"\nquit\n\n")

    def file_name_case(self) -> Case:
        command = self.rng.choice(FILE_COMMANDS)
        return Case("file names", [*command, self.argv_text()], stdin=b"quit\n\n")

    def position_case(self) -> Case:
        return Case("positions", [*self.rng.choice(POSITION_COMMANDS), self.position()])

    def play_case(self) -> Case:
        rng = self.rng
        sane = ["Ann", "Bob", "Zoë", "[bold]Eve", "[/]", ":smile:", "\u202eLiz", "bot:gentle"]
        names = rng.sample(sane, rng.randint(2, 4))
        if rng.random() < 0.4:
            names[rng.randrange(len(names))] = self.argv_text()
        argv: list[str | bytes] = ["play", "--plain", "--players", ",".join(names)]
        argv += ["--variant", rng.choice(["classic", "junior", "junior-numbers", "quattro"])]
        argv += ["--seed", str(rng.randint(0, 10**6))]
        if rng.random() < 0.3:
            argv += [rng.choice(["--referee", "--undo", "--strict", "--no-hints"])]
        lines = [rng.choice([self.text(), *WORDS]) for _ in range(rng.randint(0, 12))]
        stdin = "\n".join(["", *lines]).encode("utf-8", "surrogatepass") + b"\n"
        if rng.random() < 0.2:
            stdin += bytes(rng.randrange(256) for _ in range(50)) + b"\n"
        return Case("play", argv, stdin=stdin)

    def flag_case(self) -> Case:
        rng = self.rng
        value = self.argv_text()
        choices: list[list[str | bytes]] = [
            ["play", "--plain", "--players", "Ann,Bob", "--rounds", value],
            ["play", "--plain", "--players", "Ann,Bob", "--seed", value],
            ["play", "--plain", "--players", "Ann", "--vs", value],
            ["play", "--plain", "--players", value, "--vs", "gentle"],
            ["play", "--plain", "--variant", value],
            ["play", "--plain", "--players", "Ann,Bob", "--variant", "quattro", "--rounds", "2"],
            ["moves", POSITION, "--limit", value],
            ["hint", POSITION, "--limit", value],
            ["arena", value, "gentle", "--games", "1"],
            ["arena", "gentle", "greedy", "--games", value],
            ["arena", "gentle", "greedy", "--games", "1", "--jobs", value],
            ["arena", "gentle", "greedy", "--games", "1", "--seed", value],
            ["arena", "gentle", "greedy", "--games", "1", "--records", value],
            ["arena", "gentle", "greedy", "--games", "1", "--variant", value],
            ["variants", value],
            ["bots", value],
            ["score", "-v", value, POSITION],
            [value],
            [value, "-h"],
            [rng.choice(COMMANDS), "-h"],
            [rng.choice(COMMANDS), "--help"],
            ["--version"],
            [rng.choice(COMMANDS), "--no-such-flag", value],
        ]
        return Case("flags", rng.choice(choices))

    def serve_case(self) -> Case:
        rng = self.rng
        value = self.argv_text()
        env: dict[str, str] = {}
        argv: list[str | bytes] = ["serve", "--port", "0"]
        kind = rng.randrange(4)
        if kind == 0:
            argv = ["serve", "--host", value, "--port", "0"]
        elif kind == 1:
            port = rng.choice([value, "99999", "-1", "65536", "1e3", str(2**70)])
            argv = ["serve", "--port", port]
        url = rng.choice(
            [
                value,
                "postgres://x",
                "sqlite:///" + value,
                f"sqlite:///{self.folder}",
                "sqlite:////proc/none/x.db",
                "mysql://",
                "",
            ]
        )
        env["DATABASE_URL"] = url.replace("\x00", "")
        return Case("serve", argv, env=env, timeout=5, hang_ok=True)

    def bytes_case(self) -> Case:
        """Arguments that are not UTF-8 at all."""
        rng = self.rng
        junk = bytes(rng.randrange(128, 256) for _ in range(rng.randint(1, 8)))
        choices: list[list[str | bytes]] = [
            ["play", "--plain", "--players", b"Ann," + junk],
            ["replay", junk + b".json"],
            ["show", b"classic | " + junk],
            [junk],
            ["arena", junk, "gentle"],
        ]
        return Case("bytes", rng.choice(choices))


FAMILIES = [
    ("file_case", 30),
    ("file_name_case", 12),
    ("position_case", 15),
    ("play_case", 18),
    ("flag_case", 15),
    ("serve_case", 5),
    ("bytes_case", 5),
]


def base_records() -> list[dict[str, Any]]:
    """Short real records of every game (a few actions in), to mutate."""
    from mathable.engine import records
    from mathable.games import registry

    found = []
    for name in registry.GAMES:
        for actions in (0, 3, 9):
            game = registry.new_game(name, ["Ann", "Bob"], seed=11)
            for _ in range(actions):
                if not game.is_over:
                    game.apply(game.legal_actions()[0])
            found.append(records.to_record(game))
    return found


def run(exe: list[str], case: Case, cwd: Path) -> Outcome:
    argv = [*exe, *case.argv]
    env = {**os.environ, "COLUMNS": "100", **case.env}
    try:
        done = subprocess.run(
            argv, input=case.stdin, capture_output=True, timeout=case.timeout, env=env, cwd=cwd
        )
    except subprocess.TimeoutExpired as exc:
        return Outcome(case, None, exc.stdout or b"", exc.stderr or b"")
    return Outcome(case, done.returncode, done.stdout, done.stderr)


def classify(outcome: Outcome) -> str:
    """succeeded, refused, usage, traceback, bad-error, timeout, served or other-exit."""
    both = outcome.stdout + outcome.stderr
    if b"Traceback (most recent call last)" in both or b"internal error" in outcome.stderr:
        return "traceback"
    if outcome.code is None:
        return "served" if outcome.case.hang_ok else "timeout"
    if outcome.code == 0:
        return "succeeded"
    if outcome.code == 2:
        return "usage"
    if outcome.code == 1:
        lines = outcome.stderr.decode("utf-8", "replace").splitlines()
        if len(lines) == 1 and lines[0].startswith("error: "):
            return "refused"
        return "bad-error"
    return "other-exit"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="how many runs")
    parser.add_argument("--seed", type=int, default=12, help="seed of the campaign")
    parser.add_argument("--jobs", type=int, default=2, help="runs at once")
    parser.add_argument("--exe", default=shutil.which("mathable"), help="the executable")
    parser.add_argument("--show", type=int, default=5, help="failures to print (stderr)")
    args = parser.parse_args()
    exe = [args.exe] if args.exe else [sys.executable, "-m", "mathable"]
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="hostile-") as name:
        folder = Path(name)
        inputs, work = folder / "inputs", folder / "work"
        inputs.mkdir()
        work.mkdir()
        campaign = Campaign(rng, inputs, base_records())
        names = [n for n, weight in FAMILIES for _ in range(weight)]
        cases = [getattr(campaign, rng.choice(names))() for _ in range(args.count)]
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            outcomes = list(pool.map(lambda case: run(exe, case, work), cases))
    kinds = Counter(classify(o) for o in outcomes)
    families = Counter(f"{o.case.family}: {classify(o)}" for o in outcomes)
    shown = 0
    for outcome in outcomes:
        kind = classify(outcome)
        if kind in ("traceback", "bad-error", "timeout", "other-exit") and shown < args.show:
            shown += 1
            print(f"--- {kind}: {outcome.case.argv!r:.300} exit {outcome.code}", file=sys.stderr)
            print(outcome.stderr.decode("utf-8", "replace")[-1500:], file=sys.stderr)
    report = {
        "inputs": len(outcomes),
        "refused": kinds["refused"] + kinds["usage"],
        "succeeded": kinds["succeeded"] + kinds["served"],
        "tracebacks": kinds["traceback"],
        "usage_errors": kinds["usage"],
        "malformed_refusals": kinds["bad-error"],
        "timeouts": kinds["timeout"],
        "other_exits": kinds["other-exit"],
        "by_family": dict(sorted(families.items())),
    }
    print(json.dumps(report, indent=1))
    bad = kinds["traceback"] + kinds["bad-error"] + kinds["timeout"] + kinds["other-exit"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
