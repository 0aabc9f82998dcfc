"""What one hostile client costs everyone else: another client's health checks and small calls,
measured while the worst of each attack runs, with the server's memory and CPU.

    .venv/bin/python -m benchmarks.hostile [--games 1200] [--attacks ...] [--probe-every 0.02]

Starts ``tavli serve`` on an SQLite file in a temporary folder, its native port on ``localhost``
(127.0.0.1 and ::1) and its web port on 127.0.0.1, with the default limits: the attacks come from
127.0.0.1 and the probe from ::1, two clients as the server counts them. The probe is a process
of its own (its own GIL): a health check every ``--probe-every`` seconds (0.02), and a ValidateMatch of
a 3-point record every fourth time (the small call). Each attack, in turn:

- ``quiet``: nothing, for the baseline;
- ``import-1``, ``import-4``: ImportMatch of a money session of ``--games`` games (about 1 MiB
  at 1,200), once, then four at once;
- ``cold-loads``: the server restarted on its file, then GetGame of ten such sessions at once;
- ``watch-from-start``: WatchGame of one such session from event 0, read to its end (the bytes
  read, the largest message after the first and the last);
- ``watch-from-start-web``: the same over the web port, as the page watches (Connect, JSON, HTTP/1.1);
- ``checks``: 24 ValidateMatch calls of the session at once;
- ``web-watchers``: 40 Connect WatchGame streams that never read (half HTTP/1.1, half HTTP/2
  with the window never opened) on a game the attacker plays as fast as it can;
- ``slow-bodies``: 1,000 web requests whose body comes one byte a second;
- ``bots``: games created and a hosted bot seated in each, as many as the server takes.
- ``long-game-actions``: 300 actions on an imported session, each on the next of eight channels,
  so that with ``--workers 2`` each worker in turn is behind by the other's actions and catches up.
  (Not among the attacks run by default.)

``--workers 2`` runs the server as two worker processes sharing its port (the probe's channel is
served by one of them); ``--heavy-processes`` is passed on as it is.

Prints, for each, the probe's health p50/p99/most and small call p99 (milliseconds), failures,
the server's resident memory before, at most and after (MB), its CPU seconds, the machine's load,
the milliseconds its main thread (the event loop, with one worker) waited for a CPU on average
each time it was ready to run (Linux's schedstat: what the machine's load makes every call of the
server wait, apart from the server's own work), and what the attack itself got (answers,
refusals by reason, messages). Nothing asserts: the tests in tests/hostile/ assert what is
refused and why; tests/RELIABILITY.md keeps the figures.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from benchmarks.load import cpu_seconds, free_port, stop_server
from benchmarks.record_check_cost import money_session

REPO = Path(__file__).resolve().parents[1]
SMALL_RECORD = REPO / "tests" / "data" / "mat" / "gnubg_3_point.mat"
ATTACKS = (
    "quiet",
    "import-1",
    "import-4",
    "cold-loads",
    "watch-from-start",
    "watch-from-start-web",
    "checks",
    "web-watchers",
    "slow-bodies",
    "bots",
    "long-game-actions",
)
COLD_LOADS = 10
CHECKS = 24
WEB_WATCHERS = 40
SLOW_BODIES = 1000
BOT_GAMES = 100
LONG_GAME_ACTIONS = 300
LONG_GAME_CHANNELS = 8
QUIET_SECONDS = 5.0
CALL_TIMEOUT = 600.0


# --- the probe: another client, in a process of its own ------------------------------------------


@dataclass
class Probed:
    """What the probe measured: milliseconds a call, and its failures by code."""

    health_ms: list[float] = field(default_factory=list)
    small_ms: list[float] = field(default_factory=list)
    failures: Counter[str] = field(default_factory=Counter)


def probe(address: str, every: float, ready: EventType, stop: EventType, results: Connection) -> None:
    from tavli.v1 import match_record_pb2, rules_service_pb2, rules_service_pb2_grpc

    small = rules_service_pb2.ValidateMatchRequest(
        record=match_record_pb2.MatchRecord(text=SMALL_RECORD.read_text())
    )
    probed = Probed()
    with grpc.insecure_channel(address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        rules = rules_service_pb2_grpc.RulesServiceStub(channel)
        calls: list[tuple[str, Callable[[], object], list[float]]] = [
            (
                "health",
                lambda: health.Check(health_pb2.HealthCheckRequest(), timeout=CALL_TIMEOUT),
                probed.health_ms,
            )
        ]
        small_call = ("small", lambda: rules.ValidateMatch(small, timeout=CALL_TIMEOUT), probed.small_ms)
        number = 0
        while not stop.is_set():
            for kind, call, latencies in calls + ([small_call] if number % 4 == 0 else []):
                started = time.perf_counter()
                try:
                    call()
                except grpc.RpcError as error:
                    probed.failures[f"{kind} {error.code().name}"] += 1
                    continue
                latencies.append((time.perf_counter() - started) * 1000)
            number += 1
            ready.set()
            stop.wait(every)
    results.send(probed)


@contextmanager
def probing(address: str, every: float) -> Iterator[Probed]:
    """Probe ``address`` while the block runs; the yielded Probed is filled in at its end."""
    context = multiprocessing.get_context("spawn")
    ready, stop = context.Event(), context.Event()
    receiving, sending = context.Pipe(duplex=False)
    process = context.Process(target=probe, args=(address, every, ready, stop, sending), daemon=True)
    process.start()
    probed = Probed()
    try:
        ready.wait(60)  # the probe's imports and first calls before the attack
        yield probed
    finally:
        stop.set()
        measured: Probed = receiving.recv()
        process.join(timeout=30)
        probed.health_ms, probed.small_ms, probed.failures = (
            measured.health_ms,
            measured.small_ms,
            measured.failures,
        )


# --- the server ----------------------------------------------------------------------------------


@dataclass
class Server:
    folder: Path
    port: int
    web_port: int
    workers: int = 1
    heavy_processes: int = 2
    process: Any = None

    @property
    def attacker(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def prober(self) -> str:
        return f"[::1]:{self.port}"

    def start(self) -> None:
        command = [str(Path(sys.executable).with_name("tavli")), "serve"]
        command += ["--host", "localhost", "--port", str(self.port), "--web-port", str(self.web_port)]
        command += ["--db", str(self.folder / "games.sqlite3"), "--log-json"]
        command += ["--workers", str(self.workers), "--heavy-processes", str(self.heavy_processes)]
        with open(self.folder / "serve.log", "ab") as log:
            self.process = subprocess.Popen(
                command, cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log
            )
        deadline = time.monotonic() + 60
        with grpc.insecure_channel(self.prober) as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            while True:
                try:
                    stub.Check(health_pb2.HealthCheckRequest(), timeout=1.0)
                    return
                except grpc.RpcError:
                    if time.monotonic() > deadline or self.process.poll() is not None:
                        raise RuntimeError("the server did not start; see serve.log") from None
                    time.sleep(0.2)

    def stop(self) -> None:
        stop_server(self.process)

    def loop_schedule(self) -> tuple[float, float, int]:
        """The main thread's (the event loop's, with one worker) seconds on a CPU, seconds waiting
        for one while it could run, and turns on a CPU so far (Linux's schedstat)."""
        on_cpu, waiting, turns = Path(f"/proc/{self.process.pid}/schedstat").read_text().split()
        return int(on_cpu) / 1e9, int(waiting) / 1e9, int(turns)

    def resident_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0


@dataclass
class Measured:
    attack: str
    probed: Probed
    seconds: float
    resident_mb: tuple[float, float, float]  # before, most, after
    cpu_seconds: float
    outcome: dict[str, object]
    load: float  # the machine's load average over the last minute, at the end
    loop_waited_ms: float  # the event loop's wait for a CPU, on average a turn, while it could run


def measure(server: Server, attack: str, run: Callable[[], dict[str, object]], every: float) -> Measured:
    """Run ``run`` (the attack) while the probe runs; sample the server's memory meanwhile."""
    before = server.resident_mb()
    most = [before]
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.wait(0.1):
            most[0] = max(most[0], server.resident_mb())

    sampler = threading.Thread(target=sample, daemon=True)
    cpu = cpu_seconds(server.process.pid)
    _, waited_before, turns_before = server.loop_schedule()
    with probing(server.prober, every) as probed:
        sampler.start()
        started = time.monotonic()
        outcome = run()
        seconds = time.monotonic() - started
    sampling.set()
    sampler.join()
    after = server.resident_mb()
    _, waited, turns = server.loop_schedule()
    return Measured(
        attack,
        probed,
        seconds,
        (before, max(most[0], after), after),
        cpu_seconds(server.process.pid) - cpu,
        outcome,
        os.getloadavg()[0],
        (waited - waited_before) * 1000 / max(1, turns - turns_before),
    )


# --- the attacks ---------------------------------------------------------------------------------


def reason_of(error: grpc.RpcError) -> str:
    from google.rpc import error_details_pb2, status_pb2

    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return f"{error.code().name} {info.reason}"
    return error.code().name


def answered(futures: list[Any]) -> dict[str, object]:
    outcomes: Counter[str] = Counter()
    for future in futures:
        try:
            future.result()
            outcomes["OK"] += 1
        except grpc.RpcError as error:
            outcomes[reason_of(error)] += 1
    return dict(outcomes)


class Attacker:
    """The hostile client: every call from 127.0.0.1."""

    def __init__(self, server: Server, session: str) -> None:
        self.server = server
        self.session = session
        self.imported: list[str] = []
        self.long_game: Any = None  # its two seats, once imported
        self.connect()

    def connect(self) -> None:
        """A channel of its own (again, after the server restarted)."""
        from tavli.v1 import bots_service_pb2_grpc, games_service_pb2_grpc, rules_service_pb2_grpc

        self.channel = grpc.insecure_channel(
            self.server.attacker,
            options=[("grpc.max_send_message_length", 8 << 20), ("grpc.max_receive_message_length", 8 << 20)],
        )
        self.games = games_service_pb2_grpc.GamesServiceStub(self.channel)
        self.rules = rules_service_pb2_grpc.RulesServiceStub(self.channel)
        self.bots = bots_service_pb2_grpc.BotsServiceStub(self.channel)

    def imports(self, count: int) -> dict[str, object]:
        from tavli.v1 import games_service_pb2 as pb, match_record_pb2

        request = pb.ImportMatchRequest(record=match_record_pb2.MatchRecord(text=self.session))
        futures = [self.games.ImportMatch.future(request, timeout=CALL_TIMEOUT) for _ in range(count)]
        outcome = answered(futures)
        for future in futures:
            if future.exception() is None:
                self.imported.append(future.result().game.name)
        return outcome

    def cold_loads(self) -> dict[str, object]:
        from tavli.v1 import games_service_pb2 as pb

        names = self.imported[:COLD_LOADS]
        futures = [
            self.games.GetGame.future(pb.GetGameRequest(name=name), timeout=CALL_TIMEOUT) for name in names
        ]
        return {"games": len(names), **answered(futures)}

    def watch_from_start(self) -> dict[str, object]:
        from tavli.v1 import games_service_pb2 as pb

        name = self.imported[0]
        events = self.games.GetGame(pb.GetGameRequest(name=name), timeout=CALL_TIMEOUT).game.event_count
        watch = self.games.WatchGame(pb.WatchGameRequest(name=name), timeout=CALL_TIMEOUT)
        messages = read = largest = last = 0
        for message in watch:  # the session's money play goes on: the watch stays open after its last event
            messages += 1
            last = message.ByteSize()
            read += last
            largest = max(largest, last if messages > 1 else 0)
            if messages == events:
                watch.cancel()
                break
        return {
            "messages": messages,
            "events": events,
            "bytes": read,
            "largest_after_first": largest,
            "last": last,
        }

    def watch_from_start_web(self) -> dict[str, object]:
        import http.client
        import struct

        from tavli.v1 import games_service_pb2 as pb

        name = self.imported[0]
        events = self.games.GetGame(pb.GetGameRequest(name=name), timeout=CALL_TIMEOUT).game.event_count
        body = json.dumps({"name": name}).encode()
        connection = http.client.HTTPConnection("127.0.0.1", self.server.web_port, timeout=CALL_TIMEOUT)
        connection.request(
            "POST",
            "/tavli.v1.GamesService/WatchGame",
            struct.pack(">BI", 0, len(body)) + body,
            {"Content-Type": "application/connect+json"},
        )
        answer = connection.getresponse()
        messages = read = largest = last = 0
        try:
            while messages < events:  # the session's money play goes on: the watch stays open
                flags, length = struct.unpack(">BI", answer.read(5))
                answer.read(length)
                if flags & 2:  # the end of the stream, with its error if any
                    break
                messages += 1
                last, read = length, read + length
                largest = max(largest, length if messages > 1 else 0)
        finally:
            connection.close()
        return {
            "messages": messages,
            "events": events,
            "status": answer.status,
            "bytes": read,
            "largest_after_first": largest,
            "last": last,
        }

    def checks(self) -> dict[str, object]:
        from tavli.v1 import match_record_pb2, rules_service_pb2 as pb

        request = pb.ValidateMatchRequest(record=match_record_pb2.MatchRecord(text=self.session))
        return answered(
            [self.rules.ValidateMatch.future(request, timeout=CALL_TIMEOUT) for _ in range(CHECKS)]
        )

    def web_watchers(self) -> dict[str, object]:
        from tavli.clients.client import TavliClient
        from tests.hostile.test_hostile_web_streams import watch_over_http_1, watch_over_http_2
        from tests.server_play import Policy, play_actions

        client = TavliClient.connect(self.server.attacker, timeout=CALL_TIMEOUT)
        seats = client.create_game()
        play_actions(seats, Policy(random.Random(7)), 100)
        watchers = [
            (watch_over_http_2 if number % 2 else watch_over_http_1)(self.server.web_port, seats[0].name)
            for number in range(WEB_WATCHERS)
        ]
        try:
            for round_number in range(6):
                play_actions(seats, Policy(random.Random(9 + round_number)), 250)
            events = client.game(seats[0].name).event_count
        finally:
            for watcher in watchers:
                watcher.close()
            client.close()
        return {"watchers": len(watchers), "events": events}

    def slow_bodies(self) -> dict[str, object]:
        from tests.hostile.test_hostile_surfaces import SlowBody

        bodies = []
        refused_at_connect = 0
        for _ in range(SLOW_BODIES):
            try:
                bodies.append(SlowBody(self.server.web_port, every=1.0))
            except OSError:
                refused_at_connect += 1
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not all(body.closed.is_set() for body in bodies):
            time.sleep(0.5)
        heads = Counter(_slow_body_end(body) for body in bodies)
        for body in bodies:
            body.socket.close()
        return {"connections": len(bodies), "refused_at_connect": refused_at_connect, **heads}

    def bot_flood(self) -> dict[str, object]:
        from tavli.clients.client import TavliClient, TavliServerError
        from tavli.v1 import bots_service_pb2 as bots_pb

        outcomes: Counter[str] = Counter()
        client = TavliClient.connect(self.server.attacker, timeout=CALL_TIMEOUT)
        for _ in range(BOT_GAMES):
            try:
                _, person = client.create_game(match_length=5)
            except TavliServerError as error:
                outcomes[f"CreateGame {error.code.name} {error.reason}"] += 1
                continue
            request = bots_pb.SeatBotRequest(name=person.name, seat_token=person.token)
            try:
                self.bots.SeatBot(request, timeout=CALL_TIMEOUT)
                outcomes["seated"] += 1
            except grpc.RpcError as error:
                outcomes[f"SeatBot {reason_of(error)}"] += 1
        client.close()
        return dict(outcomes)

    def long_game_actions(self) -> dict[str, object]:
        from tavli.clients.client import TavliClient
        from tests.server_play import Policy, act_once

        clients = [
            TavliClient.connect(self.server.attacker, timeout=CALL_TIMEOUT) for _ in range(LONG_GAME_CHANNELS)
        ]
        seats = self.long_game
        game = seats[0].game()
        policy = Policy(random.Random(11))
        actions = 0
        try:
            for number in range(LONG_GAME_ACTIONS):
                for seat in seats:
                    seat.client = clients[number % LONG_GAME_CHANNELS]
                game = act_once(seats, game, policy)
                actions += 1
        finally:
            for client in clients:
                client.close()
        return {"actions": actions, "events": game.event_count}

    def import_long_game(self) -> None:
        from tavli.clients.client import TavliClient

        self.long_game = TavliClient(self.channel, timeout=CALL_TIMEOUT).import_match(self.session)


def _slow_body_end(body: Any) -> str:
    if not body.closed.is_set():
        return "still open"
    head = body.answer.split(b"\r\n", 1)[0].decode("latin-1").strip()
    if b"did not arrive within" in body.answer:
        return f"{head}, body too slow"
    if b"requests open" in body.answer:
        return f"{head}, too many open"
    return head or "closed unanswered"


# --- the report ----------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(measured: list[Measured]) -> None:
    print(
        f"{'attack':<20} {'s':>6} {'checks':>6} {'p50':>6} {'p99':>7} {'most':>7} {'small p99':>9}"
        f" {'failed':>6} {'MB before/most/after':>21} {'CPU s':>6} {'load':>5} {'loop wait':>9}"
        "  what the attack got"
    )
    for m in measured:
        health = m.probed.health_ms
        columns = [
            f"{m.attack:<20}",
            f"{m.seconds:6.1f}",
            f"{len(health):6d}",
            f"{statistics.median(health) if health else 0:6.1f}",
            f"{percentile(health, 0.99):7.1f}",
            f"{max(health, default=0):7.1f}",
            f"{percentile(m.probed.small_ms, 0.99):9.1f}",
            f"{sum(m.probed.failures.values()):6d}",
            f"{'/'.join(f'{mb:.0f}' for mb in m.resident_mb):>21}",
            f"{m.cpu_seconds:6.1f}",
            f"{m.load:5.1f}",
            f"{m.loop_waited_ms:9.2f} ",
            json.dumps(m.outcome),
        ]
        if m.probed.failures:
            columns.append(f"probe failures {dict(m.probed.failures)}")
        print(" ".join(columns))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", type=int, default=1200, help="games in the money session (1,200: about 1 MiB)"
    )
    parser.add_argument(
        "--attacks",
        nargs="+",
        choices=ATTACKS,
        default=[attack for attack in ATTACKS if attack != "long-game-actions"],
    )
    parser.add_argument("--probe-every", type=float, default=0.02, help="seconds between the probe's checks")
    parser.add_argument("--workers", type=int, default=1, help="the server's worker processes")
    parser.add_argument("--heavy-processes", type=int, default=2, help="the server's heavy-work processes")
    arguments = parser.parse_args()

    session = money_session(arguments.games)
    print(f"money session: {arguments.games} games, {len(session.encode()):,} bytes", flush=True)
    measured: list[Measured] = []
    with tempfile.TemporaryDirectory(prefix="tavli-hostile-") as folder:
        server = Server(Path(folder), free_port(), free_port(), arguments.workers, arguments.heavy_processes)
        server.start()
        attacker = Attacker(server, session)
        try:
            for attack in arguments.attacks:
                run = _attack(attack, server, attacker)
                measured.append(measure(server, attack, run, arguments.probe_every))
                print(f"  {attack}: done in {measured[-1].seconds:.1f} s", flush=True)
        finally:
            attacker.channel.close()
            server.stop()
    report(measured)


def _attack(attack: str, server: Server, attacker: Attacker) -> Callable[[], dict[str, object]]:
    if attack == "quiet":
        return lambda: (time.sleep(QUIET_SECONDS), {})[1]
    if attack in ("import-1", "import-4"):
        return lambda: attacker.imports(int(attack[-1]))
    if attack == "cold-loads":
        missing = COLD_LOADS - len(attacker.imported)
        if missing > 0:
            attacker.imports(missing)  # before the restart, not measured
        server.stop()
        server.start()
        attacker.channel.close()
        attacker.connect()
        return attacker.cold_loads
    if attack == "long-game-actions":
        attacker.import_long_game()  # before the attack, not measured
        return attacker.long_game_actions
    if attack in ("watch-from-start", "watch-from-start-web"):
        if not attacker.imported:
            attacker.imports(1)
        return attacker.watch_from_start if attack == "watch-from-start" else attacker.watch_from_start_web
    return {
        "checks": attacker.checks,
        "web-watchers": attacker.web_watchers,
        "slow-bodies": attacker.slow_bodies,
        "bots": attacker.bot_flood,
    }[attack]


if __name__ == "__main__":
    main()
