"""The page's move list says why a computer exchanged or passed (issue 35): the turn's
``reason`` from the view beside its notation, read by screen readers like the rest; an
exchange says how many tokens in words (issue 33)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, expect

from support import oneoff
from support.browser import DESKTOP, create, serious, shot
from support.waiting import eventually
from webserver import Server


def test_the_move_list_shows_a_computers_reason(server: Server, browser: Browser) -> None:
    computers = [{"name": "C1", "bot": "greedy"}, {"name": "C2", "bot": "greedy"}]
    game_id = create(server, computers, seed=6)["id"]

    def seen() -> dict[str, Any]:
        found: dict[str, Any] = oneoff.get(f"{server.url}/api/games/{game_id}").json()
        return found

    assert eventually(lambda: bool(seen()["over"]), seconds=180)  # a bound, not a speed test
    reasons = [t["reason"] for t in seen()["summaries"] if "reason" in t]
    assert reasons  # this deal has the computers' exchanges
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(f"{server.url}/g/{game_id}")
    shown = page.locator("#moves .reason")
    expect(shown).to_have_count(len(reasons))
    expect(shown.first).to_have_text(reasons[0])
    turn = page.locator("#moves li").filter(has=page.locator(".reason")).first
    expect(turn).to_contain_text("exchange")
    # issue 33: an exchange reads as how many tokens, never "exchange 3" (the token 3)
    summaries = seen()["summaries"]
    exchanges = [t for t in summaries if re.fullmatch(r"exchange \d+", t["notation"])]
    assert exchanges  # this deal has them
    first = page.locator("#moves li").nth(summaries.index(exchanges[0]))
    count = int(exchanges[0]["notation"].split()[1])
    expect(first).to_contain_text(f"exchanged {count} token")
    expect(first).not_to_contain_text(exchanges[0]["notation"])
    turn.scroll_into_view_if_needed()
    shot(page, "computer-reasons")
    assert serious(page) == []
