"""Logging: structlog configured once, and one line per RPC.

JSON lines when standard error is not a terminal, the readable console form when it is. The
standard library's logs (grpc's among them) go through the same processors. Seat tokens are
never logged: the RPC line names the method, its gRPC status, the duration and the game.

Every call writes a line, so a line costs what it must and no more: structlog's own lines are
rendered by its processors and written straight to standard error (not handed to the standard
library's logging, which would build two records and look up the caller's frame for each), a
level that is off is not formatted at all, and a call's names are bound to its context and reset
by their tokens.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

import grpc
import grpc.aio
import structlog

from tavli.server.handlers import Context, WrappingInterceptor, responses_of, wrapped

log = structlog.get_logger("tavli.rpc")
_json_lines = True


def configure(
    *, json_lines: bool | None = None, level: int = logging.INFO, worker: int | None = None
) -> None:
    """Configure structlog and the standard library's logging; call once, from the entry point.

    ``worker`` (a worker process's id) is added to every line.
    """
    global _json_lines
    if json_lines is None:
        json_lines = not sys.stderr.isatty()
    _json_lines = json_lines
    shared: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    if worker is not None:
        shared.append(_add_worker(worker))
    renderer: Any = structlog.processors.JSONRenderer() if json_lines else structlog.dev.ConsoleRenderer()
    rendered: list[Any] = [
        structlog.processors.format_exc_info if json_lines else structlog.processors.StackInfoRenderer(),
        renderer,
    ]
    structlog.configure(
        processors=[*shared, *rendered],
        logger_factory=_LineWriter,
        wrapper_class=structlog.make_filtering_bound_logger(level),
        cache_logger_on_first_use=True,
    )
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *rendered],
    )
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter)
    handler.addFilter(_ClientWentAway())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


class _LineWriter(structlog.WriteLogger):
    """Where structlog's lines go: standard error, written whole; named as the logger it serves,
    for the line's ``logger``."""

    def __init__(self, name: str = "", *ignored: Any) -> None:
        super().__init__(sys.stderr)
        self.name = name


class _ClientWentAway(logging.Filter):
    """grpc.aio logs an error with a traceback when a stream's client goes away while a message
    is being written to it (a race inside gRPC between the write and the news of the close).
    Nothing went wrong on the server: that is one plain line."""

    _MESSAGE = "ExecuteBatchError raised in core by servicer method"

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("grpc.") and self._MESSAGE in record.getMessage():
            record.msg, record.args = "a client went away while its stream was being written", ()
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def _add_worker(worker: int) -> Callable[[Any, str, dict[str, Any]], dict[str, Any]]:
    def add_worker(logger: Any, method: str, event: dict[str, Any]) -> dict[str, Any]:
        event["worker"] = worker
        return event

    return add_worker


def json_lines_chosen() -> bool:
    """Whether :func:`configure` chose JSON lines (for worker processes to log alike)."""
    return _json_lines


class RpcLogInterceptor(WrappingInterceptor):
    """One log line per RPC: method, status, duration_ms, game. Outermost, so it sees final statuses."""

    def wrap(self, method: str, handler: Any) -> Any:
        return wrapped(
            handler,
            unary_unary=lambda behaviour: _logged_unary(method, behaviour),
            unary_stream=lambda behaviour: _logged_stream(method, behaviour),
            stream_stream=lambda behaviour: _logged_seat_stream(method, behaviour),
        )


def _logged_unary(method: str, behaviour: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
    async def logged(request: Any, context: Context) -> Any:
        game = _game_of(request)
        with _bound(method=method, game=game), _one_line(context, [request]):
            return await behaviour(request, context)

    return logged


def _logged_stream(method: str, behaviour: Callable[..., AsyncIterator[Any]]) -> Callable[..., Any]:
    async def logged(request: Any, context: Context) -> AsyncIterator[Any]:
        game = _game_of(request)
        with _bound(method=method, game=game), _one_line(context, [request]):
            async for response in responses_of(behaviour, request, context):
                yield response

    return logged


def _logged_seat_stream(method: str, behaviour: Callable[..., AsyncIterator[Any]]) -> Callable[..., Any]:
    """A stream of requests (PlaySeat) is logged as a stream of responses is, naming the game its
    first request names, once that has come."""

    async def logged(requests: AsyncIterator[Any], context: Context) -> AsyncIterator[Any]:
        noted = _FirstNoted(requests)
        with _bound(method=method), _one_line(context, noted.first):
            async for response in responses_of(behaviour, noted, context):
                yield response

    return logged


class _FirstNoted:
    """The requests of a stream, the first kept in :attr:`first` once it has come; each later
    one is the stream's own, passed on with nothing in between."""

    def __init__(self, requests: AsyncIterator[Any]) -> None:
        self.requests = requests
        self.first: list[Any] = []

    def __aiter__(self) -> _FirstNoted:
        return self

    def __anext__(self) -> Awaitable[Any]:
        return self.requests.__anext__() if self.first else self._noted()

    async def _noted(self) -> Any:
        request = await self.requests.__anext__()
        self.first.append(request)
        return request


@contextmanager
def _bound(**names: str | None) -> Iterator[None]:
    """``names`` in the context of every line logged in the block, as they were before after it
    (structlog's ``bound_contextvars``, without reading the whole context twice to restore it)."""
    tokens = structlog.contextvars.bind_contextvars(**names)
    try:
        yield
    finally:
        for name, token in tokens.items():
            # A stream's generator closed by the event loop after its call ended is closed in
            # another context: the call's own, where the names were bound, is gone with it.
            with suppress(ValueError):
                structlog.contextvars.reset_contextvars(**{name: token})


@contextmanager
def _one_line(context: Context, first: list[Any]) -> Iterator[None]:
    """Logs the call's line when it ends, however it ends, naming the game of its first request
    (``first`` holds it once it has come)."""
    started = time.perf_counter()
    status = "UNKNOWN"
    try:
        yield
        status = _status(context)
    except (asyncio.CancelledError, GeneratorExit):
        status = "CANCELLED"
        raise
    except BaseException:
        status = _status(context)
        raise
    finally:
        _line(status, started, game=_game_of(first[0]) if first else None)


def _game_of(request: Any) -> str | None:
    name = getattr(request, "name", "") or getattr(getattr(request, "join", None), "name", "")
    # A name is logged only if it could be one (a client may send anything in the field).
    return name if isinstance(name, str) and 0 < len(name) <= 64 else None


def _status(context: Context) -> str:
    status = context.code()
    if status is None:
        return "OK"
    return status.name if isinstance(status, grpc.StatusCode) else str(status)


def _line(status: str, started: float, **names: str | None) -> None:
    log.info("rpc", status=status, duration_ms=round((time.perf_counter() - started) * 1000, 3), **names)
