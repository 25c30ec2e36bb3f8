"""Refusals, shared by every part of the server: :class:`ServiceError` (a status and a
message for people, raised by the services and answered as JSON by the app's handler),
the shape of its answer (:class:`ErrorOut`) and the refusals the routes document.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from mathable import i18n
from mathable.i18n import _


class ServiceError(Exception):
    """A refusal with its HTTP status and a message for people: a string already in the
    reader's language (``_()``, made within their request), or a lazy :class:`~mathable.
    i18n.Text` (made where the reader is not known: shown in the language of whoever reads
    :attr:`message`)."""

    def __init__(self, status: int, message: str | i18n.Text, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.text = message
        self.extra = extra

    @property
    def message(self) -> str:
        """The message in the current language (the request's or the socket's)."""
        return str(self.text)

    def __str__(self) -> str:
        return self.message


def at_field(field: str, problem: object) -> str:
    """A refusal naming the field of the request at fault (``house_rules.hints: …``)."""
    # TRANSLATORS: a field of a request (house_rules.hints, clock.minutes), then what is wrong
    return _("{field}: {problem}", field=field, problem=problem)


class ErrorOut(BaseModel):
    """A refusal: the reason for people, and for an illegal action the rule and place
    (unknown keys pass through, as in the game's own answers)."""

    model_config = ConfigDict(extra="allow")

    error: str
    rule: str | None = None
    where: str | None = None
    reason: str | None = None
    seq: int | None = None


REFUSALS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": text}
    for status, text in [
        (400, "Malformed input"),
        (403, "A wrong token"),
        (404, "No such game"),
        (409, "Not now: not your turn, the game moved on, or not over yet"),
        (413, "A request body over the limit (256 KB; a record 1 MB)"),
        (422, "Invalid input, or an illegal action (with the rule and the cell or pile)"),
        (
            429,
            "Too many requests of this kind from one address (see Retry-After), or too "
            "many live games with a computer seat (``limit``, ``most``)",
        ),
    ]
}
