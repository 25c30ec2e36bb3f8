"""The game page fits every screen (issue 32, findings 1, 2 and 5), in a real browser: at
each of the issue's window sizes, in light and dark, the board, the rack, the turn's
buttons, the message line and the scores are all in view without scrolling (checked by
their bounding boxes); the board stands beside the panel where the window is wide and
the scores are a strip above it on a phone, whose header is one row with a menu; every
page of the site is reachable from the header; touch screens get 44 px targets; and the
ring of a legal cell keeps 3:1 against every kind of square (WCAG 1.4.11), computed from
the page's styles. Screenshots go to docs/ with MATHABLE_DOCS_SCREENSHOTS=1."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import partial
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from support.browser import against_the_computer, redrawn, serious, shot
from webserver import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server, with room for this module's many games against the computer."""
    running = Server(
        tmp_path_factory.mktemp("web") / "games.db", env={"MATHABLE_BOT_GAMES": "1000"}
    ).start()
    yield running
    running.stop()


SIZES: dict[str, ViewportSize] = {
    "1366x768": {"width": 1366, "height": 768},
    "1280x720": {"width": 1280, "height": 720},
    "1920x1080": {"width": 1920, "height": 1080},
    "768x1024": {"width": 768, "height": 1024},
    "390x844": {"width": 390, "height": 844},
}
"""The issue's windows: two laptops, a desktop, a tablet held upright, a phone."""

MORE: list[ViewportSize] = [
    {"width": 360, "height": 640},
    {"width": 900, "height": 640},
    {"width": 1024, "height": 640},
    {"width": 640, "height": 900},
    {"width": 2560, "height": 1440},
    {"width": 2560, "height": 640},
]
"""The corners of "every width from 360 to 2560 and every height from 640"."""

ESSENTIAL = ["#board", "#rack", "#controls", "#message", "#scores"]
"""What must be in view without scrolling while a player is on their turn."""


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return {key: float(found[key]) for key in ("x", "y", "width", "height")}


def out_of_view(page: Page, size: ViewportSize) -> list[str]:
    """The essential parts not wholly inside the window (scrolled to the top)."""
    page.evaluate("window.scrollTo(0, 0)")
    outside = []
    for selector in ESSENTIAL:
        b = box(page, selector)
        inside = (
            b["x"] >= 0
            and b["y"] >= 0
            and b["x"] + b["width"] <= size["width"] + 0.5
            and b["y"] + b["height"] <= size["height"] + 0.5
        )
        if not inside:
            outside.append(f"{selector} {b}")
    return outside


def fits(page: Page, size: ViewportSize) -> bool:
    """Whether everything is in view at ``size``."""
    return out_of_view(page, size) == []


def on_a_turn(server: Server, page: Page) -> None:
    """Ann's page on her turn with a token picked: legal cells lit, the message line said."""
    against_the_computer(server, page)
    page.locator("#rack button.tile").first.click()
    expect(page.locator("#message")).to_contain_text("chosen")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", list(SIZES))
def test_board_rack_buttons_message_and_scores_are_in_view(
    server: Server, browser: Browser, name: str, scheme: Literal["light", "dark"]
) -> None:
    size = SIZES[name]
    context = browser.new_context(viewport=size, color_scheme=scheme)
    page = context.new_page()
    on_a_turn(server, page)
    assert out_of_view(page, size) == []
    assert page.evaluate("document.scrollingElement.scrollWidth") <= size["width"]
    board, scores, rack = box(page, "#board"), box(page, "#scores"), box(page, "#rack")
    if size["width"] >= 900 and size["width"] >= size["height"]:
        assert board["x"] + board["width"] <= rack["x"], "the panel stands beside the board"
        assert board["x"] + board["width"] <= scores["x"]
        assert board["y"] + board["height"] <= size["height"]  # sized from the height
    else:
        assert scores["y"] + scores["height"] <= board["y"], "the scores: a strip above"
        assert scores["height"] <= 60
        assert board["y"] + board["height"] <= rack["y"]
    if size["width"] < 700:
        assert box(page, "header")["height"] <= 56, "a phone's header is one row"
    if name in ("1366x768", "390x844") and scheme == "light":
        shot(page, f"fits-{name}")
    assert serious(page) == []
    context.close()


def test_every_corner_of_the_range_fits(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=MORE[0])
    page = context.new_page()
    on_a_turn(server, page)
    for size in MORE:
        page.set_viewport_size(size)
        redrawn(page, partial(fits, page, size))  # the resize event's redraw
        assert out_of_view(page, size) == [], size
        assert page.evaluate("document.scrollingElement.scrollWidth") <= size["width"], size
    context.close()


def test_the_board_grows_with_the_window(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=SIZES["1280x720"])
    page = context.new_page()
    on_a_turn(server, page)
    small = box(page, "#board")["height"]
    page.set_viewport_size(SIZES["1920x1080"])
    redrawn(page, lambda: box(page, "#board")["height"] > small * 1.3)
    assert box(page, "#board")["height"] > small * 1.3
    context.close()


@pytest.mark.parametrize(("size", "menu"), [(SIZES["1366x768"], False), (SIZES["390x844"], True)])
def test_the_header_leads_everywhere(
    server: Server, browser: Browser, size: ViewportSize, menu: bool
) -> None:
    context = browser.new_context(viewport=size)
    page = context.new_page()
    page.goto(server.url + "/")
    expect(page.locator("#create")).to_be_visible()
    expect(page.locator("#play-nav")).to_have_attribute("aria-current", "page")
    button = page.locator("#menu")
    if menu:
        expect(page.locator("#lobby-nav")).to_be_hidden()
        expect(button).to_have_attribute("aria-expanded", "false")
        button.click()
        expect(button).to_have_attribute("aria-expanded", "true")
        assert serious(page) == []
    else:
        expect(button).to_be_hidden()
    links = page.locator("header nav.site a")
    expect(links).to_have_text(
        [
            "Play",
            "Lobby",
            "Learn",
            "Puzzles",
            "Practice",
            "Leaderboard",
            "Keep score",
            "Tournaments",
        ]
    )
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert hrefs == [
        "/",
        "/lobby",
        "/learn",
        "/puzzles",
        "/practice",
        "/leaderboard",
        "/keep",
        "/tournaments",
    ]
    page.click("#puzzles-nav")
    expect(page).to_have_url(re.compile(r"/puzzles$"))
    expect(page.locator("#puzzles-nav")).to_have_attribute("aria-current", "page")
    expect(page.locator("#play-nav")).not_to_have_attribute("aria-current", "page")
    expect(page.locator("#where")).to_be_empty()  # named once, by the link
    if menu:
        page.keyboard.press("Escape")
        page.click("#menu")
        page.keyboard.press("Escape")  # Esc closes the menu and gives the focus back
        expect(page.locator("#menu")).to_be_focused()
        expect(page.locator("#lobby-nav")).to_be_hidden()
    context.close()


def test_learn_and_puzzles_lead_to_the_class_view_and_printing(
    server: Server, browser: Browser
) -> None:
    context = browser.new_context(viewport=SIZES["1366x768"])
    page = context.new_page()
    for path in ("/learn", "/puzzles"):
        page.goto(server.url + path)
        expect(page.locator("#class-link")).to_have_attribute("href", "/class")
        expect(page.locator("#print-link")).to_have_attribute(
            "href", re.compile(r"^/puzzles/print")
        )
    page.click("#class-link")
    expect(page).to_have_url(re.compile(r"/class$"))
    context.close()


def test_touch_screens_get_44_px_targets(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=SIZES["390x844"], has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(server.url + "/")
    expect(page.locator("#create")).to_be_visible()
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    selects = page.locator("main select:visible")
    assert selects.count() >= 2
    for i in range(selects.count()):
        assert box(page, f"main select:visible >> nth={i}")["height"] >= 44
    on_a_turn(server, page)
    targets = page.locator("#rack button.tile, #controls button, #controls input, header button")
    for i in range(targets.count()):
        if targets.nth(i).is_visible():
            b = targets.nth(i).bounding_box()
            assert b is not None and b["height"] >= 44, (i, b)
    assert out_of_view(page, SIZES["390x844"]) == []
    context.close()


def luminance(colour: str) -> float:
    """The relative luminance (WCAG) of a computed rgb()/rgba() colour."""
    parts = [float(x) for x in re.findall(r"[\d.]+", colour)[:3]]
    linear = [
        c / 255 / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in parts
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


RINGS = """() => {
  const seen = {};
  for (const cell of document.querySelectorAll('#board .cell')) {
    const kind = [...cell.classList].find(k => k !== 'cell' && k !== 'legal' && k !== 'cursor');
    if (!kind || seen[kind] || cell.querySelector('.tok')) continue;
    cell.classList.add('legal');
    const s = getComputedStyle(cell);
    seen[kind] = { square: s.backgroundColor, outline: s.outlineColor, width: s.outlineWidth,
      shadow: s.boxShadow };
    cell.classList.remove('legal');
  }
  return seen;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("variant", ["classic", "junior"])
def test_a_legal_cell_is_seen_on_every_square(
    server: Server, browser: Browser, scheme: Literal["light", "dark"], variant: str
) -> None:
    context = browser.new_context(viewport=SIZES["1366x768"], color_scheme=scheme)
    page = context.new_page()
    against_the_computer(server, page, variant=variant)
    rings: dict[str, Any] = page.evaluate(RINGS)
    # every kind a legal cell can be (the centre squares hold the first tokens)
    kinds = {"plain", "restriction", "x2"} | ({"x3"} if variant == "classic" else set())
    assert kinds <= set(rings), rings
    for kind, ring in rings.items():
        shadow = re.match(r"(rgba?\([^)]*\))", ring["shadow"])
        assert shadow is not None and float(ring["width"].rstrip("px")) >= 3, (kind, ring)
        best = max(contrast(ring["outline"], ring["square"]), contrast(shadow[1], ring["square"]))
        assert best >= 3, (kind, ring, best)
        # and the two rings against each other: the ring is seen as one mark
        assert contrast(ring["outline"], shadow[1]) >= 3, (kind, ring)
    context.close()


@pytest.mark.parametrize("width", [1366, 1920])
def test_a_laptop_shows_every_link_in_one_row(server: Server, browser: Browser, width: int) -> None:
    """Eight links, the account and the settings beside the brand: one row from 1366 px
    (the Tournaments link first made it two), no Menu."""
    page = browser.new_page(viewport={"width": width, "height": 720})
    page.goto(f"{server.url}/")
    expect(page.locator("#create")).to_be_visible()
    expect(page.locator("#menu")).to_be_hidden()
    header = page.locator("header").bounding_box()
    assert header is not None and header["height"] < 60, (width, header)
    links = page.locator("header nav.site a")
    for i in range(links.count()):
        expect(links.nth(i)).to_be_visible()
    page.close()
