"""Every surface answers what a hostile or careless client sends in words, never INTERNAL nor a
logged traceback, and one client's slow or many requests cannot hold the server.

- A PlaySeat message that is not a PlaySeatRequest (first or after the join) ends the stream
  with INVALID_ARGUMENT, reason UNDECODABLE_MESSAGE, and no traceback in the log.
- Text holding NUL (a game's name, a request_id) is refused at the edge with INVALID_ARGUMENT
  naming the field, the same for every store (memory, SQLite, PostgreSQL), and stores nothing.
- A Duration whose nanos are a second or more, and SeatBot for a seat a stream holds, are refused
  in words; ValidateMatch reads no C1 control character into a name from Windows/Latin-1 bytes.
- On the web port: every API answer carries ``X-Content-Type-Options: nosniff``; native gRPC
  over HTTP/1.1 is answered 415 in words, with no ASGI traceback, and counted as a call of its
  client; a message flagged compressed in a stream that named no compression is
  invalid_argument, not internal.
- Slow bodies: requests whose body comes one byte at a time are answered and closed once the
  web port's body time is up, while the native health check answers; one address may have a
  bounded number of requests open, and those refused count against its quota.
- Descriptors: on a server allowed 320, 400 connections from ten addresses, their heads still
  coming, get at most the 64 the web port may hold; the rest are closed at once, the native
  health check answers on new connections all the while, and nothing is logged at ERROR.
"""

from __future__ import annotations

import http.client
import json
import logging
import random
import socket
import struct
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from google.protobuf.duration_pb2 import Duration
from grpc_health.v1 import health_pb2, health_pb2_grpc
from structlog.testing import capture_logs

from tavli.clients.client import TavliClient
from tavli.engine.matfile import export_mat
from tavli.engine.rules import RuleSet
from tavli.server.app import Running
from tavli.server.quotas import QuotaLimits
from tavli.server.services import SERVICES
from tavli.server.web_limits import WebLimits
from tavli.v1 import board_pb2, bots_service_pb2, bots_service_pb2_grpc, games_service_pb2 as games_pb2
from tests.games import bot_match
from tests.hostile.campaign import Figures, figures_fixture, serve, stop, tracebacks  # noqa: F401 - the fixture `figures`
from tests.server.test_server_seat_stream import RawStream
from tests.server_play import (
    RPC_TIMEOUT,
    Policy,
    connected,
    error_info,
    free_port,
    play_to_end,
    running_server,
)

PLAY_SEAT = "/tavli.v1.GamesService/PlaySeat"
HTTP_TIMEOUT = 30.0


@pytest.fixture(scope="module")
def server() -> Iterator[Running]:
    with running_server(web_port=0) as running:
        yield running


@pytest.fixture
def client(server: Running) -> Iterator[TavliClient]:
    with connected(server.port) as client:
        yield client


def raw_seat_stream(client: TavliClient, *messages: bytes) -> grpc.RpcError:
    """How a PlaySeat stream of ``messages``, as bytes, ends (it must end with an error)."""
    call = client.channel.stream_stream(PLAY_SEAT, request_serializer=lambda raw: raw)
    with pytest.raises(grpc.RpcError) as ended:
        list(call(iter(messages), timeout=RPC_TIMEOUT))
    return ended.value


def faults(logs: list[dict[str, object]]) -> list[dict[str, object]]:
    return [line for line in logs if line.get("log_level") == "error" or "exc_info" in line]


# Bytes that are no PlaySeatRequest: a field 1 (join) of length 100 with 2 bytes behind it, and
# a tag of a wire type that does not exist.
UNDECODABLE = [b"\x0a\x64ab", b"\x0f\xff\xff"]


@pytest.mark.parametrize("garbage", UNDECODABLE)
def test_an_undecodable_seat_stream_message_is_refused_in_words_without_a_traceback(
    client: TavliClient, garbage: bytes
) -> None:
    mine, _ = client.create_game()
    join = games_pb2.PlaySeatRequest(join=games_pb2.JoinSeat(name=mine.name, seat_token=mine.token))
    with capture_logs() as logs:
        first = raw_seat_stream(client, garbage)
        after_the_join = raw_seat_stream(client, join.SerializeToString(), garbage)
    for ended in (first, after_the_join):
        assert error_info(ended)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "UNDECODABLE_MESSAGE")
        assert "is not a PlaySeat request" in ended.details()
    assert not faults(logs)
    assert client.game(mine.name).event_count == 0


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def any_store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    folder = tmp_path_factory.mktemp("nul")
    stores: dict[str, dict[str, object]] = {
        "memory": {},
        "sqlite": {"db": folder / "games.sqlite3"},
        "postgresql": {"db": request.getfixturevalue("postgres_url"), "key_file": folder / "key"}
        if request.param == "postgresql"
        else {},
    }
    with running_server(**stores[request.param]) as running:
        yield running


def test_nul_in_text_is_refused_at_the_edge_the_same_for_every_store(any_store: Running) -> None:
    with connected(any_store.port) as client:
        mine, _ = client.create_game()
        asks = [
            lambda: client.games.GetGame(games_pb2.GetGameRequest(name=mine.name + "\x00")),
            lambda: client.games.RollDice(
                games_pb2.RollDiceRequest(name=mine.name, seat_token=mine.token, request_id="r\x00")
            ),
            lambda: client.games.CreateGame(
                games_pb2.CreateGameRequest(
                    rule_set=games_pb2.RuleSet(variant=board_pb2.VARIANT_BACKGAMMON), request_id="\x00"
                )
            ),
        ]
        with capture_logs() as logs:
            for ask in asks:
                with pytest.raises(grpc.RpcError) as refused:
                    ask()
                assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
                assert "holds a control character (0x0000): NUL" in refused.value.details()
        assert not faults(logs)
        assert client.game(mine.name).event_count == 0


def test_a_duration_of_a_second_or_more_in_nanos_is_refused_in_words(client: TavliClient) -> None:
    clock = games_pb2.ClockRules(reserve=Duration(seconds=60, nanos=1_000_000_000))
    rule_set = games_pb2.RuleSet(variant=board_pb2.VARIANT_BACKGAMMON, match_length=3, clock=clock)
    with pytest.raises(grpc.RpcError) as refused:
        client.games.CreateGame(games_pb2.CreateGameRequest(rule_set=rule_set))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "the clock's reserve has 1,000,000,000 nanos" in refused.value.details()
    rule_set.clock.reserve.nanos = 999_999_999
    assert client.games.CreateGame(games_pb2.CreateGameRequest(rule_set=rule_set)).game.name


def test_seat_bot_for_a_seat_a_stream_holds_is_refused_in_words(client: TavliClient) -> None:
    _, theirs = client.create_game(match_length=1)
    stream = RawStream.joined(client, theirs)
    try:
        stream.next()  # joined: the seat is held
        bots = bots_service_pb2_grpc.BotsServiceStub(client.channel)
        with pytest.raises(grpc.RpcError) as refused:
            bots.SeatBot(bots_service_pb2.SeatBotRequest(name=theirs.name, seat_token=theirs.token))
        assert error_info(refused.value)[:2] == (
            grpc.StatusCode.FAILED_PRECONDITION,
            "SEAT_ALREADY_STREAMING",
        )
        assert "played on a seat stream now" in refused.value.details()
        seated = bots.GetSeatBot(bots_service_pb2.GetSeatBotRequest(name=theirs.name, seat=games_pb2.SEAT_1))
        assert not seated.bot
    finally:
        stream.close()


def test_windows_and_latin_1_names_never_come_back_as_control_characters(client: TavliClient) -> None:
    text = export_mat(bot_match(RuleSet(match_length=3), seed=2), players=("Jörg", "Zoë"))
    # 0x81 and 0x9d are undefined in Windows-1252; Latin-1 reads them as C1 controls.
    data = text.encode("latin-1").replace("Jörg".encode("latin-1"), b"J\x81rg\x9d")
    players = list(client.validate_match(data).players)
    assert players == ["J\ufffdrg\ufffd", "Zoë"]
    assert not [c for name in players for c in name if 0x80 <= ord(c) <= 0x9F]


def post(
    port: int, path: str, body: bytes, content_type: str, **headers: str
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HTTP_TIMEOUT)
    try:
        connection.request("POST", path, body=body, headers={"Content-Type": content_type, **headers})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def test_every_api_answer_of_the_web_port_says_nosniff(server: Running) -> None:
    answers = [
        post(
            server.web_port, "/tavli.v1.GamesService/GetGame", b'{"name": "games/none"}', "application/json"
        ),
        post(server.web_port, "/tavli.v1.RulesService/ValidateMatch", b"{}", "application/json"),
        post(server.web_port, "/grpc.health.v1.Health/Check", b"{}", "application/json"),
    ]
    assert [status for status, _, _ in answers] == [404, 400, 200]
    for _, headers, _ in answers:
        assert headers["x-content-type-options"] == "nosniff"


def test_native_grpc_over_http_1_is_refused_in_words_without_a_traceback(
    server: Running, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    for content_type in ("application/grpc", "application/grpc+proto"):
        status, headers, body = post(
            server.web_port, "/grpc.health.v1.Health/Check", b"\0\0\0\0\0", content_type
        )
        assert status == 415
        assert "native gRPC needs HTTP/2" in body.decode()
        assert headers["x-content-type-options"] == "nosniff"
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


def test_native_grpc_over_http_1_counts_as_a_call_of_its_client() -> None:
    quotas = QuotaLimits(calls_per_second=0.001, call_burst=3)
    with running_server(web_port=0, quotas=quotas) as running:
        refused = [
            post(running.web_port, "/grpc.health.v1.Health/Check", b"\0\0\0\0\0", "application/grpc")[0]
            for _ in range(2)
        ]
        assert refused == [415, 415]
        answered = 0
        while post(running.web_port, VALIDATE_MATCH, b"{}", "application/json")[0] != 429:
            answered += 1
            assert answered < 100, "the calls of the address were never limited"
        assert answered == 1  # the two refused took two of the three the burst allows


def envelope(payload: bytes, flags: int = 0) -> bytes:
    return struct.pack(">BI", flags, len(payload)) + payload


def test_a_message_flagged_compressed_with_no_compression_named_is_invalid_argument(server: Running) -> None:
    request = games_pb2.WatchGameRequest(name="games/none").SerializeToString()
    # Connect's stream: the error is the end-stream message's
    _, _, body = post(
        server.web_port,
        "/tavli.v1.GamesService/WatchGame",
        envelope(request, flags=1),
        "application/connect+proto",
    )
    end = json.loads(body[5:])
    assert end["error"]["code"] == "invalid_argument"
    assert "flagged compressed" in end["error"]["message"]
    # gRPC-Web: the status is in the trailers (a frame of its own) or the headers
    _, headers, body = post(
        server.web_port,
        "/tavli.v1.GamesService/WatchGame",
        envelope(request, flags=1),
        "application/grpc-web+proto",
    )
    status = headers.get("grpc-status") or body.decode("latin-1")
    assert "grpc-status:3" in status.replace(" ", "") or status == "3"


SLOW_REQUEST = (
    b"POST /tavli.v1.RulesService/ValidateMatch HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
)


class SlowBody:
    """A request whose body comes one byte a while, on a raw connection; ``answer`` is what the
    server said before closing (b"" while it has said nothing). ``start``: what is sent at once
    (the whole head and the body's first byte, or less: the head still coming)."""

    def __init__(
        self, port: int, *, every: float, source: str = "127.0.0.1", start: bytes = SLOW_REQUEST
    ) -> None:
        self.socket = socket.create_connection(
            ("127.0.0.1", port), timeout=HTTP_TIMEOUT, source_address=(source, 0)
        )
        self.socket.sendall(start)
        self.every = every
        self.answer = b""
        self.closed = threading.Event()
        threading.Thread(target=self._drip, daemon=True).start()

    def _drip(self) -> None:
        self.socket.settimeout(self.every)
        try:
            while True:
                try:
                    data = self.socket.recv(65536)
                except TimeoutError:
                    self.socket.sendall(b" ")  # one byte more, a while later
                    continue
                if not data:
                    return
                self.answer += data
        except OSError:
            return  # closed by the server while sending
        finally:
            self.closed.set()
            self.socket.close()


def health_of(port: int) -> int:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        return stub.Check(health_pb2.HealthCheckRequest(), timeout=RPC_TIMEOUT).status


def test_slow_bodies_are_answered_and_closed_while_native_health_answers(figures: Figures) -> None:
    limits = WebLimits(body_seconds=2.0, requests_per_address=1000)
    with running_server(web_port=0, web_limits=limits) as running:
        started = time.monotonic()
        slow = [SlowBody(running.web_port, every=0.5) for _ in range(100)]
        checks = 0
        while not all(body.closed.is_set() for body in slow):
            assert health_of(running.port) == health_pb2.HealthCheckResponse.SERVING
            checks += 1
            assert time.monotonic() - started < 120, "slow bodies were still open after 120 s"
            slow[0].closed.wait(0.2)
        figures.update(slow_bodies=len(slow), all_closed_after_s=round(time.monotonic() - started, 1))
        figures.update(health_checks_serving=checks)
        for body in slow:
            head = body.answer.split(b"\r\n", 1)[0]
            assert head == b"HTTP/1.1 429 ", body.answer[:200]
            assert b"did not arrive within 2 seconds" in body.answer
    figures.passed()


def test_one_address_has_a_bounded_number_of_requests_open_and_refusals_count_as_calls() -> None:
    limits = WebLimits(body_seconds=60.0, requests_per_address=3)
    quotas = QuotaLimits(calls_per_second=0.001, call_burst=5)
    with running_server(web_port=0, web_limits=limits, quotas=quotas) as running:
        slow = [SlowBody(running.web_port, every=1.0) for _ in range(3)]
        try:
            status, _, body = post(
                running.web_port, "/grpc.health.v1.Health/Check", b"{}", "application/json"
            )
            assert status == 429
            assert b"this address has 3 requests open on the web port" in body
        finally:
            for dripping in slow:
                dripping.socket.shutdown(socket.SHUT_RDWR)
        for dripping in slow:
            assert dripping.closed.wait(HTTP_TIMEOUT)
        answered = 0
        while post(running.web_port, VALIDATE_MATCH, b"{}", "application/json")[0] != 429:
            answered += 1
            assert answered < 100, "the calls of the address were never limited"
        assert answered == 4  # the refused request took one of the five the burst allows


# A server allowed 320 descriptors keeps 256 of them from the web port (WebLimits'
# reserved_descriptors): 64 requests open at once over every address, fewer than one address may.
DESCRIPTORS = 320
FLOODING_ADDRESSES = [f"127.0.0.{number}" for number in range(2, 12)]
SLOW_BODIES_AN_ADDRESS = 40


def wait_for_web_port(port: int) -> None:
    """Until the web port takes connections (it opens after the native port answers)."""
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=HTTP_TIMEOUT).close()
            return
        except ConnectionRefusedError:
            time.sleep(0.1)
    raise AssertionError(f"the web port {port} never opened")


def test_slow_bodies_from_many_addresses_leave_descriptors_for_the_native_port(
    tmp_path: Path, figures: Figures
) -> None:
    web_port = free_port()
    served = serve(
        *("--db", str(tmp_path / "games.sqlite3"), "--web-port", str(web_port), "--web-body-seconds", "120"),
        log=tmp_path / "serve.log",
        descriptors=DESCRIPTORS,
    )
    slow: list[SlowBody] = []
    try:
        wait_for_web_port(web_port)
        closed_at_once = 0
        for source in FLOODING_ADDRESSES:  # 400 requests in all, more than the server's descriptors
            for _ in range(SLOW_BODIES_AN_ADDRESS):
                try:
                    slow.append(SlowBody(web_port, every=1.0, source=source, start=SLOW_REQUEST[:60]))
                except OSError:  # closed before its request was sent
                    closed_at_once += 1
        checks = 0
        # Every connection past the 64 the web port holds is closed (at once, or answered 503 when
        # its request came on a connection already held).
        while sum(not body.closed.is_set() for body in slow) > 64:
            assert health_of(served.port) == health_pb2.HealthCheckResponse.SERVING  # a new connection
            checks += 1
            assert checks < 600, f"{sum(not body.closed.is_set() for body in slow)} slow bodies held"
            time.sleep(0.1)
        held = [body for body in slow if not body.closed.is_set()]
        for _ in range(10):  # while the 64 are held
            assert health_of(served.port) == health_pb2.HealthCheckResponse.SERVING
            checks += 1
        refused_full = sum(b"the web port is full" in body.answer for body in slow)
        descriptors_used = len(list(Path(f"/proc/{served.pid}/fd").iterdir()))
        assert health_of(served.port) == health_pb2.HealthCheckResponse.SERVING
        with connected(served.port) as client:  # and a call that reaches the store
            assert client.create_game()[0].name
        figures.update(slow_bodies=len(slow) + closed_at_once, held=len(held), refused_503=refused_full)
        figures.update(closed_unanswered=len(slow) - len(held) - refused_full + closed_at_once)
        figures.update(health_checks_serving=checks)
        figures.update(descriptors_used=descriptors_used, descriptors_allowed=DESCRIPTORS)
        answers = [body.answer for body in slow if body.closed.is_set()]
        assert all(not answer or b"the web port is full" in answer for answer in answers)
    finally:
        for dripping in slow:
            dripping.socket.close()
        stop(served)
    logged = [json.loads(line) for line in served.log.read_text().splitlines() if line.startswith("{")]
    assert not [line for line in logged if line.get("level") == "error"]
    assert not tracebacks(served.log)
    figures.passed()


VALIDATE_MATCH = "/tavli.v1.RulesService/ValidateMatch"


SPOKEN = ["application/json", "application/proto", "application/connect+json", "application/connect+proto"]
WEB_CONTENT_TYPES = [
    *SPOKEN * 3,
    "application/grpc-web+proto",
    "application/grpc-web",
    "application/grpc-web-text",
    "application/grpc",
    "text/plain",
    "",
]  # mostly what the web port speaks, so that most requests reach a method
WEB_FUZZ_REQUESTS = 1500
# Every fuzzed call has a deadline, as a careful client's: Health.Watch streams for ever, and a
# stream cut by its deadline (deadline_exceeded) is no fault.
DEADLINE = {"Connect-Timeout-Ms": "1000", "Grpc-Timeout": "1000m"}


def fuzzed_body(rng: random.Random, real_name: str) -> bytes:
    """Bytes, JSON of random fields (a real game's name among them, so that streams reach a game),
    or envelopes with random flags and lengths, short or lying."""
    kind = rng.randrange(5)
    if kind == 0:
        return rng.randbytes(rng.randrange(40))
    if kind == 1:
        field = rng.choice(["name", "seatToken", "requestId", "fromSequence", "record", "xgid", "notation"])
        value = rng.choice(["games/none", "\u0000", "x" * rng.randrange(3000), -1, 10**30, None, [], {}])
        return json.dumps({field: value}).encode()
    if kind == 2:
        watch = {"name": real_name, "fromSequence": rng.choice([0, 3, -1, 10**6, 2**63, "7", None])}
        message = json.dumps(watch).encode()
        return rng.choice([message, struct.pack(">BI", 0, len(message)) + message])  # unary or a stream's
    payload = rng.randbytes(rng.randrange(30))
    length = rng.choice([len(payload), len(payload) + rng.randrange(1, 9), 2**31 - 1])
    return struct.pack(">BI", rng.randrange(256), length) + payload


def web_faults(status: int, headers: dict[str, str], body: bytes) -> list[str]:
    """What in one answer of the web port is a fault of the server: a 5xx, or internal/unknown
    in any of the places Connect and gRPC-Web put a status (501, unimplemented, answers a
    method the server does not offer). A 504 that says deadline_exceeded is the client's own
    deadline passing on a busy machine, no fault."""
    text = body.decode("latin-1")
    own_deadline = status == 504 and '"code":"deadline_exceeded"' in text.replace(" ", "")
    found = [f"HTTP {status}"] if status >= 500 and status != 501 and not own_deadline else []
    if headers.get("grpc-status") in ("2", "13"):
        found.append(f"grpc-status {headers['grpc-status']}")
    for code in ('"code":"internal"', '"code":"unknown"', "grpc-status:2\r", "grpc-status:13\r"):
        if code in text.replace(" ", ""):
            found.append(code)
    return found


def test_fuzzed_requests_to_every_method_of_the_web_port_never_fault_it(
    server: Running, caplog: pytest.LogCaptureFixture, figures: Figures
) -> None:
    rng = random.Random(25)
    methods = [
        (f"/{service.full_name}/{method.name}", method)
        for service in (*SERVICES, health_pb2.DESCRIPTOR.services_by_name["Health"])
        for method in service.methods
    ]
    streams = [path for path, method in methods if method.server_streaming]
    paths = [path for path, _ in methods] + streams * 4  # the streams as often as a few methods
    with connected(server.port) as client:  # a finished match: a stream of it ends by itself
        real_name = play_to_end(client.create_game(match_length=1), Policy(random.Random(3))).name
    caplog.set_level(logging.WARNING)
    faulty: list[str] = []
    statuses: Counter[int] = Counter()
    with capture_logs() as logs:
        for _ in range(WEB_FUZZ_REQUESTS):
            path, content_type = rng.choice(paths), rng.choice(WEB_CONTENT_TYPES)
            body = fuzzed_body(rng, real_name)
            status, headers, answer = post(server.web_port, path, body, content_type, **DEADLINE)
            statuses[status] += 1
            faulty += [
                f"{path} {content_type} {body[:40]!r}: {fault}"
                for fault in web_faults(status, headers, answer)
            ]
    errors = [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]
    figures.update(
        requests=WEB_FUZZ_REQUESTS, statuses=dict(statuses), faults=len(faulty), errors_logged=len(errors)
    )
    assert not faulty, faulty[:10]
    assert not errors, errors[:5]
    assert not faults(logs)
    assert health_of(server.port) == health_pb2.HealthCheckResponse.SERVING
    figures.passed()


def test_web_streams_count_against_the_same_stream_quota_as_native_ones() -> None:
    with (
        running_server(web_port=0, quotas=QuotaLimits(streams_per_client=2)) as running,
        connected(running.port) as client,
    ):
        mine, _ = client.create_game()
        client.games.RollDice(games_pb2.RollDiceRequest(name=mine.name, seat_token=mine.token))
        native = client.games.WatchGame(games_pb2.WatchGameRequest(name=mine.name), timeout=RPC_TIMEOUT)
        next(native)  # open, and counted
        web = socket.create_connection(("127.0.0.1", running.web_port), timeout=HTTP_TIMEOUT)
        try:
            body = json.dumps({"name": mine.name}).encode()
            web.sendall(
                b"POST /tavli.v1.GamesService/WatchGame HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/connect+json\r\n"
                + f"Content-Length: {len(body) + 5}\r\n\r\n".encode()
                + envelope(body)
            )
            assert b" 200 " in web.recv(4096)  # the second stream: open
            third = envelope(body)
            _, _, answer = post(
                running.web_port, "/tavli.v1.GamesService/WatchGame", third, "application/connect+json"
            )
            end = json.loads(answer[answer.rindex(b'{"error"') :])
            assert end["error"]["code"] == "resource_exhausted"
            assert "stream" in end["error"]["message"]
        finally:
            web.close()
            native.cancel()
