"""``tavli serve``: run the rules server."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from tavli.engine.rules import RuleSet
from tavli.server.bot_seats import BOT_MATCH_POINTS, MONEY_GAMES
from tavli.server.ladder import LadderSettings
from tavli.server.limits import BATCH_ITEMS, FIELD_LIMITS, RequestLimits
from tavli.server.quotas import QuotaLimits
from tavli.server.startup import StartupError, check_database, check_port, check_port_free, check_tls_files
from tavli.server.web_limits import WebLimits

if TYPE_CHECKING:
    from tavli.server.app import ServerConfig

PROGRAM = "tavli serve"
# The per-client quotas that have a flag: (QuotaLimits field, its type, what it counts).
_QUOTA_FLAGS = (
    ("calls_per_second", float, "calls a second"),
    ("call_burst", int, "calls at once after a quiet spell"),
    ("concurrent_calls", int, "calls open at once"),
    ("streams_per_client", int, "open watches"),
    ("streams_per_game", int, "open watches of one game"),
    ("live_games_per_client", int, "games created and not over yet"),
    ("bots_per_client", int, "hosted bots (BotsService) playing for the client at once"),
    (
        "cpu_seconds_per_minute",
        float,
        (
            "seconds of CPU a minute spent checking its match records (ValidateMatch, ImportMatch), by "
            "its hosted bots and by the evaluators analysing its matches"
        ),
    ),
    ("checks_waiting_per_client", int, "match records waiting to be checked"),
    ("analyses_per_client", int, "whole matches analysed at once"),
    ("accounts_per_client_per_hour", float, "accounts made over the API an hour (--open-accounts)"),
)


DEFAULT_DB = "tavli.sqlite3"  # the games' SQLite file, beside where the server starts


def add_database_arguments(parser: argparse.ArgumentParser) -> None:
    """``--db`` and ``--key-file``: the games' database and the server key, as ``tavli serve`` and
    ``tavli accounts`` (which works on the database a server uses) both take them."""
    parser.add_argument(
        "--db",
        default=DEFAULT_DB,
        help="SQLite file for games, a postgresql://user@host:port/dbname URL (replicas share it),"
        " or ':memory:' to keep none (default: %(default)s)",
    )
    parser.add_argument(
        "--key-file",
        type=Path,
        help="the server key that seat tokens are derived from, made on first use; every server sharing"
        " the games shares it (default: the SQLite file's name with .key; needed with PostgreSQL)",
    )


def database(db: str) -> Path | str | None:
    """What ``--db`` names: nothing (memory), a PostgreSQL URL, or a SQLite file."""
    if db == ":memory:":
        return None
    return db if is_postgres_url(db) else Path(db)


def is_postgres_url(db: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database rather than a SQLite file."""
    return db.startswith(("postgresql://", "postgres://"))


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "serve",
        help="run the tavli gRPC server",
        description="Run the tavli gRPC server. Games are kept in SQLite (a file, nothing to install),"
        " or in PostgreSQL for replicas on several machines.",
    )
    _errors_in_one_line(parser)
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s)")
    parser.add_argument(
        "--port",
        type=_port_number,
        default=50051,
        help="port to listen on, 0 to pick a free one (default: %(default)s)",
    )
    add_database_arguments(parser)
    parser.add_argument("--tls-cert", type=Path, help="PEM certificate chain, to serve TLS (with --tls-key)")
    parser.add_argument("--tls-key", type=Path, help="PEM private key of --tls-cert")
    parser.add_argument(
        "--games-in-memory",
        type=int,
        default=10_000,
        help="games kept in memory at most (default: %(default)s)",
    )
    parser.add_argument(
        "--events-in-memory",
        type=int,
        default=2_000_000,
        help="events of the games kept in memory, all together, at most: a long imported session holds"
        " tens of thousands, about 250 bytes each (default: %(default)s)",
    )
    parser.add_argument(
        "--max-message-bytes",
        type=int,
        default=4 * 1024 * 1024,
        metavar="BYTES",
        help="the largest gRPC message the server takes or sends, a request or an answer as a whole"
        " (default: %(default)s, 4 MiB)",
    )
    parser.add_argument(
        "--workers",
        type=_at_least_one,
        default=1,
        help="serve with this many processes on one port (needs a fixed --port and a --db file;"
        " default: %(default)s)",
    )
    parser.add_argument(
        "--allow-seeded-dice",
        action="store_true",
        help="let CreateGame take DICE_MODE_SEEDED (whoever knows the seed knows every die: for test rigs"
        " and arenas only)",
    )
    parser.add_argument(
        "--request-retention-hours",
        type=float,
        default=24.0,
        help="how long a request_id is remembered for retries (default: %(default)s)",
    )
    parser.add_argument(
        "--idle-connection-seconds",
        type=float,
        default=600.0,
        help="close a connection with no call open for this long (default: %(default)s)",
    )
    parser.add_argument(
        "--evaluators",
        type=_at_least_one,
        default=1,
        help="GNU Backgammon evaluator processes answering AnalysisService calls, each one call at a time "
        "(started with the first call; default: %(default)s)",
    )
    parser.add_argument(
        "--heavy-processes",
        type=_at_least_one,
        default=2,
        help="processes checking, importing and analysing match records, each one record at a time, shared "
        "fairly between clients (started with the first job; default: %(default)s)",
    )
    parser.add_argument(
        "--keepalive-seconds",
        type=float,
        default=60.0,
        help="ping a quiet connection this often, and drop it if it does not answer (default: %(default)s)",
    )
    quotas = parser.add_argument_group("limits on each client (a client is its IP address)")
    defaults = QuotaLimits()
    for name, kind, words in _QUOTA_FLAGS:
        flag = "--" + name.replace("_", "-")
        quotas.add_argument(
            flag, type=kind, default=getattr(defaults, name), help=f"{words} (default: %(default)s)"
        )
    quotas.add_argument(
        "--batch-items",
        type=int,
        default=FIELD_LIMITS[BATCH_ITEMS],
        help="plays a BatchValidatePlays may hold (default: %(default)s)",
    )
    web = parser.add_argument_group(
        "the web port: the API for browsers (Connect, gRPC-Web) and the web table"
    )
    web.add_argument(
        "--web-port",
        type=_port_number,
        default=8080,
        help="port of the web table and the API for browsers, 0 to pick a free one (default: %(default)s)",
    )
    web.add_argument(
        "--web-host",
        default="127.0.0.1",
        help="address the web port listens on (default: %(default)s, this machine only)",
    )
    web.add_argument("--no-web", action="store_true", help="serve no web port")
    web_limits = WebLimits()
    web.add_argument(
        "--web-body-seconds",
        type=float,
        default=web_limits.body_seconds,
        help="how long a request's body may take to arrive on the web port (default: %(default)s)",
    )
    web.add_argument(
        "--web-requests-per-address",
        type=int,
        default=web_limits.requests_per_address,
        help="requests (each a connection) one address may have open on the web port (default: %(default)s)",
    )
    web.add_argument(
        "--bots",
        type=int,
        default=64,
        help="computer opponents (BotsService) this process plays at once, at most, those it took up"
        " from a stopped process included (default: %(default)s)",
    )
    web.add_argument(
        "--bots-play-each-other",
        action="store_true",
        help="let SeatBot give both seats of one game to bots (default: a bot's opponent is a person)",
    )
    web.add_argument(
        "--bot-match-points",
        type=int,
        default=BOT_MATCH_POINTS,
        help="the longest match, in points, a bot is seated at (money play: up to"
        f" {MONEY_GAMES} games; default: %(default)s)",
    )
    _add_ladder_flags(parser)
    parser.add_argument("--log-json", action="store_true", help="log JSON lines even on a terminal")
    parser.set_defaults(run=run)


def _add_ladder_flags(parser: argparse.ArgumentParser) -> None:
    ladder = parser.add_argument_group("accounts, challenges and the ladder (LadderService)")
    defaults = LadderSettings()
    ladder.add_argument(
        "--ladder",
        action="store_true",
        help="pair the online bots that joined the ladder, by rating, continuously",
    )
    ladder.add_argument(
        "--ladder-rules",
        action="append",
        type=_ladder_rules,
        metavar="VARIANT:POINTS:RESERVE+DELAY",
        help="a rule set the ladder pairs with, taken in turn when given several: the variant, the match"
        " length and each seat's clock in seconds (default: backgammon:3:120+8)",
    )
    ladder.add_argument(
        "--ladder-bots",
        default="",
        metavar="BOT,BOT",
        help="the server's own bots (as BotsService names them) that play the ladder, each as the account"
        " server-BOT (default: none)",
    )
    for name, words in (
        ("games_at_once", "ladder games a bot plays at once"),
        ("games_per_day", "ladder games a bot starts a day"),
        ("challenges_per_account", "challenges and seeks an account has open at once"),
        ("streams_per_account", "event streams an account has open at once, in each process"),
    ):
        flag = "--" + name.replace("_", "-")
        if name.startswith("games"):
            flag = "--ladder-" + name.replace("_", "-")
        ladder.add_argument(
            flag, type=int, dest=name, default=getattr(defaults, name), help=f"{words} (default: %(default)s)"
        )
    ladder.add_argument(
        "--grace-seconds",
        type=float,
        default=defaults.grace_seconds,
        help="how long a player may be gone from a game before it loses it on time (default: %(default)s)",
    )
    ladder.add_argument(
        "--open-accounts",
        action="store_true",
        help="let anyone create an account with CreateAccount (default: only `tavli accounts create`)",
    )


def _ladder_settings(arguments: argparse.Namespace) -> LadderSettings:
    """:raises ValueError: for a bound out of its range."""
    rule_sets = tuple(arguments.ladder_rules or ()) or LadderSettings().rule_sets
    return LadderSettings(
        open_accounts=arguments.open_accounts,
        pairing=arguments.ladder,
        rule_sets=rule_sets,
        house_bots=tuple(bot for bot in arguments.ladder_bots.split(",") if bot),
        games_at_once=arguments.games_at_once,
        games_per_day=arguments.games_per_day,
        challenges_per_account=arguments.challenges_per_account,
        streams_per_account=arguments.streams_per_account,
        grace_seconds=arguments.grace_seconds,
    )


def _ladder_rules(text: str) -> RuleSet:
    """``--ladder-rules``' type: VARIANT:POINTS:RESERVE+DELAY, such as backgammon:3:120+8."""
    from tavli.engine.clock import ClockRules
    from tavli.engine.rules import InvalidRuleSetError

    try:
        variant, points, clock = text.split(":")
        reserve, _, delay = clock.partition("+")
        return RuleSet(
            variant=variant,  # type: ignore[arg-type]
            match_length=int(points),
            clock=ClockRules(reserve=float(reserve), delay=float(delay or 0)),
        )
    except (ValueError, InvalidRuleSetError) as error:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not VARIANT:POINTS:RESERVE+DELAY (backgammon:3:120+8): {error}"
        ) from None


def run(arguments: argparse.Namespace) -> int:
    from tavli.server import logs
    from tavli.server.app import ServerConfig, serve

    if bool(arguments.tls_cert) != bool(arguments.tls_key):
        print("tavli serve: give both --tls-cert and --tls-key, or neither", file=sys.stderr)
        return 2
    if arguments.workers > 1 and (arguments.port == 0 or arguments.db == ":memory:"):
        print("tavli serve: --workers needs a fixed --port and a --db the workers share", file=sys.stderr)
        return 2
    if is_postgres_url(arguments.db) and arguments.key_file is None:
        print(
            "tavli serve: a PostgreSQL --db needs --key-file, the server key every replica shares"
            " (copy the one file to every machine)",
            file=sys.stderr,
        )
        return 2
    logs.configure(json_lines=True if arguments.log_json else None)
    try:
        config = ServerConfig(
            host=arguments.host,
            port=arguments.port,
            db=database(arguments.db),
            key_file=arguments.key_file,
            tls_cert=arguments.tls_cert,
            tls_key=arguments.tls_key,
            games_in_memory=arguments.games_in_memory,
            events_in_memory=arguments.events_in_memory,
            max_message_bytes=arguments.max_message_bytes,
            workers=arguments.workers,
            allow_seeded_dice=arguments.allow_seeded_dice,
            request_retention_seconds=arguments.request_retention_hours * 3600,
            idle_connection_seconds=arguments.idle_connection_seconds,
            keepalive_seconds=arguments.keepalive_seconds,
            web_port=None if arguments.no_web else arguments.web_port,
            web_host=arguments.web_host,
            web_limits=WebLimits(
                body_seconds=arguments.web_body_seconds,
                requests_per_address=arguments.web_requests_per_address,
            ),
            bots=arguments.bots,
            evaluators=arguments.evaluators,
            heavy_processes=arguments.heavy_processes,
            bots_play_each_other=arguments.bots_play_each_other,
            bot_match_points=arguments.bot_match_points,
            quotas=QuotaLimits(**{name: getattr(arguments, name) for name, _, _ in _QUOTA_FLAGS}),
            limits=RequestLimits(fields={**FIELD_LIMITS, BATCH_ITEMS: arguments.batch_items}),
            ladder=_ladder_settings(arguments),
        )
    except ValueError as error:  # a limit out of its range
        return _cannot_start(str(error))
    try:
        _check_can_start(config)
        return serve(config)
    except StartupError as error:
        return _cannot_start(str(error))
    except (sqlite3.DatabaseError, OSError) as error:  # should the server have let one through
        return _cannot_start(_in_words(error))


def _check_can_start(config: ServerConfig) -> None:
    """Find what would stop the server before starting it: with ``--workers`` the workers could
    not say it themselves, and a server told a port out of range would listen elsewhere.

    :raises StartupError: saying what is wrong.
    """
    check_port_free(config.host, config.port)
    if config.web_port:
        try:
            check_port_free(config.web_host, config.web_port)
        except StartupError as error:
            raise StartupError(
                f"{error} (the web port: choose another with --web-port, or --no-web)"
            ) from None
    if isinstance(config.db, Path):
        check_database(config.db)
    if config.tls_cert and config.tls_key:
        check_tls_files(config.tls_cert, config.tls_key)


def _cannot_start(why: str) -> int:
    """Say in one line why the server did not start; returns the exit status."""
    print(f"{PROGRAM}: {' '.join(why.split())}", file=sys.stderr)
    return 2


def _in_words(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return f"{error.strerror}: {error.filename}" if error.filename else error.strerror
    return str(error) or type(error).__name__


def _port_number(text: str) -> int:
    """``--port``'s type: a TCP port number, 0 to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    try:
        check_port(port)
    except StartupError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return port


def _at_least_one(text: str) -> int:
    """The type of a count of processes: a whole number, 1 or more."""
    try:
        count = int(text)
    except ValueError:
        count = 0
    if count < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return count


def _errors_in_one_line(parser: argparse.ArgumentParser) -> None:
    """Make ``parser`` report a wrong argument in one line, as every start-up failure is, rather
    than after its usage."""

    def error(message: str) -> NoReturn:
        parser.exit(2, f"{PROGRAM}: {message}; {PROGRAM} --help lists the options\n")

    parser.error = error  # type: ignore[method-assign]
