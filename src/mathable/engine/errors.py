"""The one exception every rule violation raises, with a reason a person can read.

Messages are lazy texts (:class:`~mathable.i18n.Text`): an error is made once, by the
engine, and shown in the language of whoever reads it when it is shown (``str(exc)``),
so a web server renders the same refusal for readers of different languages.
"""

from __future__ import annotations

from mathable.i18n import Text, lazy


class MathableError(ValueError):
    """Base class of the errors the package raises on bad input. Its message may be a
    :class:`~mathable.i18n.Text`: ``str(exc)`` shows it in the current language."""

    @property
    def text(self) -> str | Text:
        """The message as given (a Text is translated when shown): to put inside
        another message, so it is translated with it."""
        return message_of(self)


def message_of(exc: BaseException) -> str | Text:
    """The message of ``exc`` as it was given, a lazy text where it is one (a Mathable
    error's), else the exception in words now."""
    if isinstance(exc, IllegalMove):
        return exc.full_text
    if len(exc.args) == 1 and isinstance(exc.args[0], Text):
        return exc.args[0]
    return str(exc)


class IllegalMove(MathableError):
    """An action the rules refuse. The game it was tried on is unchanged.

    ``rule`` names the ruling or rulebook point (e.g. ``"C5"``) and ``where`` the cell
    or pile concerned, so front ends can highlight it. ``reason`` is the reason in words
    in the current language when read (``reason_text`` is the lazy text itself);
    ``str(exc)`` adds the rule: ``... (rule C5)``.
    """

    def __init__(self, reason: str | Text, *, rule: str = "", where: str = "") -> None:
        super().__init__(reason)
        self.reason_text = reason
        self.rule = rule
        self.where = where

    def __reduce__(self) -> tuple[object, ...]:
        # the rule and the place survive pickling (errors cross to worker processes)
        return (_rebuild_illegal, (self.reason_text, self.rule, self.where))

    @property
    def reason(self) -> str:
        """Why the action is refused, in the current language."""
        return str(self.reason_text)

    @property
    def full_text(self) -> str | Text:
        """The reason and its rule, as a lazy text: ``... (rule C5)``."""
        if not self.rule:
            return self.reason_text
        # TRANSLATORS: an illegal action's reason, then the rulebook point (C5, K2...)
        return lazy("{reason} (rule {rule})", reason=self.reason_text, rule=self.rule)

    def __str__(self) -> str:
        return str(self.full_text)


def _rebuild_illegal(reason: str | Text, rule: str, where: str) -> IllegalMove:
    return IllegalMove(reason, rule=rule, where=where)


class NotationError(MathableError):
    """Text that does not parse as the notation it claims to be."""
