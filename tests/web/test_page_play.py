"""The game page's play of issue 14, in a real browser (Playwright on Debian's chromium)
and through the API: online invitations on a page of their own (a reload keeps them,
copy buttons, "Play as Ann"), undo as an event of the store's log (house rule
allow_undo, V-B), a turn's result shown before the pass-and-play cover, and drag and
drop from the rack onto the board. Fixtures and helpers come from ``test_browser``,
``test_page_defects`` and ``test_page_a11y``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page, expect
from typer.testing import CliRunner

from mathable.cli.app import app as cli
from mathable.engine import records
from mathable.engine.actions import Shake
from mathable.games import registry
from mathable.web.api import create_app
from mathable.web.infra.store import EventStore
from support import oneoff
from support.browser import DESKTOP, PHONE, create, serious
from webserver import Server


def view_of(server: Server, game_id: str, token: str | None = None) -> dict[str, Any]:
    suffix = f"?token={token}" if token else ""
    answer: dict[str, Any] = oneoff.get(f"{server.url}/api/games/{game_id}{suffix}").json()
    return answer


def place_one(page: Page) -> str:
    """Pick rack tokens until one lights a cell, and place it there (no extra token);
    returns the placement, or '' when no token of the rack can be placed."""
    tiles = page.locator("#rack button.tile")
    for tile in range(tiles.count()):
        tiles.nth(tile).click()
        legal = page.locator(".cell.legal")
        if legal.count():
            cell = legal.first.get_attribute("data-cell") or ""
            value = tiles.nth(tile).inner_text()
            before = page.locator(".cell.current").count()
            legal.first.click()
            if page.locator("#modal:not([hidden]) #no").count():
                page.click("#no")
            expect(page.locator(f'.cell[data-cell="{cell}"] .tok')).to_have_text(value)
            if page.locator("#rack").count():  # still this turn: it is marked as placed
                expect(page.locator(".cell.current")).to_have_count(before + 1)
            return f"{cell}={value}"
        tiles.nth(tile).click()  # unpick
    return ""


# -- online invitations, on a page of their own ------------------------------------------


def test_the_invitations_page_survives_a_reload_with_copy_buttons_and_a_play_link(
    server: Server, browser: Browser
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page = context.new_page()
    page.goto(server.url + "/")
    page.select_option("#kind1", "")  # Bob is a person
    page.select_option("#mode", "online")
    page.click("#create")
    expect(page).to_have_url(re.compile(r"/g/[\w-]+\?invitations$"))  # no token in it
    link = page.locator("#invite-1")
    expect(link).to_have_value(re.compile(r"/g/[\w-]+\?invite=[\w-]+$"))
    invite = link.input_value()
    page.click("#copy-1")
    expect(page.locator("#live")).to_contain_text("Bob's invitation copied")
    assert page.evaluate("navigator.clipboard.readText()") == invite
    expect(page.locator("#my-link")).to_have_text("Play as Ann")
    assert serious(page) == []
    page.reload()  # the page has its own address: nothing is lost
    expect(page.locator("#invite-1")).to_have_value(invite)
    expect(page.locator("#copy-1")).to_be_visible()
    expect(page.locator("#my-link")).to_have_text("Play as Ann")
    bob = browser.new_context(viewport=DESKTOP).new_page()  # Bob follows his invitation
    bob.goto(invite)
    expect(bob.locator("#joined")).to_contain_text("You play Bob")
    page.reload()
    expect(page.locator("#invite-1")).to_have_count(0)  # spent: Bob holds the seat
    expect(page.locator(".links")).to_contain_text("Bob has joined")
    page.click("#my-link")
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#scores")).to_contain_text("Ann")
    assert re.search(r"/g/[\w-]+$", page.url)  # no credential in the address
    game_id = re.search(r"/g/([\w-]+)", page.url)
    assert game_id and view_of(server, game_id[1])["seats"][1]["claimed"]
    bob.context.close()
    context.close()


def test_only_the_creator_gets_the_invitations_again(tmp_path: Path) -> None:
    client = TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}"))
    players = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cleo"}]
    made = client.post("/api/games", json={"variant": "classic", "players": players}).json()
    ann = made["seats"][0]["token"]
    path = f"/api/games/{made['id']}/invitations"
    again = client.get(path, params={"token": ann})
    assert again.status_code == 200 and again.json() == made  # the creation's answer again
    joined = client.post(
        f"/api/games/{made['id']}/join",
        json={"invite": made["seats"][1]["invite"].split("invite=")[1]},
    ).json()
    after = client.get(path, params={"token": ann}).json()["seats"]
    assert after[1]["claimed"] and after[1]["invite"] is None  # Bob's is spent
    assert after[2] == made["seats"][2]  # Cleo's still waits
    assert client.get(path, params={"token": joined["token"]}).status_code == 403  # not Bob
    assert client.get(path, params={"token": "wrong"}).status_code == 403
    assert client.get(path).status_code in (400, 422)  # a token is needed
    # a restart loses nothing: the invitations derive from the creator's token
    restarted = TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}"))
    assert restarted.get(path, params={"token": ann}).json()["seats"] == after
    # two people: the one who joined still cannot; a game at one screen has none
    two = {"variant": "classic", "players": players[:2]}
    made = client.post("/api/games", json=two).json()
    code = made["seats"][1]["invite"].split("invite=")[1]
    bob = client.post(f"/api/games/{made['id']}/join", json={"invite": code}).json()["token"]
    path = f"/api/games/{made['id']}/invitations"
    assert client.get(path, params={"token": bob}).status_code == 403
    here = client.post("/api/games", json={**two, "mode": "screen"}).json()
    token = here["seats"][0]["token"]
    answer = client.get(f"/api/games/{here['id']}/invitations", params={"token": token})
    assert answer.status_code == 404


# -- undo: an event of the store's log ---------------------------------------------------


def undo_game(client: TestClient, **rules: bool) -> tuple[str, str, dict[str, Any]]:
    """Ann against a computer player at one screen; Ann's token and view, Ann to move."""
    spec = {
        "variant": "classic",
        "players": [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}],
        "seed": 14,
        "mode": "screen",
        "house_rules": {"allow_undo": True, **rules},
    }
    made = client.post("/api/games", json=spec).json()
    token = made["seats"][0]["token"]
    return made["id"], token, client.get(f"/api/games/{made['id']}?token={token}").json()


def test_undo_is_an_event_of_the_store_replayed_after_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    client = TestClient(create_app(url))
    game_id, ann, start = undo_game(client)
    assert start["to_move"] == 0 and not start["undo"]  # nothing of Ann's yet
    act = f"/api/games/{game_id}/actions"
    place = next(a for a in start["legal"] if "=" in a and not a.endswith("+"))
    placed = client.post(act, json={"token": ann, "action": place, "seq": start["seq"]}).json()
    ended = client.post(act, json={"token": ann, "action": "end", "seq": placed["seq"]}).json()
    assert ended["to_move"] == 0 and len(ended["summaries"]) == len(start["summaries"]) + 2
    assert ended["undo"]  # her end, and the computer's reply after it
    undone = client.post(act, json={"token": ann, "action": "undo", "seq": ended["seq"]})
    assert undone.status_code == 200, undone.text
    back = undone.json()
    # both turns taken back: Ann is in her turn again, her placement on the board
    assert back["summaries"] == start["summaries"] and back["to_move"] == 0
    assert [f"{p['cell']}={p['value']}" for p in back["turn"]["placements"]] == [place]
    assert back["seq"] == ended["seq"] + 1  # one event more: the seq only grows
    stored = EventStore(url).load(game_id)
    assert stored is not None and stored.actions[-1].split()[0] == "undo"
    assert len(stored.actions) == back["seq"]
    # a restart replays the store, undo included, to the same game
    restarted = TestClient(create_app(url))
    again = restarted.get(f"/api/games/{game_id}?token={ann}").json()
    assert {k: again[k] for k in back if k != "id"} == {k: back[k] for k in back if k != "id"}
    # the game's record holds what stands, and replays (and so does the CLI's replay)
    app: Any = restarted.app
    game = app.state.service.get(game_id).game
    assert registry.from_record(records.dumps(game)).snapshot() == game.snapshot()
    (tmp_path / "record.json").write_text(records.dumps(game))
    replayed = CliRunner().invoke(cli, ["replay", str(tmp_path / "record.json"), "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.output)["actions"] == len(game.log)
    assert game.log[-1] == Shake(int(stored.actions[-1].split()[-1]))  # the bag shaken (O5)
    assert len(game.log) == start["seq"] + 2  # her placement and the shake stand
    # a second undo takes her placement back; then nothing of hers is left
    second = restarted.post(act, json={"token": ann, "action": "undo"}).json()
    assert second["turn"]["placements"] == [] and not second["undo"]
    refused = restarted.post(act, json={"token": ann, "action": "undo"})
    assert refused.status_code == 409 and "nothing of yours" in refused.json()["error"]


def test_undo_is_refused_without_the_house_rule_and_for_another_persons_action(
    tmp_path: Path,
) -> None:
    client = TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}"))
    game_id, ann, start = undo_game(client, allow_undo=False)
    act = f"/api/games/{game_id}/actions"
    place = next(a for a in start["legal"] if "=" in a)
    client.post(act, json={"token": ann, "action": place})
    off = client.post(act, json={"token": ann, "action": "undo"})
    assert off.status_code == 409 and "V-B" in off.json()["error"]
    players = [{"name": "Ann"}, {"name": "Bob"}]
    spec = {"variant": "classic", "players": players, "seed": 9, "mode": "screen"}
    made = client.post("/api/games", json={**spec, "house_rules": {"allow_undo": True}}).json()
    tokens = [s["token"] for s in made["seats"]]
    first = client.get(f"/api/games/{made['id']}?token={tokens[0]}").json()
    mover = tokens[first["to_move"]]
    other = tokens[1 - first["to_move"]]
    legal = client.get(f"/api/games/{made['id']}?token={mover}").json()["legal"]
    act = f"/api/games/{made['id']}/actions"
    client.post(act, json={"token": mover, "action": next(a for a in legal if "=" in a)})
    assert client.get(f"/api/games/{made['id']}?token={mover}").json()["undo"]
    assert not client.get(f"/api/games/{made['id']}?token={other}").json()["undo"]
    theirs = client.post(act, json={"token": other, "action": "undo"})
    assert theirs.status_code == 409  # nobody takes back another person's action
    watched = client.post(act, json={"token": mover, "action": "undo"})
    assert watched.status_code == 200 and watched.json()["turn"]["placements"] == []


def test_undo_at_one_screen_takes_back_the_computer_reply_and_survives_a_reload(
    server: Server, page: Page
) -> None:
    made = create(
        server,
        [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}],
        seed=14,
        house_rules={"allow_undo": True},
    )
    game_id, ann = made["id"], made["seats"][0]["token"]
    page.goto(f"{server.url}/g/{game_id}?t={ann}")
    expect(page.locator("#notation")).to_be_visible()
    expect(page.locator("#undo")).to_have_count(0)  # nothing of Ann's to take back
    turns = page.locator("#moves li").count()
    placed = place_one(page)
    assert placed
    expect(page.locator("#undo")).to_be_visible()
    page.click("#end")
    expect(page.locator("#moves li")).to_have_count(turns + 2)  # hers, and the computer's
    expect(page.locator("#notation")).to_be_visible()
    page.keyboard.press("u")
    expect(page.locator("#moves li")).to_have_count(turns)  # both taken back
    expect(page.locator("#live")).to_have_text("Taken back.")
    cell, value = placed.split("=")
    expect(page.locator(f'.cell.current[data-cell="{cell}"] .tok')).to_have_text(value)
    page.reload()  # the undo is in the store: a reload shows the same
    expect(page.locator("#notation")).to_be_visible()
    expect(page.locator("#moves li")).to_have_count(turns)
    expect(page.locator(f'.cell.current[data-cell="{cell}"] .tok')).to_have_text(value)
    page.click("#undo")  # her placement, back to the start of her turn
    expect(page.locator(f'.cell[data-cell="{cell}"] .tok')).to_have_count(0)
    expect(page.locator("#undo")).to_have_count(0)
    assert view_of(server, game_id)["turn"]["placements"] == []


# -- pass and play: the turn's result before the cover ------------------------------------


def test_a_turn_that_ends_by_itself_shows_its_score_before_the_cover(
    server: Server, page: Page
) -> None:
    page.goto(server.url + "/")
    page.select_option("#kind1", "")  # Bob is a person too
    page.fill("#seed", "9")
    page.click("#create")
    page.click("#uncover")
    expect(page.locator("#rack")).to_be_visible()
    first = re.search(r"/g/([\w-]+)", page.url)
    assert first
    mover = view_of(server, first[1])["to_move"]
    placed = []
    while page.locator("#rack").count() and page.locator("#end, #pass").count():
        move = place_one(page)  # never "end": the turn ends when nothing more goes
        assert move, "the rack should place until the turn ends by itself"
        placed.append(move)
    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(page.locator("#uncover")).to_have_count(0)  # not covered yet
    done = view_of(server, first[1])
    mine = done["summaries"][-1]
    assert mine["seat"] == mover and done["to_move"] != mover
    name, other = done["players"][mover], done["players"][done["to_move"]]
    expect(result).to_contain_text(f"{name} scored {mine['points']}")
    for move in placed:  # the board with the turn's placements
        cell, value = move.split("=")
        expect(page.locator(f'.cell.last[data-cell="{cell}"] .tok')).to_have_text(value)
    page.keyboard.press("p")  # no key acts for the next person meanwhile
    expect(page.locator("#pass-screen")).to_have_text(f"Pass the screen to {other}")
    assert serious(page) == []
    page.click("#pass-screen")
    expect(page.locator("#uncover")).to_be_visible()
    expect(page.locator(".cover h2")).to_have_text(f"Pass the screen to {other}")
    assert view_of(server, first[1])["seq"] == done["seq"]


# -- drag and drop ---------------------------------------------------------------------


def legal_drag(page: Page) -> tuple[int, str, str]:
    """A rack token with a legal cell (read from the seat's view), and that cell."""
    url = page.url.replace("/g/", "/api/games/").replace("?t=", "?token=")
    view = oneoff.get(url).json()
    for text in view["legal"]:
        found = re.fullmatch(r"([A-N]\d+)=(\d+)", text)
        if found and text + "+" not in view["legal"]:  # no question of an extra token
            return view["playable"].index(int(found[2])), found[1], found[2]
    raise AssertionError("no placement to drag")


def test_a_token_dragged_onto_a_cell_is_placed(server: Server, page: Page) -> None:
    made = create(server, [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}], seed=14)
    page.goto(f"{server.url}/g/{made['id']}?t={made['seats'][0]['token']}")
    expect(page.locator("#notation")).to_be_visible()
    index, cell, value = legal_drag(page)
    tile = page.locator("#rack button.tile").nth(index)
    expect(tile).to_have_attribute("draggable", "true")
    tile.hover()  # while it is dragged, its legal cells light
    page.mouse.down()
    page.locator(f'.cell[data-cell="{cell}"]').hover()
    expect(page.locator(f'.cell.legal[data-cell="{cell}"]')).to_have_count(1)
    page.mouse.up()
    if page.locator("#modal:not([hidden]) #no").count():
        page.click("#no")
    expect(page.locator(f'.cell.current[data-cell="{cell}"] .tok')).to_have_text(value)
    # a drop on an illegal cell gets the usual refusal, with its rule
    page.locator("#rack button.tile").first.drag_to(page.locator('.cell[data-cell="A1"]'))
    expect(page.locator("#message")).to_have_text(re.compile(r"rule C"))
    expect(page.locator('.cell[data-cell="A1"] .tok')).to_have_count(0)


def test_a_token_dragged_by_touch_is_placed(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    made = create(server, [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}], seed=14)
    page.goto(f"{server.url}/g/{made['id']}?t={made['seats'][0]['token']}")
    expect(page.locator("#notation")).to_be_visible()
    index, cell, value = legal_drag(page)
    tile = page.locator("#rack button.tile").nth(index)
    target = page.locator(f'.cell[data-cell="{cell}"]')
    target.scroll_into_view_if_needed()
    start, end = tile.bounding_box(), target.bounding_box()
    assert start and end
    points = [
        (start["x"] + start["width"] / 2, start["y"] + start["height"] / 2),
        (end["x"] + end["width"] / 2, end["y"] + end["height"] / 2),
    ]
    finger = {"pointerId": 7, "pointerType": "touch", "isPrimary": True, "bubbles": True}
    x, y = points[0]
    tile.dispatch_event("pointerdown", {**finger, "clientX": x, "clientY": y})
    for step in range(1, 6):  # a finger moving from the rack to the cell
        x = points[0][0] + (points[1][0] - points[0][0]) * step / 5
        y = points[0][1] + (points[1][1] - points[0][1]) * step / 5
        tile.dispatch_event("pointermove", {**finger, "clientX": x, "clientY": y})
    expect(page.locator(".drag-ghost")).to_have_count(1)
    expect(page.locator(f'.cell.legal.drop-over[data-cell="{cell}"]')).to_have_count(1)
    tile.dispatch_event("pointerup", {**finger, "clientX": x, "clientY": y})
    if page.locator("#modal:not([hidden]) #no").count():
        page.click("#no")
    expect(page.locator(f'.cell.current[data-cell="{cell}"] .tok')).to_have_text(value)
    expect(page.locator(".drag-ghost")).to_have_count(0)
    context.close()
