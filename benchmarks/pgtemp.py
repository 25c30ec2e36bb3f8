"""A throw-away PostgreSQL cluster for the load benchmark.

``initdb`` and ``pg_ctl`` in a temporary folder, on a free port of 127.0.0.1 with trust
authentication, one empty database; stopped and removed afterwards. As root the server
runs as the ``postgres`` user (PostgreSQL refuses to run as root), through ``runuser``.
The tests have their own fixture; this one is for benchmarks/load.py only.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def postgres_bindir() -> Path:
    """The folder of ``initdb``, ``pg_ctl`` and ``psql`` (Debian keeps them off the PATH)."""
    found = shutil.which("initdb")
    if found:
        return Path(os.path.realpath(found)).parent
    folders = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not folders:
        raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
    return Path(folders[-1])


class ThrowawayPostgres:
    """``with ThrowawayPostgres() as url:`` a running cluster and its database URL."""

    def __init__(self, database: str = "mathable", max_connections: int = 400) -> None:
        self.database = database
        self.max_connections = max_connections
        self.port = _free_port()
        self.bindir = postgres_bindir()
        self.folder: Path | None = None
        self.as_root = os.geteuid() == 0

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{self.database}"

    def _run(self, *command: str) -> None:
        """Run a PostgreSQL tool, as the postgres user when we are root."""
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_root else []
        done = subprocess.run(
            [*prefix, *command], capture_output=True, text=True, cwd=self.folder, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"{Path(command[0]).name} failed: {done.stderr.strip()[-2000:]}")

    def start(self) -> str:
        self.folder = Path(tempfile.mkdtemp(prefix="mathable-pg-"))
        if self.as_root:
            shutil.chown(self.folder, "postgres", "postgres")
        data = self.folder / "data"
        self._run(
            str(self.bindir / "initdb"),
            *("-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C"),
            "--no-sync",
        )
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
            f"-c max_connections={self.max_connections}"
        )
        self._run(
            str(self.bindir / "pg_ctl"),
            *("-D", str(data), "-l", str(self.folder / "server.log"), "-o", options),
            *("-w", "-t", "60", "start"),
        )
        self._run(
            str(self.bindir / "createdb"),
            *("-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", self.database),
        )
        return self.url

    def pid(self) -> int | None:
        """The PostgreSQL server's process id (its backends are its children)."""
        if self.folder is None:
            return None
        try:
            return int((self.folder / "data" / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def stop(self) -> None:
        if self.folder is None:
            return
        try:
            self._run(
                str(self.bindir / "pg_ctl"),
                *("-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop"),
            )
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def __enter__(self) -> str:
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
