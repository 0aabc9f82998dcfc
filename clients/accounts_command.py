"""``tavli accounts``: the operator's commands for the accounts of a server's database."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tavli.clients.serve_command import add_database_arguments, database

PROGRAM = "tavli accounts"


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "accounts",
        help="create, list and revoke the accounts of a server's database",
        description="Create, list and revoke the accounts players and bots act for (LadderService)."
        " Works on the database a server uses, running or not.",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    create = actions.add_parser(
        "create", help="create an account and print its API key (the last line; shown only this once)"
    )
    create.add_argument(
        "handle", metavar="HANDLE", help="3 to 24 letters, digits, '-' or '_', a letter first"
    )
    create.add_argument("--bot", action="store_true", help="a bot's account (rated on the bots' ladder)")
    create.add_argument("--name", default="", help="the name to show (default: the handle)")
    listing = actions.add_parser("list", help="list the accounts")
    revoke = actions.add_parser("revoke", help="revoke every API key of an account")
    revoke.add_argument("handle", metavar="HANDLE")
    key = actions.add_parser("key", help="make another API key for an account and print it")
    key.add_argument("handle", metavar="HANDLE")
    for action in (create, listing, revoke, key):
        add_database_arguments(action)
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    from tavli.server.accounts import Accounts
    from tavli.server.app import open_store
    from tavli.server.errors import ServiceError
    from tavli.server.startup import StartupError

    db = database(arguments.db)
    if db is None:
        print(f"{PROGRAM}: accounts are kept in a database: name its --db", file=sys.stderr)
        return 2
    try:
        store, server_key = open_store(db, arguments.key_file)
    except StartupError as error:
        print(f"{PROGRAM}: {error}", file=sys.stderr)
        return 2
    accounts = Accounts(store, server_key)
    try:
        if arguments.action == "create":
            account, api_key = accounts.create(
                arguments.handle, arguments.name, "bot" if arguments.bot else "human"
            )
            print(f"created {account.kind} account {account.handle} ({account.display_name}); its API key:")
            print(api_key)
        elif arguments.action == "list":
            for account in store.accounts():
                member = " ladder" if account.ladder_member else ""
                print(f"{account.handle}\t{account.kind}{member}\t{account.display_name}")
        elif arguments.action == "revoke":
            print(f"revoked {accounts.revoke(arguments.handle)} key(s) of {arguments.handle.lower()}")
        else:
            print(accounts.new_key(arguments.handle))
    except ServiceError as error:
        print(f"{PROGRAM}: {error.message}", file=sys.stderr)
        return 1
    finally:
        store.close()
    return 0
