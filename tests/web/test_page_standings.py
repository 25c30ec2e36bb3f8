"""The leaderboard, a profile with its history, and the rating change at a game's end
(issue 15, "Ratings" and "History") in a real browser (Playwright on Debian's chromium).
Ann and Bob have accounts and play a rated 5+3 game that Bob resigns; two computer
players play a rated game out. The leaderboard lists the pool's players by rating (the
computers marked) and switches game and pace; Ann's profile shows her rating and her
games, searchable by opponent; the game-over panel shows each player's change. axe finds
nothing serious on either page. Fixtures come from ``test_browser``."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Browser, expect
from sqlalchemy import delete, insert

from mathable.ai import BOTS
from mathable.web.infra.db import game_players, players
from mathable.web.infra.store import EventStore
from support import oneoff
from support.browser import DESKTOP, PHONE, create, first_moves, serious, shot
from webserver import Server


def accounts_and_games(server: Server) -> tuple[str, str]:
    """Ann and Bob (accounts, as made by sign-up), their rated game, which Bob resigns,
    and a rated game two computer players play out; returns both games' ids."""
    store = EventStore(server.database_url)
    with store.writing() as connection:
        for player_id, name in (("ann-id", "Ann"), ("bob-id", "Bob")):
            connection.execute(
                insert(players).values(
                    id=player_id,
                    name=name,
                    name_key=name.lower(),
                    password_hash="argon2-hash",
                    kind="person",
                    created=time.time(),
                )
            )
    made = create(
        server,
        [{"name": "Ann"}, {"name": "Bob"}],
        seed=None,  # a rated game is dealt by the server (O1)
        mode="screen",
        clock={"minutes": 5, "increment": 3},
        rated=True,
    )
    with store.writing() as connection:  # the seats bound, as the lobby binds them
        connection.execute(delete(game_players).where(game_players.c.game_id == made["id"]))
        for seat, player_id in enumerate(("ann-id", "bob-id")):
            connection.execute(
                insert(game_players).values(game_id=made["id"], seat=seat, player_id=player_id)
            )
    store.close()
    bob = made["seats"][1]["token"]
    first_moves(server, made["id"], [s["token"] for s in made["seats"]])  # O4
    answer = oneoff.post(f"{server.url}/api/games/{made['id']}/resign", json={"token": bob})
    assert answer.status_code == 200, answer.text
    bots = create(
        server,
        [{"name": "A", "bot": "greedy"}, {"name": "B", "bot": "gentle"}],
        seed=None,
        clock={"minutes": 5, "increment": 3},
        rated=True,
    )
    return made["id"], bots["id"]


def test_leaderboard_profile_and_rating_change(server: Server, browser: Browser) -> None:
    game_id, bots_id = accounts_and_games(server)
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(f"{server.url}/g/{bots_id}")  # the computers' game played out
    expect(page.locator("#rating-changes tbody tr")).to_have_count(2, timeout=60000)
    page.goto(f"{server.url}/g/{game_id}")
    changes = page.locator("#rating-changes")
    expect(changes.locator("tr[data-seat='0'] td").first).to_have_text(re.compile(r"^\+\d+$"))
    expect(changes.locator("tr[data-seat='1'] td").first).to_have_text(re.compile(r"^−\d+$"))
    assert serious(page) == []

    page.click("#leaderboard-nav")  # the header links to the leaderboard
    expect(page).to_have_url(re.compile(r"/leaderboard$"))
    rows = page.locator("#provisional tbody tr")
    expect(rows).to_have_count(2)  # live, classic: Ann and Bob, new
    names = [row.split("\t")[0] for row in rows.all_inner_texts()]
    assert names.index("Ann") < names.index("Bob")  # the winner above, by rating
    expect(rows.filter(has_text="Ann")).to_contain_text("?")  # provisional
    computers = page.locator("#ranked tbody tr", has_text="Computer (")  # said once (issue 32)
    expect(computers).to_have_count(len(BOTS))  # every level, rated from the start
    assert serious(page) == []
    shot(page, "leaderboard")
    page.select_option("#board-pace", "correspondence")
    expect(page.locator("#provisional")).to_have_count(0)  # nobody new plays by post
    expect(page.locator("#ranked tbody tr")).to_have_count(len(BOTS))
    expect(page).to_have_url(re.compile(r"pace=correspondence"))
    page.select_option("#board-pace", "live")
    expect(computers).to_have_count(len(BOTS))

    page.click("#provisional a:text('Ann')")
    expect(page).to_have_url(re.compile(r"/players/ann-id$"))
    expect(page.locator("#profile-name")).to_have_text("Ann")
    expect(page.locator("#ratings tbody tr")).to_have_count(1)
    expect(page.locator("#ratings")).to_contain_text("live")
    history = page.locator("#history-rows tr")
    expect(history).to_have_count(1)
    expect(history.first).to_contain_text("won")
    expect(history.first).to_contain_text("+")
    assert serious(page) == []
    shot(page, "profile")
    page.fill("#history-opponent", "zz")
    page.click("#history-go")
    expect(page.locator("#no-games")).to_be_visible()
    page.fill("#history-opponent", "BO")
    page.click("#history-go")
    expect(history).to_have_count(1)
    history.first.locator("a", has_text="Open").click()
    expect(page).to_have_url(re.compile(f"/g/{game_id}$"))
    expect(page.locator("#summary")).to_be_visible()
    page.context.close()

    phone = browser.new_context(viewport=PHONE, color_scheme="dark").new_page()
    phone.goto(f"{server.url}/players/bot-greedy")
    expect(phone.locator("#history-rows tr")).to_have_count(1)
    assert serious(phone) == []
    phone.goto(f"{server.url}/leaderboard")
    expect(phone.locator("#provisional tbody tr")).to_have_count(2)
    expect(phone.locator("#ranked tbody tr")).to_have_count(len(BOTS))
    assert serious(phone) == []
    phone.context.close()
