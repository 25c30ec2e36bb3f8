"""Every text a person reads, in their language (issue 17).

The messages are written in English in the code and translated by gettext catalogs
managed with Babel (``make messages``: extract, update, compile), one per language in
``mathable/locale/<lang>/LC_MESSAGES/mathable.po``. Adding a language is adding one
catalog and its line in :data:`LANGUAGES`.

Two ways to mark a text:

- ``_("Pass")`` and ``ngettext("{count} token", "{count} tokens", n)`` translate at once,
  into the language of the current context (:func:`current`);
- ``lazy(...)`` and ``lazy_plural(...)`` make a :class:`Text` that translates when it is
  shown: the rules engine raises and describes with them, so one game serves readers of
  every language (a web view is made per seat and language, the terminal in its own).

Placeholders are named, in braces (``"{cell} is off the board"``), the same in Python and
in the browser's ``t()`` (web/static/i18n.js); values are inserted after translation, so a
player's name is printed exactly as typed. Numbers and notation (``I8``, ``+ − × ÷``) are
the same in every language.
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import io
import json
import os
import re
import unicodedata
from collections.abc import Iterator, Mapping
from contextvars import ContextVar, Token
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES: dict[str, str] = {
    "en": "English",
    "fr": "Français",
    "es": "Español",
    "de": "Deutsch",
    "it": "Italiano",
    "nl": "Nederlands",
}
"""The languages offered, by code, each named in itself (the rulebook's six)."""

DEFAULT = "en"
"""The language of the code's messages and of a reader who states none."""

PSEUDO = "qps"
"""A test language (``qps``, as Windows' pseudo-locales): every translated text shows
inside ⟦ ⟧, so a screen's text outside brackets is text that escaped translation."""

DOMAIN = "mathable"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the catalogs live: ``<lang>/LC_MESSAGES/mathable.po`` (and the compiled .mo)."""

_current: ContextVar[str | None] = ContextVar("mathable_language", default=None)
_everywhere = [DEFAULT]
"""The language of contexts that set none: a terminal's, for its threads too (a thread
starts without its parent's context variables); a server keeps English here."""


def known(lang: str) -> bool:
    """Whether ``lang`` is a language this program speaks (or the test language)."""
    return lang in LANGUAGES or lang == PSEUDO


def current() -> str:
    """The language of the current context: a web request's, a socket's, the terminal's."""
    return _current.get() or _everywhere[0]


def set_language(lang: str, *, everywhere: bool = False) -> Token[str | None]:
    """Make ``lang`` the current context's language (unknown codes mean English); with
    ``everywhere``, also that of threads started afterwards (a terminal program's)."""
    chosen = lang if known(lang) else DEFAULT
    if everywhere:
        _everywhere[0] = chosen
    return _current.set(chosen)


@contextlib.contextmanager
def language(lang: str, *, everywhere: bool = False) -> Iterator[str]:
    """Speak ``lang`` within the block (the previous language after it); ``everywhere``
    as in :func:`set_language`."""
    before = _everywhere[0]
    token = set_language(lang, everywhere=everywhere)
    try:
        yield current()
    finally:
        _current.reset(token)
        _everywhere[0] = before


# -- catalogs ------------------------------------------------------------------------------


class _Pseudo(gettext.NullTranslations):
    """The test language: each text in ⟦ ⟧, placeholders kept."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"

    def pgettext(self, context: str, message: str) -> str:
        return f"⟦{message}⟧"

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self.ngettext(msgid1, msgid2, n)


def catalog_path(lang: str) -> Path:
    """The source catalog (.po) of ``lang``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang``: its compiled .mo when it is at least as new as the .po
    (``make messages``, or the install), else compiled from the .po in memory with Babel,
    so a checkout whose catalogs were just edited never shows stale text."""
    if lang == PSEUDO:
        return _Pseudo()
    po = catalog_path(lang)
    if lang == DEFAULT or not po.exists():
        return gettext.NullTranslations()
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as compiled:
            return gettext.GNUTranslations(compiled)
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as source:
        catalog = read_po(source, locale=lang, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


# -- messages ------------------------------------------------------------------------------


class Text:
    """A message translated when shown: its English text (and plural, with the count
    that chooses between them), an optional context (``msgctxt``), and named values,
    which may be texts themselves. ``str()`` gives it in the current language."""

    __slots__ = ("context", "count", "message", "plural", "values")

    def __init__(
        self,
        message: str,
        values: Mapping[str, object] | None = None,
        *,
        plural: str | None = None,
        count: int = 1,
        context: str | None = None,
    ) -> None:
        self.message = message
        self.plural = plural
        self.count = count
        self.context = context
        self.values: dict[str, object] = dict(values or {})

    def render(self, lang: str | None = None) -> str:
        """The text in ``lang`` (the current language by default)."""
        lang = current() if lang is None else lang
        catalog = translations(lang)
        if self.plural is None:
            if self.context is None:
                found = catalog.gettext(self.message)
            else:
                found = catalog.pgettext(self.context, self.message)
        elif self.context is None:
            found = catalog.ngettext(self.message, self.plural, self.count)
        else:
            found = catalog.npgettext(self.context, self.message, self.plural, self.count)
        if not self.values and self.plural is None:
            return found
        values = {k: _shown(v, lang) for k, v in self.values.items()}
        values.setdefault("count", self.count)
        return fill(found, values)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Text({self.render(DEFAULT)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Text):
            return self.render(DEFAULT) == other.render(DEFAULT)
        if isinstance(other, str):
            return self.render(DEFAULT) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.render(DEFAULT))

    def __reduce__(self) -> tuple[Any, ...]:
        # a plain tuple: texts cross to the worker processes inside views and errors
        return (_rebuild, (self.message, self.values, self.plural, self.count, self.context))

    def __add__(self, other: object) -> str:
        return str(self) + str(other)

    def __radd__(self, other: object) -> str:
        return str(other) + str(self)


def stored(text: object) -> str:
    """A text as a database keeps it, to be shown later in each reader's language: a
    :class:`Text` as JSON (its message and values, nested texts too), a string as it is."""
    if not isinstance(text, Text):
        return str(text)
    return json.dumps(_as_data(text), ensure_ascii=False, separators=(",", ":"))


def from_stored(kept: str) -> str:
    """A stored text (:func:`stored`) in the current language; text stored before texts
    were kept so (plain English) as it is."""
    if kept.startswith('{"text":'):
        try:
            return str(_from_data(json.loads(kept)))
        except (ValueError, KeyError, TypeError):
            return kept
    return kept


def _as_data(value: object) -> object:
    if isinstance(value, Text):
        return {
            "text": value.message,
            "plural": value.plural,
            "count": value.count,
            "context": value.context,
            "values": {k: _as_data(v) for k, v in value.values.items()},
        }
    if isinstance(value, (list, tuple)):
        return [_as_data(v) for v in value]
    return value if isinstance(value, (int, float, bool)) or value is None else str(value)


def _from_data(data: Any) -> Any:
    if isinstance(data, dict) and "text" in data:
        values = {str(k): _from_data(v) for k, v in dict(data.get("values") or {}).items()}
        plural = data.get("plural")
        context = data.get("context")
        return Text(
            str(data["text"]),
            values,
            plural=None if plural is None else str(plural),
            count=int(data.get("count", 1)),
            context=None if context is None else str(context),
        )
    if isinstance(data, list):
        return [_from_data(v) for v in data]
    return data


def _rebuild(
    message: str, values: dict[str, object], plural: str | None, count: int, context: str | None
) -> Text:
    return Text(message, values, plural=plural, count=count, context=context)


def _shown(value: object, lang: str) -> object:
    """A value as inserted into a message: texts (and lists of them) translated."""
    if isinstance(value, Text):
        return value.render(lang)
    if isinstance(value, (list, tuple)) and any(isinstance(v, Text) for v in value):
        return ", ".join(str(_shown(v, lang)) for v in value)
    return value


_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def fill(message: str, values: Mapping[str, object]) -> str:
    """``message`` with its ``{name}`` placeholders replaced by ``values`` (those it does
    not know are left as they are: a translation cannot break the program, and braces a
    player typed are never read as placeholders, as values are inserted once)."""
    return _FIELD.sub(lambda m: str(values[m[1]]) if m[1] in values else m[0], message)


def lazy(message: str, /, **values: object) -> Text:
    """A text translated when shown (engine messages, module-level constants)."""
    return Text(message, values)


def lazy_plural(singular: str, plural: str, count: int, /, **values: object) -> Text:
    """A text with a singular and a plural, chosen by ``count`` in each language's way."""
    return Text(singular, values, plural=plural, count=count)


def lazy_context(context: str, message: str, /, **values: object) -> Text:
    """A short text whose meaning needs a context for translators (``"command"``)."""
    return Text(message, values, context=context)


def _(message: str, /, **values: object) -> str:
    """``message`` in the current language, its placeholders filled."""
    return Text(message, values).render()


def ngettext(singular: str, plural: str, count: int, /, **values: object) -> str:
    """The singular or plural of a message in the current language (``{count}`` is the
    number unless given)."""
    return Text(singular, values, plural=plural, count=count).render()


def pgettext(context: str, message: str, /, **values: object) -> str:
    """A short message with a context for translators, in the current language."""
    return Text(message, values, context=context).render()


def shown(text: object) -> str:
    """Any text as a string in the current language (plain strings as they are)."""
    return str(text)


# -- choosing a language ------------------------------------------------------------------


def negotiate(header: str | None, offered: Mapping[str, str] | None = None) -> str | None:
    """The best language of an ``Accept-Language`` header among ``offered`` (the six by
    default), by quality then order; None if none of them is accepted."""
    offered = LANGUAGES if offered is None else offered
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for order, part in enumerate(header[:1000].split(",")[:40]):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _eq, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > 0 and tag:
            ranked.append((-quality, order, tag.strip().lower()))
    for _quality, _order, tag in sorted(ranked):
        primary = tag.replace("_", "-").split("-")[0]
        if primary in offered:
            return primary
    return None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language, as gettext reads it: ``LANGUAGE`` (a list), ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``; English when none names a language offered."""
    environ = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable, "")
        if not value:
            continue
        for entry in value.split(":"):
            code = entry.split(".")[0].split("@")[0].split("_")[0].lower()
            if known(code):
                return code
        if variable != "LANGUAGE":
            return DEFAULT  # the first variable set decides (C, POSIX, an unknown one)
    return DEFAULT


def catalog_json(lang: str) -> dict[str, Any]:
    """The catalog of ``lang`` for the browser (``/i18n/<lang>.json``): each message by
    its English text (``context\\x04text`` with a context), a plural message as the list
    of its forms, and the language's plural count; the browser chooses a form with
    ``Intl.PluralRules`` (``one`` is the first form, every other category the second:
    every language offered has two forms, tested)."""
    messages: dict[str, str | list[str]] = {}
    if lang in (PSEUDO, DEFAULT) or not catalog_path(lang).exists():
        return {
            "lang": lang,
            "pseudo": lang == PSEUDO,
            "plurals": 2,
            "languages": LANGUAGES,
            "messages": messages,
        }
    from babel.messages.pofile import read_po

    with catalog_path(lang).open("rb") as source:
        catalog = read_po(source, locale=lang, domain=DOMAIN)
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple):
            key = str(message.id[0])
            forms = [str(s) for s in message.string] if message.string else []
            if all(forms):
                messages[_keyed(message.context, key)] = forms
        elif message.string:
            messages[_keyed(message.context, str(message.id))] = str(message.string)
    return {
        "lang": lang,
        "pseudo": False,
        "plurals": catalog.num_plurals,
        "languages": LANGUAGES,
        "messages": messages,
    }


def _keyed(context: str | None, message: str) -> str:
    return message if context is None else f"{context}\x04{message}"


# -- words typed as commands ---------------------------------------------------------------

COMMAND_WORDS: tuple[Text, ...] = (
    # TRANSLATORS: a word a player types to end their turn (one word, lower case)
    lazy_context("command", "end"),
    lazy_context("command", "pass"),
    lazy_context("command", "exchange"),
    lazy_context("command", "challenge"),
    lazy_context("command", "stop"),
    lazy_context("command", "accept"),
    lazy_context("command", "decline"),
    lazy_context("command", "draw"),
    lazy_context("command", "penalty"),
    lazy_context("command", "resign"),
    lazy_context("command", "abort"),
    lazy_context("command", "undo"),
    lazy_context("command", "hint"),
    lazy_context("command", "help"),
    lazy_context("command", "quit"),
    lazy_context("command", "rules"),
    lazy_context("command", "save"),
    lazy_context("command", "explain"),
)
"""The words a player may type in the terminal, each also accepted in their language
(``fin`` for ``end`` in French); the notation itself (``I8=12``, ``diago``) is the same in
every language."""


COMMAND_SYNONYMS: tuple[Text, ...] = (
    # TRANSLATORS: other words a player may type to end their turn, besides the command
    # word "end" (lower case, separated by spaces; "end" itself if there are none): in
    # German "ende" besides "fertig"
    lazy_context("command, other words", "end"),
)
"""More words a player may type for a command (``ende`` for ``end`` in German): those
people try first, though the command word is another."""


def folded(word: str) -> str:
    """A typed word as compared with the words of a language: case and accents aside
    (``Échanger``, ``echanger`` and ``échanger`` are one word; ``si`` is ``sí``)."""
    decomposed = unicodedata.normalize("NFKD", word.strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def command_word(word: str, lang: str | None = None) -> str:
    """The English keyword of a command ``word`` typed in ``lang`` (the current language
    by default), case and accents aside: ``"passer"`` gives ``"pass"`` in French; any
    other word as it is."""
    lang = current() if lang is None else lang
    return _command_words(lang).get(folded(word), word)


@functools.cache
def _command_words(lang: str) -> dict[str, str]:
    """Every command word of ``lang`` folded, to its English keyword: made once per
    language (each typed action is read through it: issue 34, the CPU per action). The
    command words win over the synonyms, as a player reads them first."""
    words: dict[str, str] = {}
    for text in COMMAND_SYNONYMS:
        for synonym in folded(text.render(lang)).split():
            words[synonym] = text.message
    for text in reversed(COMMAND_WORDS):  # the first of two equal words wins
        words[folded(text.render(lang))] = text.message
    return words


def typed_command(line: str, lang: str | None = None) -> str:
    """A typed line with its first word, if a command word of the reader's language,
    written as the English keyword the notation reads (``échanger 3,5`` → ``exchange
    3,5``); the rest of the line as typed."""
    stripped = line.strip()
    first, _space, rest = stripped.partition(" ")
    keyword = command_word(first, lang) if first else first
    if keyword == first:
        return line
    return f"{keyword} {rest}".rstrip() if rest else keyword


def shown_command(text: str) -> str:
    """An action in notation as a player of the current language types it: its keywords
    in their words (``exchange 3,5`` → ``échanger 3,5``), cells and values as they are."""
    return re.sub(r"\b[a-z]+\b", lambda m: command_name(m[0]), text)


def command_name(keyword: str) -> str:
    """A command keyword in the current language (``end`` → ``fin``)."""
    for text in COMMAND_WORDS:
        if text.message == keyword:
            return str(text)
    return keyword
