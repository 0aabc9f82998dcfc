"""GamesService: games kept by the server, over :class:`~tavli.server.tables.Tables`.

Each RPC reads its request into the game's own terms, asks the tables, and turns the
:class:`~tavli.server.tables.GameView` it gets back into the response; no RPC takes a game's lock.
PlaySeat's stream is kept by :class:`~tavli.server.seat_stream.SeatStreams`, which makes each action
as the action RPC it names makes it (:meth:`GamesServicer.act`).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import functools
import hashlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

from google.protobuf.message import Message

from tavli.engine import wire
from tavli.engine.events import Side
from tavli.engine.game import ActionError
from tavli.engine.match import Match
from tavli.server import convert, match_records
from tavli.server.admission import client_of
from tavli.server.errors import BadRequest
from tavli.server.fair_queue import FairQueue
from tavli.server.game_views import GameView
from tavli.server.handlers import Context, Serialized
from tavli.server.limits import RequestLimits
from tavli.server.log_text import log_as_text
from tavli.server.players import from_record, players_of, record_names
from tavli.server.quotas import Quotas
from tavli.server.seat_stream import SeatGuard, SeatStreams, anyone_with_the_token
from tavli.server.tables import Action, Created, Request, Tables, new_game_name
from tavli.v1 import games_service_pb2 as pb, games_service_pb2_grpc, match_record_pb2

_Created = TypeVar("_Created", pb.CreateGameResponse, pb.ImportMatchResponse)
_BAD_PAGE_TOKEN = "page_token is not one this server gave"
# A page token is a small JSON object; anything longer was not made here.
_MOST_PAGE_TOKEN_CHARS = 512


async def _nobody_to_tell(name: str, seat: Side) -> None:
    pass


class GamesServicer(games_service_pb2_grpc.GamesServiceServicer):
    def __init__(
        self,
        tables: Tables,
        quotas: Quotas,
        checks: FairQueue,
        limits: RequestLimits | None = None,
        *,
        guard: SeatGuard = anyone_with_the_token,
        rematch_offered: Callable[[str, Side], Awaitable[None]] = _nobody_to_tell,
    ) -> None:
        """``limits`` bound the messages of a seat stream after its first (the admission
        interceptor bounds every other request); imported records are checked among ``checks``;
        ``guard`` refuses an action whose call may not act for its seat (besides its token);
        ``rematch_offered(game, seat)`` hears of each rematch offered (the ladder tells the other
        account)."""
        self.tables = tables
        self.quotas = quotas
        self.checks = checks
        self.guard = guard
        self.rematch_offered = rematch_offered
        limits = limits or RequestLimits()
        self.seat_streams = SeatStreams(tables, quotas, limits, act=self.act, guard=guard)

    async def CreateGame(self, request: pb.CreateGameRequest, context: Context) -> pb.CreateGameResponse:
        if not request.HasField("rule_set"):
            raise BadRequest("a game needs a rule_set")
        rules = convert.rules_of(request.rule_set)
        dice_mode = convert.dice_mode_of(request.dice_mode)
        client = client_of(context)
        created = await self.tables.create(
            rules,
            dice_mode=dice_mode,
            dice_seed=request.dice_seed,
            request=_request_of("CreateGame", request),
            admit=lambda name: self.quotas.count_game(client, name),
            players=players_of(request),
            hints_allowed=request.hints_allowed,
        )
        return created_message(created, pb.CreateGameResponse)

    async def ImportMatch(self, request: pb.ImportMatchRequest, context: Context) -> pb.ImportMatchResponse:
        dice_mode = convert.dice_mode_of(request.dice_mode)
        players = players_of(request)  # the cheap refusals before the long check
        client = client_of(context)
        imported = await match_records.imported(request.record, self.checks, client)
        created = await self.tables.create(
            imported.rules,
            dice_mode=dice_mode,
            dice_seed=request.dice_seed,
            request=_request_of("ImportMatch", request),
            admit=lambda name: self.quotas.count_game(client, name),
            played=imported.played,
            players=from_record(imported.players, players),
        )
        return created_message(created, pb.ImportMatchResponse)

    async def GetGame(self, request: pb.GetGameRequest, context: Context) -> Serialized:
        return _game_answer(pb.GetGameResponse, await self.tables.get(_name_of(request)))

    async def ListGames(self, request: pb.ListGamesRequest, context: Context) -> pb.ListGamesResponse:
        page_size = _page_size(request.page_size, default=50, most=1000)
        after = None
        if request.page_token:
            cursor = _cursor(request.page_token)
            created, name = cursor.get("created"), cursor.get("name")
            if not (_is_time(created) and isinstance(name, str) and len(name) <= 64):
                raise BadRequest(_BAD_PAGE_TOKEN)
            after = (float(created), name)  # type: ignore[arg-type]
        listed = await self.tables.listing(page_size + 1, after)
        response = pb.ListGamesResponse()
        for entry in listed[:page_size]:
            game = response.games.add()
            game.MergeFromString(entry.summary)
            game.name = entry.record.name
        if len(listed) > page_size:
            last = listed[page_size - 1].record
            response.next_page_token = _token({"created": last.created, "name": last.name})
        return response

    async def RollDice(self, request: pb.RollDiceRequest, context: Context) -> Serialized:
        return _game_answer(pb.RollDiceResponse, await self._acted("RollDice", request, context))

    async def PlayMove(self, request: pb.PlayMoveRequest, context: Context) -> Serialized:
        return _game_answer(pb.PlayMoveResponse, await self._acted("PlayMove", request, context))

    async def OfferDouble(self, request: pb.OfferDoubleRequest, context: Context) -> Serialized:
        return _game_answer(pb.OfferDoubleResponse, await self._acted("OfferDouble", request, context))

    async def TakeDouble(self, request: pb.TakeDoubleRequest, context: Context) -> Serialized:
        return _game_answer(pb.TakeDoubleResponse, await self._acted("TakeDouble", request, context))

    async def DropDouble(self, request: pb.DropDoubleRequest, context: Context) -> Serialized:
        return _game_answer(pb.DropDoubleResponse, await self._acted("DropDouble", request, context))

    async def BeaverDouble(self, request: pb.BeaverDoubleRequest, context: Context) -> Serialized:
        return _game_answer(pb.BeaverDoubleResponse, await self._acted("BeaverDouble", request, context))

    async def OfferResignation(self, request: pb.OfferResignationRequest, context: Context) -> Serialized:
        return _game_answer(
            pb.OfferResignationResponse, await self._acted("OfferResignation", request, context)
        )

    async def AcceptResignation(self, request: pb.AcceptResignationRequest, context: Context) -> Serialized:
        return _game_answer(
            pb.AcceptResignationResponse, await self._acted("AcceptResignation", request, context)
        )

    async def RejectResignation(self, request: pb.RejectResignationRequest, context: Context) -> Serialized:
        return _game_answer(
            pb.RejectResignationResponse, await self._acted("RejectResignation", request, context)
        )

    async def ListLegalActions(self, request: pb.ListLegalActionsRequest, context: Context) -> Serialized:
        view = await self.tables.get(_name_of(request))
        if not request.seat_token:
            seat = convert.seat_of(request.seat)
        elif request.seat:
            raise BadRequest("give seat or seat_token, not both")
        else:
            seat = await self.tables.seat(view.name, request.seat_token)
        return view.legal_actions(seat)  # the version's own answer, serialized once: sent as it is

    async def ListGameEvents(
        self, request: pb.ListGameEventsRequest, context: Context
    ) -> pb.ListGameEventsResponse:
        page_size = _page_size(request.page_size, default=500, most=5000)
        start = _cursor(request.page_token).get("sequence") if request.page_token else 0
        if type(start) is not int or not 0 <= start < 2**63:
            raise BadRequest(_BAD_PAGE_TOKEN)
        view = await self.tables.history(_name_of(request))
        events = view.events[start : start + page_size]
        end = start + len(events)
        return pb.ListGameEventsResponse(
            events=[convert.event_message(start + offset, event) for offset, event in enumerate(events)],
            next_page_token=_token({"sequence": end}) if end < view.version else "",
        )

    async def ExportMatch(self, request: pb.ExportMatchRequest, context: Context) -> pb.ExportMatchResponse:
        view = await self.tables.history(_name_of(request))
        log = await asyncio.to_thread(log_as_text, view.events)
        form = "sgf" if request.format == match_record_pb2.MATCH_RECORD_FORMAT_SGF else "mat"
        record = await self.checks.run(
            client_of(context), "exported", view.rules, log, record_names(view.players), form
        )
        return pb.ExportMatchResponse(**{form: record})

    async def WatchGame(
        self, request: pb.WatchGameRequest, context: Context
    ) -> AsyncIterator[pb.WatchGameResponse]:
        # What a watch folds for its watcher alone is its client's CPU, paced by its budget.
        pay = functools.partial(self.quotas.pay_cpu, client_of(context))
        async for message in self.tables.watch(_name_of(request), request.from_sequence, pay=pay):
            yield message

    async def OfferRematch(self, request: pb.OfferRematchRequest, context: Context) -> Serialized:
        view = await self._acted("OfferRematch", request, context)
        await self.rematch_offered(view.name, await self.tables.seat(view.name, request.seat_token))
        return _game_answer(pb.OfferRematchResponse, view)

    async def AcceptRematch(
        self, request: pb.AcceptRematchRequest, context: Context
    ) -> pb.AcceptRematchResponse:
        name = _name_of(request)
        seat = await self.tables.seat(name, request.seat_token)
        await self.guard(name, seat, context.invocation_metadata())
        view = await self.tables.get(name)
        rematch = view.state.rematch
        if rematch is None or rematch.game is None:
            try:
                view = await self.act("AcceptRematch", request)
            except ActionError as error:
                if error.reason != "REMATCH_ALREADY_ACCEPTED":
                    raise
                view = await self.tables.get(name)  # the other seat's accept came first: the same game
        client = client_of(context)
        created = await self.tables.rematch(view, admit=lambda new: self.quotas.count_game(client, new))
        return pb.AcceptRematchResponse(
            game=view.message, rematch=created.game.message, seat_token=created.tokens[seat]
        )

    def PlaySeat(
        self, requests: AsyncIterator[pb.PlaySeatRequest], context: Context
    ) -> AsyncIterator[Serialized]:
        # Its own async generator, one step less a message: a plain function, which grpc.aio would
        # run as a sync generator, served only because the error interceptor wraps every handler.
        return self.seat_streams.play(requests, context)

    async def _acted(self, method: str, request: Any, context: Context) -> GameView:
        """The version :meth:`act` leaves the game at, once the call may act for the seat its
        token holds."""
        await self._guard(request, context)
        return await self.act(method, request)

    async def _guard(self, request: Any, context: Context) -> None:
        name = _name_of(request)
        seat = await self.tables.seat(name, request.seat_token)
        await self.guard(name, seat, context.invocation_metadata())

    async def act(self, method: str, request: Any) -> GameView:
        """Make what ``request``, a request of the action RPC ``method`` ("RollDice"), asks for;
        returns the game as stored after it (or as a retried request first left it).

        :raises BadRequest: for a request without a game's name, or without a result to resign.
        :raises ServiceError, ActionError: as :meth:`Tables.act` raises them.
        """
        action = _ACTIONS[method](request)
        return await self.tables.act(
            _name_of(request), request.seat_token, request.etag, _request_of(method, request), action
        )


def _game_answer(response: type[Message], view: GameView) -> Serialized:
    """``response``, an answer that holds one game, holding ``view``'s: the version's stored
    Game, serialized once, sent as it is."""
    return wire.message_field(response.DESCRIPTOR.fields_by_name["game"].number, view.summary)


def _play_move(request: pb.PlayMoveRequest) -> Action:
    steps = request.WhichOneof("play") == "steps"
    play = convert.moves_of(request.steps.steps) if steps else request.notation
    return lambda match, seat: match.play(seat, play)


def _accept_rematch(request: pb.AcceptRematchRequest) -> Action:
    game = new_game_name()  # named before it is made, so that the finished game names it once
    return lambda match, seat: match.accept_rematch(seat, game)


def _offer_resignation(request: pb.OfferResignationRequest) -> Action:
    level = convert.resign_level_of(request.result)
    return lambda match, seat: match.resign(seat, level)  # type: ignore[arg-type]


# What each action RPC does to the match for the acting seat, made from its request.
_ACTIONS: dict[str, Callable[[Any], Action]] = {
    "RollDice": lambda request: Match.roll,
    "PlayMove": _play_move,
    "OfferDouble": lambda request: Match.double,
    "TakeDouble": lambda request: Match.take,
    "DropDouble": lambda request: Match.drop,
    "BeaverDouble": lambda request: Match.beaver,
    "OfferResignation": _offer_resignation,
    "AcceptResignation": lambda request: Match.accept,
    "RejectResignation": lambda request: Match.reject,
    "OfferRematch": lambda request: Match.offer_rematch,
    "AcceptRematch": _accept_rematch,
}


def created_message(created: Created, answer: type[_Created]) -> _Created:
    """The answer of an RPC that makes a game (CreateGame, ImportMatch): the game and its seats' tokens."""
    seat0_token, seat1_token = created.tokens
    return answer(game=created.game.message, seat0_token=seat0_token, seat1_token=seat1_token)


def _request_of(method: str, request: Any) -> Request | None:
    """The request's id bound to what it asks: its method and a hash of its body (the seat is
    bound by the tables, from the token)."""
    if not request.request_id:
        return None
    body = type(request)()
    body.CopyFrom(request)
    body.ClearField("request_id")
    if hasattr(body, "seat_token"):
        body.ClearField("seat_token")
    digest = hashlib.sha256(body.SerializeToString(deterministic=True)).hexdigest()
    return Request(request.request_id, method, digest)


def _name_of(request: Any) -> str:
    if not request.name:
        raise BadRequest("name the game: games/{game}")
    return str(request.name)


def _page_size(requested: int, *, default: int, most: int) -> int:
    if requested < 0:
        raise BadRequest("page_size cannot be negative")
    return min(requested or default, most)


def _token(cursor: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(cursor).encode()).decode()


def _is_time(value: object) -> bool:
    # Seconds since 1970 as this server writes them: no later than the year 9999.
    return type(value) in (int, float) and 0 <= value < 253_402_300_800  # type: ignore[operator]


def _cursor(token: str) -> dict[str, Any]:
    if len(token) > _MOST_PAGE_TOKEN_CHARS:
        raise BadRequest(_BAD_PAGE_TOKEN)
    try:
        cursor = json.loads(base64.urlsafe_b64decode(token.encode()))
    except (ValueError, binascii.Error, RecursionError):
        raise BadRequest(_BAD_PAGE_TOKEN) from None
    if not isinstance(cursor, dict):
        raise BadRequest(_BAD_PAGE_TOKEN)
    return cursor
