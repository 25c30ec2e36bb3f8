"""Web traffic benchmark (issue 14, "lean traffic"): bytes per move on the WebSocket and
the latency from a click in one browser to the other seat's screen, printed as JSON.

Usage::

    python benchmarks/web_traffic.py [--seed N] [--variant classic] [--moves 30]
                                     [--no-browser] [--env NAME=VALUE] [--quick]

A real ``mathable serve`` process on a fresh SQLite file.

- ``bytes``: one seeded game between two people at one screen, played to the end by a
  script (the first legal placement in notation order, else ``end``/``draw``/``pass``;
  never an exchange, so that every version plays the same game) through
  ``POST …/actions``. Each seat and a spectator listen on two sockets: one that asks for
  patches (``?patches=1``) and one that does not (the whole view after every action, the
  contract for other clients). For every action, the bytes (UTF-8 JSON text) each socket
  receives: median, max and total per socket; ``whole_view`` is the second kind.
  ``deflated`` estimates them on the wire under ``permessage-deflate`` (which browsers
  and the server agree on): each socket's messages through one raw deflate stream, with
  its context kept from message to message, as that extension does by default.
- ``latency``: an online game between two people in two browser pages (Playwright on
  Debian's chromium), each page its seat. The seat to move picks a token and clicks a
  legal cell (a placement without the extra token's question); the time runs from that
  click (a capturing listener in the first page) to the moment the other page's board
  shows the token (a ``MutationObserver``), both read from the same clock
  (``performance.timeOrigin + performance.now()``). ``--moves`` clicks: median, p95, max.

To measure an older version, export its source and point the server at it:
``git archive <commit> src | tar -x -C /tmp/old && … web_traffic.py --env
PYTHONPATH=/tmp/old/src``: an older server ignores ``?patches=1`` and sends whole views.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

import httpx2
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import GENEROUS_LIMITS, ServerProcess, _commit, ws_url

CHROMIUM = "/usr/bin/chromium-headless-shell"  # as the browser tests (tests/support/browser.py)
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
ROLES = ("seat 0", "seat 1", "spectator")


def choose(view: dict[str, Any]) -> str:
    """The script's action: the first placement without the extra token, else a word."""
    for action in view["legal"]:
        if "=" in action and not action.endswith("+"):
            return str(action)
    for word in ("end", "draw", "pass"):
        if word in view["legal"]:
            return word
    others = [a for a in view["legal"] if not a.startswith("exchange")]
    return str(others[0]) if others else "pass"


def spread(sizes: list[int]) -> dict[str, float | int]:
    if not sizes:
        return {"count": 0}
    return {
        "count": len(sizes),
        "median": statistics.median(sizes),
        "max": max(sizes),
        "total": sum(sizes),
    }


# -- bytes per move ----------------------------------------------------------------------


async def bytes_per_move(url: str, variant: str, seed: int, limit: int) -> dict[str, Any]:
    async with httpx2.AsyncClient(base_url=url, timeout=30) as http:
        body = {
            "variant": variant,
            "players": [{"name": "Ann"}, {"name": "Bob"}],
            "mode": "screen",
            "seed": seed,
        }
        made = (await http.post("/api/games", json=body)).json()
        game_id, tokens = made["id"], [s["token"] for s in made["seats"]]
        sockets: dict[tuple[str, bool], ClientConnection] = {}
        for role, token in zip(ROLES, [*tokens, None], strict=True):
            for patched in (True, False):
                address = ws_url(url, game_id, token)
                if patched:
                    address += ("&" if "?" in address else "?") + "patches=1"
                sockets[role, patched] = await connect(address, max_size=None)
        sizes: dict[tuple[str, bool], list[int]] = {key: [] for key in sockets}
        deflated: dict[tuple[str, bool], list[int]] = {key: [] for key in sockets}
        streams = {key: zlib.compressobj(wbits=-15) for key in sockets}

        def squeezed(key: tuple[str, bool], data: bytes) -> int:
            stream = streams[key]
            return len(stream.compress(data) + stream.flush(zlib.Z_SYNC_FLUSH)) - 4

        first: dict[tuple[str, bool], int] = {}
        for key, socket in sockets.items():  # the first view, whole for all
            data = str(await socket.recv()).encode()
            first[key] = len(data)
            squeezed(key, data)
        actions = 0
        view = (await http.get(f"/api/games/{game_id}")).json()
        while not view["over"] and actions < limit:
            token = tokens[view["to_move"]]
            mine = (await http.get(f"/api/games/{game_id}", params={"token": token})).json()
            answer = await http.post(
                f"/api/games/{game_id}/actions", json={"token": token, "action": choose(mine)}
            )
            answer.raise_for_status()
            actions += 1
            for key, socket in sockets.items():
                data = str(await asyncio.wait_for(socket.recv(), 10)).encode()
                sizes[key].append(len(data))
                deflated[key].append(squeezed(key, data))
            view = (await http.get(f"/api/games/{game_id}")).json()
        for socket in sockets.values():
            await socket.close()
    return {
        "actions": actions,
        "over": view["over"],
        "first_view": {role: first[role, True] for role in ROLES},
        "patched": {role: spread(sizes[role, True]) for role in ROLES},
        "whole_view": {role: spread(sizes[role, False]) for role in ROLES},
        "deflated": {
            "patched": {role: spread(deflated[role, True]) for role in ROLES},
            "whole_view": {role: spread(deflated[role, False]) for role in ROLES},
        },
    }


# -- click to the other screen ------------------------------------------------------------

ARM = """([cell, value]) => {
  window.seenAt = null;
  const shown = () => {
    const token = document.querySelector('.cell[data-cell="' + cell + '"] .tok');
    return token && token.textContent === String(value);
  };
  const observer = new MutationObserver(() => {
    if (!shown()) return;
    window.seenAt = performance.timeOrigin + performance.now();
    observer.disconnect();
  });
  const what = { childList: true, subtree: true, characterData: true };
  observer.observe(document.getElementById("app"), what);
}"""

CLOCK = """async () => {
  document.addEventListener("click",
    () => { window.clickAt = performance.timeOrigin + performance.now(); }, true);
  window.core = await import("/static/core.js");
}"""

CAUGHT_UP = "seq => window.core.state.view && window.core.state.view.seq === seq"


def online_game(url: str) -> tuple[str, list[str]]:
    """A new online game between Ann and Bob (Bob's invitation taken): its id, tokens."""
    made = httpx2.post(
        url + "/api/games",
        json={"variant": "classic", "players": [{"name": "Ann"}, {"name": "Bob"}]},
    ).json()
    joined = httpx2.post(
        f"{url}/api/games/{made['id']}/join",
        json={"invite": made["seats"][1]["invite"].split("invite=")[1]},
    ).json()
    return made["id"], [made["seats"][0]["token"], joined["token"]]


def latency(url: str, moves: int) -> dict[str, Any]:
    """Click-to-other-screen times over ``moves`` placements (new games as they end)."""
    from playwright.sync_api import Page, expect, sync_playwright

    times: list[float] = []
    games = 0
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        contexts = [browser.new_context(viewport={"width": 1100, "height": 850}) for _ in "AB"]
        pages: list[Page] = [context.new_page() for context in contexts]
        game_id, tokens, over = "", ["", ""], True
        while len(times) < moves:
            if over:  # (another) game: both pages open it
                game_id, tokens = online_game(url)
                games += 1
                for page, token in zip(pages, tokens, strict=True):
                    page.goto(f"{url}/g/{game_id}?t={token}")
                    page.wait_for_selector("#board")
                    page.evaluate(CLOCK)
            view = httpx2.get(f"{url}/api/games/{game_id}").json()
            over = view["over"]
            if over:
                continue
            mover = view["to_move"]
            mine = httpx2.get(f"{url}/api/games/{game_id}", params={"token": tokens[mover]}).json()
            page, other = pages[mover], pages[1 - mover]
            for each in pages:  # both pages hold the latest view before the click
                each.wait_for_function(CAUGHT_UP, arg=view["seq"], timeout=10_000)
            places = [
                a
                for a in mine["legal"]
                if "=" in a and not a.endswith("+") and a + "+" not in mine["legal"]
            ]
            if not places:
                word = "end" if "end" in mine["legal"] else "pass"
                page.click(f"#{word}")
                expect(other.locator("#moves li")).to_have_count(len(view["summaries"]) + 1)
                continue
            cell, value = places[0].split("=")
            expect(page.locator(f'.cell[data-cell="{cell}"]')).to_be_enabled()
            tile = page.locator(f'#rack button.tile[data-value="{value}"]').first
            for _ in range(50):  # a click just after the page loads may not pick (yet)
                tile.click()
                if page.locator("#rack button.tile.picked").count():
                    break
                page.wait_for_timeout(100)
            other.evaluate(ARM, [cell, value])
            page.locator(f'.cell[data-cell="{cell}"]').click()
            other.wait_for_function("() => window.seenAt !== null", timeout=10_000)
            clicked = page.evaluate("() => window.clickAt")
            seen = other.evaluate("() => window.seenAt")
            times.append(seen - clicked)
            expect(page.locator(f'.cell[data-cell="{cell}"] .tok')).to_have_text(value)
        browser.close()
    ordered = sorted(times)
    return {
        "moves": len(ordered),
        "games": games,
        "median_ms": round(statistics.median(ordered), 2) if ordered else None,
        "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2)
        if ordered
        else None,
        "max_ms": round(ordered[-1], 2) if ordered else None,
    }


# -- the run --------------------------------------------------------------------------


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=5, help="the scripted game's deal")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--actions", type=int, default=600, help="at most, for the bytes")
    parser.add_argument("--moves", type=int, default=30, help="clicks timed in the browser")
    parser.add_argument("--no-browser", action="store_true", help="bytes only")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the server")
    parser.add_argument("--quick", action="store_true", help="40 actions, 5 clicks")
    args = parser.parse_args(argv)
    if args.quick:
        args.actions, args.moves = 40, 5
    return args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    report: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d"),
        "commit": _commit(),
        "python": platform.python_version(),
        "config": {key: getattr(args, key) for key in ("seed", "variant", "moves", "env")},
    }
    with tempfile.TemporaryDirectory(prefix="mathable-traffic-") as name:
        folder = Path(name)
        env = {**os.environ, **GENEROUS_LIMITS, "DATABASE_URL": f"sqlite:///{folder / 'g.db'}"}
        env.update(item.split("=", 1) for item in args.env)
        server = ServerProcess(0, env, folder).start()
        try:
            report["bytes"] = asyncio.run(
                bytes_per_move(server.url, args.variant, args.seed, args.actions)
            )
            if not args.no_browser:
                report["latency"] = latency(server.url, args.moves)
        finally:
            server.stop()
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
