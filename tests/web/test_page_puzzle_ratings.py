"""Puzzle ratings on the /puzzles page (issue 18), in a real browser (chromium): the
puzzle's rating is shown; an account's first, rated check shows "Your puzzle rating: …
(+N)" and the puzzle's new rating; a guest's check shows no rating of theirs."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from mathable.learn import puzzles as mined
from mathable.online.ratings import Rating, Result, rate
from mathable.web.ratings.puzzleratings import BAND_START
from support.browser import play_answer, serious, shot
from webserver import Server


def test_an_accounts_first_check_shows_its_new_puzzle_rating(server: Server, page: Page) -> None:
    puzzle = mined.of_band("medium")[1]
    made = page.request.post(
        f"{server.url}/api/accounts", data={"name": "Solver", "password": "correct horse battery"}
    )
    assert made.ok, made.text()
    page.goto(f"{server.url}/puzzles?id={puzzle.id}")
    expect(page.locator("#puzzle-rating")).to_have_text(
        re.compile(rf"\b{round(BAND_START['medium'])}\?")
    )
    play_answer(page, puzzle)
    expect(page.locator("#puzzle-verdict")).to_have_class(re.compile("ok"))
    start = Rating(BAND_START["medium"])
    solver = rate(Rating(), [Result(start, 1.0)])
    target = rate(start, [Result(Rating(), 0.0)])
    gain = round(solver.rating) - 1500
    expect(page.locator("#puzzle-my-rating")).to_have_text(
        re.compile(rf"\b{round(solver.rating)}\?? \(\+{gain}\)")
    )
    expect(page.locator("#puzzle-rating")).to_have_text(re.compile(rf"\b{round(target.rating)}"))
    shot(page, "puzzle-rated")
    assert serious(page) == []
    page.reload()  # a second check of the same puzzle is not rated
    play_answer(page, puzzle)
    expect(page.locator("#puzzle-verdict")).to_be_visible()
    expect(page.locator("#puzzle-my-rating")).to_have_count(0)


def test_a_guests_check_shows_no_rating_of_theirs(server: Server, page: Page) -> None:
    puzzle = mined.of_band("hard")[1]
    page.goto(f"{server.url}/puzzles?id={puzzle.id}")
    expect(page.locator("#puzzle-rating")).to_contain_text(str(round(BAND_START["hard"])))
    play_answer(page, puzzle)
    expect(page.locator("#puzzle-verdict")).to_have_class(re.compile("ok"))
    expect(page.locator("#puzzle-my-rating")).to_have_count(0)
    expect(page.locator("#puzzle-rating")).to_contain_text(str(round(BAND_START["hard"])))
