"""`tavli serve` as an operator runs it: supervised workers that are replaced when they die and
do not outlive their supervisor, and start-up failures said in one line.

Every process started here is stopped, and every wait has a bound.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from structlog.testing import capture_logs

from tavli.server.app import ServerConfig
from tavli.server.startup import StartupError
from tavli.server.workers import RestartPolicy, supervise
from tests.server_play import (
    REPO,
    free_port,
    serve_command,
    stop_process,
    wait_until_serving,
)
from tests.supervision import (
    exited_pids,
    is_gone,
    log_lines,
    serving_pids,
    supervised,
    wait_for,
)


def health(port: int) -> str:
    """What the health service says on a fresh connection to ``port``: SERVING, or the error."""
    own_connection = [("grpc.use_local_subchannel_pool", 1)]
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=own_connection) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5)
        except grpc.RpcError as error:
            return f"{error.code().name}: {error.details()}"
    return str(health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status))


def refuses(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return False
    except ConnectionRefusedError:
        return True


# --- supervised workers ---------------------------------------------------------------------------


def test_a_worker_killed_is_replaced_and_the_port_keeps_answering(tmp_path: Path) -> None:
    with supervised(tmp_path) as (served, log):
        first = serving_pids(log)
        victim = min(first)
        os.kill(victim, signal.SIGKILL)
        # The supervisor hears of an exit once every thread of the worker is gone.
        wait_for("the killed worker reaped", lambda: victim in exited_pids(log))
        assert health(served.port) == "SERVING", "the other worker stopped answering"
        replacement = wait_for("a replacement serving", lambda: serving_pids(log) - first)
        for _ in range(10):
            assert health(served.port) == "SERVING"
        events = log_lines(log)
        exited = [line for line in events if line.get("event") == "worker exited"]
        assert [(line["pid"], line["signal"]) for line in exited] == [(victim, "SIGKILL")]
        restarted = [line for line in events if line.get("event") == "worker restarted"]
        assert [line["pid"] for line in restarted] == sorted(replacement)
        served.process.send_signal(signal.SIGTERM)
        assert served.process.wait(timeout=30) == 0
        workers = (first - {victim}) | replacement
        wait_for("every worker gone after SIGTERM", lambda: all(is_gone(pid) for pid in workers), within=10)
        assert refuses(served.port)
    supervisor_events = [line.get("event") for line in log_lines(log) if "worker" not in line]
    assert supervisor_events[-2:] == ["stopping", "stopped"]


def test_workers_stop_when_their_supervisor_is_killed(tmp_path: Path) -> None:
    with supervised(tmp_path) as (served, log):
        workers = serving_pids(log)
        os.kill(served.process.pid, signal.SIGKILL)
        served.process.wait(timeout=10)
        wait_for("every worker gone", lambda: all(is_gone(pid) for pid in workers), within=10)
        assert refuses(served.port), "something still listens on the port"


def test_a_second_stop_signal_during_the_stop_still_ends_cleanly(tmp_path: Path) -> None:
    with supervised(tmp_path) as (served, log):
        workers = serving_pids(log)
        served.process.send_signal(signal.SIGTERM)
        served.process.send_signal(signal.SIGTERM)
        assert served.process.wait(timeout=15) == 0
        wait_for("every worker gone", lambda: all(is_gone(pid) for pid in workers), within=5)


def _exit_at_once(config: ServerConfig, json_lines: bool) -> None:
    """A worker that cannot start."""
    sys.exit(3)


def test_a_worker_that_keeps_failing_makes_the_supervisor_give_up(tmp_path: Path) -> None:
    config = ServerConfig(port=free_port(), db=tmp_path / "games.sqlite3", workers=1, grace_seconds=1)
    policy = RestartPolicy(first_delay_seconds=0.01, longest_delay_seconds=0.05, most_restarts=2)
    previous = signal.getsignal(signal.SIGTERM)
    started = time.monotonic()
    with capture_logs() as logs:
        assert supervise(config, _exit_at_once, policy=policy) == 1
    assert time.monotonic() - started < 60
    assert signal.getsignal(signal.SIGTERM) is previous
    events = [line["event"] for line in logs]
    assert events[0] == "workers started"
    assert events[-3:] == ["worker keeps failing", "stopping", "stopped"]
    assert events.count("worker restarted") == 2
    before_giving_up = logs[: events.index("worker keeps failing")]
    exits = [line for line in before_giving_up if line["event"] == "worker exited"]
    assert exits and all(line["exit_code"] == 3 for line in exits)
    assert logs[-1]["exit_code"] == 1


def _cannot_start(config: ServerConfig, json_lines: bool) -> None:
    """A worker that cannot start, and says why."""
    raise StartupError(f"the database {config.db} is damaged: page 2 is noise")


def test_a_worker_that_cannot_start_stops_the_supervisor_with_its_reason(tmp_path: Path) -> None:
    config = ServerConfig(port=free_port(), db=tmp_path / "games.sqlite3", workers=2, grace_seconds=1)
    with capture_logs() as logs, pytest.raises(StartupError) as raised:
        supervise(config, _cannot_start)
    assert str(raised.value) == f"the database {config.db} is damaged: page 2 is noise"
    events = [line["event"] for line in logs]
    assert "worker restarted" not in events
    assert events[-1] == "stopped" and logs[-1]["exit_code"] == 2
    assert [line["error"] for line in logs if line["event"] == "worker cannot start"] == [str(raised.value)]


def test_supervising_needs_a_fixed_port_and_a_database() -> None:
    with pytest.raises(StartupError, match="--port"):
        supervise(ServerConfig(port=0, workers=2), _exit_at_once)
    with pytest.raises(StartupError, match="--db"):
        supervise(ServerConfig(port=free_port(), db=None, workers=2), _exit_at_once)


# --- start-up failures ----------------------------------------------------------------------------


def serve_fails(*arguments: str, lines: int | None = 1) -> list[str]:
    """Run ``tavli serve`` expecting it to refuse to start, saying why in its last line of
    standard error and, unless told otherwise, its only one; returns those lines."""
    process = subprocess.Popen(
        serve_command(*arguments), cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        _, error = process.communicate(timeout=30)
    finally:
        stop_process(process)
    said = error.decode(errors="replace").splitlines()
    assert process.returncode == 2, f"exit status {process.returncode}, standard error: {said}"
    assert "Traceback" not in error.decode(errors="replace")
    assert lines is None or len(said) == lines, said
    assert said and said[-1].startswith("tavli serve: ")
    return said


@contextlib.contextmanager
def port_taken() -> Iterator[int]:
    """A port another program listens on (without SO_REUSEPORT)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield int(other.getsockname()[1])


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_port_in_use_is_said_in_one_line(tmp_path: Path, workers: str) -> None:
    with port_taken() as port:
        database = str(tmp_path / "games.sqlite3")
        (line,) = serve_fails("--port", str(port), "--db", database, "--workers", workers)
    assert line == f"tavli serve: port {port} on 127.0.0.1 is already in use"


def test_a_port_out_of_range_is_refused_by_the_parser() -> None:
    (line,) = serve_fails("--port", "99999", "--db", ":memory:")
    assert "--port" in line and "99999 is out of range 0-65535" in line


def test_a_directory_as_database_is_said_in_one_line(tmp_path: Path) -> None:
    (line,) = serve_fails("--port", str(free_port()), "--db", str(tmp_path))
    assert str(tmp_path) in line and "directory" in line


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_file_that_is_not_a_database_is_said_in_one_line(tmp_path: Path, workers: str) -> None:
    noise = tmp_path / "noise.sqlite3"
    noise.write_bytes(os.urandom(8192))
    (line,) = serve_fails("--port", str(free_port()), "--db", str(noise), "--workers", workers)
    assert str(noise) in line and "not an SQLite database" in line


def test_a_database_in_a_missing_directory_is_said_in_one_line(tmp_path: Path) -> None:
    (line,) = serve_fails("--port", str(free_port()), "--db", str(tmp_path / "nowhere" / "games.sqlite3"))
    assert "does not exist" in line


def test_missing_tls_files_are_said_in_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "missing.pem"
    (line,) = serve_fails(
        "--port", str(free_port()), "--db", ":memory:", "--tls-cert", str(missing), "--tls-key", str(missing)
    )
    assert str(missing) in line and "TLS certificate" in line


def damaged_database(path: Path) -> Path:
    """An SQLite file with a sound header and noise after it."""
    with contextlib.closing(sqlite3.connect(path)) as database:
        database.execute("CREATE TABLE games (name TEXT PRIMARY KEY, rules TEXT)")
        rows = ((f"games/{number}", "x" * 200) for number in range(200))
        database.executemany("INSERT INTO games VALUES (?, ?)", rows)
        database.commit()
    data = bytearray(path.read_bytes())
    data[100:] = os.urandom(len(data) - 100)
    path.write_bytes(bytes(data))
    return path


def test_a_database_damaged_inside_is_said_in_one_line(tmp_path: Path) -> None:
    """Only the store sees this one, when it opens the file: its header is sound."""
    damaged = damaged_database(tmp_path / "damaged.sqlite3")
    (line,) = serve_fails("--port", str(free_port()), "--db", str(damaged))
    assert str(damaged) in line


def test_workers_that_find_the_database_damaged_stop_the_supervisor_with_their_reason(tmp_path: Path) -> None:
    """The workers open the store; the supervisor says what they found, last, after its log."""
    damaged = damaged_database(tmp_path / "damaged.sqlite3")
    port = str(free_port())
    lines = serve_fails("--port", port, "--db", str(damaged), "--workers", "2", "--log-json", lines=None)
    assert lines[-1].startswith("tavli serve: ") and str(damaged) in lines[-1]
    assert all(json.loads(line) for line in lines[:-1] if line.startswith("{"))


def test_a_mistyped_option_is_said_by_serve_not_by_the_list_of_commands() -> None:
    (line,) = serve_fails("--prot", "5")
    assert line == "tavli serve: unrecognized arguments: --prot 5; tavli serve --help lists the options"


def test_the_server_listens_on_an_ipv6_address(tmp_path: Path) -> None:
    port = free_port()
    command = [*serve_command("--port", str(port), "--db", str(tmp_path / "games.sqlite3"))]
    command[command.index("--host") + 1] = "::1"
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_until_serving(f"[::1]:{port}", process)
    finally:
        stop_process(process)
