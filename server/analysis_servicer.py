"""AnalysisService: GNU Backgammon's judgement of a position, asked of the server's evaluator pool.

Each call converts its request (:mod:`tavli.server.analysis.questions`), waits for an evaluator
process to answer (:mod:`tavli.server.analysis.pool`; the event loop only waits) and converts the
answer back.
"""

from __future__ import annotations

from tavli.engine import Play
from tavli.server import convert
from tavli.server.analysis import questions
from tavli.server.analysis.pool import EvaluatorPool
from tavli.server.analysis.values import CubeDecision, Evaluation
from tavli.server.errors import BadRequest
from tavli.server.handlers import Context
from tavli.v1 import analysis_service_pb2 as pb, analysis_service_pb2_grpc

# gnubg's words for the cube action of the side on roll, as its cube analysis writes them.
_ACTIONS = {
    "No double": pb.CUBE_ACTION_NO_DOUBLE,
    "No redouble": pb.CUBE_ACTION_NO_DOUBLE,
    "Never double": pb.CUBE_ACTION_NO_DOUBLE,
    "Never redouble": pb.CUBE_ACTION_NO_DOUBLE,
    "Too good to double": pb.CUBE_ACTION_TOO_GOOD,
    "Too good to redouble": pb.CUBE_ACTION_TOO_GOOD,
}
_DOUBLES = {
    "take": pb.CUBE_ACTION_DOUBLE_TAKE,
    "beaver": pb.CUBE_ACTION_DOUBLE_TAKE,
    "pass": pb.CUBE_ACTION_DOUBLE_PASS,
}
_RESPONSES = {"take": pb.CUBE_RESPONSE_TAKE, "beaver": pb.CUBE_RESPONSE_TAKE, "pass": pb.CUBE_RESPONSE_PASS}


class AnalysisServicer(analysis_service_pb2_grpc.AnalysisServiceServicer):
    def __init__(self, evaluators: EvaluatorPool) -> None:
        self.evaluators = evaluators

    async def EvaluatePosition(
        self, request: pb.EvaluatePositionRequest, context: Context
    ) -> pb.EvaluatePositionResponse:
        _, position = questions.evaluated_position(request.variant, request.position)
        evaluation: Evaluation = await self.evaluators.ask(
            "evaluate", questions.board_of(position), questions.context_of(request.context)
        )
        win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = evaluation.outcomes
        return pb.EvaluatePositionResponse(
            outcomes=pb.Outcomes(
                player_wins=win,
                player_wins_gammon=win_gammon,
                player_wins_backgammon=win_backgammon,
                opponent_wins=1.0 - win,
                opponent_wins_gammon=lose_gammon,
                opponent_wins_backgammon=lose_backgammon,
            ),
            cubeless_equity=evaluation.cubeless_equity,
            cubeful_equity=evaluation.cubeful_equity,
        )

    async def ListRankedPlays(
        self, request: pb.ListRankedPlaysRequest, context: Context
    ) -> pb.ListRankedPlaysResponse:
        variant, position = questions.evaluated_position(request.variant, request.position)
        dice = convert.dice_of(request.dice)
        game = questions.context_of(request.context)
        plays: list[Play] = list(variant.legal_plays(position, dice))
        equities: list[float] = await self.evaluators.ask(
            "play_equities",
            questions.board_of(position),
            game,
            dice,
            [
                (tuple((step.start, step.end) for step in play.steps), questions.board_of(play.position))
                for play in plays
            ],
        )
        ranked = sorted(zip(plays, equities), key=lambda pair: -pair[1])
        best = ranked[0][1]
        return pb.ListRankedPlaysResponse(
            plays=[
                pb.RankedPlay(play=convert.play_message(play), equity=equity, loss=best - equity)
                for play, equity in ranked
            ]
        )

    async def GetCubeDecision(
        self, request: pb.GetCubeDecisionRequest, context: Context
    ) -> pb.GetCubeDecisionResponse:
        _, position = questions.evaluated_position(request.variant, request.position)
        game = questions.context_of(request.context)
        if game.crawford:
            raise BadRequest("no one doubles in the Crawford game: there is no cube decision")
        if game.cube_owner == "opponent":
            raise BadRequest("the opponent owns the cube: the side on roll cannot double")
        decision: CubeDecision = await self.evaluators.ask(
            "cube_decision", questions.board_of(position), game
        )
        return pb.GetCubeDecisionResponse(
            no_double_equity=decision.no_double,
            double_take_equity=decision.double_take,
            double_pass_equity=decision.double_pass,
            action=_ACTIONS.get(decision.action) or _DOUBLES[decision.response],
            response=_RESPONSES[decision.response],
            cubeless_equity=decision.cubeless_equity,
        )
