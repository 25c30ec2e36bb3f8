"""Records and rematches in a real browser (issue 14): an uploaded record keeps its
computer seat, which moves; a game at one screen is saved mid-game and resumed where it
stopped; the same record uploaded again opens the same game; a rematch from game over,
each online player taking their own seat. Fixtures and helpers come from
``test_browser`` and ``test_page_defects``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from mathable.engine import records
from mathable.games.registry import new_game as engine_game
from mathable.web.infra.store import EventStore
from support import oneoff
from support.browser import DESKTOP, against_the_computer, create, play_one_turn, serious, shot
from webserver import Server


def games(server: Server) -> list[str]:
    """Every stored game (an uploaded one is listed to nobody over the API, issue 30)."""
    store = EventStore(server.database_url)
    try:
        return [game_id for game_id, _seats in store.games_page(0, 500)]
    finally:
        store.close()


def upload(page: Page, server: Server, path: Path) -> str:
    """Upload a record file from the home page; returns the id of the game it opens."""
    page.goto(server.url + "/")
    expect(page.locator("#record-file")).to_be_attached()
    with page.expect_navigation(url=lambda url: "/g/" in url):
        page.locator("#record-file").set_input_files(str(path))
    return page.url.split("/g/")[1].split("?")[0]


def game_view(server: Server, game_id: str, token: str | None = None) -> Any:
    suffix = f"?token={token}" if token else ""
    return oneoff.get(f"{server.url}/api/games/{game_id}{suffix}").json()


def pass_to_the_end(server: Server, game_id: str, tokens: list[str]) -> None:
    """Two people pass until the game ends (C11c: two rounds without a placement)."""
    while not (now := game_view(server, game_id))["over"]:
        seat_token = tokens[now["to_move"]]
        answer = oneoff.post(
            f"{server.url}/api/games/{game_id}/actions",
            json={"token": seat_token, "action": "pass"},
        )
        assert answer.status_code == 200, answer.text


def test_an_uploaded_record_keeps_its_computer_who_moves(
    server: Server, page: Page, tmp_path: Path
) -> None:
    game = engine_game("classic", ["Ann", "Robo"], seed=5)
    while game.to_move != 1:
        game.apply(game.parse_action("pass"))
    path = tmp_path / "robo-to-move.json"
    record = records.to_record(game)
    record["bots"] = [None, "greedy"]  # the computer's seat, as the web and CLI write it
    path.write_text(json.dumps(record))
    game_id = upload(page, server, path)
    expect(page.locator("#notation")).to_be_visible()  # Ann's turn: the computer moved
    expect(page.locator("#uncover")).to_have_count(0)  # no cover for a computer's seat
    expect(page.locator("#moves")).to_contain_text("Robo")
    view = game_view(server, game_id)
    assert view["seats"][1]["bot"] == "greedy" and view["to_move"] == 0
    assert len(view["summaries"]) == len(game.log) + 1


def test_a_game_is_saved_mid_game_resumed_and_not_uploaded_twice(
    server: Server, page: Page, tmp_path: Path
) -> None:
    made = against_the_computer(server, page)
    play_one_turn(page)
    expect(page.locator("#notation")).to_be_visible()  # the computer has answered
    rack = page.locator("#rack button.tile").all_inner_texts()
    turns = page.locator("#moves li").count()
    with page.expect_download() as download:
        page.click("#save-record")
    path = tmp_path / "saved.json"
    download.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["bots"] == [None, "greedy"] and "result" not in record
    before = games(server)
    resumed = upload(page, server, path)
    assert resumed != made["id"] and len(games(server)) == len(before) + 1
    expect(page.locator("#notation")).to_be_visible()  # Ann's turn, where it stopped
    assert page.locator("#rack button.tile").all_inner_texts() == rack
    expect(page.locator("#moves li")).to_have_count(turns)
    play_one_turn(page)  # and play on, against the computer
    expect(page.locator("#moves li")).to_have_count(turns + 2)
    shot(page, "resumed-from-a-record")
    again = upload(page, server, path)  # the same file again, from this browser
    assert again == resumed and len(games(server)) == len(before) + 1
    expect(page.locator("#notation")).to_be_visible()  # its seat, as before
    online = create(server, [{"name": "Ann"}, {"name": "Bob"}], seed=None)
    page.goto(f"{server.url}/g/{online['id']}?t={online['seats'][0]['token']}")
    expect(page.locator("#rack")).to_be_visible()
    expect(page.locator("#save-record")).to_have_count(0)  # its record holds the seed (O1)


def test_a_record_uploaded_before_from_another_browser_is_watched_or_copied(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    path = tmp_path / "record.json"
    path.write_text(records.dumps(engine_game("classic", ["Ann", "Bob"], seed=21)))
    pages = [browser.new_context(viewport=DESKTOP).new_page() for _ in range(2)]
    first = upload(pages[0], server, path)
    before = games(server)
    other = pages[1]
    other.goto(server.url + "/")
    other.locator("#record-file").set_input_files(str(path))
    expect(other.locator("#modal-question")).to_contain_text("uploaded before")
    with other.expect_navigation(url=lambda url: "/g/" in url):
        other.click("#no")  # watch the game already made from it
    assert other.url == f"{server.url}/g/{first}" and games(server) == before
    expect(other.locator("#watching")).to_be_visible()
    copy = upload_and_answer_yes(other, server, path)
    assert copy != first and len(games(server)) == len(before) + 1
    expect(other.locator("#uncover, #rack").first).to_be_visible()  # its own seats
    for each in pages:
        each.context.close()


def upload_and_answer_yes(page: Page, server: Server, path: Path) -> str:
    """Upload a record this browser did not upload before, and ask for a new game."""
    page.goto(server.url + "/")
    page.locator("#record-file").set_input_files(str(path))
    with page.expect_navigation(url=lambda url: "/g/" in url):
        page.click("#yes")
    return page.url.split("/g/")[1].split("?")[0]


def test_a_rematch_from_game_over_gives_each_online_player_their_seat(
    server: Server, browser: Browser
) -> None:
    made = create(server, [{"name": "Ann"}, {"name": "Bob"}], seed=None)
    code = made["seats"][1]["invite"].split("invite=")[1]
    bob = oneoff.post(f"{server.url}/api/games/{made['id']}/join", json={"invite": code}).json()
    tokens = [made["seats"][0]["token"], bob["token"]]
    pass_to_the_end(server, made["id"], tokens)
    pages = []
    for token in tokens:
        context = browser.new_context(viewport=DESKTOP)
        pages.append(context.new_page())
        pages[-1].goto(f"{server.url}/g/{made['id']}?t={token}")
        expect(pages[-1].locator("#summary")).to_be_visible()
    ann_page, bob_page = pages
    expect(ann_page.locator("#rematch")).to_have_text("Rematch")
    assert serious(ann_page) == []
    with ann_page.expect_navigation(url=lambda url: made["id"] not in url):
        ann_page.click("#rematch")
    rematch = ann_page.url.split("/g/")[1].split("?")[0]
    expect(ann_page.locator("#rack button.tile")).to_have_count(7)  # Ann's seat, a new deal
    expect(bob_page.locator("#rematch")).to_have_text("Rematch offered: join")  # told live
    with bob_page.expect_navigation(url=lambda url: rematch in url):
        bob_page.click("#rematch")
    expect(bob_page.locator("#rack button.tile")).to_have_count(7)
    new = game_view(server, rematch)
    assert [s["name"] for s in new["seats"]] == ["Ann", "Bob"] and new["mode"] == "online"
    assert all(s["claimed"] for s in new["seats"]) and "seed" not in new  # O1
    views = [game_view(server, rematch, p.url.split("t=")[1]) for p in pages]
    assert [v["seat"] for v in views] == [0, 1]
    shot(bob_page, "rematch")
    for each in pages:
        each.context.close()


def test_a_rematch_at_one_screen_opens_every_seat_in_this_browser(
    server: Server, page: Page
) -> None:
    made = create(
        server, [{"name": "Ann"}, {"name": "Robo", "bot": "gentle"}, {"name": "Cleo"}], seed=9
    )
    tokens = [made["seats"][0]["token"], None, made["seats"][2]["token"]]
    while not (now := game_view(server, made["id"]))["over"]:
        answer = oneoff.post(
            f"{server.url}/api/games/{made['id']}/actions",
            json={"token": tokens[now["to_move"]], "action": "pass"},
        )
        assert answer.status_code == 200, answer.text
    page.goto(f"{server.url}/g/{made['id']}?t={tokens[2]}")
    expect(page.locator("#summary")).to_be_visible()
    with page.expect_navigation(url=lambda url: made["id"] not in url):
        page.click("#rematch")
    assert "screen=1" in page.url
    rematch = page.url.split("/g/")[1].split("?")[0]
    held = page.evaluate(f"localStorage.getItem('mathable:{rematch}')")
    assert sorted(json.loads(held)) == ["0", "2"]  # both people's seats, as on creation
    new = game_view(server, rematch)
    assert [(s["name"], s["bot"]) for s in new["seats"]] == [
        ("Ann", None),
        ("Robo", "gentle"),
        ("Cleo", None),
    ]
