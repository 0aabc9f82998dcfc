"""A task cancelled just as what it waits for happens is cancelled all the same.

Python 3.11's ``asyncio.wait_for`` returns the result, and drops the cancellation, when the
awaited thing completes in the same turn of the loop as the cancel: a loop around it then goes on
waiting, cancelled for nobody. A server stopped as its clock timer was woken (a clock started
the same moment) hung in its shutdown that way. The server's waits use ``asyncio.timeout``.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import pytest

from tavli.server.tables import Table
from tavli.server.timer import Timer

WITHIN = 5.0  # seconds: a bound on a stop that takes a turn of the loop, not a measure


class _NoDeadlines:
    """A store in which no clock is running."""

    def due(self, now: float, most: int) -> list[str]:
        return []

    def next_deadline(self, now: float) -> float | None:
        return None


def test_a_timer_stopped_as_it_is_woken_stops() -> None:
    async def scenario() -> None:
        tables = SimpleNamespace(store=_NoDeadlines(), clock=lambda: 0.0)
        timer = Timer(cast(Any, tables), poll=60.0)
        timer.start()
        for _ in range(100):  # until it sleeps, waiting to be woken (a bound, not a wait)
            await asyncio.sleep(0.01)
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
