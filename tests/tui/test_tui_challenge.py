"""C12 in the terminal game (issue 31): any opponent of the player who made the turn may
challenge it, naming the seat or the name (``challenge 2``, ``challenge Cy``) whoever is
at the screen; the ``c`` key challenges for the person at the screen. The help screen's
rules explain the safeguard of C11c."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Static

from mathable.engine.protocol import Game, HouseRules
from mathable.games import registry
from mathable.tui.app import MathableApp
from mathable.tui.screens import CoverScreen, HelpScreen
from support.screen import drive


def help_shown(app: MathableApp) -> str:
    """The text of the help screen open now (all of it, scrolled or not)."""
    assert isinstance(app.screen, HelpScreen)
    content = app.screen.query_one(Static).content
    return str(getattr(content, "plain", content))


async def typed(pilot: Pilot[None], text: str) -> None:
    """Type ``text`` in the command line and press Enter."""
    await pilot.press("colon")
    for key in text:
        await pilot.press("space" if key == " " else key)
    await pilot.press("enter")
    await pilot.pause()


def _after_a_mistake() -> Game:
    """Ann, Bob and Cy at one screen; Ann has put a 13 on I8, which no equation makes
    (H8 4, G8 3), and ended her turn: Bob is to move."""
    game = registry.new_game(
        "classic",
        ["Ann", "Bob", "Cy"],
        house_rules=HouseRules(table_referee=True),
        setup={"racks": [[13, 7], [5, 6], [5, 6]], "bag": [9, 9, 9], "to_move": 0},
    )
    game.apply("I8=13")
    game.apply("end")
    return game


def test_an_opponent_not_to_move_challenges_by_seat_or_name() -> None:
    game = _after_a_mistake()
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, CoverScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert app.viewer() == 1
        await typed(pilot, "challenge 0")
        assert "Refused: Ann made that turn: only an opponent may challenge it" in (
            app.message.plain
        )
        await typed(pilot, "challenge Cy")
        assert "Cy challenged: Ann's turn is cut short" in app.message.plain
        assert game.scores == (0, 0, 0) and 13 in game.rack(0)
        assert game.summaries()[-1].note == "cut short by a challenge"
        assert game.to_move == 1

    drive(app, script, size=(130, 42))


def test_the_c_key_challenges_for_the_person_at_the_screen() -> None:
    game = _after_a_mistake()
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        assert game.scores == (0, 0, 0) and game.to_move == 1
        assert game.format_action(game.log[-1]) == "challenge"
        said = "Bob challenged: Ann's turn is cut short at its first mistake"
        assert said in app.message.plain

    drive(app, script, size=(130, 42))


def test_the_help_screen_explains_the_safeguard_of_c11c() -> None:
    game = registry.new_game("junior", ["Ann", "Bob [bot:gentle]"], seed=4)
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        shown = " ".join(help_shown(app).split())
        assert "Once the pot is empty" in shown
        assert "two full rounds in which nobody places a tile" in shown
        assert "Leaving: a player who resigns" in shown

    drive(app, script)
