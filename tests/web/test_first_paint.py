"""Fast first paint (issue 32): the page's modules joined into one script, its files named
by a hash of their contents and served ``immutable``, the language's catalog preloaded,
and the game's view received once (the socket's first message, no GET as well). A second
visit takes no script from the server. Where the join cannot read a module, the modules
are each preloaded under hashed names instead."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser

from mathable.web.api import create_app
from mathable.web.infra import assets
from support.browser import create
from webserver import Server

HASHED = re.compile(r"/static/v/([0-9a-f]{16})/([\w.-]+)")


@pytest.fixture()
def client(tmp_path: Path) -> Any:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as client:
        yield client


def test_the_page_names_one_hashed_script_and_preloads_the_catalog(
    client: TestClient,
) -> None:
    page = client.get("/", headers={"Accept-Language": "fr"}).text
    version = assets.current().version
    assert assets.current().bundle, "the modules were not joined"
    assert f'<script type="module" src="/static/v/{version}/bundle.js">' in page
    assert f'href="/static/v/{version}/style.css"' in page
    assert re.findall(r'<link rel="modulepreload" href="([^"]+)">', page) == [
        f"/static/v/{version}/bundle.js"
    ]
    assert '<link rel="preload" href="/i18n/fr.json" as="fetch" crossorigin>' in page
    assert '<html lang="fr">' in page
    joined = client.get(f"/static/v/{version}/bundle.js")
    assert joined.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    for name in (*assets.static_imports("app.js"), "learn.js", "class.js", "puzzles.js"):
        assert f'"{name}": async function (__exports) {{' in joined.text, name


def test_modules_outside_the_form_are_preloaded_one_by_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "static"
    shutil.copytree(assets.STATIC, copy)
    monkeypatch.setattr(assets, "STATIC", copy)
    (copy / "rules.js").write_text(
        (copy / "rules.js").read_text() + "\nexport default function odd() {}\n"
    )
    with pytest.raises(assets.NotBundled, match=r"rules\.js"):
        assets.bundle()
    found = assets.current()
    assert found.bundle == ""
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/v/\w+/([\w.-]+)">', found.page)
    assert set(preloaded) == set(assets.static_imports("app.js"))
    assert {"core.js", "i18n.js", "play.js", "surface.js", "net.js"} <= set(preloaded)
    assert f'src="/static/v/{found.version}/app.js"' in found.page


def test_the_join_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    assert assets.current().bundle
    monkeypatch.setenv("MATHABLE_BUNDLE", "off")  # to debug a module by its own name
    assert assets.current().bundle == ""
    assert "/app.js" in assets.current().page


def test_hashed_files_are_immutable_and_the_same_as_the_plain_ones(client: TestClient) -> None:
    version = assets.current().version
    for name in ("app.js", "core.js", "style.css"):  # each file too, by the same hash
        hashed = client.get(f"/static/v/{version}/{name}")
        assert hashed.status_code == 200
        assert hashed.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert hashed.content == client.get(f"/static/{name}").content
    assert "javascript" in client.get(f"/static/v/{version}/app.js").headers["Content-Type"]
    # an older page's name still gets the file, revalidated: never cached as immutable
    old = client.get("/static/v/0123456789abcdef/app.js")
    assert old.status_code == 200 and old.headers["Cache-Control"] == "no-cache"
    assert client.get("/static/app.js").headers["Cache-Control"] == "no-cache"  # as before
    for missing in ("nothing.js", "..", ".hidden"):
        assert client.get(f"/static/v/{version}/{missing}").status_code == 404


def test_a_changed_file_changes_every_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "static"
    shutil.copytree(assets.STATIC, copy)
    monkeypatch.setattr(assets, "STATIC", copy)
    before = assets.current()
    (copy / "core.js").write_text((copy / "core.js").read_text() + "\n// changed\n")
    after = assets.current()
    assert after.version != before.version
    assert f"/static/v/{after.version}/bundle.js" in after.page
    assert "// changed" in after.bundle
    assert before.version not in after.page


def test_the_page_loads_one_hashed_script_and_the_view_once(
    server: Server, browser: Browser
) -> None:
    made = create(server, [{"name": "Ann"}, {"name": "Bob"}], seed=7)
    address = f"{server.url}/g/{made['id']}?t={made['seats'][0]['token']}"
    context = browser.new_context()
    try:
        first = _load(context, address)
        assert len(first["scripts"]) == 1, first["scripts"]  # ≤ 4: the target
        assert HASHED.search(first["scripts"][0]), first["scripts"]
        assert first["gets"] == [], "the view was fetched by GET as well as on the socket"
        assert first["socket_views"] == 1
        again = _load(context, address)
        assert again["network_scripts"] == [], "a second visit fetched scripts again"
        assert again["socket_views"] == 1 and again["gets"] == []
    finally:
        context.close()


def test_a_pages_own_module_comes_from_the_same_script(server: Server, browser: Browser) -> None:
    page = browser.new_page()
    scripts: list[str] = []
    page.on("request", lambda r: scripts.append(r.url) if r.resource_type == "script" else None)
    page.goto(server.url + "/learn")
    page.wait_for_selector("#learn-page")
    # learn.js (an import() of app.js) is the joined script's: no request of its own, and
    # one core.js for all (a second would hold a second, empty state)
    loaded = page.evaluate(
        """async () => {
          const joined = await import(document.querySelector('script[type=module]').src);
          return [typeof joined.module('learn.js').learnPage, joined.module('core.js').app.id];
        }"""
    )
    assert loaded == ["function", "app"]
    assert len(scripts) == 1 and scripts[0].endswith("/bundle.js"), scripts
    page.close()


def _load(context: Any, address: str) -> dict[str, Any]:
    """One visit: the scripts it asked for (all; and those that reached the server), and
    the game's views it received by GET and on its socket."""
    page = context.new_page()
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    network: list[str] = []
    session.on(
        "Network.responseReceived",
        lambda e: (
            network.append(e["response"]["url"])
            if e.get("type") == "Script" and not e["response"].get("fromDiskCache")
            else None
        ),
    )
    scripts: list[str] = []
    gets: list[str] = []
    frames: list[str] = []
    page.on("request", lambda r: scripts.append(r.url) if r.resource_type == "script" else None)
    page.on(
        "request",
        lambda r: gets.append(r.url) if re.search(r"/api/games/[\w-]+(\?|$)", r.url) else None,
    )
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    page.goto(address)
    page.wait_for_selector("#board [data-cell]", state="attached")
    page.wait_for_load_state("networkidle")
    page.close()
    return {
        "scripts": scripts,
        "network_scripts": network,
        "gets": gets,
        "socket_views": sum(1 for f in frames if f.startswith('{"type":"view"')),
    }


@pytest.mark.slow
def test_the_first_paint_benchmark_reports_its_figures() -> None:
    """``benchmarks/first_paint.py --quick`` runs against a real server and prints each
    page's figures, cold and warm (its times are not judged: the machine is shared)."""
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "first_paint.py"
    done = subprocess.run(
        [sys.executable, str(script), "--quick"], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    for page in ("game", "home"):
        for cache in ("cold", "warm"):
            figures = report["pages"][page][cache]
            assert figures["median_ms"] > 0 and figures["scripts"] == 1
    assert report["pages"]["game"]["cold"]["views"] == 1
    assert report["pages"]["game"]["warm"]["scripts_network"] == 0
