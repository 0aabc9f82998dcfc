"""AnalysisService end to end: a real server with its evaluator processes, called through the stubs.

GNU Backgammon's judgement is checked against what every backgammon book says of the opening
rolls and the opening cube, against the rules' own legal plays, and against gnubg's command
interface for the same positions; a killed evaluator must cost only its own call.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator

import grpc
import pytest

from tavli.engine import BACKGAMMON, LONG_NARDI, Position
from tavli.server.app import Running
from tavli.v1 import analysis_service_pb2 as pb, analysis_service_pb2_grpc, board_pb2
from tests.server_play import RPC_TIMEOUT, error_info, running_server

BG = board_pb2.VARIANT_BACKGAMMON
START = board_pb2.Position(position_id="4HPwATDgc/ABMA")

BOOK_OPENINGS = {
    (3, 1): "8/5 6/5",
    (4, 2): "8/4 6/4",
    (5, 3): "8/3 6/3",
    (6, 1): "13/7 8/7",
    (6, 5): "24/13",
}


@pytest.fixture(scope="module")
def server() -> Iterator[Running]:
    with running_server(evaluators=1) as running:
        yield running


@pytest.fixture(scope="module")
def analysis(server: Running) -> Iterator[analysis_service_pb2_grpc.AnalysisServiceStub]:
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        yield analysis_service_pb2_grpc.AnalysisServiceStub(channel)


def refused(call: object, request: object) -> tuple[grpc.StatusCode, str, str]:
    """Call, expecting an error; returns (code, reason, message)."""
    with pytest.raises(grpc.RpcError) as failure:
        call(request, timeout=RPC_TIMEOUT)  # type: ignore[operator]
    code, reason, _ = error_info(failure.value)
    return code, reason, failure.value.details()  # type: ignore[attr-defined]


def gnubg_says(xgid: str, command: str, *, plies: int = 0) -> str:
    """What gnubg's own command interface prints for ``command`` in the XGID's position, in a
    process of its own: the reference the service is checked against."""
    script = textwrap.dedent(
        f"""
        import gnubg
        gnubg.command("set threads 1")
        gnubg.command("set output mwc off")
        gnubg.command("set evaluation cubedecision evaluation plies {plies}")
        gnubg.command("set evaluation chequerplay evaluation plies {plies}")
        gnubg.setgnubgid({xgid!r})
        gnubg.command({command!r})
        """
    )
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    return completed.stdout


@pytest.mark.parametrize(("dice", "book_play"), sorted(BOOK_OPENINGS.items()))
def test_the_best_opening_play_is_the_books(
    analysis: analysis_service_pb2_grpc.AnalysisServiceStub, dice: tuple[int, int], book_play: str
) -> None:
    for plies in (0, 2):
        answer = analysis.ListRankedPlays(
            pb.ListRankedPlaysRequest(
                variant=BG, position=START, dice=dice, context=pb.GameContext(plies=plies)
            ),
            timeout=RPC_TIMEOUT,
        )
        best = answer.plays[0]
        assert BACKGAMMON.parse_play(
            Position.from_id(START.position_id), dice, book_play
        ).position.position_id() == (best.play.position_id), f"{dice} at {plies} plies: {best.play.notation}"
        assert best.loss == 0.0


def test_ranked_plays_are_exactly_the_rules_legal_plays(
    analysis: analysis_service_pb2_grpc.AnalysisServiceStub,
) -> None:
    # Bearing off: gnubg cuts its moves' steps at the first checker borne off.
    positions = [
        Position.from_points({1: 2, 2: 3, 3: 3, 4: 3, 5: 2, 6: 2}, {1: 2, 2: 3, 3: 3, 4: 3, 5: 2, 6: 2}),
        Position.from_points({5: 4, 6: 4, 1: 2}, {1: 3, 2: 3}),
        Position.from_id("4HPwATDgc/ABMA"),
        Position.from_points({25: 2, 6: 5, 8: 3, 13: 5}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 5}),
    ]
    for position in positions:
        for dice in ((6, 6), (6, 5), (2, 1), (4, 4), (5, 1)):
            legal = {play.position.position_id() for play in BACKGAMMON.legal_plays(position, dice)}
            answer = analysis.ListRankedPlays(
                pb.ListRankedPlaysRequest(
                    variant=BG, position=board_pb2.Position(position_id=position.position_id()), dice=dice
                ),
                timeout=RPC_TIMEOUT,
            )
            ranked = [ranked.play.position_id for ranked in answer.plays]
            assert sorted(ranked) == sorted(legal), (position.position_id(), dice)
            equities = [ranked.equity for ranked in answer.plays]
            assert equities == sorted(equities, reverse=True)
            assert all(ranked.loss == pytest.approx(equities[0] - ranked.equity) for ranked in answer.plays)


def test_ranked_plays_have_gnubgs_own_equities_in_money_play(
    analysis: analysis_service_pb2_grpc.AnalysisServiceStub,
) -> None:
    answer = analysis.ListRankedPlays(
        pb.ListRankedPlaysRequest(variant=BG, position=START, dice=[3, 1]), timeout=RPC_TIMEOUT
    )
    reference = gnubg_says("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10", "hint")
    best = re.search(r"1\. Cubeful 0-ply\s+8/5 6/5\s+Eq\.:\s+([+-]\d+\.\d+)", reference)
    assert best is not None, reference
    assert answer.plays[0].equity == pytest.approx(float(best.group(1)), abs=0.0005)


@pytest.mark.parametrize(("jacoby", "xgid_rules"), [(False, 0), (True, 1)])
def test_money_play_is_ranked_with_the_jacoby_rule_when_the_game_has_it(
    analysis: analysis_service_pb2_grpc.AnalysisServiceStub, jacoby: bool, xgid_rules: int
) -> None:
    answer = analysis.ListRankedPlays(
        pb.ListRankedPlaysRequest(
            variant=BG, position=START, dice=[3, 1], context=pb.GameContext(jacoby=jacoby)
        ),
        timeout=RPC_TIMEOUT,
    )
    reference = gnubg_says(f"XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:{xgid_rules}:0:10", "hint")
    best = re.search(r"1\. Cubeful 0-ply\s+8/5 6/5\s+Eq\.:\s+([+-]\d+\.\d+)", reference)
    assert best is not None, reference
    assert answer.plays[0].equity == pytest.approx(float(best.group(1)), abs=0.0005)
    evaluation = analysis.EvaluatePosition(
        pb.EvaluatePositionRequest(variant=BG, position=START, context=pb.GameContext(jacoby=jacoby)),
        timeout=RPC_TIMEOUT,
    )
    table = gnubg_says(f"XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:{xgid_rules}:0:10", "eval")
    static = re.search(r"static:((?: +[+-]?\d+\.\d+){7})", table)
    assert static is not None, table
    assert evaluation.cubeful_equity == pytest.approx(float(static.group(1).split()[-1]), abs=0.0005)


def test_the_jacoby_rule_changes_the_money_equity_of_a_gammonish_position(
    analysis: analysis_service_pb2_grpc.AnalysisServiceStub,
) -> None:
    equities = [
        analysis.EvaluatePosition(
            pb.EvaluatePositionRequest(variant=BG, position=START, context=pb.GameContext(jacoby=jacoby)),
            timeout=RPC_TIMEOUT,
        ).cubeful_equity
        for jacoby in (False, True)
    ]
    assert equities[0] != pytest.approx(equities[1], abs=0.001)


def test_a_roll_that_cannot_be_played_ranks_the_one_empty_play(
    analysis: analysis_service_pb2_grpc.AnalysisServiceStub,
) -> None:
    # On the bar against a closed board: 6-6 enters nowhere.
    closed = Position.from_points({25: 1, 6: 5, 8: 4, 13: 5}, {1: 3, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 24: 2})
    answer = analysis.ListRankedPlays(
        pb.ListRankedPlaysRequest(
            variant=BG, position=board_pb2.Position(position_id=closed.position_id()), dice=[6, 6]
        ),
        timeout=RPC_TIMEOUT,
    )
    (only,) = answer.plays
    assert only.play.notation == "" and only.loss == 0.0
    assert only.play.position_id == closed.position_id()
    opponent = analysis.EvaluatePosition(
        pb.EvaluatePositionRequest(
            variant=BG, position=board_pb2.Position(position_id=closed.swapped().position_id())
        ),
        timeout=RPC_TIMEOUT,
    )
    assert only.equity == -opponent.cubeful_equity < 0.0  # the opponent's turn, with the roll


def test_the_opening_position_is_no_double_take(
    analysis: analysis_service_pb2_grpc.AnalysisServiceStub,
) -> None:
    answer = analysis.GetCubeDecision(
        pb.GetCubeDecisionRequest(variant=BG, position=START, context=pb.GameContext(plies=2)),
        timeout=RPC_TIMEOUT,
    )
    assert answer.action == pb.CUBE_ACTION_NO_DOUBLE
    assert answer.response == pb.CUBE_RESPONSE_TAKE
    assert answer.double_pass_equity == 1.0
    assert answer.double_take_equity < answer.no_double_equity < answer.double_pass_equity


def test_a_race_eight_percent_ahead_is_double_take(
    analysis: analysis_service_pb2_grpc.AnalysisServiceStub,
) -> None:
    # No contact, 72 pips against 78 with the roll: the race rules of thumb (and gnubg) double and take.
    position = Position.from_points(
        {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 8: 1, 9: 1}, {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 11: 1, 12: 1}
    )
    request = pb.GetCubeDecisionRequest(
        variant=BG, position=board_pb2.Position(position_id=position.position_id())
    )
    request.context.plies = 2
    answer = analysis.GetCubeDecision(request, timeout=RPC_TIMEOUT)
    assert (answer.action, answer.response) == (pb.CUBE_ACTION_DOUBLE_TAKE, pb.CUBE_RESPONSE_TAKE)
    assert answer.no_double_equity < answer.double_take_equity < answer.double_pass_equity

    request.context.plies = 0
    answer = analysis.GetCubeDecision(request, timeout=RPC_TIMEOUT)
    reference = gnubg_says(_xgid(position), "hint")
    assert re.search(r"No double +" + re.escape(f"{answer.no_double_equity:+.3f}"), reference)
    assert re.search(r"Double, take +" + re.escape(f"{answer.double_take_equity:+.3f}"), reference)


@pytest.mark.parametrize(
    ("context", "xgid_tail"),
    [
        (pb.GameContext(), "0:0:0:0"),
        (pb.GameContext(match_length=7, player_score=3, opponent_score=2), "3:2:0:7"),
        (pb.GameContext(match_length=7, player_score=0, opponent_score=4), "0:4:0:7"),
        (pb.GameContext(match_length=5, player_score=2, opponent_score=4, crawford=True), "2:4:1:5"),
    ],
)
def test_match_scores_and_crawford_change_the_equity_as_gnubg_says(
    analysis: analysis_service_pb2_grpc.AnalysisServiceStub, context: pb.GameContext, xgid_tail: str
) -> None:
    answer = analysis.EvaluatePosition(
        pb.EvaluatePositionRequest(variant=BG, position=START, context=context), timeout=RPC_TIMEOUT
    )
    reference = gnubg_says(f"XGID=-b----E-C---eE---c-e----B-:0:0:1:00:{xgid_tail}:10", "eval")
    static = re.search(r"static:((?: +[+-]?\d+\.\d+){7})", reference)
    assert static is not None
    *_, cubeless, cubeful = (float(number) for number in static.group(1).split())
    assert answer.cubeful_equity == pytest.approx(cubeful, abs=0.0005)
    assert answer.cubeless_equity == pytest.approx(cubeless, abs=0.0005)
    assert answer.outcomes.player_wins + answer.outcomes.opponent_wins == pytest.approx(1.0)


def test_each_ply_is_gnubgs_own_whatever_was_asked_before(
    analysis: analysis_service_pb2_grpc.AnalysisServiceStub,
) -> None:
    crawford = pb.GameContext(match_length=3, player_score=2, opponent_score=1, crawford=True)
    reference = gnubg_says("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:1:1:3:10", "eval", plies=2)
    for plies, row in ((0, "static"), (1, " 1 ply"), (2, " 2 ply"), (1, " 1 ply")):
        crawford.plies = plies
        answer = analysis.EvaluatePosition(
            pb.EvaluatePositionRequest(variant=BG, position=START, context=crawford), timeout=RPC_TIMEOUT
        )
        figures = re.search(rf"^{row}:((?: +[+-]?\d+\.\d+){{7}})", reference, re.MULTILINE)
        assert figures is not None, reference
        assert answer.cubeful_equity == pytest.approx(float(figures.group(1).split()[-1]), abs=0.0005), plies


# Noisy self-play's 3-point match at 0-1, the side on roll 202 pips against 152 and 3-away
# against 2-away, to play 4-2: gnubg's cache once held what a 2-ply look at this roll left (its
# best play at 0 plies -1.646 where a fresh evaluator says -1.607).
AWAY_3_2 = board_pb2.Position(position_id="2LbBEFBSD4KANw")
AWAY_3_2_XGID = "XGID=aaA-AAD-a--Ab---Abbbbb-DB-:0:0:1:42:0:1:0:3:10"


def test_a_ranking_is_the_same_whatever_was_asked_before(
    analysis: analysis_service_pb2_grpc.AnalysisServiceStub,
) -> None:
    def ranked(plies: int) -> list[tuple[str, float]]:
        context = pb.GameContext(match_length=3, player_score=0, opponent_score=1, plies=plies)
        answer = analysis.ListRankedPlays(
            pb.ListRankedPlaysRequest(variant=BG, position=AWAY_3_2, dice=[4, 2], context=context),
            timeout=RPC_TIMEOUT,
        )
        return [(ranked.play.notation, ranked.equity) for ranked in answer.plays]

    deeper = ranked(2)
    first = ranked(0)
    fresh = re.search(r"1\. Cubeful 0-ply +(\S.*?\S) +Eq\.: ([+-]\d\.\d+)", gnubg_says(AWAY_3_2_XGID, "hint"))
    assert fresh is not None
    assert first[0][0] == fresh.group(1) and first[0][1] == pytest.approx(float(fresh.group(2)), abs=0.0005)
    assert ranked(1) != first != deeper  # each looks as deep as asked
    assert ranked(0) == first and ranked(2) == deeper


# A 3-point match at 0-0, the side on roll 50 pips against 90 with its opponent's men still in
# play (gnubg's self-play): it doubles, and its opponent must pass.
DOUBLED_OUT = board_pb2.Position(position_id="m22JBgD7dwRAAA")


@pytest.mark.parametrize("plies", [0, 2])
def test_a_side_that_should_double_its_opponent_out_has_the_equity_of_the_pass(
    analysis: analysis_service_pb2_grpc.AnalysisServiceStub, plies: int
) -> None:
    context = pb.GameContext(match_length=3, plies=plies)
    cube = analysis.GetCubeDecision(
        pb.GetCubeDecisionRequest(variant=BG, position=DOUBLED_OUT, context=context), timeout=RPC_TIMEOUT
    )
    assert (cube.action, cube.response) == (pb.CUBE_ACTION_DOUBLE_PASS, pb.CUBE_RESPONSE_PASS)
    assert cube.no_double_equity < cube.double_pass_equity == 1.0
    evaluation = analysis.EvaluatePosition(
        pb.EvaluatePositionRequest(variant=BG, position=DOUBLED_OUT, context=context), timeout=RPC_TIMEOUT
    )
    assert evaluation.cubeful_equity == 1.0  # not the equity of playing on without doubling
    owned = pb.GameContext(match_length=3, plies=plies, cube_value=2, cube_owner=pb.CUBE_OWNER_OPPONENT)
    without_the_cube = analysis.EvaluatePosition(
        pb.EvaluatePositionRequest(variant=BG, position=DOUBLED_OUT, context=owned), timeout=RPC_TIMEOUT
    )
    assert 0 < without_the_cube.cubeful_equity < 1.0


@pytest.mark.parametrize(
    "context",
    [
        pb.GameContext(match_length=1),
        pb.GameContext(match_length=3, player_score=2, opponent_score=2),
    ],
)
def test_a_dead_cube_has_no_cube_decision(
    analysis: analysis_service_pb2_grpc.AnalysisServiceStub, context: pb.GameContext
) -> None:
    code, reason, message = refused(
        analysis.GetCubeDecision, pb.GetCubeDecisionRequest(variant=BG, position=START, context=context)
    )
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "CANNOT_DOUBLE")
    assert "cannot double" in message


def test_match_play_and_money_differ(analysis: analysis_service_pb2_grpc.AnalysisServiceStub) -> None:
    equities = {
        analysis.EvaluatePosition(
            pb.EvaluatePositionRequest(variant=BG, position=START, context=context), timeout=RPC_TIMEOUT
        ).cubeful_equity
        for context in (
            pb.GameContext(),
            pb.GameContext(match_length=7, player_score=3, opponent_score=2),
            pb.GameContext(match_length=5, player_score=2, opponent_score=4, crawford=True),
        )
    }
    assert len(equities) == 3


def test_long_nardi_has_no_evaluator(analysis: analysis_service_pb2_grpc.AnalysisServiceStub) -> None:
    position = board_pb2.Position(position_id=LONG_NARDI.start_position().position_id())
    for call, request in (
        (
            analysis.EvaluatePosition,
            pb.EvaluatePositionRequest(variant=board_pb2.VARIANT_LONG_NARDI, position=position),
        ),
        (
            analysis.GetCubeDecision,
            pb.GetCubeDecisionRequest(variant=board_pb2.VARIANT_LONG_NARDI, position=position),
        ),
        (
            analysis.ListRankedPlays,
            pb.ListRankedPlaysRequest(variant=board_pb2.VARIANT_LONG_NARDI, position=position, dice=[3, 1]),
        ),
    ):
        code, reason, message = refused(call, request)
        assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "NO_EVALUATOR")
        assert "long nardi" in message


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        (pb.EvaluatePositionRequest(variant=BG, position=START, context=pb.GameContext(plies=3)), "plies"),
        (
            pb.EvaluatePositionRequest(variant=BG, position=START, context=pb.GameContext(cube_value=3)),
            "power of 2",
        ),
        (
            pb.EvaluatePositionRequest(variant=BG, position=START, context=pb.GameContext(cube_value=2)),
            "who owns it",
        ),
        (
            pb.EvaluatePositionRequest(variant=BG, position=START, context=pb.GameContext(player_score=2)),
            "money play",
        ),
        (
            pb.EvaluatePositionRequest(
                variant=BG, position=START, context=pb.GameContext(match_length=5, player_score=5)
            ),
            "already won",
        ),
        (
            pb.EvaluatePositionRequest(
                variant=BG, position=START, context=pb.GameContext(match_length=5, crawford=True)
            ),
            "Crawford",
        ),
        (
            pb.EvaluatePositionRequest(
                variant=BG, position=START, context=pb.GameContext(match_length=5, jacoby=True)
            ),
            "Jacoby",
        ),
        (
            pb.EvaluatePositionRequest(variant=BG, position=board_pb2.Position(position_id="nonsense")),
            "position",
        ),
        (pb.EvaluatePositionRequest(position=START), "variant"),
        (pb.ListRankedPlaysRequest(variant=BG, position=START, dice=[7, 1]), "1 to 6"),
        (pb.ListRankedPlaysRequest(variant=BG, position=START), "dice"),
        (
            pb.GetCubeDecisionRequest(
                variant=BG,
                position=START,
                context=pb.GameContext(cube_value=2, cube_owner=pb.CUBE_OWNER_OPPONENT),
            ),
            "cannot double",
        ),
    ],
)
def test_bad_input_is_refused_in_words(
    analysis: analysis_service_pb2_grpc.AnalysisServiceStub, request_: object, words: str
) -> None:
    call = {
        pb.EvaluatePositionRequest: analysis.EvaluatePosition,
        pb.ListRankedPlaysRequest: analysis.ListRankedPlays,
        pb.GetCubeDecisionRequest: analysis.GetCubeDecision,
    }[type(request_)]
    code, _, message = refused(call, request_)
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert words.lower() in message.lower()


def test_a_killed_evaluator_fails_its_call_unavailable_and_the_server_lives(
    server: Running, analysis: analysis_service_pb2_grpc.AnalysisServiceStub
) -> None:
    analysis.EvaluatePosition(pb.EvaluatePositionRequest(variant=BG, position=START), timeout=RPC_TIMEOUT)
    (evaluator,) = server.evaluators.process_ids
    slow = pb.ListRankedPlaysRequest(variant=BG, position=START, dice=[6, 6], context=pb.GameContext(plies=2))
    failures: list[grpc.RpcError] = []

    def ask_slowly() -> None:
        with pytest.raises(grpc.RpcError) as failure:
            for _ in range(200):  # until the kill lands in one of them
                analysis.ListRankedPlays(slow, timeout=RPC_TIMEOUT)
        failures.append(failure.value)

    caller = threading.Thread(target=ask_slowly)
    caller.start()
    os.kill(evaluator, signal.SIGKILL)
    caller.join()
    code, reason, _ = error_info(failures[0])
    assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "EVALUATOR_UNAVAILABLE")
    assert "ask again" in failures[0].details()
    answer = analysis.ListRankedPlays(
        pb.ListRankedPlaysRequest(variant=BG, position=START, dice=[3, 1]), timeout=RPC_TIMEOUT
    )
    assert answer.plays[0].play.notation == "8/5 6/5"
    assert server.evaluators.process_ids != [evaluator]


def test_an_evaluator_killed_while_idle_fails_only_the_next_call(
    server: Running, analysis: analysis_service_pb2_grpc.AnalysisServiceStub
) -> None:
    analysis.EvaluatePosition(pb.EvaluatePositionRequest(variant=BG, position=START), timeout=RPC_TIMEOUT)
    (evaluator,) = server.evaluators.process_ids
    os.kill(evaluator, signal.SIGKILL)
    request = pb.ListRankedPlaysRequest(variant=BG, position=START, dice=[6, 1])
    code, reason, message = refused(analysis.ListRankedPlays, request)
    assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "EVALUATOR_UNAVAILABLE")
    assert "ask again" in message
    answer = analysis.ListRankedPlays(request, timeout=RPC_TIMEOUT)
    assert answer.plays[0].play.notation == "13/7 8/7"
    assert server.evaluators.process_ids != [evaluator]


def test_a_call_whose_client_goes_away_frees_its_evaluator(
    server: Running, analysis: analysis_service_pb2_grpc.AnalysisServiceStub
) -> None:
    analysis.EvaluatePosition(pb.EvaluatePositionRequest(variant=BG, position=START), timeout=RPC_TIMEOUT)
    before = server.evaluators.process_ids
    slow = pb.ListRankedPlaysRequest(variant=BG, position=START, dice=[6, 6], context=pb.GameContext(plies=2))
    for _ in range(200):  # until a cancellation reaches the server while its evaluator works
        call = analysis.ListRankedPlays.future(slow, timeout=RPC_TIMEOUT)
        call.cancel()
        answer = analysis.ListRankedPlays(
            pb.ListRankedPlaysRequest(variant=BG, position=START, dice=[4, 2]), timeout=RPC_TIMEOUT
        )
        assert answer.plays[0].play.notation == "8/4 6/4"  # the pool answers the next call either way
        if server.evaluators.process_ids != before:
            break
    after = server.evaluators.process_ids
    assert after != before, "no cancelled call ever stopped its evaluator"
    assert len(after) == len(before) == 1


def _xgid(position: Position) -> str:
    from tavli.engine.xgid import Xgid, format_xgid

    return format_xgid(Xgid(position=position, player_on_roll=1))


def test_a_move_cut_at_its_bear_off_is_matched_with_the_play_it_begins(
    analysis: analysis_service_pb2_grpc.AnalysisServiceStub,
) -> None:
    # gnubg's moves 3/off 1/off and 3/2 2/1 1/off read back as 3/off and 3/2 2/1 1/off: the first,
    # cut at its bear-off, leads where the play 3/off (3/2 2/1 1/off) goes, yet is 3/off 1/off.
    request = pb.ListRankedPlaysRequest(
        variant=BG, position=board_pb2.Position(position_id="fwkIwQZ/CwAAAA"), dice=[5, 1]
    )
    answer = analysis.ListRankedPlays(request, timeout=RPC_TIMEOUT)
    assert sorted(ranked.play.notation for ranked in answer.plays) == ["3/off", "3/off 1/off", "3/off 2/1"]
    assert answer.plays[0].play.notation == "3/off 1/off"  # two checkers off beat one
    assert answer.plays[0].loss == 0 and all(ranked.loss > 0 for ranked in answer.plays[1:])
