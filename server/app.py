"""Building and running the server: services, health, reflection, interceptors, shutdown.

The server runs on ``grpc.aio``: a call is a coroutine on one event loop, so an open watch costs
its buffers, not a thread. Rule queries run on the loop itself (they are short and bound by the
CPU); the store is called from worker threads, so that a commit waiting for the disk holds up no
one else.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import resource
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import grpc
import grpc.aio
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from tavli.engine import core
from tavli.server import logs
from tavli.server.accounts import Accounts
from tavli.server.admission import AdmissionInterceptor, caller
from tavli.server.analysis.pool import EvaluatorPool
from tavli.server.analysis_servicer import AnalysisServicer
from tavli.server.bot_seats import BOT_MATCH_POINTS, PATIENCE_SECONDS, BotSeats, BotsServicer
from tavli.server.errors import ErrorInterceptor, LimitReached
from tavli.server.fair_queue import FairQueue
from tavli.server.games_servicer import GamesServicer
from tavli.server.handlers import sending_serialized
from tavli.server.keys import ServerKey
from tavli.server.ladder import Ladder, LadderSettings
from tavli.server.ladder_events import AccountEvents
from tavli.server.ladder_pairing import Pairing
from tavli.server.ladder_servicer import LadderServicer
from tavli.server.limits import RequestLimits
from tavli.server.logs import RpcLogInterceptor
from tavli.server.quotas import QuotaLimits, Quotas
from tavli.server.reflection import enable_reflection
from tavli.server.rules_servicer import RulesServicer
from tavli.server.services import SERVICE_NAMES
from tavli.server.sql_store import SqlStore
from tavli.server.sqlite_store import SqliteStore
from tavli.server.startup import StartupError, check_port, host_port
from tavli.server.store import MemoryStore, Store
from tavli.server.store_health import StoreHealth
from tavli.server.tables import Tables
from tavli.server.timer import Timer
from tavli.server.web_limits import WebLimits
from tavli.v1 import (
    analysis_service_pb2_grpc,
    bots_service_pb2_grpc,
    games_service_pb2_grpc,
    ladder_service_pb2_grpc,
    rules_service_pb2_grpc,
)

if TYPE_CHECKING:
    from tavli.server.postgres_store import PostgresStore
    from tavli.server.web_process import WebProcess

log = structlog.get_logger("tavli.server")


@dataclass(frozen=True)
class ServerConfig:
    """How to run the server. ``db`` None keeps games in memory (tests); a path uses SQLite; a
    ``postgresql://`` URL (a str) uses PostgreSQL, shared by any number of replicas, whose server
    key is in ``key_file`` (which a SQLite database keeps beside itself by default)."""

    host: str = "127.0.0.1"
    port: int = 50051
    db: Path | str | None = Path("tavli.sqlite3")
    key_file: Path | None = None
    tls_cert: Path | None = None
    tls_key: Path | None = None
    max_message_bytes: int = 4 * 1024 * 1024
    games_in_memory: int = 10_000
    events_in_memory: int = 2_000_000  # of the games in memory, all together
    grace_seconds: float = 5.0
    log_rpcs: bool = True  # one log line per RPC; off for servers embedded in a client program
    workers: int = 1  # processes serving the same port (serve() only); they share games through db
    shared_store: bool = False  # another process may act on the same db: check freshness on reads
    allow_seeded_dice: bool = False  # games whose creator chose the seed: for test rigs and arenas
    request_retention_seconds: float = 24 * 3600.0  # how long a request_id's answer is kept
    limits: RequestLimits = field(default_factory=RequestLimits)
    quotas: QuotaLimits = field(default_factory=QuotaLimits)
    idle_connection_seconds: float = 600.0  # a connection with no call open this long is closed
    keepalive_seconds: float = 60.0  # the server pings a quiet connection this often
    web_port: int | None = None  # the web port (Connect, gRPC-Web and the web table); None: none
    web_host: str = "127.0.0.1"
    web_limits: WebLimits = field(default_factory=WebLimits)  # slow and numerous requests on the web port
    evaluators: int = 1  # GNU Backgammon evaluator processes (AnalysisService), started with its first call
    heavy_processes: int = 2  # record checks and imports (the heavy work), started with its first job
    bots: int = 64  # computer opponents (BotsService) playing at once, at most
    bots_play_each_other: bool = False  # SeatBot may give both seats of one game to bots
    bot_match_points: int = BOT_MATCH_POINTS  # the longest match a bot is seated at
    bot_patience_seconds: float = (
        PATIENCE_SECONDS  # a bot kept waiting this long leaves the table until its opponent acts
    )
    ladder: LadderSettings = field(default_factory=LadderSettings)  # accounts, challenges, the ladder


@dataclass
class Running:
    """A started server and what it needs to stop cleanly.

    Made by :func:`create_server`, it runs on an event loop of its own in a background thread,
    so that synchronous programs (tests, the terminal game) can start and stop it.
    """

    port: int
    server: grpc.aio.Server
    health: health.aio.HealthServicer
    store: Store
    tables: Tables
    checks: FairQueue
    timer: Timer
    store_health: StoreHealth
    bot_seats: BotSeats
    evaluators: EvaluatorPool
    own_socket: Path  # the folder of the process's own socket (for the web port and the bots)
    ladder: Ladder
    loop: asyncio.AbstractEventLoop
    web: WebProcess | None = None  # the web port's process, with --web-port
    thread: threading.Thread | None = None
    ladder_sweep: asyncio.Future[None] | None = None

    @property
    def web_port(self) -> int | None:
        return self.web.port if self.web is not None else None

    async def shutdown(self, grace: float | None) -> None:
        """Mark every service NOT_SERVING, end open watches and seat streams at once
        (UNAVAILABLE), let other calls in flight finish within ``grace`` seconds, then close the
        store. (A clock that runs out meanwhile is recorded by the next server to start.)"""
        await self.store_health.stop()
        await self.health.enter_graceful_shutdown()
        await asyncio.to_thread(self.bot_seats.close)
        if self.ladder_sweep is not None:
            self.ladder_sweep.cancel()
        self.ladder.events.close()
        self.tables.close_watches()
        await self.timer.stop()
        if self.web is not None:
            await self.web.stop(grace)
        await self.server.stop(grace)
        self.evaluators.close()
        await self.tables.drain()
        await self.ladder.stop()
        self.checks.close()
        await asyncio.to_thread(self.store.close)
        if not isinstance(self.store, SqlStore):  # the ladder's records are in memory of their own
            await asyncio.to_thread(self.ladder.records.close)
        shutil.rmtree(self.own_socket, ignore_errors=True)

    def stop(self, grace: float | None = None) -> None:
        """:meth:`shutdown` from another thread than the server's, then end its loop."""
        asyncio.run_coroutine_threadsafe(self.shutdown(grace), self.loop).result()
        self.loop.call_soon_threadsafe(self.loop.stop)
        if self.thread is not None:
            self.thread.join()


async def start_server(config: ServerConfig) -> Running:
    """Build and start a server on ``config.host:config.port`` (port 0 picks a free one), on the
    running event loop.

    :raises StartupError: if it cannot listen there, or its store cannot be opened.
    """
    check_port(config.port)
    store, key = await _store_and_key(config)
    quotas = Quotas(config.quotas)
    checks = FairQueue(quotas, processes=config.heavy_processes)
    tables = Tables(
        store,
        key,
        capacity=config.games_in_memory,
        events_in_memory=config.events_in_memory,
        shared=config.shared_store or isinstance(config.db, str),
        allow_seeded_dice=config.allow_seeded_dice,
        request_retention=config.request_retention_seconds,
        fold=lambda rules, log: checks.run(caller(), "game_in_play_start", rules, log),
    )
    timer = Timer(tables)
    tables.on_deadline = timer.wake
    # The ladder's records are the store's; a server keeping games in memory keeps them in memory too.
    records = store if isinstance(store, SqlStore) else SqliteStore(":memory:")
    accounts = Accounts(records, key)
    events = AccountEvents(
        records,
        key,
        streams_per_account=config.ladder.streams_per_account,
        heartbeat_seconds=config.ladder.heartbeat_seconds,
    )
    _hear_other_writes(store, tables, events)
    interceptors: list[grpc.aio.ServerInterceptor] = [
        ErrorInterceptor(),
        AdmissionInterceptor(config.limits, quotas, SERVICE_NAMES),
    ]
    if config.log_rpcs:
        interceptors.insert(0, RpcLogInterceptor())
    server = grpc.aio.server(interceptors=interceptors, options=_channel_options(config))
    services = cast(grpc.aio.Server, _ServedGenerically(server))
    rules_service_pb2_grpc.add_RulesServiceServicer_to_server(RulesServicer(checks), services)
    evaluators = EvaluatorPool(config.evaluators)
    analysis_service_pb2_grpc.add_AnalysisServiceServicer_to_server(
        AnalysisServicer(evaluators, tables, quotas, checks), services
    )
    games_servicer = GamesServicer(
        tables,
        quotas,
        checks,
        config.limits,
        guard=lambda name, seat, metadata: ladder.check_seat(name, seat, metadata),
        rematch_offered=lambda name, seat: ladder.rematch_offered(name, seat),
    )
    games_service_pb2_grpc.add_GamesServiceServicer_to_server(games_servicer, services)
    ladder = Ladder(
        records, tables, accounts, events, config.ladder, streaming=games_servicer.seat_streams.holds
    )

    def over(name: str) -> None:
        quotas.release_game(name)
        ladder.heard_over(name)

    tables.on_over = over
    ladder_service_pb2_grpc.add_LadderServiceServicer_to_server(
        LadderServicer(ladder, accounts, quotas), services
    )
    own_socket = Path(tempfile.mkdtemp(prefix="tavli-"))  # only this user may open it
    own_address = f"unix:{own_socket / 'native.sock'}"
    bot_seats = BotSeats(
        own_address,
        store,
        key,
        quotas,
        most=config.bots,
        patience=config.bot_patience_seconds,
        each_other=config.bots_play_each_other,
    )
    bots_servicer = BotsServicer(
        tables, bot_seats, games_servicer.seat_streams, match_points=config.bot_match_points
    )
    bots_service_pb2_grpc.add_BotsServiceServicer_to_server(bots_servicer, services)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, services)
    for name in (*SERVICE_NAMES, ""):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    enable_reflection((*SERVICE_NAMES, health.SERVICE_NAME), server)
    address = host_port(config.host, config.port)
    try:
        if config.tls_cert and config.tls_key:
            credentials = grpc.ssl_server_credentials(
                [(config.tls_key.read_bytes(), config.tls_cert.read_bytes())]
            )
            port = server.add_secure_port(address, credentials)
        else:
            port = server.add_insecure_port(address)
    except (RuntimeError, OSError) as error:
        port, why = 0, str(error)
    else:
        why = "the port is in use or the address is not this machine's"
    if port == 0:
        evaluators.close()
        checks.close()
        store.close()
        shutil.rmtree(own_socket, ignore_errors=True)
        raise StartupError(f"cannot listen on {address}: {why}")
    server.add_insecure_port(own_address)
    await server.start()
    timer.start()
    bot_seats.start()
    store_health = StoreHealth(store, health_servicer, (*SERVICE_NAMES, ""))
    store_health.start()
    running = Running(
        port,
        server,
        health_servicer,
        store,
        tables,
        checks,
        timer,
        store_health,
        bot_seats,
        evaluators,
        own_socket,
        ladder,
        asyncio.get_running_loop(),
    )
    pairing = None
    if config.ladder.pairing:
        pairing = Pairing(ladder, bot_seats)
        await pairing.enrol_server_bots()
    running.ladder_sweep = asyncio.ensure_future(ladder.run(pairing))
    if config.web_port is not None:
        try:
            running.web = await _start_web_port(config, own_address, quotas)
        except OSError as error:
            await running.shutdown(0)
            web_address = host_port(config.web_host, config.web_port)
            raise StartupError(f"cannot listen on {web_address} for the web: {error}") from None
        except StartupError:
            await running.shutdown(0)
            raise
    return running


class _ServedGenerically:
    """A server as the generated ``add_*_to_server`` functions see it: each service's methods
    are served through one generic handler, and none is registered with grpc's core besides.
    For each call it accepts, grpc.aio waits again on one pending call for every registered
    method (about fifty here), which cost a call more than its log line did; a generic handler
    finds a method with a dict look-up. Each method's handler may answer with bytes already
    serialized (:func:`tavli.server.handlers.sending_serialized`)."""

    def __init__(self, server: grpc.aio.Server) -> None:
        self._server = server

    def add_generic_rpc_handlers(self, handlers: Sequence[grpc.GenericRpcHandler]) -> None:
        """Nothing to do: a generated ``add_*_to_server`` hands the same handlers, one by one, to
        :meth:`add_registered_method_handlers` next."""

    def add_registered_method_handlers(
        self, service: str, handlers: dict[str, grpc.RpcMethodHandler[Any, Any]]
    ) -> None:
        sending = {method: sending_serialized(handler) for method, handler in handlers.items()}
        self._server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, sending),))


async def _start_web_port(config: ServerConfig, native: str, quotas: Quotas) -> WebProcess:
    """The web port, served by a process of its own (:mod:`tavli.server.web_process`).

    :raises OSError: if it cannot listen on the web port.
    :raises StartupError: if its process exits as it starts.
    """
    from tavli.server.web_process import WebProcess, WebSettings, listen

    assert config.web_port is not None

    def refused(address: str) -> None:
        # A request the web port refuses itself is a call of its client all the same.
        with contextlib.suppress(LimitReached), quotas.admit_call(address):
            pass

    settings = WebSettings(
        host=config.web_host,
        native=native,
        read_max_bytes=config.max_message_bytes,
        limits=config.web_limits,
        grace_seconds=config.grace_seconds,
        tls=(str(config.tls_cert), str(config.tls_key)) if config.tls_cert and config.tls_key else None,
        log_level=logging.getLogger().getEffectiveLevel(),
    )
    web = WebProcess(
        listen(config.web_host, config.web_port, reuse_port=config.shared_store),
        settings,
        refused=refused,
        spent=quotas.charge_cpu,
    )
    try:
        await web.start()
    except BaseException:
        await web.stop(0)
        raise
    return web


async def _store_and_key(config: ServerConfig) -> tuple[Store, ServerKey]:
    """The store ``config.db`` names and the server key that goes with it.

    :raises StartupError: if either cannot be opened.
    """
    if config.db is None:
        return MemoryStore(), ServerKey.fresh()
    return await asyncio.to_thread(open_store, config.db, config.key_file)


def open_store(db: Path | str, key_file: Path | None) -> tuple[SqliteStore | PostgresStore, ServerKey]:
    """The SQL store ``db`` names (a SQLite file, or a ``postgresql://`` URL) and the server key
    that goes with it: ``key_file``, or for SQLite the file beside the database.

    :raises StartupError: if either cannot be opened, or PostgreSQL is named without a key file.
    """
    if isinstance(db, str):
        from tavli.server.postgres_store import PostgresStore  # psycopg only where it is used

        if key_file is None:
            raise StartupError("a PostgreSQL database needs --key-file: the server key every replica shares")
        key = ServerKey.in_file(key_file)
        return PostgresStore(db), key
    key = ServerKey.in_file(key_file) if key_file else ServerKey.beside(db)
    return SqliteStore(db), key


def _hear_other_writes(store: Store, tables: Tables, events: AccountEvents) -> None:
    """Have a store that can tell of other processes' writes (PostgreSQL) tell ``tables`` (a
    game's) and ``events`` (an account's)."""
    loop = asyncio.get_running_loop()

    def heard(name: str, count: int) -> None:
        loop.call_soon_threadsafe(tables.heard_of_write, name, count)
        loop.call_soon_threadsafe(events.heard_of_write, name)

    store.listen(heard)


def _web_url(config: ServerConfig, port: int) -> str:
    return f"http{'s' if config.tls_cert else ''}://{host_port(config.web_host, port)}/"


def _database_in_words(db: Path | str | None) -> str:
    """Where games are kept, for the log: the file, the URL without its password, or memory."""
    if db is None:
        return "memory"
    if isinstance(db, str):
        from tavli.server.postgres_store import without_password

        return without_password(db)
    return str(db)


def _channel_options(config: ServerConfig) -> list[tuple[str, int]]:
    return [
        ("grpc.max_receive_message_length", config.max_message_bytes),
        ("grpc.max_send_message_length", config.max_message_bytes),
        ("grpc.so_reuseport", 1 if config.shared_store else 0),
        ("grpc.max_connection_idle_ms", int(config.idle_connection_seconds * 1000)),
        ("grpc.keepalive_time_ms", int(config.keepalive_seconds * 1000)),
        ("grpc.keepalive_timeout_ms", 20_000),
        # Clients may ping a connection with calls open as often as every 10 s, not more.
        ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
        ("grpc.http2.max_ping_strikes", 3),
    ]


def create_server(config: ServerConfig) -> Running:
    """Start a server on an event loop of its own, in a background thread; stop it with
    :meth:`Running.stop`.

    :raises StartupError: as :func:`start_server`.
    """
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="tavli-server", daemon=True)
    thread.start()
    try:
        running = asyncio.run_coroutine_threadsafe(start_server(config), loop).result()
    except BaseException:
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        raise
    running.thread = thread
    return running


@contextlib.contextmanager
def embedded_server(*, evaluators: int = 1) -> Iterator[str]:
    """The address of an in-memory server on a free loopback port, for a client program's own
    use while the ``with`` block runs; it logs no line per RPC, and unless the program set up
    logging itself, the server's lines go to standard error, warnings only (standard output is
    the program's). Seeded dice are allowed and no quota binds: the program is the server's
    only client. ``evaluators`` is its number of analysis processes."""
    with _quiet_logs():
        running = create_server(
            ServerConfig(
                host="127.0.0.1",
                port=0,
                db=None,
                log_rpcs=False,
                allow_seeded_dice=True,
                quotas=QuotaLimits.unbounded(),
                evaluators=evaluators,
            )
        )
        try:
            yield f"127.0.0.1:{running.port}"
        finally:
            running.stop(0)


@contextlib.contextmanager
def _quiet_logs() -> Iterator[None]:
    """Log warnings only, to standard error, while the block runs, unless logging is set up."""
    if structlog.is_configured():
        yield
        return
    structlog.configure(
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING),
    )
    try:
        yield
    finally:
        structlog.reset_defaults()


def serve(config: ServerConfig) -> int:
    """Run until SIGTERM or SIGINT, then shut down gracefully; with ``config.workers`` > 1, as
    that many supervised processes sharing the port (the kernel spreads connections over them),
    whose stateless calls use every core and whose games stay correct through the shared store.
    Returns the exit status.

    :raises StartupError: if the server cannot start.
    """
    if config.workers > 1:
        from tavli.server.workers import supervise

        return supervise(config, _worker)
    asyncio.run(_serve(config))
    return 0


async def _serve(config: ServerConfig) -> None:
    # The heavy work (record checks and imports) runs in processes of its own, but the store's
    # calls, a game's fold from its snapshot and the bots run in threads, holding the interpreter
    # lock for as long as they are let; the event loop, which needs it at every step of every
    # call, waits for it each time. Python's 5 ms turn made a health check wait over a second
    # beside one long import on a thread; a shorter one keeps the loop's waits short.
    sys.setswitchinterval(_INTERPRETER_LOCK_TURN)
    _allow_many_connections()
    # The heavy work's processes start with the first job that needs them (a record, a long
    # log's fold), not with the server: two processes' imports cost a second of CPU or more, which
    # a server that never gets such a job would pay for nothing, and the first job waits that
    # once instead (the README's trade).
    running = await start_server(config)
    log.info(
        "serving",
        host=config.host,
        port=running.port,
        web=None if running.web_port is None else _web_url(config, running.web_port),
        db=_database_in_words(config.db),
        tls=bool(config.tls_cert),
        seeded_dice=config.allow_seeded_dice,
        engine=core.IMPLEMENTATION,
        pid=os.getpid(),
    )
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stopping.set)
    await stopping.wait()
    log.info("stopping", grace_seconds=config.grace_seconds)
    await running.shutdown(config.grace_seconds)
    log.info("stopped")


_INTERPRETER_LOCK_TURN = 0.0005  # seconds a thread may hold the lock while another waits


def _allow_many_connections() -> None:
    # Each connection holds a descriptor: a soft limit of 1,024 would let a thousand idle
    # connections lock everyone else out, so the server takes all the system lets it have.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _worker(config: ServerConfig, json_lines: bool) -> None:
    from tavli.server.workers import exit_with_parent

    exit_with_parent()
    logs.configure(json_lines=json_lines, worker=os.getpid())
    asyncio.run(_serve(config))
