"""GamesService end to end: two seats on two connections play whole matches against a real server,
and every refusal comes back with its status code and ErrorInfo reason, changing nothing.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import threading
import uuid
from collections.abc import Iterator

import grpc
import pytest

from tavli.clients.client import Seat, TavliClient
from tavli.engine.dice import verify_throws
from tavli.engine.events import Event, OpeningThrown, Played, Rolled
from tavli.engine.matfile import import_mat
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2
from tests.games import (
    BACKGAMMON_GAME,
    BACKGAMMON_SEED,
    as_gammon_match_with_a_backgammon,
    score_after,
)
from tests.server_play import (
    RPC_TIMEOUT,
    Policy,
    all_events,
    connected,
    error_info,
    play_actions,
    play_to_end,
    play_until,
    running_server,
    seat_to_act,
)

SEAT_0, SEAT_1 = games_pb2.SEAT_0, games_pb2.SEAT_1


@pytest.fixture(scope="module")
def clients() -> Iterator[tuple[TavliClient, TavliClient]]:
    """Two connections to one server: one for each seat."""
    with running_server() as server, connected(server.port) as first, connected(server.port) as second:
        yield first, second


def seats_of(clients: tuple[TavliClient, TavliClient], **options: object) -> tuple[Seat, Seat]:
    """A new game: seat 0 acts over the first connection, seat 1 over the second."""
    seat_0, seat_1 = clients[0].create_game(**options)  # type: ignore[arg-type]
    return seat_0, Seat(clients[1], seat_1.name, 1, seat_1.token, seat_1.last_seen)


def refusal(call: object, request: object) -> tuple[grpc.StatusCode, str, str]:
    """Call, expecting an error; returns its (code, ErrorInfo reason, domain)."""
    with pytest.raises(grpc.RpcError) as failure:
        call(request, timeout=RPC_TIMEOUT)  # type: ignore[operator]
    return error_info(failure.value)


def get(client: TavliClient, name: str) -> games_pb2.Game:
    return client.games.GetGame(games_pb2.GetGameRequest(name=name), timeout=RPC_TIMEOUT).game


def on_turn(seats: tuple[Seat, Seat], game: games_pb2.Game) -> tuple[Seat, Seat]:
    """(the seat on turn, the other seat), each having read the game now (so its etag is fresh)."""
    for seat in seats:
        seat.game()
    return (seats[0], seats[1]) if game.turn == SEAT_0 else (seats[1], seats[0])


def request(seat: Seat, request_type: type, **fields: object) -> object:
    """An action request for ``seat`` with no etag and no request_id, unless given."""
    return request_type(name=seat.name, seat_token=seat.token, **fields)


# --- whole matches --------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "length", "double_rate", "seed"),
    [("backgammon", 3, 0.15, 1), ("backgammon", 3, 0.15, 2), ("long-nardi", 2, 0.0, 3)],
)
def test_a_short_match_is_played_to_its_end_through_the_api(
    clients, variant, length, double_rate, seed
) -> None:
    seats = seats_of(clients, variant=variant, match_length=length)
    final = play_to_end(seats, Policy(random.Random(seed), double_rate=double_rate))

    assert final.phase == games_pb2.PHASE_MATCH_OVER
    winner = 0 if final.winner == SEAT_0 else 1
    assert final.winner in (SEAT_0, SEAT_1)
    assert final.score[winner] >= length > final.score[1 - winner]
    points = [0, 0]
    for finished in final.finished_games:
        points[0 if finished.winner == SEAT_0 else 1] += finished.points
        assert finished.ended_by in (
            games_pb2.GAME_END_PLAY,
            games_pb2.GAME_END_DROP,
            games_pb2.GAME_END_RESIGNATION,
        )
    assert points == list(final.score)
    assert [finished.game_number for finished in final.finished_games] == list(
        range(1, len(final.finished_games) + 1)
    )
    # Both connections see the same final state, and neither seat may do anything more.
    assert get(clients[1], final.name) == get(clients[0], final.name) == final
    for seat in seats:
        assert list(seat.legal_actions().actions) == []


def test_a_money_game_ends_by_a_double_dropped_and_by_a_resignation_accepted(clients) -> None:
    seats = seats_of(clients, variant="backgammon")
    game = play_until(seats, Policy(random.Random(5)), games_pb2.PHASE_ROLLING)
    doubler, taker = on_turn(seats, game)
    game = doubler.double()
    assert game.phase == games_pb2.PHASE_DOUBLED
    assert set(taker.legal_actions().actions) == {games_pb2.ACTION_TAKE, games_pb2.ACTION_DROP}
    game = taker.drop()
    assert [finished.ended_by for finished in game.finished_games] == [games_pb2.GAME_END_DROP]
    assert game.game_number == 2 and game.phase == games_pb2.PHASE_OPENING
    doubler_index = 0 if doubler is seats[0] else 1
    assert game.score[doubler_index] == 1

    game = play_until(seats, Policy(random.Random(6)), games_pb2.PHASE_ROLLING)
    resigner, accepter = on_turn(seats, game)
    game = resigner.resign("backgammon")
    assert game.phase == games_pb2.PHASE_RESIGNING
    accepter.game()
    assert game.resignation.result in (board_pb2.GAME_RESULT_GAMMON, board_pb2.GAME_RESULT_BACKGAMMON)
    game = accepter.accept()
    finished = game.finished_games[-1]
    assert finished.ended_by == games_pb2.GAME_END_RESIGNATION
    assert (
        finished.points
        == {board_pb2.GAME_RESULT_GAMMON: 2, board_pb2.GAME_RESULT_BACKGAMMON: 3}[finished.result]
    )


# --- backgammons scored as gammons ----------------------------------------------------------------


def test_a_game_created_with_backgammons_as_gammon_shows_the_option_and_the_default_is_counted(
    clients,
) -> None:
    seats = seats_of(clients, variant="backgammon", backgammons="AS_GAMMON")
    assert get(clients[1], seats[0].name).rule_set.backgammons == games_pb2.BACKGAMMONS_AS_GAMMON
    plain = seats_of(clients, variant="backgammon")
    assert get(clients[1], plain[0].name).rule_set.backgammons == games_pb2.BACKGAMMONS_COUNTED


def replay_through_the_server(seats: tuple[Seat, Seat], events: list[Event], games: int) -> games_pb2.Game:
    """The engine's log acted out by the two seats, on the same seeded dice, until ``games`` games
    have finished; returns the state then."""
    game = seats[0].game()
    for event in events:
        if len(game.finished_games) == games:
            return game
        actor = seats[getattr(event, "side", 0)]
        actor.game()  # the state it acts on, and its etag
        if isinstance(event, (OpeningThrown, Rolled)):
            game = actor.roll()
            assert isinstance(event, OpeningThrown) or tuple(game.dice) == event.dice, "the engine's dice"
        elif isinstance(event, Played):
            game = actor.play([(step.start, step.end) for step in event.steps])
        else:
            game = getattr(actor, event.kind)()  # a double, take or drop
    raise AssertionError(f"the log holds fewer than {games} games")


def test_a_backgammon_played_to_its_end_through_the_server_scores_twice_the_cube(clients) -> None:
    match = as_gammon_match_with_a_backgammon()
    seats = seats_of(
        clients,
        variant="backgammon",
        match_length=7,
        backgammons="AS_GAMMON",
        dice_seed=f"mat-{BACKGAMMON_SEED}",
    )
    game = replay_through_the_server(seats, match.events, BACKGAMMON_GAME)
    finished = game.finished_games[BACKGAMMON_GAME - 1]
    assert finished.ended_by == games_pb2.GAME_END_PLAY
    assert (finished.result, finished.points) == (board_pb2.GAME_RESULT_GAMMON, 2 * finished.cube_value)
    assert list(game.score) == list(score_after(match, BACKGAMMON_GAME))


@pytest.mark.parametrize(
    ("backgammons", "result", "points"),
    [("COUNTED", board_pb2.GAME_RESULT_BACKGAMMON, 3), ("AS_GAMMON", board_pb2.GAME_RESULT_GAMMON, 2)],
)
def test_an_offer_to_resign_a_backgammon_is_capped_to_a_gammon_under_as_gammon(
    clients, backgammons: str, result: int, points: int
) -> None:
    seats = seats_of(clients, variant="backgammon", backgammons=backgammons, dice_seed="resign-backgammon")
    game = seats[0].roll()  # the opening throw: the sides are in contact, a backgammon can be lost
    resigner, accepter = on_turn(seats, game)
    game = resigner.resign("backgammon")
    assert (game.resignation.result, game.resignation.points) == (result, points)
    accepter.game()
    finished = accepter.accept().finished_games[0]
    assert (finished.result, finished.points) == (result, points)
    assert finished.ended_by == games_pb2.GAME_END_RESIGNATION


def test_backgammons_as_gammon_in_long_nardi_is_refused_in_words(clients) -> None:
    request_message = games_pb2.CreateGameRequest(
        rule_set=games_pb2.RuleSet(
            variant=board_pb2.VARIANT_LONG_NARDI, backgammons=games_pb2.BACKGAMMONS_AS_GAMMON
        )
    )
    with pytest.raises(grpc.RpcError) as failure:
        clients[0].games.CreateGame(request_message, timeout=RPC_TIMEOUT)
    assert error_info(failure.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_RULE_SET")
    assert failure.value.details() == (
        "long nardi has no backgammons to score as gammons: its biggest win, a mars, is worth 2 already"
    )


def test_a_backgammons_value_the_api_does_not_define_is_refused_in_words(clients) -> None:
    request_message = games_pb2.CreateGameRequest(
        rule_set=games_pb2.RuleSet(variant=board_pb2.VARIANT_BACKGAMMON, backgammons=7)
    )
    with pytest.raises(grpc.RpcError) as failure:
        clients[0].games.CreateGame(request_message, timeout=RPC_TIMEOUT)
    assert error_info(failure.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_ENUM_VALUE")
    assert "backgammons" in failure.value.details() and "BACKGAMMONS_AS_GAMMON (2)" in failure.value.details()


# --- refusals: NOT_FOUND, PERMISSION_DENIED -------------------------------------------------------


def test_an_unknown_game_is_not_found_everywhere(clients) -> None:
    games = clients[0].games
    for call, request_message in (
        (games.GetGame, games_pb2.GetGameRequest(name="games/nope")),
        (games.RollDice, games_pb2.RollDiceRequest(name="games/nope", seat_token="x")),
        (games.PlayMove, games_pb2.PlayMoveRequest(name="games/nope", seat_token="x", notation="8/5 6/5")),
        (games.ListLegalActions, games_pb2.ListLegalActionsRequest(name="games/nope", seat=SEAT_0)),
        (games.ListGameEvents, games_pb2.ListGameEventsRequest(name="games/nope")),
        (games.ExportMatch, games_pb2.ExportMatchRequest(name="games/nope")),
    ):
        assert refusal(call, request_message) == (grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND", "tavli")
    # No name, or one longer than any game's, is malformed rather than unknown.
    assert refusal(games.GetGame, games_pb2.GetGameRequest(name="")) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "INVALID_ARGUMENT",
        "tavli",
    )
    assert refusal(games.GetGame, games_pb2.GetGameRequest(name="games/" + "x" * 20_000)) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "FIELD_TOO_LONG",
        "tavli",
    )
    with pytest.raises(grpc.RpcError) as failure:
        list(games.WatchGame(games_pb2.WatchGameRequest(name="games/nope"), timeout=RPC_TIMEOUT))
    assert error_info(failure.value) == (grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND", "tavli")


def test_a_wrong_seat_token_is_permission_denied(clients) -> None:
    seat_0, _ = seats_of(clients)
    other_game_seat, _ = seats_of(clients)
    games = clients[0].games
    for token in ("", "not-a-token", other_game_seat.token):
        for call, request_type in (
            (games.RollDice, games_pb2.RollDiceRequest),
            (games.OfferDouble, games_pb2.OfferDoubleRequest),
            (games.AcceptResignation, games_pb2.AcceptResignationRequest),
        ):
            assert refusal(call, request_type(name=seat_0.name, seat_token=token)) == (
                grpc.StatusCode.PERMISSION_DENIED,
                "WRONG_SEAT_TOKEN",
                "tavli",
            )
    assert get(clients[0], seat_0.name).event_count == 0


def test_a_seats_token_tells_which_seat_it_holds_and_what_it_may_do(clients) -> None:
    seat_0, seat_1 = seats_of(clients)
    other_game_seat, _ = seats_of(clients)
    games = clients[0].games
    for seat in (seat_0, seat_1):
        by_token = games.ListLegalActions(
            games_pb2.ListLegalActionsRequest(name=seat.name, seat_token=seat.token)
        )
        by_seat = games.ListLegalActions(games_pb2.ListLegalActionsRequest(name=seat.name, seat=seat.seat))
        assert by_token.seat == seat.seat
        assert by_token == by_seat
    for token in ("not-a-token", other_game_seat.token):
        request = games_pb2.ListLegalActionsRequest(name=seat_0.name, seat_token=token)
        assert refusal(games.ListLegalActions, request) == (
            grpc.StatusCode.PERMISSION_DENIED,
            "WRONG_SEAT_TOKEN",
            "tavli",
        )
    both = games_pb2.ListLegalActionsRequest(name=seat_0.name, seat=games_pb2.SEAT_0, seat_token=seat_0.token)
    assert refusal(games.ListLegalActions, both)[0] == grpc.StatusCode.INVALID_ARGUMENT


def test_seat_ones_token_on_seat_zeros_turn_is_not_your_turn(clients) -> None:
    seats = seats_of(clients, variant="backgammon", dice_seed="turns")
    game = play_until(seats, Policy(random.Random(1)), games_pb2.PHASE_ROLLING, seat_on_turn=SEAT_0)
    games = clients[1].games
    assert refusal(games.RollDice, request(seats[1], games_pb2.RollDiceRequest)) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "NOT_YOUR_TURN",
        "tavli",
    )
    assert refusal(games.OfferDouble, request(seats[1], games_pb2.OfferDoubleRequest)) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "NOT_YOUR_TURN",
        "tavli",
    )
    assert get(clients[0], game.name) == game


# --- refusals: FAILED_PRECONDITION ----------------------------------------------------------------


def assert_refused(
    call: object, request_message: object, reason: str, client: TavliClient, name: str
) -> None:
    """The call fails with FAILED_PRECONDITION and ``reason``, and the game is unchanged."""
    before = get(client, name)
    assert refusal(call, request_message) == (grpc.StatusCode.FAILED_PRECONDITION, reason, "tavli")
    assert get(client, name) == before


def test_what_the_rules_forbid_now_is_failed_precondition_with_its_reason(clients) -> None:
    seats = seats_of(clients, variant="backgammon", match_length=5, dice_seed="phases")
    games = clients[0].games
    name = seats[0].name

    # The opening: only the throw for who starts.
    assert_refused(
        games.PlayMove,
        request(seats[0], games_pb2.PlayMoveRequest, notation="8/5 6/5"),
        "WRONG_PHASE",
        clients[0],
        name,
    )
    assert_refused(
        games.OfferDouble, request(seats[0], games_pb2.OfferDoubleRequest), "WRONG_PHASE", clients[0], name
    )
    assert_refused(
        games.OfferResignation,
        request(seats[0], games_pb2.OfferResignationRequest, result=board_pb2.GAME_RESULT_SINGLE),
        "RESIGNATION_UNAVAILABLE",
        clients[0],
        name,
    )

    game = seats[0].roll()  # the opening throw: the starter plays it
    mover, waiter = on_turn(seats, game)
    assert game.phase == games_pb2.PHASE_PLAYING
    assert_refused(games.RollDice, request(mover, games_pb2.RollDiceRequest), "WRONG_PHASE", clients[0], name)
    assert_refused(
        games.TakeDouble, request(waiter, games_pb2.TakeDoubleRequest), "WRONG_PHASE", clients[0], name
    )
    assert_refused(
        games.AcceptResignation,
        request(waiter, games_pb2.AcceptResignationRequest),
        "WRONG_PHASE",
        clients[0],
        name,
    )
    assert_refused(
        games.PlayMove,
        request(waiter, games_pb2.PlayMoveRequest, notation="8/5 6/5"),
        "NOT_YOUR_TURN",
        clients[0],
        name,
    )
    assert_refused(
        games.PlayMove,
        request(mover, games_pb2.PlayMoveRequest, notation="6/off"),
        "ILLEGAL_PLAY",
        clients[0],
        name,
    )
    assert_refused(
        games.OfferDouble, request(mover, games_pb2.OfferDoubleRequest), "CUBE_UNAVAILABLE", clients[0], name
    )

    # A double waits: nobody rolls; the doubler cannot answer it.
    game = play_until(seats, Policy(random.Random(2)), games_pb2.PHASE_ROLLING)
    doubler, taker = on_turn(seats, game)
    game = doubler.double()
    assert_refused(
        games.RollDice, request(doubler, games_pb2.RollDiceRequest), "DOUBLE_PENDING", clients[0], name
    )
    assert_refused(
        games.RollDice, request(taker, games_pb2.RollDiceRequest), "DOUBLE_PENDING", clients[0], name
    )
    assert_refused(
        games.TakeDouble, request(doubler, games_pb2.TakeDoubleRequest), "DOUBLE_PENDING", clients[0], name
    )
    assert_refused(
        games.BeaverDouble,
        request(taker, games_pb2.BeaverDoubleRequest),
        "BEAVER_UNAVAILABLE",
        clients[0],
        name,
    )
    taker.game()
    game = taker.take()
    assert (game.cube_value, game.cube_owner) == (2, taker.seat)

    # The taker owns the cube: the other seat may not double it back.
    game = play_until(seats, Policy(random.Random(3)), games_pb2.PHASE_ROLLING, seat_on_turn=doubler.seat)
    assert_refused(
        games.OfferDouble,
        request(doubler, games_pb2.OfferDoubleRequest),
        "CUBE_UNAVAILABLE",
        clients[0],
        name,
    )

    # A resignation waits: the resigner may do nothing but wait.
    resigner, answerer = on_turn(seats, game)
    game = resigner.resign("single")
    assert_refused(
        games.RollDice, request(resigner, games_pb2.RollDiceRequest), "RESIGNATION_PENDING", clients[0], name
    )
    assert_refused(
        games.AcceptResignation,
        request(resigner, games_pb2.AcceptResignationRequest),
        "RESIGNATION_PENDING",
        clients[0],
        name,
    )
    assert_refused(
        games.OfferResignation,
        request(answerer, games_pb2.OfferResignationRequest, result=board_pb2.GAME_RESULT_SINGLE),
        "RESIGNATION_UNAVAILABLE",
        clients[0],
        name,
    )
    answerer.game()
    game = answerer.reject()
    assert game.phase == games_pb2.PHASE_ROLLING
    assert_refused(
        games.OfferResignation,
        request(resigner, games_pb2.OfferResignationRequest, result=board_pb2.GAME_RESULT_SINGLE),
        "RESIGNATION_UNAVAILABLE",
        clients[0],
        name,
    )


def test_a_game_without_the_cube_refuses_a_double(clients) -> None:
    for options in (
        {"variant": "backgammon", "cube": False},
        {"variant": "backgammon", "match_length": 1},
        {"variant": "long-nardi"},
    ):
        seats = seats_of(clients, **options)
        game = play_until(seats, Policy(random.Random(4)), games_pb2.PHASE_ROLLING)
        doubler, _ = on_turn(seats, game)
        assert games_pb2.ACTION_DOUBLE not in doubler.legal_actions().actions
        assert_refused(
            clients[0].games.OfferDouble,
            request(doubler, games_pb2.OfferDoubleRequest),
            "CUBE_UNAVAILABLE",
            clients[0],
            game.name,
        )


@pytest.mark.slow
def test_every_action_after_the_match_is_over_is_match_over(clients) -> None:
    seats = seats_of(clients, variant="backgammon", match_length=1, dice_seed="over")
    final = play_to_end(seats, Policy(random.Random(7)))
    games = clients[0].games
    for seat in seats:
        for call, request_message in (
            (games.RollDice, request(seat, games_pb2.RollDiceRequest)),
            (games.PlayMove, request(seat, games_pb2.PlayMoveRequest, notation="8/5 6/5")),
            (games.OfferDouble, request(seat, games_pb2.OfferDoubleRequest)),
            (games.TakeDouble, request(seat, games_pb2.TakeDoubleRequest)),
            (games.AcceptResignation, request(seat, games_pb2.AcceptResignationRequest)),
        ):
            assert_refused(call, request_message, "MATCH_OVER", clients[0], final.name)


# --- refusals: INVALID_ARGUMENT -------------------------------------------------------------------


def invalid(call: object, request_message: object) -> str:
    code, reason, domain = refusal(call, request_message)
    assert (code, domain) == (grpc.StatusCode.INVALID_ARGUMENT, "tavli")
    return reason


@pytest.mark.parametrize(
    ("rule_set", "reason"),
    [
        (
            games_pb2.RuleSet(variant=board_pb2.VARIANT_LONG_NARDI, cube=games_pb2.CUBE_MODE_CUBE),
            "INVALID_RULE_SET",
        ),
        (
            games_pb2.RuleSet(variant=board_pb2.VARIANT_BACKGAMMON, match_length=3, beavers=True),
            "INVALID_RULE_SET",
        ),
        (games_pb2.RuleSet(variant=board_pb2.VARIANT_BACKGAMMON, cube_limit=3), "INVALID_RULE_SET"),
        (
            games_pb2.RuleSet(
                variant=board_pb2.VARIANT_LONG_NARDI, opening=games_pb2.OPENING_PLAY_OPENING_DICE
            ),
            "INVALID_RULE_SET",
        ),
        (
            games_pb2.RuleSet(
                variant=board_pb2.VARIANT_BACKGAMMON, cube=games_pb2.CUBE_MODE_NO_CUBE, jacoby=True
            ),
            "INVALID_RULE_SET",
        ),
        (games_pb2.RuleSet(), "INVALID_ARGUMENT"),
        (None, "INVALID_ARGUMENT"),
    ],
    ids=[
        "cube-in-long-nardi",
        "beavers-in-a-match",
        "cube-limit-3",
        "nardi-plays-opening",
        "jacoby-without-cube",
        "no-variant",
        "no-rule-set",
    ],
)
def test_a_rule_set_that_makes_no_sense_is_invalid_argument(clients, rule_set, reason) -> None:
    message = (
        games_pb2.CreateGameRequest() if rule_set is None else games_pb2.CreateGameRequest(rule_set=rule_set)
    )
    assert invalid(clients[0].games.CreateGame, message) == reason


def test_malformed_game_requests_are_invalid_argument(clients) -> None:
    seats = seats_of(clients, variant="backgammon", dice_seed="malformed")
    games = clients[0].games
    game = seats[0].roll()
    mover, _ = on_turn(seats, game)
    before = get(clients[0], game.name)
    assert (
        invalid(games.PlayMove, request(mover, games_pb2.PlayMoveRequest, notation="eight to five"))
        == "INVALID_PLAY"
    )
    assert (
        invalid(games.PlayMove, request(mover, games_pb2.PlayMoveRequest, notation="13/")) == "INVALID_PLAY"
    )
    assert invalid(games.RollDice, games_pb2.RollDiceRequest(seat_token=mover.token)) == "INVALID_ARGUMENT"
    assert (
        invalid(games.ListLegalActions, games_pb2.ListLegalActionsRequest(name=game.name))
        == "INVALID_ARGUMENT"
    )
    assert (
        invalid(
            games.OfferResignation,
            request(mover, games_pb2.OfferResignationRequest, result=board_pb2.GAME_RESULT_UNSPECIFIED),
        )
        == "INVALID_ARGUMENT"
    )
    assert (
        invalid(
            games.CreateGame,
            games_pb2.CreateGameRequest(
                rule_set=games_pb2.RuleSet(variant=board_pb2.VARIANT_BACKGAMMON),
                dice_mode=games_pb2.DICE_MODE_SEEDED,
            ),
        )
        == "INVALID_ARGUMENT"
    )
    assert (
        invalid(
            games.CreateGame,
            games_pb2.CreateGameRequest(
                rule_set=games_pb2.RuleSet(variant=board_pb2.VARIANT_BACKGAMMON), dice_mode=9
            ),
        )
        == "UNKNOWN_ENUM_VALUE"
    )
    assert get(clients[0], game.name) == before


def _token(cursor: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(cursor).encode()).decode()


BAD_PAGE_TOKENS = [
    "not a token",
    "abc",
    _token([1, 2]),
    _token("text"),
    _token({"created": "yesterday", "name": 7}),
    _token({"sequence": 3}),
    _token({"sequence": "three"}),
    _token({"sequence": -4}),
    _token({"created": 1.5}),
    _token({}),
]


@pytest.mark.parametrize("token", BAD_PAGE_TOKENS)
def test_a_page_token_list_games_did_not_give_is_invalid_argument(clients, token) -> None:
    assert (
        invalid(clients[0].games.ListGames, games_pb2.ListGamesRequest(page_token=token))
        == "INVALID_ARGUMENT"
    )


@pytest.mark.parametrize("token", [token for token in BAD_PAGE_TOKENS if token != _token({"sequence": 3})])
def test_a_page_token_list_game_events_did_not_give_is_invalid_argument(clients, token) -> None:
    seat_0, _ = seats_of(clients)
    request_message = games_pb2.ListGameEventsRequest(name=seat_0.name, page_token=token)
    assert invalid(clients[0].games.ListGameEvents, request_message) == "INVALID_ARGUMENT"


def test_a_negative_page_size_is_invalid_argument(clients) -> None:
    seat_0, _ = seats_of(clients)
    assert invalid(clients[0].games.ListGames, games_pb2.ListGamesRequest(page_size=-1)) == "INVALID_ARGUMENT"
    assert (
        invalid(
            clients[0].games.ListGameEvents, games_pb2.ListGameEventsRequest(name=seat_0.name, page_size=-1)
        )
        == "INVALID_ARGUMENT"
    )


# --- etags and request ids ------------------------------------------------------------------------


def test_a_stale_etag_is_aborted_and_changes_nothing(clients) -> None:
    seats = seats_of(clients, variant="backgammon", dice_seed="etag")
    old = seats[0].game()
    game = seats[0].roll()  # the opening throw moves the game on
    mover, _ = on_turn(seats, game)
    plays = mover.legal_actions().plays
    before = get(clients[0], game.name)
    stale = games_pb2.PlayMoveRequest(
        name=game.name, seat_token=mover.token, etag=old.etag, notation=plays[0].notation
    )
    assert refusal(clients[0].games.PlayMove, stale) == (grpc.StatusCode.ABORTED, "STALE_ETAG", "tavli")
    assert get(clients[0], game.name) == before
    fresh = games_pb2.PlayMoveRequest(
        name=game.name, seat_token=mover.token, etag=before.etag, notation=plays[0].notation
    )
    after = clients[0].games.PlayMove(fresh, timeout=RPC_TIMEOUT).game
    assert after.event_count == before.event_count + 1


def race_to_throw(seats: tuple[Seat, Seat]) -> list[object]:
    """Both seats send the opening throw at once on etag "0"; each one's game, or error."""
    start = threading.Barrier(2)
    outcomes: list[object] = [None, None]

    def throw(index: int) -> None:
        seat = seats[index]
        roll = games_pb2.RollDiceRequest(
            name=seat.name, seat_token=seat.token, etag="0", request_id=str(uuid.uuid4())
        )
        start.wait(timeout=10)
        try:
            outcomes[index] = seat.client.games.RollDice(roll, timeout=RPC_TIMEOUT).game
        except grpc.RpcError as error:
            outcomes[index] = error_info(error)

    threads = [threading.Thread(target=throw, args=(index,)) for index in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    return outcomes


def test_two_seats_racing_for_the_opening_throw_on_the_same_etag_make_one_throw(clients) -> None:
    for _ in range(5):
        seats = seats_of(clients, variant="backgammon")
        outcomes = race_to_throw(seats)
        won = [outcome for outcome in outcomes if isinstance(outcome, games_pb2.Game)]
        lost = [outcome for outcome in outcomes if not isinstance(outcome, games_pb2.Game)]
        assert len(won) == 1 and lost == [(grpc.StatusCode.ABORTED, "STALE_ETAG", "tavli")]
        assert get(clients[0], seats[0].name) == won[0]
        assert won[0].event_count == 1


def test_a_replayed_request_id_returns_the_first_answer_without_acting_twice(clients) -> None:
    seats = seats_of(clients, variant="backgammon", dice_seed="replay")
    games = clients[0].games
    roll = games_pb2.RollDiceRequest(
        name=seats[0].name, seat_token=seats[0].token, etag="0", request_id=str(uuid.uuid4())
    )
    first = games.RollDice(roll, timeout=RPC_TIMEOUT)
    # Its etag is stale now, yet the first answer comes back again.
    again = games.RollDice(roll, timeout=RPC_TIMEOUT)
    assert again == first
    assert get(clients[0], seats[0].name).event_count == first.game.event_count

    mover, _ = on_turn(seats, first.game)
    notation = mover.legal_actions().plays[0].notation
    play = games_pb2.PlayMoveRequest(
        name=mover.name, seat_token=mover.token, notation=notation, request_id=str(uuid.uuid4())
    )
    played = games.PlayMove(play, timeout=RPC_TIMEOUT)
    assert games.PlayMove(play, timeout=RPC_TIMEOUT) == played
    assert get(clients[0], mover.name).event_count == played.game.event_count == first.game.event_count + 1
    assert len(all_events(clients[0], mover.name)) == played.game.event_count


def test_a_replayed_create_game_returns_the_same_game_and_tokens(clients) -> None:
    games = clients[0].games
    create = games_pb2.CreateGameRequest(
        rule_set=games_pb2.RuleSet(variant=board_pb2.VARIANT_BACKGAMMON, match_length=3),
        request_id=str(uuid.uuid4()),
    )
    first = games.CreateGame(create, timeout=RPC_TIMEOUT)
    count = len(games.ListGames(games_pb2.ListGamesRequest(page_size=1000), timeout=RPC_TIMEOUT).games)
    again = games.CreateGame(create, timeout=RPC_TIMEOUT)
    assert again == first
    assert (
        len(games.ListGames(games_pb2.ListGamesRequest(page_size=1000), timeout=RPC_TIMEOUT).games) == count
    )
    other = games.CreateGame(
        games_pb2.CreateGameRequest(rule_set=create.rule_set, request_id=str(uuid.uuid4())),
        timeout=RPC_TIMEOUT,
    )
    assert other.game.name != first.game.name


# --- listing --------------------------------------------------------------------------------------


def test_list_games_pages_through_every_game_once_newest_first() -> None:
    with running_server() as server, connected(server.port) as client:
        created = [client.create_game(variant="backgammon")[0].name for _ in range(7)]
        pages: list[list[games_pb2.Game]] = []
        token = ""
        while True:
            page = client.games.ListGames(
                games_pb2.ListGamesRequest(page_size=3, page_token=token), timeout=RPC_TIMEOUT
            )
            pages.append(list(page.games))
            token = page.next_page_token
            if not token:
                break
            assert len(pages) < 10
        assert [len(page) for page in pages] == [3, 3, 1]
        listed = [game.name for page in pages for game in page]
        assert len(set(listed)) == 7
        assert set(listed) == set(created)
        times = [game.create_time.ToNanoseconds() for page in pages for game in page]
        assert times == sorted(times, reverse=True)


def test_list_game_events_pages_through_the_log_in_order(clients) -> None:
    seats = seats_of(clients, variant="backgammon", dice_seed="events")
    game = play_actions(seats, Policy(random.Random(8)), 40)
    everything = all_events(clients[0], game.name)
    assert [event.sequence for event in everything] == list(range(game.event_count))
    paged: list[games_pb2.GameEvent] = []
    token = ""
    for _ in range(20):
        page = clients[0].games.ListGameEvents(
            games_pb2.ListGameEventsRequest(name=game.name, page_size=7, page_token=token),
            timeout=RPC_TIMEOUT,
        )
        assert len(page.events) <= 7
        paged.extend(page.events)
        token = page.next_page_token
        if not token:
            break
    assert paged == everything
    assert everything[0].kind == games_pb2.EVENT_KIND_OPENING_THROW


# --- the match record -----------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "length"), [("backgammon", 3), ("long-nardi", 1)])
def test_export_match_gives_a_mat_file_that_reads_back_as_the_same_match(clients, variant, length) -> None:
    seats = seats_of(clients, variant=variant, match_length=length)
    final = play_to_end(seats, Policy(random.Random(9), double_rate=0.1 if variant == "backgammon" else 0.0))
    mat = clients[1].export_mat(final.name)
    assert f" {length} point match" in mat
    imported = import_mat(mat)
    assert list(imported.score) == list(final.score)
    assert imported.winner == (0 if final.winner == SEAT_0 else 1)
    assert len(imported.games) == len(final.finished_games)
    assert [game.result.points for game in imported.games] == [
        finished.points for finished in final.finished_games
    ]
    plays = [
        event.notation
        for event in all_events(clients[0], final.name)
        if event.kind == games_pb2.EVENT_KIND_PLAY
    ]
    assert len([event for event in imported.events if type(event).__name__ == "Played"]) == len(plays)


@pytest.mark.parametrize("variant", ["backgammon", "long-nardi"])
def test_export_match_of_games_resigned_reads_back(clients, variant) -> None:
    # Each game is resigned at once: in long nardi right after the throw for who starts.
    seats = seats_of(clients, variant=variant, match_length=3, dice_seed="resigned")
    game = seats[0].game()
    while game.phase != games_pb2.PHASE_MATCH_OVER:
        game = play_until(seats, Policy(random.Random(15)), games_pb2.PHASE_ROLLING)
        resigner, accepter = on_turn(seats, game)
        resigner.resign("single")
        accepter.game()
        game = accepter.accept()
    imported = import_mat(clients[0].export_mat(game.name))
    assert list(imported.score) == list(game.score)
    assert len(imported.games) == len(game.finished_games)


# --- dice -----------------------------------------------------------------------------------------


def dice_seen(seats: tuple[Seat, Seat], actions: int) -> list[tuple[int, ...]]:
    """Play ``actions`` actions always choosing the first legal play; every throw seen, in order."""
    game = seats[0].game()
    for _ in range(actions):
        seat = seats[seat_to_act(game)]  # type: ignore[index]
        legal = seat.legal_actions()
        game = seat.play(legal.plays[0].notation) if games_pb2.ACTION_PLAY in legal.actions else seat.roll()
    throws: list[tuple[int, ...]] = []
    for event in all_events(seats[0].client, game.name):
        throws.extend((throw.seat0_die, throw.seat1_die) for throw in event.opening_throws)
        if event.kind == games_pb2.EVENT_KIND_ROLL:
            throws.append(tuple(event.dice))
    return throws


def test_the_same_seed_and_the_same_plays_see_the_same_dice(clients) -> None:
    first = dice_seen(seats_of(clients, variant="backgammon", dice_seed="reproducible"), 30)
    second = dice_seen(seats_of(clients, variant="backgammon", dice_seed="reproducible"), 30)
    other = dice_seen(seats_of(clients, variant="backgammon", dice_seed="another seed"), 30)
    assert len(first) >= 10
    assert first == second
    assert other != first


@pytest.mark.parametrize(("variant", "length"), [("backgammon", 3), ("long-nardi", 1)])
def test_verifiable_dice_are_committed_before_and_revealed_after_each_game(clients, variant, length) -> None:
    seats = seats_of(clients, variant=variant, match_length=length, verifiable_dice=True)
    created = seats[0].game()
    assert len(created.dice_commitment) == 64
    first_events = all_events(clients[0], created.name)
    assert [event.kind for event in first_events] == [games_pb2.EVENT_KIND_DICE_COMMITTED]
    assert first_events[0].dice_commitment == created.dice_commitment

    final = play_to_end(seats, Policy(random.Random(10)))
    assert final.dice_commitment == ""  # the match is over: no game in play, no seed kept secret
    commitments: dict[int, str] = {}
    seeds: dict[int, str] = {}
    throws: dict[int, list[tuple[int, int]]] = {}
    game_number = 0
    for event in all_events(clients[0], final.name):
        if event.kind == games_pb2.EVENT_KIND_DICE_COMMITTED:
            game_number = event.game_number
            commitments[game_number] = event.dice_commitment
            throws[game_number] = []
        elif event.kind == games_pb2.EVENT_KIND_SEED_REVEALED:
            assert event.game_number == game_number
            seeds[game_number] = event.dice_seed
        elif event.kind == games_pb2.EVENT_KIND_OPENING_THROW:
            throws[game_number].extend((throw.seat0_die, throw.seat1_die) for throw in event.opening_throws)
        elif event.kind == games_pb2.EVENT_KIND_ROLL:
            throws[game_number].append((event.dice[0], event.dice[1]))
    assert sorted(commitments) == sorted(seeds) == list(range(1, len(final.finished_games) + 1))
    assert commitments[1] == created.dice_commitment
    for number, seed in seeds.items():
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitments[number]
        assert throws[number], f"game {number} had no throws"
        assert verify_throws(bytes.fromhex(seed), commitments[number], throws[number])
        assert not verify_throws(bytes.fromhex(seed), commitments[number], [(7, 7)] + throws[number][1:])
