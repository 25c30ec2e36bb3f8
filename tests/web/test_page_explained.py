"""Explained placements on the game page (issue 18), in a real browser: a piece of a
last turn tells its equations and points on hover (title) and to keyboard and screen
reader users (aria-describedby), from the view's explanations; axe-core stays clean."""

from __future__ import annotations

from playwright.sync_api import Page

from support.browser import both_have_played, serious
from webserver import Server


def test_a_last_turns_piece_explains_itself_on_hover_and_focus(server: Server, page: Page) -> None:
    _, view = both_have_played(server, page)
    said = {}
    for turn in view["turns"]:
        assert len(turn["explanations"]) == len(turn["placements"])
        for placed, text in zip(turn["placements"], turn["explanations"], strict=True):
            said[placed["cell"]] = text
    cells = [cell for seat in view["last_turns"] for cell in seat]
    assert cells
    for cell in cells:
        text = said[cell]
        assert f"{view['board'][cell]} = " in text  # the equation that made the piece
        target = page.locator(f'#board [data-cell="{cell}"]')
        assert target.get_attribute("title") == f"{cell}: {text}"
        described = target.get_attribute("aria-describedby")
        assert described and page.locator(f"#{described}").text_content() == text
        target.focus()
        assert page.evaluate("document.activeElement.getAttribute('aria-describedby')") == described
    assert [s["explanations"] for s in view["summaries"]] == [
        t["explanations"] for t in view["turns"]
    ]
    title = page.locator("#moves li").first.get_attribute("title") or ""
    assert title == "\n".join(view["summaries"][0]["explanations"])
    assert serious(page) == []
