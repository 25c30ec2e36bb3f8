"""The game page's defects of issue 14, each tried in a real browser (Playwright on
Debian's chromium): the header, keys beyond the rack, game over (no "Watching", final
racks and deductions), two distinct highlights,
replay labels and keys, "connection lost", the analysis dialog, the pass-and-play cover,
and coordinates on the board. Fixtures and helpers come from ``test_browser``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from support import oneoff
from support.browser import (
    DESKTOP,
    against_the_computer,
    create,
    play_one_turn,
    shot,
    socket_caught_up,
)
from webserver import Server


def test_the_header_names_the_brand_once(server: Server, page: Page) -> None:
    against_the_computer(server, page)
    expect(page.locator("header")).not_to_contain_text(re.compile(r"Mathable\s*Mathable"))
    expect(page.locator("#where")).to_be_empty()
    against_the_computer(server, page, variant="junior")
    expect(page.locator("#where")).to_have_text("Mathable Junior")  # another title is shown


def test_a_key_beyond_the_rack_does_nothing(server: Server, page: Page) -> None:
    against_the_computer(server, page)
    assert page.locator("#rack button.tile").count() == 7
    page.keyboard.press("9")
    page.keyboard.press("8")
    expect(page.locator("#rack button.tile.picked")).to_have_count(0)
    expect(page.locator("#message")).not_to_contain_text("undefined")
    page.keyboard.press("1")  # a key within the rack picks
    expect(page.locator("#rack button.tile.picked")).to_have_count(1)
    expect(page.locator("#message")).to_contain_text("chosen")


def test_game_over_shows_final_racks_and_deductions_not_watching(
    server: Server, page: Page, finished: dict[str, Any]
) -> None:
    page.goto(f"{server.url}/g/{finished['id']}")
    expect(page.locator("#summary")).to_be_visible()
    expect(page.locator("#watching")).to_have_count(0)
    expect(page.locator("main")).not_to_contain_text("Watching")
    racks = page.locator("#final-racks tr")
    expect(racks).to_have_count(len(finished["players"]))
    for i, rack in enumerate(finished["open_racks"]):
        row = racks.nth(i)
        expect(row).to_contain_text(finished["players"][i])
        expect(row).to_contain_text(" ".join(map(str, rack)) or "none left")
        if finished["deductions"][i]:
            expect(row).to_contain_text(f"−{finished['deductions'][i]}")
    assert any(finished["deductions"]), "the game chosen should end with a deduction"


def test_this_turn_and_the_last_turn_are_marked_apart(server: Server, page: Page) -> None:
    against_the_computer(server, page)
    play_one_turn(page)  # Ann's turn, then the computer's
    expect(page.locator("#notation")).to_be_visible()
    expect(page.locator(".cell.last").first).to_be_visible()  # the computer's last turn
    for tile in range(page.locator("#rack button.tile").count()):
        page.locator("#rack button.tile").nth(tile).click()
        if page.locator(".cell.legal").count():
            page.locator(".cell.legal").first.click()
            if page.locator("#modal:not([hidden]) #no").count():  # a restriction square (C7)
                page.click("#no")
            break
        page.locator("#rack button.tile").nth(tile).click()
    expect(page.locator(".cell.current")).to_have_count(1)
    style = (
        "s => { const t = getComputedStyle(s.querySelector('.tok'));"
        " return [t.backgroundColor, t.borderTopStyle]; }"
    )
    current = page.locator(".cell.current").first.evaluate(style)
    last = page.locator(".cell.last:not(.current)").first.evaluate(style)
    assert current[0] != last[0], "distinct in colour"
    assert current[1] != last[1] and "none" not in (current[1], last[1]), "and not by colour alone"
    shot(page, "two-highlights")


def test_replay_buttons_have_labels_and_arrow_keys_step(
    server: Server, page: Page, finished: dict[str, Any]
) -> None:
    page.goto(f"{server.url}/g/{finished['id']}?replay")
    step = page.locator("#step")
    expect(step).to_have_text(re.compile(r"^action 0 of \d+"))
    for name in ("First", "Back", "Forward", "Last"):
        expect(page.get_by_role("button", name=re.compile(name))).to_be_visible()
    page.keyboard.press("ArrowRight")
    expect(step).to_have_text(re.compile(r"^action 1 of \d+: "))
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_text(re.compile(r"^action 1 of "))
    page.keyboard.press("End")
    total = re.search(r"of (\d+)", step.inner_text())
    assert total
    expect(step).to_have_text(re.compile(rf"^action {total[1]} of {total[1]}"))
    page.keyboard.press("Home")
    expect(step).to_have_text(re.compile(r"^action 0 of "))


def test_a_lost_connection_is_shown_and_mended(browser: Browser, tmp_path: Path) -> None:
    own = Server(tmp_path / "games.db").start()
    try:
        made = create(own, [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}], seed=14)
        page = browser.new_page(viewport=DESKTOP)
        page.goto(f"{own.url}/g/{made['id']}?t={made['seats'][0]['token']}")
        expect(page.locator("#notation")).to_be_visible()
        expect(page.locator("#connection")).to_have_count(0)
        own.stop()
        expect(page.locator("#connection")).to_contain_text("Connection lost")
        own.start()
        expect(page.locator("#connection")).to_have_count(0, timeout=15000)
        expect(page.locator("#notation")).to_be_visible()
        page.close()
    finally:
        own.stop()


def test_the_analysis_dialog_scrolls_and_closes(
    server: Server, browser: Browser, finished: dict[str, Any]
) -> None:
    page = browser.new_page(viewport={"width": 900, "height": 500})
    page.goto(f"{server.url}/g/{finished['id']}")
    dialog = page.locator("#modal")
    for close in ("Escape", "outside", "button"):
        page.click("#analysis")
        expect(page.locator("#modal-box")).to_contain_text("accuracy", timeout=60000)
        expect(page.locator("#close")).to_be_in_viewport(ratio=1)
        if close == "Escape":
            page.keyboard.press("Escape")
        elif close == "outside":
            page.mouse.click(3, 3)
        else:
            page.click("#close")
        expect(dialog).to_be_hidden()
    page.click("#analysis")
    expect(dialog).to_be_visible()  # (the closed dialog still holds the last analysis)
    expect(page.locator("#modal-box")).to_contain_text("accuracy", timeout=60000)
    box = page.locator("#modal-box").bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 500  # within the window
    scrolled = page.evaluate(
        "() => [...document.querySelectorAll('#modal-box, #modal-box .analysis')]"
        ".some(e => { const before = e.scrollTop; e.scrollTop += 200;"
        " return e.scrollTop > before; })"
    )
    assert scrolled
    expect(page.locator("#close")).to_be_in_viewport(ratio=1)  # still in sight, scrolled
    page.close()


def test_no_key_acts_behind_the_pass_and_play_cover(server: Server, page: Page) -> None:
    page.goto(server.url + "/")
    page.select_option("#kind1", "")  # Bob is a person too
    page.fill("#seed", "9")
    page.click("#create")
    expect(page.locator("#uncover")).to_be_visible()
    game = re.search(r"/g/([\w-]+)", page.url)
    assert game
    before = oneoff.get(f"{server.url}/api/games/{game[1]}").json()["seq"]
    for key in ("p", "e", "x", "1", "ArrowDown", "Enter"):
        if key != "Enter":  # Enter would press the focused button: the page's own
            page.keyboard.press(key)
    socket_caught_up(page)  # whatever the keys sent, the server has handled
    assert oneoff.get(f"{server.url}/api/games/{game[1]}").json()["seq"] == before
    expect(page.locator("#uncover")).to_be_visible()


def test_the_board_has_its_coordinates(server: Server, page: Page) -> None:
    against_the_computer(server, page)
    coords = page.locator("#board .coord").all_inner_texts()
    letters = [chr(ord("A") + i) for i in range(14)]
    numbers = [str(n) for n in range(1, 15)]
    assert [c for c in coords if c] == letters + numbers
    h8 = page.locator('.cell[data-cell="H8"]').bounding_box()
    row8 = page.locator("#board .coord", has_text=re.compile(r"^8$")).bounding_box()
    column_h = page.locator("#board .coord", has_text=re.compile(r"^H$")).bounding_box()
    assert h8 and row8 and column_h
    assert abs(row8["y"] - h8["y"]) < 2 and abs(column_h["x"] - h8["x"]) < 2  # in line
    against_the_computer(server, page, variant="quattro")  # piles: no coordinates
    expect(page.locator("#board .coord")).to_have_count(0)


def test_the_board_with_coordinates_still_fits_a_phone(server: Server, browser: Browser) -> None:
    made = create(server, [{"name": "Ann"}, {"name": "Bot", "bot": "gentle"}])
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{server.url}/g/{made['id']}?t={made['seats'][0]['token']}")
    expect(page.locator("#board .coord").first).to_be_attached()
    width = page.evaluate("document.getElementById('board').getBoundingClientRect().right")
    assert width <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.close()
