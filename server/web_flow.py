"""Backpressure on the web port's HTTP/2 streams: a stream's answer waits for its reader.

Hypercorn holds each HTTP/2 stream's outgoing bytes in a buffer that should stop the writer at
:data:`BUFFER_HIGH_WATER` bytes until the client's flow-control window lets them out. Its
``StreamBuffer`` (0.18) lets the writer on whenever a pop takes out less than the low-water mark,
and a pop while the client's window is shut takes out nothing: a client that never reads (nor
opens its window) had every message of a watch queued for it in the server's memory, without
limit (40 such watches of a busy game: 63 -> 259 MB in a minute).

:class:`BoundedStreamBuffer` lets the writer on only once what is left in the buffer is below
the low-water mark, so a stream whose reader stops holds at most the high-water mark and one
message; its writer (connectrpc, sending the next message) waits, so the web port stops reading
the native stream, and gRPC's own flow control stops the watch on the server. HTTP/1.1 needs no
such thing: asyncio's transport stops the writer at its own high-water mark.

An HTTP/2 connection opened without TLS (the preface sent at once, "prior knowledge") is counted
busy from its first bytes until a stream of it closes, so one that opens no stream was never idle:
Hypercorn's keep-alive timeout never closed it, nor did a stop of the server, and a client could
hold such connections, and descriptors, for ever. :class:`IdleAwareH2Protocol` says it is idle
once it has started with no stream open.
"""

from __future__ import annotations

import hypercorn.protocol
import hypercorn.protocol.h2
from hypercorn.events import Updated
from hypercorn.protocol.h2 import (
    BUFFER_HIGH_WATER,
    BUFFER_LOW_WATER,
    BufferCompleteError,
    H2Protocol,
    StreamBuffer,
)


class BoundedStreamBuffer(StreamBuffer):
    """Hypercorn's HTTP/2 stream buffer, holding its writer while the buffer is full."""

    async def push(self, data: bytes) -> None:
        if self._complete:
            raise BufferCompleteError()
        self.buffer.extend(data)
        await self._is_empty.clear()
        while len(self.buffer) >= BUFFER_HIGH_WATER and not self._complete:
            await self._paused.clear()
            await self._paused.wait()

    async def pop(self, max_length: int) -> bytes:
        length = min(len(self.buffer), max_length)
        data = bytes(self.buffer[:length])
        del self.buffer[:length]
        if len(self.buffer) < BUFFER_LOW_WATER:
            await self._paused.set()
        if not self.buffer:
            await self._is_empty.set()
        return data


class IdleAwareH2Protocol(H2Protocol):
    """Hypercorn's HTTP/2 protocol, idle (so timed out, and closed by a stop) from its start
    until its first stream."""

    async def initiate(
        self, headers: list[tuple[bytes, bytes]] | None = None, settings: bytes | None = None
    ) -> None:
        await super().initiate(headers, settings)
        if self.idle:
            await self.send(Updated(idle=True))


def bound_http2_streams() -> None:
    """Have Hypercorn's HTTP/2 connections use :class:`BoundedStreamBuffer` and
    :class:`IdleAwareH2Protocol` (for every connection of this process opened from now on)."""
    hypercorn.protocol.h2.StreamBuffer = BoundedStreamBuffer  # type: ignore[misc]
    hypercorn.protocol.H2Protocol = IdleAwareH2Protocol  # type: ignore[attr-defined]
