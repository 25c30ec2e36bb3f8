"""The Bot API's bounds (issue 36): an account holds a few streams open at once, not as
many as it asks for; and a challenge left unanswered expires after
:data:`~mathable.web.lobby.challenges.EXPIRY`, after which it cannot be accepted."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from fastapi.testclient import TestClient

from mathable.web.api import create_app
from mathable.web.lobby.challenges import EXPIRY
from webserver import Server

SCRIPTED = {"X-Requested-With": "test"}
PASSWORD = "secret-pass-1"


@pytest.fixture(scope="module")
def two_streams(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {"MATHABLE_BOT_STREAMS": "2"}
    running = Server(tmp_path_factory.mktemp("bots") / "games.db", env=env).start()
    yield running
    running.stop()


def bot_token(client: httpx2.Client | TestClient) -> str:
    """A new account made a bot account through ``client``: its token."""
    made = client.post(
        "/api/accounts", json={"name": "B" + secrets.token_hex(4), "password": PASSWORD}
    )
    assert made.status_code == 201, made.text
    turned = client.post("/api/account/bot", headers=SCRIPTED)
    assert turned.status_code == 200, turned.text
    return str(turned.json()["token"])


def test_an_account_holds_at_most_its_streams_open(two_streams: Server) -> None:
    with httpx2.Client(base_url=two_streams.url, timeout=10) as person:
        token = bot_token(person)
    bearer = {"Authorization": f"Bearer {token}"}
    with httpx2.Client(base_url=two_streams.url, timeout=10, headers=bearer) as client:
        with contextlib.ExitStack() as streams:
            reading = []  # each stream's lines, kept: a line iterator let go closes its stream
            for _ in range(2):
                stream = streams.enter_context(client.stream("GET", "/api/stream/event"))
                assert stream.status_code == 200
                reading.append(stream.iter_lines())
                next(reading[-1])  # open: its first line came
            refused = client.get("/api/stream/event")
            assert refused.status_code == 429
            assert "at most 2" in refused.json()["error"]
        # closed streams count no more (the server hears them go: wait for it)
        for _ in range(100):
            with client.stream("GET", "/api/stream/event") as again:
                if again.status_code == 200:
                    break
        assert again.status_code == 200
    other = bot_token(httpx2.Client(base_url=two_streams.url, timeout=10))
    with (
        httpx2.Client(
            base_url=two_streams.url, timeout=10, headers={"Authorization": f"Bearer {other}"}
        ) as client,
        client.stream("GET", "/api/stream/event") as theirs,
    ):
        assert theirs.status_code == 200  # the bound is per account


def test_an_unanswered_challenge_expires(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as bot:
        token = bot_token(bot)
        now = [1_000_000.0]
        bot.app.state.challenges.now = lambda: now[0]  # type: ignore[attr-defined]
        challenger = TestClient(bot.app)
        name = "C" + secrets.token_hex(4)
        made = challenger.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert made.status_code == 201, made.text
        bot_name = bot.get("/api/account", headers={"Authorization": f"Bearer {token}"})
        sent = challenger.post(
            f"/api/challenge/{bot_name.json()['name']}",
            json={"variant": "junior"},
            headers=SCRIPTED,
        )
        assert sent.status_code in (200, 201), sent.text
        challenge_id = sent.json()["id"]
        now[0] += EXPIRY + 1
        program = TestClient(bot.app)  # the bot's program: its token, no cookie
        late = program.post(
            f"/api/challenge/{challenge_id}/accept", headers={"Authorization": f"Bearer {token}"}
        )
        assert late.status_code == 409, late.text
        assert "expired" in late.json()["error"]
