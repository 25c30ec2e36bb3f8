"""The guided first game (issue 18 part 1): the classic lesson is the rulebook's worked
example (seed 000 part VI: Ann 39, Bob 121), every step's move legal and scoring what the
book says; wrong attempts explained naming the cell; the terminal command and the page
/learn go through it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect
from typer.testing import CliRunner

from mathable.cli.app import app
from mathable.engine.errors import IllegalMove
from mathable.games.board.transcript import score_transcript
from mathable.learn.lessons import CLASSIC, JUNIOR, JUNIOR_NUMBERS, LESSONS, QUATTRO, Lesson, check
from support import oneoff
from support.browser import serious
from webserver import Server

BOOK_TURNS = 12
"""The worked example's moves: Ann's 5, Bob's 7; the steps after them are made up."""


def test_the_classic_lesson_replays_the_worked_example() -> None:
    moves = [step.move for step in CLASSIC.steps[:BOOK_TURNS]]
    sheet = score_transcript(f"Ann: {' '.join(moves[:5])}\nBob: {' '.join(moves[5:])}\n")
    assert sheet.totals == {"Ann": 39, "Bob": 121}  # as `mathable score` scores the example
    last = check(CLASSIC, BOOK_TURNS - 1, CLASSIC.steps[BOOK_TURNS - 1].move)
    assert last.correct and last.game is not None
    assert last.game.scores == (39, 121)
    assert last.game.summaries()[-1].points == 121


STEPS = [(lesson, index) for lesson in LESSONS.values() for index in range(len(lesson.steps))]


@pytest.mark.parametrize(
    ("lesson", "index"), STEPS, ids=[f"{lesson.name}-{index}" for lesson, index in STEPS]
)
def test_every_step_is_legal_and_scores_what_the_book_says(lesson: Lesson, index: int) -> None:
    step = lesson.steps[index]
    game = lesson.game_before(index)
    assert game.parse_action(step.move) in game.legal_actions()
    answer = check(lesson, index, step.move)
    assert answer.correct, answer.text
    assert answer.points == step.points
    if game.game_type.score_unit == "points":
        assert str(step.points) in answer.text
    assert step.rule and str(step.text) and str(step.why)


def test_the_other_lessons_end_as_their_rulebooks_say() -> None:
    junior = check(JUNIOR, 4, "D7=4")  # the whole rack of 5: 39 and the 25-point bonus (J2)
    assert junior.game is not None and junior.game.scores == (64, 0)
    numbers = check(JUNIOR_NUMBERS, 2, "G5=8")  # 5 + 3 = 8 on an 8 square: 1 point (K2)
    assert numbers.game is not None and numbers.game.scores == (1, 0)
    # Quattro's example: 32 on the 20 or the 12 (20 + 12), then 25 on the 32 or the 7
    for index, value, piles in ((0, 32, ["A", "B"]), (1, 25, ["A", "C"])):
        game = QUATTRO.game_before(index)
        found = sorted(game.format_action(a) for a in game.legal_placements())
        assert [p for p in found if p.endswith(f"={value}")] == [f"{x}={value}" for x in piles]
    wrong = check(QUATTRO, 0, "C=32")
    assert not wrong.correct and wrong.where == "C" and wrong.rule == "Q2"


@pytest.mark.parametrize(
    ("name", "rulings"),
    [
        ("classic", {"C3", "C4", "C5", "C6", "C7", "C8", "C9", "C11"}),
        ("junior", {"J2", "J3"}),
        ("junior-numbers", {"K2"}),
        ("quattro", {"Q2", "Q3", "Q4"}),
    ],
)
def test_each_lesson_shows_every_rule_of_a_turn(name: str, rulings: set[str]) -> None:
    cited = {r.strip() for step in LESSONS[name].steps for r in step.rule.split(",")}
    assert rulings <= cited


def test_the_end_step_deducts_what_is_left() -> None:
    answer = check(CLASSIC, len(CLASSIC.steps) - 1, CLASSIC.steps[-1].move)
    assert answer.game is not None and answer.game.is_over
    # a game near its end (issue 32): Ann 11 and Bob 17 before; C11: Bob loses 5 + 7
    assert answer.game.scores == (11 + 12, 17 - 12)


def test_a_refused_attempt_is_the_engines_refusal_naming_the_cell() -> None:
    answer = check(CLASSIC, 0, "I8=8")
    assert not answer.correct
    assert answer.where == "I8" and answer.rule == "C3"
    assert "I8" in answer.text and "rule C3" in answer.text
    assert "I8=12" in answer.text and "G8" in answer.text  # what the step asks, and why


def test_a_restriction_square_refusal_names_its_rule() -> None:
    index = BOOK_TURNS - 1
    game = CLASSIC.game_before(index)
    with pytest.raises(IllegalMove):
        game.apply("E7=7")
    answer = check(CLASSIC, index, "E7=7")
    assert not answer.correct and answer.where == "E7" and answer.rule == "C5"
    assert "E10" in answer.text


def test_a_legal_but_other_placement_says_what_the_step_wants() -> None:
    answer = check(CLASSIC, 0, "F8=12")  # also 3 × 4, left of the 3
    assert not answer.correct and answer.where == "F8"
    assert "F8" in answer.text and "I8" in answer.text and "3 × 4" in answer.text
    other = check(CLASSIC, 7, "E9=8")  # 8 fits left of the 6 too, for one equation
    assert not other.correct and "H9" in other.text and "two equations" in other.text


def test_bad_input_is_explained_not_raised() -> None:
    for typed in ("", "zz", "Z99=3", "I8=", "x" * 500, "exchange 999", "I8=12" + " " * 90 + "x"):
        answer = check(CLASSIC, 0, typed)
        assert not answer.correct and answer.text


def test_the_extra_token_follows_the_book() -> None:
    # J8=16 without '+': the same placement; the lesson takes the 11 as Ann does
    answer = check(CLASSIC, 4, "J8=16")
    assert answer.correct and answer.game is not None
    assert sorted(answer.game.rack(0)) == [5, 5, 5, 5, 11, 17, 42]


def test_any_exchange_is_right_at_the_exchange_step() -> None:
    index = next(i for i, s in enumerate(CLASSIC.steps) if s.move.startswith("exchange"))
    assert check(CLASSIC, index, "exchange 60").correct
    refused = check(CLASSIC, index, "pass")
    assert not refused.correct and "exchange" in refused.text


def test_the_terminal_lesson_completes_with_typed_moves() -> None:
    typed = ["F8=12", "hint"] + [step.move for step in CLASSIC.steps]
    result = CliRunner().invoke(app, ["learn"], input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"Step {len(CLASSIC.steps)} of {len(CLASSIC.steps)}" in out
    assert "this step puts it on I8" in out  # the wrong try, explained
    assert "Type I8=12" in out  # the hint
    assert "121" in out and "Now play a real game" in out


@pytest.mark.parametrize("name", ["junior", "junior-numbers", "quattro"])
def test_the_other_terminal_lessons_complete(name: str) -> None:
    lesson = LESSONS[name]
    typed = [step.move for step in lesson.steps]
    result = CliRunner().invoke(app, ["learn", "--variant", name], input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    assert f"Step {len(typed)} of {len(typed)}" in result.output
    assert "refused" not in result.output and str(lesson.end)[:20] in result.output


def test_the_terminal_lesson_quits_and_refuses_unknown_lessons() -> None:
    result = CliRunner().invoke(app, ["learn"], input="quit\n")
    assert result.exit_code == 0 and "Step 1 of" in result.output
    assert "Step 2 of" not in result.output
    bad = CliRunner().invoke(app, ["learn", "--variant", "nope"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output


def test_the_lessons_api(server: Server) -> None:
    listed = oneoff.get(f"{server.url}/api/lessons").json()
    assert [x["name"] for x in listed] == list(LESSONS)
    data = oneoff.get(f"{server.url}/api/lessons/classic").json()
    assert len(data["steps"]) == len(CLASSIC.steps)
    assert data["steps"][0]["board"] == {"G7": 1, "H7": 2, "G8": 3, "H8": 4}
    assert data["steps"][0]["rack"] == [1, 2, 8, 12, 16, 17, 42]
    url = f"{server.url}/api/lessons/classic/steps/0"
    wrong = oneoff.post(url, json={"move": "I8=8"}).json()
    assert wrong["correct"] is False and wrong["where"] == "I8" and wrong["after"] is None
    right = oneoff.post(url, json={"move": "I8=12"}).json()
    assert right["correct"] is True and right["after"]["board"]["I8"] == 12
    assert oneoff.post(url, json={"move": "x" * 65}).status_code == 422
    assert oneoff.get(f"{server.url}/api/lessons/nope").status_code == 404
    assert (
        oneoff.post(f"{server.url}/api/lessons/classic/steps/99", json={"move": "a"}).status_code
        == 404
    )


def test_the_learn_page_goes_through_the_first_steps(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page: Page = context.new_page()
    try:
        page.goto(server.url)
        page.click("#learn-nav")  # the header links to the lessons
        expect(page.locator("#learn-nav")).to_have_attribute("aria-current", "page")
        expect(page.locator("#learn-progress")).to_have_text(f"Step 1 of {len(CLASSIC.steps)}")
        # a wrong placement by clicks: the 12 on F8 is legal but not the step's
        page.locator("#rack button.tile", has_text=re.compile(r"^12$")).click()
        page.locator('[data-cell="F8"]').click()
        expect(page.locator("#live")).to_contain_text("I8")
        expect(page.locator("#message")).to_contain_text("F8")
        # the right one by clicks
        page.locator("#rack button.tile", has_text=re.compile(r"^12$")).click()
        page.locator('[data-cell="I8"]').click()
        expect(page.locator("#message")).to_contain_text("Right")
        expect(page.locator('[data-cell="I8"] .tok')).to_have_text("12")
        page.click("#learn-next")
        expect(page.locator("#learn-progress")).to_have_text(f"Step 2 of {len(CLASSIC.steps)}")
        # a refused move typed: the engine's refusal, in the live region
        page.fill("#learn-move", "I9=8")
        page.press("#learn-move", "Enter")
        expect(page.locator("#live")).to_contain_text("rule C3")
        page.fill("#learn-move", "H6=8")
        page.press("#learn-move", "Enter")
        expect(page.locator("#message")).to_contain_text("Right")
        assert serious(page) == []
        page.click("#learn-back")
        expect(page.locator("#learn-progress")).to_have_text(f"Step 1 of {len(CLASSIC.steps)}")
        assert serious(page) == []
        # another lesson from the list: Quattro's piles, by clicks
        page.get_by_role("link", name=str(QUATTRO.title)).click()
        expect(page.locator("#learn-progress")).to_have_text(f"Step 1 of {len(QUATTRO.steps)}")
        page.locator("#rack button.tile", has_text=re.compile(r"^32$")).click()
        page.locator('[data-cell="C"]').click()
        expect(page.locator("#live")).to_contain_text("rule Q2")
        page.locator("#rack button.tile", has_text=re.compile(r"^32$")).click()
        page.locator('[data-cell="A"]').click()
        expect(page.locator("#message")).to_contain_text("Right")
        expect(page.locator('[data-cell="A"] .top')).to_have_text("32")
        assert serious(page) == []
    finally:
        context.close()
