"""A seat that leaves a game of three (local ruling L1) in a real browser (Playwright on
Debian's chromium): the others' scores panel says so, from the view's ``left`` alone, and
the game goes on with its clocks."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from support import oneoff
from support.browser import DESKTOP, create, first_moves, serious
from webserver import Server


def test_a_resigned_seat_shows_as_such_and_play_goes_on(server: Server, browser: Browser) -> None:
    players = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]
    made = create(server, players, seed=None, clock={"minutes": 5, "increment": 3})
    tokens = [made["seats"][0]["token"]]
    for seat in made["seats"][1:]:
        code = seat["invite"].split("invite=")[1]
        joined = oneoff.post(f"{server.url}/api/games/{made['id']}/join", json={"invite": code})
        tokens.append(joined.json()["token"])
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/g/{made['id']}?t={tokens[0]}")
        expect(page.locator("#clocks li")).to_have_count(3)
        first_moves(server, made["id"], tokens)  # O4: a seat resigns once each has moved
        resigned = oneoff.post(
            f"{server.url}/api/games/{made['id']}/resign", json={"token": tokens[2]}
        )
        assert resigned.status_code == 200, resigned.text
        gone = page.locator('#scores .gone[data-seat="2"]')
        expect(gone).to_have_text("(resigned)")
        expect(page.locator("#scores .gone")).to_have_count(1)
        expect(page.locator("#clocks li.running")).to_have_count(1)  # the game goes on
        assert resigned.json()["over"] is False
        assert serious(page) == []
    finally:
        context.close()
