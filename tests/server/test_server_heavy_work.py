"""Heavy work (record checks, imports, exports) done in processes of the server's own: a process
killed mid-import fails that import in words and stores nothing, a caller that goes away frees its
process, and an import is stored whole or not at all."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tavli.clients.client import TavliClient
from tavli.engine.matfile import check_match_record, export_mat
from tavli.engine.rules import RuleSet
from tavli.server import convert
from tavli.server.app import Running
from tavli.server.quotas import QuotaLimits
from tavli.v1 import (
    games_service_pb2 as games_pb2,
    games_service_pb2_grpc,
    match_record_pb2,
    rules_service_pb2_grpc,
)
from tests.games import bot_match
from tests.server.test_server_fair_checks import check_request, over_the_small_bound
from tests.server_play import RPC_TIMEOUT, all_events, as_web_client, connected, error_info, running_server

WAIT = 120.0
GAMES = 400  # a record of about 330 KB: seconds of checking and folding


@pytest.fixture(scope="module")
def long_record() -> str:
    return export_mat(bot_match(RuleSet(), seed=25, games=GAMES))


@pytest.fixture
def server() -> Iterator[Running]:
    roomy = QuotaLimits(cpu_seconds_per_minute=10_000)
    with running_server(heavy_processes=1, quotas=roomy) as running:
        yield running


def import_request(record: str) -> games_pb2.ImportMatchRequest:
    return games_pb2.ImportMatchRequest(record=match_record_pb2.MatchRecord(text=record))


def until_running(running: Running) -> list[int]:
    """The heavy work's processes, once a job is being done."""
    deadline = time.monotonic() + WAIT
    while running.checks.running() < 1 or not running.checks.pool.process_ids:
        assert time.monotonic() < deadline, "the job never started"
        time.sleep(0.01)
    return running.checks.pool.process_ids


def stored_games(client: TavliClient) -> list[str]:
    return [
        game.name for game in client.games.ListGames(games_pb2.ListGamesRequest(), timeout=RPC_TIMEOUT).games
    ]


def health(client: TavliClient) -> int:
    stub = health_pb2_grpc.HealthStub(client.channel)
    return stub.Check(health_pb2.HealthCheckRequest(), timeout=RPC_TIMEOUT).status  # type: ignore[no-any-return]


@pytest.mark.slow
def test_a_process_killed_mid_import_fails_it_in_words_stores_nothing_and_the_server_lives(
    server: Running, long_record: str
) -> None:
    with connected(server.port) as client:
        stub = games_service_pb2_grpc.GamesServiceStub(client.channel)
        call = stub.ImportMatch.future(import_request(long_record), timeout=WAIT)
        (worker,) = until_running(server)
        os.kill(worker, signal.SIGKILL)
        with pytest.raises(grpc.RpcError) as failed:
            call.result()
        code, reason, _ = error_info(failed.value)
        assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "HEAVY_WORK_UNAVAILABLE")
        assert "stopped while it worked: ask again" in failed.value.details()
        assert stored_games(client) == []
        assert health(client) == health_pb2.HealthCheckResponse.SERVING
        assert worker not in server.checks.pool.process_ids
        after = client.validate_match(over_the_small_bound())  # a new process answers
        assert after.games == 20 and not after.problems
    assert server.checks.running() == 0


@pytest.mark.slow
def test_a_caller_that_goes_away_frees_its_process_for_another_client(
    server: Running, long_record: str
) -> None:
    with connected(server.port) as client:
        stub = games_service_pb2_grpc.GamesServiceStub(client.channel)
        call = stub.ImportMatch.future(import_request(long_record), timeout=WAIT)
        (worker,) = until_running(server)
        call.cancel()
        with as_web_client(server, "203.0.113.7") as (channel, metadata):
            other = rules_service_pb2_grpc.RulesServiceStub(channel).ValidateMatch(
                check_request(over_the_small_bound()), metadata=metadata, timeout=WAIT
            )
        assert other.games == 20 and not other.problems
        assert worker not in server.checks.pool.process_ids  # killed, not left to finish the import
        assert len(server.checks.pool.process_ids) == 1
        assert stored_games(client) == []


@pytest.mark.slow
def test_an_import_is_stored_whole_with_every_event_of_its_record(server: Running, long_record: str) -> None:
    with connected(server.port) as client:
        client.timeout = WAIT  # the heavy process yields the CPU to everything else on a busy machine
        seat, _ = client.import_match(long_record)
        assert stored_games(client) == [seat.name]
        stored = all_events(client, seat.name)
    expected = check_match_record(long_record).events
    assert len(stored) == len(expected) > 20_000
    assert stored == [convert.event_message(sequence, event) for sequence, event in enumerate(expected)]
