"""Patches of views (issue 14, "lean traffic"): what :mod:`mathable.web.infra.patches` makes
rebuilds the next view exactly, over whole games of every kind and for every seat; a
socket that asks for patches gets its first view whole and then patches, made once per
seat and action, from the view it was really sent (a slow reader's skipped views too);
``{"type": "sync"}`` answers the whole view; exchanges are not listed in ``legal``."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocket

from mathable.games.registry import GAMES
from mathable.web.api import create_app
from mathable.web.infra import patches as patches_module
from mathable.web.infra.connections import Connection, Encoded, SocketLimits, ViewMessage
from mathable.web.infra.patches import apply_patch, diff, patch


def size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as made:
        yield made


def new_game(client: TestClient, variant: str = "classic", seed: int = 7) -> tuple[str, list[str]]:
    body = {
        "variant": variant,
        "players": [{"name": "Ann"}, {"name": "Bob"}],
        "mode": "screen",
        "seed": seed,
    }
    made = client.post("/api/games", json=body).json()
    return made["id"], [s["token"] for s in made["seats"]]


def views(client: TestClient, game_id: str, tokens: list[str]) -> list[dict[str, Any]]:
    """Each seat's view and the spectator's."""
    path = f"/api/games/{game_id}"
    return [client.get(path, params={"token": t}).json() for t in tokens] + [
        client.get(path).json()
    ]


def choose(view: dict[str, Any], rng: random.Random) -> str:
    """A placement if there is one, else ending the turn, else another listed action."""
    legal: list[str] = view["legal"]
    places = [a for a in legal if "=" in a and not a.endswith("+")]
    if places:
        return rng.choice(places)
    for word in ("end", "draw", "pass"):
        if word in legal:
            return word
    return legal[0]


# -- the patch itself -------------------------------------------------------------------


def test_each_part_of_a_patch_and_its_application() -> None:
    old = {
        "seq": 3,
        "summaries": [{"seat": 0}],
        "surface": [-1] * 40,
        "board": {"H8": 1},
        "status": "Ann to move",
        "winners": [],
    }
    new = {
        "seq": 4,
        "summaries": [{"seat": 0}, {"seat": 1}],
        "surface": [-1] * 20 + [12] + [-1] * 19,
        "board": {"H8": 1, "I8": 12},
        "status": "Bob to move",
    }
    made = patch(old, new)
    assert made == {
        "type": "patch",
        "seq": 4,
        "from": 3,
        "append": {"summaries": [{"seat": 1}]},
        "at": {"surface": [[20, 12]]},
        "merge": {"board": {"I8": 12}},
        "set": {"status": "Bob to move"},
        "drop": ["winners"],
    }
    assert apply_patch(old, made) == new and old["board"] == {"H8": 1}  # old kept
    assert patch(new, dict(new)) is None  # the same view: nothing to send
    shrunk = {**new, "summaries": [], "surface": [0] * 40}  # a list that did not only grow
    assert diff(new, shrunk)["set"] == {"summaries": [], "surface": [0] * 40}
    assert apply_patch(new, cast(dict[str, Any], patch(new, shrunk))) == shrunk


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_patches_rebuild_every_view_of_a_whole_game(client: TestClient, variant: str) -> None:
    """Every seat's and the spectator's view after each action, from the one before and
    the patch; later in the game a patch is a small part of the view."""
    game_id, tokens = new_game(client, variant)
    rng = random.Random(variant)
    before = views(client, game_id, tokens)
    ratios: list[float] = []
    for _ in range(400):
        if before[-1]["over"]:
            break
        mover = before[-1]["to_move"]
        answer = client.post(
            f"/api/games/{game_id}/actions",
            json={"token": tokens[mover], "action": choose(before[mover], rng)},
        )
        assert answer.status_code == 200, answer.text
        after = views(client, game_id, tokens)
        for old, new in zip(before, after, strict=True):
            made = patch(old, new)
            assert made is not None and made["from"] == old["seq"] and made["seq"] == new["seq"]
            assert apply_patch(old, made) == new
            ratios.append(size(made) / size({"type": "view", "view": new}))
        before = after
    assert before[-1]["over"], "the game should end within 400 actions"
    ratios.sort()
    assert ratios[len(ratios) // 2] < 0.5 and max(ratios) < 1.2


# -- the socket --------------------------------------------------------------------------


def test_a_patched_socket_gets_the_view_then_patches_made_once_per_seat(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, tokens = new_game(client)
    path = f"/api/games/{game_id}"
    mover = client.get(path).json()["to_move"]
    made: list[int | None] = []
    real = patches_module.patch

    def counted(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any] | None:
        made.append(new["seat"])
        return real(old, new)

    monkeypatch.setattr(patches_module, "patch", counted)
    with (
        client.websocket_connect(f"{path}/ws?patches=1&token={tokens[mover]}") as seat,
        client.websocket_connect(f"{path}/ws?patches=1&token={tokens[mover]}") as again,
        client.websocket_connect(f"{path}/ws?patches=1") as watcher,
        client.websocket_connect(f"{path}/ws") as whole,  # the contract: views, unasked
    ):
        held = [s.receive_json() for s in (seat, again, watcher, whole)]
        assert {m["type"] for m in held} == {"view"}
        rng = random.Random(1)
        actions = 0
        for _ in range(6):
            actions += 1
            seat.send_json({"action": choose(held[0]["view"], rng), "seq": held[0]["view"]["seq"]})
            texts = [s.receive_text() for s in (seat, again, watcher, whole)]
            assert texts[0] == texts[1]  # one text for the sockets of a seat
            mine = client.get(path, params={"token": tokens[mover]}).json()
            public = client.get(path).json()
            for text, base, wanted in zip(texts[:3], held[:3], [mine, mine, public], strict=True):
                message = json.loads(text)
                assert message["type"] == "patch" and message["from"] == base["view"]["seq"]
                assert len(text) < len(json.dumps({"type": "view", "view": wanted}))
                assert apply_patch(base["view"], message) == wanted
            assert json.loads(texts[3]) == {"type": "view", "view": public}
            held = [{"view": mine}, {"view": mine}, {"view": public}, {"view": public}]
            if public["to_move"] != mover:
                break
        assert made.count(mover) == made.count(None) == actions and len(made) == 2 * actions
        seat.send_json({"type": "sync"})  # lost track: the whole view again
        assert seat.receive_json() == {"type": "view", "view": held[0]["view"]}


def test_a_slow_reader_gets_a_patch_from_the_view_it_was_sent() -> None:
    """Views waiting in an outbox are replaced by the newest: the patch sent spans them."""

    class Recorder:
        def __init__(self) -> None:
            self.sent: list[str] = []

        async def send_text(self, text: str) -> None:
            self.sent.append(text)

    views = [
        Encoded({"seq": n, "summaries": list(range(n)), "surface": [n] + [-1] * 99})
        for n in range(4)
    ]

    async def scenario() -> list[str]:
        socket = Recorder()
        connection = Connection(cast(WebSocket, socket), SocketLimits(), patched=True)
        connection.send(ViewMessage(views[0]))
        await asyncio.sleep(0.01)
        for view in views[1:]:  # offered at once: only the newest is left to send
            connection.send(ViewMessage(view))
        await asyncio.sleep(0.01)
        connection.send(ViewMessage(views[3]))  # the view it has: nothing is sent
        await asyncio.sleep(0.01)
        connection.resync()
        connection.send(ViewMessage(views[3]))  # after a resync: whole again
        await asyncio.sleep(0.01)
        await connection.close()
        return socket.sent

    sent = [json.loads(text) for text in asyncio.run(asyncio.wait_for(scenario(), 5))]
    assert [m["type"] for m in sent] == ["view", "patch", "view"]
    assert sent[1]["from"] == 0 and apply_patch(views[0], sent[1]) == views[3]
    assert sent[2]["view"] == views[3]


def test_exchanges_are_not_listed(client: TestClient) -> None:
    """127 exchanges of 7 tokens were listed in every view of the seat to move."""
    game_id, tokens = new_game(client)
    view = views(client, game_id, tokens)
    mover = view[-1]["to_move"]
    assert "exchange" in view[mover]["available"]  # exchanging is possible...
    assert not [a for a in view[mover]["legal"] if a.startswith("exchange")]  # ...not listed
    rack = view[mover]["rack"]
    answer = client.post(  # and the server still takes (and checks) one
        f"/api/games/{game_id}/actions",
        json={"token": tokens[mover], "action": f"exchange {rack[0]}"},
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["summaries"][-1]["notation"].startswith("exchange")
