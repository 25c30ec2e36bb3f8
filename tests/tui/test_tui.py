"""The terminal game driven as a person would (Textual's Pilot): keys, clicks, notation."""

from __future__ import annotations

import io
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from mathable.engine.protocol import Game, HouseRules
from mathable.games import registry
from mathable.games.board.game import BoardGame
from mathable.games.quattro.game import QuattroGame, QuattroSetup
from mathable.tui.app import MathableApp
from mathable.tui.screens import (
    AnalysisScreen,
    CoverScreen,
    NewGameScreen,
    QuestionScreen,
    ReplayScreen,
)
from support.screen import drive as driven

SIZE = (130, 42)


def drive(app: MathableApp, script: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    """The app driven at this file's size."""
    driven(app, script, SIZE)


async def wait_for_person(pilot: Pilot[None], app: MathableApp, seat: int = 0) -> None:
    for _ in range(200):
        game = app.game
        assert game is not None
        if game.is_over or (game.to_move == seat and not app.waiting_cover):
            return
        await pilot.pause(0.01)
    raise AssertionError("the bot never handed back the turn")


def board_offset(cell: int, size: int = 14) -> tuple[int, int]:
    """Where a cell is drawn in the board widget (see render.board_text)."""
    row, col = divmod(cell, size)
    return (4 + 4 * col + 1, 1 + row)


def screen_text(app: MathableApp) -> str:
    """Every text on screen, from the app's own SVG export."""
    import html
    import re

    svg = app.export_screenshot()
    text = html.unescape("".join(re.findall(r">([^<>]+)</text>", svg)))
    return text.replace("\xa0", " ")


def rack_shown(app: MathableApp) -> str:
    """What the rack widget holds now."""
    content = app.widgets["rack"].content
    return str(getattr(content, "plain", content))


def drawn(rack: tuple[int, ...]) -> str:
    """How the rack widget draws a rack's tokens."""
    return "".join(f"{v:^4} " for v in rack)


def test_a_whole_game_against_a_bot_by_keys_and_clicks() -> None:
    game = BoardGame("classic", ["Ann", "Bob [bot:greedy]"], seed=11)
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        for _ in range(400):
            await wait_for_person(pilot, app)
            if game.is_over:
                break
            rack = game.rack(0)
            legal = list(game.legal_placements())
            if not legal:
                await pilot.press("e" if game.turn_placements else "p")
                continue
            place = legal[0]
            await pilot.press(str(rack.index(place.value) + 1))  # pick the token by key
            assert app.selected == place.value and place.cell in app.marks
            before = len(game.log)
            await pilot.click("#board", offset=board_offset(place.cell))  # and click the cell
            await pilot.pause()
            if isinstance(app.screen, QuestionScreen) and len(game.log) == before:
                await pilot.press("n")  # the extra-token question: no
            await pilot.pause()
        assert game.is_over
        assert "Game over" in app.message.plain
        await pilot.press("a")  # the analysis opens after the game (worked out in a thread)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "Analysis" in screen_text(app)

    drive(app, script)


def test_the_analysis_is_worked_out_while_the_screen_stays_live(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A whole game's analysis takes a second or more: a worker thread makes it, the
    screen says so meanwhile and answers keys, a second ask starts no second analysis."""
    from mathable.ai import get_bot
    from mathable.ai.analysis import analysis_report
    from mathable.ai.equity import Depth

    game = BoardGame("classic", ["Ann", "Bob"], seed=8)
    bots = [get_bot("greedy", 1), get_bot("greedy", 2)]
    while not game.is_over:
        game.apply(bots[game.to_move].act(game.view(game.to_move)))
    release, asked = threading.Event(), []

    def held(finished: Game, depth: Depth) -> dict[str, Any]:
        asked.append(finished)
        release.wait(10)  # until the test has looked at the screen meanwhile
        return analysis_report(finished, depth)

    monkeypatch.setattr("mathable.tui.app.analysis_report", held)
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause()
        before = app.message.plain
        await pilot.press("a")
        await pilot.press("a")  # asked again meanwhile
        assert app.analysing and "Analysing the game" in app.message.plain
        assert "Analysis" not in screen_text(app)
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not app.analysing and "Analysis" in screen_text(app)
        assert app.message.plain == before != ""  # what the board said, said again
        assert len(asked) == 1  # of its own copy: the screen's game is read meanwhile
        assert asked[0] is not game and asked[0].log == game.log

    drive(app, script)


def _played_out(game: Game) -> Game:
    from mathable.ai import get_bot

    bots = [get_bot("greedy", seat + 1) for seat in range(len(game.players))]
    while not game.is_over:
        game.apply(bots[game.to_move].act(game.view(game.to_move)))
    return game


def test_the_analysis_is_judged_again_like_the_master_and_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From the analysis, ``m`` judges the game again with the master's budgets (in the
    worker thread, as the first) and ``e`` goes back; the screen says the depth, and the
    key bar offers the other one only."""
    from mathable.ai.analysis import analysis_report
    from mathable.ai.equity import Depth
    from mathable.ai.master import MASTER_SAMPLES

    game = _played_out(BoardGame("classic", ["Ann", "Bob"], seed=8))
    depths: list[str] = []

    def judged(finished: Game, depth: Depth) -> dict[str, Any]:
        depths.append(depth.name)
        return analysis_report(finished, depth)

    monkeypatch.setattr("mathable.tui.app.analysis_report", judged)
    app = MathableApp(game, bot_delay=0)

    async def shown(pilot: Pilot[None]) -> str:
        """The key bar in sight, and the whole analysis (it scrolls past the screen)."""
        from rich.console import Console

        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, AnalysisScreen)
        console = Console(width=SIZE[0], record=True, file=io.StringIO())
        console.print(app.screen.content)
        return screen_text(app) + console.export_text()

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause()
        before = app.message.plain
        await pilot.press("a")
        text = await shown(pilot)
        assert "Judged at the expert's depth" in text and "Like the master" in text
        assert "Like the expert" not in text
        await pilot.press("m")
        assert app.analysing and "Judging like the master" in app.message.plain
        text = await shown(pilot)
        assert f"Judged at the master's depth: {MASTER_SAMPLES} samples a turn." in text
        assert "Like the expert" in text and "Like the master" not in text
        await pilot.press("m")  # not offered at the master's depth: nothing
        await pilot.press("e")
        text = await shown(pilot)
        assert "Judged at the expert's depth" in text
        assert depths == ["expert", "master", "expert"]
        await pilot.press("escape")
        await pilot.pause()
        assert app.message.plain == before != ""  # the board's message, as it was

    drive(app, script)


def test_a_card_games_analysis_offers_no_depth() -> None:
    game = _played_out(QuattroGame(["Louis", "Zoé"], seed=3))
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause()
        await pilot.press("a")
        await app.workers.wait_for_complete()
        await pilot.pause()
        text = screen_text(app)
        assert "Analysis" in text and "Like the master" not in text
        await pilot.press("m")  # nothing to judge again
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not app.analysing and "Like the master" not in screen_text(app)

    drive(app, script)


def test_an_illegal_attempt_is_refused_with_the_rule_and_nothing_changes() -> None:
    game = BoardGame("classic", ["Ann", "Bob [bot:greedy]"], seed=5, setup=None)
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await wait_for_person(pilot, app)
        before = game.snapshot()
        value = game.rack(0)[0]
        await pilot.press("colon")
        for key in f"A1={value}":
            await pilot.press(key)
        await pilot.press("enter")
        await pilot.pause()
        assert game.snapshot() == before
        assert "Refused" in app.message.plain and "rule C" in app.message.plain
        assert "Refused" in screen_text(app)

    drive(app, script)


def test_save_then_resume(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    game = BoardGame("classic", ["Ann", "Bob [bot:greedy]"], seed=8)
    app = MathableApp(game, save_path=path, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await wait_for_person(pilot, app)
        legal = next(iter(game.legal_placements()))
        await pilot.press(str(game.rack(0).index(legal.value) + 1))
        await pilot.click("#board", offset=board_offset(legal.cell))
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert "Saved" in app.message.plain

    drive(app, script)
    resumed = registry.from_record(path.read_text())
    assert resumed.snapshot() == game.snapshot()
    again = MathableApp(resumed, bot_delay=0)

    async def check(pilot: Pilot[None]) -> None:
        await wait_for_person(pilot, again)
        assert again.game is resumed and "Ann" in screen_text(again)

    drive(again, check)


def test_pass_and_play_covers_the_board_between_people() -> None:
    game = BoardGame("classic", ["Ann", "Bob"], seed=2)
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        first = game.to_move
        assert isinstance(app.screen, CoverScreen)
        assert "Pass the screen to" in screen_text(app) and "'s rack" not in screen_text(app)
        assert "covered" in rack_shown(app)
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, CoverScreen)
        assert app.viewer() == first
        assert drawn(game.rack(first)) in rack_shown(app)
        assert f"{game.players[first]}'s rack" in screen_text(app)
        await pilot.press("p")  # pass: the next person must not see this rack
        await pilot.pause()
        assert isinstance(app.screen, CoverScreen)
        assert app.viewer() is None
        assert "covered" in rack_shown(app) and "'s rack" not in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.viewer() == 1 - first
        assert drawn(game.rack(1 - first)) in rack_shown(app)

    drive(app, script)


def test_a_replay_steps_back_and_forth() -> None:
    game = BoardGame("classic", ["Ann", "Bob"], seed=4, house_rules=HouseRules())
    for _ in range(6):
        game.apply(next(iter(game.legal_placements())) if game.legal_placements() else "pass")
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("enter")  # the cover
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("home", "right", "right", "right")
        await pilot.pause()
        assert f"action 3 of {len(game.log)}" in screen_text(app)
        await pilot.press("left")
        await pilot.pause()
        assert f"action 2 of {len(game.log)}" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ReplayScreen)

    drive(app, script)


def test_the_new_game_screen_starts_a_game_against_a_bot() -> None:
    app = MathableApp(None, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, NewGameScreen)
        await pilot.click("#start")
        await pilot.pause()
        assert app.game is not None and app.game.players[0] == "Ann"
        assert "bot:greedy" in app.game.players[1]

    drive(app, script)


def test_quattro_cards_are_played_on_piles_by_click() -> None:
    setup = QuattroSetup(
        hands=((32, 25, 1, 1, 1, 1, 1), (3, 3, 3, 3, 3, 3, 3)),
        piles=(20, 12, 7, 2),
        reserve=tuple(range(40, 60)),
    )
    game = QuattroGame(["Louis", "Zoé [bot:greedy]"], setup=setup)
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press(str(game.rack(0).index(32) + 1))
        assert set(app.marks) == {0, 1}  # piles A and B light up
        await pilot.click("#board", offset=(4, 1))  # pile A
        await pilot.pause()
        assert game.tops[0] == 32
        await pilot.press(str(game.rack(0).index(25) + 1))
        await pilot.click("#board", offset=(4, 5))  # pile C
        await pilot.pause()
        assert game.turns[0].plays == ((0, 32), (2, 25))

    drive(app, script)


def test_a_stuck_quattro_turn_draws_places_and_exchanges_by_keys() -> None:
    setup = QuattroSetup(
        hands=((90, 90, 81, 81, 80, 80, 72), (3, 3, 3, 3, 3, 3, 3)),
        piles=(1, 1, 1, 1),
        reserve=tuple(range(40, 60)),
    )
    game = QuattroGame(["Louis", "Zoé [bot:greedy]"], setup=setup)
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        assert app.check_action("act", ("draw",)) is True
        assert app.check_action("act", ("end",)) is False  # Quattro has no end of turn
        assert app.check_action("exchange", ()) is False  # not open yet: not in the key bar
        await pilot.press("w")
        await pilot.pause()
        drawn_card = game.view(0).playable
        assert len(drawn_card) == 1 and drawn(drawn_card) in rack_shown(app)
        await pilot.press("1")
        assert set(app.marks) == {0, 1, 2, 3}  # a drawn card goes on any pile
        await pilot.click("#board", offset=(13, 1))  # pile B
        await pilot.pause()
        assert game.view(0).surface[1] == drawn_card[0]
        assert app.check_action("exchange", ()) is True
        await pilot.press("x")
        await pilot.pause()
        await pilot.click("#x0")
        await pilot.click("#go")
        await pilot.pause()
        assert game.turns[0].kind == "stuck" and game.turns[0].exchanged
        assert "draw B=" in screen_text(app)  # the move list, as the game writes it

    drive(app, script)


def test_keys_offer_only_the_actions_of_the_game_in_play() -> None:
    game = BoardGame("classic", ["Ann", "Bob [bot:greedy]"], seed=11)
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await wait_for_person(pilot, app)
        for keyword in ("diago", "draw", "penalty", "stop"):
            assert app.check_action("act", (keyword,)) is False
        assert app.check_action("act", ("pass",)) is True
        assert app.check_action("act", ("end",)) is False  # nothing placed yet
        assert "DIAGO" not in screen_text(app)

    drive(app, script)
