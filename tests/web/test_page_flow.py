"""The game page's flow (issue 32, findings 3, 4, 8 and 9), in a real browser: a turn that
ends by itself is said so (the view's ``no_fit``, on the message line and in the move
list), the extra-token question (C7) says what it offers and closes when the game moves on
under it, a placement may wait for a Confirm (a preference kept in the browser, on by
default on touch screens for correspondence games), and the words: the test language
finds no English, a computer's level is not said twice, the end's reason is a sentence,
and Quattro's drawn cards are said in words beside their notation."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from mathable import i18n
from support import oneoff
from support.browser import DESKTOP, PHONE, create, english_left, serious, socket_caught_up
from webserver import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server, with room for this module's games with and between computers."""
    env = {"MATHABLE_BOT_GAMES": "1000", "MATHABLE_BOT_GAMES_ALL": "1000"}
    running = Server(tmp_path_factory.mktemp("web") / "games.db", env=env).start()
    yield running
    running.stop()


def view_of(server: Server, game_id: str, token: str | None = None) -> dict[str, Any]:
    suffix = f"?token={token}" if token else ""
    found: dict[str, Any] = oneoff.get(f"{server.url}/api/games/{game_id}{suffix}").json()
    return found


def over(server: Server, game_id: str) -> dict[str, Any]:
    """The view of a game between computers once it is over (they play in the workers)."""
    deadline = time.monotonic() + 90
    view = view_of(server, game_id)
    while not view["over"] and time.monotonic() < deadline:
        time.sleep(0.3)
        view = view_of(server, game_id)
    assert view["over"]
    return view


def screen_game(server: Server, seed: int) -> tuple[dict[str, Any], str, str]:
    """Ann and Bob at one screen: the game, the token of the seat to move, the other's."""
    made = create(server, [{"name": "Ann"}, {"name": "Bob"}], seed=seed)
    tokens = [s["token"] for s in made["seats"]]
    first = view_of(server, made["id"], tokens[0])["to_move"]
    return made, tokens[first], tokens[1 - first]


# -- a turn that ends by itself ----------------------------------------------------------


def test_a_turn_that_ends_by_itself_is_said_on_the_message_line_and_in_the_moves(
    server: Server, page: Page
) -> None:
    made = create(server, [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}], seed=14)
    page.goto(f"{server.url}/g/{made['id']}?t={made['seats'][0]['token']}")
    expect(page.locator("#notation")).to_be_visible()
    view = view_of(server, made["id"], made["seats"][0]["token"])
    ended = [s for s in view["summaries"] if s["no_fit"]]
    assert ended, view["summaries"]  # the computer's first turn placed two and had no third
    expect(page.locator("#moves .said.no-fit")).to_have_count(len(ended))
    expect(page.locator("#moves li").first).to_contain_text("no other token fitted")
    for _ in range(12):  # Ann passes until the computer's reply ends by itself, live
        before = len(view_of(server, made["id"])["summaries"])
        page.keyboard.press("p")
        for _ in range(100):
            view = view_of(server, made["id"])
            if len(view["summaries"]) >= before + 2 or view["over"]:
                break
            page.wait_for_timeout(100)
        expect(page.locator("#notation")).to_be_visible()
        if view["summaries"][-1]["no_fit"]:
            break
    assert view["summaries"][-1]["no_fit"]
    expect(page.locator("#message")).to_have_text("Bot had no token that fits: turn passed.")
    expect(page.locator("#moves li").last).to_contain_text("Bot: ")
    expect(page.locator("#moves li").last).to_contain_text("no other token fitted")


# -- the extra-token question (C7) -------------------------------------------------------


def extra_token_game(server: Server) -> tuple[dict[str, Any], str, str, str]:
    """A game whose player to move may take the extra token (C7): the game, the mover's
    token, the other's, and the placement (``E7=4``) on its restriction square. (Seed 6:
    the first mover plays F7=3, then E7=4 may take it.)"""
    made, first, second = screen_game(server, 6)
    actions = f"{server.url}/api/games/{made['id']}/actions"
    for action in ("F7=3", "end"):
        view = view_of(server, made["id"], first)
        if view["to_move"] == view["seat"]:
            answer = oneoff.post(actions, json={"token": first, "action": action})
            assert answer.status_code == 200, answer.text
    extra = [a for a in view_of(server, made["id"], second)["legal"] if a.endswith("+")]
    assert extra, "the deal offers the extra token"
    return made, second, first, extra[0].rstrip("+")


def pick_and_place(page: Page, placement: str) -> None:
    cell, value = placement.split("=")
    page.locator(f'#rack button.tile[data-value="{value}"]').first.click()
    page.click(f'#board [data-cell="{cell}"]')


def test_the_extra_token_question_says_what_it_offers_and_closes_when_the_game_moves_on(
    server: Server, page: Page
) -> None:
    made, mover, other, placement = extra_token_game(server)
    page.goto(f"{server.url}/g/{made['id']}?t={mover}")
    expect(page.locator("#notation")).to_be_visible()
    pick_and_place(page, placement)
    question = page.locator("#modal-question")
    expect(question).to_have_text(
        re.compile(
            rf"^{placement.split('=')[0]}: this square allows only [×÷+−]: you may draw one "
            r"more token\. Draw it now\?$"
        )
    )
    assert "C7" not in question.inner_text()
    assert serious(page) == []
    seq = view_of(server, made["id"], mover)["seq"]
    aborted = oneoff.post(f"{server.url}/api/games/{made['id']}/abort", json={"token": other})
    assert aborted.status_code == 200, aborted.text
    expect(page.locator("#modal")).to_be_hidden()  # the game moved on: the question is gone
    expect(page.locator("#summary")).to_be_visible()
    socket_caught_up(page)  # nothing is sent after the question closed
    assert view_of(server, made["id"])["seq"] == seq + 1  # the abort only


# -- confirm before it counts -------------------------------------------------------------


def test_a_placement_waits_for_confirm_when_the_preference_is_on(
    server: Server, page: Page
) -> None:
    made, mover, _, placement = extra_token_game(server)
    page.goto(f"{server.url}/g/{made['id']}?t={mover}")
    switch = page.locator("#confirm-pref")
    expect(switch).not_to_be_checked()  # off by default on a desktop
    switch.check()
    cell, value = placement.split("=")
    seq = view_of(server, made["id"], mover)["seq"]
    pick_and_place(page, placement)
    page.click("#no")  # no extra token
    square = page.locator(f'#board [data-cell="{cell}"]')
    expect(square).to_have_class(re.compile(r"\btentative\b"))
    expect(square.locator(".tok")).to_have_text(value)
    expect(square).to_have_attribute("aria-label", re.compile("not confirmed yet"))
    expect(page.locator("#confirm")).to_be_focused()
    assert view_of(server, made["id"], mover)["seq"] == seq  # nothing sent yet
    assert serious(page) == []
    page.click("#cancel")  # taken back: nothing placed, the focus on its square
    expect(square.locator(".tok")).to_have_count(0)
    expect(square).to_be_focused()
    assert view_of(server, made["id"], mover)["seq"] == seq
    expect(page.locator("#rack button.tile.picked")).to_have_text(value)  # still picked
    square.click()
    page.click("#no")
    page.click("#confirm")
    expect(square).to_have_class(re.compile(r"\bcurrent\b"))
    assert view_of(server, made["id"], mover)["seq"] == seq + 1
    page.reload()  # kept in the browser
    expect(page.locator("#confirm-pref")).to_be_checked()


def test_confirm_is_on_by_default_for_correspondence_on_a_touch_screen(
    server: Server, browser: Browser
) -> None:
    made = create(server, [{"name": "Ann"}, {"name": "Bob"}], seed=None, clock={"days": 3})
    token = made["seats"][0]["token"]
    for touch, expected in ((True, True), (False, False)):
        context = browser.new_context(viewport=PHONE, has_touch=touch, is_mobile=touch)
        page = context.new_page()
        page.goto(f"{server.url}/g/{made['id']}?t={token}")
        expect(page.locator("#confirm-pref")).to_be_visible()
        assert page.locator("#confirm-pref").is_checked() is expected
        context.close()
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()  # a live game on a touch screen: off
    made = create(server, [{"name": "Ann"}, {"name": "Bob"}], seed=None, clock={"minutes": 5})
    page.goto(f"{server.url}/g/{made['id']}?t={made['seats'][0]['token']}")
    expect(page.locator("#confirm-pref")).not_to_be_checked()
    context.close()


# -- words -------------------------------------------------------------------------------


def test_a_computer_level_is_said_once_and_the_end_is_a_sentence(
    server: Server, page: Page
) -> None:
    made = create(
        server, [{"name": "gentle", "bot": "gentle"}, {"name": "Robo", "bot": "greedy"}], seed=3
    )
    view = over(server, made["id"])
    page.goto(f"{server.url}/g/{made['id']}")
    names = page.locator("#scores tr td:nth-child(2)")
    expect(names.nth(0)).to_have_text("gentle")  # not "gentle (gentle)"
    expect(names.nth(1)).to_have_text(re.compile(r"^Robo \(.+\)$"))
    reason = page.locator("#end-reason")
    text = reason.inner_text()
    assert text[0].isupper() and text.startswith(view["end_reason"][0].upper()), text
    assert ".." not in text
    page.goto(f"{server.url}/players/bot-greedy")  # a computer's page: "computer" once
    name = page.locator("#profile-name")
    expect(name).to_contain_text("(")
    assert name.inner_text().lower().count("computer") == 1, name.inner_text()


def test_quattro_drawn_cards_are_said_in_words(server: Server, page: Page) -> None:
    for seed in range(1, 12):
        made = create(
            server,
            [{"name": "A", "bot": "greedy"}, {"name": "B", "bot": "gentle"}],
            seed=seed,
            variant="quattro",
        )
        view = over(server, made["id"])
        drawn = [i for i, s in enumerate(view["summaries"]) if s["notation"].startswith("draw ")]
        if drawn:
            break
    assert drawn
    page.goto(f"{server.url}/g/{made['id']}")
    line = page.locator("#moves li").nth(drawn[0])
    expect(line).to_contain_text(re.compile(r"no card fitted: drew one(,| and) played \d+ on pile"))
    assert view["summaries"][drawn[0]]["no_fit"]


def test_the_test_language_finds_no_english_on_the_game_page(
    server: Server, browser: Browser
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    context.add_cookies([{"name": "lang", "value": i18n.PSEUDO, "url": server.url}])
    page = context.new_page()
    made, mover, _, placement = extra_token_game(server)
    page.goto(f"{server.url}/g/{made['id']}?t={mover}")
    page.wait_for_selector("#board")
    page.wait_for_load_state("networkidle")
    header = page.locator("header").inner_text()
    assert english_left(header) == [], header  # the guest's name too: no "Guest"
    page.click("#confirm-pref")
    pick_and_place(page, placement)
    assert english_left(page.locator("#modal-question").inner_text()) == []
    page.click("#no")
    shown = page.locator("#game").inner_text()
    assert english_left(shown) == [], shown
    context.close()
