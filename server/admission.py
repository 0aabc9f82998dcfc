"""What a call must pass before its handler runs: the request's bounds and the client's quotas.

Every call to the tavli services is checked against :class:`~tavli.server.limits.RequestLimits` (text
lengths, repeated fields, enum values) and counted against its client's quotas (calls a second,
calls at once, open watches); health checks and reflection are not, so that a load balancer
still hears from a server that a client is flooding. A client is its address, as the server
sees it.

A stream of requests (PlaySeat) is admitted by its handler instead, message by message
(:mod:`~tavli.server.seat_stream`): the game it counts against comes in its first message, and an
action refused there is an answer on the stream, not its end.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextvars import ContextVar
from typing import Any

from tavli.server.handlers import Context, WrappingInterceptor, responses_of, wrapped
from tavli.server.limits import RequestLimits, check_request
from tavli.server.quotas import Quotas
from tavli.server.web_client import client_at, client_behind_web

THE_SERVER = "the server"
"""Who work the server does of its own accord (its timer, a bot's game) is done for."""

_CALLER: ContextVar[str] = ContextVar("caller", default=THE_SERVER)


def caller() -> str:
    """The client whose call the work under way is done for (:data:`THE_SERVER` outside calls):
    what that work costs is charged to it (a long game's fold, for one)."""
    return _CALLER.get()


class AdmissionInterceptor(WrappingInterceptor):
    def __init__(self, limits: RequestLimits, quotas: Quotas, services: tuple[str, ...]) -> None:
        super().__init__()
        self.limits = limits
        self.quotas = quotas
        self._prefixes = tuple(f"/{service}/" for service in services)

    def wrap(self, method: str, handler: Any) -> Any:
        if not method.startswith(self._prefixes):
            return handler
        return wrapped(handler, unary_unary=self._admit_unary, unary_stream=self._admit_stream)

    def _admit_unary(self, behaviour: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
        async def admitted(request: Any, context: Context) -> Any:
            check_request(request, self.limits)
            client = client_of(context)
            _CALLER.set(client)  # in this call's own task: its context is its own
            with self.quotas.admit_call(client):
                return await behaviour(request, context)

        return admitted

    def _admit_stream(self, behaviour: Callable[..., AsyncIterator[Any]]) -> Callable[..., Any]:
        async def admitted(request: Any, context: Context) -> AsyncIterator[Any]:
            check_request(request, self.limits)
            client = client_of(context)
            _CALLER.set(client)  # in this call's own task: its context is its own
            with self.quotas.open_stream(client, getattr(request, "name", "")):
                async for response in responses_of(behaviour, request, context):
                    yield response

        return admitted


def client_of(context: Context) -> str:
    """The client's address without its port (``ipv4:127.0.0.1:50432`` is ``127.0.0.1``); an
    IPv6 client is its /64 network, the block one host is given, so that a host cannot become
    many clients by changing addresses within it. A call the web port passed on is the
    browser's (:func:`~tavli.server.web_client.client_behind_web`)."""
    peer = context.peer() or ""
    behind_web = peer.startswith("unix:") and client_behind_web(
        peer, {key: str(value) for key, value in context.invocation_metadata() or ()}
    )
    if behind_web:
        return client_at(behind_web)
    kind, _, address = peer.partition(":")
    if kind not in ("ipv4", "ipv6"):
        return peer
    return client_at(address.rpartition(":")[0].strip("[]") or address)
