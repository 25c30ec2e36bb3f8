"""A computer's placements shown one at a time, ``MATHABLE_BOT_PACE_MS`` apart (issue 35):
none by default (a turn is shown whole, in one view, issue 34), a pause and a view after
each placement its turn goes on from when the setting asks, and a bad setting refused
(logged, the default used)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mathable.engine.actions import Place
from mathable.web.api import create_app
from mathable.web.rounds.computers import DEFAULT_PACE_MS, MAX_PACE_MS, bot_pace_ms
from mathable.web.rounds.live import Seated
from support.api import act, new_game, view

SEED = 5
"""A deal where the greedy computer moves first and places six tokens."""


def test_the_setting_read_from_the_environment() -> None:
    assert bot_pace_ms({}) == DEFAULT_PACE_MS == 0
    assert bot_pace_ms({"MATHABLE_BOT_PACE_MS": ""}) == 0
    assert bot_pace_ms({"MATHABLE_BOT_PACE_MS": "0"}) == 0
    assert bot_pace_ms({"MATHABLE_BOT_PACE_MS": " 250 "}) == 250
    assert bot_pace_ms({"MATHABLE_BOT_PACE_MS": str(MAX_PACE_MS)}) == MAX_PACE_MS
    for bad in ("-1", "0.5", "soon", str(MAX_PACE_MS + 1)):
        with pytest.raises(ValueError, match="MATHABLE_BOT_PACE_MS"):
            bot_pace_ms({"MATHABLE_BOT_PACE_MS": bad})


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The app with its lifespan (computer players run), jobs on a thread."""
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as running:
        yield running


def computer_turn(client: TestClient) -> tuple[list[tuple[float, bool]], list[int]]:
    """Play until the computer has taken a turn, each pause recorded with whether it came
    right after a computer's placement with its turn going on; and how many tokens each
    of the computer's turns placed."""
    service: Any = client.app.state.service  # type: ignore[attr-defined]
    pauses: list[tuple[float, bool]] = []

    async def recorded(seconds: float) -> None:
        game = next(iter(service.live.values())).game
        last = game.log[-1] if game.log else None
        pauses.append((seconds, isinstance(last, Place) and game.to_move == 1))

    service.pause = recorded
    made = new_game(client, players=[{"name": "Ann"}, {"name": "C", "bot": "greedy"}], seed=SEED)
    game_id, ann = made["id"], made["seats"][0]["token"]
    if not view(client, game_id)["summaries"]:  # Ann first: she passes to the computer
        assert act(client, game_id, ann, "pass").status_code == 200
    turns = [s for s in view(client, game_id)["summaries"] if s["seat"] == 1]
    assert turns, "the computer has taken its turn once the person's action is answered"
    return pauses, [turn["notation"].count("=") for turn in turns]


def test_by_default_a_computer_turn_is_shown_at_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MATHABLE_BOT_PACE_MS", raising=False)
    pauses, placed = computer_turn(client)
    assert max(placed) >= 2
    assert pauses == []


def test_zero_shows_a_computer_turn_at_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATHABLE_BOT_PACE_MS", "0")
    pauses, placed = computer_turn(client)
    assert max(placed) >= 2
    assert pauses == []


def test_a_pace_pauses_after_each_placement_the_turn_goes_on_from(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATHABLE_BOT_PACE_MS", "250")
    pauses, placed = computer_turn(client)
    assert max(placed) >= 2
    # after each placement but a turn's last (there, only if the turn goes on)
    assert sum(placed) - len(placed) <= len(pauses) <= sum(placed)
    assert pauses == [(0.25, True)] * len(pauses)


def test_a_bad_pace_is_logged_and_the_default_used(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("MATHABLE_BOT_PACE_MS", "soon")
    pauses, placed = computer_turn(client)
    assert max(placed) >= 2
    assert pauses == []  # the computers play on, at the default pace
    assert "MATHABLE_BOT_PACE_MS='soon'" in caplog.text


def watched_computer_turn(client: TestClient) -> tuple[list[dict[str, Any]], int]:
    """A person passes to the greedy computer, a spectator's views recorded as the
    server offers them (each broadcast): the views, and how many tokens the computer's
    turn placed."""
    service: Any = client.app.state.service  # type: ignore[attr-defined]

    async def no_pause(seconds: float) -> None:
        return None

    service.pause = no_pause
    for seed in range(SEED, SEED + 40):  # a deal where the person moves first
        made = new_game(
            client, players=[{"name": "Ann"}, {"name": "C", "bot": "greedy"}], seed=seed
        )
        seen = view(client, made["id"])
        if seen["to_move"] == 0 and not seen["summaries"]:
            break
    game_id, ann = made["id"], made["seats"][0]["token"]
    offered: list[dict[str, Any]] = []
    spectator = Seated(service.get(game_id), None)
    service.listen(spectator, lambda message: offered.append(message["view"]))
    assert act(client, game_id, ann, "pass").status_code == 200
    turns = [s for s in view(client, game_id)["summaries"] if s["seat"] == 1]
    assert len(turns) == 1, "the computer has taken its turn once the pass is answered"
    return offered, turns[0]["notation"].count("=")


def test_without_a_pace_a_computer_turn_is_one_view(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MATHABLE_BOT_PACE_MS", raising=False)
    offered, placed = watched_computer_turn(client)
    assert placed >= 2
    # the pass, then the computer's whole turn: none of its placements alone
    assert [v["to_move"] for v in offered] == [1, 0]
    assert offered[-1]["seq"] == view(client, offered[-1]["id"])["seq"]
    assert [s["seat"] for s in offered[-1]["summaries"]] == [0, 1]


def test_with_a_pace_each_placement_is_a_view(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MATHABLE_BOT_PACE_MS", "250")
    offered, placed = watched_computer_turn(client)
    assert placed >= 2
    # the pass, each placement but the turn's last as it goes on, then the turn ended
    assert [v["to_move"] for v in offered] == [1] * placed + [0]
    assert [len(v["turn"]["placements"]) for v in offered[1:-1]] == list(range(1, placed))
