"""``tavli serve --workers N``: a supervisor process and N worker processes sharing one port.

The workers listen on the same port with SO_REUSEPORT (the kernel spreads connections over
them) and share their games through the database. The supervisor serves nothing itself: it
starts the workers, restarts one that exits (after a short pause that grows while it keeps
failing, and not forever: a worker that cannot stay up makes the supervisor stop and exit with
status 1), and on SIGTERM or SIGINT stops them all, gracefully, then by force. A worker that
cannot start for a reason it can name (a :class:`~tavli.server.startup.StartupError`: a damaged
database, say) is not restarted: the supervisor stops and raises that error itself, so that the
command says it in one line.

A worker must not outlive its supervisor: nobody would stop it, and it would go on answering on
the port, beside the workers of the next supervisor. So each worker calls
:func:`exit_with_parent` first (the supervisor does it for ``run_worker``, which may call it
again): when the supervisor dies, even by SIGKILL, the worker gets SIGTERM and stops as it
would on the supervisor's word, and exits at once if that takes too long.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import TYPE_CHECKING

import structlog

from tavli.server import logs
from tavli.server.startup import StartupError

if TYPE_CHECKING:
    from tavli.server.app import ServerConfig

log = structlog.get_logger("tavli.server")

RunWorker = Callable[["ServerConfig", bool], None]
"""Serves one worker until SIGTERM: ``run_worker(worker_config, json_lines)``; a top-level
function, so that it can be named to a spawned process."""

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
# A worker's exit status when it could not start and told its supervisor why.
CANNOT_START = 2
# Beyond a worker's grace: the time it may take to stop its server and close its store.
STOP_MARGIN_SECONDS = 5.0

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_watching_parent = False  # in a worker: whether exit_with_parent has been called


@dataclass(frozen=True, slots=True)
class RestartPolicy:
    """When the supervisor restarts a worker that exited, and when it gives up.

    A worker restarted ``most_restarts`` times within ``window_seconds`` that exits again is
    failing for a reason a restart will not cure (a database it cannot open, a port it cannot
    bind): the supervisor then stops the other workers and exits with status 1.
    """

    first_delay_seconds: float = 0.5  # doubling with each restart in the window, up to the longest
    longest_delay_seconds: float = 5.0
    most_restarts: int = 5
    window_seconds: float = 60.0

    def delay(self, recent_restarts: int) -> float:
        """How long to wait before restarting a worker restarted ``recent_restarts`` times lately."""
        return min(self.first_delay_seconds * 2.0 ** min(recent_restarts, 30), self.longest_delay_seconds)


def supervise(config: ServerConfig, run_worker: RunWorker, *, policy: RestartPolicy = RestartPolicy()) -> int:
    """Serve with ``config.workers`` processes, each running ``run_worker``, until SIGTERM or
    SIGINT; returns the exit status: 0 after a stop signal, 1 if a worker kept failing.

    Call it from the main thread (it handles the stop signals, and a worker's death signal is
    tied to the thread that started it); the previous signal handlers are back when it returns.

    :raises StartupError: if the workers could not share the port and the games
        (``config.port`` 0, ``config.db`` None) or there is no worker to run; or the one a
        worker raised when it could not start (the other workers stopped first).
    """
    if config.workers < 1:
        raise StartupError("--workers is at least 1")
    if config.port == 0:
        raise StartupError("--workers needs a fixed --port for the workers to share")
    if config.db is None:
        raise StartupError("--workers needs a --db file: the workers share their games through it")
    worker_config = replace(config, workers=1, shared_store=True)
    supervisor = _Supervisor(worker_config, run_worker, logs.json_lines_chosen(), config.workers, policy)
    with _stop_signals() as stop:
        try:
            return supervisor.run(stop)
        finally:
            supervisor.kill_all()  # only if supervising itself failed: no worker is left running


def exit_with_parent(*, grace_seconds: float = 5.0) -> None:
    """Arrange for this process (a worker) to stop when its parent (the supervisor) dies.

    On the parent's death the worker gets SIGTERM, so it stops serving as on the supervisor's
    word; if it has not exited ``grace_seconds`` (plus a margin) later, it exits at once. Linux
    sends the signal itself (``PR_SET_PDEATHSIG``); elsewhere, and as a second watch, a daemon
    thread waits on the pipe from the parent that closes when the parent dies. A process that
    multiprocessing did not start has no such parent: then this does nothing, as it does when
    called again (the supervisor's workers call it before ``run_worker`` runs).
    """
    global _watching_parent
    parent = multiprocessing.parent_process()
    if _watching_parent or parent is None or parent.sentinel is None:
        return
    _watching_parent = True
    _ask_linux_for_a_death_signal(signal.SIGTERM)
    # Started after the request, so that a parent that died before it is still seen: its pipe is
    # closed already and the watch returns at once.
    watch = threading.Thread(
        target=_stop_when_parent_dies,
        args=(parent.sentinel, parent.pid, grace_seconds + STOP_MARGIN_SECONDS),
        name="tavli-parent-watch",
        daemon=True,
    )
    watch.start()


# --- the supervisor ------------------------------------------------------------------------------


@dataclass
class _Slot:
    """One of the N workers: its current process, and when it was restarted lately."""

    number: int
    process: BaseProcess | None = None
    report: Connection | None = None  # where its process says why it could not start
    restart_due: float | None = None
    restarts: deque[float] = field(default_factory=deque)

    def recent_restarts(self, now: float, window: float) -> int:
        while self.restarts and now - self.restarts[0] > window:
            self.restarts.popleft()
        return len(self.restarts)


@dataclass
class _StopSignals:
    """The stop signals received, and a pipe written at each so that a wait can wake on it."""

    wakeup: int
    received: list[int] = field(default_factory=list)

    def drain(self) -> None:
        with contextlib.suppress(BlockingIOError):
            while os.read(self.wakeup, 64):
                pass


class _Supervisor:
    def __init__(
        self,
        worker_config: ServerConfig,
        run_worker: RunWorker,
        json_lines: bool,
        count: int,
        policy: RestartPolicy,
    ) -> None:
        self.worker_config = worker_config
        self.run_worker = run_worker
        self.json_lines = json_lines
        self.policy = policy
        self.context = multiprocessing.get_context("spawn")
        self.slots = [_Slot(number) for number in range(count)]

    def run(self, stop: _StopSignals) -> int:
        for slot in self.slots:
            self._start(slot)
        log.info(
            "workers started",
            workers=len(self.slots),
            port=self.worker_config.port,
            pids=[slot.process.pid for slot in self.slots if slot.process],
            pid=os.getpid(),
        )
        failure: int | StartupError = 0
        while not stop.received:
            self._wait(stop, self._until_next_restart())
            stop.drain()
            if stop.received:
                break
            now = time.monotonic()
            failure = self._reap(now)
            if failure:
                break
            for slot in self.slots:
                if slot.restart_due is not None and slot.restart_due <= now:
                    self._restart(slot, now)
        self._stop_all(stop)
        exit_code = CANNOT_START if isinstance(failure, StartupError) else failure
        log.info("stopped", exit_code=exit_code)
        if isinstance(failure, StartupError):
            raise failure
        return exit_code

    def kill_all(self) -> None:
        for slot in self.slots:
            if slot.process is not None and slot.process.exitcode is None:
                slot.process.kill()
                slot.process.join(STOP_MARGIN_SECONDS)

    def _start(self, slot: _Slot) -> None:
        report, reporter = self.context.Pipe(duplex=False)
        process = self.context.Process(
            target=_run_worker,
            args=(self.run_worker, self.worker_config, self.json_lines, reporter),
            name=f"tavli-worker-{slot.number}",
            # Not daemonic, so that a worker may start processes of its own (its heavy work's, its
            # evaluators); the supervisor stops each worker itself, and a worker exits with it.
            daemon=False,
        )
        try:
            process.start()
        finally:
            reporter.close()  # the worker has its own end: this one reads EOF once it exits
        slot.process = process
        slot.report = report
        slot.restart_due = None

    def _restart(self, slot: _Slot, now: float) -> None:
        slot.restarts.append(now)
        self._start(slot)
        assert slot.process is not None
        log.info(
            "worker restarted",
            worker=slot.number,
            pid=slot.process.pid,
            restarts=slot.recent_restarts(now, self.policy.window_seconds),
            window_seconds=self.policy.window_seconds,
        )

    def _reap(self, now: float) -> int | StartupError:
        """Note the workers that exited and when to restart each; 0 to go on, else why to give
        up: status 1 (a worker kept failing) or the StartupError a worker could not start with."""
        for slot in self.slots:
            process = slot.process
            if process is None or process.exitcode is None:
                continue
            _log_exit(slot.number, process, log.warning)
            why = _why_it_could_not_start(slot)
            process.close()
            slot.process = None
            if why is not None:
                log.error("worker cannot start", worker=slot.number, error=why)
                return StartupError(why)
            recent = slot.recent_restarts(now, self.policy.window_seconds)
            if recent >= self.policy.most_restarts:
                log.error(
                    "worker keeps failing",
                    worker=slot.number,
                    restarts=recent,
                    window_seconds=self.policy.window_seconds,
                )
                return 1
            slot.restart_due = now + self.policy.delay(recent)
        return 0

    def _until_next_restart(self) -> float | None:
        due = [slot.restart_due for slot in self.slots if slot.restart_due is not None]
        return max(0.0, min(due) - time.monotonic()) if due else None

    def _wait(self, stop: _StopSignals, timeout: float | None) -> None:
        """Until a worker exits, a stop signal comes or ``timeout`` seconds pass."""
        sentinels: list[int] = [slot.process.sentinel for slot in self.slots if slot.process is not None]
        multiprocessing.connection.wait([*sentinels, stop.wakeup], timeout)

    def _stop_all(self, stop: _StopSignals) -> None:
        """SIGTERM to every worker; SIGKILL to those still running after their grace (or at a
        second stop signal)."""
        live = [slot for slot in self.slots if slot.process is not None]
        log.info("stopping", grace_seconds=self.worker_config.grace_seconds, workers=len(live))
        for slot in self.slots:
            slot.restart_due = None
        signals_seen = len(stop.received)
        for slot in live:
            assert slot.process is not None
            if slot.process.exitcode is None:
                slot.process.terminate()
        deadline = time.monotonic() + self.worker_config.grace_seconds + STOP_MARGIN_SECONDS
        while live and time.monotonic() < deadline and len(stop.received) <= signals_seen:
            self._wait(stop, deadline - time.monotonic())
            stop.drain()
            live = self._reap_stopped(live)
        for slot in live:
            assert slot.process is not None
            log.warning("worker killed", worker=slot.number, pid=slot.process.pid)
            slot.process.kill()
            slot.process.join(STOP_MARGIN_SECONDS)
        self._reap_stopped(live)

    def _reap_stopped(self, live: list[_Slot]) -> list[_Slot]:
        still = []
        for slot in live:
            assert slot.process is not None
            if slot.process.exitcode is None:
                still.append(slot)
                continue
            _log_exit(slot.number, slot.process, log.info)
            _why_it_could_not_start(slot)
            slot.process.close()
            slot.process = None
        return still


def _why_it_could_not_start(slot: _Slot) -> str | None:
    """What the slot's exited process reported, if it could not start; closes the report."""
    report, slot.report = slot.report, None
    if report is None:
        return None
    try:
        why = report.recv() if report.poll() else None
    except (EOFError, OSError):
        why = None
    report.close()
    return why if isinstance(why, str) else None


def _log_exit(number: int, process: BaseProcess, level: Callable[..., object]) -> None:
    code = process.exitcode
    assert code is not None
    how: dict[str, object] = {"exit_code": code}
    if code < 0:
        with contextlib.suppress(ValueError):
            how = {"signal": signal.Signals(-code).name}
    level("worker exited", worker=number, pid=process.pid, **how)


@contextlib.contextmanager
def _stop_signals() -> Iterator[_StopSignals]:
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    os.set_blocking(write_end, False)
    stop = _StopSignals(read_end)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.received.append(signum)
        with contextlib.suppress(BlockingIOError):
            os.write(write_end, b"\0")

    previous = {signum: signal.signal(signum, on_signal) for signum in STOP_SIGNALS}
    try:
        yield stop
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        os.close(read_end)
        os.close(write_end)


# --- the worker's side ---------------------------------------------------------------------------


def _run_worker(run_worker: RunWorker, config: ServerConfig, json_lines: bool, report: Connection) -> None:
    """A worker process: ``run_worker``, telling the supervisor why if it cannot start."""
    # Ctrl-C on a terminal reaches the whole process group: the supervisor stops the workers.
    # A worker that serves handles SIGINT again (as a stop) when it sets its own handlers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(grace_seconds=config.grace_seconds)
    try:
        run_worker(config, json_lines)
    except StartupError as error:
        with contextlib.suppress(OSError):
            report.send(str(error))
        sys.exit(CANNOT_START)
    finally:
        report.close()


def _ask_linux_for_a_death_signal(signum: int) -> None:
    """Have the kernel send ``signum`` to this process when its parent dies (Linux only)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # the watch thread still stops the worker


def _stop_when_parent_dies(sentinel: int, parent_pid: int | None, most_seconds: float) -> None:
    multiprocessing.connection.wait([sentinel])
    log.warning("supervisor gone; stopping", supervisor=parent_pid, pid=os.getpid())
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(most_seconds)
    os._exit(1)  # the graceful stop did not end in time
