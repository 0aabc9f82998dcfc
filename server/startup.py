"""What can stop a server from starting, said in one line.

A server that cannot start should say why in words a person can act on (``port 50051 on
127.0.0.1 is in use``), not with a traceback, and never start somewhere else instead: gRPC picks
a random port when given one out of range. :class:`StartupError` carries that line; the checks
here find the usual causes before anything is started, so that the supervisor of several worker
processes can report them itself rather than watch its workers fail one after another.
"""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path

LOWEST_PORT = 0  # 0: the system picks a free port
HIGHEST_PORT = 65_535
SQLITE_HEADER = b"SQLite format 3\x00"


def host_port(host: str, port: int) -> str:
    """``host:port`` as gRPC and URLs take it: an IPv6 address in brackets (``[::1]:50051``)."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{host}:{port}"


class StartupError(Exception):
    """The server cannot start; the message says why, in one line, without the program's name."""


def check_port(port: int) -> None:
    """:raises StartupError: if ``port`` is not a TCP port number (0 picks a free one)."""
    if not LOWEST_PORT <= port <= HIGHEST_PORT:
        raise StartupError(f"port {port} is out of range {LOWEST_PORT}-{HIGHEST_PORT}")


def check_port_free(host: str, port: int) -> None:
    """Check that a server could listen on ``host:port`` now, by binding it and letting it go.

    Nothing may listen there, not even another process sharing the port with SO_REUSEPORT (a
    server of an earlier run that was never stopped, say): the probe does not set it. A port
    bound by no one but in TIME_WAIT is free, as it is for gRPC. Port 0 is always free.

    :raises StartupError: if the host does not resolve, or no address of it can be bound.
    """
    check_port(port)
    if port == 0:
        return
    address = host_port(host, port)
    try:
        # gRPC takes "[::1]" for an IPv6 address; the resolver takes it bare.
        candidates = socket.getaddrinfo(
            host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as error:
        why = f"the host does not resolve ({error.strerror})"
        raise StartupError(f"cannot listen on {address}: {why}") from None
    failures: list[OSError] = []
    for family, kind, protocol, _, socket_address in candidates:
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(socket_address)
            except OSError as error:
                if error.errno == errno.EADDRINUSE:
                    raise StartupError(f"port {port} on {host} is already in use") from None
                failures.append(error)
    # gRPC serves if it can bind any of the host's addresses (localhost without IPv6, say).
    if failures and len(failures) == len(candidates):
        raise StartupError(f"cannot listen on {address}: {failures[0].strerror}")


def check_database(path: Path) -> None:
    """Check, without opening it, that ``path`` can be a server's SQLite database: a file (or
    nothing yet, in a directory that exists) that the server may read and write, and that starts
    as SQLite files do. Whether its contents are sound is for the store to check when it opens it.

    :raises StartupError: saying what is wrong with the path.
    """
    if path.is_dir():
        raise StartupError(f"the database {path} is a directory, not a file")
    if not path.exists():
        directory = path.parent
        if not directory.is_dir():
            raise StartupError(f"cannot make the database {path}: the directory {directory} does not exist")
        if not os.access(directory, os.W_OK | os.X_OK):
            raise StartupError(f"cannot make the database {path}: no permission to write in {directory}")
        return
    try:
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as error:
        raise StartupError(f"cannot open the database {path}: {error.strerror}") from None
    if header and header != SQLITE_HEADER:  # an empty file is an empty database to SQLite
        raise StartupError(f"the database {path} is not an SQLite database")
    if not os.access(path, os.W_OK):
        raise StartupError(f"the database {path} is read-only")


def check_tls_files(certificate: Path, key: Path) -> None:
    """:raises StartupError: if the certificate chain or its key cannot be read as PEM files."""
    for what, path in (("TLS certificate", certificate), ("TLS key", key)):
        try:
            text = path.read_bytes()
        except OSError as error:
            raise StartupError(f"cannot read the {what} {path}: {error.strerror}") from None
        if b"-----BEGIN " not in text:
            raise StartupError(f"the {what} {path} is not a PEM file")
