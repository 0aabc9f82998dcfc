"""Ranked plays at 0 plies through the API against GNU Backgammon's own ``findbestmoves``.

    .venv/bin/python -m benchmarks.ranked_plays [--rounds 3] [--positions 300]

The positions are rolls of seeded random games of backgammon (the same every run). Each round
times, in turns whose order rotates from round to round:

- ``api``: ``AnalysisService.ListRankedPlays`` at 0 plies in money play, one call after another
  from one client, to a server on loopback with one evaluator process: the request read, the
  legal plays listed, the question sent to the evaluator, its moves matched with the plays, the
  answer written;
- ``gnubg``: the same package's ``gnubg.findbestmoves`` in this process, on the same boards with
  the same cube and evaluation settings: the evaluator's own time, the baseline.

Prints rankings a second for each side's fastest and slowest round, and the API's rate against
gnubg's (the service's overhead is what the ratio leaves out of 1.0).
"""

from __future__ import annotations

import argparse
import time

import gnubg
import grpc

from tavli.engine import BACKGAMMON, Position
from tavli.server.analysis.questions import board_of
from tavli.v1 import analysis_service_pb2 as pb, analysis_service_pb2_grpc, board_pb2
from tests.games import positions_from_games
from tests.server_play import running_server

Roll = tuple[Position, tuple[int, int]]


def rolls(count: int) -> list[Roll]:
    return [(position, dice) for position, dice in positions_from_games(BACKGAMMON, seed=7, count=count)]


def api_seconds(stub: analysis_service_pb2_grpc.AnalysisServiceStub, corpus: list[Roll]) -> float:
    requests = [
        pb.ListRankedPlaysRequest(
            variant=board_pb2.VARIANT_BACKGAMMON,
            position=board_pb2.Position(position_id=position.position_id()),
            dice=list(dice),
            context=pb.GameContext(plies=0),
        )
        for position, dice in corpus
    ]
    started = time.perf_counter()
    for request in requests:
        stub.ListRankedPlays(request, timeout=60)
    return time.perf_counter() - started


def gnubg_seconds(corpus: list[Roll]) -> float:
    boards = [(board_of(position), dice) for position, dice in corpus]
    cubeinfo = gnubg.cubeinfo(1, -1, 1, 0, (0, 0), 0, 0)  # money play, a centred cube
    cubeinfo["jacoby"] = 0
    evalcontext = gnubg.evalcontext(1, 0, 1, 1, 0.0)  # cubeful, 0 plies, as the server asks
    started = time.perf_counter()
    for board, dice in boards:
        gnubg.findbestmoves(board, cubeinfo, evalcontext, dice)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--positions", type=int, default=300)
    arguments = parser.parse_args()
    corpus = rolls(arguments.positions)
    seconds: dict[str, list[float]] = {"api": [], "gnubg": []}
    with (
        running_server(evaluators=1) as server,
        grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel,
    ):
        stub = analysis_service_pb2_grpc.AnalysisServiceStub(channel)
        api_seconds(stub, corpus[:20])  # the evaluator process started and its nets loaded
        for round_number in range(arguments.rounds):
            sides = ["api", "gnubg"] if round_number % 2 == 0 else ["gnubg", "api"]
            for side in sides:
                took = api_seconds(stub, corpus) if side == "api" else gnubg_seconds(corpus)
                seconds[side].append(took)
    count = len(corpus)
    for side, times in seconds.items():
        print(f"{side:6} {count / min(times):8.0f} .. {count / max(times):8.0f} rankings a second")
    ratios = [gnubg_time / api_time for api_time, gnubg_time in zip(seconds["api"], seconds["gnubg"])]
    print(
        f"api against gnubg: {min(seconds['gnubg']) / min(seconds['api']):.2f}x fastest rounds,"
        f" {min(ratios):.2f}-{max(ratios):.2f}x round by round"
    )


if __name__ == "__main__":
    main()
