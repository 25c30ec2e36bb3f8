"""Accessibility of the page (issue 14, WCAG 2.2 AA) in a real browser: named, focusable
board cells, a polite live region for moves and refusals, dialogs (role, aria-modal,
focus kept inside, Esc), a labelled notation box, and axe-core (``axe-playwright-python``)
finding no serious or critical violation on the home, game, game-over, analysis and
replay pages, desktop and phone."""

from __future__ import annotations

import re
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, Page, expect

from support import oneoff
from support.browser import DESKTOP, PHONE, create, serious
from support.browser import against_the_computer as ann_to_move
from webserver import Server


def test_board_cells_are_focusable_buttons_with_names(server: Server, page: Page) -> None:
    ann_to_move(server, page)
    variants = oneoff.get(f"{server.url}/api/variants").json()
    targets = next(v for v in variants if v["name"] == "classic")["capabilities"]["targets"]
    expect(page.get_by_role("button", name="H8, 4", exact=True)).to_have_count(1)
    special = next(t for t in targets if t["label"] == "x")  # a times square, empty
    expect(
        page.get_by_role("button", name=f"{special['name']}, empty, times square", exact=True)
    ).to_have_count(1)
    plain = next(t for t in targets if t["kind"] == "plain")
    expect(page.get_by_role("button", name=f"{plain['name']}, empty", exact=True)).to_have_count(1)
    # one cell in the tab order; arrow keys move the focus over the board
    expect(page.locator('#board [tabindex="0"]')).to_have_count(1)
    page.locator('#board [tabindex="0"]').focus()
    start = page.evaluate("document.activeElement.dataset.index")
    page.keyboard.press("ArrowRight")
    moved = page.evaluate("document.activeElement.dataset.index")
    assert moved is not None and int(moved) == int(start) + 1


def test_moves_and_refusals_reach_the_live_region(server: Server, page: Page) -> None:
    made = ann_to_move(server, page)
    live = page.locator("#live")
    expect(live).to_have_attribute("aria-live", "polite")
    value = page.locator("#rack button.tile").first.inner_text()
    page.fill("#notation", f"A1={value}")
    page.press("#notation", "Enter")
    expect(live).to_have_text(re.compile(r"rule C"))  # the refusal, announced
    page.evaluate(
        "() => { window.said = []; new MutationObserver(() => window.said.push("
        "document.getElementById('live').textContent)).observe("
        "document.getElementById('live'),"
        " { childList: true, characterData: true, subtree: true }); }"
    )
    page.fill("#notation", "pass" if page.locator("#pass").count() else "end")
    page.press("#notation", "Enter")
    said: list[str] = []
    for _ in range(100):  # polled from here: the page's CSP forbids wait_for_function's eval
        said = page.evaluate("window.said")
        if any(t.startswith("Bot: ") for t in said):
            break
        page.wait_for_timeout(150)
    assert any(t.startswith("Ann: ") for t in said), said  # Ann's move, then the computer's
    assert oneoff.get(f"{server.url}/api/games/{made['id']}").json()["summaries"]


def test_the_notation_box_has_a_label_and_an_example_of_its_game(
    server: Server, page: Page
) -> None:
    ann_to_move(server, page, variant="quattro")
    box = page.get_by_label("Type a move")
    expect(box).to_be_visible()
    piles = [
        t["name"]
        for v in oneoff.get(f"{server.url}/api/variants").json()
        if v["name"] == "quattro"
        for t in v["capabilities"]["targets"]
    ]
    example = box.get_attribute("placeholder") or ""
    assert re.fullmatch(rf"e\.g\. ({'|'.join(piles)})=\d+", example), example


def test_a_dialog_keeps_the_focus_and_closes_with_escape(server: Server, page: Page) -> None:
    made = create(server, [{"name": "A", "bot": "strong"}, {"name": "B", "bot": "greedy"}], seed=3)
    page.goto(f"{server.url}/g/{made['id']}")
    expect(page.locator("#analysis")).to_be_visible(timeout=60000)
    page.click("#analysis")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("aria-modal", "true")
    expect(dialog).to_have_accessible_name("Analysis")
    for _ in range(6):
        page.keyboard.press("Tab")
        assert page.evaluate(
            "document.getElementById('modal-box').contains(document.activeElement)"
        )
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.getElementById('modal-box').contains(document.activeElement)")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.locator("#analysis")).to_be_focused()  # the focus comes back


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_no_serious_violation(
    server: Server, browser: Browser, size: Any, scheme: Literal["light", "dark"]
) -> None:
    """Home, game, game over, analysis and replay: light and dark, desktop and phone."""
    context = browser.new_context(viewport=size, color_scheme=scheme)
    page = context.new_page()
    page.goto(server.url + "/")
    expect(page.locator("#create")).to_be_visible()
    found = {"home": serious(page)}
    ann_to_move(server, page)
    page.locator("#rack button.tile").first.click()  # legal cells lit
    found["game"] = serious(page)
    over = create(server, [{"name": "A", "bot": "strong"}, {"name": "B", "bot": "greedy"}], seed=3)
    page.goto(f"{server.url}/g/{over['id']}")
    expect(page.locator("#summary")).to_be_visible(timeout=60000)
    found["game over"] = serious(page)
    page.click("#analysis")
    expect(page.get_by_role("dialog")).to_contain_text("accuracy", timeout=60000)
    found["analysis"] = serious(page)
    page.goto(f"{server.url}/g/{over['id']}?replay")
    expect(page.locator("#step")).to_contain_text("action 0")
    found["replay"] = serious(page)
    context.close()
    assert found == {"home": [], "game": [], "game over": [], "analysis": [], "replay": []}
