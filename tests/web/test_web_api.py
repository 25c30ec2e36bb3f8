"""The web API: every endpoint, bad input answered with a clear 4xx and nothing changed,
live updates over WebSocket, hidden information kept hidden, a restart losing nothing."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mathable.engine.conformance import _holds
from mathable.web.api import create_app
from support.api import (
    act,
    claim,
    dealt,
    junior_with_an_empty_pot,
    new_game,
    online,
    seat_tokens,
    tokens,
    view,
)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "worked-example.txt"


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}"))


def test_variants_bots_and_the_page(client: TestClient) -> None:
    names = [v["name"] for v in client.get("/api/variants").json()]
    assert names == ["classic", "junior", "junior-numbers", "quattro"]
    board = client.get("/api/variants").json()[0]["board"]
    assert board["size"] == 14 and len(board["squares"]) == 196
    assert [b["name"] for b in client.get("/api/bots").json()][:2] == ["gentle", "greedy"]
    assert "Mathable" in client.get("/").text and client.get("/static/app.js").status_code == 200
    assert client.get("/g/anything").status_code == 200
    assert "/api/games/{game_id}/actions" in client.get("/openapi.json").json()["paths"]


def test_a_seat_sees_its_rack_and_a_spectator_none(client: TestClient) -> None:
    made = new_game(client)
    ann, bob = tokens(made)
    mine = view(client, made["id"], ann)
    public = view(client, made["id"])
    assert mine["seat"] == 0 and len(mine["rack"]) == 7
    assert public["seat"] is None and public["rack"] == [] and public["legal"] == []
    to_move = mine["to_move"]
    assert (view(client, made["id"], [ann, bob][to_move])["legal"]) != []


def test_playing_and_every_refusal(client: TestClient) -> None:
    made = new_game(client)
    game_id = made["id"]
    seat_tokens = tokens(made)
    start = view(client, game_id, seat_tokens[0])
    mover, other = seat_tokens[start["to_move"]], seat_tokens[1 - start["to_move"]]
    legal = [a for a in view(client, game_id, mover)["legal"] if "=" in a]
    before = view(client, game_id, mover)
    refusals = [
        (act(client, game_id, "not-a-token", legal[0]), 403, "token"),
        (act(client, game_id, other, legal[0]), 409, "turn"),
        (act(client, game_id, mover, "A1=" + legal[0].split("=")[1].rstrip("+")), 422, "rule"),
        (act(client, game_id, mover, "Z99=1"), 400, ""),
        (act(client, game_id, mover, "I8=12", seq=99), 409, "moved on"),
        (
            client.post("/api/games/nope/actions", json={"token": mover, "action": "end"}),
            404,
            "no game",
        ),
        (
            client.post(
                f"/api/games/{game_id}/actions",
                content=b"{not json",
                headers={"content-type": "application/json"},
            ),
            422,
            "JSON",
        ),
        # no token and no seat bound to this client's cookie: a spectator (the reason says)
        (client.post(f"/api/games/{game_id}/actions", json={"action": "end"}), 403, "no seat"),
        (client.get(f"/api/games/{game_id}?token=wrong"), 403, "token"),
        (client.get("/api/games/unknown"), 404, "no game"),
        (client.get(f"/api/games/{game_id}/record"), 409, "still being played"),
        (client.get(f"/api/games/{game_id}/replay?step=1"), 409, "still being played"),
        (client.get(f"/api/games/{game_id}/analysis"), 409, "still being played"),
    ]
    for response, status, words in refusals:
        assert response.status_code == status, (response.status_code, response.text)
        assert words.lower() in response.json()["error"].lower()
    illegal = refusals[2][0].json()
    assert illegal["rule"].startswith("C") and illegal["where"] == "A1"
    assert view(client, game_id, mover) == before  # nothing changed
    hint = client.get(f"/api/games/{game_id}/hint?token={mover}")
    assert hint.status_code == 200 and hint.json()["turns"][0]["points"] > 0
    assert client.get(f"/api/games/{game_id}/hint?token={other}").status_code == 409
    assert client.get(f"/api/games/{game_id}/hint").status_code == 409
    ok = act(client, game_id, mover, legal[0], seq=before["seq"])
    assert ok.status_code == 200 and ok.json()["seq"] == before["seq"] + 1


def test_bad_game_specs_are_refused(client: TestClient) -> None:
    for body, words in [
        ({"variant": "chess", "players": [{"name": "A"}, {"name": "B"}]}, "unknown game"),
        ({"players": [{"name": "A"}]}, "players"),
        ({"players": [{"name": "A"}, {"name": "B", "bot": "nobody"}]}, "unknown bot"),
        ({"players": [{"name": "A"}, {"name": "B"}], "seed": -1}, "seed"),
        ({"players": [{"name": "A"}, {"name": "B"}], "rounds": 0}, "rounds"),
        ({"players": "Ann"}, "players"),
    ]:
        response = client.post("/api/games", json=body)
        assert 400 <= response.status_code < 500, response.text
        assert words in response.json()["error"]
    assert client.get("/api/games").json() == []


def test_bots_move_after_a_person_and_a_bot_game_finishes(client: TestClient) -> None:
    made = new_game(client, players=[{"name": "Ann"}, {"name": "Robo", "bot": "greedy"}])
    ann = tokens(made)[0]
    state = view(client, made["id"], ann)
    assert state["to_move"] == 0  # the bot has played if it started
    turns_before = len(state["turns"])
    action = next(a for a in state["legal"] if "=" in a)
    act(client, made["id"], ann, action)
    if len(view(client, made["id"])["turns"]) == turns_before:  # Ann's turn goes on
        assert act(client, made["id"], ann, "end").status_code == 200
    after = view(client, made["id"], ann)
    assert [t["seat"] for t in after["turns"][turns_before:]] == [0, 1]  # Ann, then the bot
    assert after["to_move"] == 0
    bots = new_game(
        client, players=[{"name": "A", "bot": "greedy"}, {"name": "B", "bot": "gentle"}]
    )
    finished = view(client, bots["id"])
    assert finished["over"] and finished["winners"]
    record = client.get(f"/api/games/{bots['id']}/record")
    assert record.status_code == 200 and json.loads(record.text)["format"] == "mathable-record"
    step = client.get(f"/api/games/{bots['id']}/replay?step=3").json()
    assert step["step"] == 3 and step["total"] == finished["seq"] and step["action"]
    sheet = client.get(f"/api/games/{bots['id']}/transcript")
    assert sheet.status_code == 200 and sheet.text.startswith("# Mathable")
    scored = client.post("/api/transcripts", json={"text": sheet.text}).json()
    assert scored["totals"] == dict(zip(finished["players"], finished["scores"], strict=True))
    analysis = client.get(f"/api/games/{bots['id']}/analysis").json()
    assert analysis["turns"] and {p["player"] for p in analysis["players"]} == {"A", "B"}
    # (a client without a session cookie lists no one-screen game: tests/web/test_home_games.py)
    assert view(client, bots["id"])["over"] and not view(client, made["id"])["over"]


def test_records_and_score_sheets_upload(client: TestClient) -> None:
    bots = new_game(
        client, players=[{"name": "A", "bot": "greedy"}, {"name": "B", "bot": "greedy"}]
    )
    record = client.get(f"/api/games/{bots['id']}/record").text
    uploaded = client.post(
        "/api/records", content=record, headers={"content-type": "application/json"}
    )
    assert uploaded.status_code == 201, uploaded.text
    again = view(client, uploaded.json()["id"])
    assert again["scores"] == view(client, bots["id"])["scores"]
    broken = json.loads(record)
    broken["actions"][3] = "A1=99"
    bad = client.post("/api/records", json=broken)
    assert bad.status_code == 400 and "action 4" in bad.json()["error"]
    assert (
        client.post(
            "/api/records", content=b"[1,", headers={"content-type": "application/json"}
        ).status_code
        == 422
    )
    sheet = client.post("/api/transcripts", json={"text": EXAMPLE.read_text()})
    assert sheet.json()["totals"] == {"Ann": 39, "Bob": 121}
    wrong = client.post("/api/transcripts", json={"text": "Ann: A1=5"})
    assert wrong.status_code == 422 and "line 1" in wrong.json()["error"]


def test_websocket_live_updates_and_refusals(client: TestClient) -> None:
    made = new_game(client)
    ann, bob = tokens(made)
    first = view(client, made["id"], ann)["to_move"]
    mover, watcher = ([ann, bob][first], [ann, bob][1 - first])
    with (
        client.websocket_connect(f"/api/games/{made['id']}/ws?token={mover}") as mine,
        client.websocket_connect(f"/api/games/{made['id']}/ws?token={watcher}") as theirs,
        client.websocket_connect(f"/api/games/{made['id']}/ws") as public,
    ):
        start = mine.receive_json()["view"]
        theirs.receive_json()
        public.receive_json()
        action = next(a for a in start["legal"] if "=" in a)
        mine.send_text(json.dumps({"action": action, "seq": start["seq"]}))
        for socket in (mine, theirs, public):
            update = socket.receive_json()
            assert update["type"] == "view" and update["view"]["seq"] == start["seq"] + 1
        mine.send_text("{nope")
        assert mine.receive_json()["status"] == 400
        waiting = theirs if update["view"]["to_move"] == start["to_move"] else mine
        waiting.send_text(json.dumps({"action": "pass"}))
        refusal = waiting.receive_json()
        assert refusal["type"] == "error" and refusal["status"] == 409
    with client.websocket_connect(f"/api/games/{made['id']}/ws?token=bad") as bad:
        assert bad.receive_json()["status"] == 403


def test_no_response_holds_another_seats_rack_or_the_bag(client: TestClient) -> None:
    """Walk every endpoint and socket as each seat and as a spectator while the game runs."""
    made = new_game(client, players=[{"name": "A"}, {"name": "B"}, {"name": "C"}], seed=3)
    game_id, seat_tokens = made["id"], tokens(made)
    app_service = client.app.state.service  # type: ignore[attr-defined]
    for _ in range(12):
        game = app_service.get(game_id).game
        secrets_by_seat = {s: list(game.rack(s)) for s in range(3)}
        bag = list(game.bag_order())
        for viewer in [None, 0, 1, 2]:
            token = None if viewer is None else seat_tokens[viewer]
            seen: list[Any] = [view(client, game_id, token), client.get("/api/games").json()]
            with client.websocket_connect(
                f"/api/games/{game_id}/ws" + (f"?token={token}" if token else "")
            ) as socket:
                seen.append(socket.receive_json())
            for seat, rack in secrets_by_seat.items():
                if seat != viewer:
                    assert not _holds(seen, rack), f"seat {viewer} sees seat {seat}'s rack"
            assert not _holds(seen, bag) and not any(_holds(seen, bag[:k]) for k in (7, 14)), (
                "the bag order leaked"
            )
        mover = seat_tokens[game.to_move]
        legal = view(client, game_id, mover)["legal"]
        act(client, game_id, mover, next((a for a in legal if "=" in a), "pass"))


def test_a_restart_loses_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    first = TestClient(create_app(url))
    made = new_game(first)
    ann, bob = tokens(made)
    mover = [ann, bob][view(first, made["id"], ann)["to_move"]]
    action = next(a for a in view(first, made["id"], mover)["legal"] if "=" in a)
    act(first, made["id"], mover, action)
    before = view(first, made["id"], ann)
    second = TestClient(create_app(url))  # a new process on the same file
    assert view(second, made["id"], ann) == before


# -- issue 12: every seat treated fairly (O1, O2, tokens, J4, C12) ------------------------


def test_o1_a_chosen_seed_is_refused_online_and_the_servers_seed_kept_until_the_end(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    people = [{"name": "Ann"}, {"name": "Bob"}]
    chosen: list[dict[str, Any]] = [{"seed": 7}, {"seed": 7, "mode": "online"}, {"seed": 0}]
    for spec in chosen:
        refused = client.post("/api/games", json={"players": people, **spec})
        assert refused.status_code == 422, refused.text
        assert refused.json()["error"].startswith("seed:")
    for spec in [
        {"players": people, "seed": 7, "mode": "screen"},
        {"players": [{"name": "Ann"}, {"name": "Robo", "bot": "greedy"}], "seed": 7},
    ]:
        made = client.post("/api/games", json=spec)
        assert made.status_code == 201 and made.json()["mode"] == "screen", made.text
        assert dealt(client, made.json()["id"]) == 7

    # the service deals with the secrets module's randbelow (mathable.web.rounds.creating)
    drawn: list[int] = []
    real = secrets.randbelow

    def randbelow(n: int) -> int:
        drawn.append(real(n))
        return drawn[-1]

    monkeypatch.setattr(secrets, "randbelow", randbelow)
    game = online(client)
    game_id = game["id"]
    seed = dealt(client, game_id)
    assert drawn == [seed] and seed > 2**32  # from secrets, not guessable
    ann, bob = seat_tokens(client, game)
    for _ in range(4):  # C11c: two full rounds without a placement end the game
        hidden = [view(client, game_id, t) for t in (ann, bob, None)]
        with client.websocket_connect(f"/api/games/{game_id}/ws?token={ann}") as socket:
            hidden.append(socket.receive_json())
        texts = [json.dumps(hidden), client.get("/api/games").text, json.dumps(game)]
        texts.append(client.get(f"/api/games/{game_id}/record").text)
        assert all(str(seed) not in text for text in texts)
        assert all("seed" not in v for v in hidden[:3])
        mover = [ann, bob][hidden[0]["to_move"]]
        assert act(client, game_id, mover, "pass").status_code == 200
    end = view(client, game_id, ann)
    assert end["over"] and end["seed"] == seed and view(client, game_id)["seed"] == seed
    assert json.loads(client.get(f"/api/games/{game_id}/record").text)["seed"] == seed


def test_o1_a_record_never_makes_an_online_game_still_to_play(client: TestClient) -> None:
    game = online(client, players=[{"name": "A", "bot": "greedy"}, {"name": "B", "bot": "gentle"}])
    finished = client.get(f"/api/games/{game['id']}/record").text
    record = json.loads(finished)
    unplayed = {**record, "actions": []}
    unplayed.pop("result")
    unplayed.pop("bots")  # people at its seats (with computers, they would play on)
    refused = client.post("/api/records?mode=online", json=unplayed)
    assert refused.status_code == 422 and refused.json()["error"].startswith("mode:")
    assert "one screen" in refused.json()["error"]
    at_one_screen = client.post("/api/records", json=unplayed)
    assert at_one_screen.status_code == 201 and at_one_screen.json()["mode"] == "screen"
    uploaded = at_one_screen.json()
    assert all(s["token"] for s in uploaded["seats"])
    for token in [None, uploaded["seats"][0]["token"]]:  # every seat sees: one screen
        assert view(client, uploaded["id"], token)["mode"] == "screen"
    done = client.post("/api/records?mode=online", json=record)
    assert done.status_code == 201  # a finished game hides nothing any more


def test_o2_hints_are_a_house_rule_off_online_and_shown_to_every_seat(
    client: TestClient,
) -> None:
    made = online(client)
    game_id, ann_bob = made["id"], seat_tokens(client, made)
    for token in [*ann_bob, None]:
        assert view(client, game_id, token)["house_rules"]["hints"] is False
    mover = ann_bob[view(client, game_id)["to_move"]]
    refused = client.get(f"/api/games/{game_id}/hint?token={mover}")
    assert refused.status_code == 403 and "hints" in refused.json()["error"]
    during = client.get(f"/api/games/{game_id}/analysis?token={mover}")
    assert during.status_code == 409 and "hints" in during.json()["error"]

    helped = online(client, house_rules={"hints": True})
    game_id, ann_bob = helped["id"], seat_tokens(client, helped)
    for token in [*ann_bob, None]:
        assert view(client, game_id, token)["house_rules"]["hints"] is True
    first = view(client, game_id)["to_move"]
    mover = ann_bob[first]
    hint = client.get(f"/api/games/{game_id}/hint?token={mover}")
    assert hint.status_code == 200
    if "place" in view(client, game_id, mover)["available"]:
        assert hint.json()["turns"]
        act(client, game_id, mover, hint.json()["turns"][0]["turn"].split()[0])
        if view(client, game_id)["to_move"] == first:
            assert act(client, game_id, mover, "end").status_code == 200
    else:  # a first rack that fits nowhere (the deal is the server's secret, O1)
        assert hint.json()["turns"] == []
        assert act(client, game_id, mover, "pass").status_code == 200
    other = ann_bob[1 - first]
    act(client, game_id, other, "pass")
    mine = client.get(f"/api/games/{game_id}/analysis?token={mover}")
    assert mine.status_code == 200, mine.text
    assert [t["player"] for t in mine.json()["turns"]] == ["AnnBob"[3 * first : 3 * first + 3]]
    theirs = client.get(f"/api/games/{game_id}/analysis?token={other}").json()["turns"]
    assert [t["player"] for t in theirs] == [view(client, game_id)["players"][1 - first]]
    assert client.get(f"/api/games/{game_id}/analysis").status_code == 409  # spectators

    at_one_screen = new_game(client, seed=None)
    assert view(client, at_one_screen["id"])["house_rules"]["hints"] is True


def test_tokens_the_creator_holds_only_their_seat_and_each_invitation_is_claimed_once(
    client: TestClient,
) -> None:
    players = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Robo", "bot": "gentle"}, {"name": "Cy"}]
    made = online(client, players=players, seat=1)
    game_id, seats = made["id"], made["seats"]
    assert [s["token"] is not None for s in seats] == [False, True, False, False]
    assert [s["invite"] is not None for s in seats] == [True, False, False, True]
    assert made["mode"] == "online"
    assert seats[0]["invite"].startswith(f"/g/{game_id}?invite=")
    assert client.get(seats[0]["invite"]).status_code == 200  # the page opens it
    creator = seats[1]["token"]
    assert view(client, game_id, creator)["seat"] == 1
    code = seats[0]["invite"].split("invite=")[1]
    assert client.get(f"/api/games/{game_id}?token={code}").status_code == 403  # no seat
    listed = [
        view(client, game_id, creator),
        view(client, game_id),
        client.get("/api/games").json(),
    ]
    assert code not in json.dumps(listed)
    assert [s["claimed"] for s in listed[0]["seats"]] == [False, True, True, False]

    joined = claim(client, made, 0)
    assert joined.status_code == 200, joined.text
    ann = joined.json()["token"]
    assert joined.json()["seat"] == 0 and ann not in json.dumps(made)
    assert view(client, game_id, ann)["seat"] == 0
    again = claim(client, made, 0)
    assert again.status_code == 409 and "used" in again.json()["error"]
    wrong = client.post(f"/api/games/{game_id}/join", json={"invite": "guess"})
    assert wrong.status_code == 403
    assert [s["claimed"] for s in view(client, game_id)["seats"]] == [True, True, True, False]
    mover = view(client, game_id)["to_move"]
    if mover == 0:  # the invited player's seat answers to its own token only
        assert act(client, game_id, creator, "pass").status_code == 409
        assert act(client, game_id, ann, "pass").status_code == 200
    refused = client.post("/api/games", json={"players": players, "seat": 2})  # a computer's seat
    assert refused.status_code == 422 and refused.json()["error"].startswith("seat:")


def test_j4_a_stop_is_a_proposal_accepted_or_declined_over_http(client: TestClient) -> None:
    early = new_game(client, variant="junior")
    at_start = view(client, early["id"])["to_move"]
    refused = act(client, early["id"], tokens(early)[at_start], "stop")
    assert refused.status_code == 422 and "J4" in refused.text  # the pot is not empty
    uploaded = client.post("/api/records", json=junior_with_an_empty_pot())
    assert uploaded.status_code == 201, uploaded.text
    made = uploaded.json()
    game_id, ann_bob = made["id"], tokens(made)
    proposer = view(client, game_id)["to_move"]
    asked = 1 - proposer
    assert act(client, game_id, ann_bob[proposer], "stop").status_code == 200
    question = view(client, game_id, ann_bob[asked])
    assert not question["over"] and question["to_move"] == asked
    assert question["status"] or question["notice"]  # the proposal, for the page to show
    assert {"accept", "decline"} <= set(question["available"]) <= set(question["legal"])
    assert act(client, game_id, ann_bob[proposer], "accept").status_code == 409  # not asked
    assert act(client, game_id, ann_bob[asked], "decline").status_code == 200
    goes_on = view(client, game_id, ann_bob[proposer])
    assert not goes_on["over"] and goes_on["to_move"] == proposer  # J4: the proposer plays on
    assert act(client, game_id, ann_bob[proposer], "pass").status_code == 200
    assert act(client, game_id, ann_bob[asked], "stop").status_code == 200
    assert act(client, game_id, ann_bob[proposer], "accept").status_code == 200
    assert view(client, game_id)["over"]


def test_a_game_stored_before_a_rules_change_replays_by_its_rules(client: TestClient) -> None:
    """Issue 31: a Junior game stored without a rules version (before 2026-11-28), whose
    log holds a stop proposed with tiles in the pot (allowed then, J4 refuses it now),
    still loads and goes on by the rules it began with; a new game stores its version."""
    app: Any = client.app
    store = app.state.service.store
    spec = {"variant": "junior", "seed": 3, "house_rules": {}, "rounds": 1, "mode": "screen"}
    seats = [{"name": n, "bot": None, "token_hash": None} for n in ("Ann", "Bob")]
    store.create("old-junior", spec, seats, ["stop", "decline"])
    shown = client.get("/api/games/old-junior")
    assert shown.status_code == 200, shown.text
    assert shown.json()["seq"] == 2 and not shown.json()["over"]
    made = new_game(client, variant="junior")
    stored = store.load(made["id"])
    assert stored is not None and stored.spec["rules_version"] == 3


def _game_ending_mistake_record() -> tuple[dict[str, Any], int, str]:
    """A record of a three-player classic game with the table referee, at a turn's start
    where the bag is empty and the player to move holds one token; with that seat and
    an illegal placement of the token that the table referee accepts (C12)."""
    from mathable.ai import get_bot
    from mathable.engine import records
    from mathable.engine.errors import IllegalMove
    from mathable.engine.protocol import HouseRules
    from mathable.games.board.view import BoardView
    from mathable.games.registry import new_game as engine_game

    for seed in range(1, 40):
        game = engine_game(
            "classic", ["A", "B", "C"], seed=seed, house_rules=HouseRules(table_referee=True)
        )
        bots = [get_bot("greedy", seed * 8 + s) for s in range(3)]
        while not game.is_over:
            seat = game.to_move
            state = game.view(seat)
            assert isinstance(state, BoardView)
            if "accept" in state.available:  # let the last turn stand (C12)
                game.apply(game.parse_action("accept"))
                continue
            if state.bag_size == 0 and len(state.rack) == 1 and not state.turn_placements:
                break
            game.apply(bots[seat].act(state))
        else:
            continue
        value = state.rack[0]
        legal = {game.format_action(a) for a in game.legal_placements()}
        for cell in range(len(game.game_type.targets)):
            text = f"{game.cell_names.name(cell)}={value}"
            if text in legal or state.surface[cell] >= 0:
                continue
            trial = game.copy()
            try:
                trial.apply(trial.parse_action(text))
            except IllegalMove:
                continue
            return records.to_record(game), seat, text
    raise AssertionError("no game reached a last token")


def test_c12_a_game_ending_mistake_is_challenged_by_any_opponent_not_its_maker(
    client: TestClient,
) -> None:
    record, maker, mistake = _game_ending_mistake_record()
    uploaded = client.post("/api/records", json=record)
    assert uploaded.status_code == 201, uploaded.text
    game_id, seat_tokens = uploaded.json()["id"], tokens(uploaded.json())
    before = view(client, game_id, seat_tokens[maker])
    assert act(client, game_id, seat_tokens[maker], mistake).status_code == 200
    open_turn = view(client, game_id, seat_tokens[maker])
    assert not open_turn["over"] and open_turn["rack"] == []  # open for a challenge
    own = act(client, game_id, seat_tokens[maker], "challenge")
    assert own.status_code == 409 and "only your opponents" in own.json()["error"]
    nxt = (maker + 1) % 3
    third = (maker + 2) % 3  # not the player to move: any opponent may challenge
    assert "challenge" in view(client, game_id, seat_tokens[third])["legal"]
    assert "challenge" in view(client, game_id, seat_tokens[nxt])["available"]
    done = act(client, game_id, seat_tokens[third], "challenge")
    assert done.status_code == 200, done.text
    after = view(client, game_id, seat_tokens[maker])
    assert after["rack"] == before["rack"] and after["scores"] == before["scores"]
    late = act(client, game_id, seat_tokens[nxt], "challenge")
    assert late.status_code == 409  # the turn was taken back: nothing left to challenge
