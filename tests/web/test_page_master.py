"""The master offered on the home page's new game (issue 35, "a master level for
correspondence and analysis"), in a real browser: the seat's choice says its turns take
a few seconds, a game against it is made and the master answers Ann's turn on her page;
the lobby offers it for a game without a clock or by correspondence, never with a live
clock (as a tournament's form does: ``test_page_class_tournament``). axe finds nothing
serious. Fixtures come from ``test_browser``."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from support import oneoff
from support.browser import DESKTOP, lobby, play_one_turn, serious
from webserver import Server


def test_the_home_page_offers_the_master_and_it_answers_a_turn(
    server: Server, browser: Browser
) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(server.url + "/")
    master = page.locator("#kind1 option[value='master']")
    expect(master).to_have_text("computer: master, a few seconds a turn")
    expect(page.locator("#kind1 option[value='expert']")).to_have_text("computer: expert")
    page.select_option("#kind1", "master")
    assert serious(page) == []
    page.fill("#seed", "14")
    page.click("#create")
    expect(page).to_have_url(re.compile(r"/g/"))
    expect(page.locator("#notation")).to_be_visible()
    game_id = page.url.split("/g/")[1].split("?")[0]
    seats = oneoff.get(f"{server.url}/api/games/{game_id}").json()["seats"]
    assert [seat["bot"] for seat in seats] == [None, "master"]
    play_one_turn(page)  # Ann's turn (or none, if the master moves first), then the master's
    for _ in range(400):  # a bound on the master's thinking, not a speed test
        view = oneoff.get(f"{server.url}/api/games/{game_id}").json()
        if 1 in [turn["seat"] for turn in view["turns"]] and view["to_move"] == 0:
            break
        page.wait_for_timeout(150)
    assert 1 in [turn["seat"] for turn in view["turns"]], view["turns"]
    expect(page.locator(".cell.last.by-s1").first).to_be_visible()
    page.context.close()


def test_the_lobby_offers_the_master_without_a_clock_or_by_correspondence_only(
    server: Server, browser: Browser
) -> None:
    """No clock (the form's first) or 3 days a turn: the master is offered, saying its
    turns take seconds, and a seek made with it has a master's seat; a live clock takes
    it away, the choice falling to the expert, the strongest then offered."""
    page = lobby(browser, server, "Ann")
    levels = page.locator("#seek-level option")

    def offered() -> list[str | None]:
        return [levels.nth(i).get_attribute("value") for i in range(levels.count())]

    expect(levels.first).to_have_attribute("value", "gentle")
    expect(page.locator("#seek-level option[value='master']")).to_have_text(
        "master, a few seconds a turn"
    )
    page.select_option("#seek-clock", label="3 days a turn")
    page.select_option("#seek-level", "master")
    assert serious(page) == []
    page.select_option("#seek-clock", label="5 + 3")
    expect(page.locator("#seek-level option[value='master']")).to_have_count(0)
    assert "master" not in offered() and "expert" in offered()
    expect(page.locator("#seek-level")).to_have_value("expert")
    page.select_option("#seek-level", "strong")
    page.select_option("#seek-clock", label="3 days a turn")
    expect(page.locator("#seek-level")).to_have_value("strong")  # a choice still offered stays
    page.select_option("#seek-level", "master")
    page.select_option("#seek-seats", "3")
    page.select_option("#seek-computers", "1")
    page.click("#offer")
    expect(page.locator("#message")).to_contain_text("Your seek is open")
    row = page.locator("#seek-rows tr", has_text="Ann")
    expect(row).to_contain_text("master")
    page.context.close()
