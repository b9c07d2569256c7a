"""A throwaway PostgreSQL server for the tests of several processes.

Debian's server binaries (``/usr/lib/postgresql/*/bin``, the package
``postgresql``) are started on a fresh data directory, listening on a
free loopback port only; as root they run as the ``postgres`` account
the package creates. ``CROUPIER_TEST_POSTGRES`` may name a server to use
instead (a SQLAlchemy URL of a database that may create databases).

When no server can be started the tests that need one are skipped with
the reason, unless ``CROUPIER_REQUIRE_POSTGRES=1`` (set by ``make test``
and CI), which turns the skip into a failure: CI never skips silently.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

__all__ = ["TempPostgres", "postgres_or_skip"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


class TempPostgres:
    """A PostgreSQL server on a temporary data directory."""

    def __init__(self) -> None:
        bins = _bin_dir()
        if bins is None:
            msg = (
                "PostgreSQL server binaries not found (apt-get install "
                "postgresql)"
            )
            raise RuntimeError(msg)
        self.bins = bins
        self.port = _free_port()
        self.root = Path(tempfile.mkdtemp(prefix="croupier-pg-"))
        self.data = self.root / "data"
        self.user: str | None = None
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                msg = "running as root and there is no postgres account"
                raise RuntimeError(msg) from None
            self.user = "postgres"
            shutil.chown(self.root, user="postgres")
        self.root.chmod(0o700)

    def _run(self, *args: str) -> None:
        command = list(args)
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        result = subprocess.run(  # noqa: S603
            command, capture_output=True, text=True, check=False
        )
        if result.returncode != 0:
            msg = f"{args[0]} failed: {result.stderr.strip()[-500:]}"
            raise RuntimeError(msg)

    def start(self) -> None:
        """initdb, then start the server on loopback."""
        self._run(
            str(self.bins / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "croupier",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        )
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} "
            f"-c unix_socket_directories={self.root} -c fsync=off "
            "-c max_connections=200"
        )
        self._run(
            str(self.bins / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.root / "log"),
            "-o",
            options,
            "-w",
            "start",
        )

    def stop(self) -> None:
        """Stop the server and remove its files."""
        try:
            self._run(
                str(self.bins / "pg_ctl"),
                "-D",
                str(self.data),
                "-m",
                "immediate",
                "stop",
            )
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    @property
    def url(self) -> str:
        """URL of the server's ``postgres`` database."""
        return f"postgresql+psycopg://croupier@127.0.0.1:{self.port}/postgres"


def new_database(server_url: str) -> str:
    """A new, empty database on the server; its URL."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    engine = create_engine(server_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return server_url.rsplit("/", 1)[0] + f"/{name}"


def postgres_or_skip() -> Iterator[str]:
    """Yield a server URL for the session; skip (or fail) if impossible."""
    given = os.environ.get("CROUPIER_TEST_POSTGRES")
    if given:
        yield given
        return
    try:
        server = TempPostgres()
        server.start()
    except (RuntimeError, OSError) as exc:
        reason = f"PostgreSQL could not be started: {exc}"
        if os.environ.get("CROUPIER_REQUIRE_POSTGRES") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    try:
        yield server.url
    finally:
        server.stop()
