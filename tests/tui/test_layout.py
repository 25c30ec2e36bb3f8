"""The terminal game at 80×24 (issue 12, item 4): every game, 2 and 4 players, long
names; a request to enlarge below the minimum; every card of a long Quattro hand visible
and playable from the keyboard."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Awaitable, Callable

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Footer

from mathable.engine.protocol import HouseRules
from mathable.games import registry
from mathable.games.quattro.game import QuattroGame, QuattroSetup
from mathable.render.surface import Surface
from mathable.tui.app import MathableApp
from mathable.tui.screens import CoverScreen
from support.screen import rows

LONG = ("Alexandrine-Marguerite de la Tour d'Auvr", "Bartholomew Fitzwilliam-Montgomery the 3")
"""Two names of 40 characters, the longest allowed."""
PLAYERS = (*LONG, "Cleo", "Dan [bot:greedy]")


def run(
    app: MathableApp, size: tuple[int, int], script: Callable[[Pilot[None]], Awaitable[None]]
) -> None:
    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(go())


def inside(app: MathableApp, widget: Widget) -> bool:
    """Whether a widget is shown whole on the screen."""
    region = widget.region
    screen = Region(0, 0, *app.size)
    return widget.display and region.area > 0 and screen.contains_region(region)


async def uncover(pilot: Pilot[None], app: MathableApp) -> None:
    """Let the bots play and pass the cover until a person is at the screen."""
    for _ in range(300):
        if isinstance(app.screen, CoverScreen):
            await pilot.press("enter")
        game = app.game
        assert game is not None
        if app.human_seat() is not None or game.is_over:
            await pilot.pause()
            return
        await pilot.pause(0.01)
    raise AssertionError("no person came to the screen")


def check_whole(app: MathableApp) -> None:
    """Board, rack, command line, message, every name with its score and every key of
    the key bar lie within the screen."""
    game = app.game
    assert game is not None
    for name in ("#board", "#rack", "#command", "#message", "#status"):
        assert inside(app, app.query_one(name)), name
    footer = app.query_one(Footer)
    keys = list(footer.query("FooterKey"))
    assert keys and all(inside(app, key) for key in keys)
    assert any(inside(app, key) and "Quit" in str(key.render()) for key in keys)
    screen = rows(app)
    side = app.query_one("#status").region
    panel = [line[side.x : side.right] for line in screen[side.y : side.bottom]]
    text = "\n".join(panel)
    for seat, name in enumerate(game.players):
        # the whole name, or a long start of it cut by an ellipsis
        found = name in text or any(f"{name[:k]}…" in text for k in range(10, len(name)))
        assert found, (name, text)
        score_line = next(i for i, line in enumerate(panel) if name[:10] in line)
        near = " ".join(panel[score_line : score_line + 2])
        assert str(game.scores[seat]) in near
    board_lines = str(app.widgets["board"].content).splitlines()
    board = app.query_one("#board").region
    assert board.height >= len(board_lines)
    assert app.message.plain == "" or app.message.plain.split()[0] in "\n".join(screen)


@pytest.mark.parametrize("variant", list(registry.GAMES))
@pytest.mark.parametrize("count", [2, 4])
def test_every_game_is_whole_at_80x24_with_long_names(variant: str, count: int) -> None:
    names = [LONG[0], "Bob [bot:greedy]"] if count == 2 else list(PLAYERS)
    game = registry.new_game(variant, names, seed=7, house_rules=HouseRules(hints=True))
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await uncover(pilot, app)
        check_whole(app)
        await pilot.press("1")  # a piece chosen: a message under the board
        await pilot.pause()
        check_whole(app)
        assert "chosen" in "\n".join(rows(app))
        await pilot.press("m")  # the full names are one key away
        await pilot.pause()
        shown = "\n".join(rows(app))
        assert all(name in shown for name in game.players)

    run(app, (80, 24), script)


@pytest.mark.parametrize("variant", list(registry.GAMES))
def test_below_its_minimum_the_game_asks_for_a_larger_terminal(variant: str) -> None:
    game = registry.new_game(variant, ["Ann", "Bob [bot:greedy]"], seed=3)
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await uncover(pilot, app)
        width, height = app.minimum_size()
        assert width <= 80 and height <= 24
        await pilot.resize_terminal(width, height)  # the minimum itself: whole
        await pilot.pause()
        check_whole(app)
        for small in ((width - 1, height), (width, height - 1)):
            await pilot.resize_terminal(*small)
            await pilot.pause()
            assert f"enlarge the terminal to at least {width}×{height}" in "\n".join(rows(app))
            assert not app.query_one("#main").display
        await pilot.resize_terminal(80, 24)  # enlarged: the game is back
        await pilot.pause()
        assert "enlarge" not in "\n".join(rows(app))
        check_whole(app)

    run(app, (80, 24), script)


def long_hand_game() -> tuple[QuattroGame, tuple[int, ...]]:
    """Louis holds 20 cards, dealt from the real set; of them only the last, 90, fits a
    pile now (9 × 10 on piles A and B)."""
    hand = (12, 13, 14, 15, 40, 42, 45, 48, 49, 50, 54, 56, 60, 63, 64, 70, 72, 80, 81, 90)
    other = (3, 3, 3, 3, 3, 3, 3)
    piles = (9, 10, 2, 1)
    rest = QuattroGame(["a", "b"], seed=1).census() - Counter(hand + other + piles)
    setup = QuattroSetup(hands=(hand, other), piles=piles, reserve=tuple(sorted(rest.elements())))
    game = QuattroGame(["Louis", "Zoé [bot:greedy]"], setup=setup)
    assert game.rack(0) == hand and {p.value for p in game.legal_placements()} == {90}
    return game, hand


def test_a_twenty_card_quattro_hand_is_seen_whole_and_its_last_card_played() -> None:
    game, hand = long_hand_game()
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause()  # the key bar laid out, as the other layouts wait for (a fresh
        # clone's run beside other work once found it still unplaced)
        check_whole(app)
        rack = app.query_one("#rack").region
        shown = "\n".join(rows(app)[rack.y : rack.bottom]).split("Louis's hand")
        assert [int(v) for v in re.findall(r"\d+", shown[0])] == list(hand)
        await pilot.press("0")  # the tenth card
        assert app.selected == hand[9]
        await pilot.press("comma")  # back one: the ninth
        assert app.selected == hand[8]
        for _ in range(11):
            await pilot.press("full_stop")
        assert app.selected == 90 and app.selected_index == 19
        assert set(app.marks) == {0, 1}
        await pilot.click("#board", offset=(4, 1))  # pile A
        await pilot.pause()
        assert game.tops[0] == 90 and 90 not in game.rack(0)

    run(app, (80, 24), script)


def test_a_card_of_a_wrapped_hand_is_picked_by_a_click_on_its_line() -> None:
    game, hand = long_hand_game()
    app = MathableApp(game, bot_delay=0)

    async def script(pilot: Pilot[None]) -> None:
        per_line = 80 // 5
        await pilot.click("#rack", offset=(1 + 5 * 2, 1))  # second line, third card
        assert app.selected == hand[per_line + 2]

    run(app, (80, 24), script)


def test_the_numbered_boards_legend_names_its_numbers() -> None:
    kind = registry.GAMES["junior-numbers"]
    labels = sorted({int(t.label) for t in kind.targets})
    legend = Surface(kind).legend().plain
    assert f"{labels[0]}–{labels[-1]}" in legend
