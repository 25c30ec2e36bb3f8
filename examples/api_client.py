"""A program that plays Mathable through the web API, as lichess's Bot API allows.

Start the server (``make run`` or ``mathable serve``), then:
``python examples/api_client.py [http://127.0.0.1:8000]``. It creates a game against the
server's greedy player, takes the seat token, and plays by posting actions it picks
from the legal ones it is sent, until the game ends. Only the standard library is used.
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from typing import Any


def call(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:  # a refusal: 4xx with {"error": ...}
        raise SystemExit(f"{error.code}: {json.load(error)['error']}") from None


def best_placement(legal: list[str]) -> str | None:
    """The placement with the highest value (a simple policy; the server checks it)."""
    places = [a for a in legal if "=" in a and not a.endswith("+")]
    return max(places, key=lambda a: int(a.split("=")[1]), default=None)


def main(base: str = "http://127.0.0.1:8000") -> None:
    game = call(
        base,
        "/api/games",
        {
            "variant": "classic",
            "players": [{"name": "Script"}, {"name": "Greedy", "bot": "greedy"}],
        },
    )
    game_id, token = game["id"], game["seats"][0]["token"]
    print(f"game {game_id}: watch it at {base}/g/{game_id}")
    while True:
        view = call(base, f"/api/games/{game_id}?token={token}")
        if view["over"]:
            scores = ", ".join(
                f"{p} {s}" for p, s in zip(view["players"], view["scores"], strict=True)
            )
            print(f"game over: {scores}")
            return
        action = best_placement(view["legal"]) or ("end" if "end" in view["legal"] else "pass")
        call(
            base,
            f"/api/games/{game_id}/actions",
            {"token": token, "action": action, "seq": view["seq"]},
        )
        print(action)


if __name__ == "__main__":
    main(*sys.argv[1:2])
