"""Account settings in the browser (issue 30, "Sessions kept on the server"): my own
profile lists the browsers logged in as me (this one marked), logs another out, logs out
everywhere else (this browser stays) and changes the password, which ends the other
sessions. axe finds nothing serious on the settings. Fixtures come from ``test_browser``."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, BrowserContext, expect

from support.browser import DESKTOP, PHONE, serious
from webserver import Server

PASSWORD = "correct horse battery"
NEW_PASSWORD = "a new horse staple"


def logged_in(browser: Browser, server: Server, agent: str, *, make: bool) -> BrowserContext:
    """A browser of its own (``agent`` its User-Agent) logged in as Ivy (made first)."""
    context = browser.new_context(viewport=DESKTOP, user_agent=agent)
    body = {"name": "Ivy Settings", "password": PASSWORD}
    context.request.get(server.url + "/api/me")
    answer = context.request.post(
        server.url + ("/api/accounts" if make else "/api/session"), data=body
    )
    assert answer.ok, answer.text()
    return context


def account(context: BrowserContext, server: Server) -> bool:
    me = context.request.get(server.url + "/api/me").json()
    return bool(me["account"])


def test_my_sessions_are_listed_and_ended_from_my_profile(server: Server, browser: Browser) -> None:
    phone = logged_in(browser, server, "Phone browser/1.0", make=True)
    laptop = logged_in(browser, server, "Laptop browser/2.0", make=False)
    tablet = logged_in(browser, server, "Tablet browser/3.0", make=False)
    me = phone.request.get(server.url + "/api/me").json()
    page = phone.new_page()
    page.goto(server.url + "/players/" + me["id"])
    settings = page.locator("#account-settings")
    expect(settings.get_by_role("heading", name="Account settings")).to_be_visible()
    rows = page.locator("#sessions-rows tr")
    expect(rows).to_have_count(3)
    expect(page.locator("#sessions-rows tr.current")).to_contain_text("Phone browser/1.0")
    expect(page.locator("#sessions-rows tr.current")).to_contain_text("this browser")
    assert serious(page) == []

    # one browser logged out from here
    page.locator("#sessions-rows tr", has_text="Tablet browser/3.0").get_by_role("button").click()
    expect(page.locator("#settings-status")).to_have_text("That browser is logged out.")
    expect(rows).to_have_count(2)
    assert not account(tablet, server) and account(laptop, server)

    # everywhere else: the laptop is logged out, this browser stays
    page.click("#logout-everywhere")
    expect(page.locator("#settings-status")).to_have_text(
        "Logged out everywhere else: 1 session ended."
    )
    expect(rows).to_have_count(1)
    assert not account(laptop, server) and account(phone, server)
    page.reload()
    expect(page.locator("#me-name")).to_have_text("Ivy Settings")
    expect(rows).to_have_count(1)

    # a new password: a wrong current one is refused, then every other session ends
    again = logged_in(browser, server, "Laptop browser/2.0", make=False)
    page.reload()
    expect(rows).to_have_count(2)
    page.fill("#password-current", "not my password")
    page.fill("#password-new", NEW_PASSWORD)
    page.click("#password-submit")
    expect(page.locator("#settings-status")).to_contain_text("current")
    assert account(again, server)
    page.fill("#password-current", PASSWORD)
    page.fill("#password-new", NEW_PASSWORD)
    page.click("#password-submit")
    expect(page.locator("#settings-status")).to_have_text(
        re.compile("Your password is changed: 1 other session ended.")
    )
    expect(rows).to_have_count(1)
    assert not account(again, server) and account(phone, server)
    assert serious(page) == []
    for context in (phone, laptop, tablet, again):
        context.close()


def test_the_settings_fit_a_phone_and_are_only_on_my_own_profile(
    server: Server, browser: Browser
) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    context.request.get(server.url + "/api/me")
    made = context.request.post(
        server.url + "/api/accounts", data={"name": "Jon Settings", "password": PASSWORD}
    ).json()
    page.goto(server.url + "/players/bot-strong")  # someone else's profile: no settings
    expect(page.locator("#profile-name")).to_be_visible()
    expect(page.locator("#account-settings")).to_have_count(0)
    page.goto(server.url + "/players/" + made["id"])
    expect(page.locator("#sessions-rows tr")).to_have_count(1)
    wide = page.evaluate(
        "(e => [e.scrollWidth, e.clientWidth])(document.getElementById('account-settings'))"
    )
    assert wide[0] <= wide[1] <= PHONE["width"], f"the settings overflow: {wide} px"
    assert serious(page) == []
    page.click("#menu")  # on a phone the header's Menu holds Log out
    page.click("#logout")  # logged out here: the settings go
    expect(page.locator("#account-settings")).to_have_count(0)
    context.close()
