"""A tournament's page is pushed its changes (issue 38) in a real browser: its socket,
``/api/tournaments/{id}/ws``, tells it when a board's game has ended, and the page shows
the result and the standings at once, without its poll: the fallback poll is set to an
hour (a test hook, ``window.mathableTournamentFallback``), so only a note of the socket
makes the page read the tournament again. The time from the game's
last answer to the page showing the result is printed (not asserted: it depends on the
machine; the server looks every :data:`~mathable.web.tournaments.push.WATCH_EVERY` s)."""

from __future__ import annotations

import time

import httpx2
from playwright.sync_api import Browser, Request, expect

from support.browser import DESKTOP
from webserver import Server

HOUR = 3_600_000
SWISS = {
    "name": "Pushed Swiss",
    "variant": "classic",
    "system": "swiss",
    "rounds": 2,
    "clock": None,
    "rated": False,
    "private": False,
}


def account(server: Server, name: str) -> httpx2.Client:
    """A person over the API with a session cookie of their own, made an account."""
    client = httpx2.Client(base_url=server.url, headers={"X-Requested-With": "test"})
    assert client.patch("/api/me", json={"name": name}).status_code == 200
    made = client.post("/api/accounts", json={"name": name, "password": "correct horse 9"})
    assert made.status_code == 201, made.text
    return client


def test_the_page_shows_a_result_by_a_push_not_a_poll(server: Server, browser: Browser) -> None:
    ann, bob = account(server, "Pia"), account(server, "Quin")
    tid = ann.post("/api/tournaments", json=SWISS).json()["id"]
    people = {}
    for client in (ann, bob):
        joined = client.post(f"/api/tournaments/{tid}/join")
        assert joined.status_code == 200, joined.text
        people[joined.json()["me"]["player"]] = client
    started = ann.post(f"/api/tournaments/{tid}/start").json()
    pairing = started["rounds"][0]["pairings"][0]

    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.add_init_script(f"window.mathableTournamentFallback = {HOUR};")  # no poll while up
    reads: list[float] = []

    def on_request(request: Request) -> None:
        if request.method == "GET" and request.url.endswith(f"/api/tournaments/{tid}"):
            reads.append(time.monotonic())

    page.on("request", on_request)
    page.goto(f"{server.url}/t/{tid}")
    expect(page.locator("body")).to_have_attribute("data-tourn-live", "1")
    expect(page.locator("#tourn-standings tbody tr")).to_have_count(2)
    points = page.locator("#tourn-standings tbody td.points")
    expect(points).to_have_text(["0", "0"])
    before = len(reads)

    game = f"/api/games/{pairing['game']}"
    first, second = (people[p] for p in pairing["players"])
    by_seat = {c.get(game).json()["seat"]: c for c in (first, second)}
    mover = int(first.get(game).json()["to_move"])
    for seat in (mover, 1 - mover):
        answer = by_seat[seat].post(game + "/actions", json={"action": "pass"})
        assert answer.status_code == 200, answer.text
    assert second.post(game + "/resign", json={}).status_code == 200
    ended = time.monotonic()
    expect(points).to_have_text(["1", "0"])
    shown = time.monotonic()
    assert len(reads) > before  # the page read the tournament: told by its socket
    print(f"result shown {shown - ended:.2f} s after the game ended")
    expect(page.locator("#tourn-status")).to_contain_text("round 2")
    context.close()
    for client in people.values():
        client.close()
