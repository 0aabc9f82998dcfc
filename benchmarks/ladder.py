"""The ladder's throughput on this machine: games a minute with N connected bots, the server's CPU
time a game, and how long from a game's start to its first throw (the event stream's latency).

    .venv/bin/python -m benchmarks.ladder [--bots 8 32] [--seconds 60] [--processes 2] [--server-bots 2]

For each number of bots: starts ``tavli serve --ladder`` on an SQLite file in a temporary folder
(its logs to /dev/null), with ``--server-bots`` of the server's own random bots on the ladder; makes
the rest of the bots' accounts in the file; runs them as Python ladder bots (random play,
:class:`tavli.clients.ladder_bot.LadderBot`, one thread each) spread over ``--processes``
processes for ``--seconds``; stops everything and reads from the file every ladder game that
started and ended in the window. One-point backgammon matches with a generous clock; the ladder
pairs every two seconds, so with few bots the pairing pace bounds the rate.

Prints, per number of bots: games ended a minute, the server's CPU seconds a game (its whole
process: the ladder, the games, the server's own bots), and the time from a game's start to its
opening throw (median and 90th percentile): the GameStarted event reaching the bot through its
stream, the bot joining the seat over PlaySeat and throwing. Absolute figures for this run on this
machine only.
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.load import LOOPBACK, REPO, cpu_seconds, free_port, wait_until_serving

RULES = "backgammon:1:600+0"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, nargs="+", default=[8, 32])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--server-bots", type=int, default=2, choices=range(3))
    arguments = parser.parse_args()
    print(
        f"{'bots':>5} {'games':>6} {'games/min':>10} {'server CPU s/game':>18}"
        f" {'start->throw p50/p90 ms':>24}"
    )
    for count in arguments.bots:
        row = measure(count, arguments.seconds, arguments.processes, arguments.server_bots)
        print(
            f"{count:>5} {row['games']:>6} {row['per_minute']:>10.1f} {row['cpu_per_game']:>18.3f}"
            f" {row['p50_ms']:>11.0f} / {row['p90_ms']:<10.0f}"
        )


def measure(count: int, seconds: float, processes: int, server_bots: int) -> dict[str, float]:
    from tavli.server.accounts import Accounts
    from tavli.server.app import open_store

    house = ["random", "heuristic"][:server_bots]
    with tempfile.TemporaryDirectory(prefix="tavli-ladder-") as folder:
        db = Path(folder) / "tavli.sqlite3"
        store, key = open_store(db, None)
        keys = [
            Accounts(store, key).create(f"bot{number}", "", "bot")[1] for number in range(count - len(house))
        ]
        store.close()
        port = free_port()
        command = [
            sys.executable,
            "-m",
            "tavli.clients.cli",
            "serve",
            "--host",
            LOOPBACK,
            "--port",
            str(port),
        ]
        command += ["--no-web", "--db", str(db), "--ladder", "--ladder-rules", RULES]
        command += ["--ladder-bots", ",".join(house)] if house else []
        server = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            address = f"{LOOPBACK}:{port}"
            wait_until_serving(port, server)
            start, cpu_before = time.time(), cpu_seconds(server.pid)
            shares = [keys[index::processes] for index in range(processes)]
            workers = [
                multiprocessing.Process(target=_run_bots, args=(address, share, seconds))
                for share in shares
                if share
            ]
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join(seconds + 120)
            end, cpu_after = time.time(), cpu_seconds(server.pid)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
        return _figures(db, start, end, cpu_after - cpu_before)


def _run_bots(address: str, keys: list[str], seconds: float) -> None:
    import structlog

    from tavli.clients.ladder_bot import LadderBot

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

    bots = [LadderBot(address, key, "random") for key in keys]
    threads = [threading.Thread(target=bot.run, daemon=True) for bot in bots]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    for bot in bots:
        bot.stop()
    for thread in threads:
        thread.join(60)


def _figures(db: Path, start: float, end: float, cpu: float) -> dict[str, Any]:
    from tavli.server.sqlite_store import SqliteStore

    store = SqliteStore(db)
    try:
        with store._reading() as cursor:
            rows = cursor.execute(
                "SELECT game, started, ended FROM ladder_games WHERE started >= ? AND ended IS NOT NULL"
                " AND ended <= ? AND how = 'played'",
                (start, end),
            ).fetchall()
        waits = []
        for game, started, _ in rows:
            loaded = store.load(game)
            if loaded is None:
                continue
            throw = next((event.get("at") for event in loaded[1] if event.get("kind") == "opening"), None)
            if throw is not None:
                waits.append((throw - started) * 1000)
    finally:
        store.close()
    games = len(rows)
    waits.sort()
    return {
        "games": games,
        "per_minute": games / (end - start) * 60,
        "cpu_per_game": cpu / games if games else float("nan"),
        "p50_ms": statistics.median(waits) if waits else float("nan"),
        "p90_ms": waits[int(len(waits) * 0.9)] if waits else float("nan"),
    }


if __name__ == "__main__":
    main()
