"""The web port: ``tavli.v1`` for browsers, and the web table's page, from the server itself.

Browsers cannot speak native gRPC. On the web port the server answers the same services in the
Connect protocol and in gRPC-Web (connectrpc's ASGI application, served by Hypercorn in a
process of its own, :mod:`tavli.server.web_process`), and serves the web table (clients/web/dist)
beside them.

Each call is passed on, as it came, to the server's native gRPC services over a Unix socket of
the server's own, and each answer or refusal passed back: the interceptors (limits, quotas, the
errors in words, the log line) and the servicers are the same ones a native client meets, so
there is one way to do each thing. The native server knows the browser by the address the web
port saw (:mod:`tavli.server.web_client`), which it believes only from that socket.

A stream whose reader stops reading is slowed, never queued without limit: its answer waits in
bounded buffers (:mod:`tavli.server.web_flow` for HTTP/2, the connection's fixed send buffer for
HTTP/1.1), the web port stops reading the native stream, and the channel's small window lets
gRPC's flow control stop the native watch.

PlaySeat, a two-way stream, needs HTTP/2 end to end, which browsers cannot give a script: the
web table plays with the unary actions and follows the game with WatchGame.

Requests whose Host is not this machine's loopback name are refused while the port listens on
loopback only, so that a page elsewhere cannot reach the server by rebinding its own name to
127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import grpc.aio
from connectrpc.code import Code
from connectrpc.errors import ConnectError, ErrorDetail
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.request import RequestContext
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import descriptor, json_format, message_factory
from google.protobuf.message import DecodeError, Message
from google.rpc import status_pb2
from hypercorn.asyncio.run import worker_serve
from hypercorn.config import Config, Sockets
from hypercorn.utils import wrap_app
from protobuf.wkt import Any as ConnectAny
from starlette.exceptions import HTTPException
from starlette.staticfiles import StaticFiles

import tavli.clients
from tavli.server.web_client import WEB_CLIENT_HEADER
from tavli.server.web_cost import JsonCost, serving
from tavli.server.web_flow import bound_http2_streams
from tavli.server.web_guard import BoundedListener, Event, Receive, Scope, Send, WebGuard
from tavli.server.web_limits import WebLimits

PAGES = Path(tavli.clients.__file__).resolve().parent / "web" / "dist"
"""The web table as built (committed, so that serving needs no Node.js)."""

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})

_STATUS_DETAILS = "grpc-status-details-bin"

_ENDING_SECONDS = 1.0
"""Beyond a stop's grace: the time the calls it ends have to send their end and close."""

# Headers of every page and file the web port serves: nothing from elsewhere is loaded or run,
# and no page of ours is framed by another site.
_PAGE_HEADERS = [
    (
        b"content-security-policy",
        (
            b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            b"frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
        ),
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]

# Headers of every answer of the services: a browser never reads one as anything but what its
# content type says (an error's text as a page, say).
_API_HEADERS = [(b"x-content-type-options", b"nosniff")]


def connect_code(status: grpc.StatusCode) -> Code:
    """The Connect code of a gRPC status (the same names; gRPC spells CANCELLED with two Ls)."""
    return Code(status.name.lower().replace("cancelled", "canceled"))


def _refusal(error: grpc.aio.AioRpcError) -> ConnectError:
    """The native refusal as a Connect error: its code, its message in words, and the details
    its google.rpc.Status carries (the ErrorInfo with its reason first)."""
    details: list[ErrorDetail] = []
    for key, value in error.trailing_metadata() or ():
        if key == _STATUS_DETAILS and isinstance(value, bytes):
            status = status_pb2.Status.FromString(value)
            details = [ErrorDetail(ConnectAny(type_url=d.type_url, value=d.value)) for d in status.details]
    return ConnectError(connect_code(error.code()), error.details() or "", details)


class _BinaryCodec:
    """The Protocol Buffers binary format, for this project's (Google's) protobuf messages:
    connectrpc's own codecs are for another protobuf library's messages."""

    def name(self) -> str:
        return "proto"

    def encode(self, message: Message) -> bytes:
        return message.SerializeToString()

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Message:
        try:
            return message_class.FromString(bytes(data))
        except DecodeError as error:
            raise ValueError(f"not a {message_class.DESCRIPTOR.full_name}: {error}") from None


class _JsonCodec:
    """The Protocol Buffers JSON mapping, for this project's protobuf messages; fields the
    server does not know are ignored, as the binary format ignores them. Its CPU time is counted
    in ``cost`` against the client whose call it serves."""

    def __init__(self, cost: JsonCost) -> None:
        self.cost = cost

    def name(self) -> str:
        return "json"

    def encode(self, message: Message) -> bytes:
        with self.cost.counted():
            return json_format.MessageToJson(message, indent=None).encode()

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Message:
        try:
            with self.cost.counted():
                return json_format.Parse(bytes(data), message_class(), ignore_unknown_fields=True)
        except json_format.ParseError as error:
            raise ValueError(str(error)) from None


class _Forwarded(ConnectASGIApplication[None]):
    """One service of ``tavli.v1`` (or gRPC health) over Connect and gRPC-Web, each call passed
    on to the native server on ``channel``."""

    def __init__(
        self,
        service: descriptor.ServiceDescriptor,
        channel: grpc.aio.Channel,
        read_max_bytes: int,
        json_cost: JsonCost,
    ) -> None:
        self._path = f"/{service.full_name}"
        endpoints = {
            f"/{service.full_name}/{method.name}": _endpoint(service, method, channel)
            for method in service.methods
            if not method.client_streaming  # PlaySeat: a two-way stream (see the module)
        }
        super().__init__(
            service=None,
            endpoints=lambda _: endpoints,
            read_max_bytes=read_max_bytes,
            codecs=(_BinaryCodec(), _JsonCodec(json_cost)),
        )

    @property
    def path(self) -> str:
        return self._path


def _endpoint(
    service: descriptor.ServiceDescriptor, method: descriptor.MethodDescriptor, channel: grpc.aio.Channel
) -> Any:
    request_type = message_factory.GetMessageClass(method.input_type)
    response_type = message_factory.GetMessageClass(method.output_type)
    info: MethodInfo[Message, Message] = MethodInfo(
        name=method.name,
        service_name=service.full_name,
        input=request_type,
        output=response_type,
        idempotency_level=IdempotencyLevel.UNKNOWN,
        stream_type=StreamType.SERVER_STREAM if method.server_streaming else StreamType.UNARY,
    )
    path = f"/{service.full_name}/{method.name}"
    serialize = request_type.SerializeToString
    deserialize = response_type.FromString

    if method.server_streaming:
        stream_call = channel.unary_stream(
            path, request_serializer=serialize, response_deserializer=deserialize
        )

        async def stream(
            request: Message, context: RequestContext[Message, Message]
        ) -> AsyncIterator[Message]:
            serving(_browser(context))
            call = stream_call(request, metadata=_metadata(context), timeout=_seconds(context))
            try:
                with _answers_passed_back():
                    async for response in call:
                        yield response
            finally:
                call.cancel()

        return Endpoint.server_stream(method=info, function=stream)

    unary_call = channel.unary_unary(path, request_serializer=serialize, response_deserializer=deserialize)

    async def unary(request: Message, context: RequestContext[Message, Message]) -> Message:
        serving(_browser(context))
        with _answers_passed_back():
            response: Message = await unary_call(
                request, metadata=_metadata(context), timeout=_seconds(context)
            )
        return response

    return Endpoint.unary(method=info, function=unary)


@contextlib.contextmanager
def _answers_passed_back() -> Iterator[None]:
    """A native refusal raised as its Connect error (:func:`_refusal`), and a call cut off under
    the web port as UNAVAILABLE.

    The native services never cancel a call, and the client's going away cancels the web port's
    task: a forwarded call cancelled while its task is not was cut off by the channel to the native
    services closing, as the web port stops. Its client did not cancel it, and must not read that
    it did (the page stops following a game whose watch it believes it cancelled itself): it is to
    be made again."""
    try:
        yield
    except grpc.aio.AioRpcError as error:
        if error.code() != grpc.StatusCode.CANCELLED:
            raise _refusal(error) from None
        raise ConnectError(Code.UNAVAILABLE, _STOPPING) from None
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is None or task.cancelling():
            raise
        raise ConnectError(Code.UNAVAILABLE, _STOPPING) from None


_STOPPING = "the server is stopping: send the request again shortly"


def _metadata(context: RequestContext[Message, Message]) -> tuple[tuple[str, str], ...]:
    """Who is calling: the address the web port saw, without its port (connectrpc writes it
    ``host:port``, an IPv6 host without brackets, so the port is what follows the last colon),
    and the account it acts for, if its request says (``Authorization: Bearer KEY``)."""
    caller = ((WEB_CLIENT_HEADER, _browser(context)),)
    headers = context.request_headers
    account = None if headers is None else headers.get("authorization")
    return caller if not account else (*caller, ("authorization", account))


def _browser(context: RequestContext[Message, Message]) -> str:
    """The address of the browser making the call, without its port."""
    return (context.client_address or "").rpartition(":")[0].strip("[]") or "web"


def _seconds(context: RequestContext[Message, Message]) -> float | None:
    remaining = context.timeout_ms
    return None if remaining is None else max(remaining, 0.0) / 1000.0


class WebApp:
    """The web port's ASGI application: each service's path to its forwarder, anything else to
    the page's files; every page with :data:`_PAGE_HEADERS`."""

    def __init__(
        self,
        services: list[descriptor.ServiceDescriptor],
        channel: grpc.aio.Channel,
        *,
        pages: Path | None,
        loopback_only: bool,
        read_max_bytes: int,
        json_cost: JsonCost,
    ) -> None:
        self.services = {
            f"/{service.full_name}/": _Forwarded(service, channel, read_max_bytes, json_cost)
            for service in services
        }
        self.pages = StaticFiles(directory=pages, html=True) if pages is not None and pages.is_dir() else None
        self.loopback_only = loopback_only

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        if self.loopback_only and _host_name(scope) not in LOOPBACK_NAMES:
            await _plain(
                send, 421, "this server answers only to its loopback address (127.0.0.1 or localhost)"
            )
            return
        path: str = scope["path"]
        for prefix, service in self.services.items():
            if path.startswith(prefix):
                await service(scope, receive, _with_headers(send, _API_HEADERS))
                return
        if self.pages is None:
            await _plain(send, 404, "this server has no web table: clients/web/dist is not built")
            return
        try:
            await self.pages(scope, receive, _with_headers(send, _PAGE_HEADERS))
        except HTTPException as refused:  # no such file (StaticFiles leaves the answer to the app)
            await _plain(send, refused.status_code, "there is no such page here: the web table is at /")


def _with_headers(send: Send, headers: list[tuple[bytes, bytes]]) -> Send:
    """``send``, adding ``headers`` to the start of the answer."""

    async def sending(event: Event) -> None:
        if event["type"] == "http.response.start":
            event = {**event, "headers": [*event.get("headers", []), *headers]}
        await send(event)

    return sending


def _host_name(scope: Scope) -> str:
    for key, value in scope.get("headers", ()):
        if key == b"host":
            host: str = value.decode("latin-1").lower()
            if host.startswith("["):
                return host.partition("]")[0] + "]"
            return host.rpartition(":")[0] if ":" in host else host
    return ""


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        event = await receive()
        if event["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif event["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


async def _plain(send: Send, status: int, text: str) -> None:
    body = (text + "\n").encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


@dataclass
class WebPort:
    """The web port, running on its process's event loop until :meth:`stop`."""

    port: int
    _stopping: asyncio.Event
    _task: asyncio.Task[None]
    _channel: grpc.aio.Channel
    _guard: WebGuard

    async def stop(self, grace: float | None) -> None:
        """Stop taking connections; calls in flight get ``grace`` seconds before they are ended,
        a request whose body has not all come is answered UNAVAILABLE at once, and idle
        connections close: every connection ends before Hypercorn's graceful timeout would cancel
        it (a cancelled connection task makes Python 3.11's asyncio log a traceback)."""
        self._stopping.set()
        self._guard.stop()
        await self._channel.close(grace)
        try:
            async with asyncio.timeout((grace or 0.0) + _ENDING_SECONDS + 5.0):
                await asyncio.shield(self._task)
        except TimeoutError:
            self._task.cancel()


async def start_web_port(
    *,
    listener: BoundedListener,
    host: str,
    native: str,
    services: list[descriptor.ServiceDescriptor],
    pages: Path | None,
    read_max_bytes: int,
    limits: WebLimits,
    refused: Callable[[str], Awaitable[None]],
    json_cost: JsonCost,
    tls: tuple[str, str] | None = None,
    grace_seconds: float = 5.0,
) -> WebPort:
    """Start serving ``services`` and ``pages`` on ``listener`` (listening on ``host``), each call
    passed on to the native server at ``native`` (a ``unix:`` address), each request held to
    ``limits`` (``refused(address)`` counting one refused there against its client), the JSON
    mapping's CPU time counted in ``json_cost``."""
    listener.setblocking(False)
    listener.most_connections = limits.most_requests()
    bound_http2_streams()
    channel = grpc.aio.insecure_channel(
        native,
        options=[
            ("grpc.max_receive_message_length", read_max_bytes),
            ("grpc.max_send_message_length", read_max_bytes),
            # A watch the web port cannot pass on (its reader does not read) must hold the native
            # stream back: with its window grown by bandwidth probing, or a deep lookahead, the
            # channel would take the native server's messages into its own memory meanwhile.
            ("grpc.http2.bdp_probe", 0),
            ("grpc.http2.lookahead_bytes", 16_384),
        ],
    )
    app = WebApp(
        services,
        channel,
        pages=pages,
        loopback_only=host in LOOPBACK_NAMES,
        read_max_bytes=read_max_bytes,
        json_cost=json_cost,
    )
    config = Config()
    config.accesslog = None
    config.errorlog = logging.getLogger("tavli.web")
    # Calls in flight are ended by the channel's close when their grace is over (UNAVAILABLE, in
    # words); Hypercorn, which would cancel them (and a cancelled call reads to its client as one
    # it cancelled itself), waits a little longer.
    config.graceful_timeout = grace_seconds + _ENDING_SECONDS
    config.include_server_header = False
    sockets = Sockets(secure_sockets=[], insecure_sockets=[listener], quic_sockets=[])
    if tls is not None:
        config.certfile, config.keyfile = tls
        sockets = Sockets(secure_sockets=[listener], insecure_sockets=[], quic_sockets=[])
    stopping = asyncio.Event()
    guard = WebGuard(app, limits, refused=refused)
    task = asyncio.create_task(
        worker_serve(
            # (Hypercorn types each ASGI event; the guard passes them on as mappings)
            wrap_app(guard, config.wsgi_max_body_size, "asgi"),  # type: ignore[arg-type]
            config,
            sockets=sockets,
            shutdown_trigger=stopping.wait,
        )
    )
    return WebPort(listener.getsockname()[1], stopping, task, channel, guard)
