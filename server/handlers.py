"""A method's handler wrapped for an interceptor, in one way for every interceptor.

An interceptor gives a wrap for each kind of call it changes; :func:`wrapped` builds the new
handler through grpc's public ``grpc.*_rpc_method_handler`` factories, keeping the method's
serializers, as grpc's own interceptor examples do. :func:`responses_of` passes a streaming
handler's responses on, however the handler sends them.

grpc asks every interceptor for each call's handler, call after call. What a wrap makes depends
on the method and its handler alone, so a :class:`WrappingInterceptor` makes it once, at a
method's first call, and hands the same handler to every later call of the method.

A handler may answer with a message or with its bytes (:data:`Serialized`): an answer the server
keeps serialized (a stored version's view, a position's plays) is sent as it is rather than read
into a message for gRPC to write out again (:func:`sending_serialized`).
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeAlias

import grpc
import grpc.aio

Context: TypeAlias = grpc.aio.ServicerContext[Any, Any]
"""A call's context on the server, whatever its messages."""
Behaviour = Callable[..., Any]
"""A handler's behaviour: ``(request or requests, context)`` to a response or responses."""
Wrap = Callable[[Behaviour], Behaviour]
Serialized: TypeAlias = bytes
"""An answer in protobuf's wire format, sent as it is."""


class WrappingInterceptor(grpc.aio.ServerInterceptor):
    """An interceptor that wraps each method's handler once: a subclass says how in :meth:`wrap`."""

    def __init__(self) -> None:
        # method -> (the handler it was given, the handler it made); only methods that have a
        # handler are kept, so that a client naming methods at random grows nothing here.
        self._made: dict[str, tuple[Any, Any]] = {}

    async def intercept_service(self, continuation: Callable[[Any], Any], details: Any) -> Any:
        handler = await continuation(details)
        if handler is None:
            return None
        method = details.method
        made = self._made.get(method)
        if made is None or made[0] is not handler:
            made = self._made[method] = (handler, self.wrap(method, handler))
        return made[1]

    def wrap(self, method: str, handler: Any) -> Any:
        """``handler``, the handler of ``method`` ("/tavli.v1.GamesService/PlaySeat"), as this
        interceptor changes it (through :func:`wrapped`), or ``handler`` itself."""
        raise NotImplementedError


def wrapped(
    handler: Any,
    *,
    unary_unary: Wrap | None = None,
    unary_stream: Wrap | None = None,
    stream_stream: Wrap | None = None,
) -> Any:
    """``handler`` with its behaviour wrapped by the wrap given for its kind of call; ``handler``
    itself when it is None (no such method) or no wrap is given for its kind."""
    if handler is None:
        return None
    if handler.unary_unary and unary_unary:
        return _made(grpc.unary_unary_rpc_method_handler, unary_unary(handler.unary_unary), handler)
    if handler.unary_stream and unary_stream:
        return _made(grpc.unary_stream_rpc_method_handler, unary_stream(handler.unary_stream), handler)
    if handler.stream_stream and stream_stream:
        return _made(grpc.stream_stream_rpc_method_handler, stream_stream(handler.stream_stream), handler)
    return handler


def sending_serialized(handler: Any) -> Any:
    """``handler``, its answers sent as they are when they are :data:`Serialized` already, and
    written by the method's own serializer when they are messages."""
    write = handler.response_serializer

    def serialized(answer: Any) -> bytes:
        return answer if isinstance(answer, bytes) else write(answer)

    for kind, factory in _FACTORIES.items():
        behaviour = getattr(handler, kind)
        if behaviour:
            return _made(factory, behaviour, handler, response_serializer=serialized)
    return handler


_FACTORIES = {
    "unary_unary": grpc.unary_unary_rpc_method_handler,
    "unary_stream": grpc.unary_stream_rpc_method_handler,
    "stream_unary": grpc.stream_unary_rpc_method_handler,
    "stream_stream": grpc.stream_stream_rpc_method_handler,
}


def _made(
    factory: Callable[..., Any],
    behaviour: Behaviour,
    handler: Any,
    response_serializer: Callable[[Any], bytes] | None = None,
) -> Any:
    """A handler of ``behaviour`` made by ``factory``, with ``handler``'s serializers (its response
    serializer replaced by ``response_serializer``, if given)."""
    return factory(
        behaviour,
        request_deserializer=handler.request_deserializer,
        response_serializer=response_serializer or handler.response_serializer,
    )


def responses_of(
    behaviour: Callable[[Any, Context], Any], request: Any, context: Context
) -> AsyncIterator[Any]:
    """The responses of a streaming handler, whether it yields them or writes them to the
    context itself (as grpc's own health service does), for an interceptor to pass on: the
    handler's own generator when it yields them (each response passes one generator less)."""
    call = behaviour(request, context)
    if inspect.isasyncgen(call):
        return call
    return _written(call)


async def _written(call: Awaitable[None]) -> AsyncIterator[Any]:
    """No responses to pass on: the handler writes its own; done when ``call`` is."""
    await call
    return
    yield  # (what makes this a generator, of nothing)
