"""What one client may ask (issue 13, "limits"): a body over its limit is refused 413
before it is read (with a Content-Length, or chunked without one); creating games,
imports, actions and analyses are rate-limited per address (429 with Retry-After); every
answer carries the security headers, and the page needs nothing its CSP forbids."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient

from mathable.web.api import create_app
from mathable.web.infra.assets import STATIC
from mathable.web.infra.limits import Limits

GAME = {"variant": "classic", "players": [{"name": "Ann"}, {"name": "Bob"}], "seed": 7}
MB = 1024 * 1024


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as running:
        yield running


# -- the body limit ------------------------------------------------------------------------


class Body:
    """A request body streamed in ``chunk``-byte pieces, counting what the server pulled."""

    def __init__(self, total: int, chunk: int = 64 * 1024) -> None:
        self.total = total
        self.piece = b" " * chunk
        self.pulled = 0

    async def stream(self) -> AsyncIterator[bytes]:
        while self.pulled < self.total:
            self.pulled += len(self.piece)
            yield self.piece


def post(app: Any, path: str, body: Body, length: int | None) -> httpx2.Response:
    """POST ``body`` to the app in process, streamed as a real server would pass it on."""
    headers = {"Content-Type": "application/json"}
    if length is not None:
        headers["Content-Length"] = str(length)

    async def send() -> httpx2.Response:
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://test") as http:
            return await http.post(path, content=body.stream(), headers=headers)

    return asyncio.run(send())


def test_a_100_mb_body_is_refused_413_before_it_is_read(tmp_path: Path) -> None:
    """Before, the whole body was read (and then refused as invalid JSON)."""
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}")
    for path in ("/api/games", "/api/records", "/api/transcripts"):
        declared = Body(100 * MB)  # with a Content-Length: refused before any of it is read
        response = post(app, path, declared, length=100 * MB)
        assert response.status_code == 413, response.text
        assert "larger than" in response.json()["error"]
        assert declared.pulled <= 64 * 1024
        chunked = Body(100 * MB)  # chunked, no length: refused once past the limit
        response = post(app, path, chunked, length=None)
        assert response.status_code == 413, response.text
        limit = 1 * MB if path == "/api/records" else 256 * 1024
        assert str(limit) in response.json()["error"]
        assert chunked.pulled <= limit + 64 * 1024
    record = Body(600 * 1024)  # a record may be up to 1 MB: read, and refused as no record
    response = post(app, "/api/records", record, length=None)
    assert response.status_code != 413 and record.pulled >= 600 * 1024


# -- rate limits -----------------------------------------------------------------------------


def test_every_kind_of_request_has_a_rate_limit_by_default() -> None:
    assert set(Limits.from_env().rates) == {
        "create",
        "import",
        "action",
        "analysis",
        "master_analysis",
        "login",
        "seek",
        "chat",
    }


def test_429_with_retry_after_past_the_creation_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATHABLE_RATE_CREATE", "3/minute")
    monkeypatch.setenv("MATHABLE_RATE_ACTION", "2/minute")
    monkeypatch.setenv("MATHABLE_RATE_ANALYSIS", "1/minute")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as client:
        made = [client.post("/api/games", json={**GAME, "mode": "screen"}) for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 201]
        refused = client.post("/api/games", json={**GAME, "mode": "screen"})
        assert refused.status_code == 429
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert "new games" in refused.json()["error"]
        assert client.get("/api/games").status_code == 200  # reading is not limited

        game = made[0].json()
        tokens = [s["token"] for s in game["seats"]]
        url = f"/api/games/{game['id']}"
        statuses = []
        for _ in range(3):
            seq = client.get(url).json()["seq"]
            body = {"token": tokens[client.get(url).json()["to_move"]], "action": "pass"}
            statuses.append(client.post(f"{url}/actions", json={**body, "seq": seq}).status_code)
        assert statuses[2] == 429 and 429 not in statuses[:2]
        analyses = [client.get(f"{url}/analysis").status_code for _ in range(2)]
        assert analyses[0] != 429 and analyses[1] == 429


def test_a_rate_setting_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATHABLE_RATE_IMPORT", "lots")
    with pytest.raises(ValueError, match="MATHABLE_RATE_IMPORT"):
        Limits.from_env()
    monkeypatch.setenv("MATHABLE_RATE_IMPORT", "off")
    assert "import" not in Limits.from_env().rates


# -- headers ---------------------------------------------------------------------------------


def test_security_headers_on_the_page_the_api_and_static_files(client: TestClient) -> None:
    answers = {
        path: client.get(path)
        for path in ("/", "/g/abc", "/api/variants", "/api/games/none", "/static/app.js")
    }
    assert answers["/api/games/none"].status_code == 404
    for path, response in answers.items():
        headers = response.headers
        policy = headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"  # links carry seat tokens
    assert answers["/api/variants"].headers["Cache-Control"] == "no-store"
    assert answers["/static/app.js"].headers["Cache-Control"] == "no-cache"
    assert "ETag" in answers["/static/app.js"].headers  # revalidated, not downloaded again
    # the page needs nothing the policy forbids: no inline script, style or handler
    page = (STATIC / "index.html").read_text()
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == []
    assert not re.search(r"<style|\sstyle=|\son\w+=", page)
