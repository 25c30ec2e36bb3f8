"""Local ruling L1 in the terminal game: a person resigns (``R`` or typed ``resign``) or
aborts (``A``, ``abort``) after confirming; the Leave or Abort is played like any action
and kept in the saved record; refused, with the reason, when the engine does not allow it;
the key bar and the help offer them only while open; the side panel marks a seat that left."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Footer, Static

from mathable.games import registry
from mathable.tui.app import MathableApp
from mathable.tui.screens import CoverScreen, HelpScreen, QuestionScreen
from support.screen import drive


def screen(app: MathableApp) -> str:
    """Every text on screen, from the app's own SVG export."""
    svg = app.export_screenshot()
    return html.unescape("".join(re.findall(r">([^<>]+)</text>", svg))).replace("\xa0", " ")


def help_shown(app: MathableApp) -> str:
    """The text of the help screen open now (all of it, scrolled or not)."""
    assert isinstance(app.screen, HelpScreen)
    content = app.screen.query_one(Static).content
    return str(getattr(content, "plain", content))


def keys(app: MathableApp) -> str:
    """The key bar's labels."""
    return " ".join(
        str(key.render()) for key in app.screen.query(Footer).first().query("FooterKey")
    )


async def until(pilot: Pilot[None], done: Callable[[], bool]) -> None:
    for _ in range(300):
        if done():
            return
        await pilot.pause(0.01)
    raise AssertionError("never happened")


async def typed(pilot: Pilot[None], text: str) -> None:
    """Type ``text`` in the command line and press Enter."""
    await pilot.press("colon")
    for key in text:
        await pilot.press("space" if key == " " else key)
    await pilot.press("enter")
    await pilot.pause()


def test_resigning_a_two_player_game_ends_it_and_the_save_keeps_it(tmp_path: Path) -> None:
    game = registry.new_game("classic", ["Ann", "Bob [bot:gentle]"], seed=3)
    path = tmp_path / "game.json"
    app = MathableApp(game, bot_delay=0, save_path=path)

    async def script(pilot: Pilot[None]) -> None:
        await until(pilot, lambda: game.to_move == 0 and app.thinking is None)
        assert "Resign" in keys(app)
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, QuestionScreen)
        assert "Ann resigns: sure? y/n" in screen(app)
        await pilot.press("y")
        await pilot.pause()
        assert game.is_over and game.winners() == (1,)
        assert "Game over: Ann resigned. Winner: Bob [bot:gentle]." in app.message.plain
        assert "Resign" not in keys(app) and "Abort" not in keys(app)
        await pilot.press("s")
        await pilot.pause()
        assert json.loads(path.read_text())["actions"][-1] == "resign 0"
        assert registry.from_record(path.read_text()).end_reason == "Ann resigned"

    drive(app, script)


def test_in_a_three_player_game_play_goes_on_and_the_panel_marks_the_leaver() -> None:
    game = registry.new_game("classic", ["Ann", "Bob", "Cy"], seed=3)
    first = game.to_move
    name = game.players[first]
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, CoverScreen)
        await pilot.press("enter")
        await pilot.pause()
        await typed(pilot, "resign")
        assert f"{name} resigns: sure? y/n" in screen(app)
        await pilot.press("y")
        await pilot.pause()
        assert not game.is_over and game.left[first] == "resign"
        assert game.to_move == (first + 1) % 3
        assert isinstance(app.screen, CoverScreen)  # the next person's rack stays hidden
        await pilot.press("enter")
        await pilot.pause()
        assert app.viewer() == (first + 1) % 3
        assert f"{name} (resigned)" in screen(app)  # the side panel marks the seat
        assert game.format_action(game.log[-1]) == f"resign {first}"

    drive(app, script, size=(130, 42))


def test_abort_before_anyone_moved_and_a_no_at_the_question() -> None:
    game = registry.new_game("junior", ["Ann", "Bob [bot:gentle]"], seed=4)
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await until(pilot, lambda: game.to_move == 0 and app.thinking is None)
        assert "Abort" in keys(app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert "call the game off" in help_shown(app)
        await pilot.press("escape")
        await pilot.press("A")
        await pilot.pause()
        assert "Ann aborts the game (nobody wins): sure? y/n" in screen(app)
        await pilot.press("n")
        await pilot.pause()
        assert not game.is_over and "Play goes on." in app.message.plain
        await typed(pilot, "abort")
        await pilot.press("y")
        await pilot.pause()
        assert game.is_over and game.end_reason == "aborted" and game.winners() == ()
        assert "Game over: aborted." in app.message.plain and "Winner" not in app.message.plain
        assert game.format_action(game.log[-1]) == "abort 0"

    drive(app, script)


def test_leaving_is_refused_with_the_reason_when_it_is_not_open() -> None:
    game = registry.new_game("classic", ["Ann", "Bob [bot:gentle]"], seed=4)
    while game.to_move != 0 or {s.seat for s in game.summaries()} != {0, 1}:
        game.apply(game.legal_actions()[0])
    before = len(game.log)
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        assert "Resign" in keys(app) and "Abort" not in keys(app)
        await pilot.press("question_mark")
        await pilot.pause()
        help_text = help_shown(app)
        assert "leave the game for good" in help_text and "call the game off" not in help_text
        await pilot.press("escape")
        await typed(pilot, "abort")
        assert "Refused: a game is aborted only before each player has moved" in app.message.plain
        await typed(pilot, "resign 1")
        assert "computers never resign" in app.message.plain
        await typed(pilot, "flag 1")
        assert "Refused: flag is for online games" in app.message.plain
        assert not isinstance(app.screen, QuestionScreen)
        assert len(game.log) == before and not game.is_over

    drive(app, script)
