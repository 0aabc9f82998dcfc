"""Every error a client can get, mapped in one place to a gRPC status with a google.rpc.ErrorInfo.

Handlers raise; the :class:`ErrorInterceptor` turns what they raise into the status. The same
error always gets the same (status, reason) pair, in domain ``tavli``; the status message says
why in words. Bad input never becomes INTERNAL: only a bug does, and then no traceback leaves
the server.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any, NoReturn

import grpc
import grpc.aio
import structlog
from google.protobuf import any_pb2
from google.protobuf.message import DecodeError, Message
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from tavli.engine import (
    AmbiguousPlayError,
    GameOverError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPlayError,
    InvalidPositionError,
    TavliError,
)
from tavli.engine.game import ActionError
from tavli.engine.rules import InvalidRuleSetError
from tavli.server.handlers import Context, WrappingInterceptor, responses_of, wrapped

DOMAIN = "tavli"
log = structlog.get_logger("tavli.server")


class ServiceError(Exception):
    """An error of the service itself (not of the rules): unknown game, wrong token, stale etag.

    ``status`` is its gRPC status code, ``reason`` its stable ErrorInfo reason and ``message`` why,
    in words. ``details`` are messages the status carries after its ErrorInfo (a refused record's
    problems), ``metadata`` the ErrorInfo's metadata; most errors have neither.
    """

    status = grpc.StatusCode.INVALID_ARGUMENT
    reason = "INVALID_ARGUMENT"

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        if "code" in vars(cls):  # the name the status once had: it would be ignored
            raise TypeError(f"{cls.__name__}: a service error's gRPC status code is its `status`")

    def __init__(
        self, message: str, *, details: Sequence[Message] = (), metadata: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.details = tuple(details)
        self.metadata = dict(metadata or {})


class BadRequest(ServiceError):
    """A request missing a field or holding a value no client should send."""


class UndecodableMessage(ServiceError):
    """A message of a client's stream that is not its request's kind in the binary format."""

    reason = "UNDECODABLE_MESSAGE"


class GameNotFound(ServiceError):
    status = grpc.StatusCode.NOT_FOUND
    reason = "GAME_NOT_FOUND"


class WrongSeatToken(ServiceError):
    status = grpc.StatusCode.PERMISSION_DENIED
    reason = "WRONG_SEAT_TOKEN"


class StaleEtag(ServiceError):
    status = grpc.StatusCode.ABORTED
    reason = "STALE_ETAG"


class RequestIdReused(ServiceError):
    """A request_id already used for another request (another method, seat or body)."""

    reason = "REQUEST_ID_REUSED"


class FieldTooLong(ServiceError):
    """A text field longer than the server accepts."""

    reason = "FIELD_TOO_LONG"


class TooManyItems(ServiceError):
    """A repeated field with more items than the server accepts."""

    reason = "TOO_MANY_ITEMS"


class UnknownEnumValue(ServiceError):
    """An enum field holding a number the API does not define."""

    reason = "UNKNOWN_ENUM_VALUE"


class UnreadableMatchRecord(ServiceError):
    """A record's text that holds no match the server can read; its details say why, as problems."""

    reason = "UNREADABLE_MATCH_RECORD"


class InvalidMatchRecord(ServiceError):
    """A match record with problems, refused where only a clean one is taken (an import)."""

    reason = "INVALID_MATCH_RECORD"


class FormatCannotRecord(ServiceError):
    """An export asked for in a format that cannot record the game's rules (SGF: backgammon alone)."""

    status = grpc.StatusCode.FAILED_PRECONDITION
    reason = "FORMAT_CANNOT_RECORD"


class RecordTooLong(ServiceError):
    """A record to import with more events than a game may hold
    (:data:`tavli.server.limits.MOST_GAME_EVENTS`)."""

    reason = "MATCH_RECORD_TOO_LONG"


class GameTooLong(ServiceError):
    """An action on a game that holds as many events as a game may."""

    status = grpc.StatusCode.FAILED_PRECONDITION
    reason = "GAME_TOO_LONG"


class SeededDiceDisabled(ServiceError):
    status = grpc.StatusCode.FAILED_PRECONDITION
    reason = "SEEDED_DICE_DISABLED"


class LimitReached(ServiceError):
    """A client went past one of the server's limits; ``reason`` names which."""

    status = grpc.StatusCode.RESOURCE_EXHAUSTED

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class StoreUnavailable(ServiceError):
    """The store cannot take a write now (a full disk, a read-only file); nothing was done."""

    status = grpc.StatusCode.UNAVAILABLE
    reason = "STORE_UNAVAILABLE"


class GameDataLost(ServiceError):
    """A stored game whose log no longer replays: that game alone cannot be served."""

    status = grpc.StatusCode.DATA_LOSS
    reason = "GAME_DATA_LOST"


class ShuttingDown(ServiceError):
    status = grpc.StatusCode.UNAVAILABLE
    reason = "SHUTTING_DOWN"


class NoEvaluator(ServiceError):
    """Analysis asked of a variant GNU Backgammon does not evaluate."""

    status = grpc.StatusCode.FAILED_PRECONDITION
    reason = "NO_EVALUATOR"


class CannotDouble(ServiceError):
    """A cube decision asked of a side that may not double now (a dead cube in match play)."""

    status = grpc.StatusCode.FAILED_PRECONDITION
    reason = "CANNOT_DOUBLE"


class EvaluatorUnavailable(ServiceError):
    """The evaluator process answering a call died or failed; another one takes the next call."""

    status = grpc.StatusCode.UNAVAILABLE
    reason = "EVALUATOR_UNAVAILABLE"


class HeavyWorkUnavailable(ServiceError):
    """The process doing a call's heavy work (a record's check, an import, a long fold) died or
    failed; nothing was stored, and another process takes the next call."""

    status = grpc.StatusCode.UNAVAILABLE
    reason = "HEAVY_WORK_UNAVAILABLE"


class SeatAlreadyStreaming(ServiceError):
    """A seat stream joined for a seat that another open stream holds."""

    status = grpc.StatusCode.FAILED_PRECONDITION
    reason = "SEAT_ALREADY_STREAMING"


# Engine errors for malformed input; ActionError, IllegalPlayError and GameOverError are the rules'
# refusals.
_INVALID_INPUT: list[tuple[type[TavliError], str]] = [
    (InvalidPositionError, "INVALID_POSITION"),
    (InvalidDiceError, "INVALID_DICE"),
    (InvalidPlayError, "INVALID_PLAY"),
    (AmbiguousPlayError, "AMBIGUOUS_PLAY"),
    (InvalidRuleSetError, "INVALID_RULE_SET"),
]
_ACTION_INPUT_REASONS = {"INVALID_PLAY", "AMBIGUOUS_PLAY", "INVALID_DICE"}


def status_of(error: Exception) -> tuple[grpc.StatusCode, str, str]:
    """The (status, ErrorInfo reason, message) for an exception a handler raised."""
    if isinstance(error, ServiceError):
        return error.status, error.reason, error.message
    if isinstance(error, ActionError):
        if error.reason in _ACTION_INPUT_REASONS:
            return grpc.StatusCode.INVALID_ARGUMENT, error.reason, error.message
        return grpc.StatusCode.FAILED_PRECONDITION, error.reason, error.message
    if isinstance(error, IllegalPlayError):
        return grpc.StatusCode.FAILED_PRECONDITION, "ILLEGAL_PLAY", error.why
    if isinstance(error, GameOverError):
        return grpc.StatusCode.FAILED_PRECONDITION, "GAME_OVER", str(error)
    for error_type, reason in _INVALID_INPUT:
        if isinstance(error, error_type):
            return grpc.StatusCode.INVALID_ARGUMENT, reason, str(error)
    if isinstance(error, TavliError):
        return grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ARGUMENT", str(error)
    if isinstance(error, NotImplementedError):
        # What a generated servicer raises for a method of its service the server does not
        # offer (gRPC health's List): the client's question, not a bug.
        return grpc.StatusCode.UNIMPLEMENTED, "NOT_IMPLEMENTED", "this server does not offer this method"
    return grpc.StatusCode.INTERNAL, "INTERNAL", "internal error; the server's log has the details"


# Messages quote the input; a long input quoted whole would make the status trailers larger than
# a client accepts (16 KiB by default), and the client would see RESOURCE_EXHAUSTED instead.
MAX_MESSAGE_CHARS = 1000


def cut(words: str, most: int = MAX_MESSAGE_CHARS) -> str:
    """``words``, cut to ``most`` characters (the last one an ellipsis) if they are longer."""
    return words if len(words) <= most else words[: most - 1] + "…"


def rich_status(
    status: grpc.StatusCode,
    reason: str,
    message: str,
    *,
    details: Sequence[Message] = (),
    metadata: Mapping[str, str] | None = None,
) -> grpc.Status:
    """A status carrying a google.rpc.Status with one ErrorInfo and then ``details`` (the message
    cut to :data:`MAX_MESSAGE_CHARS`)."""
    return rpc_status.to_status(status_message(status, reason, message, details=details, metadata=metadata))


def status_message(
    status: grpc.StatusCode,
    reason: str,
    message: str,
    *,
    details: Sequence[Message] = (),
    metadata: Mapping[str, str] | None = None,
) -> status_pb2.Status:
    """The google.rpc.Status of an error: ``status`` as its code, its message (cut to
    :data:`MAX_MESSAGE_CHARS`), one ErrorInfo with its reason, in domain ``tavli``, and
    ``metadata``, then ``details``."""
    info = error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN, metadata=metadata)
    return status_pb2.Status(
        code=getattr(code_pb2, status.name),
        message=cut(message),
        details=[packed(info), *map(packed, details)],
    )


def packed(message: Message) -> any_pb2.Any:
    """``message`` packed into a google.protobuf.Any, as a status detail."""
    detail = any_pb2.Any()
    detail.Pack(message)
    return detail


class ErrorInterceptor(WrappingInterceptor):
    """Turns what a handler raises into the right status, for unary and streaming responses."""

    def wrap(self, method: str, handler: Any) -> Any:
        # A stream of requests is guarded as a stream of responses is: it is the handler's first
        # argument, its messages read so that one that cannot be decoded is the client's error.
        method = method.rpartition("/")[2]
        return wrapped(
            handler,
            unary_unary=_guard_unary,
            unary_stream=_guard_stream,
            stream_stream=lambda behaviour: _guard_stream(_reading(method, behaviour)),
        )


async def abort(context: Context, error: Exception) -> NoReturn:
    """End the call with the status ``error`` maps to (a bug's with its traceback logged)."""
    status, reason, message = status_of(error)
    if status is grpc.StatusCode.INTERNAL:
        log.error("handler failed", error_type=type(error).__name__, exc_info=error)
    if isinstance(error, ServiceError):
        answer = rich_status(status, reason, message, details=error.details, metadata=error.metadata)
    else:
        answer = rich_status(status, reason, message)
    await context.abort_with_status(answer)
    raise AssertionError("abort_with_status returned")  # it always raises


def _guard_unary(behaviour: Callable[[Any, Context], Awaitable[Any]]) -> Callable[..., Any]:
    async def guarded(request: Any, context: Context) -> Any:
        try:
            return await behaviour(request, context)
        except grpc.aio.AbortError:
            raise
        except Exception as error:  # noqa: BLE001 - every error becomes a status here, and only here
            await abort(context, error)

    return guarded


def _reading(
    method: str, behaviour: Callable[[Any, Context], AsyncIterator[Any]]
) -> Callable[..., AsyncIterator[Any]]:
    """``behaviour``, its client's messages read so that one that cannot be decoded is the
    client's error in words (INVALID_ARGUMENT), not the handler's (gRPC decodes each message of a
    stream as the handler reads it, in the handler's own call)."""

    async def messages(requests: AsyncIterator[Any]) -> AsyncIterator[Any]:
        requests = aiter(requests)
        while True:
            try:
                message = await anext(requests)
            except StopAsyncIteration:
                return
            except DecodeError as error:
                raise UndecodableMessage(
                    f"a message the client sent on this {method} stream is not a {method} request"
                    f" in the Protocol Buffers binary format ({error}); the stream ends here"
                ) from None
            yield message

    def reading(requests: AsyncIterator[Any], context: Context) -> AsyncIterator[Any]:
        return behaviour(messages(requests), context)

    return reading


def _guard_stream(behaviour: Callable[[Any, Context], AsyncIterator[Any]]) -> Callable[..., Any]:
    async def guarded(request: Any, context: Context) -> AsyncIterator[Any]:
        try:
            async for response in responses_of(behaviour, request, context):
                yield response
        except grpc.aio.AbortError:
            raise
        except Exception as error:  # noqa: BLE001 - as above
            await abort(context, error)

    return guarded
