"""GamesService: games kept by the server, over :class:`~server.tables.Tables`.

Each RPC reads its request into the game's own terms, asks the tables, and turns the
:class:`~server.tables.GameView` it gets back into the response; no RPC takes a game's lock.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

import grpc

from tavli.engine.events import Side
from tavli.engine.game import legal_actions, legal_plays
from tavli.engine.match import Match, open_commitment
from tavli.engine.matfile import export_mat
from tavli.server import convert
from tavli.server.admission import client_of
from tavli.server.errors import BadRequest
from tavli.server.quotas import Quotas
from tavli.server.tables import Created, GameView, Request, Tables
from tavli.v1 import games_service_pb2 as pb, games_service_pb2_grpc

Response = TypeVar("Response")
_BAD_PAGE_TOKEN = "page_token is not one this server gave"
# A page token is a small JSON object; anything longer was not made here.
_MOST_PAGE_TOKEN_CHARS = 512


class GamesServicer(games_service_pb2_grpc.GamesServiceServicer):
    def __init__(self, tables: Tables, quotas: Quotas) -> None:
        self.tables = tables
        self.quotas = quotas

    async def CreateGame(self, request: pb.CreateGameRequest, context: grpc.aio.ServicerContext) -> pb.CreateGameResponse:
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
        )
        return created_message(created)

    async def GetGame(self, request: pb.GetGameRequest, context: grpc.aio.ServicerContext) -> pb.GetGameResponse:
        return pb.GetGameResponse(game=game_message(await self.tables.get(_name_of(request))))

    async def ListGames(self, request: pb.ListGamesRequest, context: grpc.aio.ServicerContext) -> pb.ListGamesResponse:
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

    async def RollDice(self, request: pb.RollDiceRequest, context: grpc.aio.ServicerContext) -> pb.RollDiceResponse:
        return await self._act("RollDice", request, lambda match, seat: match.roll(seat), pb.RollDiceResponse)

    async def PlayMove(self, request: pb.PlayMoveRequest, context: grpc.aio.ServicerContext) -> pb.PlayMoveResponse:
        play = convert.moves_of(request.steps.steps) if request.WhichOneof("play") == "steps" else request.notation
        return await self._act("PlayMove", request, lambda match, seat: match.play(seat, play), pb.PlayMoveResponse)

    async def OfferDouble(
        self, request: pb.OfferDoubleRequest, context: grpc.aio.ServicerContext
    ) -> pb.OfferDoubleResponse:
        return await self._act("OfferDouble", request, lambda match, seat: match.double(seat), pb.OfferDoubleResponse)

    async def TakeDouble(self, request: pb.TakeDoubleRequest, context: grpc.aio.ServicerContext) -> pb.TakeDoubleResponse:
        return await self._act("TakeDouble", request, lambda match, seat: match.take(seat), pb.TakeDoubleResponse)

    async def DropDouble(self, request: pb.DropDoubleRequest, context: grpc.aio.ServicerContext) -> pb.DropDoubleResponse:
        return await self._act("DropDouble", request, lambda match, seat: match.drop(seat), pb.DropDoubleResponse)

    async def BeaverDouble(
        self, request: pb.BeaverDoubleRequest, context: grpc.aio.ServicerContext
    ) -> pb.BeaverDoubleResponse:
        return await self._act("BeaverDouble", request, lambda match, seat: match.beaver(seat), pb.BeaverDoubleResponse)

    async def OfferResignation(
        self, request: pb.OfferResignationRequest, context: grpc.aio.ServicerContext
    ) -> pb.OfferResignationResponse:
        level = convert.resign_level_of(request.result)
        return await self._act(
            "OfferResignation",
            request,
            lambda match, seat: match.resign(seat, level),  # type: ignore[arg-type]
            pb.OfferResignationResponse,
        )

    async def AcceptResignation(
        self, request: pb.AcceptResignationRequest, context: grpc.aio.ServicerContext
    ) -> pb.AcceptResignationResponse:
        return await self._act(
            "AcceptResignation", request, lambda match, seat: match.accept(seat), pb.AcceptResignationResponse
        )

    async def RejectResignation(
        self, request: pb.RejectResignationRequest, context: grpc.aio.ServicerContext
    ) -> pb.RejectResignationResponse:
        return await self._act(
            "RejectResignation", request, lambda match, seat: match.reject(seat), pb.RejectResignationResponse
        )

    async def ListLegalActions(
        self, request: pb.ListLegalActionsRequest, context: grpc.aio.ServicerContext
    ) -> pb.ListLegalActionsResponse:
        seat = convert.seat_of(request.seat)
        view = await self.tables.get(_name_of(request))
        state = view.state
        response = pb.ListLegalActionsResponse(
            actions=convert.actions_message(legal_actions(state, seat)), etag=view.etag
        )
        if seat == state.game.turn:
            convert.add_play_messages(response.plays, legal_plays(state))
        return response

    async def ListGameEvents(
        self, request: pb.ListGameEventsRequest, context: grpc.aio.ServicerContext
    ) -> pb.ListGameEventsResponse:
        page_size = _page_size(request.page_size, default=500, most=5000)
        start = _cursor(request.page_token).get("sequence") if request.page_token else 0
        if type(start) is not int or not 0 <= start < 2**63:
            raise BadRequest(_BAD_PAGE_TOKEN)
        view = await self.tables.get(_name_of(request))
        events = view.events[start : start + page_size]
        end = start + len(events)
        return pb.ListGameEventsResponse(
            events=[convert.event_message(start + offset, event) for offset, event in enumerate(events)],
            next_page_token=_token({"sequence": end}) if end < view.version else "",
        )

    async def ExportMatch(self, request: pb.ExportMatchRequest, context: grpc.aio.ServicerContext) -> pb.ExportMatchResponse:
        view = await self.tables.get(_name_of(request))
        return pb.ExportMatchResponse(mat=export_mat(view.match))

    async def WatchGame(
        self, request: pb.WatchGameRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.WatchGameResponse]:
        async for sequence, event, state, view in self.tables.watch(_name_of(request), request.from_sequence):
            game = convert.game_message(
                view.name,
                view.rules,
                state,
                event_count=sequence + 1,
                dice_commitment=_commitment_after(view, sequence),
                dice_mode=view.dice_mode,
                created=view.created,
                updated=view.updated,
            )
            yield pb.WatchGameResponse(event=convert.event_message(sequence, event), game=game)

    async def _act(
        self, method: str, request: Any, action: Callable[[Match, Side], object], response: Callable[..., Response]
    ) -> Response:
        view = await self.tables.act(
            _name_of(request), request.seat_token, request.etag, _request_of(method, request), action
        )
        return response(game=game_message(view))


def game_message(view: GameView) -> pb.Game:
    """The Game resource of a stored game."""
    return convert.game_message(
        view.name,
        view.rules,
        view.state,
        event_count=view.version,
        dice_commitment=view.match.dice_commitment,
        dice_mode=view.dice_mode,
        created=view.created,
        updated=view.updated,
    )


def summary_of(view: GameView) -> bytes:
    """What a listing shows of a game: its Game resource, serialized (stored with each action)."""
    return game_message(view).SerializeToString()


def created_message(created: Created) -> pb.CreateGameResponse:
    return pb.CreateGameResponse(
        game=game_message(created.game), seat0_token=created.tokens[0], seat1_token=created.tokens[1]
    )


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


def _commitment_after(view: GameView, sequence: int) -> str:
    """The dice commitment in force just after event ``sequence``."""
    if view.dice_mode != "verifiable":
        return ""
    commitment = open_commitment(view.events[: sequence + 1])
    return "" if commitment is None else commitment.commitment


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
