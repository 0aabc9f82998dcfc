"""The web port runs in a process of its own (tavli.server.web_process): whatever becomes of it,
the native port answers; a web process that dies is started again on the same port; it ends
with the server, however the server ends, and what it logs is in the server's log."""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import ssl
import struct
import subprocess
import time
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tests.server.test_server_ops import certificate  # noqa: F401 (a fixture, found by its name)
from tests.server_play import (
    REPO,
    RPC_TIMEOUT,
    Policy,
    child_processes,
    connected,
    free_port,
    play_actions,
    running_server,
    serve_command,
    stop_process,
    wait_until_serving,
    web_processes,
)

HTTP_TIMEOUT = 30.0  # a web process restarted under load takes a few seconds to take connections
GONE_WITHIN = 30.0  # seconds: a bound, not a speed


def native_health(port: int) -> int:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        return stub.Check(health_pb2.HealthCheckRequest(), timeout=RPC_TIMEOUT).status


def web_health(port: int, *, tls: ssl.SSLContext | None = None) -> tuple[int, bytes]:
    if tls is None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HTTP_TIMEOUT)
    else:
        connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=HTTP_TIMEOUT, context=tls)
    try:
        connection.request(
            "POST", "/grpc.health.v1.Health/Check", body=b"{}", headers={"Content-Type": "application/json"}
        )
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def running(pid: int) -> bool:
    """Whether process ``pid`` exists and has not exited (a zombie has)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


SERVING = health_pb2.HealthCheckResponse.SERVING


def test_the_web_port_is_served_by_a_process_of_its_own_that_ends_with_the_server() -> None:
    with running_server(web_port=0) as server:
        assert server.web is not None
        web = server.web.pid
        assert web != os.getpid()
        assert web_processes(os.getpid()) == [web]
        assert web_health(server.web_port) == (200, b'{"status": "SERVING"}')
    assert web_processes(os.getpid()) == []
    assert not running(web)


def test_native_health_answers_while_the_web_process_is_stopped() -> None:
    with running_server(web_port=0) as server:
        assert server.web is not None
        web = server.web.pid
        os.kill(web, signal.SIGSTOP)
        try:
            for _ in range(5):
                assert native_health(server.port) == SERVING
        finally:
            os.kill(web, signal.SIGCONT)
        assert web_health(server.web_port)[0] == 200
        assert server.web.pid == web


def test_a_killed_web_process_is_started_again_while_the_native_port_serves() -> None:
    with running_server(web_port=0) as server:
        assert server.web is not None
        killed = server.web.pid
        os.kill(killed, signal.SIGKILL)
        assert native_health(server.port) == SERVING
        # The port's socket is the server's: a request made meanwhile waits for the new process.
        assert web_health(server.web_port)[0] == 200
        assert server.web.pid != killed
        assert not running(killed)
        assert web_processes(os.getpid()) == [server.web.pid]


def test_the_web_process_logs_in_the_servers_log_and_ends_when_the_server_is_killed(tmp_path: Path) -> None:
    port, web_port = free_port(), free_port()
    log = tmp_path / "serve.log"
    command = serve_command(
        "--port", str(port), "--web-port", str(web_port), "--log-json", "--db", ":memory:"
    )
    with open(log, "wb") as error_file:  # the server keeps its own copy
        server = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=error_file)
    try:
        wait_until_serving(f"127.0.0.1:{port}", server)
        assert web_health(web_port)[0] == 200
        (web,) = web_processes(server.pid)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=RPC_TIMEOUT)
        assert gone_within(web, GONE_WITHIN), "the web process outlived the server"
    finally:
        stop_process(server)
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    serving = next(line for line in lines if line["event"] == "serving")
    web_lines = [line for line in lines if line.get("logger") == "tavli.web"]
    assert any("Running on" in line["event"] for line in web_lines), lines
    fields = {"event", "level", "logger", "timestamp"}
    assert fields <= serving.keys()
    assert all(fields <= line.keys() for line in web_lines)


def test_each_worker_has_a_web_process_of_its_own_and_none_outlives_the_supervisor(tmp_path: Path) -> None:
    port, web_port = free_port(), free_port()
    database = str(tmp_path / "games.sqlite3")
    command = serve_command(
        "--port", str(port), "--web-port", str(web_port), "--db", database, "--workers", "2"
    )
    server = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_serving(f"127.0.0.1:{port}", server)
        deadline = time.monotonic() + GONE_WITHIN
        while (
            len(webs := [web for worker in child_processes(server.pid) for web in web_processes(worker)]) < 2
        ):
            assert time.monotonic() < deadline, f"web processes of the workers: {webs}"
            time.sleep(0.1)
        assert len(webs) == 2
        assert all(web_health(web_port)[0] == 200 for _ in range(4))
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=GONE_WITHIN) == 0
        assert not [web for web in webs if running(web)]
    finally:
        stop_process(server)


def test_a_web_watch_cut_by_its_web_process_stopping_is_unavailable_never_cancelled() -> None:
    # A page whose watch ends cancelled believes it cancelled it itself, and stops following.
    with running_server(web_port=0, grace_seconds=0.5) as server, connected(server.port) as client:
        assert server.web is not None
        seats = client.create_game()
        play_actions(seats, Policy(random.Random(1)), 1)
        watch = json.dumps({"name": seats[0].name}).encode()
        body = struct.pack(">BI", 0, len(watch)) + watch
        connection = socket.create_connection(("127.0.0.1", server.web_port), timeout=HTTP_TIMEOUT)
        with connection:
            connection.sendall(
                b"POST /tavli.v1.GamesService/WatchGame HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/connect+json\r\n"
                + f"Content-Length: {len(body)}\r\n\r\n".encode()
                + body
            )
            answer = connection.recv(65536)
            assert answer.startswith(b"HTTP/1.1 200"), answer  # the watch is open: its first message came
            os.kill(server.web.pid, signal.SIGTERM)  # the native watch goes on: the web process cuts it
            while chunk := connection.recv(65536):
                answer += chunk
        end = answer.replace(b" ", b"")
        assert b'"code":"unavailable"' in end, answer[-300:]
        assert b"canceled" not in end
        assert b"the server is stopping" in answer


def test_the_web_process_serves_over_tls_with_the_servers_certificate(
    certificate: tuple[Path, Path],  # noqa: F811 - the fixture imported above
) -> None:
    cert, key = certificate
    with running_server(web_port=0, tls_cert=cert, tls_key=key) as server:
        trusting = ssl.create_default_context(cafile=str(cert))
        assert web_health(server.web_port, tls=trusting) == (200, b'{"status": "SERVING"}')
