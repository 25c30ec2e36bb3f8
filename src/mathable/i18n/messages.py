"""The catalogs' upkeep with Babel (``make messages``): extract the texts of the code and
the page's modules into ``mathable.pot``, update every language's catalog from it, and
compile them; ``--compile`` only compiles (the install step).

The marking functions are listed once, here (:data:`KEYWORDS`), for the extraction and
for the test that checks the catalogs are up to date with the code.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from mathable.i18n import _FIELD, DOMAIN, LANGUAGES, LOCALE_DIR, catalog_path

KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "lazy": None,
    "lazy_plural": (1, 2),
    "lazy_context": ((1, "c"), 2),
    "t": None,
    "nt": (1, 2),
    "pt": ((1, "c"), 2),
}
"""Python's ``_ ngettext pgettext lazy lazy_plural lazy_context`` and the page's
``t nt pt``, with the arguments that are the message (``c``: its context)."""

PACKAGE = LOCALE_DIR.parent
METHODS = [("**.py", "python"), ("web/static/**.js", "javascript"), ("**", "ignore")]
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"


def extract() -> Catalog:
    """Every marked text of the package, with where it is and its translators' notes."""
    catalog = Catalog(project="mathable", domain=DOMAIN, fuzzy=False)
    found = extract_from_dir(
        str(PACKAGE),
        method_map=METHODS,
        keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    )
    for filename, lineno, message, comments, context in found:
        where = f"src/mathable/{filename}"
        catalog.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    return catalog


def message_ids(catalog: Iterable[object]) -> set[tuple[str | None, str]]:
    """The (context, text) of each message of a catalog, its header left out."""
    ids: set[tuple[str | None, str]] = set()
    for message in catalog:
        msgid = getattr(message, "id", "")
        if not msgid:
            continue
        text = msgid[0] if isinstance(msgid, tuple) else msgid
        ids.add((getattr(message, "context", None), str(text)))
    return ids


def _write(path: Path, catalog: Catalog) -> None:
    with path.open("wb") as out:
        write_po(out, catalog, width=0, sort_by_file=True, include_lineno=False)


def update() -> None:
    """Write the template and bring every language's catalog up to date with it."""
    template = extract()
    template.creation_date = datetime.now(UTC)
    _write(TEMPLATE, template)
    for lang in LANGUAGES:
        if lang == "en":
            continue
        path = catalog_path(lang)
        if path.exists():
            with path.open("rb") as source:
                catalog = read_po(source, locale=lang, domain=DOMAIN)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=lang, domain=DOMAIN, project="mathable", fuzzy=False)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        _write(path, catalog)


def _translated(message: Message) -> bool:
    forms = message.string if isinstance(message.string, tuple) else (message.string,)
    return not message.fuzzy and all(forms)


def compile_all(verbose: bool = False) -> None:
    """Compile every catalog to its .mo (fuzzy and untranslated texts stay English)."""
    for lang in LANGUAGES:
        path = catalog_path(lang)
        if lang == "en" or not path.exists():
            continue
        with path.open("rb") as source:
            catalog = read_po(source, locale=lang, domain=DOMAIN)
        with path.with_suffix(".mo").open("wb") as out:
            write_mo(out, catalog)
        if verbose:
            done = sum(1 for m in catalog if m.id and _translated(m))
            total = sum(1 for m in catalog if m.id)
            print(f"{lang}: {done} of {total} messages translated")


def _key(message: Message) -> str:
    text = str(message.id[0] if isinstance(message.id, tuple) else message.id)
    return text if message.context is None else f"{message.context}\x04{text}"


def todo(lang: str) -> list[dict[str, object]]:
    """The texts of ``lang``'s catalog still to translate (empty or fuzzy), for a
    translator's tool: each with its key, English, plural, context and notes."""
    with catalog_path(lang).open("rb") as source:
        catalog = read_po(source, locale=lang, domain=DOMAIN)
    out: list[dict[str, object]] = []
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(forms):
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            entry: dict[str, object] = {"key": _key(message), "english": ids[0]}
            if len(ids) > 1:
                entry["plural"] = ids[1]
            if message.context:
                entry["context"] = message.context
            if message.auto_comments:
                entry["note"] = " ".join(message.auto_comments)
            entry["where"] = sorted({where for where, _line in message.locations})
            out.append(entry)
    return out


def fill_in(lang: str, translations: dict[str, str | list[str]]) -> list[str]:
    """Put ``translations`` (by key, a plural's as its list of forms) into ``lang``'s
    catalog; returns the problems (unknown keys, placeholders lost or invented), whose
    entries are left as they were."""
    path = catalog_path(lang)
    with path.open("rb") as source:
        catalog = read_po(source, locale=lang, domain=DOMAIN)
    by_key = {_key(m): m for m in catalog if m.id}
    problems: list[str] = []
    for key, given in translations.items():
        message = by_key.get(key)
        if message is None:
            problems.append(f"unknown key {key!r}")
            continue
        ids = [str(i) for i in message.id] if isinstance(message.id, tuple) else [str(message.id)]
        forms = [given] if isinstance(given, str) else list(given)
        if len(forms) != (catalog.num_plurals if len(ids) > 1 else 1) or not all(forms):
            problems.append(f"{key!r}: {len(forms)} forms")
            continue
        wanted = set(_FIELD.findall(ids[0])) | set(_FIELD.findall(ids[-1]))
        if len(ids) > 1:
            wanted.add("count")
        wrong = [f for f in forms if not set(_FIELD.findall(f)) <= wanted]
        if len(ids) == 1 and set(_FIELD.findall(forms[0])) != wanted:
            wrong = forms
        if wrong:
            problems.append(f"{key!r}: placeholders {sorted(wanted)} in {wrong!r}")
            continue
        message.string = forms[0] if len(ids) == 1 else tuple(forms)
        message.flags.discard("fuzzy")
    _write(path, catalog)
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mathable.i18n.messages")
    parser.add_argument("--compile", action="store_true", help="only compile the catalogs")
    parser.add_argument("--todo", metavar="LANG", help="print LANG's texts to translate (JSON)")
    parser.add_argument(
        "--fill",
        nargs=2,
        metavar=("LANG", "FILE"),
        help="put the translations of FILE (JSON: key to text, or to its plural forms) in",
    )
    args = parser.parse_args(argv)
    if args.todo:
        print(json.dumps(todo(args.todo), ensure_ascii=False, indent=1))
        return 0
    if args.fill:
        lang, name = args.fill
        problems = fill_in(lang, json.loads(Path(name).read_text(encoding="utf-8")))
        for problem in problems:
            print(problem, file=sys.stderr)
        compile_all(verbose=True)
        return 1 if problems else 0
    if not args.compile:
        update()
    compile_all(verbose=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
