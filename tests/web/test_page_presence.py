"""A disconnected player shown as such, and claimed a loss (issue 15, "Game flow") in a
real browser (Playwright on Debian's chromium): when the page of the player to move
closes, the other's page marks them "(disconnected)" in words, says so in the live
region, and offers "Claim the win" after a countdown (``MATHABLE_CLAIM_AFTER``, 2 s
here); the claim ends the game for its reason. Their page back: the mark goes."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from support import oneoff
from support.browser import DESKTOP, create, first_moves, serious, shot
from webserver import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose players may claim after 2 seconds away."""
    running = Server(
        tmp_path_factory.mktemp("web") / "games.db", env={"MATHABLE_CLAIM_AFTER": "2"}
    ).start()
    yield running
    running.stop()


@pytest.fixture()
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    yield made
    for context in made:
        context.close()


def test_a_player_whose_page_closes_is_shown_away_and_claimed_a_loss(
    server: Server, contexts: list[BrowserContext]
) -> None:
    made = create(server, [{"name": "Ann"}, {"name": "Bob"}], seed=None, clock={"minutes": 5})
    code = made["seats"][1]["invite"].split("invite=")[1]
    joined = oneoff.post(f"{server.url}/api/games/{made['id']}/join", json={"invite": code})
    tokens = [made["seats"][0]["token"], joined.json()["token"]]
    first_moves(server, made["id"], tokens)  # O4: claims once each has moved
    mover = oneoff.get(f"{server.url}/api/games/{made['id']}").json()["to_move"]
    names = ["Ann", "Bob"]
    away, stays = names[mover], names[1 - mover]
    pages = [contexts[seat].new_page() for seat in (mover, 1 - mover)]
    for page, seat in zip(pages, (mover, 1 - mover), strict=True):
        page.goto(f"{server.url}/g/{made['id']}?t={tokens[seat]}")
        expect(page.locator("#clocks")).to_be_visible()
    leaving, staying = pages
    expect(staying.locator("#scores .away")).to_have_count(0)  # both there
    expect(staying.locator("#claim")).to_have_count(0)

    leaving.close()  # the player to move leaves
    mark = staying.locator("#scores tr", has_text=away).locator(".away")
    expect(mark).to_have_text("(disconnected)")
    expect(staying.locator("#live")).to_have_text(f"{away} disconnected.")
    claim = staying.locator("#claim")
    expect(claim).to_have_text(re.compile(rf"^Claim the win in \d s \({away} is away\)$"))
    expect(claim).to_be_disabled()
    expect(claim).to_be_enabled(timeout=5000)  # the countdown ran out
    expect(claim).to_have_text(f"Claim the win ({away} left)")
    assert serious(staying) == []
    shot(staying, "claim")

    back = contexts[mover].new_page()  # they come back: no longer away, no claim
    back.goto(f"{server.url}/g/{made['id']}?t={tokens[mover]}")
    expect(mark).to_have_count(0)
    expect(staying.locator("#live")).to_have_text(f"{away} is back.")
    expect(claim).to_have_count(0)
    back.close()

    expect(claim).to_be_enabled(timeout=6000)
    claim.click()
    expect(staying.get_by_text(f"{away} left the game").first).to_be_visible()
    expect(staying.locator("#claim")).to_have_count(0)
    assert stays in staying.locator("#scores").inner_text()
