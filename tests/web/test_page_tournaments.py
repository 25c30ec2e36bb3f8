"""The tournaments' pages (issue 38) in a real browser: a 3-round Swiss for five accounts
created from /tournaments, joined (the organizer on the page, four others over the API),
started from the page, each round's games played through the API (the organizer's with
her page's own session cookie, after following the page's "your game is ready" link),
until the page shows the final standings; the name printed as typed, never markup; axe
finds nothing serious at a phone's size, and nothing scrolls sideways. Screenshots:
``web-tournament-desktop.png`` and ``web-tournament-phone.png``
(MATHABLE_DOCS_SCREENSHOTS=1)."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, Page, expect

from support.browser import DESKTOP, PHONE, serious, shot
from support.online import PASSWORD, sign_up
from support.waiting import eventually
from webserver import Server

NAME = "Club <b>Swiss</b> & co"


def account(server: Server, name: str) -> httpx2.Client:
    """A person over the API with a session cookie of their own, made an account."""
    client = httpx2.Client(base_url=server.url, headers={"X-Requested-With": "test"})
    assert client.patch("/api/me", json={"name": name}).status_code == 200
    made = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    return client


def cookie_client(server: Server, page: Page) -> httpx2.Client:
    """The page's player over the API (the browser's own session cookie)."""
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    return httpx2.Client(base_url=server.url, headers={"X-Requested-With": "test"}, cookies=cookies)


def finish(first: httpx2.Client, game_id: str, second: httpx2.Client) -> None:
    """Each seat passes once in the order of play (both have moved: O4), then the
    second player resigns: the first wins."""
    game = f"/api/games/{game_id}"

    def seat_of(client: httpx2.Client) -> int:
        """The client's seat, from its view once the game answers it (a bound); else
        what the server answered last, to say why."""
        deadline = time.monotonic() + 30
        while True:
            answer = client.get(game)
            view = answer.json()
            if "seat" in view or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert view.get("seat") is not None, f"{game}: {answer.status_code} {answer.text}"
        return int(view["seat"])

    by_seat = {seat_of(c): c for c in (first, second)}
    mover = int(first.get(game).json()["to_move"])
    for seat in (mover, 1 - mover):
        answer = by_seat[seat].post(game + "/actions", json={"action": "pass"})
        assert answer.status_code == 200, answer.text
    assert second.post(game + "/resign", json={}).status_code == 200


def round_with_games(client: httpx2.Client, tid: str, number: int) -> dict[str, Any]:
    """The tournament once round ``number`` is paired and each of its boards has its game
    (a bound): a board is paired first and its game made after (``"game": null`` until
    then, made by whichever process claims it), as a person waits for "your game is
    ready"."""
    url = f"/api/tournaments/{tid}"
    state: dict[str, Any] = {}

    def linked() -> bool:
        nonlocal state
        state = client.get(url).json()
        return state.get("round") == number and all(
            p["game"] is not None for p in state["rounds"][-1]["pairings"]
        )

    assert eventually(linked, 30), state
    return state


@pytest.mark.slow
def test_a_swiss_from_the_page_to_its_final_standings(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(server.url + "/tournaments")
    ann = sign_up(page, "Tessa")
    page.goto(server.url + "/tournaments")
    page.fill("#tourn-name", NAME)
    page.select_option("#tourn-system", "swiss")
    page.fill("#tourn-rounds", "3")
    page.click("#tourn-submit")
    expect(page.locator("#tourn-title")).to_have_text(NAME)  # as typed, not markup
    found = re.search(r"/t/([\w-]+)$", page.url)
    assert found, page.url
    tid = found[1]
    page.click("#tourn-join")
    expect(page.locator("#tourn-withdraw")).to_be_visible()
    people: dict[str, httpx2.Client] = {ann: cookie_client(server, page)}
    for name in ("Ulla", "Vic", "Wes", "Xan"):
        client = account(server, name)
        joined = client.post(f"/api/tournaments/{tid}/join")
        assert joined.status_code == 200, joined.text
        people[joined.json()["me"]["player"]] = client
    page.reload()
    expect(page.locator("#tourn-standings tbody tr")).to_have_count(5)
    page.click("#tourn-start")
    expect(page.locator("#tourn-status")).to_contain_text("round 1")
    pictured = False
    for number in (1, 2, 3):
        state = round_with_games(people[ann], tid, number)
        pairings = state["rounds"][-1]["pairings"]
        if any(ann in p["players"] for p in pairings):
            page.reload()
            expect(page.locator("#tourn-ready")).to_contain_text("Your game is ready")
            if not pictured:  # her first game (she may have the bye in round 1)
                shot(page, "tournament-desktop")
                pictured = True
            page.click("#tourn-ready a")
            expect(page).to_have_url(re.compile(r"/g/[\w-]+$"))
            page.go_back()
        for pairing in pairings:
            first, second = (people[p] for p in pairing["players"])
            finish(first, pairing["game"], second)
    page.reload()
    assert pictured  # five players, three rounds: one bye each at most
    expect(page.locator("#tourn-standings caption")).to_have_text("Final standings")
    expect(page.locator("#tourn-status")).to_contain_text("Finished")
    expect(page.locator("#tourn-crosstable tbody tr")).to_have_count(5)
    assert serious(page) == []

    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{server.url}/t/{tid}")
    expect(phone.locator("#tourn-standings caption")).to_have_text("Final standings")
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    shot(phone, "tournament-phone")
    assert serious(phone) == []
    phone.goto(server.url + "/tournaments")
    expect(phone.locator(".tournaments")).to_contain_text(NAME)
    assert serious(phone) == []
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    phone.context.close()
    context.close()
    for client in people.values():
        client.close()
