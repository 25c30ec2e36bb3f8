"""Text in, checked before any code reads it (issue 30, finding 6): a request's body and a
socket's frame are UTF-8 text, never escaping a lone surrogate, nesting at most
:data:`MAX_DEPTH` deep.

Python's ``json`` reads ``"\\ud800"`` as a string holding a lone surrogate, which no
UTF-8 text can hold: the first ``encode()`` of it (a token's hash, a database write, the
answer echoing it) then fails with a ``UnicodeEncodeError``, a 500. It also reads a
body's bytes with ``surrogatepass``, so the bytes ``ED A0 80`` make one too. A deep nest
of ``[`` makes it recurse past Python's limit (``RecursionError``). :class:`CheckedBodies`
refuses all three at the door with a 400 that says why, and :func:`text_problem` does the
same for the sockets' frames (:func:`.connections.parse_frame`).
"""

from __future__ import annotations

import re

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mathable.i18n import _

MAX_DEPTH = 32
"""How deep JSON text may nest (arrays and objects): every shape the API takes nests a
few levels (a record five), and Python's parser recurses once per level."""

_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.S)
"""A JSON escape; scanned from the left, an escaped backslash is one escape, so
``\\\\ud800`` (a backslash then ``ud800``) is not read as a surrogate."""

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")


def lone_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate, as a character or as a JSON ``\\u``
    escape (a high one not followed at once by a low one, or a low one alone).

    >>> lone_surrogate('{"token": "\\\\ud800"}'), lone_surrogate('"\\\\ud83d\\\\ude00"')
    (True, False)
    """
    if any("\ud800" <= c <= "\udfff" for c in text):
        return True
    if "\\u" not in text and "\\U" not in text:
        return False
    high_end = -1  # where a high surrogate's escape ended: a low one must start there
    for match in _ESCAPE.finditer(text):
        value = int(match.group(1), 16) if match.group(1) else -1
        if high_end >= 0:
            if match.start() != high_end or not 0xDC00 <= value <= 0xDFFF:
                return True
            high_end = -1
        elif 0xD800 <= value <= 0xDBFF:
            high_end = match.end()
        elif 0xDC00 <= value <= 0xDFFF:
            return True
    return high_end >= 0


def too_deep(text: str, most: int = MAX_DEPTH) -> bool:
    """Whether JSON ``text`` nests arrays and objects more than ``most`` deep (brackets
    inside strings do not count). Cheap: counted only when there are that many."""
    if text.count("[") + text.count("{") <= most:
        return False
    depth = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        if depth > most:
            return True
    return False


def text_problem(text: str) -> str | None:
    """Why JSON ``text`` is refused before it is parsed, in the reader's language (None:
    it may be parsed)."""
    if "\x00" in text or re.search(r"(?<!\\)(?:\\\\)*\\u0000", text):
        # TRANSLATORS: \u0000 is the NUL character as JSON writes it
        return _("the text holds a NUL character (\\u0000), which no text field takes")
    if lone_surrogate(text):
        return _("the text holds a lone surrogate (\\ud800 to \\udfff): not Unicode text")
    if too_deep(text):
        return _("the JSON nests more than {most} levels deep", most=MAX_DEPTH)
    return None


def body_problem(body: bytes) -> str | None:
    """Why a request's body is refused before it is parsed (None: let it through)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return _("the body is not UTF-8 text")
    return text_problem(text)


FORMS = ("multipart/", "application/x-www-form-urlencoded")
"""Bodies that are not JSON text (none of our routes takes them): not checked here."""


class CheckedBodies:
    """ASGI middleware: a request with a body (any method but GET, HEAD and OPTIONS) is
    read whole (within the body limit of :mod:`.limits`, outside this one), refused 400
    with ``{"error": …}`` when :func:`body_problem` finds one, and passed on as read."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        kind = dict(scope.get("headers") or []).get(b"content-type", b"").decode("latin-1")
        if kind.lower().startswith(FORMS):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        last: Message = {"type": "http.request", "body": b"", "more_body": False}
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                last = message
                break
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        problem = body_problem(body) if body else None
        if problem is not None:
            await JSONResponse({"error": problem}, status_code=400)(scope, receive, send)
            return
        replayed = False

        async def again() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                if last["type"] != "http.request":
                    return last
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, again, send)
