"""The translations (issue 17): catalogs complete and up to date with the code, the
language chosen as documented, texts translated when shown."""

from __future__ import annotations

import pickle

import pytest
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

from mathable import i18n
from mathable.i18n import messages

TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]


def _catalog(lang: str):  # type: ignore[no-untyped-def]
    with i18n.catalog_path(lang).open("rb") as source:
        return read_po(source, locale=lang, domain=i18n.DOMAIN)


def test_six_languages_each_with_its_catalog() -> None:
    assert list(i18n.LANGUAGES) == ["en", "fr", "es", "de", "it", "nl"]
    for lang in TRANSLATED:
        assert i18n.catalog_path(lang).exists(), lang


@pytest.fixture(scope="module")
def extracted() -> set[tuple[str | None, str]]:
    return messages.message_ids(messages.extract())


def test_the_catalogs_hold_every_text_of_the_code(extracted: set[tuple[str | None, str]]) -> None:
    """A text marked in the code but missing from the catalogs (make messages not run),
    or a catalog entry no code uses any more, fails here."""
    assert len(extracted) > 100
    with messages.TEMPLATE.open("rb") as source:
        template = messages.message_ids(read_po(source))
    assert sorted(extracted - template, key=str) == [], "run make messages"
    assert sorted(template - extracted, key=str) == [], "run make messages"
    for lang in TRANSLATED:
        assert messages.message_ids(_catalog(lang)) == extracted, lang


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_text_is_translated_in_every_catalog(lang: str) -> None:
    """No empty or fuzzy entry: the closing note's 100% per language."""
    catalog = _catalog(lang)
    missing = []
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(forms):
            missing.append(message.id)
    assert missing == [], f"{lang}: {len(missing)} texts not translated"
    assert catalog.num_plurals == 2  # the page's nt() relies on it (i18n.js)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_their_placeholders(lang: str) -> None:
    """A translation that drops or renames a {placeholder} would lose a value."""
    field = i18n._FIELD
    wrong = []
    for message in _catalog(lang):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(field.findall(ids[-1])) | set(field.findall(ids[0]))
        for string in strings:
            if not set(field.findall(string)) <= wanted | {"count"}:
                wrong.append((ids[0], string))
            if len(ids) == 1 and set(field.findall(string)) != wanted:
                wrong.append((ids[0], string))
    assert wrong == []


def test_a_text_is_translated_when_shown() -> None:
    text = i18n.lazy("{cell} is off the board", cell="Z99")
    assert str(text) == "Z99 is off the board"
    with i18n.language(i18n.PSEUDO):
        assert str(text) == "⟦Z99 is off the board⟧"
        nested = i18n.lazy("refused: {reason}", reason=text)
        assert str(nested) == "⟦refused: ⟦Z99 is off the board⟧⟧"
    assert i18n.current() == i18n.DEFAULT
    assert pickle.loads(pickle.dumps(text)) == text  # texts cross to worker processes


@given(st.text(max_size=30))
def test_values_are_inserted_as_typed(name: str) -> None:
    """A name with braces or placeholders in it is shown exactly as typed."""
    assert i18n._("{name} to move", name=name) == f"{name} to move"
    with i18n.language(i18n.PSEUDO):
        assert i18n._("{name} to move", name=name) == f"⟦{name} to move⟧"


@pytest.mark.parametrize("count", [0, 1, 2, 5])
def test_plural_forms(count: int) -> None:
    shown = i18n.ngettext("{count} token", "{count} tokens", count)
    assert shown == (f"{count} token" if count == 1 else f"{count} tokens")


@pytest.mark.parametrize(
    ("header", "chosen"),
    [
        ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr"),
        ("de;q=0.5, nl;q=0.9", "nl"),
        ("pt-BR, es;q=0.4", "es"),
        ("pt-BR", None),
        ("it;q=0, en", "en"),
        ("", None),
        ("en_GB", "en"),
        ("nl;q=abc, de", "de"),
    ],
)
def test_accept_language_is_negotiated(header: str, chosen: str | None) -> None:
    assert i18n.negotiate(header) == chosen


@given(st.text(max_size=200))
def test_any_accept_language_is_read_without_error(header: str) -> None:
    assert i18n.negotiate(header) in (None, *i18n.LANGUAGES)


@pytest.mark.parametrize(
    ("environ", "chosen"),
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "es_ES.UTF-8"}, "es"),
        ({"LANG": "fr_FR.UTF-8", "LC_ALL": "C"}, "en"),
        ({"LANGUAGE": "pt:nl", "LANG": "fr_FR"}, "nl"),
        ({"LANGUAGE": "pt", "LANG": "it_IT.UTF-8"}, "it"),
        ({}, "en"),
    ],
)
def test_the_terminal_language_comes_from_the_environment(
    environ: dict[str, str], chosen: str
) -> None:
    assert i18n.from_environment(environ) == chosen


def test_command_words_are_read_in_the_players_language() -> None:
    assert i18n.typed_command("pass") == "pass"
    with i18n.language(i18n.PSEUDO):
        assert i18n.typed_command("⟦exchange⟧ 3,5") == "exchange 3,5"
        assert i18n.typed_command("I8=12") == "I8=12"
        assert i18n.command_name("end") == "⟦end⟧"
    assert i18n.folded("Sí") == i18n.folded("si") == "si"
    assert i18n.command_word("ÉCHANGER", "fr") == "exchange"
    assert i18n.command_word("echanger", "fr") == "exchange"
    with i18n.language("fr"):
        assert i18n.typed_command("échanger 3,5") == "exchange 3,5"
    for lang in TRANSLATED:
        words = [text.render(lang).casefold() for text in i18n.COMMAND_WORDS]
        assert len(set(words)) == len(words), f"{lang}: two commands share a word"
        for text in i18n.COMMAND_WORDS:
            assert " " not in text.render(lang).strip(), (lang, text.render(lang))
            assert i18n.command_word(text.render(lang), lang) == text.message


def test_the_page_catalog_has_every_translation() -> None:
    for lang in TRANSLATED:
        exported = i18n.catalog_json(lang)
        assert exported["lang"] == lang and exported["plurals"] == 2
        catalog = _catalog(lang)
        assert len(exported["messages"]) == sum(1 for m in catalog if m.id)
    assert i18n.catalog_json(i18n.PSEUDO)["pseudo"] is True


def test_a_stored_text_is_shown_in_each_readers_language() -> None:
    """A game's end reason kept in the database reads in the language of whoever reads
    it later (the history of a player), nested texts and plurals included."""
    reason = i18n.lazy(
        "{name} resigned: {why}",
        name="Zoé {x}",
        why=i18n.lazy_plural("{count} token", "{count} tokens", 3),
    )
    kept = i18n.stored(reason)
    assert i18n.from_stored(kept) == "Zoé {x} resigned: 3 tokens"
    with i18n.language(i18n.PSEUDO):
        assert i18n.from_stored(kept) == "⟦Zoé {x} resigned: ⟦3 tokens⟧⟧"
    assert i18n.from_stored("Bob resigned") == "Bob resigned"  # kept before issue 17
    assert i18n.from_stored('{"text": broken') == '{"text": broken'
