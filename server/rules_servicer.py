"""RulesService: stateless rule queries, each one conversion in, one engine call, one conversion out.

The calls are short and bound by the CPU: they run on the event loop itself, with no thread;
but ValidateMatch, whose record may take seconds to check, runs its check on threads of its own,
shared fairly between clients (:mod:`tavli.server.match_records`, :mod:`tavli.server.fair_queue`).
"""

from __future__ import annotations

from functools import lru_cache

from tavli.engine import IllegalPlayError, InvalidPositionError, Play, Position, TavliError, Variant
from tavli.engine.play import Dice
from tavli.engine.xgid import Xgid, format_xgid
from tavli.server import answers, convert, match_records
from tavli.server.admission import client_of
from tavli.server.errors import ServiceError
from tavli.server.fair_queue import FairQueue
from tavli.server.handlers import Context, Serialized
from tavli.v1 import rules_service_pb2 as pb, rules_service_pb2_grpc


class RulesServicer(rules_service_pb2_grpc.RulesServiceServicer):
    def __init__(self, checks: FairQueue) -> None:
        self.checks = checks

    async def ListLegalPlays(self, request: pb.ListLegalPlaysRequest, context: Context) -> Serialized:
        variant = convert.rules_of_request(request)
        position = convert.position_of(variant, request.position)
        return _legal_plays_response(variant, position, convert.dice_of(request.dice))

    async def ValidatePlay(
        self, request: pb.ValidatePlayRequest, context: Context
    ) -> pb.ValidatePlayResponse:
        return _validate(request)

    async def BatchValidatePlays(
        self, request: pb.BatchValidatePlaysRequest, context: Context
    ) -> pb.BatchValidatePlaysResponse:
        return answers.batch_response([_validation_or_why_not(item) for item in request.requests])

    async def ApplyPlay(self, request: pb.ApplyPlayRequest, context: Context) -> pb.ApplyPlayResponse:
        variant = convert.rules_of_request(request)
        position = convert.position_of(variant, request.position)
        play = variant.parse_play(position, convert.dice_of(request.dice), request.notation)
        return pb.ApplyPlayResponse(
            play=convert.play_message(play),
            next_position_id=play.position.swapped().position_id(),
            result=convert.result_message(variant.result(play.position)),
        )

    async def ScorePosition(
        self, request: pb.ScorePositionRequest, context: Context
    ) -> pb.ScorePositionResponse:
        rules = convert.rule_set_of_request(request, mother_value=request.mother_value)
        variant = rules.rules
        position = convert.position_of(variant, request.position)
        result = variant.result(position)
        player_pips, opponent_pips = position.pip_count()
        return pb.ScorePositionResponse(
            result=convert.result_message(result),
            player_won=result is not None and variant.player_won(position),
            points=0 if result is None else rules.multiplier(result),
            player_pips=player_pips,
            opponent_pips=opponent_pips,
        )

    async def ConvertPosition(
        self, request: pb.ConvertPositionRequest, context: Context
    ) -> pb.ConvertPositionResponse:
        variant = convert.rules_of_request(request)
        position = convert.position_of(variant, request.position)
        return pb.ConvertPositionResponse(
            position_id=position.position_id(),
            xgid=_xgid_or_empty(position),
            board=convert.board_message(position),
        )

    async def ValidateMatch(
        self, request: pb.ValidateMatchRequest, context: Context
    ) -> pb.ValidateMatchResponse:
        return await match_records.validated(request.record, self.checks, client_of(context))


def _xgid_or_empty(position: Position) -> str:
    # An XGID has one square a point, laid out as in backgammon: a long nardi position whose sides
    # stand on squares that coincide in that layout has no XGID, and is still a valid position.
    try:
        return format_xgid(Xgid(position=position, player_on_roll=1))
    except InvalidPositionError:
        return ""


@lru_cache(maxsize=4096)
def _legal_plays_response(variant: Variant, position: Position, dice: Dice) -> Serialized:
    # Built once per position and roll, as the engine's legal plays are, and sent as it is.
    return answers.legal_plays_answer(variant.legal_plays(position, dice))


def _validate(request: pb.ValidatePlayRequest) -> pb.ValidatePlayResponse:
    validation = _validation(request)
    if isinstance(validation, Play):
        return pb.ValidatePlayResponse(legal=True, play=convert.play_message(validation))
    return validation


def _validation(request: pb.ValidatePlayRequest) -> Play | pb.ValidatePlayResponse:
    """The legal play ``request`` gives, or the answer that says why it is not one.

    :raises TavliError: for a request the engine cannot read.
    :raises ServiceError: for one the API does not allow.
    """
    variant = convert.rules_of_request(request)
    position = convert.position_of(variant, request.position)
    dice = convert.dice_of(request.dice)
    try:
        if request.WhichOneof("play") == "steps":
            play = variant.check_play(position, dice, convert.moves_of(request.steps.steps))
        else:
            play = variant.parse_play(position, dice, request.notation)
    except IllegalPlayError as error:
        return pb.ValidatePlayResponse(legal=False, reason=error.why)
    return play


def _validation_or_why_not(request: pb.ValidatePlayRequest) -> Play | pb.ValidatePlayResponse:
    try:
        return _validation(request)
    except (TavliError, ServiceError) as error:
        return pb.ValidatePlayResponse(legal=False, error=str(error))
