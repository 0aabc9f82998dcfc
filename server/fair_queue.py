"""Heavy work (checking match records) shared fairly between clients.

Checking a long record takes seconds of CPU. Served first come, first served, one client's
many records would make another's small one wait behind all of them; here each client has a
queue of its own, and a free thread takes the next job of the client with the most of its CPU
budget left (:meth:`~tavli.server.quotas.Quotas.cpu_left`; the longest waiting among equals). A client
also never holds every thread: with two or more, one is always left for the others' work. So a
client's one record waits at most for a thread to come free, never for another client's queue.

The CPU each job spends (its thread's CPU time) is charged to its client's budget: a client
that has spent it is refused (RESOURCE_EXHAUSTED, CPU_BUDGET_SPENT) until it has refilled, and
one may have at most ``QuotaLimits.checks_waiting_per_client`` jobs waiting (TOO_MANY_CHECKS),
so that what a client makes the server hold stays bounded.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tavli.server.errors import LimitReached
from tavli.server.quotas import Quotas

TOO_MANY_CHECKS = "TOO_MANY_CHECKS"

_Result = TypeVar("_Result")


@dataclass
class _Job:
    work: Callable[[], Any]
    future: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop
    order: int  # when it came, for the longest waiting first among equals


@dataclass
class _Client:
    waiting: deque[_Job] = field(default_factory=deque)
    running: int = 0


class FairQueue:
    """``threads`` threads doing the heavy work of every client, fairly (see the module)."""

    def __init__(self, quotas: Quotas, *, threads: int = 2, name: str = "tavli-heavy") -> None:
        self.quotas = quotas
        self.threads = threads
        self._most_running = max(1, threads - 1)  # per client: one thread left for the others
        self._clients: dict[str, _Client] = {}
        self._arrivals = itertools.count()
        self._lock = threading.Condition()
        self._closed = False
        self._workers = [
            threading.Thread(target=self._serve, name=f"{name}-{number}", daemon=True)
            for number in range(threads)
        ]
        for worker in self._workers:
            worker.start()

    async def run(self, client: str, work: Callable[[], _Result]) -> _Result:
        """``work``'s result, done on one of the threads in ``client``'s turn, its CPU time
        charged to the client. A call cancelled while its job waits takes the job away.

        :raises LimitReached: CPU_BUDGET_SPENT, or TOO_MANY_CHECKS, before anything is done.
        """
        self.quotas.check_cpu_left(client)
        loop = asyncio.get_running_loop()
        job = _Job(work, loop.create_future(), loop, 0)
        with self._lock:
            if self._closed:
                raise RuntimeError("the fair queue is closed")
            queue = self._clients.setdefault(client, _Client())
            most = self.quotas.limits.checks_waiting_per_client
            if len(queue.waiting) >= most:
                raise LimitReached(
                    TOO_MANY_CHECKS,
                    f"more than {most} match records from {client} are waiting to be checked;"
                    " wait for some to end",
                )
            job.order = next(self._arrivals)
            queue.waiting.append(job)
            self._lock.notify()
        try:
            return await job.future  # type: ignore[no-any-return]
        except asyncio.CancelledError:
            with self._lock:
                if job in queue.waiting:
                    queue.waiting.remove(job)
                    self._forget_if_idle(client, queue)
            raise

    def waiting(self) -> int:
        """How many jobs wait for a thread."""
        with self._lock:
            return sum(len(queue.waiting) for queue in self._clients.values())

    def close(self) -> None:
        """Let the threads end once the jobs under way are done; jobs still waiting are dropped."""
        with self._lock:
            self._closed = True
            self._lock.notify_all()
        for worker in self._workers:
            worker.join(timeout=5)

    def _serve(self) -> None:
        while True:
            with self._lock:
                chosen = self._next()
                while chosen is None:
                    if self._closed:
                        return
                    self._lock.wait()
                    chosen = self._next()
                client, queue, job = chosen
                queue.running += 1
            started = time.thread_time()
            try:
                outcome: tuple[bool, Any] = (True, job.work())
            except Exception as error:  # noqa: BLE001 - handed to the caller, whose call it is
                outcome = (False, error)
            self.quotas.charge_cpu(client, time.thread_time() - started)
            with self._lock:
                queue.running -= 1
                self._forget_if_idle(client, queue)
                self._lock.notify()  # the client's next job may go now
            job.loop.call_soon_threadsafe(_settle, job.future, outcome)

    def _next(self) -> tuple[str, _Client, _Job] | None:
        """The job to do now (with the lock held): the next of the client with the most CPU
        left among those below their share of threads, taken off its queue."""
        ready = [
            (client, queue)
            for client, queue in self._clients.items()
            if queue.waiting and queue.running < self._most_running
        ]
        if not ready:
            return None
        client, queue = max(
            ready, key=lambda each: (self.quotas.cpu_left(each[0]), -each[1].waiting[0].order)
        )
        return client, queue, queue.waiting.popleft()

    def _forget_if_idle(self, client: str, queue: _Client) -> None:
        if not queue.waiting and not queue.running and self._clients.get(client) is queue:
            del self._clients[client]


def _settle(future: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    if future.done():  # its call was cancelled meanwhile
        return
    succeeded, value = outcome
    if succeeded:
        future.set_result(value)
    else:
        future.set_exception(value)
