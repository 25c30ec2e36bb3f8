"""A real ``mathable serve`` process on a free port, for fault, browser and
multi-process tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import weakref
from pathlib import Path

import httpx2


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """Start, kill and restart the server on one database: a SQLite file (a path) or
    any ``DATABASE_URL`` (a text such as ``postgresql://…``), which several servers may
    share. ``env`` adds to the server's environment; :meth:`output` is what it wrote on
    stderr."""

    def __init__(
        self, database: Path | str, port: int | None = None, env: dict[str, str] | None = None
    ) -> None:
        self.database = database
        self.database_url = database if isinstance(database, str) else f"sqlite:///{database}"
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = env or {}
        self.process: subprocess.Popen[bytes] | None = None
        handle, name = tempfile.mkstemp(prefix="mathable-server-", suffix=".log")
        os.close(handle)
        self._log = Path(name)  # not a pipe: a chatty server never blocks
        weakref.finalize(self, self._log.unlink, missing_ok=True)

    def start(self) -> Server:
        env = {**os.environ, "DATABASE_URL": self.database_url, **self.env}
        code = "from mathable.cli.app import main; main()"
        with self._log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-c", code, "serve", "--port", str(self.port)],
                env=env,
                stdout=log,
                stderr=log,
            )
        deadline = time.monotonic() + 30
        with httpx2.Client(timeout=1) as polls:  # one client: each made its TLS set-up anew
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    break
                try:
                    if polls.get(self.url + "/api/bots").status_code == 200:
                        return self
                except httpx2.HTTPError:
                    time.sleep(0.1)
        raise RuntimeError(f"the server did not start: {self.output()[-2000:]}")

    def output(self) -> str:
        """What the server printed so far (stdout and stderr)."""
        return self._log.read_bytes().decode(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
            self.process = None
