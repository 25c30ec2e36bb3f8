"""Turns in the terminal game as issue 12 asks (items 1 and 5, O2, J4): typed text shown
as typed, the new-game screen, hints as a house rule, covers at every change of seat,
computers that think in a worker and show their whole turn, the end of a game, and
proposals answered by keys."""

from __future__ import annotations

import asyncio
import html
import re
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from mathable.ai import Bot, get_bot
from mathable.engine.actions import Action
from mathable.engine.protocol import HouseRules, View
from mathable.games import registry
from mathable.tui.app import MathableApp
from mathable.tui.screens import CoverScreen, HelpScreen, NewGameScreen

SIZE = (100, 30)


def run(app: MathableApp, script: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(go())


def screen_text(app: MathableApp) -> str:
    """Every text on screen, from the app's own SVG export."""
    svg = app.export_screenshot()
    return html.unescape("".join(re.findall(r">([^<>]*)</text>", svg))).replace("\xa0", " ")


async def start(pilot: Pilot[None], app: MathableApp) -> None:
    """Press the new-game screen's Start button from the keyboard (once its animation
    of a previous press is over: a button ignores presses meanwhile)."""
    await pilot.pause(0.25)
    app.screen.query_one("#start").focus()
    await pilot.press("enter")
    await pilot.pause()


def keys_shown(app: MathableApp) -> str:
    """The key bar as drawn."""
    return " ".join(str(key.render()) for key in app.query("FooterKey"))


async def settle(pilot: Pilot[None], app: MathableApp, until: Callable[[], bool]) -> None:
    for _ in range(400):
        if until():
            return
        await pilot.pause(0.01)
    raise AssertionError("the app never got there")


def cover_shown(app: MathableApp) -> Callable[[], bool]:
    """The cover between two people's turns is the screen, and drawn (on a busy machine
    the screen is the cover a moment before it is painted)."""
    return lambda: isinstance(app.screen, CoverScreen) and "Pass the screen to" in screen_text(app)


def person_at_screen(app: MathableApp) -> Callable[[], bool]:
    return lambda: app.game is not None and (app.game.is_over or app.human_seat() is not None)


class GatedBot:
    """A computer that thinks until the test lets it answer (at most a few seconds)."""

    name = "gated"

    def __init__(self) -> None:
        self.inner: Bot = get_bot("greedy", 1)
        self.gate = threading.Event()
        self.calls = 0

    def act(self, view: View) -> Action:
        self.calls += 1
        self.gate.wait(timeout=3)
        return self.inner.act(view)


def test_names_and_typed_text_with_markup_show_exactly_as_typed() -> None:
    names = ["[/]", "[bold]Eve", "[/x] [bot:greedy]"]
    game = registry.new_game("classic", names, seed=4, house_rules=HouseRules(hints=True))
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app, cover_shown(app))
        person = game.players[game.to_move]
        assert f"Pass the screen to {person}" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot, app, person_at_screen(app))
        seat = game.to_move
        text = screen_text(app)
        for name in names:
            assert name in text
        assert f"{game.players[seat]}'s rack" in text
        await pilot.press("colon", *"[/x]", "enter")
        await pilot.pause()
        assert "'[/x]'" in app.message.plain and "'[/x]'" in screen_text(app)
        await pilot.press("m")
        await pilot.pause()
        assert all(name in screen_text(app) for name in names)

    run(app, script)


def test_the_new_game_screen_refuses_seats_the_game_would_refuse_or_misread() -> None:
    app = MathableApp(None, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        error = screen.query_one("#newgame-error")
        screen.query_one("#name0", Input).value = "[/x]"
        screen.query_one("#name1", Input).value = "[/x]"
        await start(pilot, app)
        assert app.game is None and isinstance(app.screen, NewGameScreen)
        assert "two players are called '[/x]'" in str(error.render())
        # a person called "Abbot:Eve [bold]" would be read as a computer of level "eve"
        screen.query_one("#name0", Input).value = "Abbot:Eve [bold]"
        await start(pilot, app)
        assert app.game is None and app.screen is screen
        assert "'Abbot:Eve [bold]'" in str(error.render())
        screen.query_one("#name0", Input).value = "Eve"
        await start(pilot, app)
        assert app.game is not None and app.game.players[0] == "Eve"

    run(app, script)


def test_enter_on_the_new_game_screen_moves_on_and_keeps_what_was_typed() -> None:
    app = MathableApp(None, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        screen = app.screen
        name = screen.query_one("#name0", Input)
        name.focus()
        name.value = ""
        await pilot.press(*"Zoé", "enter")
        await pilot.pause()
        assert name.value == "Zoé" and not name.has_focus
        seed = screen.query_one("#seed", Input)
        seed.focus()
        await pilot.press(*"42", "enter")
        await pilot.pause()
        assert seed.value == "42"
        await start(pilot, app)
        assert app.game is not None and app.game.players[0] == "Zoé" and app.game.seed == 42

    run(app, script)


def test_hints_are_on_from_the_new_game_screen_and_refused_when_off() -> None:
    app = MathableApp(None, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await start(pilot, app)
        assert app.game is not None and app.game.house_rules.hints

    run(app, script)
    game = registry.new_game("classic", ["Ann", "Bob [bot:greedy]"], seed=3)
    assert not game.house_rules.hints
    off = MathableApp(game, bot_delay=0)

    async def refused(pilot: Pilot[None]) -> None:
        await settle(pilot, off, person_at_screen(off))
        await pilot.press("h")
        await pilot.pause()
        assert "Hints are off" in off.message.plain and not off.marks

    run(off, refused)


def test_the_command_line_choices_reach_the_new_game_screen() -> None:
    """``mathable play --variant junior --referee --no-hints`` opens the new-game screen
    on that game with those house rules (they were ignored)."""
    house = HouseRules(table_referee=True, hints=False)
    app = MathableApp(None, bot_delay=0, variant="junior", house_rules=house)

    async def script(pilot: Pilot[None]) -> None:
        await start(pilot, app)
        assert app.game is not None
        assert app.game.game_type.name == "junior"
        assert app.game.house_rules.table_referee and not app.game.house_rules.hints

    run(app, script)


def test_a_player_called_you_reads_your_rack_even_while_the_computer_thinks() -> None:
    game = registry.new_game("classic", ["You", "Bob [bot:greedy]"], seed=1)
    app = MathableApp(game, bot_delay=0)
    gated = GatedBot()
    app.bots[1] = gated

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app, lambda: game.to_move == 1 or app.human_seat() == 0)
        if game.to_move == 0:
            await pilot.press("p")
        await settle(pilot, app, lambda: gated.calls > 0)
        text = screen_text(app)
        assert "Your rack" in text and "You's" not in text
        gated.gate.set()

    run(app, script)


def test_a_computer_thinks_in_a_worker_and_its_whole_turn_is_shown() -> None:
    def opening(seed: int) -> int:
        """How many actions the computer's opening turn takes (0: it does not open)."""
        game = registry.new_game("classic", ["Bob [bot:greedy]", "Ann"], seed=seed)
        bot, actions = GatedBot().inner, 0
        while game.to_move == 0 and not game.is_over:
            game.apply(bot.act(game.view(0)))
            actions += 1
        return actions

    seed = next(s for s in range(100) if opening(s) >= 3)
    game = registry.new_game("classic", ["Bob [bot:greedy]", "Ann"], seed=seed)
    app = MathableApp(game, bot_delay=0)
    gated = GatedBot()
    app.bots[0] = gated

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app, lambda: gated.calls > 0)
        assert "Bob [bot:greedy] is thinking…" in screen_text(app)
        await pilot.press("question_mark")  # the screen answers while the computer thinks
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and game.to_move == 0
        await pilot.press("escape")
        gated.gate.set()
        await settle(pilot, app, person_at_screen(app))
        turn = game.view(1).summaries[-1]
        assert turn.seat == 0 and len(turn.notation.split()) > 1  # several placements
        text = screen_text(app)
        assert f"Bob [bot:greedy] {turn.notation}" in text and "thinking" not in text

    run(app, script)


def test_the_cover_hides_every_rack_at_every_change_of_person() -> None:
    rules = HouseRules(allow_undo=True)
    game = registry.new_game(
        "classic", ["Ann", "Bob", "Cy [bot:greedy]"], seed=6, house_rules=rules
    )
    app = MathableApp(game, bot_delay=0)
    seen: list[tuple[int, bool]] = []

    async def script(pilot: Pilot[None]) -> None:
        for _ in range(4):  # several rounds, a computer turn between the people
            await settle(pilot, app, cover_shown(app))
            assert app.viewer() is None and "'s rack" not in screen_text(app)
            await pilot.press("enter")
            await settle(pilot, app, person_at_screen(app))
            seen.append((game.to_move, app.viewer() == game.to_move))
            await pilot.press("p")
        await settle(pilot, app, lambda: isinstance(app.screen, CoverScreen))
        await pilot.press("enter")
        await settle(pilot, app, person_at_screen(app))
        at_screen = game.to_move
        await pilot.press("u")  # takes back the computer's turn and the other person's
        await pilot.pause()
        assert game.to_move != at_screen
        assert app.viewer() is None and isinstance(app.screen, CoverScreen)
        assert "'s rack" not in screen_text(app)

    run(app, script)
    assert {seat for seat, _ in seen} == {0, 1} and all(shown for _, shown in seen)


def test_the_end_of_a_game_shows_the_racks_left_and_what_they_cost() -> None:
    game = registry.new_game("classic", ["Ann", "Bob"], seed=1)
    while not game.is_over:
        game.apply(next(iter(game.legal_placements()), None) or game.parse_action("pass"))
    view = game.view(None)
    deducted = view.to_dict()["deductions"]
    assert any(view.open_racks) and any(deducted)
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        text = screen_text(app)
        for seat, rack in enumerate(view.open_racks):
            left = " ".join(map(str, rack)) if rack else "nothing"
            assert f"{game.players[seat]}: {left} left, −{deducted[seat]}" in text

    run(app, script)


def test_a_stop_is_proposed_and_answered_by_keys_j4() -> None:
    empty_pot = {"racks": [[1, 3, 5, 7, 9], [1, 3, 5, 7, 9]], "bag": [], "to_move": 0}  # J4
    game = registry.new_game("junior", ["Ann", "Bob"], setup=empty_pot)
    app = MathableApp(game, bot_delay=0)

    async def uncovered(pilot: Pilot[None]) -> int:
        await settle(pilot, app, lambda: isinstance(app.screen, CoverScreen))
        await pilot.press("enter")
        await settle(pilot, app, person_at_screen(app))
        return game.to_move

    async def script(pilot: Pilot[None]) -> None:
        proposer = await uncovered(pilot)
        assert "Propose stop" in keys_shown(app) and "Accept" not in keys_shown(app)
        await pilot.press("t")
        answerer = await uncovered(pilot)
        assert answerer != proposer and not game.is_over
        assert "Accept" in keys_shown(app) and "Decline" in keys_shown(app)
        assert game.view(answerer).status in screen_text(app)  # the proposal, said
        await pilot.press("n")
        assert await uncovered(pilot) == proposer and not game.is_over
        await pilot.press("p")  # play on; the next turn may propose again
        again = await uncovered(pilot)
        await pilot.press("t")
        await uncovered(pilot)
        await pilot.press("y")
        await settle(pilot, app, lambda: game.is_over)
        assert again is not None and "Game over" in app.message.plain
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        content = app.screen.query_one(Static).content  # all of it: the rules are long
        help_text = str(getattr(content, "plain", content))
        assert "propose to stop (all must accept)" in help_text
        assert re.search(r"y / n +accept / decline a pending proposal", help_text)

    run(app, script)


def test_a_first_save_never_overwrites_another_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    game = registry.new_game("classic", ["Ann", "Bob [bot:greedy]"], seed=5)
    taken = tmp_path / "mathable-classic-5.json"
    taken.write_text("another game", encoding="utf-8")
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app, person_at_screen(app))
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("s")  # a second save goes to the same new file
        await pilot.pause()

    run(app, script)
    assert taken.read_text(encoding="utf-8") == "another game"
    saved = tmp_path / "mathable-classic-5-2.json"
    assert registry.from_record(saved.read_text(encoding="utf-8")).log == game.log
    assert {p.name for p in tmp_path.iterdir()} == {taken.name, saved.name}
