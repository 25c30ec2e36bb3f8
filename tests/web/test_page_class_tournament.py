"""A class's round robin in a real browser (issue 38's "done when"): a teacher organizes
it on /tournaments with a computer level filling the odd field's bye, joins it, four
pupils join over the API; five rounds of three boards to the final standings, every
game of the computer really played by the computer (the server's own computer player
moves its seat), the teacher's games played on the game page (her pass, her
resignation), the others' through the API. Then the class view follows the tournament
(its fifteen games) and makes the next one in two clicks (the form prefilled with the
pupils), whose organizer adds a computer of a chosen level, removes a player, starts,
pauses, resumes and decides a board on the page: axe-clean at 390×844, the standings
without a sideways scroll."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, Page, expect

from support.browser import DESKTOP, PHONE, serious
from support.online import PASSWORD, sign_up
from support.waiting import eventually
from webserver import Server

COMPUTER = "bot-gentle"
POLL = 0.2
"""Seconds between two looks at the real server while its computer plays on."""


def account(server: Server, name: str) -> httpx2.Client:
    """A pupil over the API with a session cookie of their own, made an account."""
    client = httpx2.Client(base_url=server.url, headers={"X-Requested-With": "test"})
    assert client.patch("/api/me", json={"name": name}).status_code == 200
    made = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    return client


def view(client: httpx2.Client, game_id: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
    return found


def act(client: httpx2.Client, game_id: str, kind: str) -> None:
    path = f"/api/games/{game_id}/" + ("actions" if kind == "pass" else kind)
    answer = client.post(path, json={"action": "pass"} if kind == "pass" else {})
    assert answer.status_code == 200, answer.text


def against_the_computer(client: httpx2.Client, game_id: str) -> None:
    """A pupil passes when to move until the computer has moved too (it moves by itself:
    the server's computer player), then resigns: the computer wins a game it played."""

    def both_moved() -> bool:
        shown = view(client, game_id)
        if shown["to_move"] == shown["seat"] and shown.get("resign") is False:
            act(client, game_id, "pass")
        shown = view(client, game_id)
        return shown["to_move"] == shown["seat"] and shown.get("resign") is not False

    assert eventually(both_moved, 60, every=POLL), view(client, game_id)
    act(client, game_id, "resign")


def between_people(first: httpx2.Client, game_id: str, second: httpx2.Client) -> None:
    """Each passes once in the order of play (both have moved: O4); the second resigns."""
    by_seat = {view(c, game_id)["seat"]: c for c in (first, second)}
    mover = int(view(first, game_id)["to_move"])
    for seat in (mover, 1 - mover):
        act(by_seat[seat], game_id, "pass")
    act(second, game_id, "resign")


def on_the_page(page: Page, server: Server, tid: str, opponent: httpx2.Client | None) -> None:
    """The teacher's game from the tournament's page: "Play", her pass on the game page
    when her turn comes (the pupil's or the computer's turn in between), then she
    resigns against the computer, or the pupil resigns."""
    page.goto(f"{server.url}/t/{tid}")
    page.locator("#tourn-rounds-title ~ .tourn-round li.mine a").first.click()
    expect(page).to_have_url(re.compile(r"/g/[\w-]+$"))
    game_id = page.url.rpartition("/")[2]
    me = page.context.request

    def seen() -> dict[str, Any]:
        found: dict[str, Any] = me.get(f"{server.url}/api/games/{game_id}").json()
        return found

    seat = seen()["seat"]
    for _turn in range(2):
        shown = seen()
        if shown.get("resign") is not False:
            break
        if shown["to_move"] == seat:
            # the page has the view where it is our turn; then the pass is stored (its
            # seq counted: a computer may reply at once, so "not our turn" can be missed)
            expect(page).to_have_title(re.compile("Your turn"), timeout=30000)
            page.click("#pass")
            assert eventually(functools.partial(stored_after, seen, shown["seq"]), 10, every=POLL)
        elif opponent is not None:
            act(opponent, game_id, "pass")
        else:
            assert eventually(lambda: seen()["to_move"] == seat, 60, every=POLL)
    if opponent is None:
        assert eventually(lambda: seen().get("resign") is not False, 60, every=POLL)
        page.click("#resign")
        page.click("#yes")
    else:
        act(opponent, game_id, "resign")
    assert eventually(lambda: bool(seen()["over"]), 10, every=POLL)


def stored_after(seen: Callable[[], dict[str, Any]], seq: int) -> bool:
    """Whether the game has stored an action after ``seq``."""
    return int(seen()["seq"]) > seq


def moved_on(client: httpx2.Client, tid: str, number: int) -> bool:
    """Whether the tournament has paired the round after ``number`` or finished."""
    state = client.get(f"/api/tournaments/{tid}").json()
    return bool(state["round"] > number or state["status"] == "finished")


@pytest.mark.slow
def test_a_class_round_robin_with_the_computer_playing(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(server.url + "/tournaments")
    teacher = sign_up(page, "Tessa")
    page.goto(server.url + "/tournaments")
    page.fill("#tourn-name", "Class 5B")
    page.select_option("#tourn-system", "round-robin")
    fills = page.locator("#tourn-fill option")

    def offered() -> list[str | None]:
        return [fills.nth(i).get_attribute("value") for i in range(fills.count())]

    assert "expert" in offered() and "master" in offered()  # untimed: its seconds are fine
    expect(page.locator("#tourn-fill option[value='master']")).to_have_text(
        "master, a few seconds a turn"
    )
    page.select_option("#tourn-fill", "master")
    page.select_option("#tourn-clock", "live-5-3")  # a live clock: not the master
    assert "expert" in offered() and "master" not in offered()
    expect(page.locator("#tourn-fill")).to_have_value("expert")  # the strongest left
    page.select_option("#tourn-clock", "days-3")
    assert "master" in offered()
    page.select_option("#tourn-clock", "")
    page.select_option("#tourn-fill", "gentle")
    page.click("#tourn-submit")
    expect(page.locator("#tourn-title")).to_have_text("Class 5B")
    tid = page.url.rpartition("/")[2]
    page.click("#tourn-join")
    expect(page.locator("#tourn-withdraw")).to_be_visible()
    pupils: dict[str, httpx2.Client] = {}
    for name in ("Ulla", "Vic", "Wes", "Xan"):
        client = account(server, name)
        joined = client.post(f"/api/tournaments/{tid}/join")
        assert joined.status_code == 200, joined.text
        pupils[joined.json()["me"]["player"]] = client
    page.reload()
    page.click("#tourn-start")  # five people: the computer takes the bye seat
    expect(page.locator("#tourn-standings tbody tr")).to_have_count(6)
    api = pupils[next(iter(pupils))]
    for number in range(1, 6):
        state: dict[str, Any] = api.get(f"/api/tournaments/{tid}").json()
        assert state["round"] == number and state["rounds"][-1]["bye"] is None
        for pairing in state["rounds"][-1]["pairings"]:
            players = pairing["players"]
            if teacher in players:
                other = next(p for p in players if p != teacher)
                on_the_page(page, server, tid, pupils.get(other))
            elif COMPUTER in players:
                person = next(p for p in players if p != COMPUTER)
                against_the_computer(pupils[person], pairing["game"])
            else:
                between_people(pupils[players[0]], pairing["game"], pupils[players[1]])
        assert eventually(functools.partial(moved_on, api, tid, number), 10, every=POLL)
    final: dict[str, Any] = api.get(f"/api/tournaments/{tid}").json()
    assert final["status"] == "finished"
    met = [frozenset(p["players"]) for r in final["rounds"] for p in r["pairings"]]
    assert len(met) == 15 == len(set(met))  # every pair once
    computers = [p for r in final["rounds"] for p in r["pairings"] if COMPUTER in p["players"]]
    assert [p["result"]["how"] for p in computers] == ["played"] * 5  # none decided
    for pairing in computers:  # the computer's own moves are in each of its games
        record = api.get(f"/api/games/{pairing['game']}").json()
        seat = record["players"].index(next(x["name"] for x in final["players"] if x["computer"]))
        assert record["over"] and seat in record["winners"]
    ranked = {s["player"]: s["points"] for s in final["standings"]}
    assert ranked[COMPUTER] == 5 and sum(ranked.values()) == 15
    page.goto(f"{server.url}/t/{tid}")
    expect(page.locator("#tourn-standings caption")).to_have_text("Final standings")

    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{server.url}/t/{tid}")
    expect(phone.locator("#tourn-standings caption")).to_have_text("Final standings")
    standings = phone.locator("#tourn-standings")
    assert standings.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth")
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    expect(phone.locator("#tourn-standings .tb-line").first).to_be_visible()
    assert serious(phone) == []
    phone.context.close()

    # the class view follows the tournament: its fifteen games, then the next event
    page.click("#tourn-class")
    expect(page).to_have_url(re.compile(r"/class\?.*tournaments="))
    expect(page.locator("#class-tournaments li")).to_contain_text("Class 5B")
    expect(page.locator("#class-games tbody tr")).to_have_count(15, timeout=60_000)
    page.click("#class-tournament")  # click one: the form, prefilled
    expect(page.locator("#tourn-pupils input:checked")).to_have_count(6)
    expect(page.locator("#tourn-system")).to_have_value("round-robin")
    expect(page.locator("#tourn-private")).to_be_checked()
    assert serious(page) == []
    page.click("#tourn-submit")  # click two
    expect(page).to_have_url(re.compile(r"/t/[\w-]+$"))
    second = page.url.rpartition("/")[2]
    made: dict[str, Any] = api.get(f"/api/tournaments/{second}").json()
    assert made["spec"]["private"] and made["spec"]["system"] == "round-robin"
    assert {p["player"] for p in made["players"]} == {teacher, COMPUTER, *pupils}
    organizing(browser, server, page, second)
    context.close()
    for client in pupils.values():
        client.close()


def organizing(browser: Browser, server: Server, desktop: Page, tid: str) -> None:
    """The organizer's controls of ``tid`` on a phone (her session): a computer of a
    chosen level, a removal, start, pause, resume, a decision."""
    phone = browser.new_context(viewport=PHONE, storage_state=desktop.context.storage_state())
    page = phone.new_page()
    page.goto(f"{server.url}/t/{tid}")
    expect(page.locator("#tourn-level option")).not_to_have_count(0)
    clock = httpx2.get(f"{server.url}/api/tournaments/{tid}").json()["spec"]["clock"]
    untimed = clock is None or "days" in clock  # the master's seconds only there
    expect(page.locator("#tourn-level option[value='master']")).to_have_count(int(untimed))
    page.select_option("#tourn-level", "greedy")
    page.click("#tourn-computer")
    expect(page.locator(".tourn-players li")).to_have_count(7)
    assert serious(page) == []
    page.get_by_role("button", name="Remove Xan").click()
    expect(page.locator(".tourn-players li", has_text="Xan")).to_contain_text("withdrawn")
    page.click("#tourn-start")
    expect(page.locator("#tourn-status")).to_contain_text("round 1")
    page.click("#tourn-pause")
    expect(page.locator("#tourn-status")).to_contain_text("Paused")
    page.click("#tourn-resume")
    expect(page.locator("#tourn-status")).to_contain_text("Running")
    mine = page.locator(".tourn-round li.mine")  # her own board: no computer ends it meanwhile
    mine.locator(".tourn-decide").select_option("0.5,0.5")
    mine.locator(".tourn-decide-button").click()
    expect(mine.locator(".tourn-result")).to_have_text("½–½ (decided)")
    assert serious(page) == []
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    phone.close()
