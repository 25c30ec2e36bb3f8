"""First-paint benchmark (issue 32, "fast first paint"): the time from navigation to the
board on the game page (and to the new-game form on Home), the script requests and the
views the page receives, in Playwright on Debian's chromium, printed as JSON.

Usage::

    python benchmarks/first_paint.py [--loads 5] [--env NAME=VALUE] [--quick]

A real ``mathable serve`` process on a fresh SQLite file and a seeded classic game
between two people, its first seat's page opened by its private link (``?t=``). Each
page is loaded ``--loads`` times:

- ``cold``: each load in a new browser context (an empty cache, no cookie but the
  language's);
- ``warm``: in one context, after a first load that fills its cache.

For each, the median and max of ``board_ms`` (``performance.now()`` when the first cell
of ``#board`` is in the document, read by a ``MutationObserver`` installed before the
page's scripts: navigation start is its zero), the median ``scripts`` (script requests
the page made, from Playwright's ``request`` events, answered from the cache or not),
``scripts_network`` (those that went to the server, from the DevTools protocol: a
memory- or disk-cache hit is not one), ``script_waves`` (the distinct network start
times of the scripts, grouped within 5 ms: how many round trips the module graph took)
and ``views`` (the game's view fetched by GET plus whole views received on its socket,
no move being made meanwhile). Targets: ≤ 400 ms to the board on localhost, ≤ 4 script requests.

To measure an older version, export its source and point the server at it:
``git archive <commit> src | tar -x -C /tmp/old && … first_paint.py --env
PYTHONPATH=/tmp/old/src``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx2
from playwright.sync_api import BrowserContext, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import GENEROUS_LIMITS, ServerProcess, _commit

CHROMIUM = "/usr/bin/chromium-headless-shell"  # as the browser tests (tests/support/browser.py)
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
WATCH = """
(() => {
  const selector = %s;
  const seen = () => {
    if (window.__painted === undefined && document.querySelector(selector)) {
      window.__painted = performance.now();
    }
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
})();
"""
PAGES = {"game": "#board [data-cell]", "home": "#variant"}


def load(context: BrowserContext, url: str, selector: str) -> dict[str, Any]:
    """One navigation: the time to ``selector``, its script requests and views."""
    page = context.new_page()
    page.add_init_script(WATCH % json.dumps(selector))
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    network: dict[str, float] = {}  # request id -> start (s), scripts that reached the server
    kinds: dict[str, str] = {}

    def sent(event: dict[str, Any]) -> None:
        kinds[event["requestId"]] = event.get("type", "")

    def answered(event: dict[str, Any]) -> None:
        response = event["response"]
        cached = response.get("fromDiskCache") or response.get("fromPrefetchCache")
        if event.get("type") == "Script" and not cached and response.get("timing"):
            network[event["requestId"]] = response["timing"]["requestTime"]

    session.on("Network.requestWillBeSent", sent)
    session.on("Network.responseReceived", answered)
    scripts: list[str] = []
    views = 0

    def requested(request: Any) -> None:
        nonlocal views
        if request.resource_type == "script":
            scripts.append(request.url)
        if re.search(r"/api/games/[\w-]+(\?|$)", request.url):
            views += 1

    def socket(ws: Any) -> None:
        def frame(payload: str | bytes) -> None:
            nonlocal views
            if '"type":"view"' in str(payload)[:40]:
                views += 1

        ws.on("framereceived", frame)

    page.on("request", requested)
    page.on("websocket", socket)
    page.goto(url)
    page.wait_for_selector(selector, state="attached", timeout=30000)
    painted = float(page.evaluate("window.__painted"))
    page.wait_for_load_state("networkidle")
    starts = sorted(network.values())
    waves = sum(1 for i, s in enumerate(starts) if i == 0 or s - starts[i - 1] > 0.005)
    page.close()
    return {
        "board_ms": round(painted, 1),
        "scripts": len(scripts),
        "scripts_network": len(network),
        "script_waves": waves,
        "views": views,
    }


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    times = [r["board_ms"] for r in runs]
    return {
        "median_ms": round(statistics.median(times), 1),
        "max_ms": round(max(times), 1),
        "scripts": statistics.median(r["scripts"] for r in runs),
        "scripts_network": statistics.median(r["scripts_network"] for r in runs),
        "script_waves": statistics.median(r["script_waves"] for r in runs),
        "views": statistics.median(r["views"] for r in runs),
    }


def measure(url: str, loads: int) -> dict[str, Any]:
    with httpx2.Client(base_url=url, timeout=30) as http:
        body = {
            "variant": "classic",
            "players": [{"name": "Ann"}, {"name": "Bob"}],
            "mode": "screen",
            "seed": 7,
        }
        made = http.post("/api/games", json=body).json()
    # the first seat's page by its private link (at one screen, a cover would hide the board)
    addresses = {"game": f"{url}/g/{made['id']}?t={made['seats'][0]['token']}", "home": f"{url}/"}
    report: dict[str, Any] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            for name, address in addresses.items():
                cold = []
                for _ in range(loads):
                    context = browser.new_context()
                    cold.append(load(context, address, PAGES[name]))
                    context.close()
                context = browser.new_context()
                load(context, address, PAGES[name])  # fills the cache
                warm = [load(context, address, PAGES[name]) for _ in range(loads)]
                context.close()
                report[name] = {"cold": summary(cold), "warm": summary(warm)}
        finally:
            browser.close()
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=5, help="loads per page and cache state")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the server")
    parser.add_argument("--quick", action="store_true", help="2 loads (the tests)")
    args = parser.parse_args(argv)
    loads = 2 if args.quick else args.loads
    with tempfile.TemporaryDirectory(prefix="mathable-paint-") as name:
        folder = Path(name)
        env = {**os.environ, **GENEROUS_LIMITS, "DATABASE_URL": f"sqlite:///{folder / 'g.db'}"}
        env.update(item.split("=", 1) for item in args.env)
        server = ServerProcess(0, env, folder).start()
        try:
            pages = measure(server.url, loads)
        finally:
            server.stop()
    report = {
        "commit": _commit(),
        "python": platform.python_version(),
        "loads": loads,
        "pages": pages,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
