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


def test_a_wait_listens_to_the_tables_signal_only_while_it_waits_however_it_ends() -> None:
    """The signal is shared by every watcher and seat stream of the game, for as long as no new
    version is stored: a wait ended by its stream's next message, its timeout or its cancellation
    leaves no listener on it (nor on the message it raced), and one ended by a new version ends."""

    async def scenario() -> None:
        table = Table(cast(Any, None), cast(Any, None))
        signal = table._changed
        message = asyncio.get_running_loop().create_future()
        by_message = asyncio.create_task(table.wait(60.0, until=message))
        by_timeout = asyncio.create_task(table.wait(0.05))
        cancelled = asyncio.create_task(table.wait(60.0))
        await asyncio.sleep(0)
        assert len(signal._callbacks) == 3  # each listening while it waits
        message.set_result(None)
        await asyncio.wait_for(by_message, WITHIN)
        await asyncio.wait_for(by_timeout, WITHIN)
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cancelled
        assert not signal._callbacks and not message._callbacks
        by_version = asyncio.create_task(table.wait(60.0))
        await asyncio.sleep(0)
        table.wake()
        await asyncio.wait_for(by_version, WITHIN)
        assert not table._changed._callbacks

    asyncio.run(scenario())
