"""The reader's language on the web (issue 17): chosen per request and socket, the page
named in it, and the catalogs the page's modules translate with.

The language is ``?lang=xx`` for one request (links and tests), else the ``lang`` cookie
(the switch on every page sets it), else the browser's ``Accept-Language``, else English.
Every answer made within the request (refusals, views, capabilities) is in that language:
:class:`LanguageMiddleware` sets :func:`mathable.i18n.current` for the request's context.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from mathable import i18n
from mathable.web.infra import assets

COOKIE = "lang"


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return ""


def choose(scope: Scope) -> str:
    """The language of an HTTP request or socket (see the module's docstring)."""
    query = str(scope.get("query_string", b"").decode("latin-1"))
    for pair in query.split("&"):
        name, _eq, value = pair.partition("=")
        if name == "lang" and i18n.known(value):
            return value
    cookie = cookie_parser(_header(scope, b"cookie")[:4096]).get(COOKIE, "")
    if i18n.known(cookie):
        return cookie
    return i18n.negotiate(_header(scope, b"accept-language")) or i18n.DEFAULT


class LanguageMiddleware:
    """Sets the language of each HTTP request and socket for all that answers it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        with i18n.language(choose(scope)):
            await self.app(scope, receive, send)


def html_page(status_code: int = 200) -> HTMLResponse:
    """The page (every route of the site draws itself from it), named in the reader's
    language: ``<html lang>`` is what the page's modules translate into."""
    html = assets.page(i18n.current())  # its files by hashed names, preloaded (issue 32)
    return HTMLResponse(html, status_code=status_code, headers={"Vary": "Cookie, Accept-Language"})


@cache
def _catalog_text(lang: str) -> tuple[str, str]:
    text = json.dumps(i18n.catalog_json(lang), ensure_ascii=False, separators=(",", ":"))
    return text, '"' + hashlib.sha256(text.encode()).hexdigest()[:20] + '"'


router = APIRouter(include_in_schema=False)


@router.get("/i18n/{lang}.json")
async def catalog(lang: str, request: Request) -> Response:
    """A language's messages for the page's modules (:func:`mathable.i18n.catalog_json`),
    revalidated by ETag; 404 for a language not offered."""
    if not i18n.known(lang):
        return Response(
            json.dumps({"error": i18n._("there is no language {lang}", lang=lang[:20])}),
            status_code=404,
            media_type="application/json",
        )
    text, etag = _catalog_text(lang)
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(text, media_type="application/json", headers=headers)


languages = APIRouter(prefix="/api", tags=["games on offer"])


@languages.get("/languages", summary="The languages offered")
async def offered() -> list[dict[str, Any]]:
    """Each language by code and its own name, and the one this request is answered in
    (``?lang=``, the ``lang`` cookie, ``Accept-Language``)."""
    return [
        {"code": code, "name": name, "current": code == i18n.current()}
        for code, name in i18n.LANGUAGES.items()
    ]


def install(app: FastAPI) -> None:
    """The catalogs' and languages' routes, and the middleware that chooses (outermost,
    so that every answer, refusals included, is in the reader's language)."""
    app.include_router(router)
    app.include_router(languages)
    app.add_middleware(LanguageMiddleware)
