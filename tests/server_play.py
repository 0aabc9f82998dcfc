"""What the end-to-end server tests share: a server on a loopback port, error decoding, and two
seats playing a match through the API to its end, choosing among the legal actions.

Every RPC made here has a timeout, every server started here is stopped, and every game played
here has a bound on its actions, so that a bug makes a test fail rather than hang.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from tavli.clients.client import Seat, TavliClient
from tavli.server.app import Running, ServerConfig, create_server
from tavli.server.web_client import WEB_CLIENT_HEADER
from tavli.v1 import games_service_pb2 as games_pb2

REPO = Path(__file__).resolve().parents[1]
RPC_TIMEOUT = 10.0
# Random play ends a backgammon game in ~150 actions and a long nardi game in ~250; a match of a
# few games stays far below this unless something loops.
MOST_ACTIONS = 5_000


@contextlib.contextmanager
def running_server(**options: object) -> Iterator[Running]:
    """A server on 127.0.0.1 and a free port, games in memory unless ``db`` is given, seeded dice
    allowed unless ``allow_seeded_dice=False`` is given (the tests replay seeded games); stopped after."""
    options.setdefault("allow_seeded_dice", True)
    options.setdefault("db", None)
    config = ServerConfig(host="127.0.0.1", port=0, **options)  # type: ignore[arg-type]
    running = create_server(config)
    try:
        yield running
    finally:
        running.stop(0)


@contextlib.contextmanager
def connected(port: int) -> Iterator[TavliClient]:
    """A client connection to the server on ``port``, closed after."""
    client = TavliClient.connect(f"127.0.0.1:{port}", timeout=RPC_TIMEOUT)
    try:
        yield client
    finally:
        client.close()


@contextlib.contextmanager
def as_web_client(
    running: Running, address: str
) -> Iterator[tuple[grpc.Channel, tuple[tuple[str, str], ...]]]:
    """A channel to ``running``'s own socket and the metadata with which its calls count as the
    browser at ``address`` the web port passes them on for: another client than the tests' own."""
    channel = grpc.insecure_channel(f"unix:{running.own_socket / 'native.sock'}")
    try:
        yield channel, ((WEB_CLIENT_HEADER, address),)
    finally:
        channel.close()


def child_processes(pid: int) -> list[int]:
    """The processes process ``pid`` started that are running now (Linux /proc)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError):
            found += [int(child) for child in (task / "children").read_text().split()]
    return found


def web_processes(server_pid: int) -> list[int]:
    """The web port's processes (``tavli.server.web_process``) the server process ``server_pid``
    started and that are running now."""
    found = []
    for child in child_processes(server_pid):
        with contextlib.suppress(FileNotFoundError):
            if b"tavli.server.web_process" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(child)
    return found


def error_info(error: grpc.RpcError) -> tuple[grpc.StatusCode, str, str]:
    """The status code of a failed call and its google.rpc.ErrorInfo's reason and domain."""
    status = rpc_status.from_call(error)
    assert status is not None, f"no rich status in {error!r}"
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return error.code(), info.reason, info.domain
    raise AssertionError(f"no ErrorInfo in {error!r}")


def free_port() -> int:
    """A port nothing uses now, for a subprocess to listen on.

    Chosen below the kernel's ephemeral range: a port the kernel hands out (binding port 0) may be
    handed out again as the local end of some client's connection before the subprocess binds it.
    """
    low, high = _ports_of_this_worker()
    chooser = random.Random()
    for _ in range(200):
        port = chooser.randrange(low, high)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError("no free port below the ephemeral range")


XDIST_WORKERS = 8
"""The most parallel test processes (pytest-xdist's workers) whose port ranges are kept apart."""


def _ports_of_this_worker() -> tuple[int, int]:
    """This test process's share of the ports below the ephemeral range: parallel workers choose
    from ranges of their own, so two of them never start servers on the same port."""
    lowest = 10_000
    highest = max(_ephemeral_ports()[0], 20_000)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker.removeprefix("gw")) % XDIST_WORKERS if worker.startswith("gw") else 0
    share = (highest - lowest) // XDIST_WORKERS
    return lowest + index * share, lowest + (index + 1) * share


def _ephemeral_ports() -> tuple[int, int]:
    """The kernel's range of ports for the local ends of connections."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999  # Linux's default


def all_events(client: TavliClient, name: str) -> list[games_pb2.GameEvent]:
    """The game's whole log, page after page."""
    events: list[games_pb2.GameEvent] = []
    token = ""
    for _ in range(1000):
        request = games_pb2.ListGameEventsRequest(name=name, page_token=token)
        page = client.games.ListGameEvents(request, timeout=RPC_TIMEOUT)
        events.extend(page.events)
        token = page.next_page_token
        if not token:
            return events
    raise AssertionError("ListGameEvents never gave its last page")


# --- playing ------------------------------------------------------------------------------------


def seat_to_act(game: games_pb2.Game) -> int | None:
    """The index of the seat the game waits for (before the opening throw, either: seat 0 here)."""
    if not game.to_act:
        assert game.phase == games_pb2.PHASE_MATCH_OVER, f"nobody to act in phase {game.phase}"
        return None
    return 0 if game.to_act[0] == games_pb2.SEAT_0 else 1


@dataclass
class Policy:
    """How a random player decides: which play, and how often it doubles and takes."""

    rng: random.Random
    double_rate: float = 0.0
    take_rate: float = 0.7


def act_once(seats: tuple[Seat, Seat], game: games_pb2.Game, policy: Policy) -> games_pb2.Game:
    """The waited-for seat lists its legal actions and makes one of them; returns the game after."""
    index = seat_to_act(game)
    assert index is not None, "the match is over"
    seat = seats[index]
    legal = seat.legal_actions()
    actions = set(legal.actions)
    assert actions, f"seat {index} is waited for but may do nothing in phase {game.phase}"
    if games_pb2.ACTION_PLAY in actions:
        assert legal.plays, "a seat that must play has no legal play listed"
        return seat.play(policy.rng.choice(legal.plays).notation)
    if games_pb2.ACTION_TAKE in actions:
        return seat.take() if policy.rng.random() < policy.take_rate else seat.drop()
    if games_pb2.ACTION_DOUBLE in actions and policy.rng.random() < policy.double_rate:
        return seat.double()
    if games_pb2.ACTION_ROLL in actions:
        return seat.roll()
    if games_pb2.ACTION_ACCEPT in actions:
        return seat.accept()
    raise AssertionError(f"no action chosen from {sorted(actions)}")


def play_actions(seats: tuple[Seat, Seat], policy: Policy, count: int) -> games_pb2.Game:
    """Make ``count`` actions (fewer if the match ends first); returns the last state seen."""
    game = seats[0].game()
    for _ in range(count):
        if game.phase == games_pb2.PHASE_MATCH_OVER:
            break
        game = act_once(seats, game, policy)
    return game


def play_to_end(seats: tuple[Seat, Seat], policy: Policy) -> games_pb2.Game:
    """Play the match to its end; returns the final state."""
    game = seats[0].game()
    for _ in range(MOST_ACTIONS):
        if game.phase == games_pb2.PHASE_MATCH_OVER:
            return game
        game = act_once(seats, game, policy)
    raise AssertionError(f"the match did not end within {MOST_ACTIONS} actions")


def play_until(
    seats: tuple[Seat, Seat], policy: Policy, phase: int, seat_on_turn: int | None = None
) -> games_pb2.Game:
    """Play until the game is in ``phase`` (with ``seat_on_turn`` on turn, if given)."""
    game = seats[0].game()
    for _ in range(MOST_ACTIONS):
        if game.phase == phase and (seat_on_turn is None or game.turn == seat_on_turn):
            return game
        assert game.phase != games_pb2.PHASE_MATCH_OVER, "the match ended first"
        game = act_once(seats, game, policy)
    raise AssertionError(f"phase {phase} not reached within {MOST_ACTIONS} actions")


# --- `tavli serve` as a process -----------------------------------------------------------------


@dataclass
class ServeProcess:
    """A ``tavli serve`` subprocess and the port it listens on."""

    process: subprocess.Popen[bytes]
    port: int

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"


def serve_command(*arguments: str) -> list[str]:
    """The command line of ``tavli serve`` on 127.0.0.1 with ``arguments``, run by this Python;
    with no web port unless ``arguments`` ask for one (many servers run at once, and the web
    port's default is one fixed port)."""
    web = [] if "--web-port" in arguments else ["--no-web"]
    return [sys.executable, "-m", "tavli.clients.cli", "serve", "--host", "127.0.0.1", *web, *arguments]


def tavli_serve(
    *arguments: str, port: int | None = None, stderr: Path | None = None, seeded_dice: bool = True
) -> ServeProcess:
    """Start ``tavli serve`` on ``port`` (a free one by default), its standard error written to
    the file ``stderr`` (or dropped), and wait until it answers. ``seeded_dice``: start it with
    ``--allow-seeded-dice``, as a test rig does."""
    port = port or free_port()
    seeded = ["--allow-seeded-dice"] if seeded_dice else []
    command = serve_command("--port", str(port), *seeded, *arguments)
    environment = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with open(stderr or os.devnull, "wb") as error_file:  # the child keeps its own copy
        process = subprocess.Popen(
            command, cwd=REPO, env=environment, stdout=subprocess.DEVNULL, stderr=error_file
        )
    served = ServeProcess(process, port)
    try:
        wait_until_serving(served.address, process)
    except BaseException:
        stop_process(process)
        raise
    return served


def wait_until_serving(address: str, process: subprocess.Popen[bytes], *, within: float = 60.0) -> None:
    """Wait until a server answers on ``address``; fail if the process exits or time runs out."""
    deadline = time.monotonic() + within
    # Reconnect attempts every 50 ms, not gRPC's default backoff (1 s and growing), so that the wait
    # ends as soon as the server answers.
    fast = [
        ("grpc.initial_reconnect_backoff_ms", 50),
        ("grpc.min_reconnect_backoff_ms", 50),
        ("grpc.max_reconnect_backoff_ms", 50),
    ]
    # A health check waiting for the connection, not grpc.channel_ready_future: its thread polling
    # the channel raises (a traceback in the test's output) when the channel closes under it.
    with grpc.insecure_channel(address, options=fast) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        while True:
            if process.poll() is not None:
                raise AssertionError(f"tavli serve exited with {process.returncode} before serving")
            try:
                health.Check(health_pb2.HealthCheckRequest(), timeout=0.2, wait_for_ready=True)
                return
            except grpc.RpcError as error:
                if error.code() not in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.UNAVAILABLE):
                    return  # it answered
                if time.monotonic() > deadline:
                    raise AssertionError(
                        f"tavli serve did not answer on {address} within {within} s"
                    ) from None


def stop_process(process: subprocess.Popen[Any]) -> None:
    """Kill ``process`` if it still runs, and reap it."""
    if process.poll() is None:
        os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=10)
