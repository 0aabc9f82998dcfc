"""PlaySeat: one seat of a game held on one stream, its actions made as the action RPCs make them.

A stream joins its seat with its first message. From then on it sends the seat's view (the game
and what the seat may do) whenever another version of the game is stored, woken by the table as
a watch is, and answers each action the client sends with one message. The first view's game is
whole; each later one's carries only the finished games the stream has not sent yet. An action becomes the
request of the action RPC it names and is made by the same code (:meth:`GamesServicer.act`, over
:meth:`Tables.act`), so that etags, request ids, racing actions and "stored before visible" hold
as they do there; an action refused is answered with the status that RPC would have failed with,
and the stream goes on.

A seat of a game the ladder started wants its account's key as well as its token: the stream's
``guard`` checks the join's call, and again before each action, so that a key revoked meanwhile
acts no more (:meth:`tavli.server.ladder.Ladder.check_seat`).

One stream holds a seat at a time (in this process: with ``--workers`` each process counts its
own, as it counts quotas). A seat stream is admitted here, not by the admission interceptor: it
counts as an open stream on the game its join names, and each action as a call of its client.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import grpc
import grpc.aio
from google.protobuf.message import Message

from tavli.engine.events import Side
from tavli.server.admission import client_of
from tavli.server.errors import BadRequest, SeatAlreadyStreaming, status_message, status_of
from tavli.server.game_views import GameView
from tavli.server.handlers import Context, Serialized
from tavli.server.limits import RequestLimits, check_request
from tavli.server.quotas import Quotas
from tavli.server.tables import Tables
from tavli.v1 import games_service_pb2 as pb

# How long a stream may stay open before its join comes: until then it counts against no quota.
JOIN_SECONDS = 10.0

# Each action of SeatAction, by its field: the action RPC it is made as, and that RPC's request.
_ACTION_RPCS: dict[str, tuple[str, Callable[..., Message]]] = {
    "roll": ("RollDice", pb.RollDiceRequest),
    "play": ("PlayMove", pb.PlayMoveRequest),
    "double": ("OfferDouble", pb.OfferDoubleRequest),
    "take": ("TakeDouble", pb.TakeDoubleRequest),
    "drop": ("DropDouble", pb.DropDoubleRequest),
    "beaver": ("BeaverDouble", pb.BeaverDoubleRequest),
    "resign": ("OfferResignation", pb.OfferResignationRequest),
    "accept": ("AcceptResignation", pb.AcceptResignationRequest),
    "reject": ("RejectResignation", pb.RejectResignationRequest),
}

Act = Callable[[str, Any], Awaitable[GameView]]
SeatGuard = Callable[[str, Side, Any], Awaitable[None]]
"""``guard(game, seat, metadata)`` refuses, by raising, a call whose metadata may not act for the
seat (a ladder game's seat wants its account's key as well as its token)."""


async def anyone_with_the_token(name: str, seat: Side, metadata: Any) -> None:
    """The guard of a server with no seat of an account's: the token alone proves a seat."""


class SeatStreams:
    """The seat streams of one server, and the seats they hold.

    ``act(method, request)`` makes an action as the action RPC ``method`` does. A stream shows
    its seat each stored version as :meth:`GameView.seat_view` does, from the version's own
    messages.
    """

    def __init__(
        self,
        tables: Tables,
        quotas: Quotas,
        limits: RequestLimits,
        *,
        act: Act,
        guard: SeatGuard = anyone_with_the_token,
    ) -> None:
        self.tables = tables
        self.quotas = quotas
        self.limits = limits
        self._act = act
        self.guard = guard
        self._held: set[tuple[str, Side]] = set()

    async def play(
        self, requests: AsyncIterator[pb.PlaySeatRequest], context: Context
    ) -> AsyncIterator[Serialized]:
        """The messages of one PlaySeat stream, serialized, whose client's messages come from
        ``requests``.

        :raises BadRequest: for a first message that is not a join or none within
            :data:`JOIN_SECONDS`, and for a second join or a message that is neither.
        :raises FieldTooLong, UnknownEnumValue: for a join past its bounds.
        :raises LimitReached: past the open streams of the client or of the game.
        :raises GameNotFound, WrongSeatToken, GameDataLost: as their names say.
        :raises SeatAlreadyStreaming: if another stream holds the seat now.
        :raises ShuttingDown: when the server stops while the stream is open.
        """
        requests = aiter(requests)
        join = await _join_of(requests, self.limits)
        client = client_of(context)
        with self.quotas.open_stream(client, join.name):
            seat = await self.tables.seat(join.name, join.seat_token)
            metadata = context.invocation_metadata()
            await self.guard(join.name, seat, metadata)
            with self._holding(join.name, seat):
                async for response in self._serve(requests, client, join, seat, metadata):
                    yield response

    def holds(self, name: str, seat: Side) -> bool:
        """Whether an open stream of this process holds ``seat`` of the game ``name``."""
        return (name, seat) in self._held

    @contextlib.contextmanager
    def _holding(self, name: str, seat: Side) -> Iterator[None]:
        if (name, seat) in self._held:
            raise SeatAlreadyStreaming(
                f"seat {seat} of {name} is held by another stream: a seat is played on one stream at a time;"
                " join again once that one has ended"
            )
        self._held.add((name, seat))
        try:
            yield
        finally:
            self._held.discard((name, seat))

    async def _serve(
        self,
        requests: AsyncIterator[pb.PlaySeatRequest],
        client: str,
        join: pb.JoinSeat,
        seat: Side,
        metadata: Any,
    ) -> AsyncIterator[Serialized]:
        """The views and answers of a joined stream, until the match is over or the client has
        closed its side with every action answered."""
        sent = -1  # the version of the game the last message showed
        finished = 0  # the finished games the messages sent so far carried: the first has them all
        reading = asyncio.ensure_future(anext(requests, None))
        try:
            while True:
                # Whichever comes first: another version stored, or the client's next message.
                view = await self.tables.next_view(join.name, sent, until=reading)
                if view is not None:
                    yield view.seat_view(seat, sent=finished)
                else:
                    request = reading.result()
                    if request is None:
                        return
                    reading = asyncio.ensure_future(anext(requests, None))
                    view, answer = await self._answer(request, client, join, seat, metadata)
                    yield view.seat_view(seat, sent=finished, answer=answer)
                sent = view.version
                finished = len(view.state.finished)
                if view.state.over:
                    return
        finally:
            if reading.done() and not reading.cancelled():
                reading.exception()  # the client's side failed after the last answer: nothing to do
            reading.cancel()

    async def _answer(
        self, request: pb.PlaySeatRequest, client: str, join: pb.JoinSeat, seat: Side, metadata: Any
    ) -> tuple[GameView, pb.SeatActionAnswer]:
        """Make the action ``request`` carries; returns the game after it (the game now, if it was
        refused) and the answer.

        :raises BadRequest: for a message that is not an action (the stream ends).
        """
        kind = request.WhichOneof("kind")
        if kind == "join":
            raise BadRequest("this stream has joined its seat already: the join is sent once, first")
        if kind != "action":
            raise BadRequest("a message after the join is an action: set action")
        answer = pb.SeatActionAnswer(request_id=request.action.request_id)
        # A refusal here is an answer, not the stream's end: the error is turned into its status
        # here, as the error interceptor would turn it for the action RPC.
        try:
            check_request(request, self.limits)
            method, unary = action_request(join, request.action)
            with self.quotas.admit_call(client):
                await self.guard(join.name, seat, metadata)  # a key revoked since the join acts no more
                return await self._act(method, unary), answer
        except Exception as error:  # every refusal is answered; a bug (INTERNAL) is not
            status, reason, message = status_of(error)
            if status is grpc.StatusCode.INTERNAL:
                raise
            answer.refusal.MergeFromString(status_message(status, reason, message).SerializeToString())
        return await self.tables.get(join.name), answer


def action_request(join: pb.JoinSeat, action: pb.SeatAction) -> tuple[str, Any]:
    """The action RPC that ``action`` of the seat ``join`` holds stands for, and its request.

    :raises BadRequest: for an action that names none.
    """
    kind = action.WhichOneof("action")
    if kind is None:
        raise BadRequest(f"say what to do: set one of {', '.join(_ACTION_RPCS)}")
    method, request_type = _ACTION_RPCS[kind]
    request: Any = request_type(
        name=join.name, seat_token=join.seat_token, etag=action.etag, request_id=action.request_id
    )
    if kind == "play":
        play = action.play.WhichOneof("play")
        if play == "notation":
            request.notation = action.play.notation
        elif play == "steps":
            request.steps.CopyFrom(action.play.steps)
    elif kind == "resign":
        request.result = action.resign.result
    return method, request


async def _join_of(requests: AsyncIterator[pb.PlaySeatRequest], limits: RequestLimits) -> pb.JoinSeat:
    """The join a stream's first message must be.

    :raises BadRequest: for no message within :data:`JOIN_SECONDS`, or one that is not a join.
    :raises FieldTooLong, UnknownEnumValue: for a message past its bounds.
    """
    try:
        async with asyncio.timeout(JOIN_SECONDS):
            first = await anext(requests, None)
    except TimeoutError:
        raise BadRequest(
            f"a seat stream starts by joining its seat; no join came within {JOIN_SECONDS:g} seconds"
        ) from None
    if first is None:
        raise BadRequest("the stream ended before it joined a seat: send a join first")
    check_request(first, limits)
    if first.WhichOneof("kind") != "join":
        raise BadRequest(
            "a seat stream starts by joining its seat: send a join (the game's name and the seat's token) "
            "first"
        )
    if not first.join.name:
        raise BadRequest("name the game to join: games/{game}")
    return first.join
