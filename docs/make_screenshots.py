"""Regenerate the terminal-game screenshots in docs/ (SVG): ``python docs/make_screenshots.py``.

Each one drives the real app with Textual's Pilot, as the tests do.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from mathable.engine.protocol import Game, HouseRules
from mathable.games.board.game import BoardGame
from mathable.games.quattro.game import QuattroGame
from mathable.tui.app import MathableApp

DOCS = Path(__file__).resolve().parent
SIZE = (128, 38)


async def _shoot(
    app: MathableApp,
    name: str,
    keys: list[str],
    wait_person: bool = True,
    size: tuple[int, int] = SIZE,
) -> None:
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


def main() -> None:
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


if __name__ == "__main__":
    main()
