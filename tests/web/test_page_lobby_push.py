"""The lobby pushes (issue 29) in a real browser (Playwright on Debian's chromium), over
two server processes sharing one database: Ann's lobby page is on process A, Bob's on
process B. Bob sees Ann's seek appear by itself and joins it; Ann's page opens the game
because its socket told it, not because it polled: its fallback poll is set to an hour
(a test hook, ``window.mathableLobbyFallback``) and it asks nothing of ``/api/seeks``
between Bob's join and its arrival on the board. The time from the join's answer to Ann's
page being at ``/g/…`` is printed (not asserted: it depends on the machine)."""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Request, expect

from support.browser import DESKTOP
from webserver import Server

HOUR = 3_600_000
ROUNDS = 5


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    database = tmp_path_factory.mktemp("lobby-push") / "games.db"
    servers = [Server(database, env={"MATHABLE_WORKERS": "0"}) for _ in range(2)]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


def on_lobby(page: Page, server: Server) -> None:
    page.goto(server.url + "/lobby")
    expect(page.locator("#seek-form")).to_be_visible()


def test_the_owner_is_on_the_board_by_a_push_not_a_poll(
    two_servers: list[Server], browser: Browser
) -> None:
    a, b = two_servers
    ann = browser.new_context(viewport=DESKTOP).new_page()
    ann.add_init_script(f"window.mathableLobbyFallback = {HOUR};")  # no poll while up
    bob = browser.new_context(viewport=DESKTOP).new_page()
    asked: list[tuple[float, str]] = []  # Ann's page's reads of the seeks

    def seen(request: Request) -> None:
        if request.method == "GET" and "/api/seeks" in request.url:
            asked.append((time.monotonic(), request.url))

    ann.on("request", seen)
    latencies = []
    for _round in range(ROUNDS):
        on_lobby(ann, a)
        on_lobby(bob, b)
        ann.click("#offer")
        expect(ann.locator("#message")).to_contain_text("Your seek is open")
        row = bob.locator("#seek-rows tr").filter(has=bob.locator(".join-seek"))
        expect(row).to_have_count(1)  # pushed to Bob's page, on the other process
        with bob.expect_response(re.compile(r"/api/seeks/[^/]+/join$")) as answer:
            row.locator(".join-seek").click()
        assert answer.value.ok  # the join's answer: the game started
        since = time.monotonic()
        on_board = re.compile(r"/g/[\w-]+$")
        ann.wait_for_url(on_board, wait_until="commit", timeout=10_000)
        latencies.append(time.monotonic() - since)
        polled = [url for at, url in asked if at >= since]
        assert polled == []  # before: Ann's page found the game by polling /api/seeks/{id}
        expect(bob).to_have_url(on_board)
        assert ann.url.rpartition("/g/")[2] == bob.url.rpartition("/g/")[2]
        expect(ann.get_by_role("group", name="board")).to_be_visible()
        asked.clear()
    ms = sorted(round(1000 * s) for s in latencies)
    print(f"\njoin to Ann's board, ms: {ms}, median {statistics.median(ms)}")
    ann.context.close()
    bob.context.close()


def test_without_its_socket_the_lobby_polls(two_servers: list[Server], browser: Browser) -> None:
    """A lost connection (here: every lobby socket closed at once, as a proxy without
    WebSockets would) falls back to polling: the seeks still appear and the owner still
    reaches the board."""
    a, b = two_servers
    ann = browser.new_context(viewport=DESKTOP)
    ann.route_web_socket(re.compile(r"/api/lobby/ws$"), lambda socket: socket.close())
    ann.add_init_script("window.mathableLobbyFallback = 300;")
    page = ann.new_page()
    bob = browser.new_context(viewport=DESKTOP).new_page()
    on_lobby(bob, b)
    on_lobby(page, a)
    bob.click("#offer")
    expect(bob.locator("#message")).to_contain_text("Your seek is open")
    row = page.locator("#seek-rows tr").filter(has=page.locator(".join-seek"))
    expect(row).to_have_count(1)  # polled: GET /api/seeks
    row.locator(".join-seek").click()
    on_board = re.compile(r"/g/[\w-]+$")
    expect(page).to_have_url(on_board)
    expect(bob).to_have_url(on_board)  # Bob's socket, on the other process
    ann.close()
    bob.context.close()
