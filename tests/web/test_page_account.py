"""Accounts in the browser (issue 15, "Players"): the header of every page shows who the
session is; a guest makes an account in a dialog (their name kept, shown as typed), logs
out (a new guest) and logs in again; a wrong password is refused in the dialog with the
server's reason and changes nothing. axe finds nothing serious with the dialog open.
Fixtures come from ``test_browser``."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from support.browser import DESKTOP, PHONE, serious
from webserver import Server

NAME = "Zoë_Ünal-2"  # accents, _ and -: a name as typed (markup is refused: issue 30)
MARKUP = "<b>Zoë</b> [bold]"


def test_a_guest_makes_an_account_logs_out_and_in(server: Server, browser: Browser) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(server.url + "/lobby")
    expect(page.locator("#me-name")).to_have_text(re.compile(r"^Guest "))
    expect(page.locator("#lobby-nav")).to_have_attribute("aria-current", "page")
    expect(page.locator("#where")).to_have_text("")  # named once, in the navigation
    guest = page.locator("#me-name").get_attribute("href")
    page.click("#signup")
    dialog = page.get_by_role("dialog", name="Make an account")
    expect(dialog).to_be_visible()
    assert serious(page) == []
    page.fill("#account-name", MARKUP)  # refused, and the refusal shows it as text
    page.fill("#account-password", "correct horse")
    page.click("#account-submit")
    expect(dialog.get_by_role("alert")).to_contain_text(MARKUP)
    page.fill("#account-name", NAME)
    page.fill("#account-password", "short")
    page.click("#account-submit")  # the browser's own check: 8 characters at least
    expect(dialog).to_be_visible()
    page.fill("#account-password", "correct horse")
    page.click("#account-submit")
    expect(dialog).to_be_hidden()
    expect(page.locator("#me-name")).to_have_text(NAME)
    assert page.locator("#me-name").get_attribute("href") == guest  # the same player
    expect(page.locator("#live")).to_contain_text("Your account")

    page.click("#logout")
    expect(page.locator("#me-name")).to_have_text(re.compile(r"^Guest "))
    assert page.locator("#me-name").get_attribute("href") != guest

    page.click("#login")
    expect(page.get_by_role("dialog", name="Log in")).to_be_visible()
    page.fill("#account-name", NAME.upper())  # names are one whatever their case
    page.fill("#account-password", "wrong horse")
    page.click("#account-submit")
    expect(page.locator("#account-error")).to_have_text("wrong name or password")
    expect(page.locator("#me-name")).to_have_text(re.compile(r"^Guest "))
    page.fill("#account-password", "correct horse")
    page.click("#account-submit")
    expect(page.locator("#me-name")).to_have_text(NAME)
    assert page.locator("#me-name").get_attribute("href") == guest
    page.reload()  # the cookie keeps the account
    expect(page.locator("#me-name")).to_have_text(NAME)
    expect(page.locator("#logout")).to_be_visible()
    page.context.close()


def test_the_header_fits_a_phone(server: Server, browser: Browser) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.url + "/")
    expect(page.locator("#signup")).to_be_hidden()  # one row: the header's Menu holds it
    page.click("#menu")
    expect(page.locator("#signup")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways: {width} px"
    assert serious(page) == []
    page.context.close()
