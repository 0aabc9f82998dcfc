"""The bounds on what a client may send (server/limits.py), on real requests of every RPC.

Requests as clients send them pass; a text field one character past its bound, a repeated field one
item past it, or an enum number the API does not define is refused with the error that names the
field (its path, inside nested and repeated messages), its size or value and the bound.
"""

from __future__ import annotations

import base64
import json
import secrets
import uuid
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.protobuf import struct_pb2, wrappers_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from tavli.engine import BACKGAMMON
from tavli.server.convert import board_message
from tavli.server.errors import FieldTooLong, TooManyItems, UnknownEnumValue, status_of
from tavli.server.limits import BATCH_ITEMS, FIELD_LIMITS, RequestLimits, check_request
from tavli.v1 import (
    analysis_service_pb2 as analysis_pb2,
    board_pb2,
    games_service_pb2 as games_pb2,
    match_record_pb2,
    rules_service_pb2 as rules_pb2,
)

LIMITS = RequestLimits()

# The bounds, stated here on their own: text in characters, repeated fields in items.
TEXT_BOUNDS = {
    "notation": 128,
    "position_id": 32,
    "xgid": 128,
    "name": 64,
    "game": 64,
    "seat_token": 128,
    "etag": 64,
    "request_id": 128,
    "page_token": 512,
    "dice_seed": 256,
    "text": 1_048_576,  # a .mat record's
    "display_name": 64,
    "player_id": 64,
}
ITEM_BOUNDS = {
    "dice": 4,
    "player_points": 26,
    "opponent_points": 26,
    "player_pinned_points": 24,
    "opponent_pinned_points": 24,
    "steps": 8,
    "requests": 1000,
}
ANY_OTHER_TEXT, ANY_OTHER_REPEATED = 1024, 64

SERVICES = [
    rules_pb2.DESCRIPTOR.services_by_name["RulesService"],
    analysis_pb2.DESCRIPTOR.services_by_name["AnalysisService"],
    games_pb2.DESCRIPTOR.services_by_name["GamesService"],
]
METHODS = {method.name: method for service in SERVICES for method in service.methods}


# --- requests as clients send them -------------------------------------------------------------------

START_ID = "4HPwATDgc/ABMA"
XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
POSITIONS = [
    board_pb2.Position(position_id=START_ID),
    board_pb2.Position(xgid=XGID),
    board_pb2.Position(board=board_message(BACKGAMMON.start_position())),
]
GAME = f"games/{secrets.token_hex(8)}"  # as the server names games
TOKEN = secrets.token_urlsafe(24)  # as the server makes seat tokens
PAGE_TOKEN = base64.urlsafe_b64encode(json.dumps({"created": 1717236000.25, "name": GAME}).encode()).decode()


def seat_action(request_type: type[Message]) -> Message:
    return request_type(name=GAME, seat_token=TOKEN, etag="41", request_id=str(uuid.uuid4()))


def validation(position: board_pb2.Position, notation: str = "24/18*/13") -> rules_pb2.ValidatePlayRequest:
    return rules_pb2.ValidatePlayRequest(
        variant=board_pb2.VARIANT_BACKGAMMON, position=position, dice=[6, 5], notation=notation
    )


MAT = " 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n  1) 31: 8/5 6/5\n"
RECORDS = [match_record_pb2.MatchRecord(text=MAT), match_record_pb2.MatchRecord(data=MAT.encode("latin-1"))]

NORMAL: dict[str, list[Message]] = {
    "EvaluatePosition": [
        analysis_pb2.EvaluatePositionRequest(
            variant=board_pb2.VARIANT_BACKGAMMON,
            position=position,
            context=analysis_pb2.GameContext(match_length=7, player_score=3, opponent_score=5, plies=2),
        )
        for position in POSITIONS
    ],
    "ListRankedPlays": [
        analysis_pb2.ListRankedPlaysRequest(
            variant=board_pb2.VARIANT_BACKGAMMON, position=position, dice=[6, 6]
        )
        for position in POSITIONS
    ],
    "GetCubeDecision": [
        analysis_pb2.GetCubeDecisionRequest(variant=board_pb2.VARIANT_BACKGAMMON, position=position)
        for position in POSITIONS
    ],
    "AnalyzeMatch": [analysis_pb2.AnalyzeMatchRequest(record=record, plies=2) for record in RECORDS]
    + [analysis_pb2.AnalyzeMatchRequest(game="games/" + "g" * 58)],
    "ValidateMatch": [rules_pb2.ValidateMatchRequest(record=record) for record in RECORDS],
    "ImportMatch": [
        games_pb2.ImportMatchRequest(record=record, request_id=str(uuid.uuid4())) for record in RECORDS
    ],
    "ListLegalPlays": [
        rules_pb2.ListLegalPlaysRequest(variant=board_pb2.VARIANT_BACKGAMMON, position=position, dice=[3, 1])
        for position in POSITIONS
    ]
    + [rules_pb2.ListLegalPlaysRequest(variant=board_pb2.VARIANT_LONG_NARDI, dice=[6, 6])],
    "ValidatePlay": [validation(position) for position in POSITIONS]
    + [
        rules_pb2.ValidatePlayRequest(
            variant=board_pb2.VARIANT_BACKGAMMON,
            position=POSITIONS[0],
            dice=[6, 6],
            steps=board_pb2.PlaySteps(
                steps=[
                    board_pb2.Step(from_point=24, to_point=18),
                    board_pb2.Step(from_point=24, to_point=18),
                    board_pb2.Step(from_point=13, to_point=7),
                    board_pb2.Step(from_point=13, to_point=7),
                ]
            ),
        ),
        validation(POSITIONS[0], "8/5 6/5" + " " * 100),
    ],
    "BatchValidatePlays": [
        rules_pb2.BatchValidatePlaysRequest(requests=[validation(POSITIONS[i % 3]) for i in range(1000)])
    ],
    "ApplyPlay": [
        rules_pb2.ApplyPlayRequest(
            variant=board_pb2.VARIANT_BACKGAMMON, position=position, dice=[3, 1], notation="8/5 6/5"
        )
        for position in POSITIONS
    ],
    "ScorePosition": [
        rules_pb2.ScorePositionRequest(variant=board_pb2.VARIANT_LONG_NARDI, position=position)
        for position in POSITIONS
    ],
    "ConvertPosition": [
        rules_pb2.ConvertPositionRequest(variant=board_pb2.VARIANT_BACKGAMMON, position=position)
        for position in POSITIONS
    ],
    "CreateGame": [
        games_pb2.CreateGameRequest(
            rule_set=games_pb2.RuleSet(
                variant=board_pb2.VARIANT_BACKGAMMON,
                match_length=7,
                cube=games_pb2.CUBE_MODE_CUBE,
                cube_limit=64,
                crawford=True,
                automatic_doubles_limit=1,
                opening=games_pb2.OPENING_PLAY_OPENING_DICE,
                match_openings=games_pb2.MATCH_OPENINGS_WINNER_OPENS,
                auto_play_forced=True,
            ),
            dice_mode=games_pb2.DICE_MODE_SEEDED,
            dice_seed="arena 2024-06-01, run 17",
            request_id=str(uuid.uuid4()),
        ),
        games_pb2.CreateGameRequest(
            rule_set=games_pb2.RuleSet(
                variant=board_pb2.VARIANT_BACKGAMMON,
                cube_limit=0,
                jacoby=True,
                beavers=True,
                automatic_doubles=True,
                automatic_doubles_limit=3,
            ),
            dice_mode=games_pb2.DICE_MODE_VERIFIABLE,
        ),
        games_pb2.CreateGameRequest(
            rule_set=games_pb2.RuleSet(
                variant=board_pb2.VARIANT_LONG_NARDI,
                cube=games_pb2.CUBE_MODE_NO_CUBE,
                opening=games_pb2.OPENING_WINNER_ROLLS_AGAIN,
            )
        ),
    ],
    "GetGame": [games_pb2.GetGameRequest(name=GAME)],
    "ListGames": [
        games_pb2.ListGamesRequest(),
        games_pb2.ListGamesRequest(page_size=1000, page_token=PAGE_TOKEN),
    ],
    "RollDice": [
        seat_action(games_pb2.RollDiceRequest),
        games_pb2.RollDiceRequest(name=GAME, seat_token=TOKEN),
    ],
    "PlayMove": [
        games_pb2.PlayMoveRequest(
            name=GAME, seat_token=TOKEN, etag="41", request_id=str(uuid.uuid4()), notation="bar/22* 13/11"
        ),
        games_pb2.PlayMoveRequest(name=GAME, seat_token=TOKEN, notation="pass"),
    ],
    "OfferDouble": [seat_action(games_pb2.OfferDoubleRequest)],
    "TakeDouble": [seat_action(games_pb2.TakeDoubleRequest)],
    "DropDouble": [seat_action(games_pb2.DropDoubleRequest)],
    "BeaverDouble": [seat_action(games_pb2.BeaverDoubleRequest)],
    "OfferResignation": [
        games_pb2.OfferResignationRequest(
            name=GAME,
            seat_token=TOKEN,
            etag="7",
            request_id=str(uuid.uuid4()),
            result=board_pb2.GAME_RESULT_GAMMON,
        ),
        games_pb2.OfferResignationRequest(name=GAME, seat_token=TOKEN, result=board_pb2.GAME_RESULT_MARS),
    ],
    "AcceptResignation": [seat_action(games_pb2.AcceptResignationRequest)],
    "RejectResignation": [seat_action(games_pb2.RejectResignationRequest)],
    "OfferRematch": [seat_action(games_pb2.OfferRematchRequest)],
    "AcceptRematch": [seat_action(games_pb2.AcceptRematchRequest)],
    "ListLegalActions": [games_pb2.ListLegalActionsRequest(name=GAME, seat=games_pb2.SEAT_1)],
    "ListGameEvents": [games_pb2.ListGameEventsRequest(name=GAME, page_size=5000, page_token=PAGE_TOKEN)],
    "ExportMatch": [games_pb2.ExportMatchRequest(name=GAME)],
    "WatchGame": [games_pb2.WatchGameRequest(name=GAME, from_sequence=120)],
    "PlaySeat": [
        games_pb2.PlaySeatRequest(join=games_pb2.JoinSeat(name=GAME, seat_token=TOKEN)),
        games_pb2.PlaySeatRequest(
            action=games_pb2.SeatAction(
                etag="41", request_id=str(uuid.uuid4()), roll=games_pb2.SeatAction.RollDice()
            )
        ),
        games_pb2.PlaySeatRequest(
            action=games_pb2.SeatAction(
                request_id=str(uuid.uuid4()), play=games_pb2.SeatAction.PlayMove(notation="bar/22* 13/11")
            )
        ),
        games_pb2.PlaySeatRequest(
            action=games_pb2.SeatAction(
                play=games_pb2.SeatAction.PlayMove(
                    steps=board_pb2.PlaySteps(steps=[board_pb2.Step(from_point=24, to_point=18)] * 4)
                )
            )
        ),
        games_pb2.PlaySeatRequest(
            action=games_pb2.SeatAction(
                resign=games_pb2.SeatAction.OfferResignation(result=board_pb2.GAME_RESULT_GAMMON)
            )
        ),
    ],
}


def test_every_rpc_of_both_services_has_requests_here() -> None:
    assert set(NORMAL) == set(METHODS)
    for name, requests in NORMAL.items():
        assert requests and all(request.DESCRIPTOR is METHODS[name].input_type for request in requests)


@pytest.mark.parametrize("method", sorted(NORMAL))
def test_requests_as_clients_send_them_pass(method: str) -> None:
    for request in NORMAL[method]:
        check_request(request, LIMITS)


@pytest.mark.parametrize("method", sorted(METHODS))
def test_an_empty_request_passes(method: str) -> None:
    check_request(_new(METHODS[method].input_type), LIMITS)


# --- every bounded field of every request, one past its bound -------------------------------------------


def _new(descriptor: Descriptor) -> Message:
    for module in (rules_pb2, analysis_pb2, games_pb2, board_pb2):
        if descriptor.file is module.DESCRIPTOR:
            return getattr(module, descriptor.name)()
    raise AssertionError(f"no generated class for {descriptor.full_name}")


FieldPath = tuple[FieldDescriptor, ...]


def _fields(descriptor: Descriptor, path: FieldPath = ()) -> Iterator[FieldPath]:
    """Every field reachable from a request, as the fields leading to it."""
    for field in descriptor.fields:
        yield (*path, field)
        if field.message_type is not None and len(path) < 4:
            yield from _fields(field.message_type, (*path, field))


def _leaf_of(request: Message, path: FieldPath) -> tuple[Message, str]:
    """The message holding the last field of ``path`` (creating those on the way: the first item
    of a repeated one), and the field's path as the errors write it."""
    message, words = request, []
    for field in path[:-1]:
        if field.is_repeated:
            message = getattr(message, field.name).add()
            words.append(f"{field.name}[0]")
        else:
            message = getattr(message, field.name)
            words.append(field.name)
    words.append(path[-1].name)
    return message, ".".join(words)


def _add_item(items: Any, field: FieldDescriptor) -> None:
    if field.message_type is not None:
        items.add()
    else:
        items.append(1)


def _requests_and_paths(kind: str) -> list[tuple[str, FieldPath]]:
    cases = []
    for method in sorted(METHODS):
        for path in _fields(METHODS[method].input_type):
            field = path[-1]
            if (
                kind == "text"
                and field.type == FieldDescriptor.TYPE_STRING
                or kind == "enum"
                and field.type == FieldDescriptor.TYPE_ENUM
                or kind == "repeated"
                and field.is_repeated
            ):
                cases.append((method, path))
    return cases


def _case_id(case: tuple[str, FieldPath]) -> str:
    method, path = case
    return f"{method}:{'.'.join(field.name for field in path)}"


TEXT_CASES = _requests_and_paths("text")
ENUM_CASES = _requests_and_paths("enum")
REPEATED_CASES = _requests_and_paths("repeated")


def test_every_request_has_its_text_enum_and_repeated_fields_checked_here() -> None:
    methods_with_text = {method for method, _ in TEXT_CASES}
    assert methods_with_text == set(METHODS)  # every request has a name, a position or a rule set
    assert {path[-1].name for _, path in TEXT_CASES} == set(TEXT_BOUNDS)
    assert {path[-1].name for _, path in REPEATED_CASES} == set(ITEM_BOUNDS)
    assert {"variant", "cube", "opening", "match_openings", "dice_mode", "seat", "result"} <= {
        path[-1].name for _, path in ENUM_CASES
    }


@pytest.mark.parametrize("case", TEXT_CASES, ids=_case_id)
def test_text_at_its_bound_passes_and_one_character_more_is_refused(case: tuple[str, FieldPath]) -> None:
    method, path = case
    bound = TEXT_BOUNDS.get(path[-1].name, ANY_OTHER_TEXT)
    request = _new(METHODS[method].input_type)
    holder, words = _leaf_of(request, path)
    setattr(holder, path[-1].name, "é" * bound)  # characters, not bytes, are counted
    check_request(request, LIMITS)
    setattr(holder, path[-1].name, "x" * (bound + 1))
    with pytest.raises(FieldTooLong) as refused:
        check_request(request, LIMITS)
    assert refused.value.message == f"{words} is {bound + 1:,} characters; at most {bound:,}"


@pytest.mark.parametrize("case", REPEATED_CASES, ids=_case_id)
def test_a_repeated_field_at_its_bound_passes_and_one_more_item_is_refused(
    case: tuple[str, FieldPath],
) -> None:
    method, path = case
    bound = ITEM_BOUNDS.get(path[-1].name, ANY_OTHER_REPEATED)
    request = _new(METHODS[method].input_type)
    holder, words = _leaf_of(request, path)
    items = getattr(holder, path[-1].name)
    for _ in range(bound):
        _add_item(items, path[-1])
    check_request(request, LIMITS)
    _add_item(items, path[-1])
    with pytest.raises(TooManyItems) as refused:
        check_request(request, LIMITS)
    assert refused.value.message == f"{words} holds {bound + 1:,} items; at most {bound:,}"


@pytest.mark.parametrize("case", ENUM_CASES, ids=_case_id)
def test_an_enum_number_the_api_does_not_define_is_refused(case: tuple[str, FieldPath]) -> None:
    method, path = case
    enum = path[-1].enum_type
    request = _new(METHODS[method].input_type)
    holder, words = _leaf_of(request, path)
    for number in (value.number for value in enum.values):
        setattr(holder, path[-1].name, number)
        check_request(request, LIMITS)
    for undefined in (max(value.number for value in enum.values) + 1, 99, -1, 2**31 - 1):
        setattr(holder, path[-1].name, undefined)
        with pytest.raises(UnknownEnumValue) as refused:
            check_request(request, LIMITS)
        words_then = f"{words} is {undefined}, which {enum.full_name} does not define: "
        assert refused.value.message.startswith(words_then)
        assert all(f"{value.name} ({value.number})" in refused.value.message for value in enum.values)


# --- the refusals clients met before these bounds -----------------------------------------------------


def test_megabytes_of_notation_are_refused_naming_the_field_and_both_lengths() -> None:
    request = validation(POSITIONS[0], "8/5 6/5" + " " * 3_500_005)
    with pytest.raises(FieldTooLong) as refused:
        check_request(request, LIMITS)
    assert refused.value.message == "notation is 3,500,012 characters; at most 128"
    assert status_of(refused.value) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "FIELD_TOO_LONG",
        "notation is 3,500,012 characters; at most 128",
    )


def test_a_repeat_count_of_five_thousand_digits_is_refused_by_the_notations_length() -> None:
    request = games_pb2.PlayMoveRequest(name=GAME, seat_token=TOKEN, notation="24/23(" + "1" * 5000 + ")")
    with pytest.raises(FieldTooLong, match="^notation is 5,007 characters; at most 128$"):
        check_request(request, LIMITS)


def test_five_thousand_digits_in_an_xgid_are_refused_by_its_length() -> None:
    xgid = XGID.removesuffix("10") + "1" * 5000  # the max cube
    request = rules_pb2.ConvertPositionRequest(
        variant=board_pb2.VARIANT_BACKGAMMON, position=board_pb2.Position(xgid=xgid)
    )
    assert len(xgid) == 5049
    with pytest.raises(FieldTooLong, match=r"^position\.xgid is 5,049 characters; at most 128$"):
        check_request(request, LIMITS)


def test_an_undefined_cube_mode_in_a_rule_set_is_refused_in_words() -> None:
    rule_set = games_pb2.RuleSet(variant=board_pb2.VARIANT_BACKGAMMON, cube=99)  # type: ignore[arg-type]
    request = games_pb2.CreateGameRequest(rule_set=rule_set)
    with pytest.raises(UnknownEnumValue) as refused:
        check_request(request, LIMITS)
    assert refused.value.message == (
        "rule_set.cube is 99, which tavli.v1.CubeMode does not define: "
        "CUBE_MODE_UNSPECIFIED (0), CUBE_MODE_CUBE (1), CUBE_MODE_NO_CUBE (2)"
    )
    assert status_of(refused.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_ENUM_VALUE")


def test_a_batch_of_a_hundred_thousand_is_refused_by_its_count_before_any_item_is_looked_at() -> None:
    items = [validation(POSITIONS[0])] * 100_000
    items[5] = validation(POSITIONS[0], "x" * 1000)  # would be refused too, if the items were walked
    with pytest.raises(TooManyItems) as refused:
        check_request(rules_pb2.BatchValidatePlaysRequest(requests=items), LIMITS)
    assert refused.value.message == "requests holds 100,000 items; at most 1,000"
    assert status_of(refused.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "TOO_MANY_ITEMS")


def test_a_field_deep_in_a_batch_is_named_by_its_path() -> None:
    items = [validation(POSITIONS[0]) for _ in range(10)]
    items[3].position.xgid = "X" * 129
    with pytest.raises(FieldTooLong, match=r"^requests\[3\]\.position\.xgid is 129 characters; at most 128$"):
        check_request(rules_pb2.BatchValidatePlaysRequest(requests=items), LIMITS)
    items[3].position.position_id = START_ID
    items[7].variant = 7  # type: ignore[assignment]
    with pytest.raises(UnknownEnumValue, match=r"^requests\[7\]\.variant is 7, which tavli\.v1\.Variant"):
        check_request(rules_pb2.BatchValidatePlaysRequest(requests=items), LIMITS)
    items[7].variant = board_pb2.VARIANT_BACKGAMMON
    items[9].steps.steps.extend(board_pb2.Step(from_point=6, to_point=5) for _ in range(9))
    with pytest.raises(TooManyItems, match=r"^requests\[9\]\.steps\.steps holds 9 items; at most 8$"):
        check_request(rules_pb2.BatchValidatePlaysRequest(requests=items), LIMITS)


# --- the table of bounds -----------------------------------------------------------------------------


def test_the_table_holds_the_bounds_stated_here() -> None:
    by_name = {key.rsplit(".", 1)[-1]: bound for key, bound in FIELD_LIMITS.items()}
    assert {name: by_name[name] for name in TEXT_BOUNDS} == TEXT_BOUNDS
    assert {name: by_name[name] for name in ITEM_BOUNDS} == ITEM_BOUNDS
    assert (LIMITS.text_length, LIMITS.items) == (ANY_OTHER_TEXT, ANY_OTHER_REPEATED)


def test_every_key_of_the_table_names_a_field_of_a_request() -> None:
    names = {path[-1].name for method in METHODS.values() for path in _fields(method.input_type)}
    full_names = {path[-1].full_name for method in METHODS.values() for path in _fields(method.input_type)}
    kept_for_fields_to_come = {"display_name"}
    for key in FIELD_LIMITS:
        assert key in names | full_names | kept_for_fields_to_come, f"{key!r} names no field of any request"


def test_a_full_name_wins_over_a_name_and_unnamed_fields_get_the_defaults() -> None:
    fields = {"notation": 10, "tavli.v1.ApplyPlayRequest.notation": 30}
    limits = RequestLimits(text_length=20, items=1, fields=fields)
    check_request(rules_pb2.ApplyPlayRequest(notation="x" * 30), limits)
    with pytest.raises(FieldTooLong, match="^notation is 11 characters; at most 10$"):
        check_request(rules_pb2.ValidatePlayRequest(notation="x" * 11), limits)
    with pytest.raises(FieldTooLong, match="^name is 21 characters; at most 20$"):
        check_request(games_pb2.GetGameRequest(name="x" * 21), limits)
    with pytest.raises(TooManyItems, match="^dice holds 2 items; at most 1$"):
        check_request(rules_pb2.ListLegalPlaysRequest(dice=[3, 1]), limits)


def test_a_bound_is_a_whole_number_of_at_least_one() -> None:
    for bound in (0, -1, 2.5, "64", True):
        with pytest.raises(ValueError, match=f"the bound of {BATCH_ITEMS} is a whole number of at least 1"):
            RequestLimits(fields={**FIELD_LIMITS, BATCH_ITEMS: bound})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="the bound of text_length is a whole number of at least 1, not 0"):
        RequestLimits(text_length=0)
    assert RequestLimits(fields={**FIELD_LIMITS, BATCH_ITEMS: 2000}).fields[BATCH_ITEMS] == 2000


def test_limits_with_other_bounds_do_not_share_what_they_have_worked_out() -> None:
    strict = RequestLimits(fields={**FIELD_LIMITS, "notation": 5})
    request = validation(POSITIONS[0], "8/5 6/5")
    for _ in range(2):
        check_request(request, LIMITS)
        with pytest.raises(FieldTooLong, match="at most 5$"):
            check_request(request, strict)


# --- messages of any shape: maps, bytes, lists ---------------------------------------------------------


def test_maps_lists_and_bytes_are_walked_as_any_other_field() -> None:
    long_text = struct_pb2.Struct()
    long_text.fields["key"].string_value = "x" * 2000
    words = r"^fields\['key'\]\.string_value is 2,000 characters; at most 1,024$"
    with pytest.raises(FieldTooLong, match=words):
        check_request(long_text, LIMITS)

    long_key = struct_pb2.Struct()
    long_key.fields["k" * 1025].bool_value = True
    with pytest.raises(FieldTooLong, match=r"is 1,025 characters; at most 1,024$"):
        check_request(long_key, LIMITS)

    many = struct_pb2.Struct()
    for index in range(65):
        many.fields[str(index)].number_value = index
    with pytest.raises(TooManyItems, match="^fields holds 65 items; at most 64$"):
        check_request(many, LIMITS)

    listed = struct_pb2.Value()
    listed.list_value.values.add().string_value = "fine"
    listed.list_value.values.add().null_value = 99  # type: ignore[assignment]
    words = r"^list_value\.values\[1\]\.null_value is 99, which google\.protobuf\.NullValue does not"
    with pytest.raises(UnknownEnumValue, match=words):
        check_request(listed, LIMITS)

    with pytest.raises(FieldTooLong, match="^value is 1,025 bytes; at most 1,024$"):
        check_request(wrappers_pb2.BytesValue(value=b"x" * 1025), LIMITS)
    check_request(wrappers_pb2.BytesValue(value=b"x" * 1024), LIMITS)
