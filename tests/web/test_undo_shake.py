"""Ruling O5 on the web (issue 29, finding 10): with the house rule *allow undo*, a turn
taken back puts the tokens it drew back into the bag and the next draw is random again.
Before, play, end (the tokens drawn seen), undo, end again drew the same tokens, and the
opponent's next draw was one of them. The stored undo event holds the server's fresh
entropy (``undo shake 8123``), so the store still replays to the same game; the events
stored before (``undo``, ``undo 3``) still load."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from mathable.engine.actions import Shake
from mathable.engine.protocol import HouseRules
from mathable.games.registry import new_game
from mathable.web.api import create_app
from mathable.web.infra.store import EventStore
from mathable.web.infra.workers import apply_event, undo_count, undo_event, undo_parts

PEOPLE = {
    "variant": "classic",
    "players": [{"name": "Ann"}, {"name": "Bob"}],
    "seed": 7,
    "mode": "screen",
    "house_rules": {"allow_undo": True},
}
"""Two people at one screen, undo allowed."""


def _act(client: TestClient, game_id: str, token: str, action: str) -> dict[str, Any]:
    answer = client.post(f"/api/games/{game_id}/actions", json={"token": token, "action": action})
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def _view(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}?token={token}")
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def _turn(client: TestClient, game_id: str, token: str, place: str) -> list[int]:
    """The seat's turn: ``place``, then ``end`` unless the turn ended with it; its rack
    after, refilled from the bag."""
    placed = _act(client, game_id, token, place)
    if placed["to_move"] == placed["seat"]:
        placed = _act(client, game_id, token, "end")
    assert placed["to_move"] != placed["seat"]
    rack: list[int] = placed["rack"]
    return rack


def test_o5_a_turn_taken_back_draws_again_at_random_and_the_store_replays(
    tmp_path: Path,
) -> None:
    """O5 through the API: play, end (the rack refilled), undo, play again: the rack is
    refilled differently (for some of the server's entropies: a few tries), each undo is
    stored with its shake, and a fresh server over the same database has the same
    racks."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    client = TestClient(create_app(url))
    made = client.post("/api/games", json=PEOPLE).json()
    game_id, tokens = made["id"], [s["token"] for s in made["seats"]]
    mover = _view(client, game_id, tokens[0])["to_move"]
    mine = tokens[mover]
    start = _view(client, game_id, mine)
    place = next(a for a in start["legal"] if "=" in a and "+" not in a)
    refills = {tuple(_turn(client, game_id, mine, place))}
    for _ in range(6):
        back = _act(client, game_id, mine, "undo")  # the whole turn: one action or two
        if back["to_move"] != mover or back["turn"]["placements"]:
            back = _act(client, game_id, mine, "undo")
        assert back["to_move"] == mover and back["rack"] == start["rack"]
        refills.add(tuple(_turn(client, game_id, mine, place)))
    assert len(refills) > 1  # before O5: the same tokens every time
    stored = EventStore(url).load(game_id)
    assert stored is not None
    undos = [a for a in stored.actions if a.startswith("undo")]
    assert len(undos) >= 6 and all(re.fullmatch(r"undo shake \d{1,19}", u) for u in undos)
    assert len({undo_parts(u) for u in undos}) == len(undos)  # fresh entropy each time
    # a fresh server over the same database replays the store to the same game
    game = client.app.state.service.get(game_id).game  # type: ignore[attr-defined]
    restarted = TestClient(create_app(url))
    again = restarted.app.state.service.get(game_id).game  # type: ignore[attr-defined]
    assert again.snapshot() == game.snapshot() and again.log == game.log
    for token in tokens:
        assert _view(restarted, game_id, token)["rack"] == _view(client, game_id, token)["rack"]


def test_o5_a_client_cannot_send_a_shake_of_its_own(tmp_path: Path) -> None:
    """Only an undo shakes the bag (O5): a shake sent as an action is refused."""
    client = TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}"))
    made = client.post("/api/games", json=PEOPLE).json()
    token = made["seats"][0]["token"]
    answer = client.post(
        f"/api/games/{made['id']}/actions", json={"token": token, "action": "shake 5"}
    )
    assert answer.status_code == 400 and "shake" in answer.json()["error"]
    assert _view(client, made["id"], token)["seq"] == 0


def test_o5_undo_events_old_and_new_forms() -> None:
    """The stored forms: ``undo`` and ``undo 3`` (before O5, no shake: they still load
    as they were played), ``undo shake E`` and ``undo 3 shake E``."""
    assert undo_event(1) == "undo" and undo_event(3) == "undo 3"
    assert undo_event(1, 8123) == "undo shake 8123"
    assert undo_event(3, 8123) == "undo 3 shake 8123"
    for text, parts in [
        ("undo", (1, None)),
        ("undo 3", (3, None)),
        ("undo shake 8123", (1, 8123)),
        ("undo 3 shake 8123", (3, 8123)),
    ]:
        assert undo_parts(text) == parts and undo_count(text) == parts[0]
    for text in ("undo 0", "undo x", "undo shake", "undo 3 shake x", "undo 3 resign 1", "end"):
        assert undo_parts(text) is None
    rules = HouseRules(allow_undo=True)
    old, new = (new_game("classic", ["Ann", "Bob"], seed=5, house_rules=rules) for _ in "ab")
    for game in (old, new):
        place = next(a for a in game.legal_actions() if "Place" in type(a).__name__)
        game.apply(place)
        game.apply("end")
    apply_event(old, "undo 2")
    apply_event(new, "undo 2 shake 8123")
    assert old.log == () and new.log == (Shake(8123),)
    assert sorted(old.bag_order()) == sorted(new.bag_order())
    assert old.bag_order() != new.bag_order()
