"""One-off HTTP requests to the test servers, as ``httpx.get`` and ``httpx.post`` make
them (a fresh client each: no cookie kept), without the TLS set-up each of those makes:
httpx loads the certificate store for every one-off client (~25 ms of CPU), though the
test servers speak plain HTTP, and the tests that poll a game made hundreds of them."""

from __future__ import annotations

import ssl
from typing import Any

import httpx

TLS = ssl.create_default_context()  # made once, for every one-off client


def get(url: str, **options: Any) -> httpx.Response:
    """``httpx.get(url, **options)`` with the shared TLS context."""
    return httpx.get(url, verify=TLS, **options)


def post(url: str, **options: Any) -> httpx.Response:
    """``httpx.post(url, **options)`` with the shared TLS context."""
    return httpx.post(url, verify=TLS, **options)
