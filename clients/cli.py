"""The ``tavli`` command: one entry point whose subcommands grow with the project."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from clients import plays_command, serve_command


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``tavli`` command; returns the process exit status."""
    parser = argparse.ArgumentParser(prog="tavli", description="A rules server for backgammon and long nardi.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    plays_command.add_parser(commands)
    serve_command.add_parser(commands)
    arguments = parser.parse_args(argv)
    try:
        return int(arguments.run(arguments))
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
