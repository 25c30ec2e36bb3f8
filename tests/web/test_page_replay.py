"""Replay, analysis and rules pages (issue 14, items 4 and 2) in a real browser: a move
list that jumps, the racks at each step of a finished game and never another's hidden
rack of a running one (O1, also through the API), the analysis as a scrolling panel
beside the board whose rows draw the best alternative on the board, the loss graph with
its words, the rules page of every game from the game and the home page, and axe-core
on these pages in light and dark, desktop and phone. Fixtures come from the other page
tests."""

from __future__ import annotations

import re
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, Page, expect

from support import oneoff
from support.browser import DESKTOP, PHONE, against_the_computer, create, serious, shot
from webserver import Server


def replay(server: Server, game_id: str, step: int, token: str | None = None) -> httpx2.Response:
    suffix = f"&token={token}" if token else ""
    return oneoff.get(f"{server.url}/api/games/{game_id}/replay?step={step}{suffix}")


def analysis(server: Server, game_id: str) -> dict[str, Any]:
    response = oneoff.get(f"{server.url}/api/games/{game_id}/analysis", timeout=60)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def variant(server: Server, name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(
        v for v in oneoff.get(f"{server.url}/api/variants").json() if v["name"] == name
    )
    return found


# -- the API: hidden information ------------------------------------------------------


def test_a_finished_replay_gives_every_rack_and_the_turns(
    server: Server, finished: dict[str, Any]
) -> None:
    last = replay(server, finished["id"], finished["seq"]).json()
    assert last["racks"] == finished["open_racks"]  # the end: the racks game over shows
    turns = last["turns"]
    assert [t["notation"] for t in turns] == [s["notation"] for s in finished["summaries"]]
    assert turns[0]["start"] == 0 and turns[-1]["step"] == finished["seq"]
    middle = turns[len(turns) // 2]
    at = replay(server, finished["id"], middle["step"]).json()
    assert [len(r) for r in at["racks"]] == at["view"]["rack_sizes"]
    after = replay(server, finished["id"], middle["step"] + 1).json()
    assert at["view"]["summaries"] == finished["summaries"][: turns.index(middle) + 1]
    assert after["action"]  # the action after the turn, in notation


def test_a_running_game_replays_to_a_seat_with_its_own_rack_only(server: Server) -> None:
    made = create(server, [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}], seed=14)
    ann = made["seats"][0]["token"]
    assert replay(server, made["id"], 0).status_code == 409  # a spectator: not before the end
    now = oneoff.get(f"{server.url}/api/games/{made['id']}?token={ann}").json()
    seen = replay(server, made["id"], now["seq"], ann).json()
    assert seen["racks"] == [now["rack"], None]  # her own rack, never the computer's
    assert "seed" not in seen["view"]


def test_an_online_replay_keeps_the_seed_and_the_exchanged_pieces_secret(
    server: Server,
) -> None:
    made = create(server, [{"name": "Ann"}, {"name": "Bob"}], seed=None, mode="online")
    ann = next(s["token"] for s in made["seats"] if s.get("token"))
    invite = next(s["invite"] for s in made["seats"] if s.get("invite")).split("invite=")[1]
    bob = oneoff.post(f"{server.url}/api/games/{made['id']}/join", json={"invite": invite})
    bob_token = bob.json()["token"]
    tokens = {0: ann, 1: bob_token}
    mover = oneoff.get(f"{server.url}/api/games/{made['id']}?token={ann}").json()["to_move"]
    rack = oneoff.get(f"{server.url}/api/games/{made['id']}?token={tokens[mover]}").json()["rack"]
    exchanged = f"exchange {rack[0]},{rack[1]}"
    done = oneoff.post(
        f"{server.url}/api/games/{made['id']}/actions",
        json={"token": tokens[mover], "action": exchanged},
    )
    assert done.status_code == 200, done.text
    other = tokens[1 - mover]
    seen = replay(server, made["id"], 1, other)
    assert seen.status_code == 200, seen.text
    data = seen.json()
    assert data["action"] == "exchange (2)"  # how many, not which (O1)
    assert data["racks"][mover] is None and data["racks"][1 - mover]
    assert "seed" not in seen.text


# -- the replay page ------------------------------------------------------------------


def test_the_move_list_jumps_to_a_turn_and_follows_the_step(
    server: Server, page: Page, finished: dict[str, Any]
) -> None:
    turns = replay(server, finished["id"], 0).json()["turns"]
    page.goto(f"{server.url}/g/{finished['id']}?replay")
    expect(page.locator("#step")).to_have_text(re.compile(r"^action 0 of "))
    moves = page.locator("#replay-moves li")
    expect(moves).to_have_count(len(turns))
    expect(page.locator("#replay-moves li.now")).to_have_count(0)
    moves.nth(2).locator("button").click()
    expect(page.locator("#step")).to_have_text(re.compile(rf"^action {turns[2]['step']} of "))
    expect(moves.nth(2)).to_have_attribute("aria-current", "step")
    page.keyboard.press("End")
    expect(page.locator("#step")).to_have_text(re.compile(rf"^action {turns[-1]['step']} of "))
    last = moves.nth(len(turns) - 1)
    expect(last).to_have_attribute("aria-current", "step")
    expect(page.locator("#replay-moves li[aria-current]")).to_have_count(1)
    box, item = page.locator("#replay-moves").bounding_box(), last.bounding_box()
    assert box and item and box["y"] - 1 <= item["y"] <= box["y"] + box["height"] - 1
    page.keyboard.press("Home")
    expect(page.locator("#replay-moves li[aria-current]")).to_have_count(0)


def test_racks_are_shown_at_each_step_of_a_finished_game_only(
    server: Server, page: Page, finished: dict[str, Any]
) -> None:
    page.goto(f"{server.url}/g/{finished['id']}?replay")
    expect(page.locator("#step")).to_have_text(re.compile(r"^action 0 of "))
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step")).to_have_text(re.compile(r"^action 2 of "))
    racks = replay(server, finished["id"], 2).json()["racks"]
    rows = page.locator("#replay-racks tr")
    expect(rows).to_have_count(len(racks))
    for i, rack in enumerate(racks):
        expect(rows.nth(i)).to_contain_text(" ".join(map(str, rack)))
    # a running game: Ann's own link shows her rack and hides the computer's
    made = against_the_computer(server, page)
    ann = made["seats"][0]["token"]
    mine = oneoff.get(f"{server.url}/api/games/{made['id']}?token={ann}").json()["rack"]
    page.goto(f"{server.url}/g/{made['id']}?t={ann}&replay")
    expect(page.locator("#step")).to_have_text(re.compile(r"^action 0 of "))
    page.keyboard.press("End")
    rows = page.locator("#replay-racks tr")
    expect(rows.nth(0)).to_contain_text(" ".join(map(str, mine)))
    expect(rows.nth(1)).to_contain_text("hidden")
    expect(rows.nth(1)).not_to_contain_text(re.compile(r"\d+ \d+"))
    page.goto(f"{server.url}/g/{made['id']}?replay")  # a spectator: nothing before the end
    expect(page.locator("main")).to_contain_text("still being played")
    expect(page.locator("#replay-racks")).to_have_count(0)


# -- the analysis panel ---------------------------------------------------------------


def open_analysis(server: Server, page: Page, game_id: str) -> None:
    page.goto(f"{server.url}/g/{game_id}?replay")
    expect(page.locator("#analysis-rows tr[data-turn]").first).to_be_visible(timeout=60000)


def test_the_analysis_panel_scrolls_beside_the_board(
    server: Server, page: Page, finished: dict[str, Any]
) -> None:
    open_analysis(server, page, finished["id"])
    board = page.locator("#board").bounding_box()
    panel = page.locator("#analysis-panel").bounding_box()
    assert board and panel
    assert panel["x"] >= board["x"] + board["width"], "beside the board, not under it"
    assert panel["y"] < board["y"] + board["height"]
    rows = page.locator("#analysis-rows")
    expect(rows).to_have_attribute("tabindex", "0")
    scrolled = rows.evaluate(
        "e => { const before = e.scrollTop; e.scrollTop += 200; return e.scrollTop > before; }"
    )
    assert scrolled, "the turns scroll inside the panel"
    expect(page.locator("#analysis-panel")).to_contain_text("accuracy", timeout=60000)


def test_a_turn_hovered_or_focused_shows_its_best_alternative_on_the_board(
    server: Server, page: Page, finished: dict[str, Any]
) -> None:
    turns = analysis(server, finished["id"])["turns"]
    open_analysis(server, page, finished["id"])
    lost = [t for t in turns if t["loss"] and t["best_placements"]]
    assert len(lost) >= 2, "the game chosen has turns that missed a better one"
    first, second = lost[0], lost[1]
    page.locator(f'#analysis-rows tr[data-turn="{first["turn"]}"]').hover()
    cells = {p["cell"] for p in first["best_placements"]}
    expect(page.locator("#board .best")).to_have_count(len(cells))
    for cell in cells:
        marked = page.locator(f'#board [data-cell="{cell}"]')
        expect(marked).to_have_class(re.compile(r"\bbest\b"))
        expect(marked).to_have_attribute("aria-label", re.compile(r"best alternative: \d+"))
    position = replay(server, finished["id"], first["step"]).json()["view"]["surface"]
    expect(page.locator("#board .tok")).to_have_count(sum(1 for v in position if v >= 0))
    expect(page.locator("#preview")).to_contain_text(first["best"])
    expect(page.locator("#board")).to_have_attribute("aria-describedby", "preview")
    shot(page, "analysis")
    page.locator("#step").hover()  # away: the replay's own step again, unmarked
    expect(page.locator("#board .best")).to_have_count(0)
    page.locator(f'#analysis-rows tr[data-turn="{second["turn"]}"] button').focus()
    expect(page.locator("#board .best")).to_have_count(
        len({p["cell"] for p in second["best_placements"]})
    )
    expect(page.locator("#preview")).to_contain_text(f"Turn {second['turn']}")


def test_the_loss_graph_is_drawn_with_its_words(
    server: Server, page: Page, finished: dict[str, Any]
) -> None:
    report = analysis(server, finished["id"])
    open_analysis(server, page, finished["id"])
    graph = page.locator("#loss-graph svg")
    expect(graph).to_have_attribute("role", "img")
    expect(page.locator("#loss-graph rect.bar")).to_have_count(len(report["turns"]))
    words = page.locator("#loss-desc").text_content() or ""
    for player in report["players"]:
        lost = sum(t["loss"] for t in report["turns"] if t["player"] == player["player"])
        assert f"{player['player']} lost {lost} point" in words, words
    expect(graph).to_have_accessible_name(re.compile(r"^Loss per turn .+ lost "))
    expect(page.locator("#loss-graph figcaption")).to_contain_text(words)


# -- the rules page -------------------------------------------------------------------


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("name", ["classic", "quattro"])
def test_the_rules_page_opens_from_the_game_and_the_home_page(
    server: Server, page: Page, name: str
) -> None:
    caps = variant(server, name)["capabilities"]
    against_the_computer(server, page, variant=name)
    page.locator("#rules-link").click()
    expect(page).to_have_url(re.compile(rf"/rules/{name}$"))
    expect(page.locator("#rules-page h2")).to_have_text(f"Rules of {caps['title']}")
    shown = " ".join(page.locator("#rules-page .rule").all_text_contents())
    assert words(shown) == words(caps["rules"])  # every word of the rules, in order
    shot(page, f"rules-{name}")
    page.locator("#back-link").click()  # and back to the game
    expect(page).to_have_url(re.compile(r"/g/[\w-]+\?t="))
    expect(page.locator("#rules-link")).to_be_visible()
    page.goto(server.url + "/")
    page.locator(f'#rules-links a[data-variant="{name}"]').click()
    expect(page).to_have_url(re.compile(rf"/rules/{name}$"))
    expect(page.locator("#rules-page h2")).to_have_text(f"Rules of {caps['title']}")


def test_the_rules_page_escapes_what_it_is_given(server: Server, page: Page) -> None:
    name = "<img src=x id=injected>"
    response = page.goto(f"{server.url}/rules/{name}")
    assert response and response.status == 404
    expect(page.locator("#message")).to_contain_text(name)  # as text, not as markup
    expect(page.locator("#injected")).to_have_count(0)


# -- axe ------------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_no_serious_violation_on_replay_analysis_and_rules(
    server: Server, browser: Browser, finished: dict[str, Any], size: Any, scheme: Any
) -> None:
    context = browser.new_context(viewport=size, color_scheme=scheme)
    page = context.new_page()
    open_analysis(server, page, finished["id"])
    page.locator("#analysis-rows tr.lost button").first.focus()  # a best turn drawn
    expect(page.locator("#board .best").first).to_be_visible()
    found = {"replay and analysis": serious(page)}
    page.goto(f"{server.url}/rules/classic")
    expect(page.locator("#rules-page")).to_be_visible()
    found["rules"] = serious(page)
    context.close()
    assert found == {"replay and analysis": [], "rules": []}
