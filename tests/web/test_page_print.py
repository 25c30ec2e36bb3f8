"""Printable pages for teachers (issue 18): a puzzle set with its answer sheet and a
finished game with every turn explained, in a real browser (chromium), print media
emulated; the answers only through the printing route; bad parameters refused."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from support import oneoff
from support.browser import create, play_out, serious, shot
from webserver import Server


def test_the_print_route_gives_answers_and_the_list_does_not(server: Server) -> None:
    printed = oneoff.get(f"{server.url}/api/puzzles/print?band=hard&game=junior&count=4")
    assert printed.status_code == 200, printed.text
    sheet = printed.json()
    assert len(sheet) == 4
    assert all(p["band"] == "hard" and p["game"] == "junior" for p in sheet)
    assert all(p["answer"] and p["points"] == p["target"] and "surface" in p for p in sheet)
    listed = oneoff.get(f"{server.url}/api/puzzles?band=hard&game=junior&limit=4").json()
    assert [p["id"] for p in listed] == [p["id"] for p in sheet]  # the same puzzles...
    assert not any("answer" in p or "points" in p or "obvious" in p for p in listed)  # ...bare
    assert len(oneoff.get(f"{server.url}/api/puzzles/print").json()) == 12  # the default


@pytest.mark.parametrize(
    "query", ["count=25", "count=0", "count=many", "band=impossible", "game=quattro"]
)
def test_bad_print_parameters_are_refused_with_a_reason(server: Server, query: str) -> None:
    answer = oneoff.get(f"{server.url}/api/puzzles/print?{query}")
    assert answer.status_code == 422
    assert answer.json()["error"]
    assert oneoff.get(f"{server.url}/puzzles/print?{query}").status_code == 400


def test_the_set_page_shows_n_boards_and_the_answers_and_prints_without_header(
    server: Server, page: Page
) -> None:
    page.goto(f"{server.url}/puzzles/print?band=easy&game=classic&count=5")
    expect(page.locator("article.print-puzzle")).to_have_count(5)
    expect(page.locator("article.print-puzzle table.print-board")).to_have_count(5)
    expect(page.locator("#answers li")).to_have_count(5)
    expect(page.locator("article.print-puzzle").first).to_contain_text("Find a turn worth at least")
    expect(page.locator("#print-button")).to_be_visible()
    sheet = oneoff.get(f"{server.url}/api/puzzles/print?band=easy&game=classic&count=5").json()
    expect(page.locator("#answers li").first).to_contain_text(sheet[0]["answer"])
    first = page.locator("article.print-puzzle").first
    expect(first.locator(".print-rack span")).to_have_count(len(sheet[0]["rack"]))
    filled = sum(1 for value in sheet[0]["surface"] if value >= 0)
    expect(first.locator("td.sq b")).to_have_count(filled)
    assert serious(page) == []
    page.emulate_media(media="print")
    expect(page.locator("header")).to_be_hidden()
    expect(page.locator("#print-button")).to_be_hidden()
    expect(page.locator("#answers")).to_be_visible()
    breaks = page.evaluate(
        "[getComputedStyle(document.querySelector('#answers')).breakBefore,"
        " getComputedStyle(document.querySelector('article.print-puzzle')).breakInside,"
        " getComputedStyle(document.body).backgroundColor]"
    )
    assert breaks == ["page", "avoid", "rgb(255, 255, 255)"]
    shot(page, "print-puzzles")


def test_the_set_page_says_why_bad_parameters_are_refused(server: Server, page: Page) -> None:
    answer = page.goto(f"{server.url}/puzzles/print?count=99")
    assert answer is not None and answer.status == 400
    expect(page.locator("#print-error")).to_contain_text("24")
    expect(page.locator("article.print-puzzle")).to_have_count(0)


def test_the_game_print_page_lists_every_turn_with_its_explanations(
    server: Server, page: Page
) -> None:
    bots = [{"name": "Ann", "bot": "greedy"}, {"name": "Bob", "bot": "greedy"}]
    view = play_out(server, bots, seed=3)
    page.goto(f"{server.url}/g/{view['id']}")
    expect(page.locator("#print-link")).to_be_visible(timeout=30000)
    page.click("#print-link")
    page.wait_for_url(f"**/g/{view['id']}/print")
    turns = view["summaries"]
    expect(page.locator("#print-turns tr.print-turn")).to_have_count(len(turns))
    for k in (0, len(turns) // 2, len(turns) - 1):
        row = page.locator(f'#print-turns tr[data-turn="{k + 1}"]')
        expect(row).to_contain_text(turns[k]["notation"])
        expect(row.locator("li")).to_have_count(len(turns[k]["explanations"]))
        for said in turns[k]["explanations"]:
            expect(row).to_contain_text(said)
    expect(page.locator("#print-scores tbody tr")).to_have_count(2)
    expect(page.locator("#print-scores")).to_contain_text(str(view["scores"][0]))
    expect(page.locator("#print-final-board td.sq b")).to_have_count(
        sum(1 for value in view["surface"] if value >= 0)
    )
    assert serious(page) == []
    page.emulate_media(media="print")
    expect(page.locator("header")).to_be_hidden()
    shot(page, "print-game")


def test_a_game_not_over_or_unknown_is_refused_with_a_reason(server: Server, page: Page) -> None:
    running = create(server, [{"name": "Ann"}, {"name": "Bob"}], seed=5)
    answer = page.goto(f"{server.url}/g/{running['id']}/print")
    assert answer is not None and answer.status == 409
    expect(page.locator("#print-error")).to_contain_text("not over")
    expect(page.locator("#print-turns")).to_have_count(0)
    answer = page.goto(f"{server.url}/g/no-such-game/print")
    assert answer is not None and answer.status == 404
    expect(page.locator("#print-error")).to_contain_text("no game")


def test_the_puzzles_page_links_to_a_printable_set(server: Server, page: Page) -> None:
    page.goto(f"{server.url}/puzzles?band=hard")
    link = page.locator("#print-set-link")
    expect(link).to_have_attribute(
        "href", re.compile(r"^/puzzles/print\?band=hard&game=(classic|junior)$")
    )
    href = link.get_attribute("href")
    assert href is not None
    page.goto(server.url + href)
    expect(page.locator("article.print-puzzle")).to_have_count(12)
