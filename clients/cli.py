"""The ``tavli`` command: one entry point whose subcommands grow with the project."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Each subcommand is a module clients/<name>_command.py with add_parser(commands).
COMMANDS = ("accounts", "analyze", "arena", "bot", "check-match", "play", "plays", "serve")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``tavli`` command; returns the process exit status."""
    arguments_given = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="tavli", description="A rules server for the backgammon family of games."
    )
    parser.add_argument(
        "--version",
        action=_PrintVersion,
        nargs=0,
        help="print the version and which engine code runs (the compiled core or pure Python), and exit",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    # Only the command named is imported (a batch of `tavli plays` does not load gRPC); all of
    # them when none is, for the help and the error that lists them.
    named = arguments_given[0] if arguments_given and arguments_given[0] in COMMANDS else None
    for name in COMMANDS if named is None else (named,):
        importlib.import_module(f"tavli.clients.{name.replace('-', '_')}_command").add_parser(commands)
    arguments, unknown = parser.parse_known_args(arguments_given)
    if unknown:  # said with the command's own usage, not the list of commands
        commands.choices[arguments.command].error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        return int(arguments.run(arguments))
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


class _PrintVersion(argparse.Action):
    """``--version``: the package's version and the engine code in use."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        import importlib.metadata

        from tavli.engine import core

        print(f"tavli {importlib.metadata.version('tavli')}, engine: {core.IMPLEMENTATION}")
        parser.exit()


if __name__ == "__main__":
    sys.exit(main())
