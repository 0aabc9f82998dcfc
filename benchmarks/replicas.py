"""Whole games through nginx in front of 1, 2 and 3 replicas on PostgreSQL, against one process on
SQLite, and the database's own ceiling for writes of the same shape (pgbench), in one run.

    .venv/bin/python -m benchmarks.replicas [--seconds 8] [--rounds 2] [--clients 4] [--threads 4]

Starts its own PostgreSQL 15 server (tests/postgres.py: a temporary folder, a loopback port, run
as the ``postgres`` user; or the one ``TAVLI_TEST_POSTGRES`` names), its replicas (``tavli serve
--db postgresql://... --key-file``) and nginx with server/deploy/nginx.conf (tests/nginx.py), and
stops them all at the end. Each deployment is loaded by ``--clients`` processes of ``--threads``
threads, each thread playing whole 1-point games through the project's client (CreateGame, then
for each turn RollDice, ListLegalActions and PlayMove of a random legal play) for ``--seconds``.
The figure is actions a second (every GamesService call a game makes). pgbench runs a script of
the same shape as one action's write (update the game's row at its version, insert its event,
notify, commit) with as many connections as the load has threads. And each round, how long a
write answered by one replica takes to reach a watcher on another (LISTEN/NOTIFY), over 200
actions.

Prints every round, then the ratios from each deployment's best round against SQLite's.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import random
import re
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.nginx import nginx_in_front
from tests.postgres import BIN, fresh_database, postgres_server
from tests.server_play import stop_process, tavli_serve

MOST_ACTIONS_A_GAME = 5_000


def play_for(address: str, seconds: float, threads: int, seed: int) -> int:
    """Actions made by ``threads`` threads playing whole games at ``address`` for ``seconds``."""
    from tavli.clients.client import TavliClient
    from tavli.v1 import games_service_pb2 as games_pb2

    client = TavliClient.connect(address, timeout=30)
    counts = [0] * threads
    until = time.monotonic() + seconds

    def player(number: int) -> None:
        rng = random.Random(seed * 100 + number)
        while time.monotonic() < until:
            seats = client.create_game(match_length=1, cube=False)
            counts[number] += 1
            game = seats[0].game()
            for _ in range(MOST_ACTIONS_A_GAME):
                if game.phase == games_pb2.PHASE_MATCH_OVER or time.monotonic() >= until:
                    break
                seat = seats[game.to_act[0] - 1]
                seat.game()
                counts[number] += 1
                if game.phase == games_pb2.PHASE_PLAYING:
                    plays = seat.legal_actions().plays
                    game = seat.play(rng.choice(plays).notation)
                    counts[number] += 2
                else:
                    game = seat.roll()
                    counts[number] += 1

    workers = [threading.Thread(target=player, args=(number,)) for number in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    client.close()
    return sum(counts)


def _play_for(arguments: tuple[str, float, int, int]) -> int:
    return play_for(*arguments)


def load(address: str, seconds: float, clients: int, threads: int) -> float:
    """Actions a second of ``clients`` processes playing at ``address``."""
    with multiprocessing.get_context("spawn").Pool(clients) as pool:
        started = time.monotonic()
        actions = pool.map(_play_for, [(address, seconds, threads, seed) for seed in range(clients)])
        elapsed = time.monotonic() - started
    return sum(actions) / max(elapsed, seconds)


@contextlib.contextmanager
def sqlite_server(folder: Path) -> Iterator[str]:
    served = tavli_serve("--db", str(folder / "games.sqlite3"))
    try:
        yield served.address
    finally:
        stop_process(served.process)


@contextlib.contextmanager
def replicas_behind_nginx(url: str, count: int, folder: Path) -> Iterator[str]:
    database = fresh_database(url)
    served = [tavli_serve("--db", database, "--key-file", str(folder / "server.key")) for _ in range(count)]
    try:
        with nginx_in_front([server.address for server in served]) as address:
            yield address
    finally:
        for server in served:
            stop_process(server.process)


def watch_latency(url: str, folder: Path, actions: int = 200) -> list[float]:
    """Seconds from an action's answer by one replica to its event's arrival at a watcher on
    another, for ``actions`` actions (the rolls and plays of games played one action at a time)."""
    from tavli.clients.client import TavliClient
    from tavli.v1 import games_service_pb2 as games_pb2

    database = fresh_database(url)
    served = [tavli_serve("--db", database, "--key-file", str(folder / "watch.key")) for _ in range(2)]
    writer, reader = (TavliClient.connect(server.address, timeout=30) for server in served)
    latencies: list[float] = []
    rng = random.Random(5)
    try:
        while len(latencies) < actions:
            seats = writer.create_game(match_length=1, cube=False)
            stream = reader.games.WatchGame(games_pb2.WatchGameRequest(name=seats[0].name), timeout=120)
            arrived: dict[int, float] = {}
            watching = threading.Thread(target=_note_arrivals, args=(stream, arrived), daemon=True)
            watching.start()
            game = seats[0].game()
            while game.phase != games_pb2.PHASE_MATCH_OVER and len(latencies) < actions:
                seat = seats[game.to_act[0] - 1]
                seat.game()
                if game.phase == games_pb2.PHASE_PLAYING:
                    game = seat.play(rng.choice(seat.legal_actions().plays).notation)
                else:
                    game = seat.roll()
                answered = time.monotonic()
                last = game.event_count - 1
                while last not in arrived:
                    time.sleep(0.0005)
                latencies.append(max(0.0, arrived[last] - answered))
            stream.cancel()
    finally:
        writer.close()
        reader.close()
        for server in served:
            stop_process(server.process)
    return latencies


def _note_arrivals(stream: Any, arrived: dict[int, float]) -> None:
    with contextlib.suppress(Exception):  # cancelled at the end
        for answer in stream:
            arrived[answer.event.sequence] = time.monotonic()


PGBENCH_SETUP = """
CREATE TABLE games (name TEXT PRIMARY KEY, event_count BIGINT NOT NULL, updated DOUBLE PRECISION,
    summary BYTEA);
CREATE TABLE events (game TEXT NOT NULL REFERENCES games (name), sequence BIGINT NOT NULL,
    event TEXT NOT NULL, PRIMARY KEY (game, sequence));
INSERT INTO games SELECT 'games/' || n, 0, 0, '' FROM generate_series(1, 1000) AS n;
"""
PGBENCH_SCRIPT = """\\set game random(1, 1000)
BEGIN;
UPDATE games SET event_count = event_count + 1, updated = extract(epoch from now()), summary = '\\x0102'
    WHERE name = 'games/' || :game;
INSERT INTO events SELECT name, event_count - 1, '{"kind": "roll", "side": 0, "dice": [3, 1]}' FROM games
    WHERE name = 'games/' || :game;
SELECT pg_notify('tavli_games', 'games/' || :game);
COMMIT;
"""


def pgbench(url: str, connections: int, seconds: float, folder: Path) -> float:
    """Transactions a second of one action's write shape, by pgbench on ``connections``."""
    import psycopg

    database = fresh_database(url)
    with psycopg.connect(database, autocommit=True) as connection:
        connection.execute(PGBENCH_SETUP)
    script = folder / "append.sql"
    script.write_text(PGBENCH_SCRIPT)
    result = subprocess.run(
        [
            str(BIN / "pgbench"),
            "-n",
            "-f",
            str(script),
            "-c",
            str(connections),
            "-j",
            "2",
            "-T",
            str(int(seconds)),
            database,
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
        check=True,
    )
    found = re.search(r"tps = ([0-9.]+)", result.stdout)
    assert found, result.stdout + result.stderr
    return float(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--clients", type=int, default=4, help="client processes")
    parser.add_argument("--threads", type=int, default=4, help="threads a client process, a game each")
    arguments = parser.parse_args()
    best: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as temporary, postgres_server() as url:
        folder = Path(temporary)
        deployments = {
            "sqlite, one process": lambda: sqlite_server(folder),
            **{
                f"postgresql, {count} replica{'s' if count > 1 else ''} behind nginx": (
                    lambda count=count: replicas_behind_nginx(url, count, folder)
                )
                for count in (1, 2, 3)
            },
        }
        for round_number in range(1, arguments.rounds + 1):
            for name, deployment in deployments.items():
                with deployment() as address:
                    rate = load(address, arguments.seconds, arguments.clients, arguments.threads)
                best[name] = max(best.get(name, 0.0), rate)
                print(f"round {round_number}  {name:<38} {rate:8.0f} actions/s", flush=True)
            latencies = sorted(watch_latency(url, folder))
            middle, high = latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.99)]
            print(
                f"round {round_number}  {'a write heard by a watcher elsewhere':<38}"
                f" p50 {middle * 1000:6.1f} ms  p99 {high * 1000:6.1f} ms",
                flush=True,
            )
            tps = pgbench(url, arguments.clients * arguments.threads, arguments.seconds, folder)
            best["pgbench"] = max(best.get("pgbench", 0.0), tps)
            print(
                f"round {round_number}  {'pgbench, one action-shaped write':<38} {tps:8.0f} transactions/s",
                flush=True,
            )
    baseline = best["sqlite, one process"]
    print("\nbest rounds, as ratios to one process on SQLite:")
    for name, rate in best.items():
        print(f"  {name:<38} {rate / baseline:6.2f}x")


if __name__ == "__main__":
    main()
