"""House rules in the lobby (issue 15, "Lobby": seeks with their house rules) in a real
browser: the form offers the chosen game's house rules, the seek's row shows those
chosen, and a rated seek with hints is refused with the server's reason, nothing
offered (fair play, O2). Fixtures come from ``test_browser``."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from support.browser import lobby, serious
from webserver import Server


def test_seeks_carry_house_rules_and_rated_ones_refuse_hints(
    server: Server, browser: Browser
) -> None:
    ann = lobby(browser, server, "Ann")
    rules = ann.locator("#seek-rules input")
    offered = {box.get_attribute("data-rule") for box in rules.all()}
    assert {"hints", "allow_undo", "table_referee"} <= offered  # classic's
    ann.select_option("#seek-variant", "quattro")
    quattro = {box.get_attribute("data-rule") for box in rules.all()}
    assert "table_referee" not in quattro and quattro != offered
    ann.select_option("#seek-variant", "classic")
    assert serious(ann) == []

    ann.check("#seek-rule-hints")
    ann.check("#seek-rated")  # a guest: refused for the account first or for hints
    ann.click("#offer")
    expect(ann.locator("#message")).to_contain_text("house_rules.hints")
    expect(ann.locator("#seek-rows tr", has_text="Ann")).to_have_count(0)

    ann.uncheck("#seek-rated")
    ann.uncheck("#seek-rule-hints")
    ann.check("#seek-rule-table_referee")
    ann.click("#offer")
    expect(ann.locator("#message")).to_contain_text("Your seek is open")
    bob = lobby(browser, server, "Bob")
    expect(bob.locator("#seek-rows tr", has_text="Ann")).to_contain_text("casual, table referee")
