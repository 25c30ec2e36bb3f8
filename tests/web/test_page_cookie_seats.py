"""Issue 29, findings 7, 8 and 9 in real browsers (Playwright on Debian's chromium).

One identity for seats: Ann and Bob, each in a browser of their own with an account, meet
in the lobby for a rated 3 + 2 game; their seats are bound to their session cookies, the
pages hold no token, and still every control is there: Abort before anyone has moved,
Replay so far, Resign (confirmed) from Ann's page, then the rematch from the game-over
panel, asked by Ann and joined by Bob, rated with the same clock and the other player to
move first. Seeds are exact: the seed a finished game's panel shows, typed into the
new-game form, deals the same game (the same racks); an older game's seed near 2^63 shows
every digit, and the form sends it as typed (the server says why it refuses it)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from mathable.engine import records
from mathable.games.registry import new_game
from support import oneoff
from support.browser import DESKTOP, create, serious
from support.online import act, game_id_of, join, offer, seat_view, sign_up
from webserver import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(
        Path(tmp_path_factory.mktemp("cookie-seats")) / "games.db",
        env={"MATHABLE_RATE_ACTION": "off"},
    ).start()
    yield running
    running.stop()


@pytest.fixture()
def contexts(browser: Browser, server: Server) -> Iterator[list[BrowserContext]]:
    """Two people, each in a browser of their own (``page.request`` shares its cookie)."""
    made = [browser.new_context(viewport=DESKTOP, base_url=server.url) for _ in range(2)]
    yield made
    for context in made:
        context.close()


def test_a_lobby_game_is_resigned_and_rematched_from_the_page_by_cookie_seats(
    server: Server, contexts: list[BrowserContext]
) -> None:
    ann, bob = (context.new_page() for context in contexts)
    for page in (ann, bob):
        page.goto(server.url + "/lobby")
        expect(page.locator("#seek-form")).to_be_visible()
    sign_up(ann, "Ann")
    sign_up(bob, "Bob")
    offer(ann, "3 + 2")
    join(bob, "Ann", "3 + 2")
    game_id = game_id_of(bob)
    expect(ann).to_have_url(re.compile(game_id + "$"))
    for page in (ann, bob):  # no token anywhere: the cookie holds the seat
        expect(page.get_by_role("group", name="board")).to_be_visible()
        assert page.evaluate(f"localStorage.getItem('mathable:{game_id}')") is None
        expect(page.locator("#abort")).to_be_visible()  # nobody has moved yet
    start = seat_view(ann, game_id)
    first = start["players"][start["to_move"]]  # who moved first in this game
    pages = {seat_view(page, game_id)["seat"]: page for page in (ann, bob)}
    for _ in range(2):  # each player's first move (resigning comes after: O4)
        act(pages[seat_view(ann, game_id)["to_move"]], game_id, "pass")
    expect(ann.locator("#abort")).to_have_count(0)
    expect(ann.locator("#resign")).to_be_visible()
    replay = ann.locator("#replay-so-far-link")
    expect(replay).to_be_visible()
    assert "t=" not in str(replay.get_attribute("href"))

    ann.click("#resign")
    expect(ann.locator("#modal-question")).to_contain_text("Bob wins")
    ann.click("#yes")
    for page in (ann, bob):
        expect(page.locator("#summary")).to_contain_text("Ann resigned")
        expect(page.locator("#rating-changes")).to_be_visible()  # rated, from the page
    assert serious(ann) == []

    expect(ann.locator("#rematch")).to_have_text("Rematch")
    ann.click("#rematch")
    expect(ann).not_to_have_url(re.compile(game_id))
    rematch = game_id_of(ann)
    expect(bob.locator("#rematch")).to_have_text("Rematch offered: join")  # told live
    bob.click("#rematch")
    expect(bob).to_have_url(re.compile(f"/g/{rematch}$"))
    expect(ann).to_have_url(re.compile(f"/g/{rematch}$"))  # no credential in the address
    fresh = seat_view(ann, rematch)
    assert fresh["clock"] == {"minutes": 3, "increment": 2} and fresh["rated"] is True
    assert fresh["players"][fresh["to_move"]] != first  # the order swapped
    for page, name in ((ann, "Ann"), (bob, "Bob")):
        mine = seat_view(page, rematch)
        assert mine["players"][mine["seat"]] == name
        expect(page.get_by_role("group", name="board")).to_be_visible()
        expect(page.locator("#clocks")).to_contain_text("rated")
        expect(page.locator("#abort")).to_be_visible()  # its controls, by the cookie


def finish(server: Server, game_id: str, tokens: list[str]) -> None:
    """Pass until the game ends (C11c: two full rounds without a placement)."""
    api = f"{server.url}/api/games/{game_id}"
    for _ in range(12):
        now = oneoff.get(api).json()
        if now["over"]:
            return
        token = tokens[now["to_move"]]
        oneoff.post(f"{api}/actions", json={"token": token, "action": "pass"}).raise_for_status()
    raise AssertionError("the game did not end")


def test_the_shown_seed_typed_into_the_new_game_form_deals_the_same_game(
    server: Server, contexts: list[BrowserContext]
) -> None:
    made = create(server, [{"name": "Ann"}, {"name": "Bob"}], seed=None)  # online
    code = made["seats"][1]["invite"].split("invite=")[1]
    joined = oneoff.post(f"{server.url}/api/games/{made['id']}/join", json={"invite": code})
    finish(server, made["id"], [made["seats"][0]["token"], joined.json()["token"]])
    page = contexts[0].new_page()
    page.goto(f"{server.url}/g/{made['id']}")  # its seed is shown at the end (O1)
    shown = page.locator("#seed-shown")
    expect(shown).to_be_visible()
    found = re.search(r"\d+", shown.inner_text())
    assert found is not None
    seed = found.group(0)

    page.goto(server.url + "/")
    page.select_option("#kind1", "")  # Bob a person too, as in the finished game
    page.fill("#seed", seed)
    page.click("#create")
    expect(page).to_have_url(re.compile(r"/g/[\w-]+\?screen=1$"))
    again = game_id_of(page)
    held = json.loads(page.evaluate(f"localStorage.getItem('mathable:{again}')"))
    dealt: dict[str, Any] = oneoff.get(f"{server.url}/api/games/{made['id']}/replay?step=0").json()
    for seat in range(2):
        mine = oneoff.get(f"{server.url}/api/games/{again}?token={held[str(seat)]}").json()
        assert mine["rack"] == dealt["racks"][seat]  # the same deal
        assert mine["to_move"] == dealt["view"]["to_move"]


def test_an_older_games_larger_seed_shows_every_digit(
    server: Server, contexts: list[BrowserContext]
) -> None:
    seed = 2**63 - 25  # drawn before issue 29, or a record made elsewhere
    record = records.dumps(new_game("classic", ["Ann", "Bob"], seed=seed))
    answer = oneoff.post(
        f"{server.url}/api/records", content=record, headers={"content-type": "application/json"}
    )
    assert answer.status_code == 201, answer.text
    made = answer.json()
    finish(server, made["id"], [s["token"] for s in made["seats"]])
    page = contexts[0].new_page()
    page.goto(f"{server.url}/g/{made['id']}")
    expect(page.locator("#seed-shown")).to_contain_text(str(seed))
    page.goto(server.url + "/")
    page.fill("#seed", str(seed))
    page.click("#create")  # sent as typed: refused with the field's reason
    expect(page.locator("#message")).to_contain_text("seed: less than 9007199254740992")
