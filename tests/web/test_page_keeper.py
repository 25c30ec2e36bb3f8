"""The score keeper's page (/keep, issue 37) in a real browser at a phone's size: a game
kept by taps (the rulebook's worked example, 39 and 121, with its extra token), a refused
placement (the server's reason shown, nothing recorded), an exchange, a reload that
carries on, the end with deductions, and the downloaded sheet that ``mathable score``
totals identically; a challenge under the table referee; a turn entered while the server
is down, queued and sent once after it returns. Screenshot: ``web-keeper-phone.png``
(MATHABLE_DOCS_SCREENSHOTS=1)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from mathable import i18n
from mathable.games.board.transcript import score_transcript
from support import oneoff
from support.browser import NAMES, english_left, serious, shot
from webserver import Server

PHONE: ViewportSize = {"width": 390, "height": 844}
ANN = ["I8=12", "H6=8", "G9=2", "F7=1", "J8=16+"]
BOB = ["F8=7", "F9=6", "H9=8", "G6=4", "E9=3", "E8=21", "E10=7"]
"""The rulebook's worked example (as tests/web/test_keeper_api.py enters it)."""


def phone(browser: Browser) -> Page:
    return browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()


def set_up(page: Page, server: Server, referee: bool = False) -> str:
    """A classic game of Ann and Bob, Ann first, made from the setup form: its id."""
    page.goto(server.url + "/keep")
    page.fill("#keep-name-0", "Ann")
    page.fill("#keep-name-1", "Bob")
    page.select_option("#keep-first", "Ann")
    if referee:
        page.check("#keep-referee")
    assert serious(page) == []
    page.click("#keep-start")
    expect(page.locator("#keep-scores")).to_contain_text("Ann to move")
    found = re.search(r"/keep/([\w-]+)#", page.url)
    assert found, page.url
    return found[1]


def tap_turn(page: Page, placements: list[str], end: bool = True) -> None:
    """The placements tapped (a cell, then its value; `+`: the extra token marked), then
    End turn (unless not ``end``)."""
    for placement in placements:
        cell, value = placement.rstrip("+").split("=")
        page.click(f'#board .cell[data-cell="{cell}"]')
        page.click(f'#keypad .key[data-value="{value}"]')
        if placement.endswith("+"):
            page.click(f'#keep-pending [data-extra="{cell}"]')
    if end:
        page.click("#keep-end-turn")


def kept(server: Server, game: str) -> dict[str, Any]:
    found: dict[str, Any] = oneoff.get(f"{server.url}/api/keeper/{game}").json()
    return found


def scores(page: Page) -> list[str]:
    return page.locator("#keep-scores .score").all_inner_texts()


def fits_a_phone(page: Page) -> None:
    """No horizontal scroll; every control a 44 px target, every square at least 24 px."""
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('#keeper button, #keeper select, #keeper a')]
        .filter(el => el.offsetParent).map(el => [el.classList.contains('cell'),
        el.getBoundingClientRect().width, el.getBoundingClientRect().height, el.id])"""
    )
    for is_cell, width, height, name in sizes:
        least = 24 if is_cell else 44
        assert height >= least - 0.5 and (is_cell or width >= 44 - 0.5), (name, width, height)


def left_in_racks(state: dict[str, Any]) -> list[list[int]]:
    """Values for every token the racks hold, taken from the unseen ones."""
    unseen = {int(v): n for v, n in state["unseen"].items()}
    left = []
    for count in state["racks"]:
        values: list[int] = []
        for value in sorted(unseen):
            while unseen[value] and len(values) < count:
                unseen[value] -= 1
                values.append(value)
        left.append(values)
    return left


def test_a_whole_game_kept_by_taps_on_a_phone(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    page = phone(browser)
    game = set_up(page, server)
    fits_a_phone(page)
    tap_turn(page, ANN)
    expect(page.locator("#keep-result")).to_contain_text("Ann: 39 points")
    assert scores(page) == ["39", "0"]
    tap_turn(page, BOB[:3], end=False)
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "keeper-phone")  # Bob's turn being entered, under Ann's explained
    tap_turn(page, BOB[3:])
    expect(page.locator("#keep-result")).to_contain_text("Bob: 121 points")
    expect(page.locator("#keep-result")).to_contain_text("bonus 50")
    assert scores(page) == ["39", "121"]
    fits_a_phone(page)
    assert serious(page) == []

    # a refused placement: the server's reason (rule and cell), nothing recorded
    tap_turn(page, ["A1=5"])
    expect(page.locator("#message")).to_contain_text("rule C3")
    expect(page.locator("#keep-pending")).to_contain_text("A1=5")  # kept to correct
    assert kept(server, game)["seq"] == 2
    page.click('#keep-pending [data-remove="A1"]')

    # a reload carries on (the token from the link and this browser)
    page.reload()
    expect(page.locator("#keep-scores")).to_contain_text("Ann to move")
    assert scores(page) == ["39", "121"]
    page.goto(f"{server.url}/keep/{game}")  # the link without its fragment: the stored token
    expect(page.locator("#keep-end-turn")).to_be_visible()

    page.fill("#keep-exchange-count", "3")
    page.click("#keep-exchange")
    expect(page.locator("#keep-scores")).to_contain_text("Bob to move")
    assert kept(server, game)["turns"][-1]["notation"] == "exchange 3"
    page.click("#keep-undo")  # taken back, then entered again
    expect(page.locator("#keep-scores")).to_contain_text("Ann to move")
    page.click("#keep-exchange")
    expect(page.locator("#keep-scores")).to_contain_text("Bob to move")

    # the end: each player's tokens left, deducted (C11)
    left = left_in_racks(kept(server, game))
    page.click("#keep-ending")
    for seat, values in enumerate(left):
        page.fill(f"#keep-left-{seat}", ", ".join(map(str, values)))
    assert serious(page) == []
    page.click("#keep-end-game")
    expect(page.locator("#keep-over")).to_be_visible()
    final = [39 - sum(left[0]), 121 - sum(left[1])]
    assert scores(page) == [str(s) for s in final]
    assert kept(server, game)["over"]

    with page.expect_download() as waiting:
        page.click("#keep-sheet")
    path = tmp_path / "sheet.txt"
    waiting.value.save_as(path)
    totals = score_transcript(path.read_text(encoding="utf-8")).totals
    assert totals == {"Ann": final[0], "Bob": final[1]}
    page.context.close()


def test_a_challenge_under_the_table_referee(server: Server, browser: Browser) -> None:
    page = phone(browser)
    game = set_up(page, server, referee=True)
    tap_turn(page, ["I8=12", "A1=5"])  # a mistake stands until challenged
    expect(page.locator("#keep-scores")).to_contain_text("Bob to move")
    assert scores(page) == ["27", "0"]  # 12, and 5 on the 3x square A1
    page.click("#keep-challenge")
    expect(page.locator("#keep-scores .score").first).to_have_text("12")  # cut at A1
    expect(page.locator("#message")).to_be_empty()
    assert kept(server, game)["turns"][0]["challenged"]
    page.click("#keep-challenge")  # the same turn again: the verdict is the server's
    expect(page.locator("#message")).to_contain_text("C12")
    assert serious(page) == []
    page.context.close()


def test_a_turn_entered_by_keyboard(server: Server, browser: Browser) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    set_up(page, server)
    page.locator('#board .cell[tabindex="0"]').focus()
    start = page.evaluate("document.activeElement.dataset.cell")
    column, row = "ABCDEFGHIJKLMN".index(start[0]), int(start[1:])
    for _ in range(8 - row):
        page.keyboard.press("ArrowDown")
    for _ in range(8 - column):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.cell") == "I8"
    page.keyboard.press("Enter")  # the cell chosen: the focus goes to the keypad
    page.keyboard.type("12")
    assert page.evaluate("document.activeElement.dataset.value") == "12"
    page.keyboard.press("Enter")
    expect(page.locator("#keep-pending")).to_contain_text("I8=12")
    page.locator("#keep-end-turn").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#keep-result")).to_contain_text("Ann: 12 points")
    page.context.close()


SHOWN = """() => {
  const parts = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll('[aria-label],[title],[placeholder]'))
    for (const a of ['aria-label', 'title', 'placeholder'])
      if (el.getAttribute(a)) parts.push(el.getAttribute(a));
  return parts.join('\\n');
}"""
"""The page's visible text and its texts read aloud or shown on hover."""


def test_every_text_of_the_keeper_is_translated(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "lang", "value": i18n.PSEUDO, "url": server.url}])
    page = context.new_page()
    page.goto(server.url + "/keep")
    expect(page.locator("#keep-start")).to_be_visible()
    assert english_left(page.evaluate(SHOWN)) == []
    made = oneoff.post(
        f"{server.url}/api/keeper", json={"players": NAMES[:2], "referee": True}
    ).json()
    page.goto(f"{server.url}/keep/{made['id']}#{made['token']}")
    tap_turn(page, ANN[:2], end=False)
    page.click("#keep-end-turn")
    expect(page.locator("#keep-result")).to_be_visible()
    page.click("#keep-ending")
    page.click("#keep-share summary")
    page.click("#keep-card summary")
    assert english_left(page.evaluate(SHOWN)) == []
    context.close()


@pytest.fixture
def own_server(tmp_path: Path) -> Any:
    running = Server(tmp_path / "kept.db").start()
    yield running
    running.stop()


def test_a_turn_entered_while_the_server_is_down_is_sent_once(
    own_server: Server, browser: Browser
) -> None:
    page = phone(browser)
    game = set_up(page, own_server)
    own_server.kill()
    tap_turn(page, ["I8=12"])
    expect(page.locator("#keep-queue")).to_be_visible()
    expect(page.locator('#board .cell[data-cell="I8"]')).to_contain_text("12")
    own_server.start()
    page.reload()  # the queue is sent from this browser's storage
    expect(page.locator("#keep-queue")).to_have_count(0)
    expect(page.locator("#keep-scores")).to_contain_text("Bob to move")
    assert scores(page) == ["12", "0"]
    page.reload()
    expect(page.locator("#keep-scores")).to_contain_text("Bob to move")
    assert kept(own_server, game)["seq"] == 1
    page.context.close()


def test_a_second_phone_follows_the_turns_entered_on_the_first(
    server: Server, browser: Browser
) -> None:
    first = phone(browser)
    game = set_up(first, server)
    second = phone(browser)
    second.goto(first.url)  # the shared link: the token in its fragment
    expect(second.locator("#keep-scores")).to_contain_text("Ann to move")
    tap_turn(first, ["I8=12", "H6=8", "G9=2", "F7=1", "J8=16+"])
    expect(first.locator("#keep-scores")).to_contain_text("Bob to move")
    # the second phone, untouched, catches up by itself (it looks every few seconds)
    expect(second.locator("#keep-scores")).to_contain_text("Bob to move", timeout=15_000)
    assert "39" in " ".join(scores(second))
    assert kept(server, game)["seq"] == 1
    first.context.close()
    second.context.close()
