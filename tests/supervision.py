"""Servers as an operator runs them: ``tavli serve --workers N`` with its JSON log, what the log
says, and waiting on either with a bound."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tests.server_play import ServeProcess, stop_process, tavli_serve

WAIT_SECONDS = 20.0


def log_lines(path: Path) -> list[dict[str, Any]]:
    """The JSON lines logged so far (gRPC's own lines, which are not JSON, left out)."""
    lines = []
    for text in path.read_text(errors="replace").splitlines():
        with contextlib.suppress(ValueError):
            line = json.loads(text)
            if isinstance(line, dict):
                lines.append(line)
    return lines


def logged(path: Path, event: str) -> list[dict[str, Any]]:
    """The JSON lines logged so far for ``event``."""
    return [line for line in log_lines(path) if line.get("event") == event]


def wait_for(what: str, found: Callable[[], Any], within: float = WAIT_SECONDS) -> Any:
    """``found()`` once it is true; fails after ``within`` seconds."""
    deadline = time.monotonic() + within
    while True:
        result = found()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {within} s")
        time.sleep(0.05)


def serving_pids(log: Path) -> set[int]:
    return {line["pid"] for line in logged(log, "serving")}


def exited_pids(log: Path) -> set[int]:
    return {line["pid"] for line in logged(log, "worker exited")}


def is_gone(pid: int) -> bool:
    """Whether process ``pid`` has exited, every thread of it, so that its sockets are closed.

    A zombie nobody reaped has; one whose main thread is a zombie while others still exit
    has not.
    """
    process = Path(f"/proc/{pid}")
    try:
        state = (process / "stat").read_text().rpartition(")")[2].split()[0]
        threads = len(os.listdir(process / "task"))
    except FileNotFoundError:
        return True
    return state in ("Z", "X") and threads <= 1


@contextlib.contextmanager
def supervised(tmp_path: Path, workers: int = 2, *arguments: str) -> Iterator[tuple[ServeProcess, Path]]:
    """``tavli serve --workers N`` (and ``arguments``) logging JSON lines to a file; killed after,
    workers too."""
    log = tmp_path / "serve.log"
    database = str(tmp_path / "games.sqlite3")
    served = tavli_serve("--workers", str(workers), "--db", database, "--log-json", *arguments, stderr=log)
    pids: set[int] = set()
    try:
        pids = wait_for(f"{workers} workers serving", lambda: len(serving_pids(log)) >= workers)
        pids = serving_pids(log)
        yield served, log
    finally:
        stop_process(served.process)
        for pid in serving_pids(log) | pids:
            if not is_gone(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
