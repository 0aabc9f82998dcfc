"""Bad input of every shape gets a clear error, never a crash: the engine raises only its own
typed errors, and the server answers INVALID_ARGUMENT or FAILED_PRECONDITION, never INTERNAL."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tavli.engine import BACKGAMMON, LONG_NARDI, Position, TavliError
from tavli.v1 import (
    board_pb2,
    games_service_pb2 as games_pb2,
    games_service_pb2_grpc,
    rules_service_pb2 as rules_pb2,
    rules_service_pb2_grpc,
)
from tests.server_play import running_server

NOTATION_ALPHABET = "0123456789/*() bBaArRoOfF,-x\t"
notation = st.text(alphabet=NOTATION_ALPHABET, max_size=40)
position_ids = st.one_of(
    st.sampled_from(["4HPwATDgc/ABMA", "AACA/z8AAAb+Pw", "xHPwASTgc/ABMA"]),
    st.text(
        alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=", min_size=0, max_size=16
    ),
    st.text(max_size=20),
)
dice = st.lists(st.integers(min_value=0, max_value=9), max_size=4)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(position_id=position_ids, text=notation, rolled=st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_reading_any_text_as_a_play_gives_a_play_or_a_typed_error(
    position_id: str, text: str, rolled
) -> None:
    for variant in (BACKGAMMON, LONG_NARDI):
        try:
            play = variant.parse_play(Position.from_id(position_id), rolled, text)
        except TavliError as error:
            assert str(error)
        else:
            assert play in variant.legal_plays(Position.from_id(position_id), rolled)


@pytest.fixture(scope="module")
def stubs() -> Iterator[
    tuple[rules_service_pb2_grpc.RulesServiceStub, games_service_pb2_grpc.GamesServiceStub]
]:
    with running_server() as server, grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        yield (
            rules_service_pb2_grpc.RulesServiceStub(channel),
            games_service_pb2_grpc.GamesServiceStub(channel),
        )


ANSWERS_FOR_BAD_INPUT = {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    variant=st.integers(min_value=-1, max_value=4),
    position_id=position_ids,
    rolled=dice,
    text=notation,
)
def test_the_rules_service_answers_bad_input_with_a_clear_status(
    stubs, variant, position_id, rolled, text
) -> None:
    rules, _ = stubs
    position = board_pb2.Position(position_id=position_id)
    calls = [
        (
            rules.ListLegalPlays,
            rules_pb2.ListLegalPlaysRequest(variant=variant, position=position, dice=rolled),
        ),
        (
            rules.ValidatePlay,
            rules_pb2.ValidatePlayRequest(variant=variant, position=position, dice=rolled, notation=text),
        ),
        (
            rules.ApplyPlay,
            rules_pb2.ApplyPlayRequest(variant=variant, position=position, dice=rolled, notation=text),
        ),
        (rules.ScorePosition, rules_pb2.ScorePositionRequest(variant=variant, position=position)),
        (rules.ConvertPosition, rules_pb2.ConvertPositionRequest(variant=variant, position=position)),
    ]
    for method, request in calls:
        try:
            method(request, timeout=10)
        except grpc.RpcError as error:
            assert error.code() in ANSWERS_FOR_BAD_INPUT, (method, request, error.details())
            assert error.details()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    variant=st.integers(min_value=-1, max_value=3),
    match_length=st.integers(min_value=0, max_value=40),
    cube=st.integers(min_value=0, max_value=3),
    cube_limit=st.one_of(st.none(), st.integers(min_value=0, max_value=300)),
    flags=st.lists(st.booleans(), min_size=4, max_size=4),
    opening=st.integers(min_value=0, max_value=3),
    text=notation,
)
def test_the_games_service_answers_bad_rule_sets_and_plays_with_a_clear_status(
    stubs, variant, match_length, cube, cube_limit, flags, opening, text
) -> None:
    _, games = stubs
    rule_set = games_pb2.RuleSet(
        variant=variant,
        match_length=match_length,
        cube=cube,
        jacoby=flags[0],
        beavers=flags[1],
        automatic_doubles=flags[2],
        auto_play_forced=flags[3],
        opening=opening,
    )
    if cube_limit is not None:
        rule_set.cube_limit = cube_limit
    try:
        created = games.CreateGame(games_pb2.CreateGameRequest(rule_set=rule_set), timeout=10)
    except grpc.RpcError as error:
        assert error.code() in ANSWERS_FOR_BAD_INPUT, error.details()
        return
    name, token = created.game.name, created.seat0_token
    games.RollDice(games_pb2.RollDiceRequest(name=name, seat_token=token), timeout=10)
    for seat_token in (created.seat0_token, created.seat1_token):
        try:
            games.PlayMove(
                games_pb2.PlayMoveRequest(name=name, seat_token=seat_token, notation=text), timeout=10
            )
        except grpc.RpcError as error:
            assert error.code() in ANSWERS_FOR_BAD_INPUT, error.details()
