"""The chat panel of an online game (issue 15, "Chat") in a real browser (Playwright on
Debian's chromium): two seats talk live, a spectator's message stays out of the players'
room during the game, markup shows as text, mute hides an author, and axe finds nothing
serious. Fixtures and helpers come from ``test_browser`` and ``test_page_defects``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from support import oneoff
from support.browser import DESKTOP, create, serious, shot
from webserver import Server


@pytest.fixture(scope="module")
def chat_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose chat limit lets three pages on one address talk freely."""
    running = Server(
        Path(tmp_path_factory.mktemp("chat")) / "games.db", env={"MATHABLE_RATE_CHAT": "200/minute"}
    ).start()
    yield running
    running.stop()


@pytest.fixture()
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Three people, each in a browser of their own (their own session cookie)."""
    made = [browser.new_context(viewport=DESKTOP) for _ in range(3)]
    yield made
    for context in made:
        context.close()


def seated(server: Server, contexts: list[BrowserContext]) -> tuple[dict[str, Any], list[Page]]:
    """An online game: Ann's and Bob's pages on their seats, and a spectator's page."""
    made = create(server, [{"name": "Ann"}, {"name": "Bob"}], seed=None)
    code = made["seats"][1]["invite"].split("invite=")[1]
    joined = oneoff.post(f"{server.url}/api/games/{made['id']}/join", json={"invite": code})
    tokens = [made["seats"][0]["token"], joined.json()["token"]]
    pages = [context.new_page() for context in contexts]
    for page, token in zip(pages, [*tokens, None], strict=True):
        page.goto(f"{server.url}/g/{made['id']}" + (f"?t={token}" if token else ""))
        expect(page.locator("#chat-text")).to_be_visible()
    return made, pages


def say(page: Page, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#chat-send")
    expect(page.locator("#chat-text")).to_have_value("")


def test_two_seats_chat_live_and_watchers_stay_out_until_the_end(
    chat_server: Server, contexts: list[BrowserContext]
) -> None:
    _, (ann, bob, watcher) = seated(chat_server, contexts)
    say(ann, "<b>x</b> [bold]good luck[/bold]")
    message = bob.locator("#chat-list li").first
    expect(message.locator(".chat-name")).to_have_text("Ann")
    expect(message.locator(".chat-text")).to_have_text("<b>x</b> [bold]good luck[/bold]")
    expect(message.locator(".chat-text b")).to_have_count(0)  # text, never markup
    say(bob, "you too")
    expect(ann.locator("#chat-list .chat-text")).to_have_text(
        ["<b>x</b> [bold]good luck[/bold]", "you too"]
    )
    say(watcher, "Ann should play I8")
    expect(watcher.locator("#chat-list .chat-text")).to_have_text(["Ann should play I8"])
    say(ann, "thanks")  # comes after the watcher's message: had it reached Bob, it is there
    expect(bob.locator("#chat-list .chat-text")).to_have_text(
        ["<b>x</b> [bold]good luck[/bold]", "you too", "thanks"]
    )
    expect(bob.locator("#live")).to_have_text("Ann says: thanks")  # announced politely
    expect(watcher.locator("#chat-list")).not_to_contain_text("good luck")
    expect(bob.locator("#chat")).not_to_contain_text("Ann should play I8")
    shot(bob, "chat")
    assert serious(bob) == []
    assert serious(watcher) == []


def test_mute_hides_an_author_on_this_device(
    chat_server: Server, contexts: list[BrowserContext]
) -> None:
    _, (ann, bob, _) = seated(chat_server, contexts)
    say(ann, "first")
    expect(bob.locator("#chat-list .chat-text")).to_have_text(["first"])
    expect(ann.locator("#chat-list .chat-mute")).to_have_count(0)  # not one's own
    bob.get_by_role("button", name="Mute Ann").click()
    expect(bob.locator("#chat-list li")).to_have_count(0)
    expect(bob.locator("#chat-muted")).to_contain_text("Muted: Ann")
    say(ann, "second")
    say(bob, "mine")
    expect(bob.locator("#chat-list .chat-text")).to_have_text(["mine"])
    expect(ann.locator("#chat-list .chat-text")).to_have_text(["first", "second", "mine"])
    assert serious(bob) == []
    bob.reload()  # kept in this browser
    expect(bob.locator("#chat-list .chat-text")).to_have_text(["mine"])
    bob.get_by_role("button", name="Unmute Ann").click()
    expect(bob.locator("#chat-list .chat-text")).to_have_text(["first", "second", "mine"])
    ann.get_by_role("button", name="Report Bob's message").click()
    ann.click("#yes")
    expect(ann.locator("#message")).to_contain_text("Reported")
