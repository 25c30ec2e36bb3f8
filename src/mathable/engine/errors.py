"""The one exception every rule violation raises, with a reason a person can read."""

from __future__ import annotations


class MathableError(ValueError):
    """Base class of the errors the package raises on bad input."""


class IllegalMove(MathableError):
    """An action the rules refuse. The game it was tried on is unchanged.

    ``rule`` names the ruling or rulebook point (e.g. ``"C5"``) and ``where`` the cell
    or pile concerned, so front ends can highlight it.
    """

    def __init__(self, reason: str, *, rule: str = "", where: str = "") -> None:
        self.reason = reason
        self.rule = rule
        self.where = where
        text = reason
        if rule:
            text = f"{text} (rule {rule})"
        super().__init__(text)


class NotationError(MathableError):
    """Text that does not parse as the notation it claims to be."""


def counted(count: int, noun: str) -> str:
    """``1 token``, ``2 tokens``: a number and its noun agreeing, for messages (the
    catalogs of issue 17 will take over with their plural forms)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
