"""A small match record (a 3- or 5-point match) is checked and imported at once in the server,
which costs less than handing it to a heavy process; a longer one always goes to the processes,
in its client's turn."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tavli.engine.match import RuleSet
from tavli.engine.matfile import export_mat
from tavli.server import match_records
from tavli.server.errors import LimitReached
from tavli.server.fair_queue import FairQueue
from tavli.server.match_records import SMALL_RECORD_CHARACTERS, SMALL_RECORD_LINES, small
from tavli.server.quotas import QuotaLimits, Quotas
from tavli.v1 import match_record_pb2
from tests.games import bot_match
from tests.server.heavy_jobs import started_jobs
from tests.server.test_server_fair_checks import over_the_small_bound

FLOODER, HOLDERS = "192.0.2.1", ("198.51.100.7", "203.0.113.9")
JOBS = "tests.server.heavy_jobs"
WAITING_PER_CLIENT = 3
WAIT = 60
MATS = Path(__file__).parents[1] / "data" / "mat"
THREE_POINTS = (MATS / "gnubg_3_point.mat").read_text()


def record(text: str) -> match_record_pb2.MatchRecord:
    return match_record_pb2.MatchRecord(text=text)


@pytest.fixture
def quotas() -> Quotas:
    return Quotas(QuotaLimits(checks_waiting_per_client=WAITING_PER_CLIENT))


@pytest.fixture
def queue(quotas: Quotas) -> Iterator[FairQueue]:
    fair = FairQueue(quotas, processes=2, module=JOBS)
    yield fair
    fair.close()


def test_records_of_short_matches_are_small_and_a_long_session_is_not() -> None:
    five_points = export_mat(bot_match(RuleSet(match_length=5), seed=25))
    assert small(THREE_POINTS) and small(five_points)
    assert len(over_the_small_bound()) > SMALL_RECORD_CHARACTERS


def test_a_record_of_many_short_lines_is_not_small_however_few_its_characters() -> None:
    lines = "  1) 31: 8/5 6/5\n" * SMALL_RECORD_LINES
    assert len(lines) < SMALL_RECORD_CHARACTERS
    assert not small(lines)
    assert small(lines[: -len("  1) 31: 8/5 6/5\n")])


def test_a_small_record_is_answered_while_every_process_is_busy_and_its_clients_queue_is_full(
    quotas: Quotas, queue: FairQueue, tmp_path: Path
) -> None:
    folder = str(tmp_path)
    long_record = over_the_small_bound()

    async def scenario() -> None:
        holding = [
            asyncio.ensure_future(queue.run(client, "held", folder, client)) for client in HOLDERS
        ]  # others' work in every process
        while set(started_jobs(tmp_path)) != set(HOLDERS):
            await asyncio.sleep(0.01)
        longs = [
            asyncio.ensure_future(match_records.validated(record(long_record), queue, FLOODER))
            for _ in range(WAITING_PER_CLIENT)
        ]
        while queue.waiting() < WAITING_PER_CLIENT:  # the long records wait for a process
            await asyncio.sleep(0.01)
        with pytest.raises(LimitReached) as refused:
            await match_records.validated(record(long_record), queue, FLOODER)
        assert refused.value.reason == "TOO_MANY_CHECKS"

        checked = await asyncio.wait_for(match_records.validated(record(THREE_POINTS), queue, FLOODER), WAIT)
        stored = await asyncio.wait_for(match_records.imported(record(THREE_POINTS), queue, FLOODER), WAIT)

        assert checked.match_length == 3 and checked.games > 0 and not checked.problems
        assert stored.rules.match_length == 3 and stored.played.events
        assert queue.waiting() == WAITING_PER_CLIENT and queue.running() == len(HOLDERS)  # nothing moved
        assert not any(call.done() for call in longs)
        (tmp_path / "gate").touch()
        reports = await asyncio.wait_for(asyncio.gather(*longs), WAIT)
        assert all(report.games == 20 and not report.problems for report in reports)
        await asyncio.gather(*holding)

    asyncio.run(scenario())
    assert quotas.cpu_left(FLOODER) < quotas.limits.cpu_seconds_per_minute  # the small ones' CPU too


def test_a_small_records_check_is_charged_to_its_client(quotas: Quotas, queue: FairQueue) -> None:
    asyncio.run(match_records.validated(record(THREE_POINTS), queue, FLOODER))
    budget = quotas.limits.cpu_seconds_per_minute
    assert quotas.cpu_left(FLOODER) < budget
    assert quotas.cpu_left(HOLDERS[0]) == budget
    assert queue.pool.process_ids == []  # no process was needed: none started


def test_a_client_whose_cpu_is_spent_is_refused_a_small_record_too(quotas: Quotas, queue: FairQueue) -> None:
    quotas.charge_cpu(FLOODER, 31.0)
    with pytest.raises(LimitReached) as refused:
        asyncio.run(match_records.validated(record(THREE_POINTS), queue, FLOODER))
    assert refused.value.reason == "CPU_BUDGET_SPENT"
