"""The web answers in its reader's language (issue 17): ``?lang=``, the ``lang`` cookie,
``Accept-Language``; refusals, validation errors and views in it, the page named in it,
and the catalogs the page translates with. The test language ``qps`` shows every
translated text inside ⟦ ⟧: a refusal outside them escaped translation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mathable.web.api import create_app
from mathable.web.infra.connections import MAX_REASON, close_reason


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}"))


def bracketed(text: str) -> bool:
    """Whether ``text`` is a translated text in the test language (⟦…⟧)."""
    return text.startswith("⟦") and text.endswith("⟧")


def new_game(client: TestClient) -> dict[str, Any]:
    body = {"players": [{"name": "Ann"}, {"name": "Bob"}], "seed": 7, "mode": "screen"}
    made = client.post("/api/games", json=body)
    assert made.status_code == 201, made.text
    result: dict[str, Any] = made.json()
    return result


def seats(client: TestClient, made: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    """The token of the seat to move, the other's, and the mover's view."""
    ann, bob = (s["token"] for s in made["seats"])
    start = client.get(f"/api/games/{made['id']}?token={ann}").json()
    mover, other = (ann, bob) if start["to_move"] == 0 else (bob, ann)
    return mover, other, client.get(f"/api/games/{made['id']}?token={mover}").json()


def error(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    text: str = response.json()["error"]
    return text


def test_refusals_in_the_test_language(client: TestClient) -> None:
    made = new_game(client)
    game_id = made["id"]
    mover, other, start = seats(client, made)
    place = next(a for a in start["legal"] if "=" in a)
    actions = f"/api/games/{game_id}/actions?lang=qps"
    # an illegal action (the engine's reason and its rule)
    illegal = client.post(
        actions, json={"token": mover, "action": "A1=" + place.split("=")[1].rstrip("+")}
    )
    assert bracketed(error(illegal, 422)) and illegal.json()["rule"].startswith("C")
    # not your turn (the service's refusal)
    name = start["players"][start["to_move"]]
    refused = client.post(actions, json={"token": other, "action": place})
    assert error(refused, 409) == f"⟦it is {name}'s turn, not yours⟧"
    # a body that is not JSON, and a field missing (pydantic's errors, in our words)
    bad = client.post(actions, content=b"{nope", headers={"content-type": "application/json"})
    assert bracketed(error(bad, 422)) and "JSON" in error(bad, 422)
    assert error(client.post(actions, json={"token": mover}), 422) == "⟦action: required⟧"
    # an unknown game
    assert error(client.get("/api/games/nope?lang=qps"), 404) == "⟦there is no game 'nope'⟧"
    # chat: a message too long, by our check (501) and by the field's limit (2001)
    chat = f"/api/games/{game_id}/chat?lang=qps"
    assert error(client.post(chat, json={"text": "x" * 501}), 422) == (
        "⟦text: 501 characters: a message has at most 500⟧"
    )
    assert error(client.post(chat, json={"text": "x" * 2001}), 422) == (
        "⟦text: at most 2000 characters⟧"
    )
    # a route that does not exist (the framework's own refusal)
    assert error(client.get("/api/nothing-here?lang=qps"), 404) == "⟦Not Found⟧"


def test_the_same_refusals_in_english(client: TestClient) -> None:
    made = new_game(client)
    mover, _other, _start = seats(client, made)
    actions = f"/api/games/{made['id']}/actions"
    assert error(client.post(actions, json={"token": mover}), 422) == "action: required"
    assert error(client.get("/api/games/nope"), 404) == "there is no game 'nope'"
    too_long = {"text": "x" * 2001}
    assert error(client.post(f"/api/games/{made['id']}/chat", json=too_long), 422) == (
        "text: at most 2000 characters"
    )
    assert error(client.get("/api/nothing-here"), 404) == "Not Found"


def current(client: TestClient, **headers: str) -> str:
    languages = client.get("/api/languages", headers=headers).json()
    chosen = [entry["code"] for entry in languages if entry["current"]]
    assert len(chosen) <= 1
    return chosen[0] if chosen else ""


def test_the_cookie_and_accept_language_choose(client: TestClient) -> None:
    assert current(client) == "en"
    assert current(client, **{"Accept-Language": "fr"}) == "fr"
    assert current(client, **{"Accept-Language": "de-CH, fr;q=0.8"}) == "de"
    assert current(client, **{"Accept-Language": "ja"}) == "en"
    client.cookies.set("lang", "es")
    assert current(client) == "es"
    assert current(client, **{"Accept-Language": "fr"}) == "es"  # the cookie first
    languages = client.get("/api/languages?lang=it").json()  # ?lang= before both
    assert [e["code"] for e in languages if e["current"]] == ["it"]
    client.cookies.set("lang", "qps")  # the test language by cookie: refusals in it
    assert error(client.get("/api/games/nope"), 404) == "⟦there is no game 'nope'⟧"
    client.cookies.delete("lang")
    assert error(client.get("/api/games/nope"), 404) == "there is no game 'nope'"


def test_catalogs_and_the_page(client: TestClient) -> None:
    french = client.get("/i18n/fr.json")
    assert french.status_code == 200
    catalog = french.json()
    assert catalog["lang"] == "fr" and isinstance(catalog["messages"], dict)
    assert client.get("/i18n/xx.json").status_code == 404
    assert '<html lang="qps">' in client.get("/?lang=qps").text
    assert '<html lang="en">' in client.get("/").text


def test_a_socket_sees_its_view_in_its_language(client: TestClient) -> None:
    """Two spectators of one game, one of them in the test language: each view is made
    in its socket's language, whoever's action it follows."""
    made = new_game(client)
    game_id = made["id"]
    tokens = [s["token"] for s in made["seats"]]
    with (
        client.websocket_connect(f"/api/games/{game_id}/ws?lang=qps") as pseudo,
        client.websocket_connect(f"/api/games/{game_id}/ws") as english,
    ):
        qps_view = pseudo.receive_json()["view"]
        english_view = english.receive_json()["view"]
        pseudo.send_text("[1]")  # not an object: the refusal in the socket's language
        assert bracketed(pseudo.receive_json()["error"])
        for _action in range(6):  # placements until a turn under way has points
            if english_view["status"]:
                break
            token = tokens[english_view["to_move"]]
            mover = client.get(f"/api/games/{game_id}?token={token}").json()
            place = next(a for a in mover["legal"] if "=" in a)
            answer = client.post(
                f"/api/games/{game_id}/actions", json={"token": token, "action": place}
            )
            assert answer.status_code == 200, answer.text
            qps_view = pseudo.receive_json()["view"]
            english_view = english.receive_json()["view"]
            assert qps_view["seq"] == english_view["seq"]
        # the turn under way: "this turn: N points" (the engine's lazy status text)
        assert english_view["status"].startswith("this turn: "), english_view["status"]
        assert bracketed(qps_view["status"]), qps_view["status"]


def test_socket_refusals_in_its_language(client: TestClient) -> None:
    made = new_game(client)
    with client.websocket_connect(f"/api/games/{made['id']}/ws?token=bad&lang=qps") as bad:
        assert bad.receive_json()["error"] == (
            "⟦this link's token does not open any seat of this game⟧"
        )
    with client.websocket_connect(f"/api/games/{made['id']}/ws?lang=qps") as watcher:
        assert watcher.receive_json()["type"] == "view"
        watcher.send_bytes(b"{}")  # a binary frame: closed, the reason in its language
        closed = watcher.receive()
    assert closed["type"] == "websocket.close" and closed["code"] == 1003
    assert closed["reason"] == "⟦binary frames are not spoken here: send JSON text⟧"


def test_a_close_reason_fits_its_frame() -> None:
    long = "é" * 200  # 400 bytes: a close frame's reason holds 123
    cut = close_reason(long)
    assert len(cut.encode()) <= MAX_REASON and cut.endswith("...")
    assert close_reason("too slow") == "too slow"


def test_a_command_word_is_typed_in_the_players_language(client: TestClient) -> None:
    """A French player who types ``passer`` passes (the notation box); the word in
    English still works, and an unknown word is refused, nothing changed."""
    from mathable import i18n

    made = new_game(client)
    mover, _other, view = seats(client, made)
    url = f"/api/games/{made['id']}/actions?lang=fr"
    refused = client.post(url, json={"action": "passerelle", "token": mover})
    assert refused.status_code == 400 and refused.json()["error"]
    with i18n.language("fr"):
        word = i18n.command_name("pass")
    assert word != "pass"
    passed = client.post(url, json={"action": word.upper(), "token": mover})
    assert passed.status_code == 200, passed.text
    assert passed.json()["seq"] == view["seq"] + 1
    assert passed.json()["to_move"] != view["to_move"]
