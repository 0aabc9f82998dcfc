"""The ``tavli`` command: one entry point whose subcommands grow with the project."""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import sys
from collections.abc import Sequence

from tavli.engine import core

# Each subcommand is a module clients/<name>_command.py with add_parser(commands).
COMMANDS = ("arena", "play", "plays", "serve")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``tavli`` command; returns the process exit status."""
    parser = argparse.ArgumentParser(
        prog="tavli", description="A rules server for backgammon and long nardi."
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"tavli {importlib.metadata.version('tavli')}, engine: {core.IMPLEMENTATION}",
        help="print the version and which engine code runs (the compiled core or pure Python), and exit",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"tavli.clients.{name}_command").add_parser(commands)
    arguments = parser.parse_args(argv)
    try:
        return int(arguments.run(arguments))
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
