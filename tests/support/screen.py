"""The full-screen game's screen as text, for the terminal tests."""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Awaitable, Callable
from typing import Any

from textual.app import App
from textual.pilot import Pilot


def rows(app: App[Any]) -> list[str]:
    """The screen as lines of text, rebuilt from the app's own SVG export."""
    svg = app.export_screenshot()
    width, height = app.size
    grid = [[" "] * width for _ in range(height)]
    pitch: float | None = None
    for x, length, line, body in re.findall(
        r'<text [^>]*x="([\d.]+)" [^>]*textLength="([\d.]+)" '
        r'clip-path="url\(#terminal-\d+-line-(\d+)\)">([^<]*)</text>',
        svg,
    ):
        text = html.unescape(body).replace("\xa0", " ")
        if pitch is None and text:
            pitch = float(length) / len(text)
        assert pitch is not None
        start = round(float(x) / pitch)
        for offset, ch in enumerate(text):
            if int(line) < height and start + offset < width:
                grid[int(line)][start + offset] = ch
    return ["".join(r) for r in grid]


def drive(
    app: App[Any],
    script: Callable[[Pilot[None]], Awaitable[None]],
    size: tuple[int, int] = (80, 24),
) -> None:
    """Run ``app`` headless at ``size`` and play ``script`` on it with Textual's Pilot."""

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(run())
