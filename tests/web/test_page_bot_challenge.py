"""The issue's "Done when" (issue 36): ``examples/bot.py`` runs against a real
``mathable serve``, a person signs up in chromium, challenges the bot from its profile
page, the bot accepts, and both play a game of Junior to its end: the person by clicks
on the rack and the board, the bot with the package's greedy level. The game page marks
the bot account's name BOT, and only its (issue 36: a follow-up)."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import time
from pathlib import Path
from typing import cast

import httpx2
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from support import oneoff
from support.browser import DESKTOP, play_one_turn, serious, shot
from support.online import sign_up
from webserver import Server

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bot.py"


def seat_view(page: Page, game_id: str) -> dict[str, object]:
    """The person's view, read with the page's own cookie."""
    text = page.evaluate("id => fetch('/api/games/' + id).then(r => r.text())", game_id)
    found: dict[str, object] = json.loads(text)
    return found


def test_a_person_challenges_the_bot_and_they_play_to_the_end(
    server: Server, browser: Browser
) -> None:
    owner = httpx2.Client(base_url=server.url, timeout=10)
    name = "Bot" + secrets.token_hex(3)
    made = owner.post("/api/accounts", json={"name": name, "password": "secret-pass-1"})
    assert made.status_code == 201, made.text
    token = owner.post("/api/account/bot", headers={"X-Requested-With": "t"}).json()["token"]
    me = oneoff.get(server.url + "/api/account", headers={"Authorization": f"Bearer {token}"})
    bot_id = me.json()["id"]
    command = [sys.executable, str(EXAMPLE), "--url", server.url, "--token", token]
    program = subprocess.Popen(
        [*command, "--level", "greedy", "--variants", "junior", "--once"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.goto(server.url + "/")
        sign_up(page, "Ann" + secrets.token_hex(3))
        page.goto(f"{server.url}/players/{bot_id}")
        expect(page.locator("#bot-account .bot-badge")).to_have_text("BOT")
        page.select_option("#challenge-variant", "junior")
        assert serious(page) == []
        page.click("#challenge-send")
        try:  # the bot accepts from its event stream (a bound, not a speed test)
            page.wait_for_url("**/g/*", timeout=120_000)
        except PlaywrightTimeout:
            program.kill()
            said = program.stdout.read().decode(errors="replace") if program.stdout else ""
            raise AssertionError(f"the bot never accepted; it said:\n{said}") from None
        game_id = page.url.rpartition("/g/")[2].split("?")[0]
        deadline = time.monotonic() + 240  # a bound, not a speed test
        view = seat_view(page, game_id)
        seats = cast(list[dict[str, object]], view["seats"])
        mine = cast(int, view["seat"])
        assert [seat["bot_account"] for seat in seats] == [i != mine for i in range(len(seats))]
        badge = page.locator("#scores .bot-badge")  # beside the bot account's name
        expect(badge).to_have_count(1)
        expect(badge).to_have_text("BOT")
        expect(badge).to_be_visible()
        row = page.locator("#scores tr").nth(1 - mine)  # issue 36: the bot's name only
        expect(row.locator(".bot-badge")).to_have_count(1)
        assert serious(page) == []  # axe-core: the badge is read as its word
        while not view["over"] and time.monotonic() < deadline:
            if view["to_move"] == view["seat"] and page.locator("#end, #pass").count():
                play_one_turn(page)
            else:
                page.wait_for_timeout(250)
            view = seat_view(page, game_id)
        assert view["over"], "the game did not end"
        expect(page.locator("#winner")).to_be_visible(timeout=15_000)
        expect(page.locator("#scores .bot-badge")).to_have_text("BOT")
        shot(page, "bot-challenge-over")
        assert program.wait(60) == 0
    finally:
        if program.poll() is None:
            program.kill()
        output = program.communicate()[0].decode(errors="replace")
        print(output[-3000:])
