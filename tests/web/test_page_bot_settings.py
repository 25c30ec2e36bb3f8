"""A person makes their account a bot account from its settings (issue 36): two presses,
the token shown once with the command that runs ``examples/bot.py`` on it; the token
opens the Bot API; a new token replaces it and a revoked one opens nothing."""

from __future__ import annotations

import secrets

import httpx2
from playwright.sync_api import Browser, expect

from support import oneoff
from support.browser import DESKTOP, serious
from support.online import sign_up
from webserver import Server


def account_of(server: Server, token: str) -> httpx2.Response:
    return oneoff.get(server.url + "/api/account", headers={"Authorization": f"Bearer {token}"})


def test_an_account_becomes_a_bot_account_from_its_settings(
    server: Server, browser: Browser
) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(server.url + "/")
    name = "Robo" + secrets.token_hex(3)
    me = sign_up(page, name)
    page.goto(f"{server.url}/players/{me}")
    expect(page.locator("#bot-settings")).to_be_visible()
    expect(page.locator("#bot-sure")).to_be_hidden()
    page.click("#bot-make")  # a second press, for good: it cannot be undone
    expect(page.locator("#bot-sure")).to_be_focused()
    page.click("#bot-sure")
    token_field = page.locator("#bot-token")
    expect(token_field).to_be_visible()
    token = token_field.input_value()
    assert len(token) >= 40
    expect(page.locator("#bot-command")).to_contain_text(f"--token {token}")
    expect(page.locator("#settings-status")).to_contain_text("bot account")
    assert serious(page) == []
    opened = account_of(server, token)
    assert opened.status_code == 200 and opened.json()["name"] == name
    assert opened.json()["bot_account"] is True

    page.reload()  # a bot account's settings: a new token, or none
    expect(page.locator("#bot-make")).to_have_count(0)
    page.click("#bot-new-token")
    fresh = page.locator("#bot-token").input_value()
    assert fresh != token
    assert account_of(server, token).status_code == 401  # the old one opens nothing
    assert account_of(server, fresh).status_code == 200
    page.click("#bot-revoke")
    expect(page.locator("#settings-status")).to_contain_text("revoked")
    expect(page.locator("#bot-token")).to_have_count(0)
    assert account_of(server, fresh).status_code == 401
    assert serious(page) == []
    page.context.close()
