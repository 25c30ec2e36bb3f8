"""The database behind the event store: its URL, engine, tables and migrations.

One schema on SQLite (the embedded default, a file) and PostgreSQL (several server
processes, several machines), written with SQLAlchemy Core; PostgreSQL is reached through
psycopg 3. The schema is kept by Alembic migrations shipped inside the package
(``migrations/``), run when a store opens, so a database made by an older version
(SQLite files from before Alembic included) upgrades in place.

A URL is only ever shown with its password hidden (:func:`shown`): in messages, logs
and errors alike.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    Table,
    Text,
    create_engine,
    event,
    inspect,
    text,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError
from sqlalchemy.pool import ConnectionPoolEntry, StaticPool

from mathable.engine.errors import MathableError

MIGRATIONS = Path(__file__).with_name("migrations")
HEAD = "0016"
"""The newest migration: a database at this revision needs no Alembic run."""

EXAMPLES = "sqlite:///mathable.db or postgresql://user:password@host:5432/database"
CHANNEL = "mathable_events"
"""The PostgreSQL ``NOTIFY`` channel of the change feed."""

MIGRATION_LOCK = 0x6D617468
"""The PostgreSQL advisory lock taken while migrating (two processes starting at once)."""

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", Text, primary_key=True),
    Column("created", Float, nullable=False),
    Column("spec", Text, nullable=False),
    Column("seats", Text, nullable=False),
    Column("stamp", BigInteger, nullable=False, server_default=text("0")),
    Column("fingerprint", Text),
    Column("running_clock", Boolean, nullable=False, server_default=text("false")),
    Index("ix_games_created", "created"),
    Index("ix_games_stamp", "stamp"),
    Index("ux_games_fingerprint", "fingerprint", unique=True),
    Index("ix_games_running_clock", "running_clock"),
)
"""A game's creation row. ``stamp`` is a store-wide counter raised when the row changes
(a claimed seat), so the SQLite change feed sees the change. ``fingerprint``: the
record a game was made from (its canonical JSON's SHA-256), one game per record.
``running_clock``: the game has a clock and has not ended (the clock timers resume these
only)."""

events = Table(
    "events",
    metadata,
    Column("game_id", Text, ForeignKey("games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("action", Text, nullable=False),
    Column("seat", Integer),
    Column("created", Float, nullable=False),
)
"""One row per action; the primary key (game, seq) lets one writer only take a number."""

analyses = Table(
    "analyses",
    metadata,
    Column("game_id", Text, ForeignKey("games.id"), primary_key=True),
    Column("actions", Integer, primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("depth", Text, primary_key=True),
    Column("report", Text, nullable=False),
    Column("created", Float, nullable=False),
)
"""A finished game's analysis (JSON), by the number of actions it covers, the version of
the analysis that made it and the depth it judged at (``expert``, ``master``): computed
once, by whichever process is asked first, and kept across restarts."""


players = Table(
    "players",
    metadata,
    Column("id", Text, primary_key=True),
    Column("name", Text, nullable=False),
    Column("name_key", Text),
    Column("password_hash", Text),
    Column("kind", Text, nullable=False),
    Column("created", Float, nullable=False),
    Column("name_skeleton", Text),
    Index("ux_players_name_key", "name_key", unique=True),
    Index("ux_players_name_skeleton", "name_skeleton", unique=True),
)
"""Everyone who plays (issue 15): a guest (no ``password_hash``), an account (a name
and an argon2 hash) or a computer player (``kind`` ``bot``). ``name_key``, the case-folded
name, is set for accounts and bots only: their names are unique whatever the case, and an
account logs in by it. ``name_skeleton`` (issue 30, :func:`.names.key`): the name's
look-alike key, held by every player made or renamed since, guests too, so that no two
look alike."""

login_failures = Table(
    "login_failures",
    metadata,
    Column("name_key", Text, primary_key=True),
    Column("failures", Integer, nullable=False),
    Column("since", Float, nullable=False),
    Column("lockouts", Integer, nullable=False),
    Column("locked_until", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_login_failures_updated", "updated"),
)
"""Failed log-ins per account name (issue 30, :mod:`.guessing`), whether the name exists
or not: ``failures`` since ``since`` (the window's start), locked until ``locked_until``
after too many, ``lockouts`` so far (each lasts twice the one before)."""

settings = Table(
    "settings",
    metadata,
    Column("key", Text, primary_key=True),
    Column("value", Text, nullable=False),
)
"""Values every server process over the database shares, made once: the key that signs
the session cookies (``secret_key``)."""


seeks = Table(
    "seeks",
    metadata,
    Column("id", Text, primary_key=True),
    Column("owner", Text, nullable=False),
    Column("owner_name", Text, nullable=False),
    Column("spec", Text, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("joined", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("game_id", Text),
    Column("created", Float, nullable=False),
    Index("ix_seeks_status_created", "status", "created"),
    Index("ix_seeks_owner", "owner"),
)
"""The lobby's seeks (issue 15, "Lobby", :mod:`.lobby`): a game offered by its ``owner``
(``spec``: its game, seats, computer seats, house rules and clock, JSON), the players who
joined it so far (``joined``, JSON, in seat order: the owner first), ``open`` until every
person's seat is taken (then ``started``, with its ``game_id``) or ``cancelled``."""


chat = Table(
    "chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", Text, ForeignKey("games.id"), nullable=False),
    Column("room", Text, nullable=False),
    Column("player_id", Text),
    Column("name", Text, nullable=False),
    Column("seat", Integer),
    Column("text", Text, nullable=False),
    Column("created", Float, nullable=False),
    Column("hidden", Boolean, nullable=False, server_default=text("false")),
    Index("ix_chat_game_room_id", "game_id", "room", "id"),
)
"""A game's chat (issue 15, "Chat", :mod:`.chat`): one row per message, in the
``players`` or ``spectators`` room, by its author's player id (None: unknown) and the name
shown, the seat in the players' room; ``hidden`` by a moderator. Not game state: never in
the event log."""

reports = Table(
    "reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", Text, ForeignKey("games.id"), nullable=False),
    Column("message_id", Integer, ForeignKey("chat.id")),
    Column("reporter", Text, nullable=False),
    Column("reason", Text, nullable=False),
    Column("created", Float, nullable=False),
)
"""A report of a chat message (or of a game, ``message_id`` None) for a moderator."""


game_players = Table(
    "game_players",
    metadata,
    Column("game_id", Text, ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", Text, ForeignKey("players.id"), nullable=False),
    Index("ix_game_players_player", "player_id", "game_id"),
)
"""Who sits at a game (issue 15, "Players"): a seat bound to a player (a person's cookie
or account, or a computer player's ``bot-<level>``) once taken; a player's games by the
index."""

bot_games = Table(
    "bot_games",
    metadata,
    Column("game_id", Text, primary_key=True),
    Column("player_id", Text),
    Column("address", Text),
    Column("all_computer", Boolean, nullable=False),
    Column("created", Float, nullable=False),
    Index("ix_bot_games_player", "player_id"),
    Index("ix_bot_games_address", "address"),
)
"""A game with a computer seat, by who made it (issue 30, :mod:`.botshare`): the creator's
player id and a keyed hash of their address (never the address itself), whether every
seat is a computer's. Made before the game (no foreign key: a claim for a game about to
be stored), and deleted once the game has a result or has gone quiet."""

sessions = Table(
    "sessions",
    metadata,
    Column("id", Text, primary_key=True),
    Column("player_id", Text, ForeignKey("players.id"), nullable=False),
    Column("created", Float, nullable=False),
    Column("last_seen", Float, nullable=False),
    Column("user_agent", Text, nullable=False),
    Index("ix_sessions_player", "player_id"),
    Index("ix_sessions_last_seen", "last_seen"),
)
"""A session kept on the server (issue 30, :mod:`.sessions`): one per log-in, sign-up or
guest's first write; the session cookie holds its signed ``id`` and nothing else. Logging
out deletes it; ``last_seen`` (raised at most once a minute) ends it 30 days later."""

results = Table(
    "results",
    metadata,
    Column("game_id", Text, ForeignKey("games.id"), primary_key=True),
    Column("variant", Text, nullable=False),
    Column("pace", Text, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("finished", Float, nullable=False),
    Column("reason", Text, nullable=False),
    Column("scores", Text, nullable=False),
    Column("ranks", Text, nullable=False),
    Index("ix_results_finished", "finished"),
)
"""A finished game's result, written once when it ends (the first writer wins):
``pace`` (live, correspondence, untimed), ``scores`` and ``ranks`` per seat (JSON; rank 1
is first), the end ``reason`` as shown. The histories and the ratings read it."""

ratings = Table(
    "ratings",
    metadata,
    Column("player_id", Text, ForeignKey("players.id"), primary_key=True),
    Column("game", Text, primary_key=True),
    Column("pace", Text, primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_ratings_board", "game", "pace", "rating"),
)
"""A player's Glicko-2 rating per game and pace (:mod:`mathable.online.ratings`)."""

rating_changes = Table(
    "rating_changes",
    metadata,
    Column("game_id", Text, ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", Text, ForeignKey("players.id"), nullable=False),
    Column("before", Float, nullable=False),
    Column("after", Float, nullable=False),
    Column("deviation_before", Float, nullable=False),
    Column("deviation_after", Float, nullable=False),
)
"""What a rated game changed: each seat's rating before and after (shown at its end)."""

presence = Table(
    "presence",
    metadata,
    Column("game_id", Text, ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("process", Text, primary_key=True),
    Column("seen", Float, nullable=False),
    Column("connected", Boolean, nullable=False),
    Column("since", Float, nullable=False),
)
"""Whether a seat's player has the game open, one row per server process that had a
socket of the seat (:mod:`.presence`): ``connected`` while one is open there, ``since``
the instant that last changed, ``seen`` its last heartbeat (a process that stops beating
is gone: its sockets with it)."""


bot_accounts = Table(
    "bot_accounts",
    metadata,
    Column("player_id", Text, ForeignKey("players.id"), primary_key=True),
    Column("token_hash", Text),
    Column("created", Float, nullable=False),
    Column("token_created", Float),
    Index("ux_bot_accounts_token_hash", "token_hash", unique=True),
)
"""An account turned into a bot account (issue 36, :mod:`mathable.web.players.botaccounts`): its API
token's SHA-256 only (None once revoked), shown once when made."""

challenges = Table(
    "challenges",
    metadata,
    Column("id", Text, primary_key=True),
    Column("challenger", Text, nullable=False),
    Column("challenger_name", Text, nullable=False),
    Column("dest", Text, nullable=False),
    Column("dest_name", Text, nullable=False),
    Column("spec", Text, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("status", Text, nullable=False),
    Column("game_id", Text),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_challenges_dest_updated", "dest", "updated"),
    Index("ix_challenges_challenger_updated", "challenger", "updated"),
    Index("ix_challenges_status_created", "status", "created"),
)
"""A challenge from one player to another by name (issue 36, :mod:`mathable.web.lobby.challenges`):
``spec`` its game and clock (JSON), ``status`` created, accepted (its ``game_id``),
declined, canceled or expired; ``updated`` when it last changed (the event streams read
the changes since their last look)."""


puzzle_ratings = Table(
    "puzzle_ratings",
    metadata,
    Column("puzzle_id", Text, primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)
"""A shipped puzzle's Glicko-2 rating (issue 18), made at its band's start on its first
rated attempt (:mod:`.puzzleratings`)."""

puzzle_solvers = Table(
    "puzzle_solvers",
    metadata,
    Column("player_id", Text, ForeignKey("players.id"), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)
"""An account's puzzle rating (issue 18), a pool of its own beside the games' ratings."""

puzzle_attempts = Table(
    "puzzle_attempts",
    metadata,
    Column("player_id", Text, ForeignKey("players.id"), primary_key=True),
    Column("puzzle_id", Text, primary_key=True),
    Column("solved", Boolean, nullable=False),
    Column("before", Float, nullable=False),
    Column("after", Float, nullable=False),
    Column("puzzle_before", Float, nullable=False),
    Column("puzzle_after", Float, nullable=False),
    Column("created", Float, nullable=False),
)
"""An account's first, rated attempt of a puzzle: one per player and puzzle (the key),
so two processes checking the same first attempt at once rate it once."""


kept_games = Table(
    "kept_games",
    metadata,
    Column("id", Text, primary_key=True),
    Column("created", Float, nullable=False),
    Column("spec", Text, nullable=False),
    Column("token_hash", Text, nullable=False),
)
"""A game on a real board kept by the score keeper (issue 37, :mod:`mathable.web.keeper`):
its setup (``spec``: variant, players, who starts, house rules; JSON) and the SHA-256 of
the token that enters its turns. Apart from ``games``: it has no seed, seats or clock,
and nothing that lists, rates or resumes games should ever meet it."""

kept_entries = Table(
    "kept_entries",
    metadata,
    Column("game_id", Text, ForeignKey("kept_games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("entry", Text, nullable=False),
    Column("turn_id", Text),
    Column("created", Float, nullable=False),
    Index("ux_kept_entries_turn", "game_id", "turn_id", unique=True),
)
"""A kept game's event log: one entry per line entered (``I8=12 J8=16+``, ``pass``,
``undo``…), the primary key (game, seq) letting one writer only take a number, and the
client's ``turn_id`` unique per game, so a turn sent twice (a queue replayed after a lost
connection) is stored once."""


tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Text, primary_key=True),
    Column("created", Float, nullable=False),
    Column("spec", Text, nullable=False),
    Column("organizer", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("private", Boolean, nullable=False),
    Column("starts", Float),
    Column("updated", Float, nullable=False),
    Index("ix_tournaments_status_created", "status", "created"),
    Index("ix_tournaments_organizer", "organizer"),
)
"""A tournament (issue 38, :mod:`mathable.web.tournaments`): its spec (JSON, as
:func:`~mathable.online.tournaments.model.Spec` holds it), the player who organizes it,
and, kept beside its log for the lists only, its ``status`` (upcoming, running, paused,
finished), whether it is ``private`` (never listed: joined by its link), its planned
start (``starts``, None: when the organizer starts it) and when it last changed."""

tournament_events = Table(
    "tournament_events",
    metadata,
    Column("tournament_id", Text, ForeignKey("tournaments.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", Text, nullable=False),
    Column("data", Text, nullable=False),
    Column("at", Float, nullable=False),
)
"""A tournament's event log (joined, paired, linked, result…, each as ``event_to_json``
writes it): the primary key (tournament, seq) lets one writer only take a number, so two
processes never pair a round twice."""

tournament_boards = Table(
    "tournament_boards",
    metadata,
    Column("tournament_id", Text, ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("game_id", Text),
    Column("claimed", Float, nullable=False),
)
"""Who creates a paired board's game: the process that inserts the row (the key lets one
only), which notes the game it made; a claim left without a game (its process died) may
be taken over once stale."""


class DatabaseError(MathableError):
    """A database URL that cannot be used, or a database that cannot be opened. The
    message is one line and never shows a password."""


def parse_url(database_url: str) -> URL:
    """The SQLAlchemy URL of ``DATABASE_URL``: ``sqlite:///file`` (``sqlite://``: in
    memory; no options after ``?``, which the driver would ignore) or ``postgresql://``
    (also ``postgresql+psycopg://``), anything else refused."""
    try:
        url = make_url(database_url)
    except (ArgumentError, ValueError, TypeError):
        raise DatabaseError(f"DATABASE_URL is not a database URL: write {EXAMPLES}") from None
    backend, _, driver = url.drivername.partition("+")
    if backend == "sqlite" and driver in ("", "pysqlite"):
        if url.query:  # the driver would ignore them with a warning: the file is not that
            raise DatabaseError(
                f"DATABASE_URL={shown(url)}: a SQLite URL takes no options after '?' "
                f"({', '.join(sorted(url.query))}): write {EXAMPLES}"
            )
        return url.set(drivername="sqlite")
    if backend == "postgresql" and driver in ("", "psycopg"):
        if not url.database:
            raise DatabaseError(f"DATABASE_URL={shown(url)} names no database: write {EXAMPLES}")
        return url.set(drivername="postgresql+psycopg")
    raise DatabaseError(
        f"DATABASE_URL={shown(url)}: {url.drivername!r} databases are not supported: "
        f"write {EXAMPLES}"
    )


def shown(url: URL) -> str:
    """The URL as it may be printed: the password hidden."""
    return url.render_as_string(hide_password=True)


def shown_database_url(database_url: str) -> str:
    """``DATABASE_URL`` as it may be printed, as written but for the password (hidden);
    a URL that cannot be used is refused (:func:`parse_url`)."""
    parse_url(database_url)
    return shown(make_url(database_url))


def is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"


def in_memory(url: URL) -> bool:
    """``sqlite://`` or ``sqlite:///:memory:``: a database that lives as long as its store."""
    return is_sqlite(url) and url.database in (None, "", ":memory:")


def reason(exc: BaseException, url: URL | None = None) -> str:
    """A database error in one line, without SQLAlchemy's decorations or the password."""
    cause = exc.orig if isinstance(exc, SQLAlchemyError) and hasattr(exc, "orig") else exc
    lines = [line.strip() for line in str(cause).splitlines() if line.strip()]
    message = "; ".join(line for line in lines if not line.startswith("(Background"))
    if url is not None and url.password:
        message = message.replace(str(url.password), "***")
    return message or type(cause).__name__


def is_unique_violation(exc: IntegrityError) -> bool:
    """Whether an insert failed on a taken key (not on another constraint)."""
    orig = exc.orig
    if isinstance(orig, sqlite3.IntegrityError):
        return "UNIQUE" in str(orig) or "PRIMARY KEY" in str(orig)
    return getattr(orig, "sqlstate", None) == "23505"  # PostgreSQL's unique_violation


def _sqlite_connect(connection: Any, _: ConnectionPoolEntry) -> None:
    """Each SQLite connection: transactions under SQLAlchemy's control (the driver's own
    would not begin before a read), write-ahead log, durable commits."""
    connection.isolation_level = None
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    """``BEGIN`` (``BEGIN IMMEDIATE`` with the ``immediate`` option: take the write lock
    before reading, as migrating does when two processes start at once, and as every
    writing transaction of the store does); none with the ``single`` option (one read
    statement, a transaction by itself: the driver is in autocommit mode)."""
    options = connection.get_execution_options()
    if options.get("single", False):
        return
    statement = "BEGIN IMMEDIATE" if options.get("immediate", False) else "BEGIN"
    driver = connection.connection.driver_connection
    try:  # on the driver's connection: SQLAlchemy's way round costs more than the insert
        # that follows (every action's event, issue 34), and it adds nothing to a BEGIN
        driver.execute(statement)  # type: ignore[union-attr]
    except sqlite3.Error:  # again through SQLAlchemy: its error, its handling of a lost
        connection.exec_driver_sql(statement)  # connection (or, now, its success)


def make_engine(url: URL) -> Engine:
    """The engine for a parsed URL (:func:`parse_url`)."""
    if is_sqlite(url):
        if in_memory(url):
            engine = create_engine(
                url, poolclass=StaticPool, connect_args={"check_same_thread": False}
            )
        else:
            Path(str(url.database)).parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    connect_args = {} if "connect_timeout" in url.query else {"connect_timeout": 10}
    return create_engine(url, pool_pre_ping=True, connect_args=connect_args)


def psycopg_arguments(url: URL) -> dict[str, Any]:
    """The keyword arguments of ``psycopg.connect`` for a PostgreSQL URL (the change
    feed listens on a connection of its own, outside the pool)."""
    arguments: dict[str, Any] = {
        "host": url.host,
        "port": url.port,
        "user": url.username,
        "password": url.password,
        "dbname": url.database,
        "connect_timeout": 10,
    }
    arguments.update({key: value for key, value in url.query.items() if isinstance(value, str)})
    return {key: value for key, value in arguments.items() if value is not None}


def revision(connection: Connection) -> str | None:
    """The Alembic revision of the database (None: never migrated, or empty)."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    found = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    return None if found is None else str(found)


@contextmanager
def _migrating(engine: Engine) -> Iterator[Connection]:
    """A connection in a transaction that holds the migration lock: SQLite's write lock
    (``BEGIN IMMEDIATE``), or a PostgreSQL advisory lock, so two processes starting at
    once migrate one after the other."""
    with engine.connect() as connection:
        if is_sqlite(engine.url):
            connection = connection.execution_options(immediate=True)
        with connection.begin():
            if not is_sqlite(engine.url):
                connection.execute(
                    text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK}
                )
            yield connection


def migrate(engine: Engine) -> None:
    """Bring the database to the newest schema (:data:`HEAD`), in one transaction."""
    with engine.connect() as connection:
        if revision(connection) == HEAD:
            return
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with _migrating(engine) as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def run_migrations() -> None:
    """The body of ``migrations/env.py``: migrate on the connection :func:`migrate`
    handed over (in its transaction), or on ``sqlalchemy.url`` when run by the
    ``alembic`` command."""
    from alembic import context

    connection = context.config.attributes.get("connection")
    if connection is None:  # the alembic command line: a URL from its configuration
        url = parse_url(context.config.get_main_option("sqlalchemy.url") or "")
        with _migrating(make_engine(url)) as own:
            context.configure(connection=own, target_metadata=metadata)
            with context.begin_transaction():
                context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()
