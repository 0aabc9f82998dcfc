"""A task cancelled just as what it waits for happens is cancelled all the same.

Python 3.11's ``asyncio.wait_for`` returns the result, and drops the cancellation, when the
awaited thing completes in the same turn of the loop as the cancel: a loop around it then goes on
waiting, cancelled for nobody. A server stopped as its clock timer was woken (a clock started
the same moment) hung in its shutdown that way. The server's waits use ``asyncio.timeout``.
"""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace
from typing import Any, cast

import pytest

from tavli.server.tables import Table
from tavli.server.timer import Timer

WITHIN = 5.0  # seconds: a bound on a stop that takes a turn of the loop, not a measure


class _NoDeadlines:
    """A store in which no clock is running; ``asked`` is set once the timer has asked it when
    the next deadline is (what it does last before it waits)."""

    def __init__(self) -> None:
        self.asked = threading.Event()

    def due(self, now: float, most: int) -> list[str]:
        return []

    def next_deadline(self, now: float) -> float | None:
        self.asked.set()
        return None


def test_a_timer_stopped_as_it_is_woken_stops() -> None:
    async def scenario() -> None:
        store = _NoDeadlines()
        timer = Timer(cast(Any, SimpleNamespace(store=store, clock=lambda: 0.0)), poll=60.0)
        timer.start()
        assert await asyncio.to_thread(store.asked.wait, WITHIN)
        await asyncio.sleep(0.01)  # its answer back on the loop: the timer waits to be woken
        async with asyncio.timeout(WITHIN):
            timer.wake(0.0)  # a clock started as the server stops
            await timer.stop()

    asyncio.run(scenario())


def test_a_watcher_cancelled_as_its_game_changes_is_cancelled() -> None:
    async def scenario() -> None:
        table = Table(cast(Any, None), cast(Any, None))
        watcher = asyncio.create_task(table.wait(60.0))
        await asyncio.sleep(0.01)
        table.wake()  # a new version stored ...
        watcher.cancel()  # ... as the watch's client went away, in one turn
        with pytest.raises(asyncio.CancelledError):
            await watcher

    asyncio.run(scenario())
