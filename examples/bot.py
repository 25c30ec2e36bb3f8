"""A complete Mathable bot for the Bot API (issue 36), as a lichess-bot is for lichess.

It connects with a bot account's token, listens to its events, accepts the challenges it
likes, and plays each game to its end with one of the package's computer levels
(``gentle``, ``greedy``, ``strong``, ``expert``: ``mathable bots`` lists them) or at
random. A dropped stream is opened again. Make the token once (logged in to an account
that has played no game): ``POST /api/account/bot``; docs/api.md, "Bot API", says how.

    python examples/bot.py --url http://127.0.0.1:8000 --token TOKEN --level greedy

It needs httpx2 (Pydantic's maintained httpx, which the project's tests install) and,
for a level, the ``mathable`` package; ``--level random`` needs the package only for
nothing: any legal action of the view.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import random
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx2

log = logging.getLogger("mathable-bot")
RETRY = 2.0
"""Seconds before a dropped stream is opened again (doubling up to a minute)."""


class Client:
    """The Bot API over HTTP, its token in every request."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url.rstrip("/")
        self.http = httpx2.Client(
            base_url=self.url,
            headers={"Authorization": f"Bearer {token}", "Accept-Encoding": "identity"},
            timeout=httpx2.Timeout(30.0, read=None),
        )

    def post(self, path: str) -> httpx2.Response:
        return self.http.post(path)

    def lines(self, path: str) -> Iterator[dict[str, Any]]:
        """The JSON objects of an NDJSON stream (its keep-alive empty lines skipped)."""
        with self.http.stream("GET", path) as response:
            if response.status_code != 200:
                response.read()
                raise RuntimeError(f"{path}: {response.status_code} {response.text}")
            for text in response.iter_lines():
                if text.strip():
                    yield json.loads(text)


class Chooser:
    """Picks the seat's next action from its view: a computer level of the package on
    the view rebuilt from its JSON, or a random legal action. Whatever it picks must be
    in the view's ``legal`` list; when the level's pick is not (a view it could not
    rebuild in full), a simple legal choice is made instead: the server decides anyway."""

    def __init__(self, level: str, seed: int | None = None) -> None:
        self.level = level
        self.random = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> str | None:
        legal: list[str] = list(view.get("legal") or [])
        if not legal:
            return None
        if self.level != "random":
            picked = self._by_level(view)
            if picked is not None and picked in legal:
                return picked
            return fallback(legal)
        return self.random.choice(legal)

    def _by_level(self, data: dict[str, Any]) -> str | None:
        try:
            from mathable import new_game
            from mathable.ai import get_bot

            players = list(data["players"])
            game = new_game(data["variant"], players, seed=0)
            template = game.view(data["seat"])
            fields = {f.name for f in dataclasses.fields(template)}
            changes: dict[str, Any] = {
                "seat": data["seat"],
                "players": tuple(players),
                "rack": tuple(data["rack"]),
                "rack_sizes": tuple(data["rack_sizes"]),
                "scores": tuple(data["scores"]),
                "bag_size": data["bag_size"],
                "to_move": data["to_move"],
                "unseen": {int(k): v for k, v in data["unseen"].items()},
                "house_rules": dict(data["house_rules"]),
                "over": data["over"],
                "surface": tuple(data["surface"]),
                "playable": tuple(data["playable"]),
                "available": tuple(data["available"]),
            }
            for empty in ("turn_placements", "turns", "start_draws", "summaries"):
                if empty in fields:
                    changes[empty] = ()
            view = dataclasses.replace(template, **changes)
            action = get_bot(self.level, seed=self.random.randrange(2**31)).act(view)
            return str(game.format_action(action))
        except Exception as exc:  # a view the package cannot rebuild: the fallback
            log.debug("level %s could not choose: %s", self.level, exc)
            return None


def fallback(legal: list[str]) -> str:
    """The placement of the highest value, else ``end``, else the first legal action."""
    places = [a for a in legal if "=" in a and not a.endswith("+")]
    if places:
        return max(places, key=lambda a: int(a.split("=")[1]))
    for keyword in ("end", "accept", "pass"):
        if keyword in legal:
            return keyword
    return legal[0]


def play(client: Client, game_id: str, chooser: Chooser) -> None:
    """Play the bot's seat of one game to its end: on each view where it is to move, an
    action (a turn may be several: placements, then ``end``). Reconnects while the game
    is not over."""
    delay = RETRY
    acted = -1
    while True:
        try:
            for message in client.lines(f"/api/bot/game/stream/{quote(game_id)}"):
                view = message["view"]
                if view.get("over"):
                    log.info("game %s over: %s", game_id, view.get("end_reason"))
                    return
                seq = int(view.get("seq", 0))
                if view.get("to_move") != view.get("seat") or seq <= acted:
                    continue
                action = chooser.choose(view)
                if action is None:
                    continue
                acted = seq
                answer = client.post(f"/api/bot/game/{quote(game_id)}/move/{quote(action)}")
                if answer.status_code != 200:
                    log.warning("game %s: %s refused: %s", game_id, action, answer.text)
                    acted = -1  # the next view (or this one again) is tried anew
                else:
                    log.info("game %s: %s", game_id, action)
            return  # the server ended the stream: the game is over
        except (httpx2.HTTPError, RuntimeError) as exc:
            log.warning("game %s: stream lost (%s), again in %.0f s", game_id, exc, delay)
            time.sleep(delay)
            delay = min(60.0, delay * 2)


def run(client: Client, chooser: Chooser, variants: set[str] | None, once: bool = False) -> None:
    """Listen to the account's events for ever: accept the challenges of the variants
    wanted (decline the others), play each game that starts on a thread of its own."""
    delay = RETRY
    playing: dict[str, threading.Thread] = {}
    while True:
        try:
            for event in client.lines("/api/stream/event"):
                delay = RETRY
                kind = event.get("type")
                if kind == "challenge":
                    challenge = event["challenge"]
                    wanted = variants is None or challenge["variant"] in variants
                    verb = "accept" if wanted else "decline"
                    # (a challenge of my own is refused 403: only the challenged answers)
                    answer = client.post(f"/api/challenge/{quote(challenge['id'])}/{verb}")
                    log.info("challenge %s: %s %s", challenge["id"], verb, answer.status_code)
                elif kind == "gameStart":
                    game_id = event["game"]["id"]
                    if game_id not in playing or not playing[game_id].is_alive():
                        thread = threading.Thread(
                            target=play, args=(client, game_id, chooser), daemon=True
                        )
                        playing[game_id] = thread
                        thread.start()
                elif kind == "gameFinish":
                    log.info("game %s finished", event["game"]["id"])
                    if once:
                        playing[event["game"]["id"]].join(30)
                        return
        except (httpx2.HTTPError, RuntimeError) as exc:
            log.warning("event stream lost (%s), again in %.0f s", exc, delay)
            time.sleep(delay)
            delay = min(60.0, delay * 2)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="the bot account's API token")
    parser.add_argument("--level", default="greedy", help="a computer level, or random")
    parser.add_argument("--variants", help="accept only these games (comma separated)")
    parser.add_argument("--seed", type=int, help="the random choices' seed")
    parser.add_argument("--once", action="store_true", help="stop after one game")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    variants = set(args.variants.split(",")) if args.variants else None
    run(Client(args.url, args.token), Chooser(args.level, args.seed), variants, args.once)


if __name__ == "__main__":
    main()
