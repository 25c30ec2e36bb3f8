"""The terminal game in the reader's language (issue 17): under the test language ``qps``
every text the game screen shows is inside ⟦ ⟧ (only notation, numbers, keys and the
players' names stand outside), the language set before the app runs is the one it speaks,
and the command words are typed in it."""

from __future__ import annotations

import io
import re
from collections.abc import Awaitable, Callable

from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Button, Checkbox, Input, Static
from textual.widgets._footer import FooterKey

from mathable.engine.actions import Pass
from mathable.games.board.game import BoardGame
from mathable.games.registry import GAMES
from mathable.i18n import command_name, language
from mathable.tui.app import MathableApp
from mathable.tui.rules import keys_help
from mathable.tui.screens import CoverScreen, NewGameScreen, seat_problem
from support.screen import drive as driven

SIZE = (130, 42)
PLAYERS = ["Ann", "Bob [bot:greedy]"]


def drive(app: MathableApp, script: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    """The app driven at this file's size."""
    driven(app, script, SIZE)


async def wait_for_person(pilot: Pilot[None], app: MathableApp, seat: int = 0) -> None:
    for _ in range(300):
        game = app.game
        assert game is not None
        if game.is_over or (game.to_move == seat and not app.waiting_cover):
            return
        await pilot.pause(0.01)
    raise AssertionError("the bot never handed back the turn")


def plain(renderable: object, width: int = SIZE[0]) -> str:
    """What a widget's content reads as, drawn by Rich without colours."""
    console = Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


def escaped(text: str, names: tuple[str, ...] = tuple(PLAYERS)) -> list[str]:
    """The words of ``text`` outside ⟦ ⟧ (translated texts), once players' names are
    left out: notation (``I8=12``), numbers and one-letter keys are not words."""
    text = text.replace("…", "")
    while True:
        inner = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
        if inner == text:
            break
        text = inner
    for name in names:
        text = text.replace(name, " ")
    return re.findall(r"[^\W\d_]{2,}", text)


def shown_texts(app: MathableApp) -> dict[str, str]:
    """Every text of the main game screen, by where it is."""
    texts = {
        name: plain(app.query_one(f"#{name}", Static).content)
        for name in ("board", "status", "card", "moves", "rack", "message")
    }
    texts["command"] = app.query_one("#command", Input).placeholder
    keys = [key.description for key in app.screen.query(FooterKey)]
    assert keys, "the key bar shows keys"
    texts["keys"] = "\n".join(keys)
    return texts


def test_the_game_screen_speaks_the_language_set_before_the_app_runs() -> None:
    with language("qps"):
        game = BoardGame("classic", PLAYERS, seed=11)
        app = MathableApp(game, bot_delay=0)

        async def script(pilot: Pilot[None]) -> None:
            await wait_for_person(pilot, app)
            # one turn each, so the moves, the recent turns and the messages show
            place = next(iter(game.legal_placements()))
            await pilot.press(str(game.rack(0).index(place.value) + 1))
            assert "⟦" in app.message.plain  # the chosen piece's legal cells
            app.play(place)
            if "end" in game.view(0).available:
                await pilot.press("e")
            await wait_for_person(pilot, app)
            await pilot.pause()
            texts = shown_texts(app)
            assert "⟦" in texts["keys"] and "⟦" in texts["status"] and "⟦" in texts["rack"]
            for where, text in texts.items():
                assert escaped(text) == [], (where, text)

        drive(app, script)


def test_a_command_word_is_typed_in_the_readers_language() -> None:
    with language("qps"):
        assert command_name("pass") == "⟦pass⟧"
        game = BoardGame("classic", PLAYERS, seed=11)
        app = MathableApp(game, bot_delay=0)

        async def script(pilot: Pilot[None]) -> None:
            await wait_for_person(pilot, app)
            before = len(game.log)
            await pilot.press("colon")
            app.query_one("#command", Input).value = command_name("pass")  # as typed
            await pilot.press("enter")
            await pilot.pause()
            assert game.log[before] == Pass(), app.message.plain
            assert app.message.plain == "⟦pass⟧"  # what was played, in the same words

        drive(app, script)


def test_the_words_shown_to_type_are_the_readers() -> None:
    """The help lists the command words in the reader's language, to type as shown."""
    with language("qps"):
        for kind in GAMES.values():
            keys = keys_help(kind, leaving=("resign", "abort")).plain
            assert "⟦pass⟧" in keys or not kind.has("pass")
            assert "⟦resign⟧" in keys and "⟦abort⟧" in keys
            assert escaped(keys, ("diago",)) == [], keys


def test_the_new_game_screen_and_the_cover_speak_the_language() -> None:
    with language("qps"):
        app = MathableApp(bot_delay=0)

        async def script(pilot: Pilot[None]) -> None:
            screen = app.screen
            assert isinstance(screen, NewGameScreen)
            texts = [plain(w.content) for w in screen.query(Static) if w.id != "newgame-error"]
            texts += [w.placeholder for w in screen.query(Input) if w.placeholder]
            texts += [str(w.label) for w in screen.query(Checkbox)]
            texts += [str(w.label) for w in screen.query(Button)]
            assert texts
            for text in texts:
                assert escaped(text, ("Mathable", *GAMES)) == [], text
            assert seat_problem(["Ann"], ["person"]).startswith("⟦")

        drive(app, script)

        cover = CoverScreen("Ann")
        (here,) = [b for key, b in cover._bindings if key == "enter"]
        assert here.description == "⟦I am here⟧"  # its key bar


def test_a_question_is_answered_with_the_letters_of_the_players_language() -> None:
    """In French the extra token's question (C7) reads Oui (o) / Non (n), and ``o``
    answers yes; ``y`` still does."""
    from mathable.tui.screens import QuestionScreen

    answers: list[bool | None] = []
    for key in ("o", "y", "n"):
        with language("fr"):
            app = MathableApp(BoardGame("classic", ["Ann", "Bob"], seed=1), bot_delay=0)

            async def script(pilot: Pilot[None], key: str = key, app: MathableApp = app) -> None:
                app.push_screen(QuestionScreen("?"), answers.append)
                await pilot.pause()
                labels = [str(b.label) for b in app.screen.query(Button)]
                assert labels[0].startswith("Oui") and "(o)" in labels[0], labels
                await pilot.press(key)
                await pilot.pause()

            drive(app, script)
    assert answers == [True, True, False]
