"""``tavli serve``: run the rules server."""

from __future__ import annotations

import argparse
import sys
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
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="serve with this many processes on one port (needs a fixed --port and a --db file)",
    )
    parser.add_argument("--log-json", action="store_true", help="log JSON lines even on a terminal")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    from server import logs
    from server.app import ServerConfig, serve

    if bool(arguments.tls_cert) != bool(arguments.tls_key):
        print("tavli serve: give both --tls-cert and --tls-key, or neither", file=sys.stderr)
        return 2
    if arguments.workers < 1:
        print("tavli serve: --workers is at least 1", file=sys.stderr)
        return 2
    if arguments.workers > 1 and (arguments.port == 0 or arguments.db == ":memory:"):
        print("tavli serve: --workers needs a fixed --port and a --db file the workers share", file=sys.stderr)
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
            workers=arguments.workers,
        )
    )
    return 0
