"""RulesService end to end: a real server on a loopback port, called through the generated stubs.

Every answer is checked against the engine, and every malformed request must fail with
INVALID_ARGUMENT and the right ErrorInfo reason in domain "tavli", never INTERNAL.
"""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

from tavli.engine import BACKGAMMON, LONG_NARDI, Position
from tavli.v1 import board_pb2, rules_service_pb2 as rules_pb2, rules_service_pb2_grpc
from tests.server_play import RPC_TIMEOUT, error_info, running_server

BG = board_pb2.VARIANT_BACKGAMMON
LN = board_pb2.VARIANT_LONG_NARDI
BG_START = "4HPwATDgc/ABMA"
BG_START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
LN_START = LONG_NARDI.start_position().position_id()
LN_START_XGID = "XGID=-o----------------------O-:0:0:1:00:0:0:0:0:10"


@pytest.fixture(scope="module")
def rules() -> Iterator[rules_service_pb2_grpc.RulesServiceStub]:
    with running_server() as server, grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        yield rules_service_pb2_grpc.RulesServiceStub(channel)


def by_id(position_id: str) -> board_pb2.Position:
    return board_pb2.Position(position_id=position_id)


def by_board(
    player: dict[int, int], opponent: dict[int, int], *, player_bar: int = 0, opponent_bar: int = 0
) -> board_pb2.Position:
    """A board-form position from ``{point: count}`` maps, points 1-24."""
    return board_pb2.Position(
        board=board_pb2.Board(
            player_points=[player.get(point, 0) for point in range(1, 25)],
            player_bar=player_bar,
            opponent_points=[opponent.get(point, 0) for point in range(1, 25)],
            opponent_bar=opponent_bar,
        )
    )


START_POINTS = {6: 5, 8: 3, 13: 5, 24: 2}


def refused(call: object, request: object) -> tuple[grpc.StatusCode, str, str, str]:
    """Call, expecting an error; returns (code, reason, domain, message)."""
    with pytest.raises(grpc.RpcError) as failure:
        call(request, timeout=RPC_TIMEOUT)  # type: ignore[operator]
    code, reason, domain = error_info(failure.value)
    return code, reason, domain, failure.value.details()  # type: ignore[attr-defined]


# --- ListLegalPlays -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "position",
    [by_id(BG_START), board_pb2.Position(xgid=BG_START_XGID), by_board(START_POINTS, START_POINTS)],
    ids=["position_id", "xgid", "board"],
)
def test_every_form_of_the_backgammon_start_gives_the_engines_plays(rules, position) -> None:
    response = rules.ListLegalPlays(
        rules_pb2.ListLegalPlaysRequest(variant=BG, position=position, dice=[3, 1]), timeout=RPC_TIMEOUT
    )
    expected = BACKGAMMON.legal_plays(Position.from_id(BG_START), (3, 1))
    assert sorted(play.position_id for play in response.plays) == sorted(
        play.position.position_id() for play in expected
    )
    assert len(response.plays) == 16
    assert response.dice_used == 2
    assert "8/5 6/5" in {play.notation for play in response.plays}


def test_long_nardi_start_with_six_six_may_take_two_from_the_head(rules) -> None:
    response = rules.ListLegalPlays(
        rules_pb2.ListLegalPlaysRequest(variant=LN, position=by_id(LN_START), dice=[6, 6]),
        timeout=RPC_TIMEOUT,
    )
    assert [play.notation for play in response.plays] == ["24/18(2)"]
    assert response.dice_used == 2  # the other two sixes are blocked by the opponent's head


@pytest.mark.parametrize(
    "position",
    [by_id(LN_START), board_pb2.Position(xgid=LN_START_XGID), by_board({24: 15}, {24: 15})],
    ids=["position_id", "xgid", "board"],
)
def test_long_nardi_plays_match_the_engine(rules, position) -> None:
    response = rules.ListLegalPlays(
        rules_pb2.ListLegalPlaysRequest(variant=LN, position=position, dice=[5, 3]), timeout=RPC_TIMEOUT
    )
    expected = LONG_NARDI.legal_plays(LONG_NARDI.start_position(), (5, 3))
    assert sorted(play.notation for play in response.plays) == sorted(play.notation() for play in expected)
    assert all(not play.hits for play in response.plays)


def test_a_roll_that_cannot_be_played_lists_one_empty_play(rules) -> None:
    # The player's last two checkers are on the bar; the opponent holds its whole home board.
    closed = {point: 2 for point in range(1, 7)} | {13: 3}
    response = rules.ListLegalPlays(
        rules_pb2.ListLegalPlaysRequest(
            variant=BG, position=by_board({6: 13}, closed, player_bar=2), dice=[4, 2]
        ),
        timeout=RPC_TIMEOUT,
    )
    assert len(response.plays) == 1
    assert response.plays[0].notation == ""
    assert response.dice_used == 0


# --- ValidatePlay and BatchValidatePlays ----------------------------------------------------------


@pytest.mark.parametrize("notation", ["8/5 6/5", "6/5 8/5", "  8/5   6/5 "])
def test_a_legal_play_is_legal_however_it_is_written(rules, notation) -> None:
    response = rules.ValidatePlay(
        rules_pb2.ValidatePlayRequest(variant=BG, position=by_id(BG_START), dice=[3, 1], notation=notation),
        timeout=RPC_TIMEOUT,
    )
    assert response.legal
    assert response.play.notation == "8/5 6/5"
    assert response.reason == ""


def test_a_legal_play_given_as_steps(rules) -> None:
    steps = board_pb2.PlaySteps(
        steps=[board_pb2.Step(from_point=8, to_point=5), board_pb2.Step(from_point=6, to_point=5)]
    )
    response = rules.ValidatePlay(
        rules_pb2.ValidatePlayRequest(variant=BG, position=by_id(BG_START), dice=[3, 1], steps=steps),
        timeout=RPC_TIMEOUT,
    )
    assert response.legal
    assert response.play.notation == "8/5 6/5"
    assert [(step.from_point, step.to_point, step.die) for step in response.play.steps] == [
        (8, 5, 3),
        (6, 5, 1),
    ]


def test_steps_from_the_bar_and_bearing_off_are_read(rules) -> None:
    # From the bar (25) into the opponent's home board, then bearing off (0) is not possible with
    # a checker behind; the bar entry alone is checked here, and bearing off in a race below.
    entering = board_pb2.PlaySteps(
        steps=[board_pb2.Step(from_point=25, to_point=22), board_pb2.Step(from_point=22, to_point=21)]
    )
    response = rules.ValidatePlay(
        rules_pb2.ValidatePlayRequest(
            variant=BG, position=by_board({6: 14}, {6: 15}, player_bar=1), dice=[3, 1], steps=entering
        ),
        timeout=RPC_TIMEOUT,
    )
    assert response.legal, response.reason
    bearing_off = board_pb2.PlaySteps(
        steps=[board_pb2.Step(from_point=3, to_point=0), board_pb2.Step(from_point=1, to_point=0)]
    )
    response = rules.ValidatePlay(
        rules_pb2.ValidatePlayRequest(
            variant=BG, position=by_board({3: 1, 1: 1}, {6: 15}), dice=[3, 1], steps=bearing_off
        ),
        timeout=RPC_TIMEOUT,
    )
    assert response.legal, response.reason
    assert response.play.notation == "3/off 1/off"


@pytest.mark.parametrize(
    ("dice", "notation", "words"),
    [
        ((5, 2), "24/19 13/11", "your 19-point is blocked"),
        ((3, 1), "13/10", "you must play both dice"),
        ((3, 1), "25/22 6/5", "you have no checker on the bar"),
        ((3, 1), "", "you must play both dice"),
    ],
)
def test_an_illegal_play_is_an_answer_with_the_reason_in_words(rules, dice, notation, words) -> None:
    response = rules.ValidatePlay(
        rules_pb2.ValidatePlayRequest(
            variant=BG, position=by_id(BG_START), dice=list(dice), notation=notation
        ),
        timeout=RPC_TIMEOUT,
    )
    assert not response.legal
    assert words in response.reason
    assert response.error == ""
    assert not response.HasField("play")


def test_a_long_nardi_play_taking_two_from_the_head_is_illegal(rules) -> None:
    response = rules.ValidatePlay(
        rules_pb2.ValidatePlayRequest(
            variant=LN, position=by_id(LN_START), dice=[5, 3], notation="24/19 24/21"
        ),
        timeout=RPC_TIMEOUT,
    )
    assert not response.legal
    assert response.reason


def test_a_batch_answers_each_item_in_its_place_and_malformed_items_do_not_stop_it(rules) -> None:
    items = [
        rules_pb2.ValidatePlayRequest(variant=BG, position=by_id(BG_START), dice=[3, 1], notation="8/5 6/5"),
        rules_pb2.ValidatePlayRequest(
            variant=BG, position=by_id(BG_START), dice=[5, 2], notation="24/19 13/11"
        ),
        rules_pb2.ValidatePlayRequest(
            variant=BG, position=by_id("not-an-id"), dice=[3, 1], notation="8/5 6/5"
        ),
        rules_pb2.ValidatePlayRequest(position=by_id(BG_START), dice=[3, 1], notation="8/5 6/5"),
        rules_pb2.ValidatePlayRequest(
            variant=BG, position=by_id(BG_START), dice=[3, 1], notation="eight to five"
        ),
        rules_pb2.ValidatePlayRequest(variant=BG, position=by_id(BG_START), dice=[3, 9], notation="8/5 6/5"),
        rules_pb2.ValidatePlayRequest(variant=LN, position=by_id(LN_START), dice=[6, 6], notation="24/18(2)"),
        rules_pb2.ValidatePlayRequest(variant=BG, position=by_id(BG_START), dice=[6, 4], notation="24/14"),
    ]
    response = rules.BatchValidatePlays(
        rules_pb2.BatchValidatePlaysRequest(requests=items), timeout=RPC_TIMEOUT
    )
    answers = list(response.responses)
    assert len(answers) == len(items)
    assert [(answer.legal, bool(answer.reason), bool(answer.error)) for answer in answers] == [
        (True, False, False),
        (False, True, False),
        (False, False, True),
        (False, False, True),
        (False, False, True),
        (False, False, True),
        (True, False, False),
        (True, False, False),
    ]
    assert answers[0].play.notation == "8/5 6/5"
    assert "blocked" in answers[1].reason
    assert "not-an-id" in answers[2].error
    assert "variant" in answers[3].error
    assert "eight" in answers[4].error
    assert "9" in answers[5].error
    assert answers[6].play.notation == "24/18(2)"
    assert answers[7].play.notation == "24/14"


def test_an_empty_batch_gets_an_empty_answer(rules) -> None:
    response = rules.BatchValidatePlays(rules_pb2.BatchValidatePlaysRequest(), timeout=RPC_TIMEOUT)
    assert list(response.responses) == []


# --- ApplyPlay ------------------------------------------------------------------------------------


def test_apply_play_returns_the_next_position_from_the_opponents_side(rules) -> None:
    response = rules.ApplyPlay(
        rules_pb2.ApplyPlayRequest(variant=BG, position=by_id(BG_START), dice=[3, 1], notation="6/5 8/5"),
        timeout=RPC_TIMEOUT,
    )
    assert response.play.notation == "8/5 6/5"
    after = Position.from_id(response.play.position_id)
    assert response.next_position_id == after.swapped().position_id()
    assert Position.from_id(response.next_position_id).opponent[5] == 2  # the new point, seen from across
    assert response.result == board_pb2.GAME_RESULT_UNSPECIFIED


@pytest.mark.parametrize(
    ("opponent", "opponent_bar", "result"),
    [
        ({6: 14}, 0, board_pb2.GAME_RESULT_SINGLE),
        ({6: 15}, 0, board_pb2.GAME_RESULT_GAMMON),
        ({6: 14}, 1, board_pb2.GAME_RESULT_BACKGAMMON),
        ({20: 1, 6: 14}, 0, board_pb2.GAME_RESULT_BACKGAMMON),
    ],
    ids=["single", "gammon", "backgammon-bar", "backgammon-home"],
)
def test_apply_play_says_how_the_game_was_won_when_the_play_ends_it(
    rules, opponent, opponent_bar, result
) -> None:
    position = by_board({1: 1}, opponent, opponent_bar=opponent_bar)
    response = rules.ApplyPlay(
        rules_pb2.ApplyPlayRequest(variant=BG, position=position, dice=[2, 1], notation="1/off"),
        timeout=RPC_TIMEOUT,
    )
    assert response.result == result
    assert Position.from_id(response.next_position_id).opponent[0] == 15


def test_apply_play_ends_a_long_nardi_game_with_a_mars(rules) -> None:
    response = rules.ApplyPlay(
        rules_pb2.ApplyPlayRequest(
            variant=LN, position=by_board({1: 1}, {24: 15}), dice=[2, 1], notation="1/off"
        ),
        timeout=RPC_TIMEOUT,
    )
    assert response.result == board_pb2.GAME_RESULT_MARS


def test_apply_play_refuses_an_illegal_play_with_failed_precondition(rules) -> None:
    code, reason, domain, message = refused(
        rules.ApplyPlay,
        rules_pb2.ApplyPlayRequest(variant=BG, position=by_id(BG_START), dice=[5, 2], notation="24/19 13/11"),
    )
    assert (code, reason, domain) == (grpc.StatusCode.FAILED_PRECONDITION, "ILLEGAL_PLAY", "tavli")
    assert "your 19-point is blocked" in message


@pytest.mark.parametrize(
    ("variant", "player", "opponent", "who"),
    [
        (BG, {}, {6: 2}, "you have"),  # the side on roll bore off its last checker: nothing to play
        (BG, {6: 2}, {}, "your opponent has"),
        (LN, {3: 1}, {}, "your opponent has"),
    ],
)
def test_plays_in_a_finished_game_are_refused_with_game_over(rules, variant, player, opponent, who) -> None:
    position = by_board(player, opponent)
    calls = [
        (
            rules.ListLegalPlays,
            rules_pb2.ListLegalPlaysRequest(variant=variant, position=position, dice=[3, 1]),
        ),
        (rules.ValidatePlay, rules_pb2.ValidatePlayRequest(variant=variant, position=position, dice=[3, 1])),
        (rules.ApplyPlay, rules_pb2.ApplyPlayRequest(variant=variant, position=position, dice=[3, 1])),
    ]
    for call, request in calls:
        code, reason, domain, message = refused(call, request)
        assert (code, reason, domain) == (grpc.StatusCode.FAILED_PRECONDITION, "GAME_OVER", "tavli")
        assert message == f"the game is over: {who} borne off all 15 checkers"
    answers = rules.BatchValidatePlays(
        rules_pb2.BatchValidatePlaysRequest(requests=[calls[1][1]]), timeout=RPC_TIMEOUT
    ).responses
    assert [(answer.legal, answer.error) for answer in answers] == [
        (False, f"the game is over: {who} borne off all 15 checkers")
    ]
    scored = rules.ScorePosition(
        rules_pb2.ScorePositionRequest(variant=variant, position=position), timeout=RPC_TIMEOUT
    )
    assert scored.points > 0


# --- ScorePosition and ConvertPosition ------------------------------------------------------------


def test_score_position_of_a_game_in_play(rules) -> None:
    response = rules.ScorePosition(
        rules_pb2.ScorePositionRequest(variant=BG, position=by_id(BG_START)), timeout=RPC_TIMEOUT
    )
    assert response.result == board_pb2.GAME_RESULT_UNSPECIFIED
    assert response.points == 0
    assert (response.player_pips, response.opponent_pips) == (167, 167)
    response = rules.ScorePosition(
        rules_pb2.ScorePositionRequest(variant=LN, position=by_id(LN_START)), timeout=RPC_TIMEOUT
    )
    assert (response.player_pips, response.opponent_pips) == (360, 360)


@pytest.mark.parametrize(
    ("variant", "player", "opponent", "result", "player_won", "points"),
    [
        (BG, {}, {6: 15}, board_pb2.GAME_RESULT_GAMMON, True, 2),
        (BG, {}, {6: 14}, board_pb2.GAME_RESULT_SINGLE, True, 1),
        (BG, {20: 1, 6: 14}, {}, board_pb2.GAME_RESULT_BACKGAMMON, False, 3),
        (LN, {}, {24: 15}, board_pb2.GAME_RESULT_MARS, True, 2),
        (LN, {3: 2}, {}, board_pb2.GAME_RESULT_SINGLE, False, 1),
    ],
)
def test_score_position_of_a_finished_game(
    rules, variant, player, opponent, result, player_won, points
) -> None:
    response = rules.ScorePosition(
        rules_pb2.ScorePositionRequest(variant=variant, position=by_board(player, opponent)),
        timeout=RPC_TIMEOUT,
    )
    assert (response.result, response.player_won, response.points) == (result, player_won, points)


@pytest.mark.parametrize(
    ("variant", "position"),
    [
        (BG, by_id(BG_START)),
        (BG, board_pb2.Position(xgid=BG_START_XGID)),
        (BG, by_board({6: 4, 8: 2, 13: 4, 24: 2}, {2: 2, 5: 5}, player_bar=3, opponent_bar=1)),
        (LN, by_id(LN_START)),
        (LN, by_board({24: 10, 13: 3, 2: 2}, {24: 12, 5: 3})),
    ],
    ids=["bg-id", "bg-xgid", "bg-board-with-bar", "ln-id", "ln-board"],
)
def test_convert_position_round_trips_through_every_form(rules, variant, position) -> None:
    first = rules.ConvertPosition(
        rules_pb2.ConvertPositionRequest(variant=variant, position=position), timeout=RPC_TIMEOUT
    )
    assert first.xgid.startswith("XGID=")
    for form in (
        board_pb2.Position(position_id=first.position_id),
        board_pb2.Position(xgid=first.xgid),
        board_pb2.Position(board=first.board),
    ):
        again = rules.ConvertPosition(
            rules_pb2.ConvertPositionRequest(variant=variant, position=form), timeout=RPC_TIMEOUT
        )
        assert (again.position_id, again.xgid, again.board) == (first.position_id, first.xgid, first.board)


def test_a_long_nardi_position_an_xgid_cannot_hold_converts_without_one(rules) -> None:
    # The player's 1-point and the opponent's 24-point are different points in long nardi, but the
    # same square of an XGID, which is laid out as in backgammon.
    position = by_board({24: 10, 13: 4, 1: 1}, {24: 12, 5: 3})
    response = rules.ConvertPosition(
        rules_pb2.ConvertPositionRequest(variant=LN, position=position), timeout=RPC_TIMEOUT
    )
    assert response.xgid == ""
    assert response.board == position.board
    again = rules.ConvertPosition(
        rules_pb2.ConvertPositionRequest(variant=LN, position=by_id(response.position_id)),
        timeout=RPC_TIMEOUT,
    )
    assert again.board == position.board


def test_convert_position_of_the_start(rules) -> None:
    response = rules.ConvertPosition(
        rules_pb2.ConvertPositionRequest(variant=BG, position=by_id(BG_START)), timeout=RPC_TIMEOUT
    )
    assert response.xgid == BG_START_XGID
    assert list(response.board.player_points) == [START_POINTS.get(point, 0) for point in range(1, 25)]
    assert list(response.board.opponent_points) == list(response.board.player_points)


# --- malformed input ------------------------------------------------------------------------------

SIXTEEN = by_board({6: 6, 8: 3, 13: 5, 24: 2}, START_POINTS)
SHARED_POINT = by_board({6: 2, 13: 13}, {19: 2, 13: 13})  # the player's 6-point is the opponent's 19
MALFORMED: list[tuple[str, dict[str, object], str]] = [
    ("no variant", {"variant": board_pb2.VARIANT_UNSPECIFIED}, "INVALID_ARGUMENT"),
    ("unknown variant", {"variant": 9}, "UNKNOWN_ENUM_VALUE"),
    ("no position", {"position": board_pb2.Position()}, "INVALID_ARGUMENT"),
    ("short position id", {"position": by_id("4HPwATDgc/ABM")}, "INVALID_POSITION"),
    ("garbled position id", {"position": by_id("not a pos ID!!")}, "INVALID_POSITION"),
    ("position id of 72 checkers", {"position": by_id("////////////AA")}, "INVALID_POSITION"),
    ("both sides borne off", {"position": by_id("AAAAAAAAAAAAAA")}, "INVALID_POSITION"),
    ("bad xgid", {"position": board_pb2.Position(xgid="XGID=nonsense")}, "INVALID_POSITION"),
    ("16 checkers", {"position": SIXTEEN}, "INVALID_POSITION"),
    ("both sides on a point", {"position": SHARED_POINT}, "INVALID_POSITION"),
    (
        "23 points",
        {
            "position": board_pb2.Position(
                board=board_pb2.Board(player_points=[0] * 23, opponent_points=[0] * 24)
            )
        },
        "INVALID_ARGUMENT",
    ),
    ("die 0", {"dice": [0, 3]}, "INVALID_DICE"),
    ("die 7", {"dice": [7, 3]}, "INVALID_DICE"),
    ("three dice", {"dice": [3, 1, 2]}, "INVALID_DICE"),
    ("one die", {"dice": [3]}, "INVALID_DICE"),
    ("no dice", {"dice": []}, "INVALID_DICE"),
]


def _request(message_type: type, fields: dict[str, object], **defaults: object) -> object:
    values = {"variant": BG, "position": by_id(BG_START), **defaults, **fields}
    return message_type(
        **{key: value for key, value in values.items() if key in message_type.DESCRIPTOR.fields_by_name}
    )


@pytest.mark.parametrize(("what", "fields", "reason"), MALFORMED, ids=[case[0] for case in MALFORMED])
def test_malformed_input_is_invalid_argument_with_its_reason(rules, what, fields, reason) -> None:
    calls = [
        (rules.ListLegalPlays, _request(rules_pb2.ListLegalPlaysRequest, fields, dice=[3, 1])),
        (
            rules.ValidatePlay,
            _request(rules_pb2.ValidatePlayRequest, fields, dice=[3, 1], notation="8/5 6/5"),
        ),
        (rules.ApplyPlay, _request(rules_pb2.ApplyPlayRequest, fields, dice=[3, 1], notation="8/5 6/5")),
    ]
    if "dice" not in fields:
        calls.append((rules.ScorePosition, _request(rules_pb2.ScorePositionRequest, fields)))
        calls.append((rules.ConvertPosition, _request(rules_pb2.ConvertPositionRequest, fields)))
    for call, request in calls:
        code, got_reason, domain, message = refused(call, request)
        assert (code, got_reason, domain) == (grpc.StatusCode.INVALID_ARGUMENT, reason, "tavli"), (
            call,
            message,
        )
        assert message and "internal" not in message


@pytest.mark.parametrize("notation", ["eight to five", "13-7", "13/", "/7", "26/20", "13/7/", "8/5 6/5 junk"])
def test_unreadable_notation_is_invalid_play(rules, notation) -> None:
    for call, request in (
        (
            rules.ValidatePlay,
            rules_pb2.ValidatePlayRequest(
                variant=BG, position=by_id(BG_START), dice=[3, 1], notation=notation
            ),
        ),
        (
            rules.ApplyPlay,
            rules_pb2.ApplyPlayRequest(variant=BG, position=by_id(BG_START), dice=[3, 1], notation=notation),
        ),
    ):
        code, reason, domain, message = refused(call, request)
        assert (code, reason, domain) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_PLAY", "tavli"), message


def test_steps_naming_points_that_do_not_exist_are_invalid_play(rules) -> None:
    steps = board_pb2.PlaySteps(steps=[board_pb2.Step(from_point=30, to_point=27)])
    code, reason, domain, _ = refused(
        rules.ValidatePlay,
        rules_pb2.ValidatePlayRequest(variant=BG, position=by_id(BG_START), dice=[3, 1], steps=steps),
    )
    assert (code, reason, domain) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_PLAY", "tavli")


def test_a_huge_input_is_refused_for_its_length_before_it_is_read(rules) -> None:
    # Refused before any parsing work, with a message that names the field and its bound (a
    # message quoting 20 KB of input would overflow the status trailers).
    for call, request in (
        (
            rules.ValidatePlay,
            rules_pb2.ValidatePlayRequest(
                variant=BG, position=by_id(BG_START), dice=[3, 1], notation="8/5 " * 5000
            ),
        ),
        (rules.ConvertPosition, rules_pb2.ConvertPositionRequest(variant=BG, position=by_id("A" * 20_000))),
    ):
        code, reason, domain, message = refused(call, request)
        assert code is grpc.StatusCode.INVALID_ARGUMENT and domain == "tavli"
        assert reason == "FIELD_TOO_LONG"
        assert "at most" in message and len(message) <= 1000
