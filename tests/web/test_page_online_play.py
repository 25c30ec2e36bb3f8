"""Issue 15's whole story in real browsers (Playwright on Debian's chromium), each person
in a browser of their own (their own session cookie):

Ann and Bob make accounts in the header, meet in the lobby and start two rated classic
games: a 1-minute game that nobody plays (the player to move runs out of time while the
other game goes on) and a 5 + 3 game played to the end, with a few turns by clicks and
the rest over the API with each browser's own cookie, chatting on the way. Cid, a guest,
finds the 5 + 3 game in the lobby's games being played and watches it live. At the end
both see their rating change, their new ratings on their profiles and both games in
their histories; the leaderboard lists them. Screenshots: the lobby, a game with clocks
and chat, a profile (docs/web-online-*.png with MATHABLE_DOCS_SCREENSHOTS=1)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from support.browser import DESKTOP, play_one_turn, serious, shot
from support.online import act, game_id_of, join, offer, seat_view, sign_up
from webserver import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose limits let three browsers on one address play a whole game fast."""
    running = Server(
        Path(tmp_path_factory.mktemp("online")) / "games.db",
        env={"MATHABLE_RATE_ACTION": "off", "MATHABLE_RATE_CHAT": "200/minute"},
    ).start()
    yield running
    running.stop()


@pytest.fixture()
def contexts(browser: Browser, server: Server) -> Iterator[list[BrowserContext]]:
    """Three people, each in a browser of their own (``page.request`` shares its cookie)."""
    made = [browser.new_context(viewport=DESKTOP, base_url=server.url) for _ in range(3)]
    yield made
    for context in made:
        context.close()


def choose(view: dict[str, Any]) -> str:
    """A plain player's choice: the first legal placement, else end the turn, else
    exchange its three highest tokens while the bag has them, else pass."""
    placements = [a for a in view["legal"] if "=" in a]
    if placements:
        return str(placements[0])
    if "end" in view["legal"]:
        return "end"
    if "exchange" in view["available"] and view["bag_size"] >= 3:
        return "exchange " + ",".join(str(v) for v in sorted(view["rack"])[-3:])
    return "pass"


def play_to_the_end(pages: dict[int, Page], game_id: str) -> int:
    """Each seat's browser acts over the API with its own cookie until the game is over;
    the number of actions."""
    for actions in range(2_000):
        view = seat_view(pages[0], game_id)
        if view["over"]:
            return actions
        mover = pages[view["to_move"]]
        act(mover, game_id, choose(seat_view(mover, game_id)))
    raise AssertionError("the game did not end in 2,000 actions")


@pytest.mark.realtime
def test_meet_play_rated_games_chat_watch_and_see_ratings(
    server: Server, contexts: list[BrowserContext]
) -> None:
    ann, bob, cid = (context.new_page() for context in contexts)
    for page in (ann, bob, cid):
        page.goto(server.url + "/lobby")
        expect(page.locator("#seek-form")).to_be_visible()
    ann_id, bob_id = sign_up(ann, "Ann"), sign_up(bob, "Bob")

    # the 1-minute game first: its clock runs down while the other game is played
    offer(ann, "1 minute")
    join(bob, "Ann", "1 minute")
    flagged = game_id_of(bob)
    expect(ann).to_have_url(re.compile(flagged))
    # each makes a first move (O4: no clock runs before it, and a game nobody starts is
    # aborted after 30 s), over the API with each browser's cookie
    seats = {seat_view(ann, flagged)["seat"]: ann, seat_view(bob, flagged)["seat"]: bob}
    for _first in range(2):
        mover_seat = seat_view(ann, flagged)["to_move"]
        mover = seats[mover_seat]
        while seat_view(mover, flagged)["to_move"] == mover_seat:
            act(mover, flagged, choose(seat_view(mover, flagged)))
    flag_deadline = time.monotonic() + 60
    for page in (ann, bob):
        page.goto(server.url + "/lobby")

    offer(ann, "5 + 3")
    shot(bob, "online-lobby")
    assert serious(bob) == []
    join(bob, "Ann", "5 + 3")
    game_id = game_id_of(bob)
    expect(ann).to_have_url(re.compile(game_id))
    for page in (ann, bob):
        expect(page.get_by_role("group", name="board")).to_be_visible()
        expect(page.locator("#clocks")).to_contain_text("rated")
    assert "t=" not in ann.url and "t=" not in bob.url  # no credential in the address

    # Cid, a guest, finds the game among those being played and watches it
    cid.reload()
    watch = cid.locator("#watch-rows tr", has=cid.locator(f'a[href="/g/{game_id}"]'))
    watch.get_by_role("link", name=re.compile("^Watch")).click()
    expect(cid).to_have_url(re.compile(game_id))
    expect(cid.get_by_role("group", name="board")).to_be_visible()
    assert seat_view(cid, game_id)["seat"] is None

    # chat: the players' room reaches the other player
    ann.fill("#chat-text", "Good luck, Bob!")
    ann.click("#chat-send")
    expect(bob.locator("#chat")).to_contain_text("Good luck, Bob!")

    # a turn each by clicks, then the rest over the API with each browser's cookie
    pages = {seat_view(ann, game_id)["seat"]: ann, seat_view(bob, game_id)["seat"]: bob}
    assert set(pages) == {0, 1}
    for _ in range(2):
        mover = pages[seat_view(ann, game_id)["to_move"]]
        expect(mover.locator("#pass, #end").first).to_be_visible(timeout=10_000)
        play_one_turn(mover)
    expect(cid.get_by_role("list", name="Moves")).to_contain_text("Ann:")  # live
    shot(ann, "online-game")
    assert serious(ann) == []
    assert play_to_the_end(pages, game_id) > 10

    for page in (ann, bob):
        expect(page.locator("#summary")).to_be_visible(timeout=10_000)
        expect(page.locator("#rating-changes")).to_contain_text(re.compile(r"[+−-]\d+"))
    expect(cid.locator("#summary")).to_be_visible(timeout=10_000)

    # the 1-minute game: the player to move ran out of time, stored by the server (the
    # server's process runs on the real clock: polled past the flag, bounded, not timed)
    over = seat_view(ann, flagged)
    while not over["over"] and time.monotonic() < flag_deadline + 60:
        ann.wait_for_timeout(250)
        over = seat_view(ann, flagged)
    assert over["over"] and "ran out of time" in over["end_reason"]
    ann.goto(f"{server.url}/g/{flagged}")
    expect(ann.locator("#summary")).to_contain_text("ran out of time")

    # profiles: new ratings and both games in each history
    for page, player in ((ann, ann_id), (bob, bob_id)):
        profile = page.request.get(f"/api/players/{player}").json()
        classic = [r for r in profile["ratings"] if (r["game"], r["pace"]) == ("classic", "live")]
        assert classic and classic[0]["games"] == 2 and classic[0]["rating"] != 1500
        history = page.request.get(f"/api/players/{player}/games").json()
        assert {g["id"] for g in history["games"]} == {game_id, flagged}
        page.click("#me-name")
        expect(page).to_have_url(re.compile(f"/players/{player}$"))
        expect(page.locator("#ratings")).to_contain_text("Mathable")
        for listed in (game_id, flagged):
            expect(page.locator(f'a[href="/g/{listed}"]').first).to_be_visible()
    shot(ann, "online-profile")
    assert serious(ann) == []
    cid.goto(server.url + "/leaderboard")
    expect(cid.locator("main")).to_contain_text("Ann")
    expect(cid.locator("main")).to_contain_text("Bob")
