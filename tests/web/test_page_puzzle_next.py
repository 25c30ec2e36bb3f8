"""The puzzles page (issue 32): "Next puzzle" goes on to another of the chosen band and
theme (an operation the answer needs), and after a check the focus is on it, not lost to
the page's body."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import Page, expect

from mathable.learn import puzzles as mined
from support.browser import play_answer, serious
from webserver import Server


def shown_id(page: Page) -> str:
    return parse_qs(urlparse(page.url).query)["id"][0]


def test_next_puzzle_keeps_the_band_and_theme(server: Server, page: Page) -> None:
    page.goto(f"{server.url}/puzzles?band=easy&theme=÷")
    expect(page).to_have_url(re.compile(r"[?&]id="))
    expect(page.locator("#puzzle-theme")).to_have_value("÷")
    expect(page.locator("#puzzle-band")).to_have_value("easy")
    seen = [shown_id(page)]
    for _ in range(3):
        page.click("#puzzle-next")
        expect(page).not_to_have_url(re.compile(rf"id={seen[-1]}\b"))
        seen.append(shown_id(page))
    for puzzle_id in seen:
        puzzle = mined.by_id(puzzle_id)
        assert puzzle is not None and puzzle.band == "easy" and "÷" in mined.themes(puzzle)
    assert serious(page) == []
    page.select_option("#puzzle-theme", "×")
    expect(page).to_have_url(re.compile(r"theme=%C3%97"))
    puzzle = mined.by_id(shown_id(page))
    assert puzzle is not None and "×" in mined.themes(puzzle)
    play_answer(page, puzzle)
    expect(page.locator("#puzzle-verdict")).to_have_class(re.compile("ok"))
    expect(page.locator("#puzzle-next")).to_be_focused()  # the Check button went away
    page.keyboard.press("Enter")
    expect(page).not_to_have_url(re.compile(rf"id={puzzle.id}\b"))
    expect(page.locator("#puzzle-verdict")).to_have_count(0)
    assert serious(page) == []
