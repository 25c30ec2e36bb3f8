"""Each player's last turn marked apart on the game page (issue 14, item 2), in a real
browser: a marker class per player (the score graph's series), the cell's name saying
whose last turn it is, a legend naming each player's marker, axe-core clean in light and
dark; and the replay links ("Replay so far" for a seated player, "Replay and analysis"
once over)."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, Page, expect

from support.browser import DESKTOP, both_have_played, serious
from webserver import Server

STYLE = (
    "s => { const t = getComputedStyle(s.querySelector('.tok'));"
    " return [t.backgroundColor, t.borderTopColor, t.borderTopStyle]; }"
)


def test_each_players_last_turn_has_its_marker_and_name(server: Server, page: Page) -> None:
    _, view = both_have_played(server, page)
    styles = []
    for seat, player in enumerate(view["players"]):
        for cell in view["last_turns"][seat]:
            target = page.locator(f'#board [data-cell="{cell}"]')
            assert f"by-s{seat}" in (target.get_attribute("class") or "").split()
            label = target.get_attribute("aria-label") or ""
            assert label.startswith(f"{cell}, ") and label.endswith(f"{player}'s last turn")
        styles.append(page.locator(f".cell.last.by-s{seat}").first.evaluate(STYLE))
    assert styles[0][0] != styles[1][0] and styles[0][1] != styles[1][1], "colours differ"
    assert styles[0][2] != styles[1][2], "and not by colour alone"
    expect(page.locator(".cell.last.by-s0.by-s1")).to_have_count(0)
    legend = page.locator("#last-legend")
    expect(legend).to_contain_text("Last turns")
    for seat, player in enumerate(view["players"]):
        item = legend.locator(f'[data-seat="{seat}"]')
        expect(item).to_have_text(player)
        expect(item.locator(f".swatch.by-s{seat}")).to_have_count(1)


def test_this_turns_placement_stays_current_not_a_last_turn(server: Server, page: Page) -> None:
    both_have_played(server, page)
    marked = page.locator(".cell.last").count()
    for tile in range(page.locator("#rack button.tile").count()):
        page.locator("#rack button.tile").nth(tile).click()
        if page.locator(".cell.legal").count():
            page.locator(".cell.legal").first.click()
            if page.locator("#modal:not([hidden]) #no").count():
                page.click("#no")
            break
        page.locator("#rack button.tile").nth(tile).click()
    current = page.locator(".cell.current")
    expect(current).to_have_count(1)
    expect(current).not_to_have_class("last")
    assert "placed this turn" in (current.get_attribute("aria-label") or "")
    assert "last turn" not in (current.get_attribute("aria-label") or "")
    expect(page.locator(".cell.last")).to_have_count(marked)  # the last turns stay


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation_with_last_turns(
    server: Server, browser: Browser, scheme: Literal["light", "dark"]
) -> None:
    context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
    page = context.new_page()
    both_have_played(server, page)
    expect(page.locator("#last-legend")).to_be_visible()
    found = serious(page)
    context.close()
    assert found == []


def test_a_seated_player_may_replay_the_game_so_far(server: Server, page: Page) -> None:
    made, view = both_have_played(server, page)
    token = made["seats"][0]["token"]
    link = page.locator("#replay-so-far-link")
    expect(link).to_have_text("Replay so far")
    assert link.get_attribute("href") == f"/g/{made['id']}?replay&t={token}"
    link.click()
    expect(page.locator("#step")).to_contain_text("action 0")
    page.keyboard.press("End")
    expect(page.locator("#step")).to_contain_text(f"action {view['seq']} of {view['seq']}")
    page.goto(f"{server.url}/g/{made['id']}")  # a spectator: no replay before the end
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#replay-so-far-link")).to_have_count(0)


def test_game_over_links_the_replay_and_analysis(
    server: Server, page: Page, finished: dict[str, Any]
) -> None:
    page.goto(f"{server.url}/g/{finished['id']}")
    link = page.locator("#replay-link")
    expect(link).to_have_text("Replay and analysis")
    expect(page.locator("#replay-so-far-link")).to_have_count(0)
