"""Issue 29's story in a real browser (Playwright on Debian's chromium), on the server's
real clock and default delays (claims after 60 s, first moves within 30 s: ruling O4):

Ann and Bob sign up and meet in the lobby (Ann's page reaches the board by itself after
Bob's join: pushed, not polled); neither clock runs until its seat's first move; both
keep their pages open 70 s (past the 50 s after which a process's own presence rows used
to go stale) with no "(disconnected)" and no claim offered; Bob closes his page on his
turn and Ann claims 60 s later. A second rated game nobody starts is aborted by the
first-move countdown, both ratings unchanged. A third is resigned from the page by a seat
held by the session cookie alone, and rematched from the page: rated and timed.

About four minutes of real time: marked slow."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from support import oneoff
from support.browser import DESKTOP, play_one_turn
from webserver import Server

pytestmark = [pytest.mark.slow, pytest.mark.realtime]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with the default claim and first-move delays."""
    running = Server(tmp_path_factory.mktemp("web") / "games.db").start()
    yield running
    running.stop()


def sign_up(browser: Browser, server: Server, name: str) -> Page:
    """A browser of its own, signed up as ``name``, on the lobby."""
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(server.url + "/lobby")
    expect(page.locator("#seek-form")).to_be_visible()
    page.click("#signup")
    page.fill("#account-name", name)
    page.fill("#account-password", "correct horse")
    page.click("#account-submit")
    expect(page.locator("#me-name")).to_have_text(name)
    return page


def meet(ann: Page, bob: Page, clock: str) -> tuple[str, float]:
    """Ann offers a rated game with ``clock``, Bob joins it; both pages reach the board.
    Returns the game's id and the seconds from Bob's join to Ann's page on the board."""
    ann.goto(ann.url.split("/g/")[0].split("/lobby")[0] + "/lobby")
    expect(ann.locator("#seek-form")).to_be_visible()
    ann.select_option("#seek-clock", clock)
    ann.check("#seek-rated")
    ann.click("#offer")
    expect(ann.locator("#message")).to_contain_text("Your seek is open")
    bob.goto(ann.url)  # the lobby
    row = bob.locator("#seek-rows tr", has_text="Ann")
    joined = time.monotonic()
    row.get_by_role("button", name=re.compile("^Join Ann's")).click()
    ann.wait_for_url(re.compile(r"/g/[^/?#]+$"), timeout=10_000)
    latency = time.monotonic() - joined
    game_id = ann.url.rsplit("/g/", 1)[1]
    expect(bob).to_have_url(re.compile(re.escape(f"/g/{game_id}") + "$"))
    for page in (ann, bob):
        expect(page.get_by_role("group", name="board")).to_be_visible()
    return game_id, latency


def api_view(server: Server, game_id: str) -> dict[str, Any]:
    answer = oneoff.get(f"{server.url}/api/games/{game_id}")
    assert answer.status_code == 200, answer.text
    view: dict[str, Any] = answer.json()
    return view


def seat_of(pages: dict[str, Page], view: dict[str, Any]) -> Page:
    return pages[view["players"][view["to_move"]]]


def ratings_of(server: Server, player_id: str) -> list[tuple[str, str, int]]:
    profile = oneoff.get(f"{server.url}/api/players/{player_id}").json()
    return [(r["game"], r["pace"], r["rating"]) for r in profile["ratings"]]


def test_the_story_of_a_rated_game_a_player_can_trust(server: Server, browser: Browser) -> None:
    ann = sign_up(browser, server, "Ann")
    bob = sign_up(browser, server, "Bob")
    pages = {"Ann": ann, "Bob": bob}
    ids = {
        name: (page.locator("#me-name").get_attribute("href") or "").rsplit("/", 1)[1]
        for name, page in pages.items()
    }

    # -- a rated 3+2 game: met in the lobby, pushed to the board --------------------------
    game_id, latency = meet(ann, bob, '{"minutes":3,"increment":2}')
    assert latency < 10  # (measured and reported by the closing note, not asserted tight)
    start = api_view(server, game_id)
    assert start["rated"] is True and start["running"] is None  # no clock runs yet (O4)
    for page in (ann, bob):
        expect(page.locator("#first-move")).to_contain_text("to make a first move")
        expect(page.locator("#clocks li.running")).to_have_count(0)
        expect(page.locator("#resign")).to_have_count(0)  # abort only, before first moves
        expect(page.locator("#abort")).to_be_visible()
    for _seat in range(2):  # each makes a first move: the clocks run from then
        mover = seat_of(pages, api_view(server, game_id))
        play_one_turn(mover)
        expect(mover.locator("#end")).to_have_count(0)
    started = api_view(server, game_id)
    assert started["running"] == started["to_move"] and started["first_move"] is None
    expect(ann.locator("#first-move")).to_have_count(0)
    expect(ann.locator("#resign")).to_be_visible()

    if started["players"][started["to_move"]] == "Ann":  # Bob is to leave on his own turn
        play_one_turn(ann)
        expect(ann.locator("#end")).to_have_count(0)

    # -- both pages open 70 s: connected all along, no claim offered ----------------------
    looked = 0
    until = time.monotonic() + 70
    while time.monotonic() < until:
        for page in (ann, bob):
            expect(page.locator("#scores .away")).to_have_count(0)
            expect(page.locator("#claim")).to_have_count(0)
        refused = ann.evaluate(
            """async id => { const r = await fetch('/api/games/' + id + '/claim', {
            method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{}'});
            return [r.status, (await r.json()).error]; }""",
            game_id,
        )
        assert refused == [409, "Bob is connected"]  # a claim against a connected player
        looked += 1
        ann.wait_for_timeout(5_000)
    assert looked >= 12
    shown = api_view(server, game_id)
    assert shown["presence"] is None or all(p["connected"] for p in shown["presence"])
    assert shown["over"] is False and shown["players"][shown["to_move"]] == "Bob"

    # -- Bob closes his page on his turn; Ann claims a minute later -----------------------
    bob_context = bob.context
    bob.close()
    mark = ann.locator("#scores tr", has_text="Bob").locator(".away")
    expect(mark).to_have_text("(disconnected)")
    claim = ann.locator("#claim")
    expect(claim).to_be_disabled()
    expect(claim).to_be_enabled(timeout=75_000)
    claim.click()
    expect(ann.get_by_text("Bob left the game").first).to_be_visible()
    over = api_view(server, game_id)
    assert over["over"] is True and over["winners"] == [over["players"].index("Ann")]
    bob = bob_context.new_page()
    pages["Bob"] = bob
    rated_after_claim = {name: ratings_of(server, ids[name]) for name in ids}
    assert all(rated_after_claim.values())  # the claim was rated

    # -- a second rated game nobody starts: aborted by the countdown, unrated -------------
    bob.goto(server.url + "/lobby")
    second, _latency = meet(ann, bob, '{"minutes":1,"increment":0}')
    expect(ann.locator("#first-move")).to_be_visible()
    expect(ann.get_by_text(re.compile(r"made no first move in time")).first).to_be_visible(
        timeout=45_000
    )
    aborted = api_view(server, second)
    assert aborted["over"] is True and aborted["winners"] == [] and aborted["rated"] is False
    assert {name: ratings_of(server, ids[name]) for name in ids} == rated_after_claim

    # -- a third: resigned from the page by a cookie seat, rematched rated and timed ------
    third, _latency = meet(ann, bob, '{"minutes":3,"increment":2}')
    fresh = api_view(server, third)
    first_mover = fresh["players"][fresh["to_move"]]
    for _seat in range(2):
        mover = seat_of(pages, api_view(server, third))
        play_one_turn(mover)
        expect(mover.locator("#end")).to_have_count(0)
    bob.click("#resign")
    bob.click("#yes")
    expect(bob.get_by_text("Bob resigned").first).to_be_visible()
    ended = api_view(server, third)
    assert ended["over"] is True and ended["winners"] == [ended["players"].index("Ann")]
    ann.click("#rematch")
    ann.wait_for_url(re.compile(r"/g/(?!" + re.escape(third) + r"$)[^/?#]+$"), timeout=10_000)
    again = ann.url.rsplit("/g/", 1)[1]
    rematch = api_view(server, again)
    assert rematch["rated"] is True and rematch["clock"] == {"minutes": 3, "increment": 2}
    # the order of play swapped: the seats are dealt around the deal's starter (C10)
    assert sorted(rematch["players"]) == ["Ann", "Bob"]
    assert rematch["players"][rematch["to_move"]] != first_mover
