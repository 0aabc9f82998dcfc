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


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server's ``postgres`` database for the tests to use."""
    given = os.environ.get("TAVLI_TEST_POSTGRES")
    if given:
        yield given
        return
    folder = Path(tempfile.mkdtemp(prefix="tavli-postgres-"))
    data = folder / "data"
    owner = pwd.getpwnam("postgres")
    os.chown(folder, owner.pw_uid, owner.pw_gid)
    port = free_port()
    as_postgres = ["runuser", "-u", "postgres", "--"]
    try:
        subprocess.run(
            [*as_postgres, str(BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8"],
            check=True,
            capture_output=True,
            timeout=120,
        )
        options = f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={folder} -c fsync=on"
        subprocess.run(
            [*as_postgres, str(BIN / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "-t", "60", "start"],
            check=True,
            capture_output=True,
            timeout=90,
        )
        try:
            yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
        finally:
            subprocess.run(
                [*as_postgres, str(BIN / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "-t", "60", "stop"],
                capture_output=True,
                timeout=90,
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def fresh_database(url: str) -> str:
    """A new, empty database on the server at ``url``; the URL that names it."""
    import psycopg

    name = f"tavli_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + "/" + name
