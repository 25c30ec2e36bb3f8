"""Players' names (issue 30, finding 4): what a person may be called, and when two names
are one, so that nobody passes for another player, a computer or the site.

A name is kept NFKC-normalized (``"Ａｎｎ"`` is ``"Ann"``), with single spaces between
its words and none at its ends, and must be 2 to 24 characters of letters (any script's,
with at most two combining marks on one), digits (of one numbering system), ``_``, ``-``
and spaces: no invisible, format or bidi characters, and no letters of scripts that are
not written together (Latin with Cyrillic, say; Japanese mixes Han, kana and Latin, and
may). :func:`check` says which rule a name breaks (:class:`NameRefused`).

Two names are one when their keys (:func:`key`) are equal: the Unicode TR39 confusable
skeleton (:func:`skeleton`, from the data the ``confusable-homoglyphs`` package ships) of
the case-folded skeleton, so "Cоmputer" (a Cyrillic o) is "Computer", "ADA" is "ada",
"Ⅰan" is "lan". A database keeps each held name's key in a unique column.

Reserved (:func:`reserved`), in every language the site speaks: a computer player's name
("Computer (strong)", "Ordinateur (fort)"...) and any name holding the word for a computer
or for a guest ("Guest", "Invité"...), and "admin", "system" and their kin, whatever their
case or look-alike letters. Guests get generated names ("Guest 4821937"), which nobody else
may take.

Pure functions of their text: no database, no request.
"""

from __future__ import annotations

import bisect
import json
import unicodedata
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

from mathable.ai import BOTS, level_name
from mathable.engine.validation import FieldError, text
from mathable.i18n import LANGUAGES, Text, _, language, lazy, lazy_plural


def shown(name: str, limit: int = 40) -> str:
    """A name as a refusal quotes it: as typed (accents and all: user text is shown
    exactly), but each character that would show nothing or turn the text (controls,
    format, bidi, separators other than the space) written as its code point, and cut
    short past ``limit``."""
    out = []
    for char in name[:limit]:
        kind = unicodedata.category(char)
        visible = char == " " or not (
            kind[0] in "CZM" or _ignorable(ord(char)) or ord(char) in BIDI_CONTROLS
        )
        out.append(char if visible else f"<U+{ord(char):04X}>")
    return "'" + "".join(out) + ("…" if len(name) > limit else "") + "'"


MIN_LENGTH = 2
MAX_LENGTH = 24
"""A name's bounds, in characters (after normalization)."""
MAX_MARKS = 2
"""The most combining marks on one letter (Devanagari needs two; a zalgo stack more)."""
PUNCTUATION = frozenset("_- ")
"""The characters allowed beside letters and digits."""

RESERVED_WORDS = ("admin", "administrator", "moderator", "system", "root", "mathable")
"""Words no name may hold, beside the computer's and the guest's in every language."""

SCRIPTS_TOGETHER: tuple[frozenset[str], ...] = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),  # Japanese
    frozenset({"LATIN", "HAN", "HANGUL"}),  # Korean
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),  # Chinese
)
"""Scripts a name may mix (TR39's "highly restrictive" level); any other name holds
letters of one script only."""

DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt): characters
drawn as nothing, such as U+200B ZERO WIDTH SPACE and U+3164 HANGUL FILLER (a "letter")."""

BIDI_CONTROLS = frozenset([0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])
"""The characters that change the direction of the text around them (a right-to-left
override shows "resu" as "user")."""


class NameRefused(FieldError):
    """A name that breaks a rule: ``rule`` names which (``"invisible"``, ``"bidi"``,
    ``"control"``, ``"characters"``, ``"marks"``, ``"length"``,
    ``"scripts"``, ``"digits"``, ``"reserved"``), the message says it to a person."""

    def __init__(self, field: str, rule: str, problem: str | Text) -> None:
        super().__init__(field, problem)
        self.rule = rule

    def __reduce__(self) -> tuple[object, ...]:
        return (NameRefused, (self.field, self.rule, self.problem))


# -- Unicode data ----------------------------------------------------------------------


def _data(name: str) -> Any:
    return json.loads(resources.files("confusable_homoglyphs").joinpath(name).read_text("utf-8"))


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype (TR39's confusables.txt). The package keeps
    the pairs both ways; each class is a star around its prototype, the one element
    paired with several (of a lone pair, the longer, else the smaller code point)."""
    pairs: dict[str, set[str]] = {}
    for source, homoglyphs in _data("confusables.json").items():
        a = source.replace("\u200e", "")
        for glyph in homoglyphs:
            b = str(glyph["c"]).replace("\u200e", "")
            if a != b:
                pairs.setdefault(a, set()).add(b)
                pairs.setdefault(b, set()).add(a)
    table: dict[str, str] = {}
    for element, others in pairs.items():
        if len(element) != 1 or len(others) != 1:
            continue  # a sequence, or the centre of a star: a prototype, mapped to itself
        (other,) = others
        if len(pairs[other]) == 1 and (len(other), -ord(other[0])) < (1, -ord(element)):
            continue  # a pair: the longer is the prototype, else the smaller code point
        table[element] = other
    return table


@cache
def _scripts() -> tuple[list[int], list[tuple[int, int, str]]]:
    data = _data("categories.json")
    aliases: list[str] = data["iso_15924_aliases"]
    ranges = [(int(r[0]), int(r[1]), aliases[r[2]]) for r in data["code_points_ranges"]]
    return [r[0] for r in ranges], ranges


def script(char: str) -> str:
    """The script of ``char`` (``LATIN``, ``CYRILLIC``; ``COMMON`` for digits and
    punctuation, ``INHERITED`` for combining marks, ``UNKNOWN`` when unassigned).

    >>> script("a"), script("а"), script("1")
    ('LATIN', 'CYRILLIC', 'COMMON')
    """
    starts, ranges = _scripts()
    found = bisect.bisect_right(starts, ord(char)) - 1
    if found >= 0 and ranges[found][0] <= ord(char) <= ranges[found][1]:
        return ranges[found][2]
    return "UNKNOWN"


def skeleton(text: str) -> str:
    """The TR39 skeleton of ``text``: each character replaced by its prototype, between
    two NFD decompositions. Two texts that look alike have one skeleton.

    >>> skeleton("Cоmputer") == skeleton("Computer")
    True
    """
    table = _prototypes()
    mapped = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


@cache
def _classes() -> dict[str, str]:
    """Each character that looks like, or is the other case of, another by its class's
    representative: the prototypes' classes joined across the cases of ASCII letters (an
    upper-case I looks like a lower-case l, and is an i whatever the case). Only ASCII
    case pairs join: other scripts' cases would chain unlike letters together."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    for char, prototype in _prototypes().items():
        if len(prototype) == 1:
            join(char, prototype)
    for code in range(ord("A"), ord("Z") + 1):
        join(chr(code), chr(code).lower())
    members: dict[str, list[str]] = {}
    for char in parent:
        members.setdefault(find(char), []).append(char)
    table: dict[str, str] = {}
    for group in members.values():
        # the representative: an ASCII lower-case letter if any, else the smallest
        best = min(group, key=lambda c: (not ("a" <= c <= "z"), not c.isascii(), ord(c)))
        table.update({c: best for c in group if c != best})
    return table


def key(name: str) -> str:
    """What makes two names one: look-alike letters, case, width and spacing aside (the
    skeleton of the case-folded skeleton, each character then its class's, so that
    "ADMIN", "admin" and "ADMlN" are one).

    >>> key("Ada  LOVELACE") == key("ada lovelace") == key("Аda Lovelace")
    True
    >>> key("ADMIN") == key("admin") == key("Admln")
    True
    """
    folded = skeleton(skeleton(unicodedata.normalize("NFKC", name)).casefold())
    classes = _classes()
    return " ".join("".join(classes.get(c, c) for c in folded).split())


# -- reserved names --------------------------------------------------------------------


def words(text: str) -> list[str]:
    """The words of a text: its runs of letters and their marks (a translated template
    with its placeholder left empty gives the computer's word in "Computer ({level})").

    >>> words("Dave (computer) 2")
    ['Dave', 'computer']
    """
    found: list[str] = []
    word = ""
    for char in text:
        if unicodedata.category(char)[0] in "LM":
            word += char
        elif word:
            found.append(word)
            word = ""
    return [*found, word] if word else found


@cache
def reserved_names() -> dict[str, str]:
    """Every reserved name and word by its key, as shown: each computer level's name and
    the computer's and the guest's word in each of the site's languages, and
    :data:`RESERVED_WORDS`."""
    found: dict[str, str] = {}
    for lang in LANGUAGES:
        with language(lang):
            # the same texts as the players' names (.standings.shown_name, .players)
            kept = [
                *words(_("Computer ({level})", level="")),
                *words(_("Guest {number}", number="")),
                *(_("Computer ({level})", level=level_name(level)) for level in BOTS),
            ]
        for word in kept:
            found.setdefault(key(word), word)
    for word in RESERVED_WORDS:
        found.setdefault(key(word), word)
    return found


def reserved(name: str) -> str | None:
    """The reserved name or word ``name`` is or holds (as shown), or None.

    >>> reserved("Ordinateur (fort)"), reserved("Guest 2258"), reserved("Ann")
    ('Ordinateur (fort)', 'Guest', None)
    """
    table = reserved_names()
    whole = key(name)
    if whole in table:
        return table[whole]
    for word in words(whole):
        if word in table:
            return table[word]
    return None


# -- the rules -------------------------------------------------------------------------


def _ignorable(code: int) -> bool:
    return any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


def _character_rule(char: str, name: str, field: str) -> None:
    """Refuse a character no name may hold, naming the rule it breaks."""
    code = ord(char)
    category = unicodedata.category(char)
    where = f"U+{code:04X}"
    if code in BIDI_CONTROLS:
        raise NameRefused(
            field,
            "bidi",
            # TRANSLATORS: U+202E is a character's code; it changes the text's direction
            lazy(
                "{name} holds {code}, which turns the text's direction",
                name=shown(name),
                code=where,
            ),
        )
    if category == "Cc":
        raise NameRefused(
            field, "control", lazy("{name} holds a control character", name=shown(name))
        )
    if _ignorable(code) or category in ("Cf", "Zl", "Zp"):
        raise NameRefused(
            field,
            "invisible",
            lazy(
                "{name} holds {code}, a character that shows nothing", name=shown(name), code=where
            ),
        )
    if char in PUNCTUATION or category[0] in "LM" or category == "Nd":
        return
    raise NameRefused(
        field,
        "characters",
        lazy(
            "{name} holds {char} ({code}): a name is letters, digits, _, - and single spaces",
            name=shown(name),
            char=shown(char),
            code=where,
        ),
    )


def normalized(name: str) -> str:
    """``name`` as it is kept: NFKC, one space between words and none at the ends.

    >>> normalized("  Ａｎｎ   Lee ")
    'Ann Lee'
    """
    return " ".join(part for part in unicodedata.normalize("NFKC", name).split(" ") if part)


def check(value: object, field: str = "name") -> str:
    """``value`` as a name to keep (:func:`normalized`), or :class:`NameRefused` naming
    the first rule it breaks. Reserved names are refused first (rule ``reserved``): a
    computer player's name is another player's, not a misspelt one.

    >>> check("  Zoë  ")
    'Zoë'
    """
    raw = text(value, field)
    if any(0xD800 <= ord(c) <= 0xDFFF for c in raw):
        raise NameRefused(
            field, "characters", lazy("{name} holds a lone surrogate", name=shown(raw))
        )
    name = normalized(raw)
    taken = reserved(name)
    if taken is not None:
        raise NameRefused(
            field,
            "reserved",
            # TRANSLATORS: a name nobody may take, as "Guest" or "Computer (strong)"
            lazy(
                "{name} is or holds {reserved}, which is reserved",
                name=shown(name),
                reserved=shown(taken),
            ),
        )
    for char in name:
        _character_rule(char, name, field)
    _marks(name, field)
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise NameRefused(
            field,
            "length",
            lazy_plural(
                "{name} has {count} character: a name has {low} to {high}",
                "{name} has {count} characters: a name has {low} to {high}",
                len(name),
                name=shown(name),
                low=MIN_LENGTH,
                high=MAX_LENGTH,
            ),
        )
    _one_script(name, field)
    _one_numbering(name, field)
    return name


def _marks(name: str, field: str) -> None:
    run = 0
    for index, char in enumerate(name):
        if unicodedata.category(char)[0] != "M":
            run = 0
            continue
        run += 1
        base = name[index - run] if index >= run else ""
        if not base or unicodedata.category(base)[0] != "L" or run > MAX_MARKS:
            raise NameRefused(
                field,
                "marks",
                lazy(
                    "{name}: at most {most} accents on a letter, and none elsewhere",
                    name=shown(name),
                    most=MAX_MARKS,
                ),
            )


def scripts_of(name: str) -> set[str]:
    """The scripts of the letters of ``name`` (common and inherited ones aside)."""
    return {script(c) for c in name if unicodedata.category(c)[0] == "L"} - {
        "COMMON",
        "INHERITED",
    }


def _one_script(name: str, field: str) -> None:
    found = scripts_of(name)
    if len(found) <= 1 or any(found <= together for together in SCRIPTS_TOGETHER):
        return
    raise NameRefused(
        field,
        "scripts",
        lazy(
            "{name} mixes letters of {scripts}, which look alike: use one alphabet",
            name=shown(name),
            scripts=", ".join(sorted(s.title() for s in found)),
        ),
    )


def _one_numbering(name: str, field: str) -> None:
    zeros = {ord(c) - unicodedata.digit(c) for c in name if unicodedata.category(c) == "Nd"}
    if len(zeros) > 1:
        raise NameRefused(
            field,
            "digits",
            lazy("{name} mixes digits of several kinds: use one", name=shown(name)),
        )


def first_refusal(names: Iterable[object]) -> list[str | None]:
    """Each name's broken rule (None: accepted): for counting refusals in tests and
    benchmarks."""
    rules: list[str | None] = []
    for name in names:
        try:
            check(name)
        except NameRefused as exc:
            rules.append(exc.rule)
        else:
            rules.append(None)
    return rules
