"""Heavy work (reading and checking match records, imports, folding long logs) shared fairly
between clients, done in processes of its own (:mod:`tavli.server.processes`).

Checking a long record takes seconds of CPU: on a thread of the server it would hold the
interpreter's lock, and every other call would wait for it, so it runs in one of a fixed number of
processes (``tavli serve --heavy-processes``). Served first come, first served, one client's many
records would make another's small one wait behind all of them; here each client has a queue of
its own, and a free process takes the next job of the client with the most of its CPU budget left
(:meth:`~tavli.server.quotas.Quotas.cpu_left`; the longest waiting among equals). A client also
never holds every process: with two or more, one is always left for the others' work. So a
client's one record waits at most for a process to come free, never for another client's queue.

The CPU each job spends (its process's CPU time) is charged to its client's budget: a client that
has spent it is refused (RESOURCE_EXHAUSTED, CPU_BUDGET_SPENT) until it has refilled, and one may
have at most ``QuotaLimits.checks_waiting_per_client`` jobs waiting (TOO_MANY_CHECKS), so that
what a client makes the server hold stays bounded. A job whose caller goes away is dropped while
it waits, and its process is killed and replaced while it runs; a job whose process dies fails
UNAVAILABLE (HEAVY_WORK_UNAVAILABLE) in words, and the process is replaced.

A job its caller knows to be small (a short record: :func:`tavli.server.match_records.small`)
costs less done at once in the server than handed to a process: on a busy machine the hand-off
alone (the process's turn on a CPU) took hundreds of milliseconds. It is done at once on the
event loop, charged to its client's budget the same, and waits for no process and no queue.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from tavli.server.errors import HeavyWorkUnavailable, LimitReached
from tavli.server.processes import ProcessPool
from tavli.server.quotas import Quotas

TOO_MANY_CHECKS = "TOO_MANY_CHECKS"
HEAVY_WORK = "tavli.server.heavy_work"
"""The module whose functions the heavy work's processes run."""


@dataclass(eq=False)
class _Job:
    client: str
    turn: asyncio.Future[None]  # done when a process is the job's
    order: int  # when it came, for the longest waiting first among equals


@dataclass
class _Client:
    waiting: deque[_Job] = field(default_factory=deque)
    running: int = 0


class FairQueue:
    """The heavy work of every client, done fairly (see the module) in ``processes`` processes
    running the functions of ``module``."""

    def __init__(self, quotas: Quotas, *, processes: int = 2, module: str = HEAVY_WORK) -> None:
        self.quotas = quotas
        self.pool = ProcessPool(
            processes, module, name="heavy-work process", unavailable=HeavyWorkUnavailable
        )
        self._most_running = max(1, processes - 1)  # per client: one process left for the others
        self._clients: dict[str, _Client] = {}
        self._running = 0
        self._arrivals = itertools.count()

    async def run(self, client: str, function: str, *arguments: Any, small: bool = False) -> Any:
        """``function(*arguments)``'s answer (a function of the queue's module), worked out in
        one of the processes in ``client``'s turn, or at once here if the job is ``small``, its
        CPU time charged to the client. A call cancelled while its job waits takes the job away;
        one cancelled while it runs in a process ends it.

        :raises LimitReached: CPU_BUDGET_SPENT, or TOO_MANY_CHECKS, before anything is done.
        :raises HeavyWorkUnavailable: if the process died meanwhile, or the function failed.
        :raises ServiceError: the refusal the function raised.
        """
        self.quotas.check_cpu_left(client)
        charge = functools.partial(self.quotas.charge_cpu, client)
        if small:
            return self.pool.call_here(function, *arguments, on_cpu=charge)
        job = self._queued(client)
        try:
            await job.turn
            return await self.pool.call(function, *arguments, on_cpu=charge)
        finally:
            self._leave(job)

    def waiting(self) -> int:
        """How many jobs wait for a process."""
        return sum(len(queue.waiting) for queue in self._clients.values())

    def running(self) -> int:
        """How many jobs are being done."""
        return self._running

    def close(self) -> None:
        """End the processes (the jobs under way fail UNAVAILABLE)."""
        self.pool.close()

    def _queued(self, client: str) -> _Job:
        queue = self._clients.setdefault(client, _Client())
        most = self.quotas.limits.checks_waiting_per_client
        if len(queue.waiting) >= most:
            raise LimitReached(
                TOO_MANY_CHECKS,
                f"more than {most} match records from {client} are waiting to be checked;"
                " wait for some to end",
            )
        job = _Job(client, asyncio.get_running_loop().create_future(), next(self._arrivals))
        queue.waiting.append(job)
        self._give_turns()
        return job

    def _leave(self, job: _Job) -> None:
        """``job`` is done, failed or was cancelled: its place, waiting or running, is free."""
        queue = self._clients[job.client]
        if job in queue.waiting:
            queue.waiting.remove(job)
        elif job.turn.done() and not job.turn.cancelled():
            queue.running -= 1
            self._running -= 1
        if not queue.waiting and not queue.running:
            del self._clients[job.client]
        self._give_turns()

    def _give_turns(self) -> None:
        """Give each free process the next job: that of the client with the most CPU left among
        those below their share of processes."""
        while self._running < self.pool.size:
            ready = [
                (client, queue)
                for client, queue in self._clients.items()
                if queue.waiting and queue.running < self._most_running
            ]
            if not ready:
                return
            _, queue = max(ready, key=lambda each: (self.quotas.cpu_left(each[0]), -each[1].waiting[0].order))
            job = queue.waiting.popleft()
            queue.running += 1
            self._running += 1
            job.turn.set_result(None)
