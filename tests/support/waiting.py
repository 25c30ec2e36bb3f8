"""Waiting for another process or thread: a bounded poll, never a timing assertion."""

from __future__ import annotations

import time
from collections.abc import Callable


def eventually(check: Callable[[], bool], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return check()
