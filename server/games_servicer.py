"""GamesService: games kept by the server, over :class:`~server.tables.Tables`."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import grpc

from engine.events import Side
from engine.game import legal_actions, legal_plays
from engine.match import Match, open_commitment
from server import convert
from server.errors import BadRequest
from server.tables import DiceMode, Table, Tables
from tavli.v1 import games_service_pb2 as pb
from tavli.v1 import games_service_pb2_grpc

Response = TypeVar("Response")
_DICE_MODES: dict[int, DiceMode] = {
    pb.DICE_MODE_UNSPECIFIED: "system",
    pb.DICE_MODE_SEEDED: "seeded",
    pb.DICE_MODE_VERIFIABLE: "verifiable",
}


class GamesServicer(games_service_pb2_grpc.GamesServiceServicer):
    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    def CreateGame(self, request: pb.CreateGameRequest, context: grpc.ServicerContext) -> pb.CreateGameResponse:
        if not request.HasField("rule_set"):
            raise BadRequest("a game needs a rule_set")
        rules = convert.rules_of(request.rule_set)
        dice_mode = _DICE_MODES.get(request.dice_mode)
        if dice_mode is None:
            raise BadRequest(f"unknown dice_mode {request.dice_mode}")

        def answer(table: Table, tokens: tuple[str, str]) -> bytes:
            response = pb.CreateGameResponse(game=game_of(table), seat0_token=tokens[0], seat1_token=tokens[1])
            return response.SerializeToString()

        created = self.tables.create(
            rules, dice_mode=dice_mode, dice_seed=request.dice_seed, request_id=request.request_id, answer=answer
        )
        return pb.CreateGameResponse.FromString(created)

    def GetGame(self, request: pb.GetGameRequest, context: grpc.ServicerContext) -> pb.GetGameResponse:
        table = self.tables.get(request.name)
        with table.lock:
            return pb.GetGameResponse(game=game_of(table))

    def ListGames(self, request: pb.ListGamesRequest, context: grpc.ServicerContext) -> pb.ListGamesResponse:
        page_size = _page_size(request.page_size, default=50, most=1000)
        after = _cursor(request.page_token)
        if request.page_token and not (_is_number(after.get("created")) and isinstance(after.get("name"), str)):
            raise BadRequest("page_token is not one this server gave")
        tables = self.tables.list(page_size + 1, (after["created"], after["name"]) if after else None)
        page = tables[:page_size]
        games = []
        for table in page:
            with table.lock:
                games.append(game_of(table))
        next_token = ""
        if len(tables) > page_size:
            last = page[-1].record
            next_token = _token({"created": last.created, "name": last.name})
        return pb.ListGamesResponse(games=games, next_page_token=next_token)

    def RollDice(self, request: pb.RollDiceRequest, context: grpc.ServicerContext) -> pb.RollDiceResponse:
        return self._act(request, lambda match, seat: match.roll(seat), pb.RollDiceResponse)

    def PlayMove(self, request: pb.PlayMoveRequest, context: grpc.ServicerContext) -> pb.PlayMoveResponse:
        return self._act(request, lambda match, seat: match.play(seat, request.notation), pb.PlayMoveResponse)

    def OfferDouble(self, request: pb.OfferDoubleRequest, context: grpc.ServicerContext) -> pb.OfferDoubleResponse:
        return self._act(request, lambda match, seat: match.double(seat), pb.OfferDoubleResponse)

    def TakeDouble(self, request: pb.TakeDoubleRequest, context: grpc.ServicerContext) -> pb.TakeDoubleResponse:
        return self._act(request, lambda match, seat: match.take(seat), pb.TakeDoubleResponse)

    def DropDouble(self, request: pb.DropDoubleRequest, context: grpc.ServicerContext) -> pb.DropDoubleResponse:
        return self._act(request, lambda match, seat: match.drop(seat), pb.DropDoubleResponse)

    def BeaverDouble(self, request: pb.BeaverDoubleRequest, context: grpc.ServicerContext) -> pb.BeaverDoubleResponse:
        return self._act(request, lambda match, seat: match.beaver(seat), pb.BeaverDoubleResponse)

    def OfferResignation(
        self, request: pb.OfferResignationRequest, context: grpc.ServicerContext
    ) -> pb.OfferResignationResponse:
        level = convert.resign_level_of(request.result)
        return self._act(request, lambda match, seat: match.resign(seat, level), pb.OfferResignationResponse)  # type: ignore[arg-type]

    def AcceptResignation(
        self, request: pb.AcceptResignationRequest, context: grpc.ServicerContext
    ) -> pb.AcceptResignationResponse:
        return self._act(request, lambda match, seat: match.accept(seat), pb.AcceptResignationResponse)

    def RejectResignation(
        self, request: pb.RejectResignationRequest, context: grpc.ServicerContext
    ) -> pb.RejectResignationResponse:
        return self._act(request, lambda match, seat: match.reject(seat), pb.RejectResignationResponse)

    def ListLegalActions(
        self, request: pb.ListLegalActionsRequest, context: grpc.ServicerContext
    ) -> pb.ListLegalActionsResponse:
        seat = convert.seat_of(request.seat)
        table = self.tables.get(request.name)
        with table.lock:
            state = table.match.state
            actions = legal_actions(state, seat)
            plays = legal_plays(state) if seat == state.game.turn else []
            response = pb.ListLegalActionsResponse(actions=convert.actions_message(actions), etag=table.etag)
            convert.add_play_messages(response.plays, plays)
            return response

    def ListGameEvents(
        self, request: pb.ListGameEventsRequest, context: grpc.ServicerContext
    ) -> pb.ListGameEventsResponse:
        page_size = _page_size(request.page_size, default=500, most=5000)
        start = _cursor(request.page_token).get("sequence") if request.page_token else 0
        if type(start) is not int or start < 0:
            raise BadRequest("page_token is not one this server gave")
        table = self.tables.get(request.name)
        with table.lock:
            events = table.match.events[start : start + page_size]
            total = len(table.match.events)
        end = start + len(events)
        return pb.ListGameEventsResponse(
            events=[convert.event_message(start + offset, event) for offset, event in enumerate(events)],
            next_page_token=_token({"sequence": end}) if end < total else "",
        )

    def ExportMatch(self, request: pb.ExportMatchRequest, context: grpc.ServicerContext) -> pb.ExportMatchResponse:
        from engine.matfile import export_mat

        table = self.tables.get(request.name)
        with table.lock:
            return pb.ExportMatchResponse(mat=export_mat(table.match))

    def WatchGame(self, request: pb.WatchGameRequest, context: grpc.ServicerContext) -> Iterator[pb.WatchGameResponse]:
        for sequence, event, state, table in self.tables.watch(request.name, request.from_sequence, context.is_active):
            game = convert.game_message(
                table.name,
                table.rules,
                state,
                event_count=sequence + 1,
                dice_commitment=_commitment_after(table, sequence),
                created=table.record.created,
                updated=table.record.updated,
            )
            yield pb.WatchGameResponse(event=convert.event_message(sequence, event), game=game)

    def _act(self, request: Any, action: Callable[[Match, Side], object], response: Callable[..., Response]) -> Response:
        if not request.name:
            raise BadRequest("name the game: games/{game}")
        answer = lambda table: response(game=game_of(table)).SerializeToString()  # noqa: E731
        serialized = self.tables.act(request.name, request.seat_token, request.etag, request.request_id, action, answer)
        return response.FromString(serialized)  # type: ignore[attr-defined,no-any-return]


def game_of(table: Table) -> pb.Game:
    """The Game resource of a table, now."""
    match = table.match
    return convert.game_message(
        table.name,
        table.rules,
        match.state,
        event_count=match.version,
        dice_commitment=match.dice_commitment,
        created=table.record.created,
        updated=table.record.updated,
    )


def _commitment_after(table: Table, sequence: int) -> str:
    """The dice commitment in force just after event ``sequence``."""
    if table.record.dice_mode != "verifiable":
        return ""
    commitment = open_commitment(table.match.events[: sequence + 1])
    return "" if commitment is None else commitment.commitment


def _page_size(requested: int, *, default: int, most: int) -> int:
    if requested < 0:
        raise BadRequest("page_size cannot be negative")
    return min(requested or default, most)


def _token(cursor: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(cursor).encode()).decode()


def _is_number(value: object) -> bool:
    return type(value) in (int, float)


def _cursor(token: str) -> dict[str, Any]:
    if not token:
        return {}
    try:
        cursor = json.loads(base64.urlsafe_b64decode(token.encode()))
    except ValueError:
        raise BadRequest("page_token is not one this server gave") from None
    if not isinstance(cursor, dict):
        raise BadRequest("page_token is not one this server gave")
    return cursor
