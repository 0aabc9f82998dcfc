"""A real PostgreSQL server for the tests: the one ``TAVLI_TEST_POSTGRES`` names (a URL), else one
started here from the system's PostgreSQL 15 (initialised in a temporary folder, owned by the
``postgres`` user, listening on a free loopback port only, stopped at the end)."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

from tests.server_play import free_port

BIN = Path("/usr/lib/postgresql/15/bin")


def postgres_available() -> bool:
    """Whether a PostgreSQL server is named, or can be started here."""
    if os.environ.get("TAVLI_TEST_POSTGRES"):
        return True
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        return False
    return (BIN / "initdb").exists() and (BIN / "pg_ctl").exists() and os.geteuid() == 0


class PostgresServer:
    """A PostgreSQL server of the tests' own: its data in a temporary folder owned by the
    ``postgres`` user, listening on one free loopback port; it can be stopped and started again."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="tavli-postgres-"))
        owner = pwd.getpwnam("postgres")
        os.chown(self.folder, owner.pw_uid, owner.pw_gid)
        self.data = self.folder / "data"
        self.port = free_port()
        self._as_postgres(BIN / "initdb", "-D", self.data, "-A", "trust", "-U", "postgres", "-E", "UTF8")

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.folder}"
        )
        self._pg_ctl("-o", options, "-l", self.folder / "log", "start")

    def stop(self, mode: str = "fast") -> None:
        """Stop it: ``fast`` (sessions ended, as a restart does) or ``immediate`` (as a crash)."""
        self._pg_ctl("-m", mode, "stop")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError):
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _pg_ctl(self, *arguments: object) -> None:
        self._as_postgres(BIN / "pg_ctl", "-D", self.data, "-w", "-t", "60", *arguments)

    @staticmethod
    def _as_postgres(*command: object) -> None:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", *map(str, command)],
            check=True,
            capture_output=True,
            timeout=120,
        )


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server's ``postgres`` database for the tests to use: the one
    ``TAVLI_TEST_POSTGRES`` names, else one of the tests' own, removed at the end."""
    given = os.environ.get("TAVLI_TEST_POSTGRES")
    if given:
        yield given
        return
    with own_postgres_server() as server:
        yield server.url


@contextlib.contextmanager
def own_postgres_server() -> Iterator[PostgresServer]:
    """A started :class:`PostgresServer`, removed at the end (for tests that stop and start it)."""
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.remove()


def fresh_database(url: str) -> str:
    """A new, empty database on the server at ``url``; the URL that names it."""
    import psycopg

    name = f"tavli_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + "/" + name
