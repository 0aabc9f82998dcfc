"""Backpressure on the web port's streams: 40 Connect WatchGame streams that never read (half over
HTTP/1.1, half over HTTP/2, whose window is never opened), on a game played as fast as a client
can, keep the server's memory bounded, as on the native port: a watcher that does not read is
slowed, its messages held in bounded buffers, and the native watch behind it waits. The server's
memory is its own process's and its web process's together.
"""

from __future__ import annotations

import json
import random
import socket
import struct
from pathlib import Path

import h2.config
import h2.connection

from tavli.clients.client import TavliClient
from tests.hostile.campaign import Figures, figures_fixture, serve, stop  # noqa: F401 - the fixture `figures`
from tests.server_play import RPC_TIMEOUT, Policy, free_port, play_actions, web_processes

WATCHERS = 40
ROUNDS = 6
ACTIONS_A_ROUND = 250
MOST_GROWTH_MB = 30.0
WATCH = "/tavli.v1.GamesService/WatchGame"


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for process {pid}")


def server_resident_mb(server_pid: int) -> float:
    """The resident memory of the server's process and of its web process."""
    (web,) = web_processes(server_pid)
    return resident_mb(server_pid) + resident_mb(web)


def unread_connection(port: int) -> socket.socket:
    """A connection whose answers are never read (its receive buffer kept small, as a slow
    phone's would be)."""
    connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    connection.connect(("127.0.0.1", port))
    return connection


def watch_request(name: str) -> bytes:
    body = json.dumps({"name": name}).encode()
    return struct.pack(">BI", 0, len(body)) + body


def watch_over_http_1(port: int, name: str) -> socket.socket:
    """A Connect WatchGame of ``name`` over HTTP/1.1 whose answer is never read."""
    connection = unread_connection(port)
    request = watch_request(name)
    connection.sendall(
        f"POST {WATCH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/connect+json\r\n".encode()
        + f"Content-Length: {len(request)}\r\n\r\n".encode()
        + request
    )
    return connection


def watch_over_http_2(port: int, name: str) -> socket.socket:
    """A Connect WatchGame of ``name`` over HTTP/2 (prior knowledge) whose answer is never read
    and whose flow-control window is never opened."""
    connection = unread_connection(port)
    client = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    client.initiate_connection()
    headers = [
        (":method", "POST"),
        (":path", WATCH),
        (":scheme", "http"),
        (":authority", "127.0.0.1"),
        ("content-type", "application/connect+json"),
    ]
    client.send_headers(1, headers)
    client.send_data(1, watch_request(name), end_stream=True)
    connection.sendall(client.data_to_send())
    return connection


def test_web_watchers_that_never_read_keep_server_memory_bounded(tmp_path: Path, figures: Figures) -> None:
    web_port = free_port()
    served = serve(
        "--db", str(tmp_path / "games.sqlite3"), "--web-port", str(web_port), log=tmp_path / "serve.log"
    )
    client = TavliClient.connect(served.address, timeout=RPC_TIMEOUT)
    watchers: list[socket.socket] = []
    resident: list[float] = []
    try:
        seats = client.create_game()  # money play: games follow one another as long as it is played
        play_actions(seats, Policy(random.Random(7)), 100)
        watchers = [
            (watch_over_http_2 if number % 2 else watch_over_http_1)(web_port, seats[0].name)
            for number in range(WATCHERS)
        ]
        play_actions(seats, Policy(random.Random(8)), 100)  # every watcher is past its first messages
        resident.append(server_resident_mb(served.pid))
        for number in range(ROUNDS):
            play_actions(seats, Policy(random.Random(9 + number)), ACTIONS_A_ROUND)
            resident.append(server_resident_mb(served.pid))
        events = client.game(seats[0].name).event_count
    finally:
        for watcher in watchers:
            watcher.close()
        client.close()
        stop(served)
    figures.update(watchers=WATCHERS, events=events, memory_mb=[round(mb) for mb in resident])
    growth = resident[-1] - resident[0]
    assert growth < MOST_GROWTH_MB, f"server memory grew {resident[0]:.0f} -> {resident[-1]:.0f} MB"
    figures.passed()
