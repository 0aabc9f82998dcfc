"""The server's evaluator processes: a fixed number of them, each answering one question at a time.

gnubg crashes a process that evaluates anywhere but in its main thread, and an evaluation is
bound by the CPU: so each evaluator is a process of its own (spawned, not forked from a server
that runs threads), asked over a pipe, and the event loop only waits for the pipe to be readable.
The processes start with the first question, not with the server.

A question's process is killed and replaced when its caller goes away (the call is cancelled:
gnubg cannot be interrupted, and the answer is no longer wanted) and when it dies; then the
question fails with :class:`~tavli.server.errors.EvaluatorUnavailable`, as does a question the
evaluator fails to answer (the process goes on); a cube decision gnubg says the side on roll
cannot make fails with :class:`~tavli.server.errors.CannotDouble`.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Literal

from tavli.server.errors import CannotDouble, EvaluatorUnavailable

Question = Literal["evaluate", "play_equities", "reviewed_play_equities", "cube_decision", "luck"]


class EvaluatorLost(EvaluatorUnavailable):
    """The evaluator process died while it answered."""


class EvaluatorPool:
    """``size`` evaluator processes; :meth:`ask` puts one question to the first free one."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("an evaluator pool has at least one process")
        self.size = size
        self._spawn = multiprocessing.get_context("spawn")
        self._free: asyncio.Queue[_Evaluator] | None = None
        self._all: set[_Evaluator] = set()
        self._closed = False

    async def ask(
        self,
        question: Question,
        *arguments: Any,
        on_cpu: Callable[[float], None] | None = None,
        **options: Any,
    ) -> Any:
        """``question(*arguments, **options)`` answered in a free evaluator process: ``question``
        names a function of :mod:`~tavli.server.analysis.gnubg_evaluator` (which only the evaluator
        processes import), ``arguments`` and ``options`` are plain values. ``on_cpu`` is told the
        CPU seconds the process spent answering (whether or not it could).

        :raises EvaluatorLost: if the process died meanwhile (it is replaced).
        :raises EvaluatorUnavailable: if the question raised an error there.
        """
        free = self._free_evaluators()
        evaluator = await free.get()
        try:
            return await evaluator.ask(question, arguments, options, on_cpu)
        except (EvaluatorLost, asyncio.CancelledError):
            self._retire(evaluator)
            if not self._closed:
                evaluator = self._start_one()
            raise
        finally:
            if not self._closed:
                free.put_nowait(evaluator)

    @property
    def process_ids(self) -> list[int]:
        """The evaluator processes running now (for tests and operators)."""
        return sorted(evaluator.process.pid for evaluator in self._all if evaluator.process.pid is not None)

    def close(self) -> None:
        """End every evaluator process (those answering are killed)."""
        self._closed = True
        for evaluator in list(self._all):
            self._retire(evaluator)

    def _free_evaluators(self) -> asyncio.Queue[_Evaluator]:
        if self._closed:
            raise EvaluatorLost("the server is stopping: ask again later")
        if self._free is None:
            self._free = asyncio.Queue()
            for _ in range(self.size):
                self._free.put_nowait(self._start_one())
        return self._free

    def _start_one(self) -> _Evaluator:
        ours, theirs = self._spawn.Pipe()
        process = self._spawn.Process(
            target=_answer_questions, args=(theirs,), name="tavli-evaluator", daemon=True
        )
        process.start()
        theirs.close()  # so that the process's death reads as the end of our pipe
        evaluator = _Evaluator(process, ours)
        self._all.add(evaluator)
        return evaluator

    def _retire(self, evaluator: _Evaluator) -> None:
        self._all.discard(evaluator)
        evaluator.process.kill()
        evaluator.process.join(timeout=5)
        evaluator.pipe.close()


class _Evaluator:
    def __init__(self, process: BaseProcess, pipe: Connection) -> None:
        self.process = process
        self.pipe = pipe

    async def ask(
        self,
        question: Question,
        arguments: tuple[Any, ...],
        options: dict[str, Any],
        on_cpu: Callable[[float], None] | None,
    ) -> Any:
        try:  # an evaluator that died while it waited fails at once, at the send
            self.pipe.send((question, arguments, options))
            await self._readable()
            ok, answer, cpu_seconds = self.pipe.recv()
        except (EOFError, OSError):
            raise EvaluatorLost("the evaluator stopped while it answered: ask again") from None
        if on_cpu is not None:
            on_cpu(cpu_seconds)
        if not ok:
            refused_by_the_rules, words = answer
            if refused_by_the_rules:
                raise CannotDouble(words)
            raise EvaluatorUnavailable(f"the evaluator could not answer: {words}")
        return answer

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


def _answer_questions(pipe: Connection) -> None:
    """An evaluator process: answer each question from the pipe until it closes."""
    from tavli.server.analysis import gnubg_evaluator
    from tavli.server.workers import exit_with_parent

    exit_with_parent()
    gnubg_evaluator.start()
    while True:
        try:
            message = pipe.recv()
        except EOFError:
            return
        question, arguments, options = message
        started = time.process_time()
        try:
            answer: tuple[bool, Any] = (True, getattr(gnubg_evaluator, question)(*arguments, **options))
        except gnubg_evaluator.CannotDouble as error:
            answer = (False, (True, str(error)))
        except Exception as error:  # noqa: BLE001 - its words go back to the caller; the process goes on
            answer = (False, (False, str(error)))
        pipe.send((*answer, time.process_time() - started))
