"""Building and running the server: services, health, reflection, interceptors, shutdown."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Iterator
from concurrent import futures
from dataclasses import dataclass, replace
from pathlib import Path

import grpc
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from server import logs
from server.errors import ErrorInterceptor
from server.games_servicer import GamesServicer
from server.logs import RpcLogInterceptor
from server.rules_servicer import RulesServicer
from server.store import MemoryStore, SqliteStore, Store
from server.tables import Tables
from tavli.v1 import games_service_pb2, games_service_pb2_grpc, rules_service_pb2, rules_service_pb2_grpc

log = structlog.get_logger("tavli.server")

SERVICE_NAMES = (
    rules_service_pb2.DESCRIPTOR.services_by_name["RulesService"].full_name,
    games_service_pb2.DESCRIPTOR.services_by_name["GamesService"].full_name,
)


@dataclass(frozen=True)
class ServerConfig:
    """How to run the server. ``db`` None keeps games in memory (tests); a path uses SQLite."""

    host: str = "127.0.0.1"
    port: int = 50051
    db: Path | None = Path("tavli.sqlite3")
    tls_cert: Path | None = None
    tls_key: Path | None = None
    max_message_bytes: int = 4 * 1024 * 1024
    games_in_memory: int = 10_000
    threads: int = 32
    grace_seconds: float = 5.0
    log_rpcs: bool = True  # one log line per RPC; off for servers embedded in a client program
    workers: int = 1  # processes serving the same port (serve() only); they share games through db
    shared_store: bool = False  # another process may act on the same db: check freshness on reads


@dataclass
class Running:
    """A started server and what it needs to stop cleanly."""

    server: grpc.Server
    port: int
    health: health.HealthServicer
    store: Store
    tables: Tables

    def stop(self, grace: float | None = None) -> None:
        """Mark every service NOT_SERVING, let calls in flight finish, then close the store."""
        self.health.enter_graceful_shutdown()
        self.server.stop(grace).wait()
        self.store.close()


def create_server(config: ServerConfig) -> Running:
    """Build and start a server on ``config.host:config.port`` (port 0 picks a free one).

    Keep the returned :class:`Running`: the server stops when it is garbage-collected.
    """
    store: Store = MemoryStore() if config.db is None else SqliteStore(config.db)
    tables = Tables(store, capacity=config.games_in_memory, shared=config.shared_store)
    options = [
        ("grpc.max_receive_message_length", config.max_message_bytes),
        ("grpc.max_send_message_length", config.max_message_bytes),
        ("grpc.so_reuseport", 1 if config.shared_store else 0),
    ]
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=config.threads),
        interceptors=[RpcLogInterceptor(), ErrorInterceptor()] if config.log_rpcs else [ErrorInterceptor()],
        options=options,
    )
    rules_service_pb2_grpc.add_RulesServiceServicer_to_server(RulesServicer(), server)
    games_service_pb2_grpc.add_GamesServiceServicer_to_server(GamesServicer(tables), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in (*SERVICE_NAMES, ""):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection((*SERVICE_NAMES, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    address = f"{config.host}:{config.port}"
    if config.tls_cert and config.tls_key:
        credentials = grpc.ssl_server_credentials([(config.tls_key.read_bytes(), config.tls_cert.read_bytes())])
        port = server.add_secure_port(address, credentials)
    else:
        port = server.add_insecure_port(address)
    server.start()
    return Running(server, port, health_servicer, store, tables)


@contextlib.contextmanager
def embedded_server() -> Iterator[str]:
    """The address of an in-memory server on a free loopback port, for a client program's own
    use while the ``with`` block runs; it logs no line per RPC."""
    running = create_server(ServerConfig(host="127.0.0.1", port=0, db=None, log_rpcs=False))
    try:
        yield f"127.0.0.1:{running.port}"
    finally:
        running.stop(0)


def serve(config: ServerConfig) -> None:
    """Run until SIGTERM or SIGINT, then shut down gracefully; with ``config.workers`` > 1, as
    that many processes sharing the port (the kernel spreads connections over them), whose
    stateless calls use every core and whose games stay correct through the shared store."""
    if config.workers > 1:
        _serve_workers(config)
        return
    running = create_server(config)
    log.info(
        "serving",
        host=config.host,
        port=running.port,
        db=str(config.db) if config.db else "memory",
        tls=bool(config.tls_cert),
        pid=os.getpid(),
    )
    _wait_for_a_stop_signal()
    log.info("stopping", grace_seconds=config.grace_seconds)
    running.stop(config.grace_seconds)
    log.info("stopped")


def _serve_workers(config: ServerConfig) -> None:
    if config.port == 0:
        raise ValueError("--workers needs a fixed --port for the workers to share")
    if config.db is None:
        raise ValueError("--workers needs --db: the workers share their games through it")
    worker_config = replace(config, workers=1, shared_store=True)
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=_worker, args=(worker_config, logs.json_lines_chosen()), name=f"tavli-worker-{number}")
        for number in range(config.workers)
    ]
    for worker in workers:
        worker.start()
    log.info("workers started", workers=config.workers, port=config.port)
    _wait_for_a_stop_signal()
    for worker in workers:
        if worker.pid is not None:
            os.kill(worker.pid, signal.SIGTERM)
    for worker in workers:
        worker.join(config.grace_seconds + 5)
        if worker.is_alive():
            worker.kill()
    log.info("stopped")


def _worker(config: ServerConfig, json_lines: bool) -> None:
    logs.configure(json_lines=json_lines, worker=os.getpid())
    serve(config)


def _wait_for_a_stop_signal() -> None:
    stopping = threading.Event()

    def stop(signum: int, frame: object) -> None:
        stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    stopping.wait()
