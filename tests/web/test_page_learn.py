"""The lessons' page (issue 32): picking a number lights the cells it may go on, as in the
game (the step's ``legal``, the engine's), named "legal" for screen readers; the scores
follow the steps; a hint asked for is styled as a hint, not as an error."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from support import oneoff
from support.browser import serious
from webserver import Server


def test_a_picked_number_lights_its_cells_and_the_scores_follow(
    server: Server, browser: Browser
) -> None:
    legal = oneoff.get(f"{server.url}/api/lessons/classic").json()["steps"][0]["legal"]
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    try:
        page.goto(server.url + "/learn")
        expect(page.locator("#learn-progress")).to_contain_text("Step 1 of")
        assert page.locator("#board .legal").count() == 0  # nothing picked, nothing lit
        page.locator("#rack button.tile", has_text=re.compile(r"^12$")).click()
        lit = page.locator("#board .legal")
        expect(lit).to_have_count(len(legal["12"]))
        assert sorted(lit.evaluate_all("cells => cells.map(c => c.dataset.cell)")) == sorted(
            legal["12"]
        )
        expect(page.locator('[data-cell="I8"]')).to_have_attribute("aria-label", "I8, empty, legal")
        assert serious(page) == []
        page.locator('[data-cell="I8"]').click()
        expect(page.locator("#message")).to_contain_text("12 points")
        expect(page.locator("#learn-scores")).to_have_text("Ann 12 · Bob 0")
        page.click("#learn-next")
        expect(page.locator("#learn-scores")).to_have_text("▶ Ann 12 · Bob 0")
        page.click("#learn-hint")
        message = page.locator("#message")
        expect(message).to_contain_text("H6=8")
        expect(message).to_have_class("hint")  # asked for: not an error
        page.fill("#learn-move", "I9=8")
        page.press("#learn-move", "Enter")
        expect(message).to_have_class("error")  # a refusal still is one
        assert serious(page) == []
    finally:
        page.close()
