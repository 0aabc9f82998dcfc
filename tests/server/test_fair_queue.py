"""The fair queue of heavy work, done in processes: a client's many jobs never make another's one
wait behind them, a client never holds every process, the CPU each job spends is charged to its
client, a job whose caller goes away frees its process, and one whose process dies fails in words."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest

from tavli.server.errors import BadRequest, HeavyWorkUnavailable, LimitReached
from tavli.server.fair_queue import FairQueue
from tavli.server.processes import NICENESS
from tavli.server.quotas import QuotaLimits, Quotas
from tests.server.heavy_jobs import started_jobs

FLOODER, OTHER = "192.0.2.1", "198.51.100.7"
JOBS = "tests.server.heavy_jobs"
WAIT = 60


@pytest.fixture
def quotas() -> Quotas:
    return Quotas(QuotaLimits(checks_waiting_per_client=30))


@pytest.fixture
def queue(quotas: Quotas) -> Iterator[FairQueue]:
    fair = FairQueue(quotas, processes=2, module=JOBS)
    yield fair
    fair.close()


async def until_started(folder: Path, *names: str) -> dict[str, int]:
    """The jobs that started, once ``names`` are among them."""
    for _ in range(WAIT * 100):
        jobs = started_jobs(folder)
        if all(name in jobs for name in names):
            return jobs
        await asyncio.sleep(0.01)
    raise AssertionError(f"{names} did not start")


def open_gate(folder: Path) -> None:
    (folder / "gate").touch()


def test_one_clients_many_jobs_leave_a_process_for_anothers_one(queue: FairQueue, tmp_path: Path) -> None:
    folder = str(tmp_path)

    async def scenario() -> tuple[list[str], int]:
        finished: list[str] = []
        flood = [asyncio.ensure_future(queue.run(FLOODER, "held", folder, f"big {n}")) for n in range(24)]
        await until_started(tmp_path, "big 0")
        tiny = await asyncio.wait_for(queue.run(OTHER, "quick", folder, "tiny"), WAIT)
        finished.append(tiny)
        still_waiting = queue.waiting()
        open_gate(tmp_path)
        finished.extend(await asyncio.gather(*flood))
        return finished, still_waiting

    finished, still_waiting = asyncio.run(scenario())
    assert finished[0] == "tiny"  # answered while every one of the flood's jobs but one waited
    assert still_waiting == 23
    assert sorted(finished[1:]) == sorted(f"big {n}" for n in range(24))


def test_the_client_with_more_cpu_left_goes_first(quotas: Quotas, tmp_path: Path) -> None:
    quotas.charge_cpu(FLOODER, 20.0)  # it has spent most of its budget already
    queue = FairQueue(quotas, processes=1, module=JOBS)
    folder = str(tmp_path)

    async def scenario() -> list[str]:
        order: list[str] = []
        holding = asyncio.ensure_future(queue.run("203.0.113.9", "held", folder, "holding"))
        await until_started(tmp_path, "holding")
        waiting = [
            asyncio.ensure_future(queue.run(client, "quick", folder, f"{client} {n}"))
            for n, client in enumerate((FLOODER, FLOODER, OTHER))  # the other comes last
        ]
        for call in waiting:
            call.add_done_callback(lambda done: order.append(done.result().split()[0]))
        while queue.waiting() < 3:
            await asyncio.sleep(0.01)
        open_gate(tmp_path)
        await asyncio.gather(holding, *waiting)
        return order

    try:
        order = asyncio.run(scenario())
    finally:
        queue.close()
    assert order == [OTHER, FLOODER, FLOODER]


def test_a_refusal_in_a_job_reaches_its_caller_as_it_is_and_the_process_goes_on(queue: FairQueue) -> None:
    async def scenario() -> int:
        with pytest.raises(BadRequest, match="a record the engine cannot read"):
            await queue.run(FLOODER, "refused", "a record the engine cannot read")
        return await queue.run(FLOODER, "spend", 10)  # type: ignore[no-any-return]

    assert asyncio.run(scenario()) == 285


def test_any_other_error_in_a_job_fails_it_unavailable_in_words_and_the_process_goes_on(
    queue: FairQueue,
) -> None:
    async def scenario() -> tuple[HeavyWorkUnavailable, list[int], list[int]]:
        await queue.run(FLOODER, "spend", 1)  # the processes are up
        before = queue.pool.process_ids
        with pytest.raises(HeavyWorkUnavailable) as failed:
            await queue.run(FLOODER, "broken", "a bug")
        return failed.value, before, queue.pool.process_ids

    failure, before, after = asyncio.run(scenario())
    assert failure.reason == "HEAVY_WORK_UNAVAILABLE"
    assert "could not answer" in str(failure) and "ValueError: a bug" in str(failure)
    assert before == after


def test_the_cpu_a_job_spends_is_charged_to_its_client(quotas: Quotas, queue: FairQueue) -> None:
    asyncio.run(queue.run(FLOODER, "spend", 2_000_000))
    budget = quotas.limits.cpu_seconds_per_minute
    assert quotas.cpu_left(FLOODER) < budget
    assert quotas.cpu_left(OTHER) == budget


def test_a_client_whose_cpu_is_spent_is_refused_in_words_and_nothing_runs(
    quotas: Quotas, queue: FairQueue, tmp_path: Path
) -> None:
    quotas.charge_cpu(FLOODER, 31.0)
    with pytest.raises(LimitReached) as refused:
        asyncio.run(queue.run(FLOODER, "quick", str(tmp_path), "refused"))
    assert refused.value.reason == "CPU_BUDGET_SPENT"
    assert "30 s a minute" in str(refused.value) and "try again in" in str(refused.value)
    assert asyncio.run(queue.run(OTHER, "quick", str(tmp_path), "other")) == "other"
    assert set(started_jobs(tmp_path)) == {"other"}


def test_no_more_jobs_wait_for_a_client_than_its_quota(tmp_path: Path) -> None:
    quotas = Quotas(QuotaLimits(checks_waiting_per_client=3))
    queue = FairQueue(quotas, processes=2, module=JOBS)
    folder = str(tmp_path)

    async def scenario() -> LimitReached:
        held = [asyncio.ensure_future(queue.run(FLOODER, "held", folder, "running"))]
        await until_started(tmp_path, "running")
        held += [asyncio.ensure_future(queue.run(FLOODER, "held", folder, str(n))) for n in range(3)]
        while queue.waiting() < 3:
            await asyncio.sleep(0.01)
        with pytest.raises(LimitReached) as refused:
            await queue.run(FLOODER, "quick", folder, "one too many")
        open_gate(tmp_path)
        await asyncio.gather(*held)
        return refused.value

    try:
        refusal = asyncio.run(scenario())
    finally:
        queue.close()
    assert refusal.reason == "TOO_MANY_CHECKS"
    assert "more than 3 match records" in str(refusal)


def test_a_job_whose_call_is_cancelled_while_it_waits_is_never_done(queue: FairQueue, tmp_path: Path) -> None:
    folder = str(tmp_path)

    async def scenario() -> int:
        held = asyncio.ensure_future(queue.run(FLOODER, "held", folder, "held"))
        await until_started(tmp_path, "held")
        cancelled = asyncio.ensure_future(queue.run(FLOODER, "quick", folder, "cancelled"))
        while queue.waiting() < 1:
            await asyncio.sleep(0.01)
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cancelled
        waiting = queue.waiting()
        open_gate(tmp_path)
        await held
        await queue.run(OTHER, "quick", folder, "after")
        return waiting

    assert asyncio.run(scenario()) == 0
    assert set(started_jobs(tmp_path)) == {"held", "after"}


def test_a_job_whose_call_is_cancelled_while_it_runs_frees_its_process_for_the_next(
    tmp_path: Path,
) -> None:
    queue = FairQueue(Quotas(QuotaLimits()), processes=1, module=JOBS)
    folder = str(tmp_path)

    async def scenario() -> tuple[int, list[int], str]:
        running = asyncio.ensure_future(queue.run(FLOODER, "held", folder, "given up"))
        worker = (await until_started(tmp_path, "given up"))["given up"]
        running.cancel()  # the gate never opens: only a new process answers the next job
        with pytest.raises(asyncio.CancelledError):
            await running
        after = await asyncio.wait_for(queue.run(OTHER, "quick", folder, "next"), WAIT)
        return worker, queue.pool.process_ids, after

    try:
        worker, processes, after = asyncio.run(scenario())
    finally:
        queue.close()
    assert after == "next"
    assert worker not in processes and len(processes) == 1
    assert not _alive(worker)


def test_a_job_cancelled_while_it_runs_is_charged_the_cpu_it_spent(quotas: Quotas, tmp_path: Path) -> None:
    queue = FairQueue(quotas, processes=1, module=JOBS)

    async def scenario() -> None:
        running = asyncio.ensure_future(queue.run(FLOODER, "spin", str(tmp_path), "spinning", 0.5))
        await until_started(tmp_path, "spinning")  # after half a second of CPU
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running

    try:
        asyncio.run(scenario())
    finally:
        queue.close()
    budget = quotas.limits.cpu_seconds_per_minute
    assert quotas.cpu_left(FLOODER) <= budget - 0.5
    assert quotas.cpu_left(OTHER) == budget


def test_a_job_whose_process_dies_fails_unavailable_in_words_and_a_new_process_takes_the_next(
    tmp_path: Path,
) -> None:
    queue = FairQueue(Quotas(QuotaLimits()), processes=1, module=JOBS)
    folder = str(tmp_path)

    async def scenario() -> tuple[HeavyWorkUnavailable, int, list[int], str]:
        running = asyncio.ensure_future(queue.run(FLOODER, "held", folder, "killed"))
        worker = (await until_started(tmp_path, "killed"))["killed"]
        os.kill(worker, signal.SIGKILL)
        with pytest.raises(HeavyWorkUnavailable) as failed:
            await running
        after = await asyncio.wait_for(queue.run(OTHER, "quick", folder, "next"), WAIT)
        return failed.value, worker, queue.pool.process_ids, after

    try:
        failure, worker, processes, after = asyncio.run(scenario())
    finally:
        queue.close()
    assert failure.reason == "HEAVY_WORK_UNAVAILABLE"
    assert "stopped while it worked: ask again" in str(failure)
    assert after == "next" and worker not in processes


def _alive(process_id: int) -> bool:
    try:
        os.kill(process_id, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_small_job_is_done_here_and_refuses_or_fails_as_in_a_process(
    queue: FairQueue, tmp_path: Path
) -> None:
    async def scenario() -> HeavyWorkUnavailable:
        assert await queue.run(OTHER, "quick", str(tmp_path), "small", small=True) == "small"
        with pytest.raises(BadRequest, match="a record the engine cannot read"):
            await queue.run(FLOODER, "refused", "a record the engine cannot read", small=True)
        with pytest.raises(HeavyWorkUnavailable) as failed:
            await queue.run(FLOODER, "broken", "a bug", small=True)
        return failed.value

    failure = asyncio.run(scenario())
    assert started_jobs(tmp_path) == {"small": os.getpid()}
    assert failure.reason == "HEAVY_WORK_UNAVAILABLE" and "ValueError: a bug" in str(failure)


def test_the_processes_run_at_a_lower_cpu_priority_than_the_server(queue: FairQueue) -> None:
    server = os.getpriority(os.PRIO_PROCESS, 0)
    wanted = min(server + NICENESS, 19)

    async def scenario() -> dict[int, int]:
        await asyncio.gather(*(queue.run(client, "spend", 10) for client in (FLOODER, OTHER)))
        return {pid: os.getpriority(os.PRIO_PROCESS, pid) for pid in queue.pool.process_ids}

    priorities = asyncio.run(scenario())
    assert len(priorities) == 2 and set(priorities.values()) == {wanted}
    assert os.getpriority(os.PRIO_PROCESS, 0) == server


def test_a_jobs_arguments_and_answer_cross_the_pipe_off_the_event_loop(
    queue: FairQueue, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    crossed_on: set[str] = set()  # the threads that wrote to or read from a process's pipe

    def noting_the_thread(work: Any) -> Any:
        def crossed(*arguments: Any) -> Any:
            crossed_on.add(threading.current_thread().name)
            return work(*arguments)

        return crossed

    for name in ("send", "recv"):
        monkeypatch.setattr(Connection, name, noting_the_thread(getattr(Connection, name)))

    async def scenario() -> str:
        return await asyncio.wait_for(queue.run(OTHER, "quick", str(tmp_path), "a long answer"), WAIT)

    assert asyncio.run(scenario()) == "a long answer"
    # On the process's own thread: neither the loop's nor one the store and the folds share.
    assert crossed_on and all(name.startswith("tavli-pipe") for name in crossed_on)
