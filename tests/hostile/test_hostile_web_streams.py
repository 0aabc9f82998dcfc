"""Backpressure on the web port's streams: 40 Connect WatchGame streams that never read, on a game
played as fast as a client can, keep the server's memory bounded (a watcher that does not read is
slowed, its messages held in bounded buffers), as on the native port.
"""

from __future__ import annotations

import json
import random
import socket
import struct
from pathlib import Path

from tavli.clients.client import TavliClient
from tests.hostile.campaign import Figures, figures_fixture, serve, stop  # noqa: F401 - the fixture `figures`
from tests.server_play import RPC_TIMEOUT, Policy, free_port, play_actions

WATCHERS = 40
ACTIONS = 1500
MOST_GROWTH_MB = 40.0


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for process {pid}")


def watch_without_reading(port: int, name: str) -> socket.socket:
    """A Connect WatchGame of ``name`` whose answer is never read (the socket's receive buffer
    kept small, as a slow phone's would be)."""
    connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    connection.connect(("127.0.0.1", port))
    body = json.dumps({"name": name}).encode()
    envelope = struct.pack(">BI", 0, len(body)) + body
    connection.sendall(
        b"POST /tavli.v1.GamesService/WatchGame HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/connect+json\r\n"
        + f"Content-Length: {len(envelope)}\r\n\r\n".encode()
        + envelope
    )
    return connection


def test_web_watchers_that_never_read_keep_server_memory_bounded(tmp_path: Path, figures: Figures) -> None:
    web_port = free_port()
    served = serve(
        "--db", str(tmp_path / "games.sqlite3"), "--web-port", str(web_port), log=tmp_path / "serve.log"
    )
    client = TavliClient.connect(served.address, timeout=RPC_TIMEOUT)
    watchers: list[socket.socket] = []
    try:
        seats = client.create_game()  # money play: games follow one another as long as it is played
        play_actions(seats, Policy(random.Random(7)), 100)
        watchers = [watch_without_reading(web_port, seats[0].name) for _ in range(WATCHERS)]
        play_actions(seats, Policy(random.Random(8)), 100)  # every watcher is past its first messages
        before = resident_mb(served.pid)
        play_actions(seats, Policy(random.Random(9)), ACTIONS)
        after = resident_mb(served.pid)
        events = client.game(seats[0].name).event_count
    finally:
        for watcher in watchers:
            watcher.close()
        client.close()
        stop(served)
    figures.update(
        watchers=WATCHERS, events=events, memory_mb_before=round(before), memory_mb_after=round(after)
    )
    assert after - before < MOST_GROWTH_MB, f"server memory grew {before:.0f} -> {after:.0f} MB"
    figures.passed()
