"""Fixtures every folder of tests may use: a real ``mathable serve`` process and Debian's
chromium driven by Playwright, each once per test module (the browser tests of web/ and
learn/ share them; their helpers are in :mod:`support.browser`). And the order of the
files: those with slow tests first, so that the parallel suite's workers (``make test``:
pytest-xdist, a file to a worker) stay busy to the end instead of one finishing alone.
And cheap password hashes for the in-process apps (:mod:`support.passwords`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from webserver import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def pytest_configure(config: pytest.Config) -> None:
    """Passwords hashed cheaply in every in-process app (:mod:`support.passwords`)."""
    from support import passwords

    passwords.install()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files holding a ``slow`` test first (each file's tests kept together, in their
    order): the long files start while there are short ones left to share out."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web") / "games.db").start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    from playwright.sync_api import expect, sync_playwright  # only the browser tests load it

    from support.browser import CHROMIUM, FLAGS

    # An expectation passes as soon as it holds; on a loaded machine (CI runs two workers
    # of tests beside chromium) a page may take longer than Playwright's 5 s to get there
    expect.set_options(timeout=15_000)

    missing = f"Debian's chromium-headless-shell is missing ({CHROMIUM}): `make test` installs it"
    assert Path(CHROMIUM).exists(), missing
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()
