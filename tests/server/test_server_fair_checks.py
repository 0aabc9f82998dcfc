"""Record checking shared fairly: one client's many long records do not make another client's
small one wait behind them."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import grpc
import pytest

from tavli.engine.match import RuleSet
from tavli.engine.matfile import export_mat
from tavli.server.match_records import small
from tavli.server.quotas import QuotaLimits
from tavli.v1 import match_record_pb2, rules_service_pb2 as pb, rules_service_pb2_grpc
from tests.games import bot_match
from tests.server_play import RPC_TIMEOUT, as_web_client, connected, running_server

FLOOD = 24
SMALL_RECORD = Path(__file__).parents[1] / "data" / "mat" / "gnubg_3_point.mat"


def over_the_small_bound() -> str:
    """A record just long enough to be checked in a heavy process, not at once in the server: a
    20-game money session (about 15,000 characters)."""
    text = export_mat(bot_match(RuleSet(), seed=25, games=20))
    assert not small(text)
    return text


def check_request(text: str) -> pb.ValidateMatchRequest:
    return pb.ValidateMatchRequest(record=match_record_pb2.MatchRecord(text=text))


@pytest.mark.alone
@pytest.mark.slow
def test_a_clients_small_record_is_checked_while_another_client_floods_the_server_with_long_ones() -> None:
    long_record = export_mat(bot_match(RuleSet(), seed=25, games=120))  # about 90 KB: 0.3 s of checking
    everything_queued = QuotaLimits(checks_waiting_per_client=FLOOD, cpu_seconds_per_minute=10_000)
    with running_server(quotas=everything_queued) as running, connected(running.port) as flooder:
        answered: list[float] = []
        lock = threading.Lock()

        def on_answer(_: grpc.Future) -> None:
            with lock:
                answered.append(time.monotonic())

        flood_stub = rules_service_pb2_grpc.RulesServiceStub(flooder.channel)
        # The heavy work's processes up first, as `tavli serve` starts them: what is measured below
        # is the queue, not a process starting.
        flood_stub.ValidateMatch(check_request(over_the_small_bound()), timeout=600)
        flood = [
            flood_stub.ValidateMatch.future(check_request(long_record), timeout=600) for _ in range(FLOOD)
        ]
        for call in flood:
            call.add_done_callback(on_answer)
        while running.checks.waiting() < FLOOD - 1:
            time.sleep(0.01)
        with as_web_client(running, "203.0.113.7") as (channel, metadata):
            asked = time.monotonic()
            small = rules_service_pb2_grpc.RulesServiceStub(channel).ValidateMatch(
                check_request(SMALL_RECORD.read_text()), metadata=metadata, timeout=RPC_TIMEOUT
            )
            waited = time.monotonic() - asked
        with lock:
            flood_answered_before = len(answered)
        reports = [call.result() for call in flood]
        flood_seconds = max(answered) - asked
    print(
        "FIGURES",
        json.dumps(
            {
                "small_check_seconds": round(waited, 3),
                "flood_answered_before_it": flood_answered_before,
                "flood_seconds": round(flood_seconds, 1),
                "long_record_bytes": len(long_record),
            }
        ),
    )
    assert small.match_length == 3 and not small.problems
    assert all(report.games == 120 and not report.problems for report in reports)
    # the small record was checked beside the flood, not behind it: at most the one long record
    # that held the other thread had been answered
    assert flood_answered_before <= 1
