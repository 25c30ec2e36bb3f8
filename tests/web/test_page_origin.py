"""Issue 30, finding 1 in a real browser (Playwright on Debian's chromium): a page on a
second origin of the same site (another port of 127.0.0.1) is the attacker.

``SameSite=Lax`` lets the victim's session cookie go with that page's requests (same site),
which is the attack: it posts the body-less join of an open seek, and opens the socket of
the victim's game and the lobby's, with the victim's cookie. The server answers the join
403 (the seek stays open) and refuses both sockets before they say anything (no rack is
read). Back on the site's own page, the victim joins the same seek with a click: the
page's own requests pass."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, expect

from support import oneoff
from support.browser import DESKTOP
from webserver import Server, free_port

ATTACK_PAGE = b"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Another origin</title></head>
<body><main><h1>Another origin of the same site</h1></main></body></html>
"""

ATTACK = """async ([site, seek, game]) => {
  // the victim's cookie goes along (same site); the attacker cannot read the answer,
  // the test reads its status from the network
  await fetch(site + "/api/seeks/" + seek + "/join",
              { method: "POST", mode: "no-cors", credentials: "include" });
  const listen = path => new Promise(resolve => {
    const ws = new WebSocket(site.replace("http", "ws") + path);
    const read = [];
    // the first message is enough: the attack has read what the socket gives
    ws.onmessage = event => {
      read.push(String(event.data));
      resolve({ code: null, read });
      ws.close();
    };
    ws.onclose = event => resolve({ code: event.code, read });
  });
  return { game: await listen("/api/games/" + game + "/ws"), lobby: await listen("/api/lobby/ws") };
}"""


class AttackPage(BaseHTTPRequestHandler):
    """Serves the attacker's page, on its own port."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(ATTACK_PAGE)))
        self.end_headers()
        self.wfile.write(ATTACK_PAGE)

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(Path(tmp_path_factory.mktemp("origin")) / "games.db").start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def elsewhere() -> Iterator[str]:
    """The attacker's origin: ``http://127.0.0.1:<another port>``."""
    port = free_port()
    site = ThreadingHTTPServer(("127.0.0.1", port), AttackPage)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    site.shutdown()
    site.server_close()


def test_a_page_on_another_port_cannot_join_or_listen_as_the_victim(
    browser: Browser, server: Server, elsewhere: str
) -> None:
    with httpx2.Client(base_url=server.url) as ann:  # Ann offers a game in the lobby
        ann.patch("/api/me", json={"name": "Ann"}).raise_for_status()
        made = ann.post("/api/seeks", json={"variant": "classic"})
        assert made.status_code == 201, made.text
        seek_id = made.json()["id"]
    context = browser.new_context(viewport=DESKTOP, base_url=server.url)
    victim = context.new_page()
    victim.goto(server.url + "/lobby")
    expect(victim.locator("#seek-rows tr", has_text="Ann")).to_be_visible()
    players = [{"name": "Bob"}, {"name": "Cid"}]  # a game of the victim's, by cookie
    game = victim.request.post("/api/games", data={"variant": "classic", "players": players})
    assert game.ok, game.text()
    game_id = game.json()["id"]

    victim.goto(elsewhere + "/attack.html")
    with victim.expect_response(re.compile(r"/join$")) as answer:
        attempts = victim.evaluate(ATTACK, [server.url, seek_id, game_id])
    assert answer.value.status == 403
    for socket in ("game", "lobby"):  # refused at the handshake: nothing read
        assert attempts[socket]["read"] == [], attempts
        assert attempts[socket]["code"] == 1006, attempts  # the browser's "no handshake"
    seek = oneoff.get(f"{server.url}/api/seeks/{seek_id}").json()
    assert seek["open_seats"] == 1 and seek["status"] == "open"

    victim.goto(server.url + "/lobby")  # the site's own page: the same join passes
    row = victim.locator("#seek-rows tr", has_text="Ann")
    row.get_by_role("button", name=re.compile("^Join ")).click()
    expect(victim).to_have_url(re.compile(r"/g/[\w-]+$"))
    expect(victim.get_by_role("group", name="board")).to_be_visible()
    context.close()
