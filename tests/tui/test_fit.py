"""Every screen of the terminal game at 80×24 in each language (issue 33): no word of a
label, a button or the key bar is cut (French "…tant que per", "s Enregistr")."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Button, Checkbox, Footer, Label

from mathable.engine.protocol import HouseRules
from mathable.games.board.game import BoardGame
from mathable.i18n import language
from mathable.tui.app import MathableApp
from mathable.tui.screens import NewGameScreen
from support.screen import rows

LANGUAGES = ("en", "fr", "es", "de", "it", "nl")


def words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text)


def check(app: MathableApp, where: str) -> None:
    """Every key of the key bar within the screen; every word of the screen's labels,
    buttons and key bar found whole on it."""
    screen = Region(0, 0, *app.size)
    on_screen = set(words("\n".join(rows(app))))
    footer = app.screen.query(Footer).first()
    keys = list(footer.query("FooterKey"))
    assert keys, where
    for key in keys:
        assert screen.contains_region(key.region), (where, str(key.render()))
    texts = [str(key.render()) for key in keys]
    texts += [str(w.label) for w in app.screen.query(Checkbox) if w.display]
    texts += [str(w.label) for w in app.screen.query(Button) if w.display]
    texts += [str(w.render()) for w in app.screen.query(Label) if w.display]
    for text in texts:
        cut = [w for w in words(text) if w not in on_screen]
        assert not cut, (where, text, cut)


def run(app: MathableApp, script: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(go())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("variant", ["classic", "junior-numbers", "quattro"])
def test_the_new_game_screen_fits_80x24(lang: str, variant: str) -> None:
    with language(lang):
        app = MathableApp(variant=variant, bot_delay=0)

        async def script(pilot: Pilot[None]) -> None:
            assert isinstance(app.screen, NewGameScreen)
            check(app, f"new game {variant} {lang}")

        run(app, script)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_game_and_its_screens_fit_80x24(lang: str) -> None:
    with language(lang):
        game = BoardGame(
            "classic", ["Ann", "Bob [bot:greedy]"], seed=2, house_rules=HouseRules(hints=True)
        )
        app = MathableApp(game, bot_delay=0)

        async def script(pilot: Pilot[None]) -> None:
            for _ in range(300):
                if game.to_move == 0 and app.thinking is None:
                    break
                await pilot.pause(0.01)
            await pilot.pause()
            check(app, f"game {lang}")
            rack = "\n".join(rows(app))
            assert "Ann" in rack
            for key, where in (("question_mark", "help"), ("r", "replay"), ("m", "moves")):
                await pilot.press(key)
                await pilot.pause()
                check(app, f"{where} {lang}")
                await pilot.press("escape")
                await pilot.pause()
            await pilot.press("x")
            await pilot.pause()
            check(app, f"exchange {lang}")
            await pilot.press("escape", "ctrl+q")
            await pilot.pause()
            check(app, f"quit question {lang}")

        run(app, script)


def test_a_name_needs_no_elision_in_french() -> None:
    with language("fr"):
        game = BoardGame("classic", ["Ann", "Bob [bot:greedy]"], seed=2)
        app = MathableApp(game, bot_delay=0)

        async def script(pilot: Pilot[None]) -> None:
            for _ in range(300):
                if game.to_move == 0 and app.thinking is None:
                    break
                await pilot.pause(0.01)
            await pilot.pause()
            shown = "\n".join(rows(app))
            assert "Ann : chevalet" in shown and "de Ann" not in shown

        run(app, script)
