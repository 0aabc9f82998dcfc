"""The CPU the web process spends on each client's calls in the JSON mapping, owed to the
server, which charges it to the client's budget as it charges the work it does itself.

A browser's call costs the web process what turning its answers into JSON takes: for a watch
from the first event of a long game, read to its end, a minute of CPU. (Its request is decoded
before the call's task knows whose it is, and is not counted: the body's size limit bounds it.)
The call's task says whose call it serves (:func:`serving`); the JSON codec counts what each
conversion took on its thread against that client (:meth:`JsonCost.counted`), and the web process
sends what is owed to the server every :data:`CHARGED_EVERY` seconds (:meth:`JsonCost.taken`).
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Iterator

from tavli.server.web_client import client_at

CHARGED_EVERY = 1.0
"""Seconds between the web process's reports of the CPU its clients owe."""

_SERVING: contextvars.ContextVar[str] = contextvars.ContextVar("tavli_web_serving", default="")


def serving(host: str) -> None:
    """Say that the current task serves a call of the browser at ``host`` (without its port)."""
    _SERVING.set(client_at(host))


class JsonCost:
    """The CPU seconds the JSON mapping took for each client since they were last taken."""

    def __init__(self) -> None:
        self._owed: dict[str, float] = {}

    @contextlib.contextmanager
    def counted(self) -> Iterator[None]:
        """Count the thread's CPU time in the block against the client the task serves (none
        before the call is known: a request's body is read before it)."""
        started = time.thread_time()
        try:
            yield
        finally:
            client = _SERVING.get()
            if client:
                self._owed[client] = self._owed.get(client, 0.0) + time.thread_time() - started

    def taken(self) -> dict[str, float]:
        """What each client owes since the last time, forgotten here."""
        owed, self._owed = self._owed, {}
        return owed
