"""BotsService: the server seats a computer opponent that plays through the API like any client,
refuses in words what it cannot do, and stops its bots when it stops."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest

from tavli.clients import bots
from tavli.clients.client import Seat, TavliClient
from tavli.clients.seat_driver import play_seat
from tavli.server.app import Running
from tavli.server.quotas import QuotaLimits
from tavli.v1 import (
    board_pb2,
    bots_service_pb2 as pb,
    bots_service_pb2_grpc,
    games_service_pb2 as games_pb2,
    games_service_pb2_grpc,
    match_record_pb2,
    rules_service_pb2,
    rules_service_pb2_grpc,
)
from tests.server_play import as_web_client, connected, error_info, running_server

WAIT = 60
RECORD = Path(__file__).parents[1] / "data" / "mat" / "gnubg_3_point.mat"


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
    assert set(by_name["random"].variants) == {
        board_pb2.VARIANT_BACKGAMMON,
        board_pb2.VARIANT_LONG_NARDI,
        board_pb2.VARIANT_PLAKOTO,
        board_pb2.VARIANT_FEVGA,
    }
    if "gnubg" in by_name:
        assert list(by_name["gnubg"].variants) == [board_pb2.VARIANT_BACKGAMMON]
    assert all(bot.description for bot in listed.bots)


@pytest.mark.parametrize("variant", ["backgammon", "long-nardi", "plakoto", "fevga", "tavli"])
def test_a_seated_bot_plays_a_whole_match_against_a_client(server: Running, variant: str) -> None:
    with connected(server.port) as client:
        mine, theirs = client.create_game(variant=variant, match_length=3, players=("Ann", "Computer"))
        seated = stub(client).SeatBot(
            pb.SeatBotRequest(name=mine.name, seat_token=theirs.token, bot="heuristic")
        )
        assert (seated.seat, seated.bot) == (games_pb2.SEAT_1, "heuristic")
        stream = client.stream_seat(mine.name, mine.token)
        try:
            over = play_seat(stream, bots.create("random", seed=3), wait=WAIT)
        finally:
            stream.close()
        assert over.phase == games_pb2.PHASE_MATCH_OVER
        assert max(over.score) >= 3
        # every event of the bot's seat went through the API, one by one, as the log shows
        events = client.games.ListGameEvents(
            games_pb2.ListGameEventsRequest(name=mine.name, page_size=5000)
        ).events
        assert any(
            event.seat == games_pb2.SEAT_1 and event.kind == games_pb2.EVENT_KIND_PLAY for event in events
        )


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
        ("gnubg-at-tavli", grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_BOT"),  # it plays Portes only
        ("twice", grpc.StatusCode.FAILED_PRECONDITION, "SEAT_ALREADY_STREAMING"),
    ],
)
def test_what_cannot_be_seated_is_refused_in_words(
    server: Running, case: str, code: grpc.StatusCode, reason: str
) -> None:
    with connected(server.port) as client:
        if case == "gnubg-at-tavli":
            _, theirs = client.create_game(variant="tavli", match_length=3)
        else:
            _, theirs = client.create_game(variant="long-nardi" if case == "gnubg-at-nardi" else "backgammon")
        request = pb.SeatBotRequest(name=theirs.name, seat_token=theirs.token, bot="random")
        if case == "no-game":
            request.name = "games/none"
        elif case == "forged-token":
            request.seat_token = "x" * 40
        elif case == "unknown-bot":
            request.bot = "deep-blue"
        elif case in ("gnubg-at-nardi", "gnubg-at-tavli"):
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
        assert (
            len({thread.name for thread in threading.enumerate() if thread.name.startswith("bot-")} - before)
            == 3
        )
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        left = {thread.name for thread in threading.enumerate() if thread.name.startswith("bot-")} - before
        if not left:
            break
        time.sleep(0.05)
    assert not left


def seat_bot(client: TavliClient, seat: Seat, bot: str = "random") -> pb.SeatBotResponse:
    return stub(client).SeatBot(pb.SeatBotRequest(name=seat.name, seat_token=seat.token, bot=bot))


def refusal(call: Callable[[], object]) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as refused:
        call()
    return refused.value


def bot_named_at(client: TavliClient, seat: Seat) -> str:
    return stub(client).GetSeatBot(pb.GetSeatBotRequest(name=seat.name, seat=seat.seat)).bot


def test_a_client_gets_no_more_bots_playing_than_its_share_and_another_client_still_gets_one() -> None:
    with (
        running_server(quotas=QuotaLimits(bots_per_client=2), bots_play_each_other=True) as running,
        connected(running.port) as client,
    ):
        mine, theirs = client.create_game(match_length=25)
        seat_bot(client, theirs)
        seat_bot(client, mine)  # two bots playing each other: neither waits for a person
        _, theirs = client.create_game(match_length=5)
        refused = refusal(lambda: seat_bot(client, theirs))
        assert bot_named_at(client, theirs) == ""  # the refusal changed nothing
        with as_web_client(running, "203.0.113.7") as (channel, metadata):
            created = games_service_pb2_grpc.GamesServiceStub(channel).CreateGame(
                games_pb2.CreateGameRequest(rule_set=games_pb2.RuleSet(variant=1, match_length=5)),
                metadata=metadata,
            )
            request = pb.SeatBotRequest(name=created.game.name, seat_token=created.seat1_token)
            seated = bots_service_pb2_grpc.BotsServiceStub(channel).SeatBot(request, metadata=metadata)
    assert error_info(refused)[:2] == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_BOTS")
    assert "2 of this server's bots play for 127.0.0.1 already" in refused.details()
    assert seated.seat == games_pb2.SEAT_1


def wait_until_waiting_for_people(running: Running, count: int) -> list[str]:
    """The games whose bots wait for their person, once ``count`` of them do."""
    deadline = time.monotonic() + WAIT
    waiting = running.bot_seats.waiting_for_people("127.0.0.1")
    while len(waiting) < count and time.monotonic() < deadline:
        time.sleep(0.05)
        waiting = running.bot_seats.waiting_for_people("127.0.0.1")
    return [seat.name for seat in waiting]


def test_a_new_bot_takes_the_place_of_the_one_that_waited_longest_for_its_person() -> None:
    with running_server(quotas=QuotaLimits(bots_per_client=2)) as running, connected(running.port) as client:
        left = [client.create_game(match_length=1) for _ in range(2)]
        for _, theirs in left:
            seat_bot(client, theirs)
        assert sorted(wait_until_waiting_for_people(running, 2)) == sorted(mine.name for mine, _ in left)
        longest = running.bot_seats.waiting_for_people("127.0.0.1")[0]
        mine, theirs = next((mine, theirs) for mine, theirs in left if mine.name == longest.name)

        _, new = client.create_game(match_length=5)
        assert seat_bot(client, new).seat == games_pb2.SEAT_1
        assert running.bot_seats.quotas.bot_client((longest.name, longest.seat)) is None
        assert bot_named_at(client, theirs) == "random"  # the left game keeps its bot, off the table
        assert mine.game().phase != games_pb2.PHASE_MATCH_OVER

        # its person plays on: the bot comes back to its seat and plays the match out
        stream = client.stream_seat(mine.name, mine.token)
        try:
            over = play_seat(stream, bots.create("random", seed=9), wait=WAIT)
        finally:
            stream.close()
        assert over.phase == games_pb2.PHASE_MATCH_OVER


def test_a_bot_that_comes_back_counts_again_and_takes_the_place_of_one_that_waits() -> None:
    with running_server(quotas=QuotaLimits(bots_per_client=1)) as running, connected(running.port) as client:
        quotas = running.bot_seats.quotas
        first_mine, first_theirs = client.create_game(match_length=1)
        seat_bot(client, first_theirs)
        wait_until_waiting_for_people(running, 1)
        second_mine, second_theirs = client.create_game(match_length=1)
        seat_bot(client, second_theirs)  # the first game's bot goes off the table
        assert wait_until_waiting_for_people(running, 1) == [second_mine.name]
        assert quotas.bot_client((first_theirs.name, first_theirs.seat)) is None

        # the first game's person plays on: its bot comes back, counted again, and the second
        # game's bot, waiting for its person, goes off the table in its place
        stream = client.stream_seat(first_mine.name, first_mine.token)
        try:
            over = play_seat(stream, bots.create("random", seed=11), wait=WAIT)
        finally:
            stream.close()
        assert over.phase == games_pb2.PHASE_MATCH_OVER
        assert quotas.bot_client((second_theirs.name, second_theirs.seat)) is None
        assert bot_named_at(client, second_theirs) == "random"
        assert second_mine.game().phase != games_pb2.PHASE_MATCH_OVER


def test_a_bot_that_left_its_seat_no_longer_counts_against_its_client() -> None:
    with running_server(quotas=QuotaLimits(bots_per_client=1)) as running, connected(running.port) as client:
        mine, theirs = client.create_game(match_length=1)
        seat_bot(client, theirs)
        stream = client.stream_seat(mine.name, mine.token)
        try:
            over = play_seat(stream, bots.create("random", seed=5), wait=WAIT)
        finally:
            stream.close()
        assert over.phase == games_pb2.PHASE_MATCH_OVER
        _, next_theirs = client.create_game(match_length=1)
        deadline = time.monotonic() + WAIT  # the bot's thread ends after the match's last event
        while running.bot_seats.quotas.bot_client((theirs.name, theirs.seat)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert seat_bot(client, next_theirs).seat == games_pb2.SEAT_1


def test_both_seats_of_a_game_go_to_bots_only_where_the_operator_allows_it() -> None:
    with running_server() as running, connected(running.port) as client:
        mine, theirs = client.create_game(match_length=1)
        seat_bot(client, theirs)
        refused = refusal(lambda: seat_bot(client, mine))
        assert bot_named_at(client, mine) == ""
    assert error_info(refused)[:2] == (grpc.StatusCode.FAILED_PRECONDITION, "BOTS_MAY_NOT_PLAY_EACH_OTHER")
    assert "the other seat of this game is the random bot's already" in refused.details()

    with running_server(bots_play_each_other=True) as running, connected(running.port) as client:
        mine, theirs = client.create_game(match_length=1)
        seat_bot(client, theirs)
        seat_bot(client, mine)
        deadline = time.monotonic() + WAIT
        while mine.game().phase != games_pb2.PHASE_MATCH_OVER and time.monotonic() < deadline:
            time.sleep(0.1)
        assert mine.game().phase == games_pb2.PHASE_MATCH_OVER


def test_list_bots_says_the_longest_match_the_server_seats_a_bot_at() -> None:
    with running_server(bot_match_points=7) as running, connected(running.port) as client:
        listed = stub(client).ListBots(pb.ListBotsRequest())
        _, theirs = client.create_game(match_length=listed.max_match_length + 1)
        refused = refusal(lambda: seat_bot(client, theirs))
        _, longest = client.create_game(match_length=listed.max_match_length)
        assert seat_bot(client, longest).bot == "random"
    assert listed.max_match_length == 7
    assert error_info(refused)[:2] == (grpc.StatusCode.FAILED_PRECONDITION, "MATCH_TOO_LONG_FOR_BOTS")
    assert "matches of up to 7 points" in refused.details()


def test_a_bot_is_not_seated_at_a_match_longer_than_the_server_allows() -> None:
    with running_server() as running, connected(running.port) as client:
        _, theirs = client.create_game(match_length=32_767)
        refused = refusal(lambda: seat_bot(client, theirs))
        _, allowed = client.create_game(match_length=25)
        assert seat_bot(client, allowed).bot == "random"
    assert error_info(refused)[:2] == (grpc.StatusCode.FAILED_PRECONDITION, "MATCH_TOO_LONG_FOR_BOTS")
    assert "matches of up to 25 points (and money play, up to 100 games), not of 32767" in refused.details()


def test_a_bots_cpu_is_charged_to_the_client_that_seated_it() -> None:
    tiny_budget = QuotaLimits(cpu_seconds_per_minute=0.001, bots_per_client=10)
    with (
        running_server(quotas=tiny_budget, bots_play_each_other=True) as running,
        connected(running.port) as client,
    ):
        mine, theirs = client.create_game(match_length=3)
        seat_bot(client, theirs, "heuristic")
        seat_bot(client, mine, "heuristic")
        deadline = time.monotonic() + WAIT
        while mine.game().phase != games_pb2.PHASE_MATCH_OVER and time.monotonic() < deadline:
            time.sleep(0.1)
        _, next_theirs = client.create_game(match_length=1)
        no_bot = refusal(lambda: seat_bot(client, next_theirs))
        record = match_record_pb2.MatchRecord(text=RECORD.read_text())
        check = rules_service_pb2.ValidateMatchRequest(record=record)
        no_check = refusal(
            lambda: rules_service_pb2_grpc.RulesServiceStub(client.channel).ValidateMatch(check)
        )
        with as_web_client(running, "203.0.113.7") as (channel, metadata):
            other = rules_service_pb2_grpc.RulesServiceStub(channel).ValidateMatch(check, metadata=metadata)
    for refused in (no_bot, no_check):
        assert error_info(refused)[:2] == (grpc.StatusCode.RESOURCE_EXHAUSTED, "CPU_BUDGET_SPENT")
        assert "127.0.0.1 has spent its 0.001 s a minute of the server's CPU" in refused.details()
    assert other.match_length == 3  # another client's CPU is its own
