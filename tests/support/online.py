"""A person's browser in online play: an account made in the header, a seek offered and
joined in the lobby, the game read and acted on with the browser's own session cookie."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

PASSWORD = "correct horse battery"


def sign_up(page: Page, name: str) -> str:
    """Make an account of this browser's guest in the header; its player id."""
    page.click("#signup")
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account-submit")
    expect(page.locator("#me-name")).to_have_text(name)
    return str(page.locator("#me-name").get_attribute("href")).rpartition("/")[2]


def offer(page: Page, clock: str) -> None:
    """Offer a rated two-player classic game with this clock (the option's text)."""
    page.select_option("#seek-variant", "classic")
    page.select_option("#seek-seats", "2")
    page.select_option("#seek-clock", label=clock)
    page.check("#seek-rated")
    page.click("#offer")
    expect(page.locator("#message")).to_contain_text("Your seek is open")


def join(page: Page, owner: str, clock: str) -> None:
    row = page.locator("#seek-rows tr", has_text=owner).filter(has_text=clock)
    expect(row).to_contain_text("rated")
    row.get_by_role("button", name=re.compile("^Join ")).click()


def game_id_of(page: Page) -> str:
    expect(page).to_have_url(re.compile(r"/g/[\w-]+"))
    found = re.search(r"/g/([\w-]+)", page.url)
    assert found is not None
    return found.group(1)


def seat_view(page: Page, game_id: str) -> dict[str, Any]:
    """The game as this browser's player sees it: seated by the session cookie."""
    answer = page.request.get(f"/api/games/{game_id}")
    assert answer.ok, answer.text()
    found: dict[str, Any] = answer.json()
    return found


def act(page: Page, game_id: str, action: str) -> dict[str, Any]:
    answer = page.request.post(f"/api/games/{game_id}/actions", data={"action": action})
    assert answer.ok, answer.text()
    found: dict[str, Any] = answer.json()
    return found
