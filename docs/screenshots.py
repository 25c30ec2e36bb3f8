"""Regenerate every picture the documents show, from the current code: ``make screenshots``.

Terminal pictures (``docs/tui-*.svg``) drive the real Textual app with its Pilot, as the
tests do. Web pictures (``docs/web-*.png``) are taken by the browser tests themselves
(``shot(page, NAME)`` in tests/web/, which writes ``artifacts/screenshots/NAME.png``):
this script runs the test files that take the pictures the documents reference, on
Debian's chromium (its headless shell), and copies each fresh one to
``docs/web-NAME.png``. So a picture is always a page the tests have just checked, and a
document cannot show a page that no longer exists. ``--web`` or ``--terminal`` does one half only.

``referenced()`` and ``pictures()`` are shared with tests/test_docs.py, which fails when a
referenced picture is missing or a picture in docs/ is referenced nowhere.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import subprocess
import sys
import time
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
TESTS = ROOT / "tests" / "web"
SHOTS = ROOT / "artifacts" / "screenshots"
SIZE = (128, 38)
PICTURE = re.compile(
    r"docs/((?:tui|web)-[\w.-]+\.(?:svg|png))|\(((?:tui|web)-[\w.-]+\.(?:svg|png))\)"
)
"""A picture named in a document: ``docs/web-game.png`` from the README, or a link
``(web-game.png)`` between two pages of docs/."""


def documents() -> list[Path]:
    """The documents a reader meets: the README and every page of docs/."""
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def referenced() -> set[str]:
    """The file names (in docs/) of every picture a document shows or links to."""
    names: set[str] = set()
    for path in documents():
        for found in PICTURE.finditer(path.read_text(encoding="utf-8")):
            names.add(found[1] or found[2])
    return names


def pictures() -> set[str]:
    """The pictures kept in docs/."""
    return {p.name for p in DOCS.iterdir() if p.suffix in (".png", ".svg")}


def web_shots() -> dict[str, Path]:
    """Each picture name the browser tests take (a pattern where the name is an
    f-string: ``game-{lang}``), with the test file that takes it."""
    found: dict[str, Path] = {}
    call = re.compile(r"\bshot\(\s*[\w\[\]]+\s*,\s*(f?)\"([^\"]+)\"\s*\)")
    for path in sorted(TESTS.glob("test_*.py")):
        for match in call.finditer(path.read_text(encoding="utf-8")):
            name = match[2]
            pattern = re.sub(r"\\\{[^}]*\\\}", "[\\\\w-]+", re.escape(name)) if match[1] else None
            found[pattern or re.escape(name)] = path
    return found


def take_web(taken: bool = False) -> list[str]:
    """Run the browser tests that take the referenced web pictures; copy them to docs/.
    With ``taken``, run nothing: copy the pictures the last test run took (``make test``
    runs every browser test just before, so they are the pages it has just checked).
    Returns the referenced pictures that no test made afresh (a failing test, a gone page)."""
    wanted = sorted(n for n in referenced() if n.startswith("web-"))
    shots = web_shots()
    files: dict[str, Path] = {}
    for name in wanted:
        stem = name.removeprefix("web-").removesuffix(".png")
        for pattern, path in shots.items():
            if re.fullmatch(pattern, stem):
                files[stem] = path
    started = 0.0 if taken else time.time()
    tests = [] if taken else sorted({str(p.relative_to(ROOT)) for p in files.values()})
    if tests:
        subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests], cwd=ROOT
        )
    missing = []
    for name in wanted:
        stem = name.removeprefix("web-").removesuffix(".png")
        fresh = SHOTS / f"{stem}.png"
        if stem in files and fresh.exists() and fresh.stat().st_mtime >= started:
            (DOCS / name).write_bytes(fresh.read_bytes())
        else:
            missing.append(name)
    return missing


async def _shoot(
    app: object, name: str, keys: list[str], wait_person: bool = True, size: tuple[int, int] = SIZE
) -> None:
    from mathable.tui.app import MathableApp

    assert isinstance(app, MathableApp)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for _ in range(300):
            game = app.game
            if not wait_person or game is None or game.is_over:
                break
            if game.to_move == 0 and not app.waiting_cover:
                break
            await pilot.pause(0.01)
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        app.save_screenshot(f"tui-{name}.svg", str(DOCS))


def take_terminal() -> None:
    """The terminal game's pictures, each from a seeded game."""
    from mathable.engine.protocol import Game, HouseRules
    from mathable.games.board.game import BoardGame
    from mathable.games.quattro.game import QuattroGame
    from mathable.tui.app import MathableApp

    def vs_bot() -> Game:
        game = BoardGame(
            "classic", ["Ann", "Bob [bot:strong]"], seed=21, house_rules=HouseRules(hints=True)
        )
        bots = MathableApp(game).bots
        while len(game.turns) < 6:  # a few turns in, so the board has a game on it
            seat = game.to_move
            if seat in bots:
                game.apply(bots[seat].act(game.view(seat)))
            else:
                game.apply(
                    next(iter(game.legal_placements())) if game.legal_placements() else "pass"
                )
        return game

    asyncio.run(_shoot(MathableApp(None), "new-game", [], wait_person=False, size=(100, 52)))
    game = vs_bot()
    index = next((i for i, v in enumerate(game.rack(0)) if game.board.cells_accepting(v)), 0)
    asyncio.run(_shoot(MathableApp(game, bot_delay=0), "game", [str(index + 1)]))
    asyncio.run(_shoot(MathableApp(vs_bot(), bot_delay=0), "80x24", ["1"], size=(80, 24)))
    asyncio.run(_shoot(MathableApp(vs_bot(), bot_delay=0), "hint", ["h"]))
    cover = BoardGame("classic", ["Ann", "Bob"], seed=3)
    asyncio.run(_shoot(MathableApp(cover), "cover", [], wait_person=False))
    quattro = QuattroGame(["Louis", "Zoé [bot:strong]"], seed=5)
    asyncio.run(_shoot(MathableApp(quattro, bot_delay=0), "quattro", ["1"]))
    asyncio.run(_shoot(MathableApp(vs_bot(), bot_delay=0), "help", ["question_mark"]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--web", action="store_true", help="only the web pictures")
    parser.add_argument("--terminal", action="store_true", help="only the terminal pictures")
    parser.add_argument(
        "--taken",
        action="store_true",
        help="web pictures from the browser tests' last run (artifacts/screenshots) instead of "
        "running them again (make test: they have just run)",
    )
    args = parser.parse_args()
    both = not (args.web or args.terminal)
    if args.terminal or both:
        take_terminal()
        print("terminal pictures: docs/tui-*.svg")
    if args.web or both:
        missing = take_web(args.taken)
        if missing:
            print(f"not made afresh (a test failed?): {', '.join(missing)}", file=sys.stderr)
            return 1
        print("web pictures: docs/web-*.png")
    unused = sorted(pictures() - referenced())
    if unused:
        print(f"pictures referenced by no document: {', '.join(unused)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
