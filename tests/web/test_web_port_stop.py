"""The web port lets go of every connection: an HTTP/2 connection that opens no stream times out as
an idle HTTP/1.1 one does, and a stop ends every kind of open connection within its grace, with
no traceback logged (tavli.server.web_flow, tavli.server.web_guard)."""

from __future__ import annotations

import json
import logging
import socket
import struct
import time

import pytest

from tavli.server.app import ServerConfig, create_server
from tests.server_play import connected, running_server

HTTP2_PREFACE = (
    b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
)  # and empty SETTINGS
CLOSED_WITHIN = 30.0  # seconds: far beyond the keep-alive timeout (5 s); a bound, not a speed


def closed_by_server(connection: socket.socket) -> bool:
    """Whether the server closes ``connection`` within :data:`CLOSED_WITHIN` seconds (what it
    sends meanwhile is read and dropped)."""
    connection.settimeout(1.0)
    deadline = time.monotonic() + CLOSED_WITHIN
    while time.monotonic() < deadline:
        try:
            if connection.recv(4096) == b"":
                return True
        except TimeoutError:
            continue
        except ConnectionResetError:
            return True
    return False


def request(
    path: str, body: bytes, content_type: str = "application/json", length: int | None = None
) -> bytes:
    length = len(body) if length is None else length
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode() + body


@pytest.mark.parametrize(
    ("opening", "sent"), [("HTTP/2 without TLS", HTTP2_PREFACE), ("HTTP/1.1", b"")], ids=["http2", "http1"]
)
def test_a_connection_that_opens_no_request_is_closed(opening: str, sent: bytes) -> None:
    with running_server(web_port=0) as running:
        connection = socket.create_connection(("127.0.0.1", running.web_port), timeout=5)
        try:
            connection.sendall(sent)
            assert closed_by_server(connection), f"an idle {opening} connection was held open"
        finally:
            connection.close()


def test_a_stop_ends_every_kind_of_open_connection_and_logs_no_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    running = create_server(ServerConfig(host="127.0.0.1", port=0, db=None, web_port=0))
    opened: dict[str, socket.socket] = {}
    try:
        with connected(running.port) as client:
            game, _ = client.create_game()
        watch = json.dumps({"name": game.name}).encode()

        def open_connection(kind: str, sent: bytes) -> None:
            opened[kind] = socket.create_connection(("127.0.0.1", running.web_port), timeout=5)
            opened[kind].sendall(sent)

        open_connection("idle HTTP/2", HTTP2_PREFACE)
        stream = struct.pack(">BI", 0, len(watch)) + watch
        open_connection(
            "a watch", request("/tavli.v1.GamesService/WatchGame", stream, "application/connect+json")
        )
        open_connection(
            "a body never sent whole", request("/tavli.v1.RulesService/ListLegalPlays", b"{", length=100)
        )
        open_connection("headers half sent", b"POST /tavli.v1.RulesService/ListLegalPlays HTTP/1.1\r\n")
        time.sleep(0.5)  # every request reaches the server before it stops
        caplog.set_level(logging.ERROR)
        running.stop(0)
    finally:
        for connection in opened.values():
            connection.settimeout(5)
    answers = {kind: b"" for kind in opened}
    for kind, connection in opened.items():
        while chunk := connection.recv(65536):
            answers[kind] += chunk
        connection.close()
    errors = [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]
    assert not errors, errors
    unfinished_body = answers["a body never sent whole"].decode()
    assert unfinished_body.startswith("HTTP/1.1 503"), unfinished_body
    assert "the server is stopping" in unfinished_body
