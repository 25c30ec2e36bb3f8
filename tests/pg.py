"""A throw-away PostgreSQL cluster for the tests and the load benchmark: ``initdb`` into a
temporary folder, ``pg_ctl start`` on a free port of 127.0.0.1, a database per test (or
one for a benchmark), all removed after. The tests' cluster skips the disk flushes; the
benchmark's (``durable=True``) keeps PostgreSQL's defaults, so its commits cost what they
cost in production.

It uses Debian's ``postgresql`` package (``make test`` installs it): its binaries live in
``/usr/lib/postgresql/*/bin``. PostgreSQL refuses to run as root, so as root every
command runs as the ``postgres`` user (``runuser``). The cluster's superuser has a
password, so the URLs the tests use carry one (and the tests can check it never shows).
"""

from __future__ import annotations

import glob
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType

INSTALL = (
    "PostgreSQL is needed for the database tests and its initdb and pg_ctl were not "
    "found: `make test` installs Debian's postgresql (or: apt-get install postgresql)"
)
USER = "mathable"


class MissingPostgres(RuntimeError):
    """No PostgreSQL binaries on this machine."""


def bindir() -> Path:
    """The newest installed PostgreSQL's binaries (``initdb``, ``pg_ctl``)."""
    folders = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"),
        key=lambda f: [int(p) for p in Path(f).parent.name.split(".") if p.isdigit()],
    )
    for folder in reversed(folders):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    raise MissingPostgres(INSTALL)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """A running cluster on 127.0.0.1:``port``; :meth:`database` makes a fresh database."""

    def __init__(self, *, durable: bool = False, max_connections: int = 200) -> None:
        self.durable = durable
        self.max_connections = max_connections
        self.bin = bindir()
        self.root = os.geteuid() == 0
        self.password = "pw-" + secrets.token_hex(8)
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="mathable-pg-"))
        self.data = self.folder / "data"
        self.count = 0

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self.root else []
        done = subprocess.run(
            [*prefix, str(self.bin / command[0]), *command[1:]],
            capture_output=True,
            text=True,
            cwd=self.folder,
            timeout=120,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {(done.stdout + done.stderr)[-2000:]}")

    def start(self) -> Cluster:
        passwords = self.folder / "password"
        passwords.write_text(self.password + "\n")
        if self.root:
            try:
                shutil.chown(self.folder, "postgres", "postgres")
                shutil.chown(passwords, "postgres", "postgres")
            except LookupError:
                raise MissingPostgres(f"there is no postgres user: {INSTALL}") from None
        self._run(
            "initdb",
            *("-D", str(self.data), "-U", USER, "--pwfile", str(passwords)),
            *("-A", "scram-sha-256", "-E", "UTF8", "--no-locale", "--no-sync"),
        )
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
            f"-c max_connections={self.max_connections}"
        )
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(
            "pg_ctl",
            *("-D", str(self.data), "-l", str(self.folder / "server.log"), "-o", options),
            *("-w", "-t", "60", "start"),
        )
        return self

    def url(self, database: str) -> str:
        return f"postgresql://{USER}:{self.password}@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new, empty database; its URL (with the password)."""
        import psycopg

        self.count += 1
        name = f"test_{self.count}"
        with psycopg.connect(
            host="127.0.0.1",
            port=self.port,
            user=USER,
            password=self.password,
            dbname="postgres",
            autocommit=True,
        ) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def pid(self) -> int | None:
        """The PostgreSQL server's process id (its backends are its children)."""
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def stop(self) -> None:
        try:
            if self.data.exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Cluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()
