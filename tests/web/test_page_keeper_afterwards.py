"""After a kept game, on the keeper's page at a phone's size (issue 37): the analysis
table (turn, player, played, points, best, best points, lost) and the game record's
download, axe-clean at 390×844 and in every language (the pseudo-language shows any text
left in English). Screenshot: ``web-keeper-analysis.png`` (MATHABLE_DOCS_SCREENSHOTS=1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, ViewportSize, expect

from mathable import i18n
from mathable.engine.protocol import Game
from mathable.games.registry import from_record
from support import oneoff
from support.browser import english_left, serious, shot
from support.kept import random_game
from webserver import Server

PHONE: ViewportSize = {"width": 390, "height": 844}


def keep(server: Server, game: Game) -> dict[str, Any]:
    """``game`` entered into a new kept game through the API, as a table would, then its
    end: the kept game's id and token."""
    turns = game.summaries()
    made: dict[str, Any] = oneoff.post(
        f"{server.url}/api/keeper",
        json={
            "variant": game.name,
            "players": list(game.players),
            "first": game.players[turns[0].seat],
        },
    ).json()
    url, token = f"{server.url}/api/keeper/{made['id']}", made["token"]
    for turn in turns:
        body: dict[str, Any] = {"token": token}
        if turn.notation == "pass":
            body["pass"] = True
        elif turn.notation.startswith("exchange"):
            body["exchange"] = len(turn.notation.split(" ", 1)[1].split(","))
        else:
            body["placements"] = turn.notation.split()
        assert oneoff.post(f"{url}/turns", json=body).status_code == 200
    left = [list(game.rack(seat)) for seat in range(len(game.players))]
    assert oneoff.post(f"{url}/end", json={"token": token, "left": left}).status_code == 200
    return made


def fits_a_phone(page: Page) -> None:
    """No horizontal scroll of the page; every control a 44 px target."""
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('#keep-over button, #keep-over a')]
        .filter(el => el.offsetParent).map(el => [el.getBoundingClientRect().width,
        el.getBoundingClientRect().height, el.id])"""
    )
    for width, height, name in sizes:
        assert height >= 44 - 0.5 and width >= 44 - 0.5, (name, width, height)


def test_the_analysis_and_the_record_after_the_game(server: Server, browser: Browser) -> None:
    game = random_game("classic", 0, 2)
    made = keep(server, game)
    analysed = oneoff.get(f"{server.url}/api/keeper/{made['id']}/analysis").json()
    page = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    page.goto(f"{server.url}/keep/{made['id']}#{made['token']}")
    table = page.locator("#keep-analysis-table")
    expect(table.locator("tr")).to_have_count(1 + len(analysed["turns"]))
    lost = next(t for t in analysed["turns"] if t["lost"])
    row = table.locator("tr").nth(1 + analysed["turns"].index(lost))
    expect(row).to_contain_text(lost["best"])
    expect(row.locator("td").last).to_have_text(str(lost["lost"]))
    fits_a_phone(page)
    assert serious(page) == []
    page.locator("#keep-analysis").evaluate("el => el.scrollIntoView()")
    shot(page, "keeper-analysis")
    with page.expect_download() as downloading:
        page.click("#keep-record")
    record = Path(downloading.value.path()).read_text(encoding="utf-8")
    assert list(from_record(record).scores) == list(game.scores)
    page.context.close()


def test_a_record_the_rules_cannot_replay_shows_why(server: Server, browser: Browser) -> None:
    made = oneoff.post(f"{server.url}/api/keeper", json={"players": ["Ann", "Bob"]}).json()
    url = f"{server.url}/api/keeper/{made['id']}"
    oneoff.post(f"{url}/turns", json={"token": made["token"], "placements": ["I8=12"]})
    oneoff.post(f"{url}/end", json={"token": made["token"], "left": [[5] * 7, [6] * 7]})
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{server.url}/keep/{made['id']}#{made['token']}")
    page.click("#keep-record")
    expect(page.locator("#message")).to_contain_text("C11")
    expect(page.locator("#keep-analysis-table tr")).to_have_count(2)
    page.context.close()


def test_the_analysis_is_translated(server: Server, browser: Browser) -> None:
    made = keep(server, random_game("junior", 3, 2))
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "lang", "value": i18n.PSEUDO, "url": server.url}])
    page = context.new_page()
    page.goto(f"{server.url}/keep/{made['id']}#{made['token']}")
    expect(page.locator("#keep-analysis-table")).to_be_visible()
    shown = page.locator("#keep-analysis").inner_text() + page.locator("#keep-over").inner_text()
    assert english_left(shown) == []
    context.close()
