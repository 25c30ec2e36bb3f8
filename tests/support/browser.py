"""The browser tests' helpers: Debian's chromium (its headless shell) and its flags,
screenshots, games made over the API of a real server (:mod:`webserver`), turns played
by clicks, axe-core's serious violations, and the window sizes of the page tests."""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, ViewportSize, expect

from mathable import i18n
from mathable.learn import puzzles as mined
from support import oneoff
from webserver import Server

# Debian's build of chromium's headless shell: the browser without a window, the one
# Playwright's own headless mode runs. The full browser in headless mode drew the same
# pages at twice the CPU (tests/README.md), and the browser tests are most of the suite's.
CHROMIUM = "/usr/bin/chromium-headless-shell"


FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


ROOT = Path(__file__).resolve().parents[2]


SHOTS = ROOT / "artifacts" / "screenshots"


def page_fetch(page: Page, path: str, body: Any = None, method: str | None = None) -> Any:
    """The JSON answer to a request sent by the page's own ``fetch``, as its scripts send
    it (a POST when there is a body), with the browser's cookie. ``page.request`` copies
    the browser's cookies into a client of its own and can miss one just set: a game made
    that way was once made without the cookie, its seat bound to nobody. Refusals raise."""
    status, answer = page.evaluate(
        """async ([path, method, body]) => {
            const options = {method, headers: {"Content-Type": "application/json",
                                               "X-Requested-With": "mathable"}};
            if (body !== null) options.body = JSON.stringify(body);
            const answer = await fetch(path, options);
            return [answer.status, await answer.json()];
        }""",
        [path, method or ("GET" if body is None else "POST"), body],
    )
    assert 200 <= status < 300, (path, status, answer)
    return answer


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    if os.environ.get("MATHABLE_DOCS_SCREENSHOTS"):
        shutil.copy(path, ROOT / "docs" / f"web-{name}.png")


def create(
    server: Server, players: list[dict[str, Any]], seed: int | None = 5, **spec: Any
) -> dict[str, Any]:
    """A game; with a seed, one at one screen or against the computer (O1)."""
    body = {"variant": "classic", "players": players, "seed": seed, **spec}
    if seed is not None:
        body.setdefault("mode", "screen")
    response = oneoff.post(server.url + "/api/games", json=body)
    assert response.status_code == 201, response.text
    found: dict[str, Any] = response.json()
    return found


def api_turn(server: Server, game_id: str, tokens: list[str]) -> int:
    """The seat to move plays a turn over the API (its first legal placement, then ends
    its turn if it must; a pass if nothing fits); returns that seat."""
    url = f"{server.url}/api/games/{game_id}"
    mover = int(oneoff.get(url).json()["to_move"])
    token = tokens[mover]
    legal = oneoff.get(url, params={"token": token}).json()["legal"]
    placement = next((a for a in legal if "=" in a), None)
    answer = oneoff.post(url + "/actions", json={"token": token, "action": placement or "pass"})
    assert answer.status_code == 200, answer.text
    if answer.json()["to_move"] == mover and not answer.json()["over"]:
        ended = oneoff.post(url + "/actions", json={"token": token, "action": "end"})
        assert ended.status_code == 200, ended.text
    return mover


def first_moves(server: Server, game_id: str, tokens: list[str]) -> None:
    """Every seat makes its first move over the API (ruling O4: from then on the clocks
    run, and a seat may resign or be claimed against)."""
    for _seat in tokens:
        api_turn(server, game_id, tokens)


def play_one_turn(page: Page) -> str:
    """Pick rack tokens and click lit cells until the turn ends; returns the first move."""
    first = ""
    for _ in range(8):
        if page.locator("#end").count() == 0 and page.locator("#pass").count() == 0:
            return first
        placed = False
        for tile in range(page.locator("#rack button.tile").count()):
            page.locator("#rack button.tile").nth(tile).click()
            legal = page.locator(".cell.legal")
            if legal.count():
                cell = legal.first.get_attribute("data-cell") or ""
                value = page.locator("#rack button.tile").nth(tile).inner_text()
                legal.first.click()
                if page.locator("#modal:not([hidden]) #no").count():
                    page.click("#no")
                first = first or f"{cell}={value}"
                page.wait_for_timeout(150)
                placed = True
                break
            page.locator("#rack button.tile").nth(tile).click()  # unpick
        if not placed:
            page.click("#end" if page.locator("#end").count() else "#pass")
            page.wait_for_timeout(150)
            return first
        if page.locator("#end").count() and page.locator("#rack button.tile").count() <= 4:
            page.click("#end")
            page.wait_for_timeout(150)
            return first
    return first


DESKTOP: ViewportSize = {"width": 1100, "height": 850}


PHONE: ViewportSize = {"width": 390, "height": 844}
"""The page tests' window sizes (the phone is the issue's 390×844)."""


def against_the_computer(server: Server, page: Page, variant: str = "classic") -> dict[str, Any]:
    """Ann against a computer player, Ann's page open on her turn (shared by the page
    tests)."""
    made = create(
        server, [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}], seed=14, variant=variant
    )
    page.goto(f"{server.url}/g/{made['id']}?t={made['seats'][0]['token']}")
    expect(page.locator("#notation")).to_be_visible()
    return made


def play_out(
    server: Server, players: list[dict[str, Any]], seed: int, seconds: float = 60
) -> dict[str, Any]:
    """The public view of a game of computer players, once they have played it to its end
    (polled: the real server's computers play on; ``seconds`` bounds the wait, it is not
    a speed test)."""
    made = create(server, players, seed=seed)
    deadline = time.monotonic() + seconds
    view: dict[str, Any] = oneoff.get(f"{server.url}/api/games/{made['id']}").json()
    while not view["over"] and time.monotonic() < deadline:
        time.sleep(0.25)
        view = oneoff.get(f"{server.url}/api/games/{made['id']}").json()
    assert view["over"], "the computer players did not finish the game"
    return view


def serious(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page, as id: targets."""
    results = Axe().run(page)
    return [
        f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def both_have_played(server: Server, page: Page) -> tuple[dict[str, Any], dict[str, Any]]:
    """Ann's page after her turn and the computer's: the game and Ann's view."""
    made = against_the_computer(server, page)
    play_one_turn(page)  # Ann's turn, then the computer's
    expect(page.locator("#notation")).to_be_visible()
    token = made["seats"][0]["token"]
    url = f"{server.url}/api/games/{made['id']}?token={token}"
    view = oneoff.get(url).json()
    for _ in range(100):  # the computer's reply may still be on its way
        if view["to_move"] == 0 and all(view["last_turns"]):
            break
        page.wait_for_timeout(150)
        view = oneoff.get(url).json()
    assert all(view["last_turns"]), view["last_turns"]
    expect(page.locator(".cell.last.by-s1").first).to_be_visible()
    return made, view


def lobby(browser: Browser, server: Server, name: str) -> Page:
    """A browser of its own on the lobby, renamed ``name``."""
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(server.url + "/lobby")
    expect(page.locator("#seek-form")).to_be_visible()
    page.fill("#my-name", name)
    page.click("#rename-button")
    expect(page.locator("#message")).to_contain_text(f"You are now {name}")
    return page


def play_answer(page: Page, puzzle: mined.Puzzle) -> None:
    """Place the engine's answer through the rack and the board, then check it."""
    for placement in puzzle.answer.split():
        cell, value = placement.split("=")
        page.locator(f"#rack button[data-value='{value}']").first.click()
        page.locator(f"#board button[data-cell='{cell}']").click()
    page.locator("#puzzle-check").click()


NAMES = ("Zoé", "Ødo")
"""Players' names: shown as typed, and no word of any language."""


ALLOWED = {"Mathable", "Junior", "Quattro", "DIAGO", "qps", "Ann", "Bob", *i18n.LANGUAGES.values()}
"""Words that are the same in every language: the games' names, Quattro's DIAGO, the
players of the rulebook's worked example (the guided game), and the languages of the
switch, each named in itself."""


def english_left(text: str) -> list[str]:
    """The words of ``text`` outside ⟦ ⟧ (nested ones too) that are words, not notation,
    numbers, the players' names or the games' names."""
    outside, depth = [], 0
    for char in text:
        if char == "⟦":
            depth += 1
            outside.append(" ")
        elif char == "⟧":
            depth = max(0, depth - 1)
            outside.append(" ")
        elif depth == 0:
            outside.append(char)
    words = re.findall(r"[A-Za-zÀ-ÿ]{2,}", "".join(outside))
    return [w for w in words if w not in ALLOWED and w not in NAMES and not w.isupper()]


CORE = """async () => {
  const src = document.querySelector('script[type=module]').src;
  const joined = await import(src);
  return joined.module ? joined.module('core.js') : await import(src.replace(/[^/]+$/, 'core.js'));
}"""
"""The page's own ``core.js`` (issue 32): in its joined script, else by its hashed name."""


def held(page: Page) -> dict[str, Any]:
    """The view the page holds (its state, read from its own module)."""
    view: dict[str, Any] = page.evaluate(f"async () => (await ({CORE})()).state.view")
    return view


def settled(page: Page, seq: int) -> dict[str, Any]:
    """The page's view once it has caught up with action ``seq`` (polled, bounded)."""
    deadline = time.monotonic() + 10
    view = held(page)
    while view["seq"] != seq and time.monotonic() < deadline:
        page.wait_for_timeout(50)
        view = held(page)
    return view


def socket_caught_up(page: Page) -> None:
    """Every frame the page has sent on its game's socket handled by the server: a
    ``sync`` sent after them is answered after them (the server reads a socket's frames
    in order), so checking that the page sent nothing needs no fixed wait."""
    page.evaluate(
        f"""async () => {{
          const socket = (await ({CORE})()).state.socket;
          if (!socket || socket.readyState !== WebSocket.OPEN) throw new Error('no open socket');
          await new Promise((done, fail) => {{
            const later = setTimeout(() => fail(new Error('no answer to the sync')), 10000);
            const heard = event => {{
              if (JSON.parse(event.data).type !== 'view') return;
              socket.removeEventListener('message', heard);
              clearTimeout(later);
              done();
            }};
            socket.addEventListener('message', heard);
            socket.send(JSON.stringify({{ type: 'sync' }}));
          }});
        }}"""
    )


def redrawn(page: Page, done: Callable[[], bool], seconds: float = 5.0) -> None:
    """Wait (polled, bounded: not a speed test) until ``done()`` holds, e.g. the page has
    redrawn after a resize; the caller then asserts it as before."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        page.wait_for_timeout(25)
