"""Load on a tavli server over loopback: requests per second and latency, as ratios to the
transport's own ceiling measured in the same run.

    .venv/bin/python -m benchmarks.load [--seconds 3] [--concurrency 1 16 64] [--processes 4]
                                        [--rounds 2] [--workers 1] [--kinds ...] [--profile list ...]

Starts ``tavli serve --host 127.0.0.1 --port P --db :memory:`` as a subprocess (its logs go to
/dev/null, still formatted as in production) and stops it at the end; with ``--workers N``,
``tavli serve --workers N`` on an SQLite file in a temporary folder, removed at the end. The
server runs in its own process because the clients are Python too: a server sharing their
process would share their GIL, and every client call would slow the server down. The clients
are ``--processes`` processes (fewer when the concurrency is lower), each with its own channel
and ``concurrency / processes`` grpc.aio calls in flight at once.

For each concurrency, each kind in turn, the whole sequence ``--rounds`` times, for a fixed time
(``--seconds``; whole games get twice as long) and at most ``--most`` requests per client process:

- ``health``: grpc.health.v1 Health/Check on "", the empty round trip: the ceiling;
- ``list``: RulesService/ListLegalPlays, every request a position and roll the run has not asked
  before (positions as seeded games of random plays reach them, dice as they fall, none of the
  corpus's pairs): what a bot or an arena asks, its answer in none of the server's caches;
- ``list-again``: RulesService/ListLegalPlays over the same 200 positions and rolls again and
  again: what a GUI asks when it shows the plays of a position it has listed before;
- ``validate``: RulesService/ValidatePlay of each corpus position's first legal play;
- ``batch``: RulesService/BatchValidatePlays, ``--batch`` of those a call (throughput in plays);
- ``games``: whole 1-point backgammon games without the cube, two seats per game through
  GamesService (CreateGame, then RollDice, ListLegalActions and PlayMove a turn, random plays).

Prints a table of every round (the absolute numbers hold for this run and this machine only),
then the ratios from each kind's best round: load from elsewhere on a shared machine only ever
lowers a round's throughput. The ratios: each kind's requests per second against the health
check's at the same concurrency, batch validation's plays per second against unary validation's,
and the server's CPU time a request.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import hot_path

KINDS = ("health", "list", "list-again", "validate", "batch", "games")
LOOPBACK = "127.0.0.1"
MOST_ACTIONS_A_GAME = 5_000  # random play ends a 1-point game in ~300 actions
RPC_TIMEOUT = 30.0
REPO = Path(__file__).resolve().parents[1]

Corpus = list[tuple[str, tuple[int, int], str]]  # position ID, dice, the first legal play's notation
Queries = list[tuple[str, tuple[int, int]]]  # position ID, dice
FRESH = 40_000  # new positions and rolls for the list kind: more than a run asks at 3 s a round
ASKED_AGAIN = 200  # the corpus rows list-again cycles through


@dataclass
class Outcome:
    """What one client process measured."""

    started: float = 0.0
    finished: float = 0.0
    units: int = 0  # requests, plays validated, or games finished
    requests: int = 0
    highest: int = -1  # the highest request number used
    latencies: list[float] = field(default_factory=list)  # seconds, one per RPC
    errors: list[str] = field(default_factory=list)


# --- the server ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


# The load comes from one address: the per-client quotas would measure themselves, not the server.
UNBOUNDED = [
    "--allow-seeded-dice",
    "--calls-per-second",
    "1e9",
    "--call-burst",
    "1000000000",
    "--concurrent-calls",
    "1000000",
    "--live-games-per-client",
    "1000000000",
]


def start_server(port: int, workers: int, folder: Path) -> subprocess.Popen[bytes]:
    """``tavli serve`` on ``port``: one process with its games in memory, or ``workers`` processes
    sharing the port and an SQLite file in ``folder`` (as they must share their games)."""
    tavli = Path(sys.executable).with_name("tavli")
    command = [str(tavli)] if tavli.exists() else [sys.executable, "-m", "tavli.clients.cli"]
    store = (
        ["--db", ":memory:"]
        if workers == 1
        else ["--db", str(folder / "games.db"), "--workers", str(workers)]
    )
    return subprocess.Popen(
        [
            *command,
            "serve",
            "--host",
            LOOPBACK,
            "--port",
            str(port),
            *store,
            "--games-in-memory",
            "1000000",
            "--log-json",
            "--no-web",
            *UNBOUNDED,
        ],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_until_serving(port: int, server: subprocess.Popen[bytes], *, within: float = 30.0) -> None:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    deadline = time.monotonic() + within
    with grpc.insecure_channel(f"{LOOPBACK}:{port}") as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise RuntimeError(f"the server exited with status {server.returncode}")
            try:
                if (
                    stub.Check(health_pb2.HealthCheckRequest(), timeout=1.0).status
                    == health_pb2.HealthCheckResponse.SERVING
                ):
                    return
            except grpc.RpcError:
                time.sleep(0.2)
    raise RuntimeError(f"the server was not serving within {within} s")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=5)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time so far of process ``pid`` and the processes under it, its workers
    among them (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    children = [
        int(child)
        for task in Path(f"/proc/{pid}/task").iterdir()
        for child in (task / "children").read_text().split()
    ]
    return own + sum(cpu_seconds(child) for child in children)


# --- the clients ---------------------------------------------------------------------------------


def client_process(
    kind: str,
    port: int,
    loops: range,
    concurrency: int,
    first: int,
    start_at: float,
    seconds: float,
    most: int,
    batch: int,
    corpus: Corpus,
    fresh: Queries,
    results: Any,
) -> None:
    """One client process: a concurrent loop for each of ``loops`` (numbered among all processes'
    ``concurrency`` loops) on one channel, from ``start_at`` (wall clock) for ``seconds`` or ``most``
    units in all, whichever comes first; puts an :class:`Outcome`. Loop ``n``'s k-th request is
    number ``first + n + k * concurrency``: no two requests of a measurement share a number."""
    try:
        outcome = asyncio.run(
            _client(kind, port, loops, concurrency, first, start_at, seconds, most, batch, corpus, fresh)
        )
    except Exception as error:  # noqa: BLE001  (report it rather than leave the parent waiting)
        outcome = Outcome(errors=[f"{type(error).__name__}: {error}"])
    results.put(outcome)


async def _client(
    kind: str,
    port: int,
    loops: range,
    concurrency: int,
    first: int,
    start_at: float,
    seconds: float,
    most: int,
    batch: int,
    corpus: Corpus,
    fresh: Queries,
) -> Outcome:
    import grpc

    outcome = Outcome()
    async with grpc.aio.insecure_channel(f"{LOOPBACK}:{port}") as channel:
        call = _calls(kind, channel, batch, corpus, fresh, outcome)
        for index in range(3):  # warm the connection and the stubs before the clock starts
            await call(index, random.Random(index), warm=True)
        await asyncio.sleep(max(0.0, start_at - time.time()))
        outcome.started = time.time()
        stop = outcome.started + seconds
        budget = [most]

        async def loop(number: int) -> None:
            rng = random.Random(number)
            index = first + number
            while time.time() < stop and budget[0] > 0:
                budget[0] -= 1
                try:
                    outcome.highest = max(outcome.highest, index)
                    outcome.units += await call(index, rng, stop=stop)
                except grpc.aio.AioRpcError as error:
                    outcome.errors.append(f"{error.code().name}: {error.details()}")
                    if len(outcome.errors) > 20:
                        return
                index += concurrency

        await asyncio.gather(*(loop(number) for number in loops))
        outcome.finished = time.time()
    return outcome


def _calls(kind: str, channel: Any, batch: int, corpus: Corpus, fresh: Queries, outcome: Outcome) -> Any:
    """The coroutine that makes one unit of ``kind``'s work and returns how many units it did."""
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from tavli.v1 import board_pb2, games_service_pb2_grpc, rules_service_pb2, rules_service_pb2_grpc

    health = health_pb2_grpc.HealthStub(channel)
    rules = rules_service_pb2_grpc.RulesServiceStub(channel)
    games = games_service_pb2_grpc.GamesServiceStub(channel)
    backgammon = board_pb2.VARIANT_BACKGAMMON

    def validate_request(index: int) -> Any:
        position_id, dice, notation = corpus[index % len(corpus)]
        return rules_service_pb2.ValidatePlayRequest(
            variant=backgammon,
            position=board_pb2.Position(position_id=position_id),
            dice=dice,
            notation=notation,
        )

    async def timed(method: Any, request: Any, warm: bool) -> Any:
        started = time.perf_counter()
        response = await method(request, timeout=RPC_TIMEOUT)
        if not warm:
            outcome.latencies.append(time.perf_counter() - started)
            outcome.requests += 1
        return response

    async def one(index: int, rng: random.Random, *, warm: bool = False, stop: float = float("inf")) -> int:
        if kind == "health":
            await timed(health.Check, health_pb2.HealthCheckRequest(), warm)
            return 1
        if kind in ("list", "list-again"):
            if kind == "list" and not warm:  # the position and roll numbered ``index``: new to the server
                if index >= len(fresh):
                    raise RuntimeError(
                        f"the run asked for more than {len(fresh)} new positions: fewer --seconds"
                    )
                position_id, dice = fresh[index]
            else:
                position_id, dice, _ = corpus[index % ASKED_AGAIN]
            request = rules_service_pb2.ListLegalPlaysRequest(
                variant=backgammon, position=board_pb2.Position(position_id=position_id), dice=dice
            )
            await timed(rules.ListLegalPlays, request, warm)
            return 1
        if kind == "validate":
            response = await timed(rules.ValidatePlay, validate_request(index), warm)
            assert response.legal, response
            return 1
        if kind == "batch":
            requests = [validate_request(index * batch + item) for item in range(batch)]
            response = await timed(
                rules.BatchValidatePlays, rules_service_pb2.BatchValidatePlaysRequest(requests=requests), warm
            )
            assert all(answer.legal for answer in response.responses)
            return batch
        if kind == "games":
            return await _whole_game(games, timed, rng, warm=warm, stop=stop)
        raise ValueError(kind)

    return one


async def _whole_game(games: Any, timed: Any, rng: random.Random, *, warm: bool, stop: float) -> int:
    """One 1-point backgammon game, two seats, random plays; 1 if it finished before ``stop``."""
    from tavli.v1 import games_service_pb2 as pb

    rule_set = pb.RuleSet(variant=1, match_length=1, cube=pb.CUBE_MODE_NO_CUBE)
    created = await timed(
        games.CreateGame,
        pb.CreateGameRequest(
            rule_set=rule_set,
            dice_mode=pb.DICE_MODE_SEEDED,
            dice_seed=uuid.uuid4().hex,
            request_id=str(uuid.uuid4()),
        ),
        warm,
    )
    tokens = {pb.SEAT_0: created.seat0_token, pb.SEAT_1: created.seat1_token}
    game = created.game
    for _ in range(MOST_ACTIONS_A_GAME):
        if game.phase == pb.PHASE_MATCH_OVER:
            return 1
        if time.time() >= stop or (warm and game.event_count > 6):
            return 0
        seat = pb.SEAT_0 if game.phase == pb.PHASE_OPENING else game.turn
        common = {"name": game.name, "seat_token": tokens[seat], "request_id": str(uuid.uuid4())}
        if game.phase in (pb.PHASE_OPENING, pb.PHASE_ROLLING):
            game = (await timed(games.RollDice, pb.RollDiceRequest(etag=game.etag, **common), warm)).game
        elif game.phase == pb.PHASE_PLAYING:
            listed = await timed(
                games.ListLegalActions, pb.ListLegalActionsRequest(name=game.name, seat=seat), warm
            )
            play = rng.choice(listed.plays)
            request = pb.PlayMoveRequest(etag=listed.etag, notation=play.notation, **common)
            game = (await timed(games.PlayMove, request, warm)).game
        else:
            raise RuntimeError(f"unexpected phase {pb.Phase.Name(game.phase)} in a game without the cube")
    raise RuntimeError(f"a game did not end in {MOST_ACTIONS_A_GAME} actions")


# --- one measurement -----------------------------------------------------------------------------


@dataclass
class Level:
    """One kind at one concurrency, all client processes together."""

    kind: str
    concurrency: int
    processes: int
    seconds: float
    units: int
    requests: int
    latencies: list[float]
    server_cpu: float
    highest: int  # the highest request number used
    errors: list[str]

    @property
    def rps(self) -> float:
        return self.requests / self.seconds

    @property
    def units_per_second(self) -> float:
        return self.units / self.seconds

    def percentile(self, fraction: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def measure(
    kind: str,
    concurrency: int,
    *,
    port: int,
    server_pid: int,
    processes: int,
    seconds: float,
    most: int,
    batch: int,
    corpus: Corpus,
    fresh: Queries,
    first: int = 0,
    profile: Path | None = None,
) -> Level:
    """One kind at one concurrency; its requests are numbered from ``first`` on
    (see :func:`client_process`)."""
    context = multiprocessing.get_context("spawn")  # no grpc state inherited through fork
    results = context.Queue()
    count = min(processes, concurrency)
    loops = [range(index, concurrency, count) for index in range(count)]
    start_at = time.time() + 3.0  # spawned interpreters need a moment to import grpc and connect
    workers = [
        context.Process(
            target=client_process,
            args=(
                kind,
                port,
                numbers,
                concurrency,
                first,
                start_at,
                seconds,
                max(1, most // count),
                batch,
                corpus,
                fresh if kind == "list" else [],
                results,
            ),
        )
        for numbers in loops
    ]
    outcomes, server_cpu, window = run_clients(
        workers, results, start_at=start_at, seconds=seconds, server_pid=server_pid, profile=profile
    )
    return Level(
        kind=kind,
        concurrency=concurrency,
        processes=count,
        seconds=window,
        units=sum(o.units for o in outcomes),
        requests=sum(o.requests for o in outcomes),
        latencies=[latency for o in outcomes for latency in o.latencies],
        server_cpu=server_cpu,
        highest=max([first - 1, *(o.highest for o in outcomes)]),
        errors=[error for o in outcomes for error in o.errors],
    )


def run_clients(
    workers: list[Any],
    results: Any,
    *,
    start_at: float,
    seconds: float,
    server_pid: int,
    profile: Path | None,
    answer_within: float = 60.0,
) -> tuple[list[Any], float, float]:
    """Run the client processes ``workers``, which start their work at ``start_at`` (wall clock)
    and put one outcome each (with ``started`` and ``finished`` times) on ``results``; the server's
    hot path recorded into ``profile`` if given. Returns the outcomes, the server's CPU seconds
    meanwhile, and the window from the first start to the last finish."""
    for worker in workers:
        worker.start()
    while time.time() < start_at:
        time.sleep(0.01)
    cpu_before = cpu_seconds(server_pid)
    recorder = hot_path.start_recording(server_pid, seconds, profile) if profile else None
    outcomes = [results.get(timeout=seconds + answer_within) for _ in workers]
    cpu_after = cpu_seconds(server_pid)
    if recorder is not None:
        recorder.wait(timeout=seconds + 30)
    for worker in workers:
        worker.join(timeout=10)
    measured = [outcome for outcome in outcomes if outcome.started]
    window = (
        (max(o.finished for o in measured) - min(o.started for o in measured)) if measured else float("nan")
    )
    return outcomes, cpu_after - cpu_before, window


def load_corpus() -> Corpus:
    from tavli.engine import BACKGAMMON, Position
    from tests.engine.test_perft import read_perft

    rows = []
    for position_id, dice, _ in read_perft("perft-backgammon.txt"):
        first = next(iter(BACKGAMMON.legal_plays(Position.from_id(position_id), dice)))
        rows.append((position_id, dice, first.notation()))
    return rows


def fresh_queries(corpus: Corpus) -> Queries:
    """``FRESH`` positions and rolls as seeded games of random plays reach them, dice as they fall:
    each pair once, and none of the corpus's pairs (which the other kinds ask)."""
    from tavli.engine import BACKGAMMON
    from tests.games import positions_from_games

    asked = {(position_id, (max(dice), min(dice))) for position_id, dice, _ in corpus}
    queries = []
    for position, dice in positions_from_games(BACKGAMMON, seed=20261130, count=100 * FRESH):
        query = (position.position_id(), (max(dice), min(dice)))
        if query not in asked:
            asked.add(query)
            queries.append(query)
            if len(queries) == FRESH:
                break
    return queries


# --- the report ----------------------------------------------------------------------------------


def report(levels: list[Level], batch: int) -> None:
    print(
        f"\n{'kind':<10} {'conc':>4} {'procs':>5} {'secs':>5} {'requests':>8} {'req/s':>8} {'units/s':>9}"
        f" {'p50 ms':>7} {'p99 ms':>7} {'server CPU ms/req':>17} {'req/s vs health':>15} {'errors':>6}"
    )
    # Each kind's best round at each concurrency: load from elsewhere on the machine only ever
    # lowers a round's throughput.
    by: dict[tuple[str, int], Level] = {}
    for level in levels:
        best = by.get((level.kind, level.concurrency))
        if best is None or level.rps > best.rps:
            by[(level.kind, level.concurrency)] = level
    ceiling = {concurrency: level.rps for (kind, concurrency), level in by.items() if kind == "health"}
    for level in levels:
        versus = level.rps / ceiling[level.concurrency] if level.concurrency in ceiling else float("nan")
        cpu = level.server_cpu / level.requests * 1000 if level.requests else float("nan")
        print(
            f"{level.kind:<10} {level.concurrency:>4} {level.processes:>5} {level.seconds:>5.1f} "
            f"{level.requests:>8}"
            f" {level.rps:>8.0f} {level.units_per_second:>9.1f} {level.percentile(0.5) * 1000:>7.2f}"
            f" {level.percentile(0.99) * 1000:>7.2f} {cpu:>17.3f} {versus:>14.3f}x {len(level.errors):>6}"
        )
    print(
        "\nunits: health, list, list-again, validate = requests; batch = plays validated; games = games "
        "finished"
    )
    print("\nratios (same run; each kind's best round)")
    for (kind, concurrency), level in sorted(
        by.items(), key=lambda item: (KINDS.index(item[0][0]), item[0][1])
    ):
        health = by.get(("health", concurrency))
        if kind == "health" or health is None:
            continue
        line = (
            f"{kind} at concurrency {concurrency}: requests/s {level.rps / health.rps:.3f}x the health "
            "check's"
        )
        if level.requests and health.requests and health.server_cpu > 0:
            line += (
                "; server CPU a request "
                f"{(level.server_cpu / level.requests) / (health.server_cpu / health.requests):.1f}x"
                " the health check's"
            )
        if kind.startswith("list") and concurrency == 16:
            line += "   [target >= 0.85x]"
        print(line)
    for (kind, concurrency), level in by.items():
        unary = by.get(("validate", concurrency))
        if kind == "batch" and unary is not None and unary.units:
            print(
                f"batch validation ({batch} a call) at concurrency {concurrency}: plays/s"
                f" {level.units_per_second / unary.units_per_second:.2f}x unary validation's   [target >= "
                "10x]"
            )
    finished = [level for level in levels if level.kind == "games" and level.units]
    if finished:
        # Few games finish in the window when many are in flight: count the RPCs instead.
        per_game = sum(level.requests for level in finished) / sum(level.units for level in finished)
        for level in levels:
            if level.kind == "games":
                print(
                    f"games at concurrency {level.concurrency}: {level.rps / per_game:.2f} games/s"
                    f" ({level.units} finished; requests/s / {per_game:.0f} RPCs a finished game)"
                )
    errors = [(level.kind, level.concurrency, error) for level in levels for error in level.errors[:3]]
    for kind, concurrency, error in errors:
        print(f"error ({kind}, concurrency {concurrency}): {error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="time a kind runs at each concurrency (games: twice)"
    )
    parser.add_argument(
        "--concurrency", type=int, nargs="+", default=[1, 16, 64], help="calls in flight (default 1 16 64)"
    )
    parser.add_argument("--processes", type=int, default=4, help="client processes at most (default 4)")
    parser.add_argument(
        "--most", type=int, default=200_000, help="units at most a measurement, over all clients"
    )
    parser.add_argument(
        "--batch", type=int, default=100, help="plays a BatchValidatePlays call (default 100)"
    )
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument(
        "--profile",
        nargs="+",
        choices=KINDS,
        default=[],
        help="sample the server with py-spy while these kinds run, at the concurrency nearest 16",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=2,
        help="times each kind is measured at each concurrency, in turn; the best counts (default 2)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes sharing the port (tavli serve --workers; default 1)",
    )
    arguments = parser.parse_args()
    if arguments.profile and arguments.workers > 1:
        parser.error("--profile samples one server process: use it with --workers 1")
    profiled = min(arguments.concurrency, key=lambda concurrency: abs(concurrency - 16))
    profiles: dict[str, Path] = {}
    folder = Path(tempfile.mkdtemp(prefix="tavli-load-"))

    corpus = load_corpus()
    fresh = fresh_queries(corpus)
    port = free_port()
    server = start_server(port, arguments.workers, folder)
    served_by = "--db :memory:" if arguments.workers == 1 else f"--workers {arguments.workers}, --db FILE"
    print(
        f"server: tavli serve subprocess, pid {server.pid}, {LOOPBACK}:{port}, {served_by}, 32 threads;"
        f" clients: up to {arguments.processes} processes (grpc.aio, one channel each); nproc "
        f"{os.cpu_count()}"
    )
    levels = []
    asked: dict[str, int] = {}  # requests made so far, by kind: a kind's next measurement goes on from there
    try:
        wait_until_serving(port, server)
        for concurrency in arguments.concurrency:
            for kind in arguments.kinds * arguments.rounds:
                seconds = arguments.seconds * (2 if kind == "games" else 1)
                profile = None
                if kind in arguments.profile and concurrency == profiled:
                    profile = profiles[kind] = folder / f"server-{kind}-{concurrency}.txt"
                level = measure(
                    kind,
                    concurrency,
                    port=port,
                    server_pid=server.pid,
                    processes=arguments.processes,
                    seconds=seconds,
                    most=arguments.most,
                    batch=arguments.batch,
                    corpus=corpus,
                    fresh=fresh,
                    first=asked.get(kind, 0),
                    profile=profile,
                )
                asked[kind] = level.highest + 1
                levels.append(level)
                print(f"  {kind} at concurrency {concurrency}: {level.rps:.0f} requests/s", flush=True)
    finally:
        stop_server(server)
        for path in folder.glob("games.db*"):  # --workers' store, with its WAL files
            path.unlink()
    report(levels, arguments.batch)
    for kind, profile in profiles.items():
        print(f"\nserver profile while {kind} ran at concurrency {profiled} (py-spy raw samples: {profile})")
        print("\n".join(hot_path.summarize(profile)) if profile.exists() else "  (py-spy wrote nothing)")


if __name__ == "__main__":
    main()
