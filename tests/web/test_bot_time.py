"""Computer players move within their own time (issue 15, "Clocks"): a searching level
whose clock runs low plays its next actions as greedy (milliseconds a turn), so a long
search never loses it the game on time; without a clock, or with time enough, it plays
at its own level."""

from __future__ import annotations

import time
from typing import Any

import pytest

from mathable.ai import BOTS, LOW_TIME_MS, QUICK_LEVELS, in_time
from mathable.engine.protocol import Game
from support.api import act, new_game, view
from support.clocks import Clock, app_at


@pytest.mark.parametrize("level", list(BOTS))
def test_the_level_played_by_time_left(level: str) -> None:
    assert in_time(level, None) == level
    assert in_time(level, LOW_TIME_MS) == level
    low = in_time(level, LOW_TIME_MS - 1)
    assert low == (level if level in QUICK_LEVELS else "greedy")
    assert in_time(level, 0) == low


def test_a_computer_low_on_time_plays_fast(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    with app_at(database_url, clock) as client:  # the lifespan: computer players run
        app: Any = client.app
        service = app.state.service
        decided: list[tuple[str, int]] = []  # (level, milliseconds left) per action
        real = service._decide

        async def thinking_long(level: str, seed: int, game: Game, seat: int) -> Any:
            timing = next(live for live in service.live.values() if live.game is game).timing
            decided.append((level, timing.clocks(clock()).left_ms[seat]))
            if len(decided) == 1:
                clock.at += 45  # the first action's search took 45 s of its minute
            return await real(level, seed, game, seat)

        monkeypatch.setattr(service, "_decide", thinking_long)
        made = new_game(
            client,
            players=[{"name": "Ann"}, {"name": "Computer", "bot": "expert"}],
            clock={"minutes": 1},
        )
        game_id, ann = made["id"], made["seats"][0]["token"]
        if view(client, game_id)["to_move"] == 0:  # Ann passes: the computer's turn
            assert act(client, game_id, ann, "pass").status_code == 200
        waited = time.monotonic() + 60
        while view(client, game_id)["to_move"] == 1 and time.monotonic() < waited:
            time.sleep(0.05)  # polling for the computer's turn to end, not an assertion
        assert view(client, game_id)["to_move"] == 0
    assert decided[0][0] == "expert"
    assert len(decided) >= 2  # a turn of placements and its end
    assert {level for level, _ in decided[1:]} == {"greedy"}
    assert decided[0][1] == 60_000 and all(left == 15_000 for _, left in decided[1:])
