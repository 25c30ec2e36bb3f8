"""Lean traffic (issue 14, item 7) in a real browser: after the first view, the page's
socket carries patches, smaller than the whole view, and both seats' screens agree with
the server's whole view after several turns; no exchange is listed; a missed patch is
mended by a whole view; the page's files and JSON answers are gzipped and the files
still revalidated (304). Fixtures and helpers come from ``test_browser``."""

from __future__ import annotations

import gzip
import json
from typing import Any

import httpx2
from playwright.sync_api import Browser, Page, WebSocket, WebSocketRoute, expect

from mathable.web.infra.patches import apply_patch
from support import oneoff
from support.browser import DESKTOP, create, play_one_turn, settled
from webserver import Server


def whole(server: Server, game_id: str, token: str | None) -> dict[str, Any]:
    """The server's whole view for a seat (None: a spectator), over HTTP."""
    params = {"token": token} if token else {}
    answer = oneoff.get(f"{server.url}/api/games/{game_id}", params=params)
    assert answer.status_code == 200, answer.text
    view: dict[str, Any] = answer.json()
    return view


def text(message: dict[str, Any]) -> str:
    """A message as the server writes it (compact JSON)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def agrees(page: Page, view: dict[str, Any]) -> None:
    """The page's view and screen are the server's whole view: the board, the scores
    and the move list."""
    assert settled(page, view["seq"]) == view
    cells = page.locator("#board .cell").evaluate_all(
        "cells => cells.map(c => c.querySelector('.tok') ? Number(c.querySelector('.tok')"
        ".textContent) : -1)"
    )
    assert cells == view["surface"]
    expect(page.locator("#scores td.score")).to_have_text([str(s) for s in view["scores"]])
    expect(page.locator("#moves li .move")).to_have_text(
        [
            f"{view['players'][s['seat']]}: {s['notation']}"
            + (f" ({s['note']})" if s["note"] else "")
            for s in view["summaries"]
        ]
    )


def recorded(page: Page) -> list[str]:
    """The text of every message the page's game sockets receive, in order."""
    frames: list[str] = []

    def watch(socket: WebSocket) -> None:
        if "/ws" in socket.url:
            socket.on("framereceived", lambda payload: frames.append(str(payload)))

    page.on("websocket", watch)
    return frames


def test_two_pages_play_on_patches_and_agree_with_the_server(
    server: Server, browser: Browser
) -> None:
    made = create(server, [{"name": "Ann"}, {"name": "Bob"}], seed=None)
    game_id, ann = made["id"], made["seats"][0]
    pages: list[Page] = []
    frames: list[list[str]] = []
    for link in [f"?t={ann['token']}", made["seats"][1]["invite"].split(game_id)[1]]:
        page = browser.new_context(viewport=DESKTOP).new_page()
        frames.append(recorded(page))
        page.goto(f"{server.url}/g/{game_id}{link}")
        page.wait_for_selector("#board")
        pages.append(page)
    expect(pages[1].locator("#joined")).to_contain_text("You play Bob")
    assert pages[1].url.endswith(f"/g/{game_id}")  # no credential in the address
    kept = pages[1].evaluate(f"localStorage.getItem('mathable:{game_id}')")
    tokens = [ann["token"], json.loads(kept)["1"]]
    exchanges = 0
    for turn in range(4):
        mover = whole(server, game_id, None)["to_move"]
        expect(pages[mover].locator("#rack button.tile").first).to_be_enabled()
        play_one_turn(pages[mover])
        expect(pages[1 - mover].locator("#moves li")).to_have_count(turn + 1)
    for page, token, texts in zip(pages, tokens, frames, strict=True):
        view = whole(server, game_id, token)
        agrees(page, view)
        # the socket: a whole view first, then patches only, each smaller than the view
        messages = [json.loads(t) for t in texts]
        kinds = [m["type"] for m in messages if m["type"] != "error"]
        assert kinds[0] == "view" and len(kinds) > 4 and set(kinds[1:]) == {"patch"}
        rebuilt: dict[str, Any] = messages[0]["view"]
        for sent, message in zip(texts[1:], messages[1:], strict=True):
            if message["type"] == "patch":
                rebuilt = apply_patch(rebuilt, message)
                assert len(sent) < len(text({"type": "view", "view": rebuilt}))
                if rebuilt["seat"] == rebuilt["to_move"]:
                    exchanges += "exchange" in rebuilt["available"]
                assert not [a for a in rebuilt["legal"] if a.startswith("exchange")]
        assert rebuilt == view  # what was sent makes the server's view
    assert exchanges > 0  # exchanging was possible, and not one was listed


def test_a_missed_patch_is_mended_with_the_whole_view(server: Server, browser: Browser) -> None:
    """The page's first patch is lost on the way: the next does not follow the page's
    view, so the page asks for the whole view and shows the game as it is."""
    made = create(server, [{"name": "Ann"}, {"name": "Bob"}], seed=8)
    game_id, tokens = made["id"], [s["token"] for s in made["seats"]]
    page = browser.new_context(viewport=DESKTOP).new_page()
    to_server: list[str] = []
    dropped: list[str] = []

    def relay(route: WebSocketRoute) -> None:
        real = route.connect_to_server()

        def down(message: str | bytes) -> None:
            if not dropped and json.loads(message)["type"] == "patch":
                dropped.append(str(message))  # lost
                return
            route.send(message)

        def up(message: str | bytes) -> None:
            to_server.append(str(message))
            real.send(message)

        real.on_message(down)
        route.on_message(up)

    page.route_web_socket("**/ws**", relay)
    page.goto(f"{server.url}/g/{game_id}?t={tokens[1]}")
    page.wait_for_selector("#board")
    for _ in range(3):  # actions by the seat to move, through the API
        view = whole(server, game_id, None)
        mine = whole(server, game_id, tokens[view["to_move"]])
        places = [a for a in mine["legal"] if "=" in a and not a.endswith("+")]
        action = places[0] if places else "end" if "end" in mine["legal"] else "pass"
        answer = oneoff.post(
            f"{server.url}/api/games/{game_id}/actions",
            json={"token": tokens[view["to_move"]], "action": action},
        )
        assert answer.status_code == 200, answer.text
    now = whole(server, game_id, tokens[1])
    agrees(page, now)  # (waits for the page: the socket's messages pass meanwhile)
    assert len(dropped) == 1 and json.loads(dropped[0])["from"] == 0
    assert [json.loads(m) for m in to_server] == [{"type": "sync"}]


def test_files_and_json_answers_are_gzipped_and_files_revalidated(server: Server) -> None:
    for path in ("/static/play.js", "/api/variants"):
        plain = oneoff.get(server.url + path, headers={"Accept-Encoding": "identity"})
        packed = oneoff.get(server.url + path, headers={"Accept-Encoding": "gzip"})
        assert "Content-Encoding" not in plain.headers
        assert packed.headers["Content-Encoding"] == "gzip"
        assert int(packed.headers["Content-Length"]) < len(plain.content) / 2
        assert packed.content == plain.content  # httpx2 unpacks it
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert "default-src 'self'" in packed.headers["Content-Security-Policy"]
    small = oneoff.get(server.url + "/api/keeper/games", headers={"Accept-Encoding": "gzip"})
    assert small.status_code == 200 and len(small.content) < 1000
    assert "Content-Encoding" not in small.headers  # too small to be worth packing
    raw = oneoff.get(server.url + "/static/play.js", headers={"Accept-Encoding": "gzip"})
    with httpx2.stream(
        "GET", server.url + "/static/play.js", headers={"Accept-Encoding": "gzip"}
    ) as stream:
        assert gzip.decompress(b"".join(stream.iter_raw())) == raw.content
    again = oneoff.get(
        server.url + "/static/play.js",
        headers={"Accept-Encoding": "gzip", "If-None-Match": raw.headers["ETag"]},
    )
    assert again.status_code == 304 and again.content == b""
    assert again.headers["Cache-Control"] == "no-cache"  # revalidated each time
