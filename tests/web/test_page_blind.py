"""Blind mode and the keyboard (issue 32, finding 10) in a real browser: a whole game
played by keys alone through the move box, with every event checked in the live region
(each held, not overwritten); the focus kept somewhere named after a typed turn-ending
move, a resignation and a language change; the rack's pressed states; an h1, landmarks
and a skip link on every page; the board entered at the last move or the centre; the
language switch not firing on one arrow key; a focus ring on the pressed Dark mode switch
in the dark theme; axe-core clean with the move box shown."""

from __future__ import annotations

import itertools
import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

from support import oneoff
from support.browser import against_the_computer as ann_to_move
from support.browser import create, serious
from webserver import Server

HOLD = 500
"""blind.js's HOLD: the least time (ms) a text stays in the live region before the next."""

LISTEN = (
    "() => { window.heard = []; const live = document.getElementById('live');"
    " new MutationObserver(() => window.heard.push([live.textContent,"
    " Number(live.dataset.saidAt || performance.now())])).observe("
    "document.getElementById('live'), { childList: true, characterData: true, subtree: true }); }"
)


def heard(page: Page) -> list[str]:
    return [text for text, _at in page.evaluate("window.heard")]


def wait_said_count(page: Page, pattern: str, count: int, polls: int = 200) -> None:
    """Polls until the page has said at least ``count`` texts matching ``pattern``."""
    said: list[str] = []
    for _ in range(polls):
        said = heard(page)
        if sum(1 for text in said if re.search(pattern, text)) >= count:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"said {pattern!r} fewer than {count} times: {said}")


def wait_heard(page: Page, pattern: str, start: int = 0, polls: int = 200) -> int:
    """Polls (the page's CSP forbids wait_for_function) until a text said after index
    ``start`` matches ``pattern``; returns its index."""
    said: list[str] = []
    for _ in range(polls):
        said = heard(page)
        for k in range(start, len(said)):
            if re.search(pattern, said[k]):
                return k
        page.wait_for_timeout(100)
    raise AssertionError(f"never said {pattern!r} after {start}: {said[start:]}")


def focused(page: Page) -> dict[str, Any]:
    """The focused element: its tag, id and accessible name's source (label, text)."""
    return dict(
        page.evaluate(
            "() => { const e = document.activeElement; return { tag: e.tagName, id: e.id,"
            " name: e.getAttribute('aria-label') || (e.labels && e.labels[0] ?"
            " e.labels[0].textContent : '') || e.textContent.trim() }; }"
        )
    )


def typing(placement: str, legal: list[str]) -> str:
    """The fewest keys the move box takes for ``placement`` (F7=2): the cell alone when
    only one value fits there, else cell and value without "=" when that reads one way."""
    cell, value = placement.split("=")
    plain = {a for a in legal if "=" in a and not a.endswith("+")}
    if [a for a in plain if a.startswith(cell + "=")] == [placement]:
        return cell.lower()
    digits = (cell + value)[1:]
    readings = {
        f"{cell[0]}{digits[:k]}={int(digits[k:])}"
        for k in range(1, len(digits))
        if f"{cell[0]}{digits[:k]}={int(digits[k:])}" in plain
    }
    return (cell + value).lower() if readings == {placement} else placement


def test_a_whole_game_by_keys_alone_with_every_event_said(server: Server, page: Page) -> None:
    made = create(
        server, [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}], seed=14, variant="junior"
    )
    token = made["seats"][0]["token"]
    url = f"{server.url}/api/games/{made['id']}"
    page.goto(f"{server.url}/g/{made['id']}?t={token}")
    expect(page.locator("#board")).to_be_visible()
    page.evaluate(LISTEN)
    page.keyboard.press("Tab")  # the skip link first, then the blind mode switch
    assert focused(page)["id"] == "skip"
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#blind-toggle")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#blind-move")).to_be_focused()
    expect(page.get_by_role("region", name="Move box")).to_be_visible()

    # read-backs before the first move
    reads = {
        "rack": r"^Your tiles: 1, 2, 7, 8, 16\.$",
        "scores": r"^Scores: Ann 0, Bot 0\. Ann to move\. Left to draw: 50 tiles$",
        "board": r"^Board: 5: E5 1, F5 2; 6: E6 3, F6 4\.$",
        "row 5": r"^Row 5: A5, empty.*E5, 1.*F5, 2",
        "column e": r"^Column E: E1, empty.*E5, 1; E6, 3",
        "legal 7": r"^7 fits at D6\.$",
        "legal 3": r"^3 fits nowhere\.$",
        "unseen": r"^Unseen: 1×4, 2×4, 3×5",
        "last": r"^No turn played yet\.$",
        "clock": r"^This game has no clock\.$",
        "row 99": r"^No such row or column: 99\.$",
        "hint": r"^Hint: ",
    }
    for line, pattern in reads.items():
        start = len(heard(page))
        page.keyboard.type(line)
        page.keyboard.press("Enter")
        wait_heard(page, pattern, start)
    expect(page.locator("#blind-reply")).to_have_text("No such row or column: 99.")
    # a typed placement that fits nowhere: refused with its rule, the line stopped there
    start = len(heard(page))
    page.keyboard.type("a1=16 d5=1")
    page.keyboard.press("Enter")
    wait_heard(page, r"^A1=16 refused: .*rule", start)
    assert oneoff.get(url).json()["seq"] == 0  # nothing after the refusal was sent

    keys = placements = 0
    turns_seen = 0
    for _ in range(200):
        view = oneoff.get(url, params={"token": token}).json()
        if view["over"]:
            break
        if view["to_move"] != 0:
            page.wait_for_timeout(100)
            continue
        # a person who hears nothing but the page acts once it has said the computer's
        # turns (the server may answer the test's GET before the page has the update)
        wait_said_count(page, r"^Bot: ", sum(1 for s in view["summaries"] if s["seat"] == 1))
        placement = next(a for a in view["legal"] if "=" in a and not a.endswith("+"))
        typed = typing(placement, view["legal"])
        start = len(heard(page))
        page.keyboard.type(typed)
        page.keyboard.press("Enter")
        keys += len(typed) + 1
        placements += 1
        after = oneoff.get(url, params={"token": token}).json()
        for _ in range(100):  # the page's answer (its POST) comes first
            if after["seq"] > view["seq"]:
                break
            page.wait_for_timeout(100)
            after = oneoff.get(url, params={"token": token}).json()
        if len(after["summaries"]) > len(view["summaries"]) or after["over"]:
            # the placement ended the turn (nothing else fits): the turn is said
            wait_heard(page, rf"^Ann: .*{re.escape(placement)}", start)
            turns_seen += 1
        else:
            wait_heard(page, rf"^{re.escape(placement)} placed: \d+ points? this turn$", start)
        expect(page.locator("#blind-move")).to_be_focused()
    else:
        raise AssertionError("the game did not end")
    final = oneoff.get(url).json()
    winner = final["players"][final["winners"][0]]
    scores = ", ".join(f"{p} {s}" for p, s in zip(final["players"], final["scores"], strict=True))
    wait_heard(page, rf"^Game over: {winner} won\. .+\. {scores}$")
    expect(page.locator("#blind-move")).to_be_focused()  # the focus stays on the box

    said = page.evaluate("window.heard")
    texts = [text for text, _at in said]
    # each side's turn said, in order: Ann's own turn before the computer's reply
    ann = [k for k, text in enumerate(texts) if text.startswith("Ann: ")]
    bot = [k for k, text in enumerate(texts) if text.startswith("Bot: ")]
    assert turns_seen and len(ann) >= turns_seen and bot, texts
    assert all(any(b > a for b in bot) for a in ann[:-1]), texts
    assert texts.count("Your turn") >= len(bot) - 1, texts
    # none overwritten: each text stayed in the live region at least HOLD ms
    gaps = [later - earlier for (_t, earlier), (_u, later) in itertools.pairwise(said)]
    # (the instants the page wrote them: an observer's own may run late on a busy machine)
    assert min(gaps) >= HOLD - 1, sorted(gaps)[:5]
    # four keys or fewer a placement
    print(f"blind mode: {keys} keys for {placements} placements")
    assert placements >= 20 and keys / placements <= 4, (keys, placements)


def test_focus_is_never_lost_after_a_typed_end_a_resignation_and_a_language_change(
    server: Server, page: Page
) -> None:
    made = ann_to_move(server, page)
    token = made["seats"][0]["token"]
    page.evaluate(LISTEN)
    # a typed move that ends the turn: the box goes away with the turn, the focus does not
    page.focus("#notation")
    page.keyboard.type("pass")
    page.keyboard.press("Enter")
    wait_heard(page, r"^Ann: ")
    where = focused(page)
    assert where["tag"] != "BODY" and where["name"], where
    # a resignation by keys: the question, then the end said with the winner and scores
    expect(page.locator("#notation")).to_be_visible(timeout=30000)  # Ann's turn again
    page.focus("#resign")
    page.keyboard.press("Enter")
    expect(page.locator("#yes")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#summary")).to_be_visible()
    wait_heard(page, r"^Game over: Bot won\. .*Ann \d+, Bot \d+$")
    where = focused(page)
    assert where["tag"] != "BODY" and where["name"], where
    assert oneoff.get(f"{server.url}/api/games/{made['id']}", params={"token": token}).json()[
        "over"
    ]
    # the language switch: one arrow key moves the choice but does not switch
    page.focus("#lang-switch")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Shift+Tab")  # leaving it puts back the language in use
    assert page.evaluate("document.getElementById('lang-switch').value") == "en"
    assert "lang=" not in page.evaluate("document.cookie")
    # Enter takes the choice; after the reload the focus is on the switch again
    page.focus("#lang-switch")
    page.keyboard.press("ArrowDown")
    chosen = page.evaluate("document.getElementById('lang-switch').value")
    assert chosen != "en"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", chosen)
    expect(page.locator("#lang-switch")).to_be_focused()


def test_the_rack_says_which_pieces_are_pressed(server: Server, page: Page) -> None:
    ann_to_move(server, page)
    page.evaluate(LISTEN)
    tiles = page.locator("#rack button.tile")
    expect(tiles.first).to_have_attribute("aria-pressed", "false")
    page.locator('#board [tabindex="0"]').focus()
    page.keyboard.press("1")  # picked: pressed, and its lit places said
    expect(tiles.nth(0)).to_have_attribute("aria-pressed", "true")
    expect(tiles.nth(1)).to_have_attribute("aria-pressed", "false")
    wait_heard(page, r"chosen: (\d+ legal places? lit|no legal place)")
    page.keyboard.press("x")  # exchange: the pieces chosen are pressed
    page.keyboard.press("1")
    page.keyboard.press("3")
    pressed = [tiles.nth(k).get_attribute("aria-pressed") for k in range(tiles.count())]
    assert pressed == ["true", "false", "true"] + ["false"] * (len(pressed) - 3), pressed
    wait_heard(page, r"^Choose the tokens to give back, then press Exchange again\.$")


def test_every_page_has_an_h1_landmarks_and_a_skip_link(server: Server, page: Page) -> None:
    made = create(server, [{"name": "Bot", "bot": "greedy"}, {"name": "Ann"}], seed=14)
    game = f"/g/{made['id']}?t={made['seats'][1]['token']}"  # Ann draws the first turn
    for path in [
        "/",
        "/lobby",
        "/learn",
        "/puzzles",
        "/practice",
        "/leaderboard",
        "/class",
        "/rules/classic",
        game,
    ]:
        page.goto(server.url + path)
        expect(page.locator("main")).not_to_contain_text("Loading…")
        heading = page.locator("h1")
        expect(heading).to_have_count(1)
        assert heading.inner_text().strip() or heading.text_content(), path
        expect(page.get_by_role("banner")).to_have_count(1)
        expect(page.get_by_role("main")).to_have_count(1)
        expect(page.get_by_role("navigation", name="Site")).to_have_count(1)
        first = page.evaluate(
            "document.querySelector('a[href], button, input, select,"
            ' [tabindex]:not([tabindex="-1"])\').id'
        )
        assert first == "skip", path  # first in the tab order
        if focused(page)["tag"] == "BODY":  # (a page may have focused its own first control)
            page.keyboard.press("Tab")
        else:
            page.focus("#skip")
        skip = page.locator("#skip")
        expect(skip).to_be_focused()
        expect(skip).to_have_text("Skip to content")
        box = skip.bounding_box()
        assert box and box["x"] >= 0 and box["y"] >= 0, (path, box)  # seen when focused
        page.keyboard.press("Enter")
        inside = page.evaluate("document.getElementById('app').contains(document.activeElement)")
        assert inside, (path, focused(page))
    # the game page: its title as the h1, the board entered at the centre before any move
    assert not oneoff.get(f"{server.url}/api/games/{made['id']}").json()["recent"]
    expect(page.locator("h1")).to_have_text("Mathable")
    expect(page.locator('#board [tabindex="0"]')).to_have_attribute("data-cell", "H8")
    page.keyboard.press("ArrowRight")  # the arrows go on from where the board was entered
    expect(page.locator("#board .cursor")).to_have_attribute("data-cell", "I8")


def test_the_board_is_entered_at_the_last_move(server: Server, page: Page) -> None:
    made = ann_to_move(server, page)  # the computer drew the first turn, and played it
    view = oneoff.get(f"{server.url}/api/games/{made['id']}").json()
    last = view["recent"][-1]
    expect(page.locator('#board [tabindex="0"]')).to_have_attribute("data-cell", last)


def test_the_pressed_dark_mode_switch_shows_its_focus_ring(
    server: Server, browser: Browser
) -> None:
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    page.goto(server.url + "/")
    expect(page.locator("#theme")).to_have_attribute("aria-pressed", "true")
    page.focus("#lang-switch")
    page.keyboard.press("Shift+Tab")  # by keys: focus-visible
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#theme")).to_be_focused()
    ring = page.evaluate(
        "() => { const s = getComputedStyle(document.getElementById('theme'));"
        " const head = getComputedStyle(document.querySelector('header'));"
        " return [s.outlineStyle, parseFloat(s.outlineWidth), s.outlineColor,"
        " head.backgroundColor]; }"
    )
    style, width, color, behind = ring
    assert style == "solid" and width >= 2, ring
    assert contrast(color, behind) >= 3 and contrast(color, "rgb(255, 255, 255)") >= 1.3, ring
    context.close()


def test_axe_is_clean_with_the_move_box(server: Server, browser: Browser) -> None:
    for scheme in ("light", "dark"):
        context = browser.new_context(color_scheme=scheme)
        page = context.new_page()
        page.goto(server.url + "/")
        page.evaluate("localStorage.setItem('mathable:blind', 'on')")
        ann_to_move(server, page)
        expect(page.locator("#blind-move")).to_be_visible()
        page.focus("#skip")  # the skip link and the switch as they are seen
        assert serious(page) == [], scheme
        context.close()


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two CSS rgb() colours."""

    def luminance(color: str) -> float:
        r, g, b = (int(x) / 255 for x in re.findall(r"\d+", color)[:3])
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)
