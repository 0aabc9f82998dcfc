"""Health checks that follow the store: a server that cannot reach its database (a PostgreSQL
server down or unreachable) reports NOT_SERVING, so that load balancers send calls elsewhere,
and SERVING again once it can."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import structlog
from grpc_health.v1 import health, health_pb2

from tavli.server.store import Store

log = structlog.get_logger("tavli.server")

CHECK_EVERY_SECONDS = 1.0


class StoreHealth:
    """Checks ``store`` every :data:`CHECK_EVERY_SECONDS` and sets the health of ``services``."""

    def __init__(self, store: Store, servicer: health.aio.HealthServicer, services: Sequence[str]) -> None:
        self.store = store
        self.servicer = servicer
        self.services = tuple(services)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="tavli-store-health")

    async def stop(self) -> None:
        """Stop checking (before a graceful shutdown marks every service NOT_SERVING for good)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait([self._task])  # its end, not its CancelledError (nor a stop's own)

    async def _run(self) -> None:
        serving = True
        while True:
            await asyncio.sleep(CHECK_EVERY_SECONDS)
            reachable = await asyncio.to_thread(self.store.reachable)
            if reachable == serving:
                continue
            serving = reachable
            status = (
                health_pb2.HealthCheckResponse.SERVING
                if serving
                else health_pb2.HealthCheckResponse.NOT_SERVING
            )
            for service in self.services:
                await self.servicer.set(service, status)
            if serving:
                log.info("the game store answers again: serving")
            else:
                log.warning("the game store does not answer: not serving")
