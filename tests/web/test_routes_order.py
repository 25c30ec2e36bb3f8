"""Every route is reached by its own paths, whatever order the routers are included in
(issue 34, cheaper actions: the games' routes come first, as an action's POST and socket
are most of the traffic and a request is matched against the routes in order).

The app's routes are matched as Starlette matches them: the first route, in order, whose
path pattern and method fit. For each route, a path made from its pattern (each
parameter a value no route spells) must reach that route and no earlier one: a router
moved ahead of another never catches the other's requests."""

from __future__ import annotations

from collections.abc import Iterator

from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute

from mathable.web.api import create_app

FILLER = "z9q"
"""A parameter's value in a made path: no route has it as a fixed part."""


def flat_routes() -> list[BaseRoute]:
    """The app's routes in the order a request meets them (included routers opened)."""

    def opened(routes: list[BaseRoute]) -> Iterator[BaseRoute]:
        for route in routes:
            inner = getattr(route, "original_router", None)
            yield from opened(inner.routes) if inner is not None else [route]

    return list(opened(create_app("sqlite://").router.routes))


def fits(route: BaseRoute, path: str, method: str | None) -> bool:
    """Whether ``route`` takes ``path`` with ``method`` (None: a WebSocket)."""
    if isinstance(route, Mount):
        return method is not None and route.path_regex.match(path) is not None
    if isinstance(route, WebSocketRoute):
        return method is None and route.path_regex.match(path) is not None
    assert isinstance(route, Route)
    return (
        method is not None
        and method in (route.methods or ())
        and route.path_regex.match(path) is not None
    )


def made_path(route: Route | WebSocketRoute) -> str:
    path = route.path
    for name in route.param_convertors:
        path = path.replace("{" + name + "}", FILLER).replace("{" + name + ":path}", FILLER)
    return path


def test_every_route_is_reached_by_its_own_paths() -> None:
    routes = flat_routes()
    checked = 0
    for route in routes:
        if not isinstance(route, Route | WebSocketRoute):
            continue
        path = made_path(route)
        for method in sorted(route.methods or ()) if isinstance(route, Route) else [None]:
            first = next(r for r in routes if fits(r, path, method))
            assert first is route, f"{method or 'WS'} {path} reaches {first!r}, not {route!r}"
            checked += 1
    assert checked > 100  # the whole app, not a part of it


def test_an_actions_post_and_a_games_socket_meet_their_routes_first() -> None:
    """The hot paths are matched before the rest of the app's routes."""
    routes = [r for r in flat_routes() if isinstance(r, Route | WebSocketRoute)]
    post = f"/api/games/{FILLER}/actions"
    socket = f"/api/games/{FILLER}/ws"
    games = ("/api/games", "/api/bots", "/api/variants", "/api/records", "/api/transcripts")
    games_routes = [r for r in routes if r.path.startswith(games)]
    first_other = next(
        i for i, r in enumerate(routes) if r.path.startswith("/api/") and r not in games_routes
    )
    assert routes.index(next(r for r in routes if fits(r, post, "POST"))) < first_other
    assert routes.index(next(r for r in routes if fits(r, socket, None))) < first_other
