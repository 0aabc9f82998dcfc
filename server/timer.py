"""The timer that makes clocks run out with nobody calling.

Each game with a running clock has its deadline stored with its last action. The timer sleeps
until the earliest stored deadline (or :data:`POLL_SECONDS`, to see the deadlines other
processes sharing the store wrote), then records the time loss of every game whose deadline has
passed, through :meth:`Tables.expire`: as any action, decided on the game as stored and written
only if nothing was written first, so that of several processes racing to expire one clock
exactly one records it. A server that was down when a deadline passed records it as soon as it
is up again, dated at the deadline itself.
"""

from __future__ import annotations

import asyncio
import contextlib

import structlog

from tavli.server.errors import GameDataLost, GameNotFound, ShuttingDown, StoreUnavailable
from tavli.server.tables import Tables

log = structlog.get_logger("tavli.server")

POLL_SECONDS = 1.0
"""The longest the timer sleeps: a deadline written by another process is seen this soon."""
_MOST_AT_ONCE = 100  # clocks expired before the timer looks at the store again


class Timer:
    """Runs out the clocks of ``tables``' games on time (see the module's words)."""

    def __init__(self, tables: Tables, *, poll: float = POLL_SECONDS) -> None:
        self.tables = tables
        self.poll = poll
        self._woken = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="tavli-clock-timer")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait([self._task])  # its end, not its CancelledError (nor a stop's own)

    def wake(self, deadline: float) -> None:
        """Hear of a deadline this process stored: the timer looks again, in case it is sooner."""
        self._woken.set()

    async def _run(self) -> None:
        store = self.tables.store
        while True:
            now = self.tables.clock()
            stuck = False
            try:
                due = await asyncio.to_thread(store.due, now, _MOST_AT_ONCE)
                for name in due:
                    if await self._expire(name) is False:
                        stuck = True
                next_deadline = await asyncio.to_thread(store.next_deadline, now)
            except StoreUnavailable as error:
                log.warning("clock timer cannot read the store", error=str(error))
                due, next_deadline, stuck = [], None, True
            if len(due) == _MOST_AT_ONCE and not stuck:
                continue  # more may be due
            wait = self.poll
            if next_deadline is not None:
                wait = min(wait, max(0.0, next_deadline - self.tables.clock()))
            self._woken.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._woken.wait()

    async def _expire(self, name: str) -> bool:
        """Expire game ``name``'s clock; False if it could not be done now (tried again later)."""
        try:
            await self.tables.expire(name)
        except (GameNotFound, GameDataLost, StoreUnavailable) as error:
            log.warning("clock timer cannot expire a clock", game=name, error=str(error))
            return False
        except ShuttingDown:
            return False
        return True
