"""The home page lists your games and the online games being played, never another
person's game at one screen (issue 30, finding 7): ``GET /api/games`` over the API on
both databases, and the page in chromium."""

from __future__ import annotations

from typing import Any

import httpx2
from fastapi.testclient import TestClient
from playwright.sync_api import Page, expect

from mathable.web.api import create_app
from support.browser import serious
from webserver import Server


def _made(client: TestClient | Any, mode: str, names: tuple[str, str]) -> str:
    body = {"players": [{"name": names[0]}, {"name": names[1]}], "mode": mode}
    made = client.post("/api/games", json=body, headers={"X-Requested-With": "test"})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def _ids(client: TestClient, query: str = "") -> list[str]:
    answer = client.get("/api/games" + query)
    assert answer.status_code == 200, answer.text
    return [g["id"] for g in answer.json()]


def test_each_browser_sees_its_own_games_and_the_online_ones_only(database_url: str) -> None:
    app = create_app(database_url)
    ann, bob, visitor = TestClient(app), TestClient(app), TestClient(app)
    ann.get("/api/me"), bob.get("/api/me")  # each browser's session cookie
    ann_screen = _made(ann, "screen", ("Ann", "Al"))
    bob_screen = _made(bob, "screen", ("Bob", "Bea"))
    ann_online = _made(ann, "online", ("Ann", "Cleo"))
    # Ann: her two games, newest first; never Bob's game at his screen
    assert _ids(ann) == [ann_online, ann_screen]
    assert _ids(ann, "?mine=true") == [ann_online, ann_screen]
    # Bob: his own game and the online game anyone may watch
    assert _ids(bob) == [ann_online, bob_screen]
    assert _ids(bob, "?mine=true") == [bob_screen]
    # a visitor without a cookie: the online game only; the watch list as before
    assert _ids(visitor) == [ann_online] and _ids(visitor, "?mine=true") == []
    assert _ids(visitor, "?live=true") == [ann_online]
    # the shape of each game is unchanged
    listed = ann.get("/api/games").json()[1]
    assert listed["id"] == ann_screen and listed["mode"] == "screen"
    assert set(listed) >= {"id", "created", "variant", "players", "bots", "scores", "over"}
    # a game at one screen made without a session (an API client) is listed to nobody
    hidden = _made(TestClient(app), "screen", ("Dan", "Eve"))
    assert all(hidden not in _ids(c) for c in (ann, bob, visitor))
    assert ann.get("/api/games?mine=maybe").status_code == 422


def test_the_home_page_lists_mine_and_the_online_games_not_a_strangers(
    server: Server, page: Page
) -> None:
    """A stranger's one-screen game stays off this browser's home page; this browser's
    own game and an online game being played are on it, each in its list."""
    with httpx2.Client(base_url=server.url, headers={"X-Requested-With": "test"}) as stranger:
        stranger.get("/api/me")
        theirs = _made(stranger, "screen", ("Zed", "Zoe"))
        watched = _made(stranger, "online", ("Xan", "Yan"))
    page.goto(server.url + "/")
    page.evaluate("fetch('/api/me')")  # this browser's session cookie
    made = page.evaluate(
        """() => fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'},
             body: JSON.stringify({players: [{name: 'Ann'}, {bot: 'greedy'}], mode: 'screen'})})
             .then(r => r.json())"""
    )
    page.goto(server.url + "/")
    mine = page.locator("#my-games")
    expect(mine.locator(f"[data-game='{made['id']}']")).to_be_visible()
    expect(page.locator("#live-games").locator(f"[data-game='{watched}']")).to_be_visible()
    expect(page.locator(f"[data-game='{theirs}']")).to_have_count(0)
    expect(page.locator("#my-games-title")).to_have_text("Your games")
    assert serious(page) == []
