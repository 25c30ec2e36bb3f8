"""The lobby's people: each a test client with a session cookie of its own on the running
app (the ``main`` fixture of tests/web/conftest.py)."""

from __future__ import annotations

from typing import Any

import httpx2
from fastapi.testclient import TestClient

PASSWORD = "correct horse battery"


def ok(response: httpx2.Response, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    return body


def person(main: TestClient, name: str) -> TestClient:
    """A browser of its own (its own session cookie), named ``name``, on the running
    app's event loop (where the computer players' tasks live)."""
    client = TestClient(main.app)
    client.portal = main.portal
    # body-less changes (join, cancel) come from a script, as the page's (issue 30)
    client.headers["X-Requested-With"] = "test"
    ok(client.patch("/api/me", json={"name": name}))
    return client


def account(main: TestClient, name: str) -> TestClient:
    """:func:`person`, signed up as an account of that name."""
    client = person(main, name)
    ok(client.post("/api/accounts", json={"name": name, "password": PASSWORD}), 201)
    return client
