"""Jobs for the fair queue's tests, run in its processes: each says it started (a file named after
it in a folder), and a held one holds its process until the gate (a file) is there. The heavy
work's own record checks and imports are here too, so that real records can be sent to a queue
whose processes are held."""

from __future__ import annotations

import os
import time
from pathlib import Path

from tavli.server.errors import BadRequest
from tavli.server.heavy_work import imported, validated

__all__ = ["broken", "held", "imported", "quick", "refused", "spend", "spin", "started_jobs", "validated"]

HELD_AT_MOST = 60.0  # seconds a held job waits for its gate before it lets go anyway


def held(folder: str, name: str) -> str:
    """Say ``name`` started (with the process's id), then hold the process until ``folder``'s
    gate opens."""
    started(folder, name)
    gate = Path(folder, "gate")
    deadline = time.monotonic() + HELD_AT_MOST
    while not gate.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return name


def spin(folder: str, name: str, seconds: float) -> str:
    """Spend ``seconds`` of CPU, say ``name`` started, then spend CPU until ``folder``'s gate opens."""
    spent_by = time.process_time() + seconds
    while time.process_time() < spent_by:
        pass
    started(folder, name)
    gate = Path(folder, "gate")
    deadline = time.monotonic() + HELD_AT_MOST
    while not gate.exists() and time.monotonic() < deadline:
        sum(range(10_000))
    return name


def quick(folder: str, name: str) -> str:
    """Say ``name`` started, and end."""
    started(folder, name)
    return name


def spend(rounds: int) -> int:
    """Some CPU."""
    return sum(number * number for number in range(rounds))


def refused(words: str) -> None:
    raise BadRequest(words)


def broken(words: str) -> None:
    raise ValueError(words)


def started(folder: str, name: str) -> None:
    """Say ``name`` started: the file appears whole (written aside, then renamed), so that a test
    reading it never sees it empty."""
    aside = Path(folder, f"starting-{name}")
    aside.write_text(str(os.getpid()))
    aside.rename(Path(folder, f"started-{name}"))


def started_jobs(folder: Path) -> dict[str, int]:
    """The jobs that started, each with the id of the process that ran it."""
    return {path.name.removeprefix("started-"): int(path.read_text()) for path in folder.glob("started-*")}
