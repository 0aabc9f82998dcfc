"""The fair queue of heavy work: a client's many jobs never make another's one wait behind them, a
client never holds every thread, and the CPU each job spends is charged to its client."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator

import pytest

from tavli.server.errors import LimitReached
from tavli.server.fair_queue import FairQueue
from tavli.server.quotas import QuotaLimits, Quotas

FLOODER, OTHER = "192.0.2.1", "198.51.100.7"
WAIT = 30


@pytest.fixture
def quotas() -> Quotas:
    return Quotas(QuotaLimits(checks_waiting_per_client=30))


@pytest.fixture
def queue(quotas: Quotas) -> Iterator[FairQueue]:
    fair = FairQueue(quotas, threads=2, name="test-fair")
    yield fair
    fair.close()


def held_until(gate: threading.Event, started: list[str], name: str) -> Callable[[], str]:
    """A job that says it started, then holds its thread until ``gate`` opens."""

    def work() -> str:
        started.append(name)
        gate.wait(WAIT)
        return name

    return work


def test_one_clients_many_jobs_leave_a_thread_for_anothers_one(queue: FairQueue) -> None:
    async def scenario() -> tuple[list[str], int]:
        gate, started, finished = threading.Event(), [], []
        flood = [
            asyncio.ensure_future(queue.run(FLOODER, held_until(gate, started, f"big {n}")))
            for n in range(24)
        ]
        while not started:
            await asyncio.sleep(0.01)
        tiny = await asyncio.wait_for(queue.run(OTHER, lambda: "tiny"), WAIT)
        finished.append(tiny)
        still_waiting = queue.waiting()
        gate.set()
        finished.extend(await asyncio.gather(*flood))
        return finished, still_waiting

    finished, still_waiting = asyncio.run(scenario())
    assert finished[0] == "tiny"  # answered while every one of the flood's jobs but one waited
    assert still_waiting == 23
    assert sorted(finished[1:]) == sorted(f"big {n}" for n in range(24))


def test_the_client_with_more_cpu_left_goes_first(quotas: Quotas) -> None:
    quotas.charge_cpu(FLOODER, 20.0)  # it has spent most of its budget already
    queue = FairQueue(quotas, threads=1, name="test-fair")

    async def scenario() -> list[str]:
        gate, started, order = threading.Event(), [], []
        holding = asyncio.ensure_future(queue.run("203.0.113.9", held_until(gate, started, "holding")))
        while not started:
            await asyncio.sleep(0.01)
        waiting = [
            asyncio.ensure_future(queue.run(client, lambda client=client: order.append(client)))
            for client in (FLOODER, FLOODER, OTHER)  # the other comes last
        ]
        while queue.waiting() < 3:
            await asyncio.sleep(0.01)
        gate.set()
        await asyncio.gather(holding, *waiting)
        return order

    try:
        order = asyncio.run(scenario())
    finally:
        queue.close()
    assert order == [OTHER, FLOODER, FLOODER]


def test_a_job_that_fails_hands_its_error_to_its_caller_and_the_threads_go_on(queue: FairQueue) -> None:
    def broken() -> None:
        raise ValueError("a record the engine cannot read")

    async def scenario() -> str:
        with pytest.raises(ValueError, match="cannot read"):
            await queue.run(FLOODER, broken)
        return await queue.run(FLOODER, lambda: "next")

    assert asyncio.run(scenario()) == "next"


def test_the_cpu_a_job_spends_is_charged_to_its_client(quotas: Quotas, queue: FairQueue) -> None:
    def spend() -> int:
        return sum(n * n for n in range(2_000_000))

    asyncio.run(queue.run(FLOODER, spend))
    budget = quotas.limits.cpu_seconds_per_minute
    assert quotas.cpu_left(FLOODER) < budget
    assert quotas.cpu_left(OTHER) == budget


def test_a_client_whose_cpu_is_spent_is_refused_in_words_and_nothing_runs(
    quotas: Quotas, queue: FairQueue
) -> None:
    quotas.charge_cpu(FLOODER, 31.0)
    ran: list[str] = []
    with pytest.raises(LimitReached) as refused:
        asyncio.run(queue.run(FLOODER, lambda: ran.append("ran")))
    assert refused.value.reason == "CPU_BUDGET_SPENT"
    assert "30 s a minute" in str(refused.value) and "try again in" in str(refused.value)
    assert not ran
    assert asyncio.run(queue.run(OTHER, lambda: "other")) == "other"


def test_no_more_jobs_wait_for_a_client_than_its_quota() -> None:
    quotas = Quotas(QuotaLimits(checks_waiting_per_client=3))
    queue = FairQueue(quotas, threads=2, name="test-fair")

    async def scenario() -> LimitReached:
        gate, started = threading.Event(), []
        held = [asyncio.ensure_future(queue.run(FLOODER, held_until(gate, started, "running")))]
        while not started:
            await asyncio.sleep(0.01)
        held += [
            asyncio.ensure_future(queue.run(FLOODER, held_until(gate, started, str(n)))) for n in range(3)
        ]
        while queue.waiting() < 3:
            await asyncio.sleep(0.01)
        with pytest.raises(LimitReached) as refused:
            await queue.run(FLOODER, lambda: "one too many")
        gate.set()
        await asyncio.gather(*held)
        return refused.value

    try:
        refusal = asyncio.run(scenario())
    finally:
        queue.close()
    assert refusal.reason == "TOO_MANY_CHECKS"
    assert "more than 3 match records" in str(refusal)


def test_a_job_whose_call_is_cancelled_while_it_waits_is_never_done(queue: FairQueue) -> None:
    async def scenario() -> list[str]:
        gate, started, done = threading.Event(), [], []
        held = [asyncio.ensure_future(queue.run(FLOODER, held_until(gate, started, "held")))]
        while not started:
            await asyncio.sleep(0.01)
        cancelled = asyncio.ensure_future(queue.run(FLOODER, lambda: done.append("cancelled")))
        await asyncio.sleep(0.05)
        cancelled.cancel()
        await asyncio.sleep(0.05)
        assert queue.waiting() == 0
        gate.set()
        await asyncio.gather(*held)
        await queue.run(OTHER, lambda: done.append("after"))
        return done

    assert asyncio.run(scenario()) == ["after"]
