"""Backgammon's options on the API: ``start`` (nackgammon, hypergammon), ``home_hit_and_run`` and
``match_openings`` ``ALTERNATE``, in the rule set of a game and in the stateless rule queries,
converted both ways, and refused in words where they do not apply."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

from tavli.clients.client import TavliClient
from tavli.engine import Position
from tavli.engine.rules import RuleSet
from tavli.server.convert import rules_message, rules_of
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2, rules_service_pb2 as rules_pb2
from tests.server_play import RPC_TIMEOUT, connected, error_info, running_server

BG = board_pb2.VARIANT_BACKGAMMON
FORBIDDEN = board_pb2.HOME_HIT_AND_RUN_FORBIDDEN


@pytest.fixture(scope="module")
def client() -> Iterator[TavliClient]:
    with running_server() as server, connected(server.port) as client:
        yield client


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(start="NACKGAMMON", match_length=7),
        RuleSet(start="HYPERGAMMON_3"),
        RuleSet(home_hit_and_run="FORBIDDEN", cube=False, backgammons="AS_GAMMON", match_length=5),
        RuleSet(match_length=5, match_openings="ALTERNATE"),
    ],
)
def test_the_options_convert_both_ways(rules: RuleSet) -> None:
    assert rules_of(rules_message(rules)) == rules


def test_unset_fields_are_the_rule_books_defaults() -> None:
    rules = rules_of(games_pb2.RuleSet(variant=BG))
    assert (rules.start, rules.home_hit_and_run, rules.match_openings) == (
        "STANDARD",
        "ALLOWED",
        "EVERY_GAME",
    )


def test_a_game_of_nackgammon_starts_from_the_nackgammon_start(client: TavliClient) -> None:
    rule_set = games_pb2.RuleSet(variant=BG, match_length=3, start=board_pb2.START_NACKGAMMON)
    created = client.games.CreateGame(games_pb2.CreateGameRequest(rule_set=rule_set), timeout=RPC_TIMEOUT)
    assert created.game.position_id == "4Dl4ADbgOXgANg"
    assert created.game.rule_set.start == board_pb2.START_NACKGAMMON


def test_a_start_with_long_nardi_is_refused_in_words(client: TavliClient) -> None:
    rule_set = games_pb2.RuleSet(variant=board_pb2.VARIANT_LONG_NARDI, start=board_pb2.START_NACKGAMMON)
    with pytest.raises(grpc.RpcError) as failure:
        client.games.CreateGame(games_pb2.CreateGameRequest(rule_set=rule_set), timeout=RPC_TIMEOUT)
    code, reason, _ = error_info(failure.value)
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_RULE_SET")
    said = failure.value.details()  # type: ignore[attr-defined]
    assert "a start other than the standard one is not a rule of long nardi" in said


def test_hypergammon_plays_are_listed_from_its_position_ids(client: TavliClient) -> None:
    request = rules_pb2.ListLegalPlaysRequest(
        variant=BG,
        start=board_pb2.START_HYPERGAMMON_3,
        position=board_pb2.Position(position_id="AACgAgAAKgAAAA"),
        dice=[3, 1],
    )
    answer = client.rules.ListLegalPlays(request, timeout=RPC_TIMEOUT)
    engine = RuleSet(start="HYPERGAMMON_3").rules
    expected = {play.notation() for play in engine.legal_plays(engine.start_position(), (3, 1))}
    assert {play.notation for play in answer.plays} == expected and "24/21 23/22" in expected
    scored = client.rules.ScorePosition(
        rules_pb2.ScorePositionRequest(
            variant=BG,
            start=board_pb2.START_HYPERGAMMON_3,
            position=board_pb2.Position(
                position_id=Position.from_points({}, {12: 3}, checkers=3).position_id()
            ),
        ),
        timeout=RPC_TIMEOUT,
    )
    assert (scored.result, scored.player_won) == (board_pb2.GAME_RESULT_GAMMON, True)


def test_a_position_with_other_checkers_than_the_game_has_is_refused(client: TavliClient) -> None:
    request = rules_pb2.ListLegalPlaysRequest(
        variant=BG,
        start=board_pb2.START_HYPERGAMMON_2,
        position=board_pb2.Position(position_id="4HPwATDgc/ABMA"),
        dice=[3, 1],
    )
    with pytest.raises(grpc.RpcError) as failure:
        client.rules.ListLegalPlays(request, timeout=RPC_TIMEOUT)
    assert failure.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
    assert "a side has 2" in failure.value.details()  # type: ignore[attr-defined]


def test_hit_and_run_in_the_home_board_is_refused_with_its_reason(client: TavliClient) -> None:
    position = Position.from_points({10: 1}, {21: 1, 18: 2, 12: 12})
    request = rules_pb2.ValidatePlayRequest(
        variant=BG,
        home_hit_and_run=FORBIDDEN,
        position=board_pb2.Position(position_id=position.position_id()),
        dice=[6, 3],
        steps=board_pb2.PlaySteps(
            steps=[board_pb2.Step(from_point=10, to_point=4), board_pb2.Step(from_point=4, to_point=1)]
        ),
    )
    answer = client.rules.ValidatePlay(request, timeout=RPC_TIMEOUT)
    assert not answer.legal and "must stay there" in answer.reason
    allowed = client.rules.ValidatePlay(
        rules_pb2.ValidatePlayRequest(
            variant=BG, position=request.position, dice=[6, 3], steps=request.steps
        ),
        timeout=RPC_TIMEOUT,
    )
    assert allowed.legal and allowed.play.notation == "10/4*/1"


def test_an_option_the_variant_lacks_is_invalid_alone_and_in_a_batch(client: TavliClient) -> None:
    start = board_pb2.Position(position_id="4HPwATDgc/ABMA")
    nardi = rules_pb2.ValidatePlayRequest(
        variant=board_pb2.VARIANT_LONG_NARDI,
        home_hit_and_run=FORBIDDEN,
        position=start,
        dice=[3, 1],
        notation="24/21",
    )
    with pytest.raises(grpc.RpcError) as failure:
        client.rules.ValidatePlay(nardi, timeout=RPC_TIMEOUT)
    assert failure.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
    said = failure.value.details()  # type: ignore[attr-defined]
    assert "forbidding hit-and-run in the home board is not a rule of long nardi" in said
    fine = rules_pb2.ValidatePlayRequest(
        variant=BG,
        start=board_pb2.START_NACKGAMMON,
        position=board_pb2.Position(position_id="4Dl4ADbgOXgANg"),
        dice=[3, 1],
        notation="8/5 6/5",
    )
    batch = client.rules.BatchValidatePlays(
        rules_pb2.BatchValidatePlaysRequest(requests=[nardi, fine]), timeout=RPC_TIMEOUT
    )
    assert [(answer.legal, bool(answer.error)) for answer in batch.responses] == [
        (False, True),
        (True, False),
    ]
    assert "forbidding hit-and-run in the home board is not a rule of long nardi" in batch.responses[0].error


def test_a_board_with_more_checkers_than_hypergammon_has_is_refused(client: TavliClient) -> None:
    board = board_pb2.Board(
        player_points=[2 if point == 24 else 0 for point in range(1, 25)],
        opponent_points=[1 if point == 24 else 0 for point in range(1, 25)],
    )
    request = rules_pb2.ListLegalPlaysRequest(
        variant=BG, start=board_pb2.START_HYPERGAMMON_1, position=board_pb2.Position(board=board), dice=[3, 1]
    )
    with pytest.raises(grpc.RpcError) as failure:
        client.rules.ListLegalPlays(request, timeout=RPC_TIMEOUT)
    assert failure.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
    assert "a side has 1" in failure.value.details()  # type: ignore[attr-defined]
