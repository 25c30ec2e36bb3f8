"""The lobby page (issue 15, "Lobby") in a real browser (Playwright on Debian's chromium):
two browsers with cookies of their own meet there. Ann offers a game for three people;
Bob sees it appear and joins, and Ann's page says so in its live region; a third player
(over the API, a cookie of their own) takes the last seat; both browsers land on the
game at their own seats and each plays a turn. axe finds nothing serious on the lobby.
Fixtures come from ``test_browser``."""

from __future__ import annotations

import re

import httpx2
from playwright.sync_api import Browser, Page, expect

from support import oneoff
from support.browser import DESKTOP, PHONE, lobby, play_one_turn, serious, shot
from webserver import Server


def my_turn(page: Page) -> bool:
    return page.locator("#end").count() + page.locator("#pass").count() > 0


def test_two_browsers_meet_in_the_lobby_and_play(server: Server, browser: Browser) -> None:
    home = browser.new_context(viewport=DESKTOP).new_page()
    home.goto(server.url + "/")
    home.click("#lobby-link")  # the home page links to the lobby
    expect(home).to_have_url(re.compile(r"/lobby$"))
    expect(home.locator("#seek-form")).to_be_visible()
    home.context.close()

    ann = lobby(browser, server, "Ann")
    bob = lobby(browser, server, "Bob")
    ann.select_option("#seek-seats", "3")
    ann.click("#offer")  # no clock: clocks are for two players for now
    expect(ann.locator("#message")).to_contain_text("Your seek is open")
    row = bob.locator("#seek-rows tr", has_text="Ann")  # appears on Bob's page by itself
    expect(row).to_contain_text("Ann (1/3)")
    assert serious(bob) == []
    shot(bob, "lobby")
    phone = browser.new_context(viewport=PHONE, color_scheme="dark").new_page()
    phone.goto(server.url + "/lobby")
    expect(phone.locator("#seek-rows tr", has_text="Ann")).to_be_visible()
    assert serious(phone) == []
    shot(phone, "lobby-phone")
    phone.context.close()
    row.get_by_role("button", name=re.compile("^Join Ann's .* seek$")).click()
    expect(ann.locator("#live")).to_have_text("Bob joined your seek")
    expect(row).to_contain_text("Ann, Bob (2/3)")
    expect(ann.locator("#seek-rows tr", has_text="Ann")).to_contain_text("Ann, Bob (2/3)")

    seek_id = row.get_attribute("data-seek")
    cid = httpx2.Client(base_url=server.url)  # a third player, their own cookie
    cid.patch("/api/me", json={"name": "Cid"}).raise_for_status()
    scripted = {"X-Requested-With": "test"}  # a body-less change by cookie (issue 30)
    started = cid.post(f"/api/seeks/{seek_id}/join", headers=scripted).json()
    assert started["status"] == "started" and started["seat"] == 2

    game = f"/g/{started['game_id']}"
    for page in (ann, bob):  # each page opens the game at its own seat
        expect(page).to_have_url(re.compile(re.escape(game) + "$"))  # the cookie holds the seat
        expect(page.get_by_role("group", name="board")).to_be_visible()
    view = oneoff.get(f"{server.url}/api/games/{started['game_id']}").json()
    assert [s["name"] for s in view["seats"]] == ["Ann", "Bob", "Cid"]
    api = f"{server.url}/api/games/{started['game_id']}"
    pages = {0: ann, 1: bob}
    played: set[int] = set()
    while played != {0, 1}:  # the deal chooses who starts; each browser plays a turn
        to_move = oneoff.get(api).json()["to_move"]
        if to_move == 2:  # Cid, over the API: Cid's cookie holds the seat (no token)
            cid.post(f"{api}/actions", json={"action": "pass"}).raise_for_status()
            continue
        page, other = pages[to_move], pages[1 - to_move]
        expect(page.locator("#pass, #end").first).to_be_visible(timeout=10_000)
        assert not my_turn(other)
        play_one_turn(page)
        expect(page.locator("#pass, #end")).to_have_count(0)  # the turn is over
        played.add(to_move)
    moves = ann.get_by_role("list", name="Moves")
    expect(moves).to_contain_text("Ann:")
    expect(moves).to_contain_text("Bob:")
    cid.close()
