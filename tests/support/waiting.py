"""Waiting for another process or thread: a bounded poll, never a timing assertion."""

from __future__ import annotations

import time
from collections.abc import Callable


def eventually(check: Callable[[], bool], seconds: float = 10.0, *, every: float = 0.02) -> bool:
    """Whether ``check()`` holds within ``seconds``, asked every ``every`` seconds (a
    real server's computer playing on is asked less often): a bound on a wait for
    another process, never a test of speed."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(every)
    return check()
