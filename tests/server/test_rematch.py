"""Rematches through the API: a seat offers one once the match is over, the other accepts, and
each seat is handed its own token in the one new game; every refusal in words, nothing changed
by a refused call, and the offer and the new game kept in the finished game's log across a
restart."""

from __future__ import annotations

import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
import pytest

from tavli.clients.client import Seat, TavliClient
from tavli.engine.game import ActionError
from tavli.engine.match import Match
from tavli.engine.rules import RuleSet
from tavli.server.app import Running
from tavli.v1 import games_service_pb2 as games_pb2
from tests.server_play import Policy, all_events, connected, error_info, play_to_end, running_server


@pytest.fixture()
def server() -> Iterator[Running]:
    with running_server() as running:
        yield running


@pytest.fixture()
def client(server: Running) -> Iterator[TavliClient]:
    with connected(server.port) as native:
        yield native


def finished_match(client: TavliClient, variant: str = "backgammon") -> tuple[Seat, Seat]:
    seats = client.create_game(variant=variant, match_length=1, players=("Anna", "Bob"), crawford=False)
    play_to_end(seats, Policy(random.Random(3)))
    return seats


def offer(client: TavliClient, seat: Seat, **fields: str) -> games_pb2.Game:
    request = games_pb2.OfferRematchRequest(name=seat.name, seat_token=seat.token, **fields)
    return client.games.OfferRematch(request, timeout=client.timeout).game


def accept(client: TavliClient, seat: Seat, **fields: str) -> games_pb2.AcceptRematchResponse:
    request = games_pb2.AcceptRematchRequest(name=seat.name, seat_token=seat.token, **fields)
    return client.games.AcceptRematch(request, timeout=client.timeout)


def refusal(call: object) -> tuple[grpc.StatusCode, str, str]:
    """The code, reason and message of a call that must fail."""
    with pytest.raises(grpc.RpcError) as raised:
        call()  # type: ignore[operator]
    code, reason, _ = error_info(raised.value)
    return code, reason, raised.value.details() or ""


def test_an_offer_accepted_makes_one_new_game_and_each_seat_gets_its_own_token(client: TavliClient) -> None:
    seats = finished_match(client)
    finished = seats[0].game()
    offered = offer(client, seats[1])
    assert offered.rematch.offered_by == games_pb2.SEAT_1 and offered.rematch.game == ""
    assert offered.event_count == finished.event_count + 1

    answer = accept(client, seats[0])
    new = answer.rematch
    assert answer.game.rematch.game == new.name and new.name != seats[0].name
    assert new.phase == games_pb2.PHASE_OPENING and new.event_count == 0
    assert new.rule_set == finished.rule_set
    assert (new.seat0_player, new.seat1_player) == (finished.seat0_player, finished.seat1_player)
    # The accepting seat 0 gets seat 0's token in the new game, which acts for seat 0 only.
    seat0 = client.games.ListLegalActions(
        games_pb2.ListLegalActionsRequest(name=new.name, seat_token=answer.seat_token), timeout=client.timeout
    )
    assert seat0.seat == games_pb2.SEAT_0

    # The seat that offered asks the same way and gets the same game with its own token.
    again = accept(client, seats[1])
    assert again.rematch.name == new.name
    assert again.seat_token != answer.seat_token
    seat1 = client.games.ListLegalActions(
        games_pb2.ListLegalActionsRequest(name=new.name, seat_token=again.seat_token), timeout=client.timeout
    )
    assert seat1.seat == games_pb2.SEAT_1
    # Twice accepted is one game: the same name, the finished game's log unchanged by the second.
    twice = accept(client, seats[0])
    assert twice.rematch.name == new.name and twice.seat_token == answer.seat_token
    assert client.game(seats[0].name).event_count == finished.event_count + 2

    kinds = [event.kind for event in all_events(client, seats[0].name)[-2:]]
    assert kinds == [games_pb2.EVENT_KIND_REMATCH_OFFERED, games_pb2.EVENT_KIND_REMATCH_ACCEPTED]
    assert all_events(client, seats[0].name)[-1].rematch_game == new.name


def test_refusals_say_why_and_change_nothing(client: TavliClient) -> None:
    seats = client.create_game(match_length=1, crawford=False)
    code, reason, words = refusal(lambda: offer(client, seats[0]))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "MATCH_NOT_OVER")
    assert "the match is not over" in words
    code, reason, _ = refusal(lambda: accept(client, seats[0]))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "MATCH_NOT_OVER")
    assert client.game(seats[0].name).event_count == 0

    play_to_end(seats, Policy(random.Random(5)))
    before = client.game(seats[0].name).event_count
    code, reason, words = refusal(lambda: accept(client, seats[1]))
    assert (code, reason, words) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "NO_REMATCH_OFFERED",
        "no rematch has been offered",
    )
    code, reason, _ = refusal(
        lambda: client.games.OfferRematch(
            games_pb2.OfferRematchRequest(name=seats[0].name, seat_token="not-a-token"),
            timeout=client.timeout,
        )
    )
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT_TOKEN")
    code, reason, _ = refusal(
        lambda: client.games.AcceptRematch(
            games_pb2.AcceptRematchRequest(name=seats[0].name, seat_token="x" * 32), timeout=client.timeout
        )
    )
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT_TOKEN")
    code, reason, _ = refusal(
        lambda: client.games.AcceptRematch(
            games_pb2.AcceptRematchRequest(name="games/nosuchgame", seat_token="x"), timeout=client.timeout
        )
    )
    assert (code, reason) == (grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND")
    code, reason, _ = refusal(
        lambda: client.games.OfferRematch(games_pb2.OfferRematchRequest(), timeout=client.timeout)
    )
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert client.game(seats[0].name).event_count == before

    offer(client, seats[0])
    code, reason, words = refusal(lambda: offer(client, seats[0]))
    assert (code, reason, words) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "REMATCH_ALREADY_OFFERED",
        "you have already offered a rematch",
    )
    code, reason, words = refusal(lambda: offer(client, seats[1]))
    assert (reason, words) == ("REMATCH_ALREADY_OFFERED", "your opponent has already offered a rematch")
    code, reason, words = refusal(lambda: accept(client, seats[0]))
    assert reason == "NO_REMATCH_OFFERED" and "your opponent is the one to accept it" in words
    assert client.game(seats[0].name).event_count == before + 1

    accept(client, seats[1])
    code, reason, words = refusal(lambda: offer(client, seats[1]))
    assert (code, reason, words) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "REMATCH_ALREADY_ACCEPTED",
        "the rematch has already been accepted",
    )
    assert client.game(seats[0].name).event_count == before + 2


def test_accepts_racing_make_one_game(client: TavliClient) -> None:
    seats = finished_match(client)
    offer(client, seats[0])
    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(lambda seat: accept(client, seat), [seats[1]] * 6))
    assert len({answer.rematch.name for answer in answers}) == 1
    assert len({answer.seat_token for answer in answers}) == 1
    assert client.game(seats[0].name).event_count == all_events(client, seats[0].name)[-1].sequence + 1
    kinds = [event.kind for event in all_events(client, seats[0].name)]
    assert kinds.count(games_pb2.EVENT_KIND_REMATCH_ACCEPTED) == 1


def test_a_retried_accept_with_its_request_id_answers_the_same(client: TavliClient) -> None:
    seats = finished_match(client, "long-nardi")
    offer(client, seats[1], request_id="offer-1")
    assert offer(client, seats[1], request_id="offer-1").rematch.offered_by == games_pb2.SEAT_1
    first = accept(client, seats[0], request_id="accept-1")
    second = accept(client, seats[0], request_id="accept-1")
    assert first.rematch.name == second.rematch.name and first.seat_token == second.seat_token
    assert first.rematch.rule_set.variant == seats[0].game().rule_set.variant


def test_the_offer_and_the_rematch_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with running_server(db=db) as server, connected(server.port) as client:
        seats = finished_match(client)
        offer(client, seats[0])
        name, token1 = seats[0].name, seats[1].token
    with running_server(db=db) as server, connected(server.port) as client:
        assert client.game(name).rematch.offered_by == games_pb2.SEAT_0
        answer = client.games.AcceptRematch(
            games_pb2.AcceptRematchRequest(name=name, seat_token=token1), timeout=client.timeout
        )
        new_name = answer.rematch.name
    with running_server(db=db) as server, connected(server.port) as client:
        assert client.game(name).rematch.game == new_name
        assert client.game(new_name).phase == games_pb2.PHASE_OPENING


def test_the_engine_allows_a_rematch_once_after_the_match() -> None:
    match = Match(RuleSet(match_length=1))
    with pytest.raises(ActionError) as raised:
        match.offer_rematch(0)
    assert raised.value.reason == "MATCH_NOT_OVER"
    match.roll(0)
    loser = match.state.game.turn
    match.resign(loser, "single")
    match.accept(1 - loser)
    assert match.state.over
    match.offer_rematch(loser)
    with pytest.raises(ActionError) as raised:
        match.accept_rematch(loser, "games/x")
    assert raised.value.reason == "NO_REMATCH_OFFERED"
    match.accept_rematch(1 - loser, "games/x")
    replayed = Match.replay(RuleSet(match_length=1), match.events)
    assert replayed.state.rematch == match.state.rematch
    assert replayed.state.rematch is not None and replayed.state.rematch.game == "games/x"
