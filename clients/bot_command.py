"""``tavli bot``: a bot of this machine that plays on a server for an account."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from tavli.clients import bots

PROGRAM = "tavli bot"
KEY_VARIABLE = "TAVLI_API_KEY"


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "bot",
        help="play an account's games on a server with one of this machine's bots",
        description="Play an account's games on a server with one of this machine's bots. With --ladder,"
        " the account joins the server's ladder and the bot plays every game it is paired in or"
        " challenged to, for as long as it runs (Ctrl-C stops it).",
    )
    parser.add_argument("--ladder", action="store_true", help="join the ladder (a bot account's key)")
    parser.add_argument(
        "--key",
        default=os.environ.get(KEY_VARIABLE),
        help=f"the account's API key (tavli accounts create prints it); without it, ${KEY_VARIABLE}"
        " (which other users of the machine cannot read off the process list)",
    )
    parser.add_argument("--server", default="127.0.0.1:50051", help="host:port (default: %(default)s)")
    parser.add_argument(
        "--bot", default="heuristic", choices=bots.NAMES, help="which bot (default: %(default)s)"
    )
    parser.add_argument("--games", type=int, help="stop after this many games have ended (default: never)")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    from tavli.clients.client import TavliServerError
    from tavli.clients.ladder_bot import LadderBot
    from tavli.server import logs

    if not arguments.ladder:
        print(f"{PROGRAM}: say --ladder: the bot plays the ladder's games", file=sys.stderr)
        return 2
    if not arguments.key:
        print(f"{PROGRAM}: say --key KEY or set ${KEY_VARIABLE}: the account's API key", file=sys.stderr)
        return 2
    logs.configure()  # the bot's log lines go to standard error, as the server's do
    bot = LadderBot(arguments.server, arguments.key, arguments.bot, games=arguments.games)
    try:
        return bot.run()
    except TavliServerError as error:
        print(f"{PROGRAM}: {error.message} ({error.reason})", file=sys.stderr)
        return 1
