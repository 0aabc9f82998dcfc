"""Faults: the server killed with SIGKILL at random moments, its disk filled, its database made
read-only; acknowledged actions survive all of it and nothing else is ever answered as done.

- Kills: 100 games played at once by threads through the project's client, every action with a
  request_id and retried with the same one while the server is down; 20 SIGKILLs of
  `tavli serve` at random moments (each after a random 20-120 more acknowledged actions), then
  two of a `--workers 2` server's whole process group, each restarted on the same SQLite file.
  Every acknowledged action's state is in the log after the last restart, at the event count its
  answer gave, and every game is played to its end.
- A full disk: the database on a small tmpfs filled until writes fail. Actions are then refused
  with UNAVAILABLE (STORE_UNAVAILABLE) or RESOURCE_EXHAUSTED and the cause in words, never
  INTERNAL, and change nothing; once space is freed play goes on; the file passes
  ``PRAGMA integrity_check`` and, restarted, holds every acknowledged action.
- A read-only database (the file, its WAL and its directory made immutable after the server
  opened them): actions refused with UNAVAILABLE, nothing acknowledged lost.
- Replicas: 100 games played through nginx in front of three replicas on one PostgreSQL database,
  a random replica SIGKILLed ten times (each after 10-60 more acknowledged actions) and started
  again; nothing acknowledged lost, every game ended. And the database itself crashed and started
  again while 20 games are played through two replicas: calls meanwhile UNAVAILABLE and retried,
  nothing acknowledged lost, every game ended.
"""

from __future__ import annotations

import contextlib
import errno
import random
import sqlite3
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from tavli.clients.client import TavliClient, TavliServerError
from tavli.v1 import games_service_pb2 as games_pb2
from tests.hostile.campaign import (
    Acknowledged,
    Figures,
    OneShotSeat,
    PatientSeat,
    Refusal,
    StoredGame,
    figures_fixture,  # noqa: F401 - the fixture `figures`
    kill_group,
    random_action,
    read_stored,
    reconnecting_client,
    refusal_of,
    serve,
    stop,
    tracebacks,
    view_of_game,
)
from tests.nginx import nginx_in_front
from tests.postgres import fresh_database, own_postgres_server
from tests.server_play import MOST_ACTIONS, RPC_TIMEOUT, free_port

GAMES = 100
KILLS = 20
GROUP_KILLS = 2  # of a --workers 2 server's whole process group, after the 20
PLAY_LIMIT = 300.0  # seconds for every game to end, kills and restarts included
# Words a refusal for a store that cannot write should use (in any of them) to say why.
STORE_WORDS = ("disk", "full", "space", "storage", "store", "database", "write", "read-only", "readonly")


def lost(acknowledged: list[Acknowledged], stored: dict[str, StoredGame]) -> list[str]:
    """The acknowledged actions whose answers the stored logs do not bear out."""
    missing = []
    etags: dict[tuple[str, int], str] = {}
    for ack in acknowledged:
        problem = stored[ack.name].problem_with(ack.event_count, ack.view, f"{ack.method} ({ack.request_id})")
        if problem:
            missing.append(problem)
        earlier = etags.setdefault((ack.name, ack.event_count), ack.etag)
        if earlier != ack.etag:
            missing.append(
                f"{ack.name} at {ack.event_count}: acknowledged with etags {earlier!r} and {ack.etag!r}"
            )
    return missing


def retried_views(acknowledged: list[Acknowledged]) -> int:
    return len({(ack.name, ack.event_count) for ack in acknowledged})


class Players:
    """One thread per game, playing it to its end through a server that may be down."""

    def __init__(self, clients: list[TavliClient], games: int, seed: int) -> None:
        self.clients = clients
        self.seats: list[tuple[PatientSeat, PatientSeat]] = []
        self.errors: list[str] = []
        self.finished = 0
        self.lock = threading.Lock()
        rng = random.Random(seed)
        for number in range(games):
            creator = clients[number % len(clients)]
            options = {
                "variant": "long-nardi" if number % 5 == 4 else "backgammon",
                "match_length": 1 + number % 2,
            }
            seat_0, seat_1 = creator.create_game(**options)  # type: ignore[arg-type]
            self.seats.append(
                (
                    PatientSeat(
                        clients[(number + 1) % len(clients)], seat_0.name, 0, seat_0.token, seat_0.last_seen
                    ),
                    PatientSeat(
                        clients[(number + 2) % len(clients)], seat_1.name, 1, seat_1.token, seat_1.last_seen
                    ),
                )
            )
        self.threads = [
            threading.Thread(target=self._play, args=(seats, random.Random(rng.random())), daemon=True)
            for seats in self.seats
        ]

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def running(self) -> int:
        return sum(thread.is_alive() for thread in self.threads)

    def _play(self, seats: tuple[PatientSeat, PatientSeat], rng: random.Random) -> None:
        try:
            game = seats[0].game()
            for _ in range(MOST_ACTIONS):
                if game.phase == games_pb2.PHASE_MATCH_OVER:
                    with self.lock:
                        self.finished += 1
                    return
                game = random_action(seats, game, rng, resign_rate=0.04)
            raise AssertionError(f"{seats[0].name} did not end within {MOST_ACTIONS} actions")
        except grpc.RpcError as error:
            with self.lock:
                self.errors.append(f"{seats[0].name}: {refusal_of(error)}")
        except Exception as error:  # noqa: BLE001 - reported by the test
            with self.lock:
                self.errors.append(f"{seats[0].name}: {type(error).__name__}: {error}")

    def wait_for(self, actions: int, *, most_seconds: float) -> None:
        """Until ``actions`` more actions are acknowledged, the games end or ``most_seconds`` pass."""
        target = self.acknowledged_count() + actions
        deadline = time.monotonic() + most_seconds
        while self.acknowledged_count() < target and self.running() and time.monotonic() < deadline:
            time.sleep(0.02)

    def acknowledged_count(self) -> int:
        return sum(len(seat.acknowledged) for seats in self.seats for seat in seats)

    def acknowledged(self) -> list[Acknowledged]:
        return [ack for seats in self.seats for seat in seats for ack in seat.acknowledged]

    def retries(self) -> int:
        return sum(seat.retries for seats in self.seats for seat in seats)


def test_every_acknowledged_action_survives_sigkills_at_random_moments(
    tmp_path: Path, figures: Figures
) -> None:
    database = tmp_path / "games.sqlite3"
    log = tmp_path / "serve.log"
    port = free_port()
    rng = random.Random(2024)
    served = serve("--db", str(database), log=log, port=port)
    clients = [reconnecting_client(served.address) for _ in range(4)]
    kills = group_kills = 0
    downtime = 0.0
    try:
        players = Players(clients, GAMES, seed=7)
        players.start()
        started = time.monotonic()
        for number in range(KILLS + GROUP_KILLS):
            # Paced by the games' progress, not by the clock, so that a fast machine does not end
            # the games before every kill is made: they make about 8,000-9,000 actions in all, and
            # each restart acknowledges at most one retried action a game (100) at once.
            players.wait_for(rng.randint(20, 120), most_seconds=10.0)
            if not players.running():
                break
            kill_group(served)  # SIGKILL to the group: the one process, or supervisor and workers
            down = time.monotonic()
            if number < KILLS:
                kills += 1
            else:
                group_kills += 1
            workers = 2 if number + 1 >= KILLS and number + 1 < KILLS + GROUP_KILLS else 1
            served = serve("--db", str(database), log=log, port=port, workers=workers)
            downtime += time.monotonic() - down
        acknowledged_by_the_last_kill = players.acknowledged_count()
        for thread in players.threads:
            thread.join(timeout=max(1.0, PLAY_LIMIT - (time.monotonic() - started)))
        played_seconds = time.monotonic() - started
        status = stop(served)
        # One last restart: what is served now is what the file holds.
        served = serve("--db", str(database), log=log, port=port)
        with contextlib.closing(TavliClient.connect(served.address, timeout=RPC_TIMEOUT)) as reader:
            stored = {
                seats[0].name: read_stored(reader.games, seats[0].name, page_size=100)
                for seats in players.seats
            }
    finally:
        for client in clients:
            client.close()
        stop(served)
    acknowledged = players.acknowledged()
    missing = lost(acknowledged, stored)
    unfinished = [name for name, game in stored.items() if game.game.phase != games_pb2.PHASE_MATCH_OVER]
    figures.update(
        games=GAMES,
        faults_injected=kills + group_kills,
        sigkills=kills,
        group_sigkills_with_two_workers=group_kills,
        acknowledged_actions=len(acknowledged),
        acknowledged_by_the_last_kill=acknowledged_by_the_last_kill,
        acknowledged_states=retried_views(acknowledged),
        actions_lost=len(missing),
        retries_with_the_same_request_id=players.retries(),
        player_errors=len(players.errors),
        games_unfinished=len(unfinished),
        events_stored=sum(len(game.events) for game in stored.values()),
        play_seconds=round(played_seconds, 1),
        restart_seconds=round(downtime, 1),
    )
    # A game that failed ends its thread early: said first, as the reason fewer kills were made.
    assert not players.errors, f"{len(players.errors)} games failed: {players.errors[:5]}"
    assert kills == KILLS and group_kills == GROUP_KILLS, (
        f"the games ended before every kill was made ({kills} and {group_kills} of {KILLS} and {GROUP_KILLS},"
        f" {len(acknowledged)} actions acknowledged)"
    )
    assert not missing, f"{len(missing)} acknowledged actions not in the log: {missing[:5]}"
    assert not unfinished, f"{len(unfinished)} games did not end: {unfinished[:5]}"
    assert status == 0, f"the server exited with {status} on SIGTERM"
    assert not tracebacks(log), tracebacks(log)[:3]
    figures.passed()


# --- the store unable to write ---------------------------------------------------------------------


class Ledger:
    """Games played a random action at a time, each acknowledged answer and each refusal kept,
    and every refused action checked to have changed nothing."""

    def __init__(self, client: TavliClient, games: int) -> None:
        self.client = client
        self.seats = [
            tuple(
                OneShotSeat(client, seat.name, seat.index, seat.token, seat.last_seen)
                for seat in client.create_game(variant="backgammon")
            )
            for _ in range(games)
        ]
        self.acknowledged: list[Acknowledged] = []
        self.refusals: list[Refusal] = []
        self.changed_by_refusals: list[str] = []
        self.refusal_seconds: list[float] = []
        self.rng = random.Random(5)

    def act(self, number: int) -> Refusal | None:
        seats = self.seats[number % len(self.seats)]
        before = self.client.game(seats[0].name)
        started = time.monotonic()
        try:
            game = random_action(seats, before, self.rng)
        except TavliServerError as error:
            self.refusal_seconds.append(time.monotonic() - started)
            refusal = Refusal(error.status, error.reason, "", error.message)
            self.refusals.append(refusal)
            after = self.client.game(seats[0].name)
            if after != before:
                self.changed_by_refusals.append(
                    f"{seats[0].name}: {refusal} yet {before.event_count} -> {after.event_count}"
                )
            return refusal
        self.acknowledged.append(
            Acknowledged(seats[0].name, "action", "", game.event_count, game.etag, view_of_game(game))
        )
        return None

    def names(self) -> list[str]:
        return [seats[0].name for seats in self.seats]


def is_store_refusal(refusal: Refusal) -> bool:
    """UNAVAILABLE for a store that cannot write (or RESOURCE_EXHAUSTED), the cause in words."""
    coded = (refusal.status is grpc.StatusCode.UNAVAILABLE and refusal.reason == "STORE_UNAVAILABLE") or (
        refusal.status is grpc.StatusCode.RESOURCE_EXHAUSTED
    )
    return coded and any(word in refusal.message.lower() for word in STORE_WORDS)


@contextlib.contextmanager
def small_tmpfs(where: Path, size: str) -> Iterator[Path]:
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (mount said: {mounted.stderr.strip() or mounted.returncode})")
    try:
        yield where
    finally:
        if subprocess.run(["umount", str(where)], capture_output=True, check=False).returncode != 0:
            subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


def fill(disk: Path) -> int:
    """Write a file on ``disk`` until it is full; the bytes written."""
    written = 0
    chunk = b"\0" * 4096
    with open(disk / "filler", "wb", buffering=0) as filler:
        while True:
            try:
                written += filler.write(chunk)
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
                return written


def integrity(database: Path) -> str:
    with contextlib.closing(sqlite3.connect(database)) as db:
        return str(db.execute("PRAGMA integrity_check").fetchone()[0])


def test_a_full_disk_refuses_actions_as_unavailable_and_loses_nothing(
    tmp_path: Path, figures: Figures
) -> None:
    log = tmp_path / "serve.log"
    with small_tmpfs(tmp_path / "disk", "3m") as disk:
        database = disk / "games.sqlite3"
        served = serve("--db", str(database), log=log)
        refusals_while_full: list[Refusal] = []
        after_freeing: list[Refusal | None] = []
        try:
            with contextlib.closing(TavliClient.connect(served.address, timeout=RPC_TIMEOUT)) as client:
                ledger = Ledger(client, games=4)
                for number in range(40):
                    assert ledger.act(number) is None, "a refusal before the disk was full"
                filled = fill(disk)
                for number in range(300):
                    refusal = ledger.act(number)
                    if refusal is not None:
                        refusals_while_full.append(refusal)
                        if len(refusals_while_full) >= 12:
                            break
                reads_while_full = [client.game(name).event_count for name in ledger.names()]
                (disk / "filler").unlink()
                for number in range(30):
                    after_freeing.append(ledger.act(number))
            status = stop(served)
            integrity_after = integrity(database)
            served = serve("--db", str(database), log=log)
            with contextlib.closing(TavliClient.connect(served.address, timeout=RPC_TIMEOUT)) as reader:
                stored = {name: read_stored(reader.games, name) for name in ledger.names()}
        finally:
            stop(served)
    missing = lost(ledger.acknowledged, stored)
    wrong = [refusal for refusal in refusals_while_full if not is_store_refusal(refusal)]
    figures.update(
        bytes_to_fill=filled,
        refused_after_freeing=sum(r is not None for r in after_freeing),
        **store_fault_figures(ledger, refusals_while_full, missing, status, integrity_after, log),
    )
    assert refusals_while_full, "the disk filled, yet every action was acknowledged"
    assert not wrong, (
        f"{len(wrong)} of {len(refusals_while_full)} refusals on a full disk were not UNAVAILABLE or "
        f"RESOURCE_EXHAUSTED with the cause: {[str(r) for r in wrong[:3]]}"
    )
    assert len(reads_while_full) == 4, "games could not be read while the disk was full"
    assert all(refusal is None for refusal in after_freeing[5:]), (
        f"play did not go on once space was freed: {[str(r) for r in after_freeing if r]}"
    )
    assert_nothing_lost(ledger, missing, status, integrity_after, log)
    figures.passed()


def store_fault_figures(
    ledger: Ledger,
    refusals: list[Refusal],
    missing: list[str],
    status: int | None,
    integrity_after: str,
    log: Path,
) -> dict[str, object]:
    """The figures a test of a failing store reports: the refusals, and what survived them."""
    return {
        "faults_injected": len(refusals),
        "refusals_by_code": dict(Counter(f"{r.status.name}/{r.reason}" for r in refusals)),
        "first_refusal": str(refusals[0]) if refusals else None,
        "acknowledged_actions": len(ledger.acknowledged),
        "actions_lost": len(missing),
        "refusals_that_changed_a_game": len(ledger.changed_by_refusals),
        "slowest_refusal_seconds": round(max(ledger.refusal_seconds, default=0.0), 2),
        "stop_exit_status": status,
        "integrity_check": integrity_after,
        "server_log_says": tracebacks(log)[:1],
    }


def assert_nothing_lost(
    ledger: Ledger, missing: list[str], status: int | None, integrity_after: str, log: Path
) -> None:
    """A failing store changed no game by a refusal, lost no acknowledged action, left the
    database whole, and the server stopped cleanly without a traceback."""
    assert not ledger.changed_by_refusals, ledger.changed_by_refusals[:3]
    assert integrity_after == "ok", integrity_after
    assert not missing, f"{len(missing)} acknowledged actions lost: {missing[:5]}"
    assert status == 0, f"the server exited with {status} on SIGTERM"
    assert not tracebacks(log), tracebacks(log)[:3]


@contextlib.contextmanager
def immutable(paths: list[Path]) -> Iterator[None]:
    """Make ``paths`` immutable (chattr +i: even root cannot write them); undone after."""
    done = []
    try:
        for path in paths:
            result = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True, check=False)
            if result.returncode != 0:
                pytest.skip(f"cannot make {path.name} immutable here (chattr said: {result.stderr.strip()})")
            done.append(path)
        yield
    finally:
        for path in reversed(done):
            subprocess.run(["chattr", "-i", str(path)], capture_output=True, check=False)


def test_a_read_only_database_refuses_actions_as_unavailable_and_loses_nothing(
    tmp_path: Path, figures: Figures
) -> None:
    log = tmp_path / "serve.log"
    home = tmp_path / "db"
    home.mkdir()
    database = home / "games.sqlite3"
    served = serve("--db", str(database), log=log)
    refusals: list[Refusal] = []
    recovered: Refusal | None | str = "not tried"
    try:
        with contextlib.closing(TavliClient.connect(served.address, timeout=RPC_TIMEOUT)) as client:
            ledger = Ledger(client, games=3)
            for number in range(20):
                assert ledger.act(number) is None
            # The shared-memory index stays writable: SQLite maps it, and a mapping made
            # immutable under it ends the process with SIGBUS, which is not the fault tested.
            with immutable([database, database.with_name(database.name + "-wal"), home]):
                for number in range(15):
                    refusal = ledger.act(number)
                    if refusal is not None:
                        refusals.append(refusal)
                reads = [client.game(name).event_count for name in ledger.names()]
            recovered = ledger.act(0)
        status = stop(served)
        integrity_after = integrity(database)
        served = serve("--db", str(database), log=log)
        with contextlib.closing(TavliClient.connect(served.address, timeout=RPC_TIMEOUT)) as reader:
            stored = {name: read_stored(reader.games, name) for name in ledger.names()}
    finally:
        stop(served)
    missing = lost(ledger.acknowledged, stored)
    wrong = [refusal for refusal in refusals if not is_store_refusal(refusal)]
    figures.update(
        writes_again_once_writable=recovered is None,
        **store_fault_figures(ledger, refusals, missing, status, integrity_after, log),
    )
    assert refusals, "the database was read-only, yet every action was acknowledged"
    assert not wrong, (
        f"{len(wrong)} of {len(refusals)} refusals were not UNAVAILABLE/STORE_UNAVAILABLE with the cause: "
        f"{[str(r) for r in wrong[:3]]}"
    )
    assert len(reads) == 3, "games could not be read while the database was read-only"
    assert_nothing_lost(ledger, missing, status, integrity_after, log)
    figures.passed()


# --- a replica killed behind nginx ------------------------------------------------------------------

REPLICA_GAMES = 150  # enough play for ten kills: the other replicas go on serving while one restarts
REPLICA_KILLS = 10


def test_replicas_killed_behind_nginx_lose_nothing_acknowledged(
    tmp_path: Path, figures: Figures, postgres_url: str
) -> None:
    url = fresh_database(postgres_url)
    key = str(tmp_path / "server.key")
    rng = random.Random(2026)
    logs = [tmp_path / f"replica-{number}.log" for number in range(3)]
    replicas = [serve("--db", url, "--key-file", key, log=log) for log in logs]
    kills = 0
    try:
        with nginx_in_front([replica.address for replica in replicas]) as address:
            clients = [reconnecting_client(address) for _ in range(4)]
            try:
                players = Players(clients, REPLICA_GAMES, seed=11)
                players.start()
                started = time.monotonic()
                for _ in range(REPLICA_KILLS):
                    players.wait_for(rng.randint(10, 60), most_seconds=10.0)
                    if not players.running():
                        break
                    number = rng.randrange(len(replicas))
                    kill_group(replicas[number])
                    kills += 1
                    replicas[number] = serve(
                        "--db", url, "--key-file", key, log=logs[number], port=replicas[number].port
                    )
                for thread in players.threads:
                    thread.join(timeout=max(1.0, PLAY_LIMIT - (time.monotonic() - started)))
                played_seconds = time.monotonic() - started
                stored = {
                    seats[0].name: read_stored(clients[0].games, seats[0].name, page_size=100)
                    for seats in players.seats
                }
            finally:
                for client in clients:
                    client.close()
    finally:
        statuses = [stop(replica) for replica in replicas]
    acknowledged = players.acknowledged()
    missing = lost(acknowledged, stored)
    unfinished = [name for name, game in stored.items() if game.game.phase != games_pb2.PHASE_MATCH_OVER]
    found = [trace for log in logs for trace in tracebacks(log)]
    figures.update(
        games=REPLICA_GAMES,
        replicas=len(replicas),
        replica_sigkills=kills,
        acknowledged_actions=len(acknowledged),
        actions_lost=len(missing),
        retries_with_the_same_request_id=players.retries(),
        player_errors=len(players.errors),
        games_unfinished=len(unfinished),
        play_seconds=round(played_seconds, 1),
    )
    assert not players.errors, f"{len(players.errors)} games failed: {players.errors[:5]}"
    assert kills == REPLICA_KILLS, (
        f"the games ended before every kill was made ({kills} of {REPLICA_KILLS},"
        f" {len(acknowledged)} actions acknowledged)"
    )
    assert not missing, f"{len(missing)} acknowledged actions not in the log: {missing[:5]}"
    assert not unfinished, f"{len(unfinished)} games did not end: {unfinished[:5]}"
    assert statuses == [0, 0, 0], f"the replicas exited with {statuses} on SIGTERM"
    assert not found, found[:3]
    figures.passed()


def test_a_database_restarted_under_load_loses_nothing_acknowledged(tmp_path: Path, figures: Figures) -> None:
    with own_postgres_server() as database:
        url = fresh_database(database.url)
        logs = [tmp_path / f"replica-{number}.log" for number in range(2)]
        replicas = [serve("--db", url, "--key-file", str(tmp_path / "server.key"), log=log) for log in logs]
        try:
            with nginx_in_front([replica.address for replica in replicas]) as address:
                clients = [reconnecting_client(address) for _ in range(2)]
                try:
                    players = Players(clients, 20, seed=13)
                    players.start()
                    started = time.monotonic()
                    players.wait_for(100, most_seconds=30.0)
                    before = players.acknowledged_count()
                    database.stop("immediate")  # as a crash, while 20 games are being played
                    time.sleep(3.0)
                    database.start()
                    for thread in players.threads:
                        thread.join(timeout=max(1.0, PLAY_LIMIT - (time.monotonic() - started)))
                    stored = {
                        seats[0].name: read_stored(clients[0].games, seats[0].name, page_size=100)
                        for seats in players.seats
                    }
                finally:
                    for client in clients:
                        client.close()
        finally:
            statuses = [stop(replica) for replica in replicas]
    acknowledged = players.acknowledged()
    missing = lost(acknowledged, stored)
    unfinished = [name for name, game in stored.items() if game.game.phase != games_pb2.PHASE_MATCH_OVER]
    found = [trace for log in logs for trace in tracebacks(log)]
    figures.update(
        games=20,
        acknowledged_before_the_restart=before,
        acknowledged_actions=len(acknowledged),
        actions_lost=len(missing),
        retries_with_the_same_request_id=players.retries(),
        games_unfinished=len(unfinished),
    )
    assert not players.errors, f"{len(players.errors)} games failed: {players.errors[:5]}"
    assert not missing, f"{len(missing)} acknowledged actions not in the log: {missing[:5]}"
    assert not unfinished, f"{len(unfinished)} games did not end: {unfinished[:5]}"
    assert players.retries() > 0, "no call met the database down"
    assert statuses == [0, 0], f"the replicas exited with {statuses} on SIGTERM"
    assert not found, found[:3]
    figures.passed()
