"""A method's handler wrapped for an interceptor, in one way for every interceptor.

An interceptor gives a wrap for each kind of call it changes; :func:`wrapped` builds the new
handler through grpc's public ``grpc.*_rpc_method_handler`` factories, keeping the method's
serializers, as grpc's own interceptor examples do. :func:`responses_of` passes a streaming
handler's responses on, however the handler sends them.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeAlias

import grpc
import grpc.aio

Context: TypeAlias = grpc.aio.ServicerContext[Any, Any]
"""A call's context on the server, whatever its messages."""
Behaviour = Callable[..., Any]
"""A handler's behaviour: ``(request or requests, context)`` to a response or responses."""
Wrap = Callable[[Behaviour], Behaviour]


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
    serializers = {
        "request_deserializer": handler.request_deserializer,
        "response_serializer": handler.response_serializer,
    }
    if handler.unary_unary and unary_unary:
        return grpc.unary_unary_rpc_method_handler(unary_unary(handler.unary_unary), **serializers)
    if handler.unary_stream and unary_stream:
        return grpc.unary_stream_rpc_method_handler(unary_stream(handler.unary_stream), **serializers)
    if handler.stream_stream and stream_stream:
        return grpc.stream_stream_rpc_method_handler(stream_stream(handler.stream_stream), **serializers)
    return handler


async def responses_of(
    behaviour: Callable[[Any, Context], Any], request: Any, context: Context
) -> AsyncIterator[Any]:
    """The responses of a streaming handler, whether it yields them or writes them to the
    context itself (as grpc's own health service does), for an interceptor to pass on."""
    call = behaviour(request, context)
    if inspect.isasyncgen(call):
        async for response in call:
            yield response
    else:
        await call
