"""Players' names (issue 30, finding 4): hostile names refused naming the rule they break,
look-alikes of existing players' names refused, reserved names refused in every language,
guests' names unique; accepted names NFKC-stable and within bounds (a property)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import column, insert, select, table, update
from sqlalchemy.exc import IntegrityError

from mathable.ai import BOTS, bot_player_id
from mathable.i18n import LANGUAGES, _, language
from mathable.online import names
from mathable.web.infra.db import make_engine, migrate, parse_url, players
from mathable.web.infra.errors import ServiceError
from mathable.web.infra.store import EventStore
from mathable.web.players.players import PlayerStore, name_key
from mathable.web.ratings.standings import shown_name
from support.migrations import upgrade_to

PASSWORD = "correct horse battery"

HOSTILE: list[tuple[str, str, str]] = [
    # (what it is, the name, the rule it breaks)
    ("zero-width space", "Ann\u200bLee", "invisible"),
    ("Hangul filler, an invisible letter", "\u3164\u3164", "invisible"),
    ("Hangul filler beside a name", "Bob\u3164", "invisible"),
    ("soft hyphen", "Ro\u00adbert", "invisible"),
    ("zero-width joiner", "Ro\u200dbert", "invisible"),
    ("word joiner", "Ro\u2060bert", "invisible"),
    ("variation selector", "Robert\ufe0f", "invisible"),
    ("byte order mark", "\ufeffRobert", "invisible"),
    ("tag characters", "Robert\U000e0041", "invisible"),
    ("right-to-left override", "Bob\u202eresu", "bidi"),
    ("left-to-right mark", "\u200eRobert", "bidi"),
    ("isolate", "Bob\u2067x\u2069", "bidi"),
    ("stack of combining marks", "Zalgo" + "\u0301\u0302\u0303\u0304", "marks"),
    ("combining mark on nothing", "\u0301Ann", "marks"),
    ("Cyrillic letter among Latin ones", "Pаypal", "scripts"),
    ("Greek letter among Latin ones", "Ηelen", "scripts"),
    ("Cyrillic and Greek", "Оλга", "scripts"),
    ("newline", "Ann\nLee", "control"),
    ("NUL", "Ann\x00", "control"),
    ("lone surrogate", "Ann\ud800", "characters"),
    ("emoji", "Ann😀", "characters"),
    ("markup", "<b>Ann</b>", "characters"),
    ("private use", "Ann\ue000", "characters"),
    ("one character", "A", "length"),
    ("blank", "   ", "length"),
    ("25 characters", "A" * 25, "length"),
    ("digits of two kinds", "Ann1٢", "digits"),
    ("what French readers see for the strong computer", "Ordinateur (fort)", "reserved"),
    ("a Cyrillic o in a computer's name", "Cоmputer (expert)", "reserved"),
    ("a person as a computer", "Dave (computer)", "reserved"),
    ("another guest's name", "Guest 2258", "reserved"),
    ("a guest in German", "Gast 12", "reserved"),
    ("admin, upper case", "ADMIN", "reserved"),
    ("system in bold mathematical letters", "𝐬𝐲𝐬𝐭𝐞𝐦", "reserved"),
    ("the computer in full width", "Ｃｏｍｐｕｔｅｒ", "reserved"),
    ("a zero for an o", "C0mputer", "reserved"),
]

ACCEPTED = [
    "Ann",
    "Zoë",
    "Ann Lee",
    "Ann_Lee-2",
    "Dıana",
    "İbrahim",
    "Ольга",
    "Ελένη",
    "हिन्दी",
    "山田太郎",
    "やまだ Taro",
    "김민준",
    "عمر",
    "שרה",
    "Ng",
    "X" * 24,
]


@pytest.mark.parametrize(("what", "name", "rule"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_names_are_refused_naming_the_rule(what: str, name: str, rule: str) -> None:
    with pytest.raises(names.NameRefused) as refused:
        names.check(name)
    assert refused.value.rule == rule, what
    message = str(refused.value)
    assert message.startswith("field 'name': ")
    # the message says what is wrong, and shows the name as typed but for every character
    # that shows nothing, joins or turns the text, written as its code point
    assert all(c == " " or unicodedata.category(c)[0] not in "CZM" for c in message), message
    assert "\u202e" not in message and "\x00" not in message and "\u1160" not in message


def test_the_table_counts_at_least_18_kinds_and_every_rule() -> None:
    assert len(HOSTILE) >= 18
    assert {rule for *_, rule in HOSTILE} == {
        "invisible",
        "bidi",
        "marks",
        "scripts",
        "control",
        "characters",
        "length",
        "digits",
        "reserved",
    }


@pytest.mark.parametrize("name", ACCEPTED)
def test_names_of_every_script_are_accepted(name: str) -> None:
    assert names.check(name) == name


def test_names_are_kept_normalized() -> None:
    assert names.check("  Ａｎｎ   Lee ") == "Ann Lee"
    assert names.check("Zoe\u0308") == "Zoë"  # composed
    assert names.check("Ⅻ Ann") == "XII Ann"


# -- a property ----------------------------------------------------------------------------

TRICKY = "\u200b\u3164\u202e\u0301\u00ad\ufeff\u2067 \u3000_-'()0١аoοＡ𝐀ﬁ"


@settings(max_examples=400, deadline=None)
@given(
    st.text(
        alphabet=st.one_of(
            st.characters(codec="utf-8"),
            st.sampled_from(TRICKY),
            st.characters(min_codepoint=0x41, max_codepoint=0x7A),
        ),
        max_size=40,
    )
)
def test_every_accepted_name_is_nfkc_stable_and_within_bounds(typed: str) -> None:
    try:
        name = names.check(typed)
    except names.NameRefused as exc:
        assert exc.rule in {
            "invisible",
            "bidi",
            "marks",
            "scripts",
            "control",
            "characters",
            "length",
            "digits",
            "reserved",
        }
        return
    assert unicodedata.normalize("NFKC", name) == name
    assert names.MIN_LENGTH <= len(name) <= names.MAX_LENGTH
    assert name == name.strip() and "  " not in name
    assert names.check(name) == name  # a kept name passes again, unchanged
    assert names.key(name) == names.key(typed)
    assert len(names.scripts_of(name)) <= 4


# -- reserved in every language ------------------------------------------------------------


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_reserved_names_in_all_six_languages_are_refused(lang: str) -> None:
    with language(lang):
        shown = [shown_name(bot_player_id(level), "", "bot") for level in BOTS]
        guest = _("Guest {number}", number=4821)
    assert len(shown) == len(BOTS) >= 4
    for name in [*shown, guest, guest.upper(), shown[0].replace("o", "о")]:
        with pytest.raises(names.NameRefused) as refused:
            names.check(name)
        assert refused.value.rule == "reserved", name
    for word in ("Computer", "admin", "System"):
        assert names.reserved(word) is not None


# -- in the database: look-alikes, guests, old names ----------------------------------------


@pytest.fixture
def store(database_url: str) -> Iterator[PlayerStore]:
    events = EventStore(database_url)
    try:
        found = PlayerStore(events)
        found.ensure_bots()
        yield found
    finally:
        events.close()


def account(store: PlayerStore, name: str) -> str:
    guest = store.new_guest()
    return store.register(guest.id, name, PASSWORD).id


LOOK_ALIKES = [
    ("Diana", "DIANA"),
    ("Diana", "Dıana"),  # Turkish dotless i
    ("Diana", "Ｄｉａｎａ"),  # full width
    ("Pope", "Роре"),  # every letter Cyrillic
    ("ABE", "ΑΒΕ"),  # every letter Greek
    ("Kim", "Kirn"),  # rn for m
    ("Ilya", "llya"),  # l for I
    ("Olga", "0lga"),  # zero for O
    ("Ann Lee", "ann  lee"),
]


@pytest.mark.parametrize(("held", "like"), LOOK_ALIKES)
def test_look_alikes_of_existing_accounts_are_refused(
    store: PlayerStore, held: str, like: str
) -> None:
    owner = account(store, held)
    other = store.new_guest()
    attempts: list[Callable[[], object]] = [
        lambda: store.register(other.id, like, PASSWORD),
        lambda: store.rename(other.id, like),
    ]
    for attempt in attempts:
        with pytest.raises(ServiceError) as refused:
            attempt()
        assert refused.value.status == 409 and "taken" in str(refused.value)
    assert store.rename(owner, like).name == names.normalized(like)  # one's own name


def test_a_guest_may_not_take_another_guests_name(store: PlayerStore) -> None:
    first, second = store.new_guest(), store.new_guest()
    assert store.rename(first.id, "Robin").name == "Robin"
    with pytest.raises(ServiceError) as refused:
        store.rename(second.id, "ROBIN")
    assert refused.value.status == 409
    with pytest.raises(ServiceError) as refused:  # nor an account
        store.register(second.id, "Robin", PASSWORD)
    assert refused.value.status == 409
    with pytest.raises(ServiceError) as refused:  # nor the other's generated name
        store.rename(first.id, second.name)
    assert refused.value.status == 409 and "reserved" in str(refused.value)


def test_guests_names_are_drawn_from_millions_and_never_repeat(
    store: PlayerStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    numbers = iter([4_821_937, 4_821_937, 5_555_555])
    monkeypatch.setattr(
        "mathable.web.players.players.secrets.randbelow", lambda n: next(numbers) % n
    )
    first = store.new_guest()
    second = store.new_guest()  # the same number drawn: drawn again
    assert first.name == "Guest 5821937" and second.name == "Guest 6555555"
    monkeypatch.undo()
    drawn = {store.new_guest().name for _ in range(20)}
    assert all(len(name) == len("Guest 1234567") for name in drawn) and len(drawn) == 20


def test_old_accounts_whose_names_are_now_refused_still_log_in(store: PlayerStore) -> None:
    digest = store.hasher.hash(PASSWORD)
    with store.store.writing() as connection:  # made before the rules (no look-alike key)
        for player_id, name in (("old-1", "Zalgo\u0301\u0302\u0303"), ("old-2", "A")):
            connection.execute(
                insert(players).values(
                    id=player_id,
                    name=name,
                    name_key=name_key(name),
                    password_hash=digest,
                    kind="person",
                    created=1.0,
                )
            )
    assert store.login("a", PASSWORD).id == "old-2"
    assert store.login("Zalgo\u0301\u0302\u0303", PASSWORD).id == "old-1"
    with pytest.raises(ServiceError) as refused:  # a rename must pass the rules
        store.rename("old-2", "B")
    assert refused.value.status == 400 and "2 to 24" in str(refused.value)
    assert store.rename("old-2", "Abe").name == "Abe"
    assert store.login("abe", PASSWORD).id == "old-2"


def test_the_look_alike_key_is_unique_in_the_database(store: PlayerStore) -> None:
    owner = account(store, "Cleo")
    other = store.new_guest()
    with pytest.raises(IntegrityError), store.store.writing() as connection:
        connection.execute(
            update(players)
            .where(players.c.id == other.id)
            .values(name="Cleo", name_skeleton=names.key("Cleo"))
        )
    assert store.get(owner) is not None


def test_names_tried_and_refused_are_counted() -> None:
    tried = [name for _, name, _ in HOSTILE] + ACCEPTED + [like for _, like in LOOK_ALIKES]
    rules = names.first_refusal(tried)
    refused = sum(rule is not None for rule in rules)
    assert refused == len(HOSTILE)  # the look-alikes pass the rules: the database refuses
    print(f"names tried {len(tried)}, refused by the rules {refused}")


def test_the_migration_gives_old_players_their_key_the_oldest_first(database_url: str) -> None:
    engine = make_engine(parse_url(database_url))
    try:
        with engine.begin() as connection:
            upgrade_to(connection, "0011")
            old = _players_0011()
            for player_id, name, key, created in (
                ("older", "Olga", "olga", 1.0),
                ("newer", "0lga", "0lga", 2.0),  # looks like Olga: made after, no key
                ("guest", "Guest 1234", None, 3.0),
            ):
                connection.execute(
                    insert(old).values(
                        id=player_id, name=name, name_key=key, kind="person", created=created
                    )
                )
        migrate(engine)
        with engine.connect() as connection:
            rows = connection.execute(select(players.c.id, players.c.name_skeleton))
            found = {row.id: row.name_skeleton for row in rows}
        assert found == {"older": names.key("Olga"), "newer": None, "guest": None}
    finally:
        engine.dispose()


def _players_0011() -> Any:
    """The players table as revision 0011 had it (no look-alike key)."""
    return table(
        "players",
        column("id"),
        column("name"),
        column("name_key"),
        column("kind"),
        column("created"),
    )
