"""The web port: tavli.v1 in the Connect protocol and gRPC-Web, answered by the same services as
native gRPC (the same games, refusals in the same words, the same quotas), hostile requests
refused in words, and the web table's files with their headers."""

from __future__ import annotations

import base64
import http.client
import json
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from google.rpc import error_details_pb2

from tavli.server.app import Running
from tavli.server.quotas import QuotaLimits
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2
from tests.server_play import connected, running_server, serve_command

TIMEOUT = 30


@pytest.fixture(scope="module")
def server() -> Iterator[Running]:
    with running_server(web_port=0) as running:
        yield running


def post(
    port: int, path: str, body: bytes, content_type: str, **headers: str
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        connection.request("POST", path, body=body, headers={"Content-Type": content_type, **headers})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def call(port: int, method: str, message: dict[str, Any], **headers: str) -> tuple[int, dict[str, Any]]:
    """A Connect unary call in JSON, as a browser's fetch makes it: the status and the body."""
    status, _, body = post(
        port, f"/tavli.v1.{method}", json.dumps(message).encode(), "application/json", **headers
    )
    return status, json.loads(body)


def reason_of(error: dict[str, Any]) -> str:
    """The google.rpc.ErrorInfo reason among a Connect error's details."""
    for detail in error.get("details", []):
        if detail["type"] == "google.rpc.ErrorInfo":
            value = detail["value"] + "=" * (-len(detail["value"]) % 4)
            return error_details_pb2.ErrorInfo.FromString(base64.b64decode(value)).reason
    return ""


def envelope(payload: bytes, flags: int = 0) -> bytes:
    return struct.pack(">BI", flags, len(payload)) + payload


def read_envelopes(response: http.client.HTTPResponse) -> Iterator[tuple[int, bytes]]:
    while True:
        head = response.read(5)
        if len(head) < 5:
            return
        flags, length = struct.unpack(">BI", head)
        yield flags, response.read(length)


def test_a_game_created_over_connect_is_the_game_native_clients_see(server: Running) -> None:
    status, created = call(
        server.web_port,
        "GamesService/CreateGame",
        {
            "ruleSet": {"variant": "VARIANT_BACKGAMMON", "matchLength": 3},
            "seat0Player": {"displayName": "Ann"},
        },
    )
    assert status == 200
    name = created["game"]["name"]
    with connected(server.port) as client:
        native = client.game(name)
    assert native.seat0_player.display_name == "Ann"
    assert native.rule_set.match_length == 3
    # the token works natively too: the same seat
    with connected(server.port) as client:
        answer = client.games.RollDice(games_pb2.RollDiceRequest(name=name, seat_token=created["seat0Token"]))
    assert answer.game.event_count == 1
    status, seen = call(server.web_port, "GamesService/GetGame", {"name": name})
    assert status == 200 and seen["game"]["eventCount"] == "1"


def test_a_refusal_keeps_its_code_words_and_reason(server: Running) -> None:
    status, error = call(server.web_port, "GamesService/GetGame", {"name": "games/none"})
    assert status == 404
    assert error["code"] == "not_found"
    assert "no game" in error["message"]
    assert reason_of(error) == "GAME_NOT_FOUND"
    status, created = call(
        server.web_port, "GamesService/CreateGame", {"ruleSet": {"variant": "VARIANT_BACKGAMMON"}}
    )
    status, error = call(
        server.web_port,
        "GamesService/PlayMove",
        {"name": created["game"]["name"], "seatToken": "forged", "notation": "8/5 6/5"},
    )
    assert (status, error["code"], reason_of(error)) == (403, "permission_denied", "WRONG_SEAT_TOKEN")


def test_rule_queries_answer_with_the_reason_in_a_players_words(server: Running) -> None:
    status, answer = call(
        server.web_port,
        "RulesService/ValidatePlay",
        {
            "variant": "VARIANT_BACKGAMMON",
            "position": {"positionId": "4HPwATDgc/ABMA"},
            "dice": [6, 5],
            "notation": "24/18",
        },
    )
    assert status == 200
    assert answer.get("legal") is not True
    assert answer["reason"]


@pytest.mark.parametrize(
    "body",
    [b"{not json", b'{"name": 7}', b"[]", b'{"name": "' + b"x" * 300 + b'"}'],
    ids=["broken", "wrong-type", "array", "name-too-long"],
)
def test_bad_bodies_are_refused_in_words_never_internal(server: Running, body: bytes) -> None:
    status, _, answer = post(server.web_port, "/tavli.v1.GamesService/GetGame", body, "application/json")
    error = json.loads(answer)
    assert status in (400, 404)
    assert error["code"] in ("invalid_argument", "not_found")
    assert error["message"] and "internal" not in error["message"].lower()


def test_a_body_over_the_message_limit_is_refused(server: Running) -> None:
    huge = json.dumps({"name": "x" * (5 * 1024 * 1024)}).encode()
    status, _, answer = post(server.web_port, "/tavli.v1.GamesService/GetGame", huge, "application/json")
    assert status in (400, 413, 429)
    assert json.loads(answer)["code"] in ("resource_exhausted", "invalid_argument")


def test_an_unknown_method_and_the_two_way_stream_are_not_there(server: Running) -> None:
    for path in ("/tavli.v1.GamesService/NoSuch", "/tavli.v1.GamesService/PlaySeat"):
        status, _, _ = post(server.web_port, path, b"{}", "application/json")
        assert status == 404


def test_watch_game_streams_each_event_as_it_is_stored(server: Running) -> None:
    _, created = call(
        server.web_port, "GamesService/CreateGame", {"ruleSet": {"variant": "VARIANT_LONG_NARDI"}}
    )
    name = created["game"]["name"]
    connection = http.client.HTTPConnection("127.0.0.1", server.web_port, timeout=TIMEOUT)
    connection.request(
        "POST",
        "/tavli.v1.GamesService/WatchGame",
        body=envelope(json.dumps({"name": name}).encode()),
        headers={"Content-Type": "application/connect+json"},
    )

    def open_and_roll() -> None:
        with connected(server.port) as client:
            opened = client.games.RollDice(
                games_pb2.RollDiceRequest(name=name, seat_token=created["seat0Token"])
            )
            starter = created["seat0Token"] if opened.game.turn == games_pb2.SEAT_0 else created["seat1Token"]
            client.games.RollDice(games_pb2.RollDiceRequest(name=name, seat_token=starter))

    player = threading.Thread(target=open_and_roll)
    player.start()
    response = connection.getresponse()  # the headers come with the first message
    assert response.status == 200
    frames = read_envelopes(response)
    seen = []
    for flags, payload in frames:
        assert flags == 0, payload
        seen.append(json.loads(payload))
        if len(seen) == 2:
            break
    player.join()
    connection.close()
    assert [message["game"]["eventCount"] for message in seen] == ["1", "2"]
    assert [message["event"]["kind"] for message in seen] == ["EVENT_KIND_OPENING_THROW", "EVENT_KIND_ROLL"]


def test_grpc_web_answers_as_well(server: Running) -> None:
    request = games_pb2.GetGameRequest(name="games/none").SerializeToString()
    status, _, body = post(
        server.web_port, "/tavli.v1.GamesService/GetGame", envelope(request), "application/grpc-web+proto"
    )
    assert status == 200
    # the status comes in the trailers frame (flag 0x80) that ends the body
    assert body[:1] == b"\x80"
    lines = body[5:].decode().split("\r\n")
    trailers = {
        key.strip().lower(): value.strip()
        for key, _, value in (line.partition(":") for line in lines if line)
    }
    assert trailers["grpc-status"] == "5"
    assert "no game" in urllib.parse.unquote(trailers["grpc-message"])


def test_a_page_elsewhere_cannot_reach_the_server_by_its_own_name(server: Running) -> None:
    status, _, body = post(
        server.web_port,
        "/tavli.v1.GamesService/ListGames",
        b"{}",
        "application/json",
        Host="evil.example:8080",
    )
    assert status == 421
    assert b"loopback" in body
    status, _, _ = post(
        server.web_port,
        "/tavli.v1.GamesService/ListGames",
        b"{}",
        "application/json",
        Host=f"localhost:{server.web_port}",
    )
    assert status == 200


def test_a_browser_counts_against_its_own_address_and_a_forged_header_changes_nothing() -> None:
    with running_server(web_port=0, quotas=QuotaLimits(live_games_per_client=2)) as running:
        # a native client cannot pass for someone else by sending the web port's header
        with connected(running.port) as client:
            request = games_pb2.CreateGameRequest(
                rule_set=games_pb2.RuleSet(variant=board_pb2.VARIANT_BACKGAMMON)
            )
            client.games.CreateGame(request, metadata=(("tavli-web-client", "203.0.113.7"),))
        # the browser on 127.0.0.1 is the same client as the native one on 127.0.0.1
        status, _ = call(
            running.web_port, "GamesService/CreateGame", {"ruleSet": {"variant": "VARIANT_BACKGAMMON"}}
        )
        assert status == 200
        status, error = call(
            running.web_port, "GamesService/CreateGame", {"ruleSet": {"variant": "VARIANT_BACKGAMMON"}}
        )
        assert status == 429 and error["code"] == "resource_exhausted"
        assert reason_of(error) == "TOO_MANY_GAMES"


def test_serve_offers_the_web_port_on_loopback_by_default() -> None:
    help_text = subprocess.run(
        [sys.executable, "-m", "tavli.clients.cli", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert "--web-port" in help_text and "8080" in help_text
    assert "--no-web" in help_text


def test_a_web_port_in_use_is_one_line_saying_so_and_how_to_choose_another(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        web_port = taken.getsockname()[1]
        done = subprocess.run(
            serve_command(
                "--port", "0", "--db", str(tmp_path / "games.sqlite3"), "--web-port", str(web_port)
            ),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 2
    assert f"port {web_port} on 127.0.0.1 is already in use" in done.stderr
    assert "--web-port" in done.stderr and "--no-web" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_browser_on_ipv6_is_its_address_without_the_port() -> None:
    from connectrpc.request import RequestContext

    from tavli.server.web import _metadata

    for seen, host in (
        ("::1:50432", "::1"),
        ("2001:db8::5:443", "2001:db8::5"),
        ("127.0.0.1:8080", "127.0.0.1"),
    ):
        context = RequestContext(method=None, http_method="POST", request_headers=None, client_address=seen)  # type: ignore[arg-type]
        assert _metadata(context) == (("tavli-web-client", host),)


def test_a_browser_acts_for_an_account_with_its_key_in_the_authorization_header(server: Running) -> None:
    _, key = server.ladder.accounts.create("alice", "Alice", "human")
    status, answer = call(server.web_port, "LadderService/GetAccount", {}, Authorization=f"Bearer {key}")
    assert status == 200 and answer["account"]["handle"] == "alice"
    status, refused = call(server.web_port, "LadderService/GetAccount", {})
    assert status == 401 and reason_of(refused) == "MISSING_API_KEY"


def test_the_json_a_browsers_calls_cost_the_web_process_is_charged_to_its_cpu_budget() -> None:
    budget = 1e-6  # CPU seconds a minute: so little comes back while the test waits that a charge shows
    with running_server(web_port=0, quotas=QuotaLimits(cpu_seconds_per_minute=budget)) as server:
        quotas = server.checks.quotas
        status, created = call(
            server.web_port, "GamesService/CreateGame", {"ruleSet": {"variant": "VARIANT_BACKGAMMON"}}
        )
        assert status == 200
        for _ in range(10):
            assert call(server.web_port, "GamesService/GetGame", {"name": created["game"]["name"]})[0] == 200
        # The web process tells the server what its clients owe once a second.
        deadline = time.monotonic() + TIMEOUT
        while quotas.cpu_left("127.0.0.1") >= budget:
            assert time.monotonic() < deadline, "the JSON of the browser's calls was never charged"
            time.sleep(0.05)
        assert quotas.cpu_left("::1") == budget  # another client's budget is untouched


def test_the_json_of_a_browsers_watch_is_charged_to_its_cpu_budget() -> None:
    budget = 1e-6
    with running_server(web_port=0, quotas=QuotaLimits(cpu_seconds_per_minute=budget)) as server:
        quotas = server.checks.quotas
        with connected(server.port) as client:  # native calls: nothing charged for them
            created = client.games.CreateGame(
                games_pb2.CreateGameRequest(rule_set=games_pb2.RuleSet(variant=board_pb2.VARIANT_BACKGAMMON))
            )
            client.games.RollDice(
                games_pb2.RollDiceRequest(name=created.game.name, seat_token=created.seat0_token)
            )
        assert quotas.cpu_left("127.0.0.1") == budget
        connection = http.client.HTTPConnection("127.0.0.1", server.web_port, timeout=TIMEOUT)
        connection.request(
            "POST",
            "/tavli.v1.GamesService/WatchGame",
            body=envelope(json.dumps({"name": created.game.name}).encode()),
            headers={"Content-Type": "application/connect+json"},
        )
        flags, payload = next(read_envelopes(connection.getresponse()))
        assert flags == 0 and json.loads(payload)["event"]["kind"] == "EVENT_KIND_OPENING_THROW"
        deadline = time.monotonic() + TIMEOUT
        while quotas.cpu_left("127.0.0.1") >= budget:
            assert time.monotonic() < deadline, "the JSON of the browser's watch was never charged"
            time.sleep(0.05)
        connection.close()
