"""The views of one action built and encoded once for all seats (issue 34, cheaper
actions): every seat's and the spectator's message is exactly the view each used to make
on its own from the whole ``game.view(seat)``, text and all, and no seat sees another's
rack."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from mathable import i18n, new_game
from mathable.ai import level_name
from mathable.ai.reasons import computer_turn_notes
from mathable.engine.actions import Action, action_kind
from mathable.engine.errors import MathableError
from mathable.engine.protocol import Game
from mathable.games.registry import GAMES
from mathable.web.infra.connections import (
    Encoded,
    SeatView,
    SharedView,
    ViewMessage,
    dumps,
    dumps_object,
)
from mathable.web.infra.store import EventStore, StoredSeat
from mathable.web.rounds.live import LiveGame
from mathable.web.rounds.service import GameService
from mathable.web.rounds.views import SHARED, WRITTEN_OUT, shown_seed, view_data
from support.api import new_game as new_api_game
from support.api import tokens, view
from support.clocks import Clock, app_at, end, finish_turn


def alone(service: GameService, live: LiveGame, seat: int | None) -> Encoded:
    """The seat's view as it was made before views were shared (the oracle: the former
    ``Views._build_view``): from the whole ``game.view(seat)``, every key for this seat
    alone."""
    game = live.game
    view = game.view(seat)
    data = Encoded(view_data(game, view))
    notes = computer_turn_notes(game, set(live.bots))  # issue 35: from the whole log
    data["summaries"] = [
        turn if note is None else {**turn, "reason": str(note)}
        for turn, note in zip(data["summaries"], notes, strict=True)
    ]
    data["id"] = live.id
    data["seq"] = live.events
    data["undo"] = game.can_undo(seat, live.bots)
    data["seats"] = [
        {
            "name": s["name"],
            "bot": s["bot"],
            "bot_name": level_name(s["bot"]) if s["bot"] else None,
            "claimed": bool(s["bot"] or s.get("token_hash")),
            "bot_account": s.get("player") in live.bot_players,  # issue 36
        }
        for s in live.seats
    ]
    data["title"] = game.game_type.title
    data["mode"] = live.mode
    legal: list[str] = []
    if seat is not None and seat == game.to_move and not game.is_over:
        legal = sorted(
            {game.format_action(a) for a in game.legal_actions() if action_kind(a) != "exchange"}
        )
    for keyword in view.available:
        if keyword not in WRITTEN_OUT and keyword not in legal:
            legal.append(keyword)
    data["legal"] = legal
    timing = live.timing
    clocks = None if timing is None else timing.clocks(service.now())
    control = None if timing is None else timing.control
    data["clock"] = None if control is None else control.to_json()
    data["clocks"] = None if clocks is None else list(clocks.left_ms)
    data["running"] = None if clocks is None or game.is_over else clocks.running
    data["rated"] = live.rated and not game.aborted
    here = (
        service.presence.of(live.id, [bool(s["bot"]) for s in live.seats])
        if live.mode == "online" and live.listeners
        else None
    )
    data["presence"] = None if here is None else [h.to_json() for h in here]
    data["claim_after"] = service.claim_after if service._claims(live) and game.started else None
    data["abort"] = game.can_abort(seat)
    data["resign"] = service._may_resign(live, seat)
    waiting = None if clocks is None or game.is_over else clocks.first_move
    data["first_move"] = (
        None
        if waiting is None or clocks is None
        else {
            "seat": waiting.seat,
            "deadline": waiting.deadline,
            "left": None if waiting.deadline is None else max(0, waiting.deadline - clocks.at),
        }
    )
    ended = None if timing is None else timing.ending_text()
    if ended is not None:
        data["end_reason"] = data["status"] = str(ended)
    if game.is_over:
        data["winners"] = list(game.winners())
        data["seed"] = shown_seed(game.seed)
        data["rating_changes"] = live.rating_changes
        rematch = service._rematch_of(live)
        if rematch is not None:
            data["rematch"] = rematch
    return data


@pytest.fixture
def service(tmp_path: Path) -> GameService:
    made = GameService(EventStore(f"sqlite:///{tmp_path / 'games.db'}"))
    made.now = lambda: 1_800_000_000.0  # an injected clock: every view of one instant
    return made


def watched(game: Game, mode: str) -> LiveGame:
    seats: list[StoredSeat] = [
        {"name": name, "bot": None, "token_hash": f"h{seat}"}
        for seat, name in enumerate(game.players)
    ]
    live = LiveGame(id="g1", game=game, seats=seats, created=0.0, mode=mode)
    live.listeners[1] = (0, lambda message: None, "en")  # watched: views are kept
    return live


def check_state(service: GameService, live: LiveGame, langs: tuple[str, ...]) -> None:
    game = live.game
    for lang in langs:
        messages: dict[int | None, ViewMessage] = {}
        for seat in (None, *range(len(game.players))):  # the spectator first, then last
            messages[seat] = service.view_message(live, seat, lang)
        messages[None] = service.view_message(live, None, lang)
        with i18n.language(lang):
            for seat, message in messages.items():
                old = alone(service, live, seat)
                view = message.view
                assert isinstance(view, SeatView)
                assert dict(view) == dict(old)  # the same object, key for key...
                assert list(view) == list(old)  # ...in the same order...
                assert view.text() == dumps_object(old)  # ...and the same text
                assert json.loads(message.text()) == json.loads(
                    dumps({"type": "view", "view": old})
                )
                mine = () if seat is None else game.rack(seat)
                assert view["rack"] == list(mine)  # its own rack and no other
        shared = {id(m.view.shared) for m in messages.values() if isinstance(m.view, SeatView)}
        assert len(shared) == 1  # one shared view for every seat of this state
        kept = live.views[(SHARED, lang)][3].view
        assert isinstance(kept, SharedView) and kept["rack"] == []  # a spectator's


def played(game: Game, rng: random.Random) -> Action:
    """A random legal action, mostly one that places (a longer game, more to see)."""
    actions = list(game.legal_actions())
    placing = [a for a in actions if action_kind(a) in ("place", "extra")]
    return rng.choice(placing if placing and rng.random() < 0.9 else actions)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_seat_sees_what_its_own_view_showed(service: GameService, name: str) -> None:
    for players in (2, 3, 4):
        try:
            game = new_game(name, players=[f"p{i}" for i in range(players)], seed=players)
        except MathableError:
            continue  # not a game for so many
        live = watched(game, "online" if players == 3 else "screen")
        if live.mode == "online":
            asyncio.run(service.presence.opened(live.id, 0))  # presence shown
        rng = random.Random(players)
        steps = 0
        while True:
            check_state(service, live, ("en", "fr") if steps % 7 == 0 else ("en",))
            if game.is_over:
                break
            game.apply(played(game, rng))
            live.events += 1
            steps += 1
        assert steps > 20


def test_computers_reasons_and_bot_accounts_are_in_every_view(service: GameService) -> None:
    """A computer's seat (its exchanges and passes say why: issue 35) and a bot account's
    (marked: issue 36) in every seat's view as the oracle makes it from the whole log."""
    game = new_game("classic", players=["Ann", "Robo", "Cal"], seed=5)
    live = watched(game, "screen")
    live.seats[1].update({"bot": "greedy", "player": "bot:greedy"})
    live.seats[2]["player"] = "acct-bot"
    live.bots = {1: "greedy"}
    live.bot_players = frozenset({"acct-bot"})
    rng = random.Random(5)
    reasons = 0
    while not game.is_over:
        check_state(service, live, ("en", "fr") if live.events % 9 == 0 else ("en",))
        seats = service.view_message(live, None, "en").view["seats"]
        assert [s["bot_account"] for s in seats] == [False, False, True]
        seat = game.to_move
        choices = game.legal_actions()
        exchanges = [a for a in choices if action_kind(a) in ("exchange", "pass")]
        action = rng.choice(exchanges) if exchanges and rng.random() < 0.2 else played(game, rng)
        game.apply(action)
        live.events += 1
        reasons += seat == 1 and action_kind(action) in ("exchange", "pass")
    check_state(service, live, ("en",))
    shown = [t for t in service.view_message(live, 0, "en").view["summaries"] if "reason" in t]
    assert reasons and len(shown) == reasons  # the computer's, each with its reason
    assert all(t["seat"] == 1 for t in shown)


def test_a_seat_view_changed_after_it_was_made_encodes_what_it_holds() -> None:
    shared = SharedView({"a": 1, "rack": [1], "b": [2]}, frozenset({"rack"}))
    seat = shared.for_seat({"rack": [3, 4]})
    assert seat.text() == '{"a":1,"rack":[3,4],"b":[2]}'
    other = shared.for_seat({"rack": []})
    other["b"] = [5]
    assert other.text() == dumps(dict(other))
    with pytest.raises(ValueError):
        shared.for_seat({})  # a seat's own key left out would show another's


def test_a_text_holding_the_mark_is_encoded_whole() -> None:
    from mathable.web.infra.connections import _OWN_MARK

    shared = SharedView({"name": _OWN_MARK, "rack": [1]}, frozenset({"rack"}))
    seat = shared.for_seat({"rack": [2]})
    assert seat.text() == dumps({"name": _OWN_MARK, "rack": [2]})


def test_a_running_clock_shares_a_view_per_instant(database_url: str) -> None:
    clock = Clock()
    client = app_at(database_url, clock)
    app: Any = client.app
    service: GameService = app.state.service
    made = new_api_game(client, clock={"minutes": 1, "increment": 2}, rated=True, seed=None)
    game_id, seats = made["id"], tokens(made)
    with client:
        for turn in range(6):
            if view(client, game_id)["over"]:
                break  # a random deal may end by the rules first: two rounds of passes (C11c)
            live = service.get(game_id)
            live.listeners[-1] = (0, lambda message: None, "en")  # watched: views are kept
            check_state(service, live, ("en",))
            first = service.view_message(live, 0, "en").view
            assert service.view_message(live, 1, "en").view["clocks"] == first["clocks"]
            clock.at += 3.5  # another instant: other clocks, another shared view
            later = service.view_message(live, 0, "en").view
            assert isinstance(later, SeatView) and isinstance(first, SeatView)
            assert later.shared is not first.shared
            if turn >= 2:  # the first moves are free of the clocks (O4)
                assert later["clocks"] != first["clocks"]
            check_state(service, live, ("en",))
            finish_turn(client, game_id, seats)
        seen = view(client, game_id)
        if not seen["over"]:
            assert end(client, game_id, "resign", seats[seen["to_move"]]).status_code == 200
        live = service.get(game_id)
        live.listeners[-1] = (0, lambda message: None, "en")
        check_state(service, live, ("en", "fr"))
        assert service.view_message(live, 1, "en").view["end_reason"]
