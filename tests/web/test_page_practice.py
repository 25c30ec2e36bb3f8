"""Practice on the web (issue 18): ``/practice`` chooses a level and starts a game against
the gentle computer; the game page's practice panel lists the cells each token fits (the
engine's legal placements), offers a free hint, and after the learner's turn shows the best
turn that was available, explained. axe-core finds no serious violation; the panel's API
refuses spectators, games without hints (O2), unknown levels."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Browser, expect

from mathable.engine.actions import Place
from mathable.games import registry
from support import oneoff
from support.browser import create, serious, shot
from webserver import Server


def test_practice_page_panel_and_review(server: Server, browser: Browser) -> None:
    page = browser.new_page()
    page.goto(server.url + "/practice?seed=5")
    expect(page.locator("#practice-form")).to_be_visible()
    assert page.locator('input[name="level"]').count() == 3
    assert serious(page) == []
    page.get_by_label(re.compile(r"\+ and − up to 20")).check()
    page.fill("#practice-name", "Zoé [b]")
    page.click("#practice-start")
    page.wait_for_url(re.compile(r"/g/[\w-]+\?screen=1&practice=plus-minus"))
    expect(page.locator("#practice-fits")).to_be_visible(timeout=30000)
    game_id = page.url.split("/g/")[1].split("?")[0]
    tokens = json.loads(page.evaluate(f"localStorage.getItem('mathable:{game_id}')"))
    token = tokens["0"]
    asked = f"{server.url}/api/games/{game_id}/practice"
    data = oneoff.get(asked, params={"level": "plus-minus", "token": token}, timeout=60).json()
    assert data["level"]["game"] == "junior" and data["review"] is None
    view = oneoff.get(f"{server.url}/api/games/{game_id}", params={"token": token}).json()
    assert view["players"][0] == "Zoé [b]"  # the name as typed
    record = oneoff.get(f"{server.url}/api/games/{game_id}/record", params={"token": token}).json()
    game = registry.from_record(record)
    fitting = {(f["value"], c) for f in data["fits"] for c in f["cells"]}
    legal = {
        (p.value, game.cell_names.name(p.cell))
        for p in game.legal_placements()
        if isinstance(p, Place)
    }
    assert fitting == legal
    first = data["fits"][0]
    expect(page.locator(f'#practice-fits li[data-value="{first["value"]}"]')).to_contain_text(
        f"{first['value']}: "
    )
    page.click("#practice-hint")
    expect(page.locator("#message")).to_contain_text("Hint:")
    shot(page, "practice-panel")
    assert serious(page) == []
    best = oneoff.get(f"{server.url}/api/games/{game_id}/hint", params={"token": token}).json()
    turn = best["turns"][0]["turn"].split()
    for placement in turn:
        page.fill("#notation", placement)
        page.press("#notation", "Enter")
        expect(page.locator("#moves")).to_contain_text(placement, timeout=10000)
    if page.locator("#end").count():
        page.fill("#notation", "end")
        page.press("#notation", "Enter")
    review = page.locator("#practice-review")
    expect(review).to_contain_text("The best turn was " + " ".join(turn), timeout=60000)
    expect(review).to_contain_text("You found it")
    expect(review).to_contain_text(" = ")  # the equations of its explanation
    shot(page, "practice-review")
    assert serious(page) == []
    page.close()


def test_practice_api_refusals(server: Server) -> None:
    made = create(server, [{"name": "Ann"}, {"name": "Bot", "bot": "gentle"}], seed=7)
    token = next(s["token"] for s in made["seats"] if s.get("token"))
    asked = f"{server.url}/api/games/{made['id']}/practice"
    ok = oneoff.get(asked, params={"level": "everything", "token": token}, timeout=60)
    assert ok.status_code == 200, ok.text
    assert {"level", "fits", "review", "turns"} <= set(ok.json())
    wrong = oneoff.get(asked, params={"level": "plus-minus", "token": token}, timeout=60)
    assert wrong.status_code == 422 and "not a practice game" in wrong.text
    unknown = oneoff.get(asked, params={"level": "x" * 21, "token": token})
    assert unknown.status_code == 422
    unknown = oneoff.get(asked, params={"level": "algebra", "token": token})
    assert unknown.status_code == 422 and "unknown practice level" in unknown.text
    watching = oneoff.get(asked, params={"level": "everything"})
    assert watching.status_code == 403
    online = create(
        server,
        [{"name": "Ann"}, {"name": "Bot", "bot": "gentle"}],
        seed=7,
        house_rules={"hints": False},
    )
    mine = next(s["token"] for s in online["seats"] if s.get("token"))
    off = oneoff.get(
        f"{server.url}/api/games/{online['id']}/practice",
        params={"level": "everything", "token": mine},
    )
    assert off.status_code == 403 and "hints are off" in off.text
    levels = oneoff.get(f"{server.url}/api/practice/levels").json()
    assert [level["name"] for level in levels] == ["plus-minus", "tables", "everything"]
    assert oneoff.get(f"{server.url}/practice").status_code == 200
