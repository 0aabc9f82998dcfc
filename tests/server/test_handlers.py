"""A method's handler is wrapped once for every call of it, and sends an answer kept serialized as
it is (tavli.server.handlers); the names a call's log line binds are its own and gone after it
(tavli.server.logs)."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator
from typing import Any

import grpc
import structlog

from tavli.server import logs
from tavli.server.handlers import WrappingInterceptor, responses_of, sending_serialized, wrapped
from tavli.v1 import rules_service_pb2 as pb


class Details:
    def __init__(self, method: str) -> None:
        self.method = method


class CountingInterceptor(WrappingInterceptor):
    def __init__(self) -> None:
        super().__init__()
        self.wrapped: list[str] = []

    def wrap(self, method: str, handler: Any) -> Any:
        self.wrapped.append(method)
        return wrapped(handler, unary_unary=lambda behaviour: behaviour)


async def _answer(request: Any, context: Any) -> str:
    return "answer"


def test_a_method_is_wrapped_at_its_first_call_and_the_same_handler_serves_every_later_one() -> None:
    handler = grpc.unary_unary_rpc_method_handler(_answer)
    handlers = {"/tavli.v1.RulesService/ListLegalPlays": handler}

    async def continuation(details: Details) -> Any:
        return handlers.get(details.method)

    interceptor = CountingInterceptor()

    async def calls() -> list[Any]:
        return [
            await interceptor.intercept_service(
                continuation, Details("/tavli.v1.RulesService/ListLegalPlays")
            )
            for _ in range(3)
        ]

    first, *later = asyncio.run(calls())
    assert interceptor.wrapped == ["/tavli.v1.RulesService/ListLegalPlays"]
    assert first is not handler and all(again is first for again in later)


def test_methods_without_a_handler_are_answered_none_and_kept_nowhere() -> None:
    async def continuation(details: Details) -> Any:
        return None

    interceptor = CountingInterceptor()

    async def calls() -> list[Any]:
        return [
            await interceptor.intercept_service(continuation, Details(f"/no.Such/Method{number}"))
            for number in range(100)
        ]

    assert asyncio.run(calls()) == [None] * 100
    assert interceptor.wrapped == []
    assert interceptor._made == {}


def test_a_handler_that_yields_is_passed_on_itself_and_one_that_writes_yields_nothing() -> None:
    async def yielding(request: Any, context: Any) -> AsyncIterator[int]:
        yield 1
        yield 2

    written: list[int] = []

    async def writing(request: Any, context: Any) -> None:
        written.append(request)

    async def read(responses: AsyncIterator[Any]) -> list[Any]:
        return [response async for response in responses]

    assert asyncio.run(read(responses_of(yielding, None, None))) == [1, 2]
    assert asyncio.run(read(responses_of(writing, 7, None))) == []
    assert written == [7]


def test_a_calls_names_are_bound_for_its_lines_and_restored_after_it() -> None:
    seen = []
    with logs._bound(method="/outer", game="games/1"):
        with logs._bound(method="/inner", game=None):
            seen.append(structlog.contextvars.get_contextvars())
        seen.append(structlog.contextvars.get_contextvars())
    seen.append(structlog.contextvars.get_contextvars())
    assert seen == [{"method": "/inner", "game": None}, {"method": "/outer", "game": "games/1"}, {}]


def test_names_bound_in_one_context_and_left_in_another_raise_nothing_and_change_nothing() -> None:
    # As when the event loop closes a stream's generator after its call, in a context of its own.
    bound = logs._bound(method="/tavli.v1.GamesService/PlaySeat")
    call = contextvars.copy_context()
    call.run(bound.__enter__)
    bound.__exit__(None, None, None)
    assert structlog.contextvars.get_contextvars() == {}
    assert call.run(structlog.contextvars.get_contextvars) == {"method": "/tavli.v1.GamesService/PlaySeat"}


def test_an_answer_already_serialized_is_sent_as_it_is_and_a_message_is_written_by_its_method() -> None:
    answer = pb.ListLegalPlaysResponse(dice_used=2)
    kept = answer.SerializeToString()
    for factory in (
        grpc.unary_unary_rpc_method_handler,
        grpc.unary_stream_rpc_method_handler,
        grpc.stream_unary_rpc_method_handler,
        grpc.stream_stream_rpc_method_handler,
    ):
        handler = factory(
            _answer,
            request_deserializer=pb.ListLegalPlaysRequest.FromString,
            response_serializer=pb.ListLegalPlaysResponse.SerializeToString,
        )
        sending = sending_serialized(handler)
        assert sending.response_serializer(kept) is kept
        assert sending.response_serializer(answer) == kept
        assert sending.request_deserializer is handler.request_deserializer
        kinds = ("unary_unary", "unary_stream", "stream_unary", "stream_stream")
        assert [getattr(sending, kind) for kind in kinds] == [getattr(handler, kind) for kind in kinds]
