"""Where a short match record is best checked: in the server's own process, or handed to a heavy
process (the bound :data:`tavli.server.match_records.SMALL_RECORD_CHARACTERS` and ``_LINES`` rest on it).

    .venv/bin/python -m benchmarks.small_records [--rounds 20]

For records of matches of 1 to 11 points (the tests' random players, GNU Backgammon's own 3-point
record of tests/data, and the longest record of ../shared/realmat/ within the bound), prints their
characters and lines, the CPU milliseconds that ValidateMatch's and ImportMatch's work costs here
(:mod:`tavli.server.heavy_work`), the wall-clock milliseconds of the hand-off alone (the same text
sent to a process of a :class:`~tavli.server.processes.ProcessPool`, at its lower priority as the
heavy processes run, which only measures its length, and its answer back), and of the whole
check done in such a process (what a small record cost its caller before it was checked here).
CPU the median of ``--rounds``, wall-clock times the median and the slowest, with the machine's
load average.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections.abc import Callable
from functools import partial

from benchmarks.record_check_cost import BASELINE, real_records
from tavli.engine.match import RuleSet
from tavli.engine.matfile import export_mat
from tavli.server import heavy_work
from tavli.server.errors import HeavyWorkUnavailable
from tavli.server.fair_queue import HEAVY_WORK
from tavli.server.match_records import SMALL_RECORD_CHARACTERS, SMALL_RECORD_LINES, small
from tavli.server.processes import ProcessPool

MATCH_LENGTHS = (1, 3, 5, 7, 11)


def records() -> dict[str, str]:
    from tests.games import bot_match  # the tests' random players

    made = {
        f"{length}-point": export_mat(bot_match(RuleSet(match_length=length), seed=25))
        for length in MATCH_LENGTHS
    }
    within = [text for text in real_records() if small(text)]
    return {"gnubg 3-point": BASELINE.read_text(), **made, "real, longest": max(within, key=len)}


def cpu_ms(work: Callable[[], object], rounds: int) -> float:
    spent = []
    for _ in range(rounds):
        started = time.thread_time()
        work()
        spent.append((time.thread_time() - started) * 1000)
    return statistics.median(spent)


async def wall_ms(pool: ProcessPool, function: str, text: str, rounds: int) -> tuple[float, float]:
    """The median and the slowest of ``rounds`` calls of ``function(text)`` in ``pool``."""
    took = []
    for _ in range(rounds):
        started = time.perf_counter()
        await pool.call(function, text)
        took.append((time.perf_counter() - started) * 1000)
    return statistics.median(took), max(took)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    arguments = parser.parse_args()
    asyncio.run(measure(records(), arguments.rounds))


async def measure(texts: dict[str, str], rounds: int) -> None:
    hand_off = ProcessPool(1, "builtins", name="hand-off process", unavailable=HeavyWorkUnavailable)
    heavy = ProcessPool(1, HEAVY_WORK, name="heavy-work process", unavailable=HeavyWorkUnavailable)
    try:
        await wall_ms(hand_off, "len", "", 3)  # the processes started and warm
        await wall_ms(heavy, "validated", BASELINE.read_text(), 3)
        print(
            f"load average {os.getloadavg()[0]:.1f};"
            f" the bound: {SMALL_RECORD_CHARACTERS:,} characters, {SMALL_RECORD_LINES} lines"
        )
        print(
            f"{'record':<14} {'chars':>6} {'lines':>5} {'check ms':>8} {'import ms':>9}"
            f" {'hand-off ms p50/most':>20} {'check there p50/most':>20}"
        )
        for name, text in texts.items():
            checked = cpu_ms(partial(heavy_work.validated, text), rounds)
            imported = cpu_ms(partial(heavy_work.imported, text), rounds)
            handed = await wall_ms(hand_off, "len", text, rounds)
            there = await wall_ms(heavy, "validated", text, rounds)
            print(
                f"{name:<14} {len(text):6,} {text.count(chr(10)):5} {checked:8.2f} {imported:9.2f}"
                f" {handed[0]:10.2f} / {handed[1]:7.2f} {there[0]:10.2f} / {there[1]:7.2f}"
            )
    finally:
        hand_off.close()
        heavy.close()


if __name__ == "__main__":
    main()
