"""Puzzles (issue 18): the shipped set holds its selection rule (every answer is the
engine's best turn and beats the best single placement by the stated margin), the bands
hold theirs, a player's turn is judged by the rules, the daily puzzle is stable within a
UTC day and changes across days, the command and the API refuse bad input with a reason,
and a puzzle is solved on the page in a real browser."""

from __future__ import annotations

import datetime as dt
import itertools
import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from playwright.sync_api import Browser, Page, expect
from typer.testing import CliRunner

from mathable.ai.search import best_turn, ranked_turns
from mathable.cli.app import app as cli
from mathable.engine.actions import Place
from mathable.engine.notation import Position, format_placement
from mathable.games.board.variants import get_variant
from mathable.learn import puzzles as mined
from mathable.web.api import create_app
from support import oneoff
from support.browser import shot
from webserver import Server

SHIPPED = mined.shipped()
SAMPLE = random.Random(18).sample(SHIPPED, 60)


def recomputed(puzzle: mined.Puzzle) -> tuple[str, int, str, int]:
    """The engine's best turn and best single placement for the puzzle's position, from
    scratch: (turn, points, placement, points)."""
    variant, board = mined.board_of(puzzle)
    position = Position.parse(puzzle.position, variant.layout.grid)
    rack = position.racks[position.to_move]
    assert isinstance(rack, tuple) and rack == puzzle.rack
    assert position.to_move + 1 == puzzle.seat
    best = best_turn(variant, board, rack, started_with=len(rack))
    turn = " ".join(format_placement(Place(c, v), board.grid) for c, v in best.placements)
    obvious = mined.obvious_move(variant, board, rack)
    assert obvious is not None
    return turn, best.total, format_placement(obvious[1], board.grid), obvious[0]


def holds_the_rule(puzzle: mined.Puzzle) -> None:
    turn, points, placement, single = recomputed(puzzle)
    assert (turn, points) == (puzzle.answer, puzzle.points), puzzle.id
    assert (placement, single) == (puzzle.obvious, puzzle.obvious_points), puzzle.id
    assert points >= mined.RATIO * single and points - single >= mined.MARGIN, puzzle.id
    assert puzzle.length >= 2 and puzzle.target == points
    bonus = get_variant(puzzle.game).bonus
    assert puzzle.band == mined.band_of(points - single, puzzle.length, bonus), puzzle.id
    solved = mined.check(puzzle, puzzle.answer.split())
    assert solved.legal and solved.solved and solved.points == points, puzzle.id


def test_the_shipped_set_is_big_enough_and_spans_games_and_bands() -> None:
    assert len(SHIPPED) >= 500
    counts = Counter((p.game, p.band) for p in SHIPPED)
    for game in mined.GAMES:
        assert sum(n for (g, _b), n in counts.items() if g == game) >= 150, counts
    for band in mined.BANDS:
        assert sum(n for (_g, b), n in counts.items() if b == band) >= 100, counts
    assert len({p.id for p in SHIPPED}) == len(SHIPPED)


@pytest.mark.parametrize("puzzle", SAMPLE, ids=lambda p: p.id)
def test_a_sample_answer_is_the_engines_best_turn_and_beats_the_obvious(
    puzzle: mined.Puzzle,
) -> None:
    holds_the_rule(puzzle)


@pytest.mark.slow
def test_every_shipped_answer_is_the_engines_best_turn() -> None:
    for puzzle in SHIPPED:
        holds_the_rule(puzzle)


def test_the_set_is_reproducible_from_its_seed() -> None:
    made = mined.make(1, mined.DEFAULT_SEED, variants=("junior",))
    shipped = [p for p in SHIPPED if p.game == "junior" and p.seed == mined.DEFAULT_SEED]
    assert made and made == shipped


@given(st.integers(0, 400), st.integers(2, 7), st.sampled_from([50, 25]))
def test_the_bands_hold_their_rule(margin: int, length: int, bonus: int) -> None:
    band = mined.band_of(margin, length, bonus)
    scale = bonus / 50
    if margin < 50 * scale or length <= 3:
        assert band == "easy"
    elif margin >= 100 * scale and length >= 5:
        assert band == "hard"
    else:
        assert band == "medium"


def test_the_selection_rule() -> None:
    assert mined.selected(60, 30, 2)  # 2x and 30 more
    assert not mined.selected(60, 30, 1)  # one token is the obvious turn
    assert not mined.selected(59, 30, 3)  # 29 more
    assert not mined.selected(149, 100, 3)  # 49 more but under 1.5x
    assert mined.selected(150, 100, 3)


# -- judging a player's turn ---------------------------------------------------------


def test_any_turn_reaching_the_target_solves_not_only_the_engines() -> None:
    for puzzle in SHIPPED[:200]:
        variant, board = mined.board_of(puzzle)
        plans = ranked_turns(variant, board, puzzle.rack, started_with=len(puzzle.rack))
        others = [p for p in plans[1:] if p.total >= puzzle.target]
        if others:
            turn = [format_placement(Place(c, v), board.grid) for c, v in others[0].placements]
            assert " ".join(turn) != puzzle.answer
            result = mined.check(puzzle, turn)
            assert result.legal and result.solved and result.points == others[0].total
            return
    pytest.fail("no puzzle with a second turn as good as the best among 200")


def test_a_turn_short_of_the_target_is_legal_but_not_solved() -> None:
    puzzle = SAMPLE[0]
    result = mined.check(puzzle, [puzzle.obvious])
    assert result == mined.Checked(True, puzzle.obvious_points, False)


@pytest.mark.parametrize(
    ("turn", "reason"),
    [
        ([], "at least one"),
        (["ZZ"], "'ZZ' is not a placement"),
        (["A1=999"], "999 is not on the rack"),
        (["x"] * 17, "at most 16"),
    ],
)
def test_bad_turns_are_refused_with_a_reason(turn: list[str], reason: str) -> None:
    result = mined.check(SAMPLE[0], turn)
    assert not result.legal and not result.solved
    assert reason in str(result.reason)


def test_a_taken_square_an_extra_token_and_an_illegal_square_are_refused() -> None:
    puzzle = SAMPLE[0]
    variant, board = mined.board_of(puzzle)
    taken = next(c for c, v in enumerate(board.values) if v >= 0)
    value = puzzle.rack[0]
    said = mined.check(puzzle, [f"{board.grid.name(taken)}={value}"])
    assert not said.legal and "is taken" in str(said.reason)
    said = mined.check(puzzle, [puzzle.answer.split()[0] + "+"])
    assert not said.legal and "extra token" in str(said.reason)
    wrong = next(
        c
        for c in range(len(board.values))
        if board.is_empty(c) and not variant.is_legal(board, c, value)
    )
    said = mined.check(puzzle, [f"{board.grid.name(wrong)}={value}"])
    assert not said.legal and said.reason


# -- the daily puzzle ----------------------------------------------------------------


def test_the_daily_puzzle_is_stable_within_a_day_and_changes_across_days() -> None:
    day = dt.date(2026, 11, 26)
    assert mined.daily(day) == mined.daily(day)
    seen = [mined.daily(day + dt.timedelta(days=n)).id for n in range(400)]
    assert all(a != b for a, b in itertools.pairwise(seen))
    assert len(set(seen)) == 400  # 400 days, 400 puzzles (the stride is prime)


# -- the command line ------------------------------------------------------------------

runner = CliRunner()


def test_the_command_solves_a_puzzle_typed_a_line_at_a_time() -> None:
    puzzle = SAMPLE[1]
    typed = "\n".join(["Z99=1", *puzzle.answer.split(), "end"]) + "\n"
    out = runner.invoke(cli, ["puzzles", "--id", puzzle.id], input=typed)
    assert out.exit_code == 0, out.output
    assert f"Find a turn worth at least {puzzle.target} points." in out.output
    assert "refused:" in out.output
    assert f"Solved: {puzzle.points} points." in out.output
    assert f"The engine's answer: {puzzle.answer} ({puzzle.points})" in out.output


def test_the_command_shows_the_answer_after_a_short_turn() -> None:
    puzzle = SAMPLE[2]
    out = runner.invoke(cli, ["puzzles", "--id", puzzle.id], input=f"{puzzle.obvious}\nend\n")
    assert out.exit_code == 0, out.output
    assert f"Not yet: {puzzle.obvious_points} points" in out.output
    assert puzzle.answer in out.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["puzzles", "--band", "tricky"], "'tricky' is not a band"),
        (["puzzles", "--id", "nope"], "no puzzle is called 'nope'"),
    ],
)
def test_the_command_refuses_bad_input_in_one_line(args: list[str], said: str) -> None:
    out = runner.invoke(cli, args)
    assert out.exit_code == 1
    assert said in out.output and "Traceback" not in out.output


def test_make_puzzles_writes_a_set(tmp_path: Path) -> None:
    target = tmp_path / "set.json"
    out = runner.invoke(cli, ["make-puzzles", "--games", "1", "--out", str(target)])
    assert out.exit_code == 0, out.output
    made = mined.load(target)
    assert made == tuple(p for p in SHIPPED if p.seed == mined.DEFAULT_SEED)


# -- the API ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path_factory.mktemp('puzzles') / 'games.db'}"
    with TestClient(create_app(url)) as running:
        yield running


def test_the_api_lists_puzzles_of_a_band_without_answers(client: TestClient) -> None:
    got = client.get("/api/puzzles", params={"band": "hard", "limit": 50})
    assert got.status_code == 200
    listed = got.json()
    assert len(listed) == 50 and all(p["band"] == "hard" for p in listed)
    assert int(got.headers["X-Total-Count"]) == len(mined.of_band("hard"))
    assert not any(key in p for p in listed for key in ("answer", "points", "obvious"))
    assert client.get("/api/puzzles").status_code == 200


def test_the_daily_puzzle_is_the_same_for_everyone(client: TestClient) -> None:
    first = client.get("/api/puzzles/daily").json()
    again = TestClient(client.app).get("/api/puzzles/daily").json()
    assert first["id"] == again["id"] == mined.daily().id
    assert first["day"] == dt.datetime.now(dt.UTC).date().isoformat()
    assert "answer" not in first


def test_the_api_checks_a_turn_then_gives_the_answer(client: TestClient) -> None:
    puzzle = SAMPLE[3]
    shown = client.get(f"/api/puzzles/{puzzle.id}").json()
    assert shown["target"] == puzzle.target and "answer" not in shown
    assert len(shown["surface"]) == len(mined.board_of(puzzle)[1].values)
    body = {"placements": puzzle.answer.split()}
    said = client.post(f"/api/puzzles/{puzzle.id}/check", json=body).json()
    assert said["legal"] and said["solved"] and said["points"] == puzzle.points
    assert said["answer"] == {"turn": puzzle.answer, "points": puzzle.points, "bonus": puzzle.bonus}
    said = client.post(f"/api/puzzles/{puzzle.id}/check", json={"placements": ["A1=0"]}).json()
    assert not said["legal"] and said["reason"] and said["answer"]["turn"] == puzzle.answer


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "said"),
    [
        ("GET", "/api/puzzles?band=tricky", None, 422, "band"),
        ("GET", "/api/puzzles?limit=51", None, 422, "limit"),
        ("GET", "/api/puzzles/nope", None, 404, "no puzzle is called 'nope'"),
        ("GET", "/api/puzzles/" + "x" * 81, None, 422, "puzzle_id"),
        ("POST", "/api/puzzles/nope/check", {"placements": []}, 404, "no puzzle"),
        ("POST", "/api/puzzles/{id}/check", {"placements": ["A1=1"] * 17}, 422, "placements"),
        ("POST", "/api/puzzles/{id}/check", {"placements": ["A1=" + "1" * 30]}, 422, "placements"),
        ("POST", "/api/puzzles/{id}/check", {"placements": "A1=1"}, 422, "placements"),
        ("POST", "/api/puzzles/{id}/check", {"turn": []}, 422, "turn"),
    ],
)
def test_the_api_refuses_bad_input_with_a_reason(
    client: TestClient, method: str, path: str, body: object, status: int, said: str
) -> None:
    got = client.request(method, path.replace("{id}", SAMPLE[0].id), json=body)
    assert got.status_code == status, got.text
    assert said in got.json()["error"]


# -- the page ----------------------------------------------------------------------------


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    yield context.new_page()
    context.close()


def test_a_puzzle_is_solved_on_the_page(server: Server, page: Page) -> None:
    puzzle = next(p for p in SAMPLE if p.game == "classic")
    page.goto(f"{server.url}/puzzles?id={puzzle.id}")
    expect(page.locator("#puzzle-target")).to_have_text(
        f"Find a turn worth at least {puzzle.target} points"
    )
    expect(page.locator('#board [tabindex="0"]')).to_have_count(1)  # roving focus
    page.locator('#board [tabindex="0"]').focus()
    start = int(page.evaluate("document.activeElement.dataset.index"))
    page.keyboard.press("ArrowRight")
    assert int(page.evaluate("document.activeElement.dataset.index")) == start + 1
    used: list[int] = []
    for placement in puzzle.answer.split():
        cell, value = placement.split("=")
        page.locator(f'#rack button.tile[data-value="{value}"]').first.click()
        expect(page.locator("#rack button[aria-pressed=true]")).to_have_count(1)
        page.locator(f'#board button[data-cell="{cell}"]').click()
        expect(page.locator("#live")).to_have_text(f"Placed {placement}")
        used.append(int(value))
    expect(page.locator("#puzzle-turn")).to_have_text(f"Your turn: {puzzle.answer}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#puzzle-verdict")).to_have_text(f"Solved: {puzzle.points} points!")
    expect(page.locator("#live")).to_have_text(f"Solved: {puzzle.points} points!")
    expect(page.locator("#puzzle-answer")).to_contain_text(puzzle.answer)
    shot(page, "puzzle-solved-phone")
    assert not serious(page)


def test_the_daily_puzzle_page_keeps_a_streak(server: Server, page: Page) -> None:
    daily = mined.daily()
    page.goto(f"{server.url}/puzzles")
    expect(page.locator("#puzzle-title")).to_have_text(re.compile(r"Daily puzzle: \d{4}-"))
    expect(page.locator("#puzzle-streak")).to_have_text("Daily puzzles solved in a row: 0 days")
    for placement in daily.answer.split():
        cell, value = placement.split("=")
        page.locator(f'#rack button.tile[data-value="{value}"]').first.click()
        page.locator(f'#board button[data-cell="{cell}"]').click()
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#puzzle-verdict")).to_contain_text("Solved")
    page.reload()
    expect(page.locator("#puzzle-streak")).to_have_text("Daily puzzles solved in a row: 1 day")
    assert not serious(page)
    page.get_by_label("Another puzzle:").select_option("hard")
    expect(page.locator("#puzzle-about")).to_contain_text("hard")
    assert oneoff.get(f"{server.url}/api/puzzles/daily").json()["id"] == daily.id


def serious(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page."""
    results = Axe().run(page)
    return [
        f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
