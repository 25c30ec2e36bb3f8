"""The score keeper's page for Quattro (/keep, issue 37) in a real browser at a phone's
size: the game offered from the keeper's games and drawn from its capabilities (piles,
rounds), the four cards turned up and the turns entered by taps (a pile, then the card's
value from the keypad of the unseen values), a refusal naming its rule (Q2), DIAGO, a
stuck turn (Q3), the round won (Q5) and the match's end; axe-clean, no horizontal
scroll."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, ViewportSize, expect

from mathable.games import registry
from support import oneoff
from support.browser import serious, shot
from support.kept import kept_quattro_copy, random_quattro
from webserver import Server

PHONE: ViewportSize = {"width": 390, "height": 844}


def tap_cards(page: Page, cards: list[str]) -> None:
    """Each card tapped: its pile, then its value on the keypad."""
    for card in cards:
        pile, value = card.split("=")
        page.click(f'#board .pile[data-cell="{pile}"]')
        page.click(f'#keypad .key[data-value="{value}"]')


def test_a_quattro_match_kept_by_taps_on_a_phone(server: Server, browser: Browser) -> None:
    page = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    page.goto(server.url + "/keep")
    expect(page.locator("#keep-variant option[value=quattro]")).to_have_count(1)
    page.select_option("#keep-variant", "quattro")
    expect(page.locator("#keep-rounds")).to_be_visible()
    expect(page.locator("#keep-referee")).to_be_hidden()  # Quattro has no challenges
    page.fill("#keep-name-0", "Louis")
    page.fill("#keep-name-1", "Zoé")
    page.select_option("#keep-first", "Louis")
    page.fill("#keep-rounds", "2")
    assert serious(page) == []
    page.click("#keep-start")
    expect(page.locator("#keep-prompt")).to_contain_text("Turn up four cards")
    found = re.search(r"/keep/([\w-]+)#", page.url)
    assert found, page.url

    tap_cards(page, ["A=1", "B=1", "C=1", "D=1"])
    page.click("#keep-end-turn")  # Start the match
    expect(page.locator("#keep-table")).to_contain_text("Round 1 of 2")
    expect(page.locator('#board .pile[data-cell="A"] .top')).to_have_text("1")
    assert serious(page) == []
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]

    # a refused card: the server's reason and rule, nothing recorded
    tap_cards(page, ["A=5"])
    page.click("#keep-end-turn")
    expect(page.locator("#message")).to_contain_text("rule Q2")
    page.click('#keep-pending [data-remove="A"]')

    tap_cards(page, ["A=2", "A=3"])
    page.click("#keep-end-turn")
    expect(page.locator("#keep-result")).to_contain_text("Louis: A=2 A=3")
    expect(page.locator("#keep-result")).to_contain_text("3 = 2 + 1")
    expect(page.locator("#keep-scores li.to-move")).to_contain_text("Zoé")

    # Zoé is stuck: DIAGO first, then the card drawn on pile C, and an exchange
    page.click("#keep-diago")
    tap_cards(page, ["C=50"])
    fits_a_phone(page)
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "keeper-quattro-phone")
    page.click("#keep-stuck-exchange")
    expect(page.locator("#keep-table")).to_contain_text("Zoé 8")
    expect(page.locator('#board .pile[data-cell="C"] .top')).to_have_text("50")
    expect(page.locator('#keypad .key[data-value="50"]')).to_have_count(0)  # none unseen

    tap_cards(page, ["A=4", "A=5", "A=4", "A=3", "A=2"])  # Louis empties his hand
    page.click("#keep-end-turn")
    expect(page.locator("#keep-result")).to_contain_text("won the round")
    expect(page.locator("#keep-table")).to_contain_text("Round 2 of 2")
    assert page.locator("#keep-scores .score").all_inner_texts() == ["1", "0"]
    assert serious(page) == []

    state = oneoff.get(f"{server.url}/api/keeper/{found[1]}").json()
    assert [t["notation"] for t in state["turns"]] == [
        "A=2 A=3",
        "diago draw C=50 exchange",
        "A=4 A=5 A=4 A=3 A=2",
    ]
    assert state["round_winners"] == [[0]] and state["to_move"] == 1


def fits_a_phone(page: Page) -> None:
    """No horizontal scroll; every control of the keeper a 44 px target."""
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('#keeper button, #keeper select, #keeper a')]
        .filter(el => el.offsetParent).map(el => [el.getBoundingClientRect().width,
        el.getBoundingClientRect().height, el.id || el.textContent])"""
    )
    for width, height, name in sizes:
        assert height >= 44 - 0.5 and width >= 44 - 0.5, (name, width, height)


def test_a_kept_match_over_offers_its_record_and_analysis(server: Server, browser: Browser) -> None:
    """A match entered through the API to its end: the page names the match's winner in
    rounds, offers the record (hands reconstructed) and shows the analysis in cards."""
    game = random_quattro(3, 2, 1)
    copy = kept_quattro_copy(game)
    made = oneoff.post(
        f"{server.url}/api/keeper", json={"variant": "quattro", "players": list(game.players)}
    ).json()
    for entry in [copy.log[0], *(t.notation for t in copy.turns)]:
        answer = oneoff.post(
            f"{server.url}/api/keeper/{made['id']}/turns",
            json={"token": made["token"], "placements": entry.split()},
        )
        assert answer.status_code == 200, answer.text
    page = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    page.goto(f"{server.url}/keep/{made['id']}#{made['token']}")
    expect(page.locator("#keep-over")).to_contain_text("Match over")
    expect(page.locator("#keep-record")).to_be_visible()
    expect(page.locator("#keep-analysis-title")).to_have_text(
        "Analysis: the best turn of the same cards"
    )
    expect(page.locator("#keep-analysis-table th").nth(3)).to_have_text("cards")
    assert serious(page) == []
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    record = oneoff.get(f"{server.url}/api/keeper/{made['id']}/record")
    assert list(registry.from_record(record.json()).scores) == list(game.scores)
