"""The terminal game from the keyboard alone, nothing lost (issue 33): the new-game
screen by Tab, Enter and Esc; Ctrl+C and Ctrl+Q ask and save; every save names its file;
screens own their keys; the side panel whole at 80×24; a whole turn on one line and
keys typed fast; the computer's pace."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual import events
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Footer, Select

from mathable.engine.actions import Place
from mathable.engine.protocol import Game, HouseRules
from mathable.games import registry
from mathable.games.board.game import BoardGame
from mathable.i18n import _ as translated
from mathable.i18n import language
from mathable.tui import widgets as tui
from mathable.tui.app import MathableApp
from mathable.tui.rules import keys_help
from mathable.tui.screens import HelpScreen, NewGameScreen, QuestionScreen, ReplayScreen
from support.screen import rows


def run(
    app: MathableApp,
    script: Callable[[Pilot[None]], Awaitable[None]],
    size: tuple[int, int] = (80, 24),
) -> None:
    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(go())


def footer_keys(app: MathableApp) -> list[str]:
    """The key bar of the screen in front, as it reads."""
    return [str(key.render()) for key in app.screen.query(Footer).first().query("FooterKey")]


def in_sight(app: MathableApp, widget: Widget) -> bool:
    return Region(0, 0, *app.size).contains_region(widget.region) and widget.region.area > 0


def two_placements(game: Game) -> tuple[Place, Place]:
    """Two placements the player to move may make one after the other."""
    for first in sorted(game.legal_placements(), key=str):
        trial = game.replayed(len(game.log))
        trial.apply(first)
        if trial.to_move == game.to_move:
            second = sorted(trial.legal_placements(), key=str)
            if second and isinstance(first, Place) and isinstance(second[0], Place):
                return first, second[0]
    raise AssertionError("no turn of two placements")


def person_first() -> BoardGame:
    """A classic game that Ann, a person, opens against a computer."""
    for seed in range(1, 50):
        game = BoardGame("classic", ["Ann", "Bob [bot:greedy]"], seed=seed)
        if game.to_move == 0:
            return game
    raise AssertionError("no seed lets Ann start")


# -- finding 1, 9: the new-game screen ------------------------------------------------


def test_enter_on_the_new_game_screen_starts_the_game_shown() -> None:
    app = MathableApp(bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert app.game is not None and app.game.players[0] == "Ann"

    run(app, script)


def test_tab_reaches_every_field_and_start_each_scrolled_into_view() -> None:
    app = MathableApp(variant="junior-numbers", bot_delay=0)  # strict and undo offered

    async def script(pilot: Pilot[None]) -> None:
        reached: list[str] = []
        for _ in range(30):
            await pilot.press("tab")
            await pilot.pause()
            focused = app.focused
            assert focused is not None and focused.id is not None
            assert in_sight(app, focused), focused.id
            if focused.id in reached:
                break
            reached.append(focused.id)
        wanted = {f"name{s}" for s in range(4)} | {f"kind{s}" for s in range(4)}
        wanted |= {"variant", "referee", "undo", "strict", "hints", "seed", "start"}
        assert wanted <= set(reached), reached
        await pilot.press("shift+tab")  # and back
        await pilot.pause()
        assert app.focused is not None and app.focused.id == reached[-1]

    run(app, script)


def test_the_rounds_and_seed_fields_are_labelled_and_the_keys_listed() -> None:
    app = MathableApp(variant="quattro", bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        screen = "\n".join(rows(app))
        assert "Rounds" in screen and "Seed" in screen
        keys = " ".join(footer_keys(app))
        assert "Next field" in keys and "Start" in keys and "Quit" in keys

    run(app, script)


@pytest.mark.parametrize("lang", ["en", "fr", "es", "de", "it", "nl"])
def test_the_seat_choices_say_that_the_masters_turns_take_a_few_seconds(lang: str) -> None:
    """As the web's new game says it (issue 35): a slow level's choice says so, whole on
    one line at 80×24 once chosen, in every language; the other levels' choices are as
    they were."""
    with language(lang):
        slow = translated("computer: {level}, a few seconds a turn", level="master")
        quick = translated("computer: {level}", level="expert")
        app = MathableApp(bot_delay=0)

        async def script(pilot: Pilot[None]) -> None:
            kind = app.screen.query_one("#kind1", Select)
            prompts = {value: str(prompt) for prompt, value in kind._options}
            assert prompts["master"] == slow and prompts["expert"] == quick
            kind.value = "master"
            await pilot.pause()
            shown = rows(app)
            bob = next(i for i, row in enumerate(shown) if row.strip().startswith("Bob"))
            assert slow in shown[bob]  # whole, on the seat's one line
            assert shown[bob + 1].strip().startswith("Cleo")

        run(app, script)
    if lang == "en":
        assert slow == "computer: master, a few seconds a turn"
    else:
        assert slow != "computer: master, a few seconds a turn"  # translated


@pytest.mark.parametrize("key", ["escape", "ctrl+q", "ctrl+c"])
def test_esc_and_ctrl_q_quit_the_new_game_screen_even_from_a_name(key: str) -> None:
    app = MathableApp(bot_delay=0)
    quits: list[object] = []

    async def script(pilot: Pilot[None]) -> None:
        app.exit = lambda *args, **kwargs: quits.append(args)  # type: ignore[method-assign]
        app.screen.query_one("#name0").focus()
        await pilot.pause()
        await pilot.press("q", key)
        await pilot.pause()
        assert quits, key
        assert "q" in app.screen.query_one("#name0").value  # type: ignore[attr-defined]

    run(app, script)


# -- finding 2, 8: nothing lost ----------------------------------------------------------


@pytest.mark.parametrize("key", ["ctrl+c", "ctrl+q"])
def test_ctrl_c_and_ctrl_q_ask_in_the_players_language_and_save(
    key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    game = person_first()
    quits: list[object] = []
    with language("fr"):
        app = MathableApp(game, bot_delay=0)

        async def script(pilot: Pilot[None]) -> None:
            app.exit = lambda *args, **kwargs: quits.append(args)  # type: ignore[method-assign]
            app.play(two_placements(game)[0])
            await pilot.pause()
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, QuestionScreen)
            assert "Enregistrer" in "\n".join(rows(app))  # asked in French
            await pilot.press("o")  # oui
            await pilot.pause()

        run(app, script)
    (saved,) = tmp_path.glob("*.json")
    assert quits and saved.name in app.farewell
    assert registry.from_record(saved.read_text()).log == game.log


def test_no_keeps_the_game_going(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    game = person_first()
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        app.play(two_placements(game)[0])
        await pilot.press("ctrl+c")
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, QuestionScreen) and "goes on" in app.message.plain

    run(app, script)
    assert not list(tmp_path.glob("*.json"))


def test_q_after_a_resignation_saves_it_and_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    game = person_first()
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("R", "y")
        await pilot.pause()
        assert game.is_over
        await pilot.press("q")
        await pilot.pause()

    run(app, script)
    (saved,) = tmp_path.glob("*.json")
    assert registry.from_record(saved.read_text()).is_over
    assert f"--resume {saved.name}" in app.farewell


# -- finding 5, 8: screens own their keys; no hint after the game ---------------------


def test_game_keys_do_not_act_behind_the_replay_or_the_help() -> None:
    game = person_first()
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        app.play(two_placements(game)[0])
        log = game.log
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        keys = " ".join(footer_keys(app))
        assert "End turn" not in keys and "Resign" not in keys and "Back" in keys
        await pilot.press("e", "p", "R", "1")
        await pilot.pause()
        assert game.log == log and isinstance(app.screen, ReplayScreen)
        await pilot.press("escape", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("e")
        await pilot.pause()
        assert game.log == log

    run(app, script)


def test_after_the_game_the_key_bar_offers_no_hint() -> None:
    game = BoardGame("classic", ["Ann", "Bob"], seed=3, house_rules=HouseRules(hints=True))
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("enter")  # the cover
        await pilot.pause()
        assert any("Hint" in key for key in footer_keys(app))
        await pilot.press("R", "y")
        await pilot.pause()
        assert game.is_over
        message = app.message.plain
        assert not any("Hint" in key for key in footer_keys(app))
        await pilot.press("h")
        assert app.message.plain == message  # the result stays

    run(app, script)


def test_help_lists_q_a_and_question_mark_and_the_boards_signs() -> None:
    game = BoardGame("classic", ["Ann", "Bob"], seed=3)
    text = keys_help(game.game_type, leaving=("resign", "abort")).plain
    for key in ("\n  q ", "\n  ? ", "\n  A, ", "\n  v "):
        assert key in text, key
    page = HelpScreen(game.game_type)
    from mathable.tui.rules import rules_page

    assert "+ − × ÷" in rules_page(page.kind).plain


# -- finding 4: the side panel at 80×24 -------------------------------------------------


def test_the_card_is_whole_and_the_newest_turn_first_at_80x24() -> None:
    game = BoardGame("classic", ["Ann", "Bob [bot:greedy]"], seed=11)
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        for _ in range(300):
            if game.to_move == 0 and len(game.summaries()) >= 1:
                break
            await pilot.pause(0.01)
        app.play_text("pass")
        for _ in range(300):
            if game.to_move == 0 and len(game.summaries()) >= 3:
                break
            await pilot.pause(0.01)
        await pilot.pause()
        card = app.query_one("#card")
        assert in_sight(app, card)
        side = "\n".join(line[card.region.x :] for line in rows(app)[card.region.y :])
        assert "90" in side.replace("\n", " ")  # the card ends on the set's last value
        moves = app.query_one("#moves")
        lines = rows(app)[moves.region.y : moves.region.y + 3]
        newest = len(game.summaries())
        assert any(f"{newest}." in line[moves.region.x :] for line in lines), lines

    run(app, script)


def test_the_card_writes_runs_of_the_set_from_first_to_last() -> None:
    unseen = {0: 1, 1: 6, 2: 6, 3: 6, 4: 7, 5: 0, 6: 1, 7: 1, 8: 1, 9: 1, 10: 2, 11: 1}
    assert tui.card_text(unseen).plain == "unseen: 0 1…3×6 4×7 6…9 10×2 11"


# -- finding 6: a whole turn on one line; keys typed fast ---------------------------


@pytest.mark.parametrize("between", [" ", ",", ", "])
def test_a_whole_turn_typed_on_one_line(between: str) -> None:
    game = person_first()
    first, second = two_placements(game)
    app = MathableApp(game, bot_delay=0)
    line = game.format_action(first) + between + game.format_action(second)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("colon", *line, "enter")
        await pilot.pause()
        assert game.log[-2:] == (first, second), app.message.plain

    run(app, script)


def test_keys_typed_fast_are_none_of_them_lost() -> None:
    """``:F7=2⏎:F8=7⏎`` arriving all at once, before the app has handled the first."""
    game = person_first()
    first, second = two_placements(game)
    app = MathableApp(game, bot_delay=0)
    typed = f":{game.format_action(first)}\r:{game.format_action(second)}\r"

    async def script(pilot: Pilot[None]) -> None:
        for ch in typed:
            key = {":": "colon", "=": "equals_sign", "\r": "enter"}.get(ch, ch.lower())
            app.post_message(events.Key(key, ch))
        for _ in range(50):
            await pilot.pause(0.01)
        assert game.log[-2:] == (first, second), app.message.plain

    run(app, script)


# -- finding 12: the computer's pace --------------------------------------------------


def test_the_pace_key_steps_through_paces_zero_included() -> None:
    game = person_first()
    app = MathableApp(game)
    assert app.bot_delay == 0.3  # the default pace

    async def script(pilot: Pilot[None]) -> None:
        seen = []
        for _ in range(5):
            await pilot.press("v")
            seen.append(app.bot_delay)
        assert 0 in seen and len(set(seen)) == 5
        assert "apart" in app.message.plain

    run(app, script)
    assert MathableApp(game, bot_delay=0).bot_delay == 0
