"""Processes of the server's own for work bound by the CPU: a fixed number of them, each doing
one call at a time.

Python runs one thread at a time, so work that takes seconds of CPU on a thread of the server
would make the event loop, and every call on it, wait for the interpreter's lock; and gnubg
crashes a process that evaluates anywhere but in its main thread. So such work runs in processes
of its own (spawned, not forked from a server that runs threads), each asked over a pipe, and the
event loop only waits for the pipe to be readable (a thread writes the arguments and reads the
answer). The processes start with the first call.

A pool runs the functions of one module (named, so that only its processes import it), with plain
values as arguments and answers. A call's process is killed and replaced when its caller goes
away (the call is cancelled: the work cannot be interrupted, and its answer is no longer wanted;
the CPU it spent until then is still counted, where Linux's /proc tells it) and when it dies;
the call then fails with the pool's ``unavailable`` error, in words. An error of the service
(:class:`~tavli.server.errors.ServiceError`: a refusal in words) raised there is raised here as
it is; any other error there fails the call with ``unavailable`` and its words, and the process
goes on.

The processes run at a lower CPU priority than the server (:data:`NICENESS`): on a machine whose
cores are all busy, the scheduler gives the event loop, which answers everyone, its turn before
the processes' long work. A call too small to be worth the hand-off to a process (the pickling,
the pipe and the other process's turn on a CPU) may be answered by :meth:`ProcessPool.call_here`
instead, in the server's own process, with the same answers and errors.
"""

from __future__ import annotations

import asyncio
import importlib
import multiprocessing
import os
import pickle
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from types import ModuleType
from typing import Any

from tavli.server.errors import ServiceError

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

NICENESS = 10
"""How much lower the processes' CPU priority is than the server's (``os.nice``): at 10, Linux's
scheduler gives a busy process of the pool about a tenth of the CPU time of a busy server."""


class ProcessPool:
    """``size`` processes running the functions of ``module``; :meth:`call` runs one in the first
    free process. ``module`` may have a ``start()`` function, which each process runs first, and a
    ``before_call()`` function, which it runs before each call (its time counted as the call's)."""

    def __init__(self, size: int, module: str, *, name: str, unavailable: type[ServiceError]) -> None:
        """``name`` says what a process is, in words (its errors say it; ``ps`` shows it as
        ``tavli-NAME``); ``unavailable`` is the error a call fails with when its process died or
        could not answer."""
        if size < 1:
            raise ValueError("a process pool has at least one process")
        self.size = size
        self.module = module
        self.name = name
        self.unavailable = unavailable
        self._spawn = multiprocessing.get_context("spawn")
        self._free: asyncio.Queue[_Worker] | None = None
        self._all: set[_Worker] = set()
        self._closed = False

    async def call(
        self,
        function: str,
        *arguments: Any,
        on_cpu: Callable[[float], None] | None = None,
        **options: Any,
    ) -> Any:
        """``function(*arguments, **options)`` answered in a free process: ``function`` names a
        function of the pool's module, ``arguments`` and ``options`` are plain values (they are
        pickled). ``on_cpu`` is told the CPU seconds the process spent (whether or not it could
        answer).

        :raises ServiceError: the error the function raised, if it is one of the service's.
        :raises unavailable: if the process died meanwhile (it is replaced), or the function
            raised another error.
        """
        free = self._free_workers()
        worker = await free.get()
        cpu_before = worker.cpu_seconds()
        try:
            return await worker.call(function, arguments, options, on_cpu, self.unavailable, self.name)
        except _WorkerLost:
            worker = self._replace(worker)
            raise self.unavailable(f"the {self.name} stopped while it worked: ask again") from None
        except asyncio.CancelledError:
            cpu_after = worker.cpu_seconds()  # what the call cost until now, before its process goes
            if on_cpu is not None and cpu_before is not None and cpu_after is not None:
                on_cpu(cpu_after - cpu_before)
            worker = self._replace(worker)
            raise
        finally:
            if not self._closed:
                free.put_nowait(worker)

    def call_here(
        self,
        function: str,
        *arguments: Any,
        on_cpu: Callable[[float], None] | None = None,
        **options: Any,
    ) -> Any:
        """``function(*arguments, **options)`` answered here, on the caller's thread, as a process of
        the pool would answer it: for a call that costs less than the hand-off to a process. The
        pool's module is imported here with the first such call. ``on_cpu`` is told the thread's
        CPU seconds.

        :raises ServiceError: the error the function raised, if it is one of the service's.
        :raises unavailable: if the function raised another error.
        """
        module = importlib.import_module(self.module)
        ok, answer, cpu_seconds = _answer(module, function, arguments, options, clock=time.thread_time)
        if on_cpu is not None:
            on_cpu(cpu_seconds)
        return _returned(ok, answer, self.unavailable, self.name)

    @property
    def process_ids(self) -> list[int]:
        """The pool's processes running now (for tests and operators)."""
        return sorted(worker.process.pid for worker in self._all if worker.process.pid is not None)

    def close(self) -> None:
        """End every process of the pool (those working are killed)."""
        self._closed = True
        for worker in list(self._all):
            self._retire(worker)

    def _free_workers(self) -> asyncio.Queue[_Worker]:
        if self._closed:
            raise self.unavailable("the server is stopping: ask again later")
        if self._free is None:
            free: asyncio.Queue[_Worker] = asyncio.Queue()
            try:
                for _ in range(self.size):
                    free.put_nowait(self._start_one())
            except (OSError, ValueError, AssertionError) as error:  # what starting a process raises
                for worker in list(self._all):
                    self._retire(worker)
                raise self.unavailable(
                    f"the server cannot start a {self.name} now ({error}): ask again later"
                )
            self._free = free
        return self._free

    def _start_one(self) -> _Worker:
        ours, theirs = self._spawn.Pipe()
        process = self._spawn.Process(
            target=_serve,
            args=(theirs, self.module),
            name=f"tavli-{self.name.replace(' ', '-')}",
            daemon=True,
        )
        process.start()
        theirs.close()  # so that the process's death reads as the end of our pipe
        worker = _Worker(process, ours)
        self._all.add(worker)
        return worker

    def _replace(self, worker: _Worker) -> _Worker:
        """A new process in place of ``worker``, which is killed (unless the pool is closed)."""
        self._retire(worker)
        return worker if self._closed else self._start_one()

    def _retire(self, worker: _Worker) -> None:
        self._all.discard(worker)
        worker.process.kill()
        worker.process.join(timeout=5)
        worker.close()


class _WorkerLost(Exception):
    """Marks a call whose process died: the pool replaces it."""


class _Worker:
    def __init__(self, process: BaseProcess, pipe: Connection) -> None:
        self.process = process
        self.pipe = pipe
        # The pipe's thread: a process's own, so that a long crossing waits for no other work's
        # threads (the store's, the folds') and holds none of them.
        self._crossing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tavli-pipe")
        self._closed = False

    def close(self) -> None:
        """Close the pipe once a crossing under way (of a call cancelled meanwhile) has ended: on
        its thread, after it, so that no crossing meets its descriptor closed or reused."""
        if not self._closed:
            self._closed = True
            self._crossing.submit(self.pipe.close)
            self._crossing.shutdown(wait=False)

    def cpu_seconds(self) -> float | None:
        """The CPU time the process has spent so far, as Linux's /proc tells it (None elsewhere)."""
        try:
            # After the command's name in parentheses: state, then 10 fields, then utime and stime.
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rpartition(")")[2].split()
            return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
        except (OSError, ValueError, IndexError):
            return None

    async def call(
        self,
        function: str,
        arguments: tuple[Any, ...],
        options: dict[str, Any],
        on_cpu: Callable[[float], None] | None,
        unavailable: type[ServiceError],
        name: str,
    ) -> Any:
        # The arguments and the answer cross on a thread: a long one (a record's text, an imported
        # log) takes many turns of the process, at its lower priority, to go through the pipe, and
        # the event loop would wait for each; the loop only waits for the answer to begin.
        loop = asyncio.get_running_loop()
        try:  # a process that died while it waited fails at once, at the send
            await loop.run_in_executor(self._crossing, self.pipe.send, (function, arguments, options))
            await self._readable()
            ok, answer, cpu_seconds = await loop.run_in_executor(self._crossing, self.pipe.recv)
        except (EOFError, OSError):
            raise _WorkerLost from None
        if on_cpu is not None:
            on_cpu(cpu_seconds)
        return _returned(ok, answer, unavailable, name)

    async def _readable(self) -> None:
        loop = asyncio.get_running_loop()
        readable = loop.create_future()
        descriptor = self.pipe.fileno()
        loop.add_reader(descriptor, _settle, readable)
        try:
            await readable
        finally:
            loop.remove_reader(descriptor)


def _settle(readable: asyncio.Future[None]) -> None:
    if not readable.done():
        readable.set_result(None)


def _returned(ok: bool, answer: Any, unavailable: type[ServiceError], name: str) -> Any:
    """A call's answer, or its error raised (see :func:`_answer`)."""
    if ok:
        return answer
    if isinstance(answer, ServiceError):
        raise answer
    raise unavailable(f"the {name} could not answer: {answer}")


def _answer(
    module: ModuleType,
    function: str,
    arguments: tuple[Any, ...],
    options: dict[str, Any],
    *,
    clock: Callable[[], float],
    before: Callable[[], None] | None = None,
) -> tuple[bool, Any, float]:
    """Whether ``function`` of ``module`` answered (``before`` called first, if given), its answer
    or its error (a service's error as it is, if it pickles, or words), and the CPU seconds it cost
    by ``clock``."""
    started = clock()
    try:
        if before is not None:
            before()
        answer: tuple[bool, Any] = (True, getattr(module, function)(*arguments, **options))
    except ServiceError as error:
        answer = (False, error if _pickles(error) else str(error))
    except Exception as error:  # noqa: BLE001 - its words go back to the caller; the process goes on
        answer = (False, f"{type(error).__name__}: {error}")
    return (*answer, clock() - started)


def _serve(pipe: Connection, module_name: str) -> None:
    """A pool's process: at a lower priority than the server (:data:`NICENESS`), run each call
    from the pipe until it closes."""
    from tavli.server.workers import exit_with_parent

    exit_with_parent()
    os.nice(NICENESS)
    module = importlib.import_module(module_name)
    start = getattr(module, "start", None)
    if start is not None:
        start()
    before_call = getattr(module, "before_call", None)
    while True:
        try:
            function, arguments, options = pipe.recv()
        except EOFError:
            return
        pipe.send(_answer(module, function, arguments, options, clock=time.process_time, before=before_call))


def _pickles(error: ServiceError) -> bool:
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:  # noqa: BLE001 - whatever it is, the words go back instead
        return False
    return True
