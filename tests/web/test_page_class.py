"""The class view for teachers (issue 18), in a real browser (chromium): the games of a
set of pupils from the links they share, each player's accuracy equal to the analysis
API's, the list kept in the address (never a seat's token), bad links refused with a
reason, no serious axe-core violation; and its API's bounds."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Page, expect

from support import oneoff
from support.browser import create, play_out, serious, shot
from webserver import Server


def computers(*names: str) -> list[dict[str, Any]]:
    return [{"name": name, "bot": "greedy"} for name in names]


@pytest.fixture(scope="module")
def games(server: Server) -> dict[str, Any]:
    """Two finished computer games (Ann plays both) and a running game of two people."""
    first = play_out(
        server, [{"name": "Ann", "bot": "greedy"}, {"name": "Bob", "bot": "greedy"}], 3
    )
    second = play_out(
        server, [{"name": "Cid", "bot": "greedy"}, {"name": "Ann", "bot": "greedy"}], 4
    )
    running = create(server, [{"name": "Ann"}, {"name": "Dee"}])
    return {"over": [first, second], "running": running}


def accuracies(server: Server, game_id: str) -> dict[str, float | None]:
    report = oneoff.get(f"{server.url}/api/games/{game_id}/analysis").json()
    return {p["player"]: p["accuracy"] for p in report["players"]}


def test_the_api_answers_each_game_with_the_analysis_accuracy(
    server: Server, games: dict[str, Any]
) -> None:
    first, second = games["over"]
    running = games["running"]["id"]
    ids = [first["id"], "no-such-game", running, second["id"], first["id"]]
    # Two games analysed on the server: the content is checked, not the time it takes
    # (on a machine loaded by other work it took longer than httpx2's 5 s default).
    answer = oneoff.get(f"{server.url}/api/class", params={"games": ",".join(ids)}, timeout=120)
    assert answer.status_code == 200, answer.text
    shown = answer.json()
    assert [g["id"] for g in shown] == [first["id"], "no-such-game", running, second["id"]]
    assert "no-such-game" in shown[1]["error"]
    assert shown[2]["over"] is False and shown[2]["accuracy"] is None
    assert shown[2]["players"] == ["Ann", "Dee"]
    for game, view in ((shown[0], first), (shown[3], second)):
        assert game["over"] is True and game["scores"] == view["scores"]
        assert game["winners"] == view["winners"]
        expected = accuracies(server, game["id"])
        assert dict(zip(game["players"], game["accuracy"], strict=True)) == expected


@pytest.mark.parametrize(
    ("games", "reason"),
    [
        ("", "at least one game id"),
        (",, ,", "at least one game id"),
        ("abc,a/b", "a/b is not a game id"),
        ("x" * 81, "is not a game id"),
        (",".join(f"g{i}" for i in range(61)), "at most 60 games, not 61"),
    ],
)
def test_bad_game_lists_are_refused_with_a_reason(server: Server, games: str, reason: str) -> None:
    answer = oneoff.get(f"{server.url}/api/class", params={"games": games})
    assert answer.status_code == 422
    assert reason in answer.json()["error"]
    assert oneoff.get(f"{server.url}/api/class").status_code == 422  # none at all


def test_sixty_distinct_ids_are_answered(server: Server) -> None:
    ids = [f"g{i}" for i in range(60)] + ["g0"]  # a repeat counts once
    answer = oneoff.get(f"{server.url}/api/class", params={"games": ",".join(ids)})
    assert answer.status_code == 200
    assert len(answer.json()) == 60


def test_the_class_view_lists_the_pasted_games_with_their_accuracy(
    server: Server, games: dict[str, Any], page: Page
) -> None:
    first, second = games["over"]
    running = games["running"]
    token = running["seats"][0]["token"]
    page.goto(f"{server.url}/class")
    expect(page.locator("#class-empty")).to_be_visible()
    page.fill("#class-name", "Class 4B")
    links = [
        f"{server.url}/g/{first['id']}",
        f"/g/{second['id']}",
        f"{server.url}/g/{running['id']}?t={token}",
    ]
    page.fill("#class-links", "\n".join(links))
    page.click("#class-add")
    rows = page.locator("#class-games tbody tr")
    expect(rows).to_have_count(3)
    expect(page.locator("#class-title")).to_have_text("Class view: Class 4B")
    expect(page.locator("#class-message")).to_contain_text("3 games added.")
    for view in (first, second):
        row = page.locator(f"#class-games tr[data-game='{view['id']}']")
        expected = accuracies(server, view["id"])
        for name, value in expected.items():
            item = row.locator(f".class-accuracy li[data-player='{name}']")
            expect(item).to_have_attribute("data-accuracy", "" if value is None else str(value))
            if value is not None:
                expect(item).to_contain_text(f"{value:g}%")
        winner = view["players"][view["winners"][0]]
        expect(row.locator(".class-result")).to_have_text(f"{winner} won")
    expect(page.locator(f"#class-games tr[data-game='{running['id']}']")).to_contain_text(
        "not over yet"
    )
    # the computer Ann played both finished games: her average is theirs; the Ann of the
    # running game is another player (issue 32: told apart by player id), her own row
    ann = [accuracies(server, v["id"])["Ann"] for v in (first, second)]
    figures = [a for a in ann if a is not None]
    computer = page.locator("#class-pupils tr[data-player='Ann'][data-player-id='bot-greedy']")
    average = computer.locator("td").nth(2)
    expect(average).to_have_attribute("data-average", str(round(sum(figures) / len(figures), 1)))
    expect(computer.locator("td").first).to_have_text("2")
    person = page.locator("#class-pupils tr[data-player='Ann'][data-player-id='']")
    expect(person.locator("td").first).to_have_text("1")
    shot(page, "class-view")
    assert serious(page) == []
    # the address keeps the list (ids only, never the token), and opens it elsewhere
    kept = parse_qs(urlparse(page.url).query)
    assert kept["games"] == [",".join(v["id"] for v in (first, second, running))]
    assert kept["name"] == ["Class 4B"]
    assert token not in page.url
    assert token not in str(page.evaluate("localStorage.getItem('mathable-class')"))
    shared = page.context.browser
    assert shared is not None
    other = shared.new_context()
    try:
        elsewhere = other.new_page()
        elsewhere.goto(page.url)
        expect(elsewhere.locator("#class-games tbody tr")).to_have_count(3)
        expect(elsewhere.locator("#class-name")).to_have_value("Class 4B")
    finally:
        other.close()
    page.goto(f"{server.url}/class")  # this browser kept it too
    expect(page.locator("#class-games tbody tr")).to_have_count(3)
    page.click(f"#class-games tr[data-game='{second['id']}'] .class-remove")
    expect(page.locator("#class-games tbody tr")).to_have_count(2)
    assert second["id"] not in page.url


def test_bad_links_are_refused_with_a_reason(server: Server, page: Page) -> None:
    page.goto(f"{server.url}/class")
    page.fill("#class-links", f"{server.url}/lobby\n/g/a%2Fb\nhttp://[bad")
    page.click("#class-add")
    refused = page.locator("#class-refused li")
    expect(refused).to_have_count(3)
    expect(refused.nth(0)).to_contain_text("not a game's link")
    expect(refused.nth(1)).to_contain_text("not a game's id")
    expect(refused.nth(2)).to_contain_text("not an address")
    expect(page.locator("#class-message")).to_contain_text("0 games added.")
    expect(page.locator("#class-empty")).to_be_visible()
    assert "games=" not in page.url
    assert serious(page) == []


def test_the_class_view_prints_without_the_form(
    server: Server, games: dict[str, Any], page: Page
) -> None:
    first = games["over"][0]
    page.goto(f"{server.url}/class?name=Print&games={first['id']}")
    expect(page.locator("#class-games tbody tr")).to_have_count(1)
    page.emulate_media(media="print")
    expect(page.locator("#class-form")).to_be_hidden()
    expect(page.locator("header")).to_be_hidden()
    expect(page.locator("#class-games")).to_be_visible()
    expect(page.locator("#class-pupils")).to_be_visible()
