"""The analysis judged like a master, in a real browser (issue 35): the panel beside the
replay and the dialog at the game's end say the depth a report was judged at and switch
to the master's and back, the focus kept on the switch and the words said; axe finds
nothing serious at the master's depth."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from mathable.ai.master import MASTER_SAMPLES
from support import oneoff
from support.browser import serious, shot
from webserver import Server


def _samples(server: Server, game_id: str, depth: str) -> int:
    response = oneoff.get(
        f"{server.url}/api/games/{game_id}/analysis", params={"depth": depth}, timeout=120
    )
    assert response.status_code == 200, response.text
    samples: int = response.json()["method"]["samples"]
    return samples


def test_the_panel_switches_to_the_masters_depth_and_back(
    server: Server, page: Page, finished: dict[str, Any]
) -> None:
    expert = _samples(server, finished["id"], "expert")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/analysis" in r.url else None)
    page.goto(f"{server.url}/g/{finished['id']}?replay")
    line = page.locator("#analysis-panel .analysis-depth")
    expect(line).to_have_text(
        f"Judged at the expert's depth: {expert} samples a turn. Judge like the master",
        timeout=60000,
    )
    switch = line.get_by_role("button", name="Judge like the master")
    expect(switch).to_have_accessible_description(
        f"Judged at the expert's depth: {expert} samples a turn."
    )
    rows = page.locator("#analysis-rows tr[data-turn]").count()
    switch.click()
    expect(line).to_contain_text(
        f"Judged at the master's depth: {MASTER_SAMPLES} samples a turn.", timeout=120000
    )
    back = line.get_by_role("button", name="Back to the expert's judgement")
    expect(back).to_be_focused()
    expect(page.locator("#analysis-rows tr[data-turn]")).to_have_count(rows)
    assert any("depth=master" in url for url in asked), asked
    shot(page, "analysis-master-depth")
    assert serious(page) == []
    back.click()
    expect(line).to_contain_text(f"Judged at the expert's depth: {expert} samples a turn.")
    expect(line.get_by_role("button", name="Judge like the master")).to_be_focused()


def test_the_dialog_at_the_end_switches_depth_and_gives_the_focus_back(
    server: Server, browser: Browser, finished: dict[str, Any]
) -> None:
    context = browser.new_context()
    context.add_cookies([{"name": "lang", "value": "fr", "url": server.url}])
    page = context.new_page()
    page.goto(f"{server.url}/g/{finished['id']}")
    opener = page.locator("#analysis")
    opener.click()
    dialog = page.locator("#modal-box")
    expect(dialog.locator(".analysis-depth")).to_contain_text(
        "Jugé à la profondeur de l'expert", timeout=60000
    )
    dialog.get_by_role("button", name="Juger comme le maître").click()
    expect(dialog.locator(".analysis-depth")).to_contain_text(
        f"Jugé à la profondeur du maître : {MASTER_SAMPLES} échantillons par tour.",
        timeout=120000,
    )
    expect(dialog.get_by_role("button", name="Revenir au jugement de l'expert")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#modal")).to_be_hidden()
    expect(opener).to_be_focused()  # back where the reader opened it
    context.close()


def test_a_refused_switch_keeps_the_report_shown_and_says_why(
    server: Server, page: Page, finished: dict[str, Any]
) -> None:
    refusal = "too many analyses at the master's depth from your address: <b>try</b> later"
    page.route(
        "**/analysis?depth=master",
        lambda route: route.fulfill(status=429, json={"error": refusal}),
    )
    page.goto(f"{server.url}/g/{finished['id']}?replay")
    line = page.locator("#analysis-panel .analysis-depth")
    expect(line).to_contain_text("Judged at the expert's depth", timeout=60000)
    rows = page.locator("#analysis-rows tr[data-turn]").count()
    switch = line.get_by_role("button", name="Judge like the master")
    switch.click()
    expect(line.get_by_role("alert")).to_have_text(refusal)  # as typed, not as markup
    expect(line.locator("b")).to_have_count(0)
    expect(switch).to_be_enabled()
    expect(switch).to_be_focused()
    expect(switch).not_to_have_attribute("aria-busy", "true")
    expect(line).to_contain_text("Judged at the expert's depth")
    expect(page.locator("#analysis-rows tr[data-turn]")).to_have_count(rows)
