"""One-off HTTP requests to the test servers, as ``httpx2.get`` and ``httpx2.post`` make
them (a fresh client each: no cookie kept), without the TLS set-up each of those makes:
httpx2 loads the certificate store for every one-off client (~25 ms of CPU), though the
test servers speak plain HTTP, and the tests that poll a game made hundreds of them."""

from __future__ import annotations

import ssl
from typing import Any

import httpx2

TLS = ssl.create_default_context()  # made once, for every one-off client


def get(url: str, **options: Any) -> httpx2.Response:
    """``httpx2.get(url, **options)`` with the shared TLS context."""
    return httpx2.get(url, verify=TLS, **options)


def post(url: str, **options: Any) -> httpx2.Response:
    """``httpx2.post(url, **options)`` with the shared TLS context."""
    return httpx2.post(url, verify=TLS, **options)
