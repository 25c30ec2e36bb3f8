"""Every input bounded and typed before it reaches code (issue 30, finding 6).

First the inputs that made 500s or dropped a socket, each on both databases: a lone
surrogate as a token, a chat ``after`` or a reported message of 10^40, a body or a frame
of 2,000 nested ``[``, a body that is not UTF-8. Then a fuzz over every route the app
has (read from ``app.routes`` and its OpenAPI schema) and every frame type of its
sockets, against a real ``mathable serve`` (:mod:`webserver`) on SQLite and PostgreSQL,
whose log is read after: no answer may be a 5xx and the server may print no traceback.
The requests come from a seeded generator (the same run every time), built from each
route's schema and mixed with hostile values (huge and negative numbers, lone surrogates,
invisible characters, deep nests, wrong types, bytes that are not UTF-8). A small run is
in the fast suite; the full one (5,000 requests per database) is marked slow.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from fastapi.testclient import TestClient
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.typing import Origin

from mathable.web.api import create_app
from mathable.web.infra.inputs import MAX_DEPTH, lone_surrogate, text_problem, too_deep
from webserver import Server

SURROGATE_TOKEN = '{"token": "\\ud800", "action": "pass"}'
DEEP = "[" * 2000


def screen_game(client: TestClient | httpx2.Client) -> dict[str, Any]:
    body = {"variant": "classic", "players": [{"name": "Ann"}, {"name": "Bob"}], "seed": 7}
    made = client.post("/api/games", json={**body, "mode": "screen"})
    assert made.status_code == 201, made.text
    return dict(made.json())


# -- the inputs that broke the server ---------------------------------------------------------


@pytest.fixture
def client(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("MATHABLE_RATE_CHAT", "1000/minute")
    with TestClient(create_app(database_url)) as made:
        yield made


def test_a_lone_surrogate_is_refused_400_where_it_was_a_500(client: TestClient) -> None:
    game = screen_game(client)
    headers = {"Content-Type": "application/json"}
    for path, body in [
        (f"/api/games/{game['id']}/actions", SURROGATE_TOKEN),
        (f"/api/games/{game['id']}/resign", '{"token": "\\udc00"}'),
        (f"/api/games/{game['id']}/join", '{"invite": "a\\ud83d"}'),
        (f"/api/games/{game['id']}/chat", '{"text": "hi \\ud800 there"}'),
    ]:
        answer = client.post(path, content=body, headers=headers)
        assert answer.status_code == 400, (path, answer.text)
        assert "surrogate" in answer.json()["error"]
    # the same bytes as UTF-8 would carry them (ED A0 80): not UTF-8, refused too
    raw = b'{"token": "\xed\xa0\x80", "action": "pass"}'
    answer = client.post(f"/api/games/{game['id']}/actions", content=raw, headers=headers)
    assert answer.status_code == 400 and "UTF-8" in answer.json()["error"]
    # a pair of escapes is a character (an emoji): a chat line holds it, as typed
    said = client.post(
        f"/api/games/{game['id']}/chat",
        content='{"text": "\\ud83d\\ude00 \\\\ud800"}',
        headers={**headers, "X-Requested-With": "test"},
    )
    assert said.status_code == 201, said.text
    assert said.json()["text"] == "\U0001f600 \\ud800"


def test_numbers_past_the_store_are_refused_422_naming_the_field(client: TestClient) -> None:
    game = screen_game(client)
    token = game["seats"][0]["token"]
    huge = 10**40
    answers = {
        "after": client.get(f"/api/games/{game['id']}/chat?token={token}&after={huge}"),
        "message_id": client.post(f"/api/games/{game['id']}/chat/{huge}/report", json={}),
        "step": client.get(f"/api/games/{game['id']}/replay?token={token}&step={huge}"),
        "seq": client.post(
            f"/api/games/{game['id']}/actions", json={"token": token, "action": "pass", "seq": huge}
        ),
        "seat": client.post(
            "/api/games",
            json={"players": [{"name": "A"}, {"name": "B"}], "mode": "online", "seat": huge},
        ),
    }
    for field, answer in answers.items():
        assert answer.status_code == 422, (field, answer.text)
        assert f"{field}: at most" in answer.json()["error"], answer.text
    # within the bounds, the same routes answer as before
    fine = client.get(f"/api/games/{game['id']}/chat?token={token}&after={2**31 - 1}")
    assert fine.status_code == 200 and fine.json()["messages"] == []


def test_a_deep_nest_is_refused_in_a_body_and_in_a_frame(client: TestClient) -> None:
    game = screen_game(client)
    for body in (DEEP, '{"a": ' * 1000 + "1" + "}" * 1000):
        answer = client.post(
            "/api/games", content=body, headers={"Content-Type": "application/json"}
        )
        assert answer.status_code == 400, answer.text
        assert str(MAX_DEPTH) in answer.json()["error"]
    token = game["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{game['id']}/ws?token={token}") as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_text(DEEP)
        refused = ws.receive_json()
        assert (refused["type"], refused["status"]) == ("error", 400)
        assert str(MAX_DEPTH) in refused["error"]
        ws.send_text('{"action": "\\ud800"}')
        assert "surrogate" in ws.receive_json()["error"]
        ws.send_json({"type": "sync"})  # the socket is still open and answering
        assert ws.receive_json()["type"] == "view"


def test_the_checks_read_json_as_json() -> None:
    assert lone_surrogate('"\\ud800"') and lone_surrogate('"\\udfff x"')
    assert lone_surrogate('"\\ud800\\u0041"') and lone_surrogate("\ud800")
    assert not lone_surrogate('"\\ud83d\\ude00"') and not lone_surrogate('"\\\\ud800"')
    assert not lone_surrogate('"\\u00e9 \\n"')
    assert too_deep("[" * (MAX_DEPTH + 1)) and not too_deep("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    assert not too_deep(json.dumps(["[" * 100]))  # brackets in a string do not nest
    assert not too_deep(json.dumps([[1]] * 500))  # wide is not deep
    # PostgreSQL's text holds no NUL: a name "\u0000" was a DataError (a 500) at login
    assert text_problem('{"name": "\\u0000"}') is not None
    assert text_problem('{"name": "\\\\u0000"}') is None  # a backslash, then u0000


# -- the fuzz ----------------------------------------------------------------------------------

NASTY_TEXTS = [
    "",
    " ",
    "x" * 5000,
    "\u200b",
    "\u202eevil",
    "\u3164",
    "a\u0301\u0301\u0301\u0301",
    "Сomputer",
    "\x00",
    "\x1b[31m",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "'; DROP TABLE games; --",
    "%s%n",
    "\ufeff",
    "🙂" * 50,
    "I8=12",
    "pass",
    "end",
    "exchange 1,2,3",
    "undo",
    "resign 0",
    "null",
    "NaN",
    "\ud800",
    "\udfff",
    "1e999",
    "-0",
    "G7=99999999999999999999",
]
NASTY_NUMBERS: list[Any] = [
    0,
    1,
    -1,
    3,
    2**31 - 1,
    2**31,
    2**53,
    2**63,
    10**40,
    -(10**40),
    1.5,
    1e308,
    -0.0,
    True,
]
NASTY_VALUES: list[Any] = [None, [], {}, [[[[]]]], {"a": {"b": {}}}, *NASTY_NUMBERS, *NASTY_TEXTS]
RAW_BODIES: list[bytes] = [
    DEEP.encode(),
    b"{" * 3000,
    b'{"a":' * 900 + b"1" + b"}" * 900,
    b'{"token": "\xed\xa0\x80"}',
    b"\xff\xfe\x00",
    b'{"text": "\\ud800"}',
    b"not json",
    b"",
    b"null",
    b"[]",
    b'"\\udfff"',
    b"1" * 5000,
    b'{"a": 1e999999}',
    b'{"players": [' + b'{"name": "A"},' * 2000 + b"{}]}",
]


class Fuzzer:
    """Requests for every route, from its OpenAPI schema and the ids a real game gives."""

    def __init__(self, app_routes: list[Any], openapi: dict[str, Any], known: dict[str, list[str]]):
        self.rng = random.Random(30)
        self.openapi = openapi
        self.components: dict[str, Any] = openapi.get("components", {}).get("schemas", {})
        self.known = known
        self.routes: list[tuple[str, str]] = []
        self.sockets: list[str] = []
        for prefix, route in flat(app_routes):
            path = prefix + route.path
            if isinstance(route, APIWebSocketRoute | WebSocketRoute):
                self.sockets.append(path)
            elif isinstance(route, APIRoute | Route):
                for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
                    self.routes.append((method, path))
            elif isinstance(route, Mount):
                self.routes.append(("GET", path + "/{path}"))

    def _resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            schema = self.components[schema["$ref"].split("/")[-1]]
        return schema

    def nasty(self) -> Any:
        return self.rng.choice(NASTY_VALUES)

    def value(self, schema: dict[str, Any], depth: int = 0) -> Any:
        """A value of the schema's type, or (one time in four) a hostile one."""
        rng = self.rng
        if rng.random() < 0.25 or depth > 4:
            return self.nasty()
        schema = self._resolve(schema)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                return self.value(rng.choice(schema[key]), depth + 1)
        if "enum" in schema:
            return rng.choice(schema["enum"])
        if "const" in schema:
            return schema["const"]
        kind = schema.get("type")
        if kind == "object":
            out = {}
            for name, sub in schema.get("properties", {}).items():
                if name in schema.get("required", []) or rng.random() < 0.5:
                    out[name] = self.value(sub, depth + 1)
            if rng.random() < 0.1:
                out[rng.choice(["extra", "__proto__", "token"])] = self.nasty()
            return out
        if kind == "array":
            return [
                self.value(schema.get("items", {}), depth + 1) for _ in range(rng.randint(0, 5))
            ]
        if kind == "integer":
            low = int(schema.get("minimum", 0))
            high = int(schema.get("maximum", low + 100))
            return rng.choice([low, high, rng.randint(low, high), high + 1, low - 1])
        if kind == "number":
            return rng.choice([0.5, 3.0, -2.0, 1e20])
        if kind == "boolean":
            return rng.choice([True, False])
        if kind == "string":
            return self.text(schema)
        return self.nasty()

    def text(self, schema: dict[str, Any] | None = None) -> Any:
        pool = [t for ids in self.known.values() for t in ids]
        choice = self.rng.random()
        if choice < 0.4 and pool:
            return self.rng.choice(pool)
        if choice < 0.5 and schema and "maxLength" in schema:
            return "a" * (int(schema["maxLength"]) + self.rng.choice([0, 1]))
        return self.rng.choice(NASTY_TEXTS)

    def path_value(self, name: str) -> str:
        options = [
            *self.known.get(name, []),
            "nope",
            "0",
            "-1",
            str(10**40),
            "%20",
            "..",
            "é",
        ]
        return str(self.rng.choice(options))

    def request(self) -> dict[str, Any]:
        """One request: method, URL, params, headers and body."""
        rng = self.rng
        method, template = rng.choice(self.routes)
        path = re.sub(
            r"\{(\w+)(?::\w+)?\}", lambda m: httpx_quote(self.path_value(m.group(1))), template
        )
        operation = self.openapi.get("paths", {}).get(template, {}).get(method.lower(), {})
        params: dict[str, str] = {}
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "query" and (parameter.get("required") or rng.random() < 0.6):
                params[parameter["name"]] = shown(self.value(parameter.get("schema", {})))
        if rng.random() < 0.1:
            params[rng.choice(["token", "after", "limit", "x"])] = shown(self.nasty())
        headers = {"Content-Type": "application/json"}
        body: bytes | None = None
        if method not in ("GET", "DELETE"):
            content = operation.get("requestBody", {}).get("content", {})
            schema = content.get("application/json", {}).get("schema", {})
            roll = rng.random()
            if roll < 0.15:
                body = rng.choice(RAW_BODIES)
            elif roll < 0.2:
                headers["Content-Type"] = rng.choice(
                    ["text/plain", "application/x-www-form-urlencoded", ""]
                )
                body = json.dumps(self.value(schema)).encode()
            else:
                body = json.dumps(self.value(schema)).encode()
        if rng.random() < 0.1:
            headers["Accept-Language"] = rng.choice(["fr", "de;q=2", "zz", "*", "x" * 300])
        return {
            "method": method,
            "url": path,
            "params": params,
            "headers": headers,
            "content": body,
        }


def flat(routes: list[Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every route of the app with the prefix it is served under, the routers it
    includes opened (FastAPI keeps an included router as one entry)."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from flat(inner.routes, prefix + route.include_context.prefix)
        else:
            yield prefix, route


def httpx_quote(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")


def shown(value: Any) -> str:
    """A value as a query string carries it (a lone surrogate as its UTF-8 would be)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass").decode("latin-1")
    return value if isinstance(value, str) else json.dumps(value)


def tracebacks(log: str) -> list[str]:
    """The tracebacks and unhandled errors a server printed."""
    return re.findall(r"Traceback \(most recent call last\)|Exception in ASGI application", log)


def tournament(server: Server) -> str:
    """A tournament's id (issue 38), organized by an account of its own."""
    headers = {"Origin": server.url, "X-Requested-With": "test"}
    with httpx2.Client(base_url=server.url, timeout=60, headers=headers) as organizer:
        signed = organizer.post("/api/accounts", json={"name": "Fuzz Club", "password": "x" * 12})
        assert signed.status_code == 201, signed.text
        made = organizer.post(
            "/api/tournaments",
            json={"name": "Fuzzed", "variant": "classic", "system": "swiss", "rounds": 2},
        )
        assert made.status_code == 201, made.text
        return str(made.json()["id"])


def seeded(server: Server, cookies: httpx2.Client) -> dict[str, list[str]]:
    """Real things to aim at: a game at one screen and an online one with their tokens
    and invitations, a chat line, a player, a seek; the ids by path parameter name."""
    made = screen_game(cookies)
    online = cookies.post(
        "/api/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}], "mode": "online"}
    ).json()
    me = cookies.get("/api/me").json()
    tokens = [s["token"] for s in made["seats"]] + [
        s["token"] for s in online["seats"] if s["token"]
    ]
    invites = [s["invite"].split("invite=")[1] for s in online["seats"] if s.get("invite")]
    said = cookies.post(f"/api/games/{made['id']}/chat", json={"text": "hello", "token": tokens[0]})
    seek = cookies.post("/api/seeks", json={"variant": "classic"})
    return {
        "tournament_id": [tournament(server), "nope"],
        "game_id": [made["id"], online["id"]],
        "token": tokens + invites,
        "player_id": [me["id"], "bot-greedy"],
        "message_id": [str(said.json().get("id", 1))],
        "seek_id": [str(seek.json().get("id", "x"))] if seek.status_code < 300 else [],
        "variant": ["classic", "junior", "quattro"],
        "name": ["first-game", "classic"],
        "index": ["0", "1"],
        "lang": ["fr", "en", "zz"],
        "path": ["app.js", "style.css", "../api.py"],
        "puzzle_id": ["1", "daily"],
    }


def fuzz(server: Server, app_routes: list[Any], count: int, frames: int) -> dict[str, int]:
    """``count`` requests and ``frames`` socket frames at ``server``: the answers by
    status class, and the 5xx and tracebacks found (asserted none by the callers)."""
    with httpx2.Client(base_url=server.url, timeout=60, headers={"Origin": server.url}) as cookies:
        known = seeded(server, cookies)
        openapi = cookies.get("/openapi.json").json()
        fuzzer = Fuzzer(app_routes, openapi, known)
        seen: dict[str, int] = {}
        failures: list[str] = []
        with httpx2.Client(base_url=server.url, timeout=60) as bare:
            for number in range(count):
                request = fuzzer.request()
                client = cookies if number % 2 else bare  # with the session cookie, and without
                if number % 2 and request["method"] != "GET":
                    request["headers"] = {**request["headers"], "Origin": server.url}
                answer = client.request(**request)
                seen[f"{answer.status_code // 100}xx"] = (
                    seen.get(f"{answer.status_code // 100}xx", 0) + 1
                )
                if answer.status_code >= 500:
                    failures.append(
                        f"{request['method']} {request['url']} {request['params']} "
                        f"{(request['content'] or b'')[:200]!r}: "
                        f"{answer.status_code} {answer.text[:200]}"
                    )
        seen["frames"] = fuzz_frames(server, fuzzer, known, frames)
    seen["5xx"] = len(failures)
    seen["tracebacks"] = len(tracebacks(server.output()))
    assert not failures, "\n".join(failures[:20])
    assert not seen["tracebacks"], server.output()[-4000:]
    return seen


def fuzz_frames(server: Server, fuzzer: Fuzzer, known: dict[str, list[str]], count: int) -> int:
    """``count`` frames over the game's socket (a seat's, a spectator's) and the lobby's:
    each frame type (an action, a sync) with hostile fields, and frames that are not JSON
    objects at all. A frame never closes the socket with 1011 (an error in the server)."""
    base = server.url.replace("http", "ws", 1)
    game, token = known["game_id"][0], known["token"][0]
    urls: list[tuple[str, bool]] = []
    for path in fuzzer.sockets:  # each socket the app has, as a seat and a spectator
        url = base + path.replace("{game_id}", game)
        for name, values in known.items():  # a tournament's socket: a real one (issue 38)
            if values and name != "game_id":
                url = url.replace("{" + name + "}", values[0])
        answers = "{game_id}" in path  # a game's socket answers every frame; the lobby's none
        urls += [(f"{url}?token={token}", answers), (url, answers)]
        urls.append((f"{url}?patches=1&token={token}", answers))
    rng, sent = fuzzer.rng, 0
    while sent < count:
        url, answers = urls[sent % len(urls)]
        with connect(url, origin=Origin(server.url), open_timeout=30) as ws:
            ws.recv(timeout=30)
            for last in [False] * 19 + [True]:
                roll = rng.random()
                if roll < 0.5:
                    frame: str | bytes = json.dumps(
                        {"action": fuzzer.nasty(), "seq": fuzzer.nasty()}
                    )
                elif roll < 0.6:
                    frame = json.dumps(
                        {"type": rng.choice(["sync", "view", None, 1]), "seq": fuzzer.nasty()}
                    )
                elif roll < 0.95:
                    frame = rng.choice(
                        [
                            DEEP,
                            '{"action": "\\ud800"}',
                            "[]",
                            "1",
                            "nope",
                            '{"action":' * 40,
                            json.dumps(fuzzer.nasty()),
                        ]
                    )
                else:
                    frame = b"\x00\x01" if rng.random() < 0.5 else "x" * 5000
                sent += 1
                try:
                    ws.send(frame)
                    # a silent socket is read once, after its last frame: a close with
                    # 1011 caused by any frame before is read there (frames go in order)
                    if answers or last:
                        ws.recv(timeout=1)
                except TimeoutError:
                    continue  # the lobby answers nothing
                except ConnectionClosed as closed:
                    assert closed.rcvd is None or closed.rcvd.code != 1011, closed
                    break
    return sent


@pytest.fixture(scope="module")
def app_routes(tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    """The app's routes, read from the app itself."""
    folder = tmp_path_factory.mktemp("routes")
    return list(create_app(f"sqlite:///{folder / 'routes.db'}").routes)


@pytest.fixture
def fuzzed_server(database_url: str) -> Iterator[Server]:
    env = {
        "MATHABLE_RATE_CHAT": "off",
        "MATHABLE_RATE_ACTION": "off",
        "MATHABLE_WS_FRAMES_PER_SECOND": "1000",
        "MATHABLE_WORKERS": "1",
    }
    server = Server(database_url, env=env).start()
    yield server
    server.stop()


def test_fuzz_every_route_and_frame_no_5xx_no_traceback(
    fuzzed_server: Server, app_routes: list[Any]
) -> None:
    seen = fuzz(fuzzed_server, app_routes, count=600, frames=60)
    assert seen["2xx"] + seen["4xx"] + seen.get("3xx", 0) == 600


@pytest.mark.slow
def test_fuzz_5000_requests_per_database_no_5xx_no_traceback(
    fuzzed_server: Server, app_routes: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    seen = fuzz(fuzzed_server, app_routes, count=5000, frames=400)
    with capsys.disabled():
        print(f"\nfuzzed {fuzzed_server.database_url.split(':')[0]}: {seen}")


def test_the_websocket_close_is_never_an_internal_error(client: TestClient) -> None:
    """A frame of every kind in one socket: each answered, none drops it."""
    game = screen_game(client)
    with client.websocket_connect(
        f"/api/games/{game['id']}/ws?token={game['seats'][0]['token']}"
    ) as ws:
        ws.receive_json()
        for frame in [DEEP, "[]", "nope", '{"action": 5}', '{"action": "pass", "seq": 1e400}']:
            ws.send_text(frame)
            assert ws.receive_json()["type"] == "error"
        ws.send_json({"type": "sync"})
        assert ws.receive_json()["type"] == "view"
    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/api/games/nope/ws") as ws:
        ws.receive_json()  # the refusal, then the close
        ws.receive_json()
