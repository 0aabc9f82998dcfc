"""BotsService: the server seats a computer opponent that plays through the API like any client,
refuses in words what it cannot do, and stops its bots when it stops."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import grpc
import pytest

from tavli.clients import bots
from tavli.clients.seat_driver import play_seat
from tavli.server.app import Running
from tavli.v1 import board_pb2, bots_service_pb2 as pb, bots_service_pb2_grpc, games_service_pb2 as games_pb2
from tests.server_play import connected, error_info, running_server

WAIT = 60


@pytest.fixture(scope="module")
def server() -> Iterator[Running]:
    with running_server(bots=3) as running:
        yield running


def stub(client: object) -> bots_service_pb2_grpc.BotsServiceStub:
    return bots_service_pb2_grpc.BotsServiceStub(client.channel)  # type: ignore[attr-defined]


def test_list_bots_names_each_with_the_variants_it_plays(server: Running) -> None:
    with connected(server.port) as client:
        listed = stub(client).ListBots(pb.ListBotsRequest())
    by_name = {bot.name: bot for bot in listed.bots}
    assert listed.bots[0].name == "heuristic"  # the default first
    assert set(by_name) >= {"heuristic", "random"}
    assert set(by_name["random"].variants) == {board_pb2.VARIANT_BACKGAMMON, board_pb2.VARIANT_LONG_NARDI}
    if "gnubg" in by_name:
        assert list(by_name["gnubg"].variants) == [board_pb2.VARIANT_BACKGAMMON]
    assert all(bot.description for bot in listed.bots)


@pytest.mark.parametrize("variant", ["backgammon", "long-nardi"])
def test_a_seated_bot_plays_a_whole_match_against_a_client(server: Running, variant: str) -> None:
    with connected(server.port) as client:
        mine, theirs = client.create_game(variant=variant, match_length=3, players=("Ann", "Computer"))
        seated = stub(client).SeatBot(pb.SeatBotRequest(name=mine.name, seat_token=theirs.token, bot="heuristic"))
        assert (seated.seat, seated.bot) == (games_pb2.SEAT_1, "heuristic")
        stream = client.stream_seat(mine.name, mine.token)
        try:
            over = play_seat(stream, bots.create("random", seed=3), wait=WAIT)
        finally:
            stream.close()
        assert over.phase == games_pb2.PHASE_MATCH_OVER
        assert max(over.score) >= 3
        # every event of the bot's seat went through the API, one by one, as the log shows
        events = client.games.ListGameEvents(games_pb2.ListGameEventsRequest(name=mine.name, page_size=5000)).events
        assert any(event.seat == games_pb2.SEAT_1 and event.kind == games_pb2.EVENT_KIND_PLAY for event in events)


def test_the_default_bot_is_one_that_plays_the_variant(server: Running) -> None:
    with connected(server.port) as client:
        _, theirs = client.create_game(variant="long-nardi", match_length=1)
        seated = stub(client).SeatBot(pb.SeatBotRequest(name=theirs.name, seat_token=theirs.token))
    assert seated.bot == "heuristic" and seated.seat == games_pb2.SEAT_1


@pytest.mark.parametrize(
    ("case", "code", "reason"),
    [
        ("no-game", grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND"),
        ("forged-token", grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT_TOKEN"),
        ("unknown-bot", grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_BOT"),
        ("gnubg-at-nardi", grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_BOT"),
        ("twice", grpc.StatusCode.FAILED_PRECONDITION, "SEAT_ALREADY_STREAMING"),
    ],
)
def test_what_cannot_be_seated_is_refused_in_words(server: Running, case: str, code: grpc.StatusCode, reason: str) -> None:
    with connected(server.port) as client:
        _, theirs = client.create_game(variant="long-nardi" if case == "gnubg-at-nardi" else "backgammon")
        request = pb.SeatBotRequest(name=theirs.name, seat_token=theirs.token, bot="random")
        if case == "no-game":
            request.name = "games/none"
        elif case == "forged-token":
            request.seat_token = "x" * 40
        elif case == "unknown-bot":
            request.bot = "deep-blue"
        elif case == "gnubg-at-nardi":
            request.bot = "gnubg"
        elif case == "twice":
            stub(client).SeatBot(request)
        with pytest.raises(grpc.RpcError) as refused:
            stub(client).SeatBot(request)
    assert error_info(refused.value)[:2] == (code, reason)
    assert refused.value.details() and "internal" not in refused.value.details().lower()


def test_a_match_that_is_over_gets_no_bot(server: Running) -> None:
    with connected(server.port) as client:
        mine, theirs = client.create_game(variant="backgammon", match_length=1)
        opened = mine.roll()
        resigner, answerer = (mine, theirs) if opened.turn == games_pb2.SEAT_0 else (theirs, mine)
        resigner.observe(opened)
        answerer.observe(resigner.resign("single"))
        assert answerer.accept().phase == games_pb2.PHASE_MATCH_OVER
        with pytest.raises(grpc.RpcError) as refused:
            stub(client).SeatBot(pb.SeatBotRequest(name=mine.name, seat_token=theirs.token))
    assert error_info(refused.value)[:2] == (grpc.StatusCode.FAILED_PRECONDITION, "MATCH_OVER")


def test_no_more_bots_than_the_server_hosts() -> None:
    with running_server(bots=2) as running, connected(running.port) as client:
        for _ in range(2):
            _, theirs = client.create_game(variant="backgammon", match_length=1)
            stub(client).SeatBot(pb.SeatBotRequest(name=theirs.name, seat_token=theirs.token))
        _, theirs = client.create_game(variant="backgammon", match_length=1)
        with pytest.raises(grpc.RpcError) as refused:
            stub(client).SeatBot(pb.SeatBotRequest(name=theirs.name, seat_token=theirs.token))
    assert error_info(refused.value)[:2] == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_BOTS")
    assert "2" in refused.value.details()


def test_stopping_the_server_stops_its_bots() -> None:
    before = {thread.name for thread in threading.enumerate()}
    with running_server() as running, connected(running.port) as client:
        for _ in range(3):
            _, theirs = client.create_game(variant="backgammon", match_length=5)
            stub(client).SeatBot(pb.SeatBotRequest(name=theirs.name, seat_token=theirs.token))
        assert len({thread.name for thread in threading.enumerate() if thread.name.startswith("bot-")} - before) == 3
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        left = {thread.name for thread in threading.enumerate() if thread.name.startswith("bot-")} - before
        if not left:
            break
        time.sleep(0.05)
    assert not left
