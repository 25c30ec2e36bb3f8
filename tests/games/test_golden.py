"""Golden playthroughs (tests/golden/): each file's game, replayed from its header, must
print exactly the file. A mismatch prints a unified diff; after a deliberate rules change
regenerate the files with ``make golden`` and review the diff."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from golden.regenerate import GOLDENS, HEADER, Golden, parse_header, playthrough
from mathable import GAMES
from mathable.engine.protocol import HouseRules

FOLDER = Path(__file__).resolve().parents[1] / "golden"
FILES = sorted(FOLDER.glob("*.txt"))


def test_every_game_has_a_golden_file_from_2_to_4_seats() -> None:
    described = [parse_header(path.read_text(encoding="utf-8")) for path in FILES]
    assert sorted(g.game for g in described) == sorted(GAMES)
    assert {len(g.players) for g in described} == {2, 3, 4}
    assert sorted(path.name for path in FILES) == sorted(g.filename for g in GOLDENS)
    assert all(path.name == g.filename for path, g in zip(FILES, described, strict=True))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_playthrough_replays_exactly(path: Path) -> None:
    expected = path.read_text(encoding="utf-8")
    actual = playthrough(parse_header(expected))
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile=f"{path.name} (golden)",
            tofile=f"{path.name} (replayed)",
            n=2,
        )
        shown = "".join(list(diff)[:200])
        pytest.fail(
            f"{path.name} no longer replays as written (after a deliberate rules change: "
            f"make golden, then review the diff):\n{shown}",
            pytrace=False,
        )


def test_a_changed_line_is_caught() -> None:
    """The comparison is on the whole text: one digit changed anywhere is a mismatch."""
    path = FILES[0]
    text = path.read_text(encoding="utf-8")
    assert playthrough(parse_header(text)) == text
    tampered = text.replace("result: scores [", "result: scores [1", 1)
    assert tampered != text and playthrough(parse_header(tampered)) != tampered


def test_the_header_round_trips() -> None:
    golden = Golden("junior-numbers", 9, ("A b", "C"), HouseRules(strict=True, allow_undo=True))
    text = "\n".join(golden.header()) + "\n\n== start\n"
    assert text.startswith(HEADER)
    assert parse_header(text) == golden
