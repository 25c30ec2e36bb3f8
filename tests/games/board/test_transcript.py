"""Score sheets: scoring, the bonus assumption, and errors that name the line, the cell
and the rule (rulings C2-C9, C11)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mathable.games import registry
from mathable.games.board.transcript import TranscriptError, score_transcript
from mathable.games.board.variants import JUNIOR

OPENING = "Ann: I8=12 H6=8 G9=2 F7=1 J8=16+\n"


def test_comments_blank_lines_pass_exchange_and_left() -> None:
    sheet = score_transcript(
        "# a family game\n\n" + OPENING + "Bob: pass   # nothing fits\nAnn: exchange 3\n"
        "Bob: left 4 9\nAnn: left 11, 17\n"
    )
    kinds = [t.kind for t in sheet.turns]
    assert kinds == ["place", "pass", "exchange", "left", "left"]
    assert sheet.turns[2].exchanged == 3
    assert sheet.totals == {"Ann": 39 - 28, "Bob": -13}
    assert [t.line for t in sheet.turns] == [3, 4, 5, 6, 7]


def test_bonus_needs_seven_plus_one_per_extra_token() -> None:
    """C9 under the score-sheet assumption: 7 placements, or 8 with one '+', etc."""
    seven = score_transcript(OPENING + "Bob: F8=7 F9=6 H9=8 G6=4 E9=3 E8=21 E10=7").turns[1]
    assert seven.bonus == 50
    seven_with_extra = score_transcript(
        OPENING + "Bob: F8=7 F9=6 H9=8 G6=4 E9=3 E8=21+ E10=7"
    ).turns[1]
    assert seven_with_extra.bonus == 0  # took an extra token, so one is left
    eight = score_transcript(OPENING + "Bob: F8=7 F9=6 H9=8 G6=4 E9=3 E8=21+ E10=7 E11=10").turns[1]
    assert eight.bonus == 50 and eight.points == sum(p.points for p in eight.placements) + 50


@pytest.mark.parametrize(
    ("text", "line", "needle", "rule"),
    [
        (OPENING + "Bob: I8=7\n", 2, "I8 already holds a 12", "C3"),
        ("Ann: A1=5\n", 1, "A1", "C3"),
        (OPENING + "Bob: F8=7 F9=6 H9=8 G6=4 E9=3 E8=21 E7=7\n", 2, "E7", "C5"),
        ("Ann: I8=12+\n", 1, "I8 is not a restriction square", "C7"),
        ("Ann: I8=12 I7=12\n", 1, "only 1 token of 12", "C2"),
        ("Ann: I8=12\nBob: F10=1\n", 2, "F10", "C3"),
        ("Ann: I8=23\n", 1, "no 23 token", "C2"),
        ("Ann I8=12\n", 1, "should look like", ""),
        ("Ann: I8=12 hello\n", 1, "not a placement", ""),
        ("Ann:\n", 1, "empty", ""),
        ("Ann: exchange 9\n", 1, "exchange N", "C8"),
        ("Ann: left 3\nAnn: pass\n", 2, "already counted", ""),
        ("Ann: I8=12 H6=8 G9=2 F7=1 J8=16 F8=7 F9=6 H9=8\n", 1, "8 tokens in one turn", "C8"),
    ],
)
def test_errors_name_line_cell_and_rule(text: str, line: int, needle: str, rule: str) -> None:
    with pytest.raises(TranscriptError) as info:
        score_transcript(text)
    message = str(info.value)
    assert message.startswith(f"line {line}:")
    assert needle in message
    if rule:
        assert f"rule {rule}" in message


def test_an_eighth_five_is_refused() -> None:
    """C2: seven 5s exist; an eighth is refused whatever the board allows."""
    lines = [OPENING]
    # Tokens left on racks count against the supply too.
    lines.append("Bob: left 5 5 5 5 5 5 5\n")
    lines.append("Ann: G10=5\n")
    with pytest.raises(TranscriptError, match="only 7 tokens of 5"):
        score_transcript("".join(lines))


def test_junior_sheet_uses_racks_of_five_and_plus_minus_only() -> None:
    sheet = score_transcript("Mia: F4=2 E4=4 G5=3 E7=2 F7=6", JUNIOR)
    assert sheet.turns[0].bonus == 25
    with pytest.raises(TranscriptError, match="rule C5"):
        score_transcript("Mia: G6=12", JUNIOR)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("mathable")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=60)


def test_cli_json_contract_and_one_line_errors(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.txt"
    sheet.write_text(OPENING + "Bob: F8=7 F9=6 H9=8 G6=4 E9=3 E8=21 E10=7\n")
    done = _cli("score", str(sheet), "--json")
    assert done.returncode == 0
    data = json.loads(done.stdout)
    assert data["totals"] == {"Ann": 39, "Bob": 121}
    turn = data["turns"][1]
    assert {"player", "points", "bonus", "placements"} <= set(turn)
    assert turn["points"] == 121 and turn["bonus"] == 50
    assert set(turn["placements"][0]) >= {"cell", "value", "points"}
    bad = tmp_path / "bad.txt"
    bad.write_text(OPENING + "Bob: I8=7\n")
    done = _cli("score", str(bad))
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "line 2" in done.stderr and "I8" in done.stderr and "C3" in done.stderr
    missing = _cli("score", str(tmp_path / "nope.txt"))
    assert missing.returncode != 0 and "Traceback" not in missing.stderr


@pytest.mark.parametrize("variant", ["classic", "junior"])
def test_a_played_game_exported_as_a_sheet_scores_the_same(variant: str) -> None:
    """format_transcript then score_transcript gives the game's own totals, over whole
    games of greedy against strong (bonuses, extras, exchanges and deductions)."""
    from mathable.ai.arena import play_game
    from mathable.games.board.game import BoardGame
    from mathable.games.board.transcript import format_transcript, sheet_name

    for seed in range(4):
        result = play_game(["greedy", "strong"], variant, seed, keep_record=True)
        assert result.record is not None  # kept: keep_record=True
        game = registry.from_record(result.record)
        assert isinstance(game, BoardGame)  # a board variant replays as a board game
        sheet = score_transcript(format_transcript(game), game.variant)
        names = [sheet_name(p) for p in game.players]
        assert [sheet.totals[n] for n in names] == list(game.scores)


@pytest.mark.parametrize("name", [":smile:", "Ann: the 2nd", "Eve#2", "[bold]Eve", "[/]"])
def test_names_go_to_a_sheet_and_back_as_typed(name: str) -> None:
    """Issue 12: a name with ':' or '#' inside (or markup) reads back exactly as typed."""
    from mathable.games.board.transcript import format_transcript, sheet_name
    from mathable.games.registry import new_game

    game = new_game("classic", [name, "Bob"], seed=2)
    for _ in range(2):  # both players place, whoever starts
        game.apply(next(iter(game.legal_placements())))
        game.apply("end")
    sheet = score_transcript(format_transcript(game))
    assert sheet_name(name) == name
    assert sheet.totals == {name: game.scores[0], "Bob": game.scores[1]}
