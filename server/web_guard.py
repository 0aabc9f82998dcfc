"""What the web port holds a client to before a call reaches the services: how long its request
body may take, how many requests one address may have open, and the framing of its messages.

Hypercorn closes a connection that sends no headers in time, but once the headers are in it waits
for the body as long as the client likes: a client sending one byte every few seconds would hold
a connection, and a descriptor, for ever, and enough of them would leave the web process no
descriptor to pass calls on with. Here the whole body must arrive within
:attr:`WebLimits.body_seconds` of the request's start; one address may have
:attr:`WebLimits.requests_per_address` requests open at once, and all addresses together as many as
the web process's descriptors allow with :attr:`WebLimits.reserved_descriptors` kept back (its
channel to the native services, its control channel, the page's files). The native port, health
and the store have the server process's descriptors, which no web connection takes. A request
past a limit is answered at once (the connection then closes, its body unread), and counts as a
call of its client in the native quotas.

A connection holds a descriptor before it sends a request: the web port's listening socket, a
:class:`BoundedListener`, holds at most as many connections as requests may be open, and closes
one past them as soon as it is accepted. The web port never runs its process out of descriptors
(an accept the system refuses for want of one would leave none for passing calls on).

A message flagged compressed in a stream that named no compression, and native gRPC over a
connection that cannot carry trailers (HTTP/1.1), are the client's errors, answered in words.
"""

from __future__ import annotations

import asyncio
import socket
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from connectrpc.code import Code
from connectrpc.errors import ConnectError

from tavli.server.web_client import client_at
from tavli.server.web_limits import WebLimits

Scope = dict[str, Any]
Event = MutableMapping[str, Any]
"""An ASGI event (the types every ASGI application here takes)."""
Receive = Callable[[], Awaitable[Event]]
Send = Callable[[Event], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


_STREAM_ENCODINGS = {
    "application/connect+": b"connect-content-encoding",
    "application/grpc": b"grpc-encoding",
}


class WebGuard:
    """An ASGI application holding every request of ``app`` to ``limits``; ``refused(client)``
    counts a request refused here as a call of that client (as :func:`client_at` names it; it
    raises nothing), before it is answered."""

    def __init__(self, app: App, limits: WebLimits, *, refused: Callable[[str], Awaitable[None]]) -> None:
        self.app = app
        self.limits = limits
        self.most_requests = limits.most_requests()
        self._refused = refused
        self._open: Counter[str] = Counter()  # requests open, by client
        self._open_in_all = 0
        self._stopping: asyncio.Future[None] | None = None

    def stop(self) -> None:
        """The server is stopping: a body still awaited is given up at once (its request answered
        UNAVAILABLE), so that no connection outlives the stop's grace waiting for one."""
        stopping = self._stopping_future()
        if not stopping.done():
            stopping.set_result(None)

    def _stopping_future(self) -> asyncio.Future[None]:
        if self._stopping is None:
            self._stopping = asyncio.get_running_loop().create_future()
        return self._stopping

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        address = _address(scope)
        if self._open[address] >= self.limits.requests_per_address:
            await self._refuse(
                send,
                address,
                429,
                f"this address has {self.limits.requests_per_address} requests open on the web port, the most"
                " it may: finish some first",
            )
            return
        if self._open_in_all >= self.most_requests:
            await self._refuse(send, address, 503, "the web port is full: try again in a moment")
            return
        content_type = _header(scope, b"content-type").split(";")[0].strip().lower()
        native_grpc = content_type == "application/grpc" or content_type.startswith("application/grpc+")
        if native_grpc and "http.response.trailers" not in scope.get("extensions", {}):
            await self._refuse(
                send,
                address,
                415,
                "native gRPC needs HTTP/2 and trailers, which this connection does not carry: use the"
                " server's gRPC port, or gRPC-Web or Connect here",
            )
            return
        self._open[address] += 1
        self._open_in_all += 1
        try:
            body = _Body(scope, receive, content_type, self.limits.body_seconds, self._stopping_future())
            await self.app(scope, body, send)
        finally:
            self._open_in_all -= 1
            self._open[address] -= 1
            if not self._open[address]:
                del self._open[address]

    async def _refuse(self, send: Send, address: str, status: int, words: str) -> None:
        await self._refused(address)
        body = (words + "\n").encode()
        headers = [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"content-length", str(len(body)).encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class _Body:
    """A request's ``receive``: its body due within ``seconds`` of now, and each message of an
    enveloped stream that names no compression checked not to be flagged compressed."""

    def __init__(
        self,
        scope: Scope,
        receive: Receive,
        content_type: str,
        seconds: float,
        stopping: asyncio.Future[None],
    ) -> None:
        self._receive = receive
        self._seconds = seconds
        self._stopping = stopping
        self._due = asyncio.get_running_loop().time() + seconds
        self._done = False
        self._envelopes = _Envelopes() if _unencoded_stream(scope, content_type) else None

    async def __call__(self) -> Event:
        if self._done:
            return await self._receive()  # after the body: the client's hanging up, whenever
        remaining = self._due - asyncio.get_running_loop().time()
        receiving = asyncio.ensure_future(self._receive())
        await asyncio.wait(
            (receiving, self._stopping), timeout=max(remaining, 0.0), return_when=asyncio.FIRST_COMPLETED
        )
        if not receiving.done():
            receiving.cancel()
            if self._stopping.done():
                raise ConnectError(Code.UNAVAILABLE, "the server is stopping: send the request again shortly")
            raise ConnectError(
                Code.RESOURCE_EXHAUSTED,
                f"the request's body did not arrive within {self._seconds:g} seconds: send it whole, at once",
            )
        event = receiving.result()
        if event["type"] == "http.request":
            if self._envelopes is not None:
                self._envelopes.read(event.get("body", b""))
            self._done = not event.get("more_body", False)
        else:
            self._done = True
        return event


class _Envelopes:
    """Follows the 5-byte headers of a stream's enveloped messages (flags, then length) as its
    bytes arrive, in chunks of any size."""

    def __init__(self) -> None:
        self._head = bytearray()
        self._left = 0  # bytes of the current message still to come

    def read(self, chunk: bytes) -> None:
        """:raises ConnectError: INVALID_ARGUMENT for a message flagged compressed."""
        at = 0
        while at < len(chunk):
            if self._left:
                taken = min(self._left, len(chunk) - at)
                self._left -= taken
                at += taken
                continue
            taken = min(5 - len(self._head), len(chunk) - at)
            self._head += chunk[at : at + taken]
            at += taken
            if len(self._head) == 5:
                flags, self._left = self._head[0], int.from_bytes(self._head[1:5], "big")
                self._head.clear()
                if flags & 1:
                    raise ConnectError(
                        Code.INVALID_ARGUMENT,
                        "a message is flagged compressed, but the request named no compression:"
                        " name it (gzip) or send the message uncompressed",
                    )


def _unencoded_stream(scope: Scope, content_type: str) -> bool:
    """Whether the request is a stream of enveloped messages that names no compression."""
    for prefix, header in _STREAM_ENCODINGS.items():
        if content_type.startswith(prefix):
            return _header(scope, header).strip().lower() in ("", "identity")
    return False


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return ""


def _address(scope: Scope) -> str:
    client = scope.get("client")
    return client_at(str(client[0])) if client else "web"


class BoundedListener(socket.socket):
    """A listening socket that keeps at most :attr:`most_connections` of the connections it
    accepted open at once; one past them is closed as soon as it is accepted (its client sees
    the connection closed, and may try again)."""

    most_connections = 1 << 20
    open_connections = 0

    def accept(self) -> tuple[socket.socket, Any]:
        accepted, address = super().accept()
        if self.open_connections >= self.most_connections:
            accepted.close()
            # what asyncio's accept loop takes for a connection gone before it was accepted
            raise ConnectionAbortedError("the web port holds as many connections as it may")
        connection = _Connection(accepted.family, accepted.type, accepted.proto, fileno=accepted.detach())
        connection.listener = self
        self.open_connections += 1
        return connection, address


class _Connection(socket.socket):
    """A connection a :class:`BoundedListener` accepted, counted until it is closed."""

    listener: BoundedListener | None = None

    def close(self) -> None:
        if self.listener is not None:
            self.listener.open_connections -= 1
            self.listener = None
        super().close()
