"""The analysis panel's chance-of-winning graph (issue 35) in a real browser: an
accessible SVG beside the loss graph (title, words), the table kept, the reasons said."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from support import oneoff
from support.browser import shot
from webserver import Server


def _report(server: Server, game_id: str) -> dict[str, Any]:
    response = oneoff.get(f"{server.url}/api/games/{game_id}/analysis", timeout=60)
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_the_win_chance_graph_is_drawn_beside_the_loss_graph_with_its_words(
    server: Server, page: Page, finished: dict[str, Any]
) -> None:
    report = _report(server, finished["id"])
    assert report["version"] == 3
    page.goto(f"{server.url}/g/{finished['id']}?replay")
    expect(page.locator("#analysis-rows tr[data-turn]").first).to_be_visible(timeout=60000)
    graph = page.locator("#win-graph svg")
    expect(graph).to_have_attribute("role", "img")
    expect(graph).to_have_accessible_name(re.compile(r"^Chance of winning after each turn "))
    expect(page.locator("#win-graph circle")).to_have_count(len(report["turns"]))
    words = page.locator("#win-desc").text_content() or ""
    for player in report["players"]:
        mine = [t for t in report["turns"] if t["player"] == player["player"]]
        first, last = round(mine[0]["win_after"]), round(mine[-1]["win_after"])
        assert f"{player['player']}: from {first}% to {last}%" in words, words
    expect(page.locator("#win-graph figcaption")).to_contain_text(words)
    expect(page.locator("#loss-graph svg")).to_be_visible()  # beside it, not instead
    page.locator("#win-graph").scroll_into_view_if_needed()
    shot(page, "analysis-win-chance")
    row = report["turns"][0]
    chances = f"{round(row['win_before'])}→{round(row['win_after'])}"
    expect(page.locator(f'#analysis-rows tr[data-turn="{row["turn"]}"]')).to_contain_text(chances)
    said = [t for t in report["turns"] if t["why"]]
    if said:
        expect(page.locator(".analysis-why").first).to_contain_text(said[0]["why"])
