"""``tavli serve``: run the rules server."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "serve",
        help="run the tavli gRPC server",
        description="Run the tavli gRPC server. Games are kept in SQLite (a file, nothing to install).",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=50051, help="port to listen on (default 50051; 0 picks one)")
    parser.add_argument("--db", default="tavli.sqlite3", help="SQLite file for games, or ':memory:' to keep none")
    parser.add_argument("--tls-cert", type=Path, help="PEM certificate chain, to serve TLS (with --tls-key)")
    parser.add_argument("--tls-key", type=Path, help="PEM private key of --tls-cert")
    parser.add_argument("--games-in-memory", type=int, default=10_000, help="games kept in memory at most")
    parser.add_argument("--max-message-bytes", type=int, default=4 * 1024 * 1024)
    parser.add_argument("--log-json", action="store_true", help="log JSON lines even on a terminal")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    from server import logs
    from server.app import ServerConfig, serve

    if bool(arguments.tls_cert) != bool(arguments.tls_key):
        print("tavli serve: give both --tls-cert and --tls-key, or neither")
        return 2
    logs.configure(json_lines=True if arguments.log_json else None)
    serve(
        ServerConfig(
            host=arguments.host,
            port=arguments.port,
            db=None if arguments.db == ":memory:" else Path(arguments.db),
            tls_cert=arguments.tls_cert,
            tls_key=arguments.tls_key,
            games_in_memory=arguments.games_in_memory,
            max_message_bytes=arguments.max_message_bytes,
        )
    )
    return 0
