"""The game page's features of issue 14, in a real browser (Playwright on Debian's
chromium): dark mode with its switch, your turn in the tab title, "thinking…" while a
computer player moves, short animations that respect reduced motion, the move list with
points and running totals, the score graph and the winner at game over, the phone layout
at 390×844 and the sound switch. Fixtures and helpers come from the other page tests."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from support.browser import DESKTOP, PHONE, serious, shot
from support.browser import against_the_computer as ann_to_move
from webserver import Server


def background(page: Page) -> str:
    return str(page.evaluate("getComputedStyle(document.body).backgroundColor"))


def dark_rgb(colour: str) -> bool:
    red, green, blue = (int(n) for n in re.findall(r"\d+", colour)[:3])
    return red + green + blue < 3 * 80


def ann_passes_and_bot_plays(page: Page) -> list[str]:
    """Ann passes; returns what the controls said until the computer's turn was shown."""
    page.evaluate(
        "() => { window.seen = []; new MutationObserver(() => { const t ="
        " document.getElementById('thinking'); if (t) window.seen.push(t.textContent); })"
        ".observe(document.getElementById('app'), { childList: true, subtree: true }); }"
    )
    before = page.locator("#moves li").count()
    page.fill("#notation", "pass" if page.locator("#pass").count() else "end")
    page.press("#notation", "Enter")
    expect(page.locator("#moves li")).to_have_count(before + 2, timeout=30000)
    return list(page.evaluate("window.seen"))


def test_dark_mode_follows_the_system_with_a_kept_switch(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=DESKTOP, color_scheme="dark")
    page = context.new_page()
    ann_to_move(server, page)
    assert dark_rgb(background(page)), background(page)  # the system's setting
    expect(page.locator("#theme")).to_have_attribute("aria-pressed", "true")
    page.locator("#rack button.tile").first.click()  # legal cells lit
    assert serious(page) == []  # AA contrast in the dark theme too
    shot(page, "dark")
    page.click("#theme")
    expect(page.locator("#theme")).to_have_attribute("aria-pressed", "false")
    assert not dark_rgb(background(page))
    page.reload()
    expect(page.locator("#notation")).to_be_visible()
    assert not dark_rgb(background(page))  # the choice is kept over the system's
    page.locator("#rack button.tile").first.click()
    shot(page, "game")
    context.close()
    light = browser.new_context(viewport=DESKTOP, color_scheme="light")
    other = light.new_page()
    ann_to_move(server, other)
    assert not dark_rgb(background(other))
    other.click("#theme")
    assert dark_rgb(background(other))
    light.close()


def test_your_turn_in_the_title_and_thinking_while_the_computer_moves(
    server: Server, page: Page
) -> None:
    ann_to_move(server, page)
    expect(page).to_have_title("● Your turn — Mathable")
    seen = ann_passes_and_bot_plays(page)
    assert "Bot is thinking…" in seen, seen  # shown while the computer was to move
    expect(page).to_have_title("● Your turn — Mathable")  # Ann's turn again
    expect(page.locator("#thinking")).to_have_count(0)


def placed_animation(server: Server, browser: Browser, motion: Any) -> tuple[str, float]:
    """The animation of the computer's placed piece, with this reduced-motion setting."""
    context = browser.new_context(viewport=DESKTOP, reduced_motion=motion)
    page = context.new_page()
    ann_to_move(server, page)
    ann_passes_and_bot_plays(page)
    placed = page.locator(".cell.last .tok").first
    expect(placed).to_be_visible()
    name = placed.evaluate("el => getComputedStyle(el).animationName")
    seconds = float(placed.evaluate("el => getComputedStyle(el).animationDuration")[:-1])
    context.close()
    return name, seconds


def test_animations_are_short_and_off_under_reduced_motion(
    server: Server, browser: Browser
) -> None:
    name, seconds = placed_animation(server, browser, "no-preference")
    assert name != "none" and 0 < seconds <= 0.3  # a piece placed pops in, briefly
    assert placed_animation(server, browser, "reduce")[0] == "none"


def test_the_move_list_gives_points_and_running_totals(
    server: Server, page: Page, finished: dict[str, Any]
) -> None:
    page.goto(f"{server.url}/g/{finished['id']}")
    items = page.locator("#moves li")
    expect(items).to_have_count(len(finished["summaries"]))
    totals = [0] * len(finished["players"])
    points = items.locator(".pts").all_inner_texts()
    running = items.locator(".totals").all_inner_texts()
    for turn, summary in enumerate(finished["summaries"]):
        totals[summary["seat"]] += summary["points"]
        assert points[turn] == f"+{summary['points']}"
        expected = " · ".join(f"{p} {t}" for p, t in zip(finished["players"], totals, strict=True))
        assert running[turn] == f"→ {expected}"
    at_end = page.evaluate(
        "(() => { const l = document.querySelector('#moves ol');"
        " return l.scrollTop + l.clientHeight >= l.scrollHeight - 2; })()"
    )
    assert at_end  # the newest turn in sight


def test_the_move_list_follows_a_live_game(server: Server, page: Page) -> None:
    ann_to_move(server, page)
    ann_passes_and_bot_plays(page)
    expect(page.locator("#moves li").last.locator(".totals")).to_contain_text("Ann 0 · Bot ")


def test_game_over_draws_a_score_graph_and_names_the_winner(
    server: Server, page: Page, finished: dict[str, Any]
) -> None:
    page.goto(f"{server.url}/g/{finished['id']}")
    winners = [finished["players"][i] for i in finished["winners"]]
    expect(page.locator("#winner")).to_have_text(f"Game over: {' and '.join(winners)} won")
    graph = page.get_by_role("img", name=re.compile("Score per turn"))
    expect(graph).to_be_visible()
    lines = page.locator("#score-graph polyline")
    expect(lines).to_have_count(len(finished["players"]))
    turns = len(finished["summaries"])
    totals = [0] * len(finished["players"])
    for summary in finished["summaries"]:
        totals[summary["seat"]] += summary["points"]
    deducted = totals != finished["scores"]  # what was left in hand, taken off at the end
    for i, player in enumerate(finished["players"]):
        line = lines.nth(i)
        assert line.get_attribute("data-player") == player
        steps = turns + 1 + (1 if deducted else 0)
        assert len((line.get_attribute("points") or "").split()) == steps
        final = finished["scores"][i]
        expect(page.locator("#score-graph text.label").nth(i)).to_have_text(f"{player} {final}")
        expect(page.locator("#score-graph figcaption")).to_contain_text(
            f"{player}: {totals[i]} points after {turns} turns"
            + (f", {final} at the end" if deducted else "")
        )


def test_the_game_fits_a_phone_with_large_targets(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    ann_to_move(server, page)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    for selector in ["#board", "#rack", "#controls"]:
        box = page.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0, (selector, box)
        assert box["x"] + box["width"] <= 390, (selector, box)
    targets = page.locator("#rack button.tile, #controls button, header button:visible")
    assert targets.count() >= 8
    for i in range(targets.count()):
        box = targets.nth(i).bounding_box()
        assert box is not None and box["width"] >= 40 and box["height"] >= 40, (i, box)
    context.close()


def test_sound_is_one_switch_off_by_default_and_kept(server: Server, page: Page) -> None:
    ann_to_move(server, page)
    switch = page.get_by_role("button", name="Sound")
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.locator("#notation")).to_be_visible()
    expect(page.get_by_role("button", name="Sound")).to_have_attribute("aria-pressed", "true")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_no_serious_violation_in_dark_mode(
    server: Server, browser: Browser, finished: dict[str, Any], size: Any
) -> None:
    context = browser.new_context(viewport=size, color_scheme="dark")
    page = context.new_page()
    page.goto(server.url + "/")
    expect(page.locator("#create")).to_be_visible()
    assert dark_rgb(background(page))
    found = {"home": serious(page)}
    ann_to_move(server, page)
    page.locator("#rack button.tile").first.click()
    found["game"] = serious(page)
    page.goto(f"{server.url}/g/{finished['id']}")
    expect(page.locator("#score-graph")).to_be_visible()
    found["game over"] = serious(page)
    page.click("#analysis")
    expect(page.get_by_role("dialog")).to_contain_text("accuracy", timeout=60000)
    found["analysis"] = serious(page)
    page.goto(f"{server.url}/g/{finished['id']}?replay")
    expect(page.locator("#step")).to_contain_text("action 0")
    assert dark_rgb(background(page))
    found["replay"] = serious(page)
    context.close()
    assert found == {"home": [], "game": [], "game over": [], "analysis": [], "replay": []}
