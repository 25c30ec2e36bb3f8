"""The page in a real browser: Playwright driving Debian's chromium (installed by the
Makefile). Two contexts play online, a pass-and-play game, a replay, an illegal attempt.
Screenshots go to artifacts/screenshots/ (and to docs/ with MATHABLE_DOCS_SCREENSHOTS=1)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from support import oneoff
from support.browser import (
    ROOT,
    create,
    play_one_turn,
    shot,
)
from webserver import Server


def test_two_browsers_play_online_and_see_each_others_moves(
    server: Server, browser: Browser
) -> None:
    made = create(server, [{"name": "Ann"}, {"name": "Bob"}], seed=None)
    ann, bob = made["seats"]
    assert ann["token"] and bob["token"] is None and bob["invite"]  # Bob gets an invitation
    pages: list[Page] = []
    for link in [f"?t={ann['token']}", bob["invite"].split(made["id"])[1]]:
        context = browser.new_context(viewport={"width": 1100, "height": 850})
        page = context.new_page()
        if pages:
            expect(pages[0].locator("#unclaimed")).to_contain_text("Bob")
        page.goto(f"{server.url}/g/{made['id']}{link}")
        page.wait_for_selector("#board")
        pages.append(page)
    expect(pages[1].locator("#joined")).to_contain_text("You play Bob")
    assert "invite=" not in pages[1].url  # the invitation is spent: the seat's own link
    expect(pages[0].locator("#unclaimed")).to_have_count(0)
    for page in pages:  # O2: every seat sees that hints are off, and has no hint button
        expect(page.locator("#house-rules")).to_contain_text("none")
        expect(page.locator("#hint")).to_have_count(0)
    for turn in range(4):
        state = oneoff.get(f"{server.url}/api/games/{made['id']}").json()
        mover, other = pages[state["to_move"]], pages[1 - state["to_move"]]
        expect(mover.locator("#rack button.tile").first).to_be_enabled()
        move = play_one_turn(mover)
        if move:
            cell, value = move.split("=")
            expect(other.locator(f'.cell[data-cell="{cell}"] .tok')).to_have_text(value)
        expect(other.locator("#moves li")).to_have_count(turn + 1)
    shot(pages[0], "online-ann")
    shot(pages[1], "online-bob")
    # Bob's page never shows Ann's rack
    ann_rack = oneoff.get(
        f"{server.url}/api/games/{made['id']}?token={made['seats'][0]['token']}"
    ).json()["rack"]
    bob_tiles = pages[1].locator("#rack button.tile").all_inner_texts()
    assert bob_tiles != [str(v) for v in ann_rack]


def test_a_stop_proposal_is_answered_with_accept_or_decline(
    server: Server, browser: Browser
) -> None:
    from support.api import junior_with_an_empty_pot

    # J4: a stop is proposed once the pot is empty: a game uploaded at that point
    uploaded = oneoff.post(f"{server.url}/api/records", json=junior_with_an_empty_pot())
    assert uploaded.status_code == 201, uploaded.text
    made = uploaded.json()
    first = oneoff.get(f"{server.url}/api/games/{made['id']}").json()["to_move"]
    pages = []
    for seat in (first, 1 - first):
        page = browser.new_context(viewport={"width": 1100, "height": 850}).new_page()
        page.goto(f"{server.url}/g/{made['id']}?t={made['seats'][seat]['token']}")
        page.wait_for_selector("#board")
        pages.append(page)
    pages[0].click("#stop")
    expect(pages[1].locator("#accept")).to_have_text("Accept")
    expect(pages[1].locator("#status")).not_to_be_empty()  # the proposal, in words
    shot(pages[1], "stop-proposal")
    pages[1].click("#decline")
    expect(pages[1].locator("#accept")).to_have_count(0)
    assert not oneoff.get(f"{server.url}/api/games/{made['id']}").json()["over"]


def test_pass_and_play_on_one_screen_with_a_cover(server: Server, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 850})
    page.goto(server.url + "/")
    page.select_option("#kind1", "")  # Bob is a person too
    page.fill("#seed", "9")
    page.click("#create")
    expect(page.locator("#uncover")).to_be_visible()
    first = page.locator(".cover h2").inner_text()
    shot(page, "cover")
    page.click("#uncover")
    page.wait_for_selector("#board")
    play_one_turn(page)
    page.click("#pass-screen")  # the turn's result first, then the screen is passed
    expect(page.locator("#uncover")).to_be_visible()
    assert page.locator(".cover h2").inner_text() != first  # the other person now
    page.click("#uncover")
    expect(page.locator("#moves li")).to_have_count(1)


def test_an_illegal_attempt_is_refused_with_the_rule(server: Server, browser: Browser) -> None:
    made = create(server, [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}], seed=14)
    page = browser.new_page(viewport={"width": 1100, "height": 850})
    page.goto(f"{server.url}/g/{made['id']}?t={made['seats'][0]['token']}")
    expect(page.locator("#notation")).to_be_visible()
    before = oneoff.get(f"{server.url}/api/games/{made['id']}").json()["seq"]
    value = page.locator("#rack button.tile").first.inner_text()
    page.fill("#notation", f"A1={value}")
    page.press("#notation", "Enter")
    expect(page.locator("#message")).to_have_text(re.compile(r"rule C"))
    expect(page.locator("#message")).to_have_class("error")
    shot(page, "refused")
    assert oneoff.get(f"{server.url}/api/games/{made['id']}").json()["seq"] == before


def test_a_finished_game_replays_step_by_step(server: Server, browser: Browser) -> None:
    made = create(server, [{"name": "A", "bot": "strong"}, {"name": "B", "bot": "greedy"}], seed=3)
    page = browser.new_page(viewport={"width": 1100, "height": 850})
    page.goto(f"{server.url}/g/{made['id']}")
    # a whole game of two computer players: a wait, not a timing (slow on a busy machine)
    expect(page.locator("#summary")).to_be_visible(timeout=120_000)
    shot(page, "game-over")
    page.click("#analysis")
    expect(page.locator("#modal-box")).to_contain_text("accuracy", timeout=60000)
    page.goto(f"{server.url}/g/{made['id']}?replay")
    expect(page.locator("#step")).to_have_text(re.compile(r"^action 0 of \d+"))
    page.click("#forward")
    page.click("#forward")
    expect(page.locator("#step")).to_have_text(re.compile(r"^action 2 of \d+: "))
    page.click("#back")
    expect(page.locator("#step")).to_have_text(re.compile(r"^action 1 of \d+: "))
    shot(page, "replay")


def test_the_home_page_scores_a_score_sheet(server: Server, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 850})
    page.goto(server.url + "/")
    page.set_input_files("#sheet-file", str(ROOT / "examples" / "worked-example.txt"))
    expect(page.locator("#totals")).to_have_text("Totals: Ann 39, Bob 121")
    shot(page, "home")


def test_the_board_fits_a_phone(server: Server, browser: Browser) -> None:
    made = create(server, [{"name": "Ann"}, {"name": "Bot", "bot": "gentle"}])
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{server.url}/g/{made['id']}?t={made['seats'][0]['token']}")
    page.wait_for_selector("#board")
    width = page.evaluate("document.getElementById('board').getBoundingClientRect().right")
    assert width <= 390
    shot(page, "phone")
