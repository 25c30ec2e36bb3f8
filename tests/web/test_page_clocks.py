"""The clocks and the resign button of an online game (issue 15, "Clocks" and "Game flow")
in a real browser (Playwright on Debian's chromium): both seats of a 1+0 game see the
clocks under the scores, the running one ticks down, and Resign (confirmed) ends the game
for both with its reason."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from support import oneoff
from support.browser import DESKTOP, create, first_moves, serious, shot
from webserver import Server


@pytest.fixture()
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Two people, each in a browser of their own."""
    made = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    yield made
    for context in made:
        context.close()


def seated(
    server: Server, contexts: list[BrowserContext]
) -> tuple[dict[str, Any], list[Page], list[str]]:
    """A 1+0 online game: Ann's and Bob's pages on their seats, and their tokens."""
    made = create(server, [{"name": "Ann"}, {"name": "Bob"}], seed=None, clock={"minutes": 1})
    code = made["seats"][1]["invite"].split("invite=")[1]
    joined = oneoff.post(f"{server.url}/api/games/{made['id']}/join", json={"invite": code})
    tokens = [made["seats"][0]["token"], joined.json()["token"]]
    pages = [context.new_page() for context in contexts]
    for page, token in zip(pages, tokens, strict=True):
        page.goto(f"{server.url}/g/{made['id']}?t={token}")
        expect(page.locator("#clocks")).to_be_visible()
    return made, pages, tokens


def test_the_clock_ticks_and_resign_ends_the_game_for_both(
    server: Server, contexts: list[BrowserContext]
) -> None:
    made, (ann, bob), tokens = seated(server, contexts)
    running = ann.locator("#clocks li.running")
    expect(running).to_have_count(0)  # O4: no clock runs before its seat's first move
    expect(ann.locator("#first-move")).to_have_text(
        re.compile(r" to make a first move: 0:[0-3]\d left, else the game is aborted")
    )
    expect(bob.locator("#abort")).to_be_visible()  # nobody has moved
    expect(ann.locator("#resign")).to_have_count(0)  # abort only, before the first moves
    first_moves(server, made["id"], tokens)
    expect(ann.locator("#first-move")).to_have_count(0)
    expect(running).to_have_count(1)
    expect(running).to_have_text(re.compile(r": 0:5\d left \(running\)$"))  # ticking down
    first = running.inner_text()
    expect(running).not_to_have_text(first, timeout=3000)
    expect(ann.locator("#clocks")).to_have_attribute("aria-label", re.compile("Clocks, 1\\+0"))
    expect(bob.locator("#abort")).to_have_count(0)  # each has moved: resign, not abort
    assert serious(ann) == []
    shot(ann, "clocks")
    ann.click("#resign")
    ann.click("#yes")  # the confirmation
    for page in (ann, bob):
        expect(page.get_by_text("Ann resigned").first).to_be_visible()
        expect(page.locator("#resign")).to_have_count(0)
        expect(page.locator("#clocks li.running")).to_have_count(0)
