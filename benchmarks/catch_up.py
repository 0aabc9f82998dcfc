"""What a process that is behind pays to catch up with a long game, and what a cold load pays.

    .venv/bin/python -m benchmarks.catch_up [--games 60] [--rounds 7]

A money session of ``--games`` random games (about 180 events each) is stored on SQLite at its
length less 500 events. A second game layer over the same file (``shared``, as a worker or a
replica is) holds it; the log is then extended by 1 or by 500 events as another process's actions
would, and the time the second layer takes to serve the game again is measured: it reads and folds
only those events. Against it: a cold load of the whole game (the snapshot kept at its latest
game's start, then the events after it) and the same cold load with the snapshot ignored (the
whole log folded, as before snapshots). Each figure is the fastest of ``--rounds``; printed as
ratios to the cold load from the snapshot, all in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import tavli.server.tables
from tavli.engine.rules import RuleSet
from tavli.server.keys import ServerKey
from tavli.server.snapshots import played_log
from tavli.server.sqlite_store import SqliteStore
from tavli.server.store import Append
from tavli.server.tables import Tables
from tests.games import bot_match

MONEY = RuleSet()
BEHIND = 500


def tables_over(store: SqliteStore, *, shared: bool = False) -> Tables:
    return Tables(store, ServerKey(b"k" * 32), shared=shared)


def fastest(rounds: int, measure: Callable[[], Coroutine[Any, Any, float]]) -> float:
    return min(asyncio.run(measure()) for _ in range(rounds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=7)
    options = parser.parse_args()
    whole = bot_match(MONEY, seed=1, games=options.games, double=0.0)
    stored = len(whole.events) - BEHIND
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "games.sqlite3")

        async def new_game() -> str:
            created = await tables_over(store).create(
                MONEY,
                dice_mode="system",
                dice_seed="",
                request=None,
                played=played_log(MONEY, whole.events[:stored]),
            )
            return created.game.name

        def behind_by(count: int) -> Callable[[], Coroutine[Any, Any, float]]:
            async def measure() -> float:
                name = await new_game()
                replica = tables_over(store, shared=True)
                await replica.get(name)
                events = [event.to_dict() for event in whole.events[stored : stored + count]]
                store.append(Append(name, stored, events, updated=time.time(), summary=b""))
                started = time.perf_counter()
                assert (await replica.get(name)).version == stored + count
                return time.perf_counter() - started

            return measure

        def cold(*, snapshot: bool) -> Callable[[], Coroutine[Any, Any, float]]:
            async def measure() -> float:
                name = await new_game()
                original = tavli.server.tables.start_of
                if not snapshot:
                    tavli.server.tables.start_of = lambda *arguments: None  # type: ignore[assignment]
                try:
                    started = time.perf_counter()
                    assert (await tables_over(store).get(name)).version == stored
                    return time.perf_counter() - started
                finally:
                    tavli.server.tables.start_of = original

            return measure

        figures = {
            "behind by 1 event": fastest(options.rounds, behind_by(1)),
            f"behind by {BEHIND} events": fastest(options.rounds, behind_by(BEHIND)),
            "cold load from the snapshot": fastest(options.rounds, cold(snapshot=True)),
            "cold load folding the whole log": fastest(options.rounds, cold(snapshot=False)),
        }
        store.close()
    baseline = figures["cold load from the snapshot"]
    print(f"a money session of {options.games} games, {stored:,} events stored (fastest of {options.rounds})")
    for what, seconds in figures.items():
        print(f"  {what:34} {seconds / baseline:6.2f} x the cold load from the snapshot")
    one, many = figures["behind by 1 event"], figures[f"behind by {BEHIND} events"]
    print(f"  behind by {BEHIND} against behind by 1: {many / one:.2f} x")


if __name__ == "__main__":
    main()
