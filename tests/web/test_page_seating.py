"""Seats bound to the browser, no credential in the address (issue 15, "Players"), in a
real browser (Playwright on Debian's chromium): Ann's browser creates an online game and
opens it at ``/g/{id}``, where her cookie holds her seat; Bob's browser follows his
invitation, after which its address bar shows ``/g/{id}`` with no ``t=`` or ``invite=``
(nor does its history), and a reload with the page's stored tokens cleared keeps his
seat (the cookie holds it); a third browser at the same address is a spectator. Fixtures
come from ``test_browser``."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from support.browser import DESKTOP, page_fetch, serious
from webserver import Server


def fresh(browser: Browser, server: Server) -> Page:
    """A browser of its own (its own cookie), on the home page."""
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(server.url + "/")
    expect(page.locator("#me-name")).to_be_visible()  # the session cookie is set
    return page


def seated(page: Page) -> None:
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#rack button.tile")).to_have_count(7)
    expect(page.locator("#watching")).to_have_count(0)


def test_an_invitation_binds_the_seat_to_the_browser_and_leaves_no_token_in_the_address(
    server: Server, browser: Browser
) -> None:
    ann = fresh(browser, server)
    body = {"variant": "classic", "players": [{"name": "Ann"}, {"name": "Bob"}], "mode": "online"}
    made = page_fetch(ann, "/api/games", body)  # Ann's cookie
    game = f"/g/{made['id']}"
    ann.goto(server.url + game)  # no token anywhere: her cookie holds seat 0
    seated(ann)
    assert ann.evaluate("localStorage.length") == 0

    bob = fresh(browser, server)
    bob.goto(server.url + made["seats"][1]["invite"])
    expect(bob.locator("#joined")).to_contain_text("You play Bob")
    seated(bob)
    expect(bob).to_have_url(re.compile(re.escape(game) + "$"))
    assert "t=" not in bob.url and "invite=" not in bob.url
    bob.go_back()  # the history holds no invitation either: the entry was replaced
    assert "invite=" not in bob.url
    bob.goto(server.url + game)
    bob.evaluate("localStorage.clear()")  # the seat's token the page kept: gone
    bob.reload()
    seated(bob)  # the cookie alone holds the seat
    expect(bob.locator("#scores")).to_contain_text("Bob")

    eve = fresh(browser, server)
    eve.goto(server.url + game)
    expect(eve.locator("#board")).to_be_visible()
    expect(eve.locator("#watching")).to_be_visible()  # a spectator
    expect(eve.locator("#rack")).to_have_count(0)
    for page in (ann, bob, eve):
        page.context.close()


def test_the_lobby_lists_my_games_my_turn_first_each_at_its_plain_address(
    server: Server, browser: Browser
) -> None:
    ann, bob = fresh(browser, server), fresh(browser, server)
    body = {"variant": "classic", "players": [{"name": "Ann"}, {"name": "Bob"}], "mode": "online"}
    ids = []
    for _ in range(2):
        made = page_fetch(ann, "/api/games", body)
        invite = made["seats"][1]["invite"].rpartition("invite=")[2]
        page_fetch(bob, f"/api/games/{made['id']}/join", {"invite": invite})
        ids.append(made["id"])
    first, second = ids
    api = "/api/games/"
    if page_fetch(ann, api + first)["to_move"] != 0:  # Ann to move in the first
        page_fetch(bob, api + first + "/actions", {"action": "pass"})
    if page_fetch(ann, api + second)["to_move"] == 0:  # and not in the second
        page_fetch(ann, api + second + "/actions", {"action": "pass"})
    ann.goto(server.url + "/lobby")
    rows = ann.locator("#my-game-rows tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Your turn")  # the older game, first: my turn
    expect(rows.nth(1)).to_contain_text("waiting")
    assert rows.nth(0).get_attribute("data-game") == first
    assert serious(ann) == []
    rows.nth(0).get_by_role("link", name=re.compile("^Play ")).click()
    expect(ann).to_have_url(re.compile(re.escape(f"/g/{first}") + "$"))
    seated(ann)
    expect(ann.locator("#pass, #end").first).to_be_visible()  # Ann's turn, by her cookie
    for page in (ann, bob):
        page.context.close()
